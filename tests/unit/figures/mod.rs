mod bench;
mod diagrams;
mod edition;
mod style;
