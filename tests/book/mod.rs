//! The built artifacts: the figures, the rendered book and the registries
//! behind its prose.

mod browser;
mod captions;
mod cards;
mod essay;
mod explorer;
mod figures;
mod legends;
mod legibility;
mod length;
mod notation;
mod numbers;
mod palette;
mod parity;
mod paths;
mod phrases;
mod quotes;
mod referee;
mod rendered;
mod serve;
mod snippets;
mod terms;
mod verdicts;
