mod cache;
mod coordinate_mismatch;
mod coverage;
mod delta_attention;
mod example;
mod fixed_points;
mod multi_head;
mod relations;
