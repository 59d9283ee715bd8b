mod bench;
mod diagrams;
mod style;
