//! The figures' English in the Chinese edition: every title, axis
//! description, legend entry and note a figure draws, with its Chinese,
//! looked up whole with its numbers taken out (as the cards' strings are,
//! [`super::cards::skeleton`]).
