mod large;
mod recall;
