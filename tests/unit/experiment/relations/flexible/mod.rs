mod member;
mod verdict;
