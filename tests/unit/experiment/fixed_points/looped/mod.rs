mod verdict;
