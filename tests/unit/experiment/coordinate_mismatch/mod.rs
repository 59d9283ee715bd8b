mod rotating;
mod rotating_verdict;
mod row_ranks;
mod trained_verdict;
