mod budget;
mod large;
mod operator;
mod recall;
