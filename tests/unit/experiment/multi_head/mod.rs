mod induction_heads;
mod pruning;
mod repair;
mod trained;
