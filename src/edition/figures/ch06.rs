//! The figures' strings of chapter 6 in Chinese (see [`super::zh`]).

/// English figure string → Chinese, numbers in the same order.
pub const FIGURES: &[(&str, &str)] = &[
    (
        "match task: final test accuracy, mean ± sd over 20 seeds",
        "匹配任务：最终测试准确率，20 个种子的均值 ± 标准差",
    ),
    ("training examples", "训练样本数"),
    ("fresh every step", "每步都用新样本"),
    ("mimetic", "模仿初始化"),
    ("match task", "匹配任务"),
    (
        "Spearman ρ(raw x_q·x_j, x_q W_QK x_jᵀ)",
        "Spearman ρ(原始 x_q·x_j, x_q W_QK x_jᵀ)",
    ),
    ("successor task", "后继任务"),
    ("symmetric share of ‖W_QK‖²", "‖W_QK‖² 中对称部分的占比"),
    ("ln(vocab): a uniform guess", "ln(词表大小)：均匀猜测"),
    (
        "match task: training loss (mean, 10–90% band)",
        "匹配任务：训练损失（均值，10–90% 区间）",
    ),
    ("cross-entropy (nats)", "交叉熵（nats）"),
    (
        "successor task: training loss (mean, 10–90% band)",
        "后继任务：训练损失（均值，10–90% 区间）",
    ),
    ("match task, 20 seeds", "匹配任务，20 个种子"),
    ("fraction of seeds", "种子比例"),
    ("steps to test accuracy ≥ 0.8", "测试准确率 ≥ 0.8 的步数"),
    ("untied (20/20)", "独立（20/20）"),
    ("tied (20/20)", "共享（20/20）"),
    ("mimetic (20/20)", "模仿初始化（20/20）"),
    ("identity (19/20)", "恒等（19/20）"),
    ("successor task, 20 seeds", "后继任务，20 个种子"),
];
