mod roles;
mod senses;
mod sinks;
mod verdict;
