mod budget;
mod operator;
mod recall;
