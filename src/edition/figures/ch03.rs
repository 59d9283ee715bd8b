//! The figures' strings of chapter 3 in Chinese (see [`super::zh`]).

/// English figure string → Chinese, numbers in the same order.
pub const FIGURES: &[(&str, &str)] = &[
    (
        "induction accuracy, one head removed (200 seeds)",
        "归纳准确率，去掉一个头（200 个种子）",
    ),
    (
        "accuracy on the repeat, mean ± sd",
        "重复段上的准确率，均值 ± 标准差",
    ),
    ("head removed", "去掉的头"),
    ("all", "全部"),
    ("L1 prev", "L1 前一个"),
    ("L1 same", "L1 相同"),
    ("L1 rnd", "L1 随机"),
    ("L2 induct", "L2 归纳"),
    ("L2 rnd", "L2 随机"),
    (
        "share of the total ablation effect, heads sorted",
        "在总消融效应中的占比，头按大小排序",
    ),
    ("share of total effect", "在总效应中的占比"),
    (
        "head rank (largest effect first)",
        "头的名次（效应最大者在先）",
    ),
    ("equal shares 1/8", "均分 1/8"),
    (
        "random layer, 8 heads: ‖Δ output‖",
        "随机层，8 个头：‖Δ 输出‖",
    ),
    (
        "induction model, 8 heads: accuracy drop",
        "归纳模型，8 个头：准确率下降",
    ),
    ("prefix score, trained", "前缀分数，训练后"),
    ("head", "头"),
    ("prefix score, random", "前缀分数，随机"),
    ("previous token, trained", "前一个单标，训练后"),
    (
        "remove 5 heads: loss on the repeat",
        "去掉 5 个头：重复段上的损失",
    ),
    ("loss rise (nats)", "损失上升（nats）"),
    ("all layers", "所有层"),
    ("same layers", "同样的层"),
    ("induction", "归纳"),
    (
        "heads 18.6, 17.4, 17.3, 17.5, 18.7",
        "头 18.6、17.4、17.3、17.5、18.7",
    ),
    (
        "remove 5 earlier heads: induction",
        "去掉 5 个更早的头：归纳",
    ),
    ("drop of prefix score", "前缀分数的下降"),
    ("layers below", "下方各层"),
    ("previous-token", "前一个单标"),
    ("top-1 agreement", "top-1 一致率"),
    ("share of positions", "位置占比"),
    ("heads removed", "去掉的头数"),
    ("drop of 0.1", "下降 0.1"),
    ("next-token loss", "下一个单标的损失"),
    ("nats per token", "每个单标的 nats"),
    ("random order (3 seeds)", "随机顺序（3 个种子）"),
    ("trained, least important first", "训练后，最不重要的先去掉"),
    (
        "random weights, same order rule",
        "随机权重，同样的排序规则",
    ),
    ("one head zeroed", "一个头置零"),
    ("median κ (1: no repair)", "κ 的中位数（1：没有修复）"),
    ("layer ℓ", "层 ℓ"),
    ("attention layer resampled", "注意力层重采样"),
    (
        "bank's query in every head of one layer: the weight on each token",
        "bank 的 Query 在一层的每个头中：每个单标上的权重",
    ),
    (
        "MiniLM, river bank: layer 3",
        "MiniLM，河岸义的 bank：第 3 层",
    ),
    ("head 0", "头 0"),
    (
        "MiniLM, money bank: layer 3",
        "MiniLM，银行义的 bank：第 3 层",
    ),
    (
        "SmolLM2, river bank: layer 15",
        "SmolLM2，河岸义的 bank：第 15 层",
    ),
    (
        "SmolLM2, money bank: layer 15",
        "SmolLM2，银行义的 bank：第 15 层",
    ),
    (
        "layer 1, head 0: previous token",
        "第 1 层，头 0：前一个单标",
    ),
    ("query position i", "Query 位置 i"),
    ("key position j", "Key 位置 j"),
    ("layer 1, head 1: same token", "第 1 层，头 1：相同单标"),
    ("layer 1, head 2: random", "第 1 层，头 2：随机"),
    ("layer 2, head 0: induction", "第 2 层，头 0：归纳"),
    ("tokens X  (n × d)", "单标 X  (n × d)"),
    ("A_1: its own softmax", "A_1：自己的 softmax"),
    ("A_2: its own softmax", "A_2：自己的 softmax"),
    ("A_3: its own softmax", "A_3：自己的 softmax"),
    ("concatenate", "拼接"),
    ("out  (n × d)", "输出  (n × d)"),
    (
        "A_h = softmax(X W_Qʰ (X W_Kʰ)ᵀ / √d_k): each head normalises its own covering",
        "A_h = softmax(X W_Qʰ (X W_Kʰ)ᵀ / √d_k)：每个头各自归一化自己的覆盖",
    ),
    (
        "out = [A_1 X W_V¹ ⋯ A_H X W_Vᴴ] W_O = Σ_h A_h X W_Vʰ W_Oʰ",
        "输出 = [A_1 X W_V¹ ⋯ A_H X W_Vᴴ] W_O = Σ_h A_h X W_Vʰ W_Oʰ",
    ),
    ("importance: mean 1 − cos", "重要性：1 − cos 的均值"),
    ("previous token: mean αᵢ,ᵢ₋₁", "前一个单标：αᵢ,ᵢ₋₁ 的均值"),
    ("next token: mean αᵢ,ᵢ₊₁", "后一个单标：αᵢ,ᵢ₊₁ 的均值"),
    (
        "sink weight; heads above 4/n: CLS 44",
        "汇点权重；高于 4/n 的头：CLS 44",
    ),
    (
        "trained MiniLM as heads are pruned, least important first: paraphrase retrieval (30 pairs) and word sense (80 trials)",
        "训练后的 MiniLM 逐个剪去头（最不重要的先剪）：复述检索（30 对）与词义（80 次试验）",
    ),
    ("top-1 accuracy, margin", "top-1 准确率，间隔"),
    ("paraphrase top-1 accuracy", "复述 top-1 准确率"),
    ("paraphrase mean margin", "复述的平均间隔"),
    (
        "word-sense accuracy (chance 0.5)",
        "词义准确率（随机水平 0.5）",
    ),
    ("chance, paraphrase top-1", "随机水平，复述 top-1"),
    (
        "trained MiniLM: 288 head ablations",
        "训练后的 MiniLM：288 次头消融",
    ),
    ("total effect along it", "总效应在其方向上的分量"),
    (
        "direct effect's turn ‖(Δ_dir)⊥‖",
        "直接效应的转向 ‖(Δ_dir)⊥‖",
    ),
    (
        "random MiniLM: 144 head ablations",
        "随机的 MiniLM：144 次头消融",
    ),
    (
        "total = direct (no repair)",
        "总效应 = 直接效应（没有修复）",
    ),
    ("layer 0", "第 0 层"),
    (
        "trained: who compensates (mean share c_k)",
        "训练后：谁在补偿（平均占比 c_k）",
    ),
    (
        "share of the direct effect cancelled",
        "被抵消的直接效应占比",
    ),
    (
        "later sublayer (A = attention, F = FFN, of layer ℓ)",
        "后续子层（第 ℓ 层的 A = 注意力，F = FFN）",
    ),
    (
        "one head of rank r, mean ± sd over 50 seeds",
        "秩为 r 的单头，50 个种子的均值 ± 标准差",
    ),
    (
        "pattern error (mean total variation)",
        "模式误差（平均全变差）",
    ),
    (
        "rank r of the head's logits (its dₖ)",
        "头的 logits 的秩 r（即它的 dₖ）",
    ),
    ("previous token", "前一个单标"),
    ("same attribute", "相同属性"),
    ("task: previous + same", "任务：前一个 + 相同"),
    ("task: same a + same b", "任务：相同 a + 相同 b"),
    (
        "same total width: one wide head vs two narrow heads",
        "总宽度相同：一个宽头对两个窄头",
    ),
    (
        "task pattern error (mean total variation)",
        "任务模式误差（平均全变差）",
    ),
    (
        "total width D (wide: one head of D; narrow: two heads of D/2)",
        "总宽度 D（宽：一个宽 D 的头；窄：两个宽 D/2 的头）",
    ),
    ("position + content: one wide", "位置 + 内容：一个宽头"),
    ("position + content: two narrow", "位置 + 内容：两个窄头"),
    ("two contents: one wide", "两种内容：一个宽头"),
    ("two contents: two narrow", "两种内容：两个窄头"),
    (
        "two relations at once, 10 seeds: where each head attends",
        "同时学两个关系，10 个种子：每个头注意哪里",
    ),
    ("attention on q + 1 (successor)", "q + 1 上的注意力（后继）"),
    (
        "attention on the query's key q (match)",
        "Query 自己的 Key q 上的注意力（匹配）",
    ),
    (
        "all attention on the two answers",
        "全部注意力都在两个答案上",
    ),
    ("one head of width 16", "一个宽 16 的头"),
    ("two heads of width 8", "两个宽 8 的头"),
    (
        "match task, total width 8, to a plateau (cap 6000), 20 seeds",
        "匹配任务，总宽度 8，训练到平台期（上限 6000），20 个种子",
    ),
    ("test accuracy at the plateau", "平台期的测试准确率"),
    (
        "heads H × width per head dₖ (total width 8)",
        "头数 H × 每头宽度 dₖ（总宽度 8）",
    ),
    (
        "chance: one of the context labels at random",
        "随机水平：在上下文的标签中随机取一个",
    ),
    ("one seed", "一个种子"),
    ("mean ± sd over seeds", "各种子的均值 ± 标准差"),
    (
        "two hops, 16 seeds: each first-layer head removed",
        "两跳，16 个种子：逐个去掉第一层的头",
    ),
    (
        "total effect ‖Δ_tot‖ (later layer recomputes)",
        "总效应 ‖Δ_tot‖（后一层重新计算）",
    ),
    (
        "direct effect ‖Δ_dir‖ (later layer frozen), logits",
        "直接效应 ‖Δ_dir‖（后一层冻结），logits",
    ),
    (
        "total = direct (the later layer passes it on)",
        "总效应 = 直接效应（后一层原样传递）",
    ),
    ("at initialisation", "初始化时"),
];
