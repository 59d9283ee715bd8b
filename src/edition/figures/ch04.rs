//! The figures' strings of chapter 4 in Chinese (see [`super::zh`]).

/// English figure string → Chinese, numbers in the same order.
pub const FIGURES: &[(&str, &str)] = &[
    (
        "agreement with leave-one-out, 200 seeds",
        "与留一效应的一致程度，200 个种子",
    ),
    (
        "Spearman ρ, rollout vs leave-one-out",
        "Spearman ρ，rollout 对留一效应",
    ),
    (
        "Spearman ρ, last-layer attention vs leave-one-out",
        "Spearman ρ，最后一层注意力对留一效应",
    ),
    (
        "above the diagonal: rollout agrees better",
        "对角线上方：rollout 更一致",
    ),
    (
        "new prefix: suffix relations that change",
        "换一个前缀：后缀中改变的关系",
    ),
    (
        "fraction of suffix tokens whose strongest partner changes",
        "最强伙伴改变的后缀单标比例",
    ),
    ("layer 1", "第 1 层"),
    (
        "arrow on its own input vs on the prompt",
        "箭头作用于自身输入对作用于提示",
    ),
    ("mean row total-variation distance", "逐行全变差距离的均值"),
    ("layer 1 attention A_1", "第 1 层注意力 A_1"),
    ("key j", "Key j"),
    ("layer 2 attention A_2", "第 2 层注意力 A_2"),
    ("layer 3 attention A_3", "第 3 层注意力 A_3"),
    ("input token j", "输入单标 j"),
    (
        "SmolLM2: the same word after two prefixes",
        "SmolLM2：两个前缀之后的同一个词",
    ),
    ("1 − cos, mean over pairs", "1 − cos，对各对取平均"),
    (
        "depth l (state after block l)",
        "深度 l（第 l 块之后的状态）",
    ),
    (
        "same word, two prefixes, trained",
        "同一个词，两个前缀，训练后",
    ),
    ("two unrelated words, trained", "两个无关的词，训练后"),
    (
        "same word, two prefixes, random",
        "同一个词，两个前缀，随机",
    ),
    ("two unrelated words, random", "两个无关的词，随机"),
    ("linear attention qₜ·kⱼ", "线性注意力 qₜ·kⱼ"),
    (
        "delta rule wₜⱼ (vermillion: negative)",
        "delta 规则 wₜⱼ（朱红：负）",
    ),
    (
        "bank's row: raw attention of the last layer (head mean) and rollout",
        "bank 这一行：最后一层的原始注意力（对头平均）与 rollout",
    ),
    (
        "MiniLM, river bank: 6 layers",
        "MiniLM，河岸义的 bank：6 层",
    ),
    ("last layer", "最后一层"),
    (
        "MiniLM, money bank: 6 layers",
        "MiniLM，银行义的 bank：6 层",
    ),
    (
        "SmolLM2, river bank: 30 layers",
        "SmolLM2，河岸义的 bank：30 层",
    ),
    (
        "SmolLM2, money bank: 30 layers",
        "SmolLM2，银行义的 bank：30 层",
    ),
    ("W_Q, W_K learned", "学习 W_Q、W_K"),
    ("frozen at this member's form", "冻结在这个成员的形式"),
    ("frozen at another member's form", "冻结在另一个成员的形式"),
    ("flexible: final test accuracy", "灵活：最终测试准确率"),
    ("test accuracy", "测试准确率"),
    ("member: answer at key q + r", "成员：答案在 Key q + r"),
    (
        "costly: steps to test accuracy ≥ threshold",
        "代价高：测试准确率达到阈值的步数",
    ),
    (
        "Adam steps (evaluated every 5)",
        "Adam 步数（每 5 步评估一次）",
    ),
    ("threshold 0.8", "阈值 0.8"),
    (
        "null: 95% of shuffled-label runs below",
        "零假设：95% 的打乱标签运行低于此线",
    ),
    ("X_0 (prompt)", "X_0（提示）"),
    ("composite R = M_3 M_2 M_1", "复合 R = M_3 M_2 M_1"),
    ("token i of X_3", "X_3 的单标 i"),
    (
        "M_l = ½ I + ½ A_l; row i says where token i reads from (line width ∝ weight).",
        "M_l = ½ I + ½ A_l；第 i 行说明单标 i 从哪里读取（线宽 ∝ 权重）。",
    ),
    (
        "The path 3 → 1 → 2 → 0 is one term of R[3, 0] = 0.27; R sums every path.",
        "路径 3 → 1 → 2 → 0 是 R[3, 0] = 0.27 中的一项；R 对所有路径求和。",
    ),
    (
        "steps to test accuracy ≥ 0.8: median and 25–75% band over 12 seeds",
        "测试准确率 ≥ 0.8 的步数：12 个种子的中位数与 25–75% 区间",
    ),
    ("Adam steps (log scale)", "Adam 步数（对数刻度）"),
    (
        "number of relations k (one head of fixed width)",
        "关系数 k（一个固定宽度的头）",
    ),
    (
        "budget: seeds here never reached the threshold",
        "预算：到这里的种子从未达到阈值",
    ),
    (
        "learned head (query: the pair's embedding)",
        "学习的头（Query：这一对的嵌入）",
    ),
    (
        "structure given (query: the named key, W_QK = I)",
        "给定结构（Query：指名的 Key，W_QK = I）",
    ),
    (
        "agreement with the leave-one-out effect",
        "与留一效应的一致程度",
    ),
    (
        "Spearman ρ with the effect on zₘ",
        "与对 zₘ 的效应的 Spearman ρ",
    ),
    ("layer m", "层 m"),
    ("raw attention, trained", "原始注意力，训练后"),
    ("rollout, trained", "rollout，训练后"),
    ("raw attention, random", "原始注意力，随机"),
    ("rollout, random", "rollout，随机"),
    (
        "distance from the measured arrow input → layer m",
        "与实测箭头（输入 → 层 m）的距离",
    ),
    ("mean row TV", "逐行全变差的均值"),
    (
        "composite of one-layer norms, trained",
        "单层范数的复合，训练后",
    ),
    ("linearised composite, trained", "线性化的复合，训练后"),
    ("uniform arrow, trained", "均匀箭头，训练后"),
    (
        "composite of one-layer norms, random",
        "单层范数的复合，随机",
    ),
    ("linearised composite, random", "线性化的复合，随机"),
    ("uniform arrow, random", "均匀箭头，随机"),
    ("the word's hidden state", "这个词的隐藏状态"),
    ("1 − cos(zₗ in A, zₗ in B)", "1 − cos(A 中的 zₗ, B 中的 zₗ)"),
    ("depth l (0: embeddings)", "深度 l（0：嵌入）"),
    (
        "same word, new context, trained",
        "同一个词，新上下文，训练后",
    ),
    ("unrelated sentences, trained", "无关的句子，训练后"),
    ("same word, new context, random", "同一个词，新上下文，随机"),
    ("unrelated sentences, random", "无关的句子，随机"),
    ("the word's strongest partner", "这个词最强的伙伴"),
    (
        "share of the 12 heads whose partner changes",
        "伙伴改变的头在 12 个头中的占比",
    ),
];
