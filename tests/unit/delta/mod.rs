mod fused;
