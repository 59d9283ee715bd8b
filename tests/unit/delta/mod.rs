mod fused;
mod wide;
