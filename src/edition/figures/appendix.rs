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
    ("sequence length T", "序列长度 T"),
    (
        "share of the kernel's roofline bound",
        "占内核 roofline 界的比例",
    ),
    ("bound / measured time (%)", "界 / 实测时间（%）"),
];
