//! The figures' strings of the appendices in Chinese (see [`super::zh`]).

/// English figure string → Chinese, numbers in the same order.
pub const FIGURES: &[(&str, &str)] = &[
    (
        "thin: K = V = 64, thick: 128",
        "细线：K = V = 64，粗线：128",
    ),
    (
        "time per call (matrix product: 52.6 GFLOP/s)",
        "每次调用的时间（矩阵乘法：52.6 GFLOP/s）",
    ),
    ("median time (ms)", "时间中位数（ms）"),
    ("KDA, recurrence (kda)", "KDA，递推（kda）"),
    ("KDA, fused (kda_fused)", "KDA，融合（kda_fused）"),
    ("KDA, chunked (kda_chunked)", "KDA，分块（kda_chunked）"),
    ("sequence length T", "序列长度 T"),
    (
        "share of the kernel's roofline bound",
        "占内核 roofline 界的比例",
    ),
    ("bound / measured time (%)", "界 / 实测时间（%）"),
];
