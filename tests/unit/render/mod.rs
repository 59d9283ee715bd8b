mod quotes;
mod search;
