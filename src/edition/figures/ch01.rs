//! The figures' strings of chapter 1 in Chinese (see [`super::zh`]).

/// English figure string → Chinese, numbers in the same order.
pub const FIGURES: &[(&str, &str)] = &[
    (
        "raw similarity vs score, mean ± sd over 200 seeds",
        "原始相似度与分数：200 个种子的均值 ± 标准差",
    ),
    ("k-NN overlap", "最近邻重合度"),
    ("self-match", "自身匹配率"),
    ("identity", "恒等"),
    ("tied", "共享"),
    ("untied", "独立"),
    ("chance", "随机水平"),
];
