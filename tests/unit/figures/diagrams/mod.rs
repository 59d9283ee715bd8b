mod coordinates;
mod covering;
mod delta_rule;
