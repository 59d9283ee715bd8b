mod large;
mod operator;
mod recall;
