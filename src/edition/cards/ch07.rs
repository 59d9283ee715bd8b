//! The claim cards' strings of chapter 7 in Chinese (see [`super::zh`]).

/// English card string → Chinese, numbers in the same order.
pub const CARDS: &[(&str, &str)] = &[
    (
        "lower 95% bound of the retrieval-error gain (additive − delta) at n = K pairs",
        "检索误差收益（加法 − delta）在 n = K 个键值对时的 95% 下界",
    ),
    (
        "overwrite error, delta minus additive",
        "覆写误差，delta 减加法",
    ),
    (
        "20 seeds; random unit keys and values, K = V = 32; overwrite: one key rewritten among 16 pairs, then 8 more; baseline: the additive memory on the same pairs",
        "20 个种子；随机单位 Key 与 Value，K = V = 32；覆写：在 16 个键值对中改写一个 Key，再加 8 个；基线：同样键值对上的加法记忆",
    ),
    ("memory width K = V = 32", "记忆宽度 K = V = 32"),
    (
        "best per-channel error minus best scalar error",
        "逐通道的最佳误差减去标量的最佳误差",
    ),
    (
        "20 seeds; a task with slow facts and a fast stream; the best gate of each kind on one grid",
        "20 个种子；一个有慢速事实与快速流的任务；每种门控在同一网格上取最好的",
    ),
    (
        "mean Spearman ρ, effective weight vs q·k",
        "Spearman ρ 的均值，有效权重对 q·k",
    ),
    ("share of pairs whose sign flips", "符号翻转的单标对比例"),
    (
        "20 seeds; DeltaNet on random unit q, k, T = 32, K = 8; baseline: the similarities q·k that linear attention uses",
        "20 个种子；DeltaNet 作用于随机单位 q、k，T = 32，K = 8；基线：线性注意力所用的相似度 q·k",
    ),
    ("key width K = 8", "Key 宽度 K = 8"),
    (
        "largest difference, chunked vs recurrent",
        "分块形式与递推形式的最大差异",
    ),
    (
        "largest error of the difference form over the decay sweep",
        "差分形式在衰减扫描上的最大误差",
    ),
    (
        "the factorised form e^Γ_r · e^−Γ_j fails somewhere in the decay sweep",
        "因式分解形式 e^Γ_r · e^−Γ_j 在衰减扫描中某处失效",
    ),
    (
        "random KDA inputs over several lengths, widths and chunk sizes",
        "随机的 KDA 输入，遍及多种长度、宽度与分块大小",
    ),
    (
        "softmax flops over chunked flops at T = 2^20",
        "T = 2^20 时 softmax 的浮点运算量比分块形式的浮点运算量",
    ),
    (
        "the chunked form wins from a finite length on",
        "分块形式从某个有限长度起胜出",
    ),
    (
        "cache saved by a 3:1 hybrid at 2^20 tokens",
        "3:1 混合结构在 2^20 个单标时节省的缓存",
    ),
    (
        "flop counts, K = V = 128, chunks of 64",
        "浮点运算计数，K = V = 128，块长 64",
    ),
    (
        "DeltaNet − linear mean accuracy at 12 pairs",
        "平均准确率，DeltaNet − linear，12 个键值对",
    ),
    (
        "smallest DeltaNet − linear difference over every point",
        "每个点上 DeltaNet − linear 之差的最小值",
    ),
    (
        "MQAR, vocab 32, T = 4 × pairs, one mixer layer, d = 16, batches of 16; every run trained until its held-out accuracy rose < 0.01 over the last fifth (not before step 300, cap 1200); 4 seeds per point, rates tuned per mixer and layer on 2 other seeds; pairs [2, 4, 8, 12] at K = V = 8, K = V in [2, 8, 16] at 8 pairs; the other layers at pairs [8, 12]. At this size it measures how fast each mixer learns, not its capacity",
        "MQAR，词表 32，T = 4 × 键值对数，单个混合器层，d = 16，批大小 16；每次运行都训练到留出准确率在最后五分之一内上升 < 0.01（第 300 步之前不停，上限 1200）；每个点 4 个种子，学习率按混合器与层在另外 2 个种子上调出；键值对数 [2, 4, 8, 12]，K = V = 8；K = V 取 [2, 8, 16]，8 个键值对；其他层取键值对数 [8, 12]。在这个规模上，它测的是每个混合器学得多快，而不是它的容量",
    ),
    (
        "gates: fla's initialisation; output: no norm",
        "门控：fla 的初始化；输出：不归一化",
    ),
    (
        "output: RMSNorm on the mixer output (as fla's layers)",
        "输出：在混合器输出上加 RMSNorm（同 fla 的层）",
    ),
    (
        "DeltaNet against linear attention on MQAR, both with fla's output RMSNorm, 12 pairs at K = V = 8",
        "MQAR 上 DeltaNet 对线性注意力，两者都带 fla 的输出 RMSNorm，12 个键值对，K = V = 8",
    ),
    (
        "DeltaNet − linear mean accuracy at 12 pairs, output RMSNorm",
        "平均准确率，DeltaNet − linear，12 个键值对，输出 RMSNorm",
    ),
    (
        "largest margin of a recurrent mixer over softmax at any point",
        "循环混合器在任一点上领先 softmax 的最大幅度",
    ),
    ("softmax's lowest mean accuracy", "softmax 的最低平均准确率"),
    (
        "gates: initialised near 1 for the sequence length",
        "门控：按序列长度初始化在 1 附近",
    ),
    (
        "Zoology's MQAR: the gap between attention and linear attention grows with the pairs stored, 2 → 12 pairs at K = V = 8",
        "Zoology 的 MQAR：注意力与线性注意力之间的差距随存储的键值对增加而增大，2 → 12 个键值对，K = V = 8",
    ),
    (
        "(softmax − linear) at 12 pairs minus at 2 pairs",
        "12 个键值对时的 (softmax − linear) 减去 2 个键值对时的",
    ),
    (
        "KDA: median over channels of ln(trained / initial decay rate)",
        "KDA：ln(训练后 / 初始衰减率) 在各通道上的中位数",
    ),
    (
        "KDA − DeltaNet mean accuracy at 8 pairs",
        "平均准确率，KDA − DeltaNet，8 个键值对",
    ),
    (
        "Gated DeltaNet: median ln(trained / initial decay rate)",
        "Gated DeltaNet：ln(训练后 / 初始衰减率) 的中位数",
    ),
    (
        "KDA: growth of the channels' ln-rate interquartile range (trained − initial)",
        "KDA：各通道 ln 衰减率四分位距的增长（训练后 − 初始）",
    ),
    (
        "DeltaNet's mean β at value positions − elsewhere",
        "DeltaNet 在 Value 位置上的平均 β − 其他位置上的",
    ),
    (
        "KDA's mean β at value positions − elsewhere",
        "KDA 在 Value 位置上的平均 β − 其他位置上的",
    ),
    (
        "DeltaNet: Spearman ρ of effective weight vs s q̂·k̂ at query rows",
        "DeltaNet：在 Query 行上有效权重对 s q̂·k̂ 的 Spearman ρ",
    ),
    (
        "DeltaNet: answer hit rate of effective weights − of similarities",
        "DeltaNet：答案命中率，有效权重 − 相似度",
    ),
    (
        "DeltaNet − linear mean accuracy at K = V = 8, 16 pairs (2K)",
        "平均准确率，DeltaNet − linear，K = V = 8，16 个键值对（2K）",
    ),
    (
        "DeltaNet − linear mean accuracy at K = V = 8, 4 pairs (K/2)",
        "平均准确率，DeltaNet − linear，K = V = 8，4 个键值对（K/2）",
    ),
    (
        "the delta rule without decay (DeltaNet)",
        "不带衰减的 delta 规则（DeltaNet）",
    ),
    (
        "the delta rule with decay: Gated DeltaNet, fla gates",
        "带衰减的 delta 规则：Gated DeltaNet，fla 门控",
    ),
    (
        "Gated DeltaNet, fla gates − linear mean accuracy at K = V = 8, 16 pairs (2K)",
        "平均准确率，Gated DeltaNet（fla 门控）− linear，K = V = 8，16 个键值对（2K）",
    ),
    (
        "the delta rule with decay: Gated DeltaNet, horizon gates",
        "带衰减的 delta 规则：Gated DeltaNet，视界门控",
    ),
    (
        "Gated DeltaNet, horizon gates − linear mean accuracy at K = V = 8, 16 pairs (2K)",
        "平均准确率，Gated DeltaNet（视界门控）− linear，K = V = 8，16 个键值对（2K）",
    ),
    (
        "the delta rule with decay: KDA, fla gates",
        "带衰减的 delta 规则：KDA，fla 门控",
    ),
    (
        "KDA, fla gates − linear mean accuracy at K = V = 8, 16 pairs (2K)",
        "平均准确率，KDA（fla 门控）− linear，K = V = 8，16 个键值对（2K）",
    ),
    (
        "the delta rule with decay: KDA, horizon gates",
        "带衰减的 delta 规则：KDA，视界门控",
    ),
    (
        "KDA, horizon gates − linear mean accuracy at K = V = 8, 16 pairs (2K)",
        "平均准确率，KDA（视界门控）− linear，K = V = 8，16 个键值对（2K）",
    ),
    (
        "DeltaNet against linear attention on Zoology's MQAR in fla's layers, at equal state, scaled to this machine",
        "Zoology 的 MQAR 上 DeltaNet 对线性注意力，用 fla 的层，状态相同，按本机缩小规模",
    ),
    (
        "smallest DeltaNet − linear mean accuracy over the cells",
        "各单元格上 DeltaNet − linear 平均准确率的最小值",
    ),
    (
        "largest margin of a recurrent arm (fla gates) over softmax in any cell",
        "循环组（fla 门控）在任一单元格上领先 softmax 的最大幅度",
    ),
    ("fla's gate initialisation", "fla 的门控初始化"),
    ("gates initialised for T = 64", "按 T = 64 初始化的门控"),
    (
        "largest margin of a recurrent arm (horizon gates) over softmax in any cell",
        "循环组（视界门控）在任一单元格上领先 softmax 的最大幅度",
    ),
    (
        "Zoology's MQAR: attention's lead over linear attention grows as the pairs outgrow the state, K = V = 8, 4 pairs (K/2) → K = V = 8, 16 pairs (2K)",
        "Zoology 的 MQAR：随着键值对数超出状态容量，注意力对线性注意力的领先增大，K = V = 8，4 个键值对（K/2）→ K = V = 8，16 个键值对（2K）",
    ),
    (
        "(softmax − linear) where capacity binds minus where it does not",
        "容量受限处的 (softmax − linear) 减去容量不受限处的",
    ),
    (
        "trained KDA: lower 95% bound of ρ(operator, effect) − ρ(similarity, effect)",
        "训练后的 KDA：ρ(算子, 效应) − ρ(相似度, 效应) 的 95% 下界",
    ),
    (
        "lower 95% bound of that margin minus the untrained KDA's (paired over seeds)",
        "该差值减去未训练 KDA 的差值的 95% 下界（按种子配对）",
    ),
    (
        "trained KDA's accuracy on the rewritten keys' queries",
        "训练后的 KDA 在被改写 Key 的查询上的准确率",
    ),
    (
        "associative recall with updates: vocab 24, T = 24, 4 keys of which 2 are written twice (the query wants the latest value); 2 pre-norm blocks as fla builds them, d = 32, K = V = 8, KDA's gates initialised for T; 5 seeds, batches of 32, rate 0.01, trained with the f32 batched pass until held-out accuracy rose < 0.01 over the last fifth (not before step 600, cap 2000); accounts scored on the (value write, query) pairs of 32 held-out sequences per run; null: the same KDA before training",
        "带更新的联想回忆：词表 24，T = 24，4 个 Key，其中 2 个被写入两次（查询要的是最新的值）；按 fla 的方式搭建的 2 个前置归一化块，d = 32，K = V = 8，KDA 的门控按 T 初始化；5 个种子，批大小 32，学习率 0.01，用 f32 批量前向训练，直到留出准确率在最后五分之一内的上升 < 0.01（不早于第 600 步，上限 2000 步）；每次运行在 32 条留出序列的（值写入，查询）对上为两种解释打分；零假设：训练前的同一个 KDA",
    ),
    (
        "block 2 (the one that reads at the query); each account summed over the 4 writes the replaced token enters through the short convolution; effect: drop in the answer's log-probability; 2 of 4 keys rewritten",
        "第 2 块（在查询处读取的那一块）；每种解释在被替换单标经短卷积进入的 4 个写入上求和；效应：答案对数概率的下降；改写 2 个 Key（共 4 个）",
    ),
    ("block 1's account", "第 1 块的解释"),
    (
        "each account at the replaced token's own position only",
        "每种解释只取被替换单标自身的位置",
    ),
    (
        "effect: total variation of the output distribution",
        "效应：输出分布的总变差",
    ),
    ("4 of 4 keys rewritten", "改写 4 个 Key（共 4 个）"),
    ("KDA, every key rewritten", "KDA，每个 Key 都被改写"),
    (
        "linear (fla) at K = 8, 8 pairs",
        "线性注意力（fla），K = 8，8 个键值对",
    ),
    (
        "linear (Zoology, normaliser) at K = 8, 8 pairs",
        "线性注意力（Zoology，带归一化项），K = 8，8 个键值对",
    ),
    ("DeltaNet at K = 8, 8 pairs", "DeltaNet，K = 8，8 个键值对"),
    (
        "Gated DeltaNet, fla gates at K = 8, 8 pairs",
        "Gated DeltaNet（fla 门控），K = 8，8 个键值对",
    ),
    (
        "Gated DeltaNet, horizon gates at K = 8, 8 pairs",
        "Gated DeltaNet（视界门控），K = 8，8 个键值对",
    ),
    (
        "KDA, fla gates at K = 8, 8 pairs",
        "KDA（fla 门控），K = 8，8 个键值对",
    ),
    (
        "KDA, horizon gates at K = 8, 8 pairs",
        "KDA（视界门控），K = 8，8 个键值对",
    ),
    ("softmax at K = 8, 8 pairs", "softmax，K = 8，8 个键值对"),
    (
        "lower 95% bound of DeltaNet − linear (fla) mean accuracy at K = 8, 8 pairs",
        "95% 下界：DeltaNet − 线性注意力（fla） 的平均准确率，K = 8，8 个键值对",
    ),
    (
        "lower 95% bound of DeltaNet − linear (Zoology, normaliser) mean accuracy at K = 8, 8 pairs",
        "95% 下界：DeltaNet − 线性注意力（Zoology，带归一化项） 的平均准确率，K = 8，8 个键值对",
    ),
    (
        "lower 95% bound of Gated DeltaNet, fla gates − linear (fla) mean accuracy at K = 8, 8 pairs",
        "95% 下界：Gated DeltaNet（fla 门控） − 线性注意力（fla） 的平均准确率，K = 8，8 个键值对",
    ),
    (
        "lower 95% bound of Gated DeltaNet, horizon gates − linear (fla) mean accuracy at K = 8, 8 pairs",
        "95% 下界：Gated DeltaNet（视界门控） − 线性注意力（fla） 的平均准确率，K = 8，8 个键值对",
    ),
    (
        "lower 95% bound of KDA, fla gates − linear (fla) mean accuracy at K = 8, 8 pairs",
        "95% 下界：KDA（fla 门控） − 线性注意力（fla） 的平均准确率，K = 8，8 个键值对",
    ),
    (
        "lower 95% bound of KDA, horizon gates − linear (fla) mean accuracy at K = 8, 8 pairs",
        "95% 下界：KDA（视界门控） − 线性注意力（fla） 的平均准确率，K = 8，8 个键值对",
    ),
    (
        "DeltaNet against fla's linear attention, where the pairs fill the state",
        "DeltaNet 对 fla 的线性注意力，键值对填满状态处",
    ),
    (
        "DeltaNet against fla's linear attention, at twice the state",
        "DeltaNet 对 fla 的线性注意力，两倍于状态处",
    ),
    (
        "against Zoology's linear attention (feature map and normaliser)",
        "对 Zoology 的线性注意力（特征映射与归一化项）",
    ),
    ("at K = 16, 16 pairs", "在 K = 16，16 个键值对处"),
    (
        "DeltaNet recalls perfectly on MQAR with the pairs within the state's width (the paper's Figure 1: 64 pairs, d = 64–512; its baselines are Mamba, GLA, RetNet, RWKV-4 and Hyena, not linear attention)",
        "键值对在状态宽度之内时，DeltaNet 在 MQAR 上完美回忆（论文图 1：64 个键值对，d = 64–512；其基线是 Mamba、GLA、RetNet、RWKV-4 和 Hyena，不是线性注意力）",
    ),
    (
        "share of DeltaNet runs solved (held-out accuracy > 0.99) with pairs ≤ K",
        "键值对 ≤ K 时 DeltaNet 解出（留出准确率 > 0.99）的运行比例",
    ),
    (
        "Zoology's MQAR: attention's lead over linear attention grows as the pairs outgrow the state, K = 8, 4 pairs → K = 8, 16 pairs",
        "Zoology 的 MQAR：随着键值对数超出状态，注意力对线性注意力的领先增大，K = 8，4 个键值对 → K = 8，16 个键值对",
    ),
    (
        "the same with Zoology's own linear attention (feature map and normaliser)",
        "换成 Zoology 自己的线性注意力（特征映射与归一化项）也一样",
    ),
    (
        "(softmax − Zoology's linear) where capacity binds minus where it does not",
        "容量受限处的 (softmax − Zoology 的线性注意力) 减去容量不受限处的",
    ),
    (
        "MQAR, a long experiment (`cargo run --release -- mqar-budget`); vocab 64, T = 64; 2 pre-norm blocks as fla builds them, no MLP; a short convolution of width 4, d = 32; cells K = 8, 4 pairs; K = 8, 8 pairs; K = 8, 16 pairs; K = 16, 16 pairs; trained as Zoology trains (AdamW, decay 0.1 on every tensor, cosine to zero over the cap, no warm-up); batch 64; held-out accuracy on 256 sequences every 100 steps; a run ends solved (> 0.99); or flat: a rise < 0.01 over the last 30% of its cap; all of it above 1/pairs + 0.1; or at its cap of 15000 steps; the cap doubles (at most 2 times, same rate) for an arm in a cell where the cap cut half or more of its runs; where it still does at the last cap, the arm-cell is judged across caps (a protocol change, made after 44 of the last cap's 48 runs were seen): at its plateau when the last doubling did not raise its mean accuracy detectably (the lower 95% bound of the rise is at most 0); rates picked per cell from [0.001, 0.003, 0.01], widened past an edge; tuned on seeds [1000, 1001] at 5000 steps; 8 seeds per arm and cell",
        "MQAR，一个长实验（`cargo run --release -- mqar-budget`）；词表 64，T = 64；按 fla 的搭法用 2 个前置归一化块，无 MLP；宽 4 的短卷积，d = 32；单元格 K = 8，4 个键值对；K = 8，8 个键值对；K = 8，16 个键值对；K = 16，16 个键值对；按 Zoology 的方式训练（AdamW，每个张量权重衰减 0.1，余弦调度在上限处降到零，无预热）；批大小 64；在 256 条留出序列上每 100 步评估一次留出准确率；一次运行以解出（> 0.99）结束；或以平坦结束：上升 < 0.01，在上限的最后 30% 内；且全程高于 1/键值对数 + 0.1；或到达 15000 步的上限；某组在某单元格中若有一半或更多运行被上限截停，上限加倍（至多 2 次，学习率不变）；若在最后一个上限处仍如此，则跨上限评判该组与单元格（协议变更，在看过最后一个上限的 44 次运行（共 48 次）之后作出）：最后一次加倍未使其平均准确率出现可检测的升幅（升幅的 95% 下界至多为 0）时，视为到达平台期；学习率按单元格从 [0.001, 0.003, 0.01] 中选取，选到边缘时向外扩展；用种子 [1000, 1001] 训练 5000 步调参；每组每个单元格 8 个种子",
    ),
];
