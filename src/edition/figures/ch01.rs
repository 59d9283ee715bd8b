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
    (
        "eigenvalues of (W_QK + W_QKᵀ)/2, mean ± sd over 200 seeds",
        "(W_QK + W_QKᵀ)/2 的特征值：200 个种子的均值 ± 标准差",
    ),
    ("eigenvalue", "特征值"),
    ("eigenvalue index (largest first)", "特征值序号（从大到小）"),
    (
        "bank's query: raw cosine and score, each ranked in its row (1: largest)",
        "bank 的 Query：原始余弦与分数，各在本行中排名（1：最大）",
    ),
    (
        "MiniLM, river bank: layer 3, head 6",
        "MiniLM，河岸义的 bank：第 3 层，头 6",
    ),
    (
        "MiniLM, money bank: layer 3, head 6",
        "MiniLM，银行义的 bank：第 3 层，头 6",
    ),
    (
        "SmolLM2, river bank: layer 15, head 7",
        "SmolLM2，河岸义的 bank：第 15 层，头 7",
    ),
    (
        "SmolLM2, money bank: layer 15, head 7",
        "SmolLM2，银行义的 bank：第 15 层，头 7",
    ),
    ("raw cos", "原始余弦"),
    ("score", "分数"),
    (
        "tokens x_i (the plane's own basis)",
        "单标 x_i（平面自身的基）",
    ),
    ("queries q_i = x_i W_Q", "Query q_i = x_i W_Q"),
    ("keys k_j = x_j W_K", "Key k_j = x_j W_K"),
    ("values v_j = x_j W_V", "Value v_j = x_j W_V"),
    ("token 1 against token j =", "单标 1 对单标 j ="),
    ("raw similarity x₁·x_j", "原始相似度 x₁·x_j"),
    ("score q₁·k_j", "分数 q₁·k_j"),
    (
        "pairwise-distance rank shift under one projection (200 seeds)",
        "一次投影下成对距离的秩偏移（200 个种子）",
    ),
    ("density", "密度"),
    (
        "|rank before − rank after| / number of pairs",
        "|投影前的秩 − 投影后的秩| / 单标对数",
    ),
    ("dₖ = 4 (collapse)", "dₖ = 4（坍缩）"),
    ("score variance explained", "分数方差的解释比例"),
    (
        "R² over pairs j ≤ i, per head",
        "在 j ≤ i 的单标对上的 R²，逐头",
    ),
    ("raw cosine", "原始余弦"),
    ("W_QK, offset 0", "W_QK，偏移 0"),
    ("offset alone", "仅偏移"),
    ("trained", "训练后"),
    ("random", "随机"),
    (
        "symmetric share of the turned form",
        "转动后形式的对称部分占比",
    ),
    ("distance i − j (tokens)", "距离 i − j（单标）"),
    ("identity (ρ = 1.00)", "恒等（ρ = 1.00）"),
    ("score qᵢ·kⱼ/√dₖ", "分数 qᵢ·kⱼ/√dₖ"),
    ("raw dot product xᵢ·xⱼ", "原始点积 xᵢ·xⱼ"),
    ("tied (ρ = 0.73)", "共享（ρ = 0.73）"),
    ("untied (ρ = 0.05)", "独立（ρ = 0.05）"),
    ("tokens x (colour: angle)", "单标 x（颜色：角度）"),
    ("queries q = x W_Q", "Query q = x W_Q"),
    ("keys k = x W_K", "Key k = x W_K"),
    ("trained heads", "训练后的头"),
    ("random heads", "随机的头"),
    ("tied heads", "共享投影的头"),
    (
        "ρ = 0 (top), chance k/(n − 1) (bottom)",
        "ρ = 0（上），随机水平 k/(n − 1)（下）",
    ),
    ("all tokens", "全部单标"),
    (
        "per-row Spearman ρ, raw vs score",
        "逐行 Spearman ρ，原始相似度对分数",
    ),
    ("layer (input hidden states)", "层（输入隐藏状态）"),
    ("without [CLS] and [SEP]", "去掉 [CLS] 和 [SEP]"),
    (
        "k-NN overlap, raw vs score",
        "最近邻重合度，原始相似度对分数",
    ),
    ("random heads, mean ± 2 sd", "随机的头，均值 ± 2 个标准差"),
    (
        "minilm (d = 384, heads of width 32)",
        "MiniLM（d = 384，头宽 32）",
    ),
    (
        "smollm2 (d = 576, heads of width 64)",
        "SmolLM2（d = 576，头宽 64）",
    ),
    (
        "negative mass Σ|λ₋| / Σ|λ| of W_sym",
        "W_sym 的负质量 Σ|λ₋| / Σ|λ|",
    ),
    ("layer", "层"),
    ("layer sum Σₕ W_QKʰ", "层内求和 Σₕ W_QKʰ"),
    (
        "symmetric share ‖W_sym‖²/‖W_QK‖²",
        "对称部分占比 ‖W_sym‖²/‖W_QK‖²",
    ),
];
