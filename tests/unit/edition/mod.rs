mod cards;
mod parity;
mod phrases;
mod words;
