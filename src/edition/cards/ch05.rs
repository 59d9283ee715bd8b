//! The claim cards' strings of chapter 5 in Chinese (see [`super::zh`]).

/// English card string → Chinese, numbers in the same order.
pub const CARDS: &[(&str, &str)] = &[
    (
        "largest final residual, pure attention",
        "最大的最终残差，纯注意力",
    ),
    (
        "largest final spread of the tokens, pure attention",
        "单标最终散布的最大值，纯注意力",
    ),
    (
        "100 seeds; tied random layers iterated 40 times on n = 12 tokens of width 16",
        "100 个种子；共享权重的随机层迭代 40 次，作用于 n = 12 个宽 16 的单标",
    ),
    ("largest observed per-step rate", "观测到的最大单步收缩率"),
    ("largest final residual", "最大的最终残差"),
    (
        "smallest final spread of the tokens (no collapse)",
        "单标最终散布的最小值（无坍缩）",
    ),
    (
        "100 seeds; tied random layers iterated 40 times on n = 12 tokens of width 16; contraction bound c = 0.5",
        "100 个种子；共享权重的随机层迭代 40 次，作用于 n = 12 个宽 16 的单标；收缩界 c = 0.5",
    ),
    (
        "median final residual, residual + norm",
        "最终残差的中位数，残差 + 归一化",
    ),
    (
        "100 seeds; tied random layers iterated 40 times on n = 12 tokens of width 16; the standard residual + LayerNorm layer",
        "100 个种子；共享权重的随机层迭代 40 次，作用于 n = 12 个宽 16 的单标；标准的残差 + LayerNorm 层",
    ),
    (
        "size: 40 iterations of 12 tokens of width 16",
        "规模：迭代 40 次，12 个宽 16 的单标",
    ),
    ("size: 160 iterations", "规模：迭代 160 次"),
    ("size: 24 tokens of width 32", "规模：24 个宽 32 的单标"),
    (
        "every seed reaches its hidden fixed point (residual < 1e-12) while the data stay off it (> 1e-3)",
        "每个种子都到达它隐藏的不动点（残差 < 1e-12），而数据始终不在不动点上（> 1e-3）",
    ),
    (
        "100 seeds; random weights with the constraint ψ(θ) = 0",
        "100 个种子；满足约束 ψ(θ) = 0 的随机权重",
    ),
    (
        "largest energy rise, tied form",
        "能量的最大上升，共享投影形式",
    ),
    (
        "100 seeds; Hopfield updates, β = 0.25",
        "100 个种子；Hopfield 更新，β = 0.25",
    ),
    ("best tied head", "最好的共享投影头"),
    ("tied head with a residual path", "带残差路径的共享投影头"),
    ("two tied heads", "两个共享投影头"),
    ("two tied layers", "两层共享投影层"),
    (
        "hand-set weights on the three-token successor task",
        "后继任务（三个单标）上手工设定的权重",
    ),
    (
        "best tied architecture's final accuracy minus the untied head's",
        "最好的共享投影架构的最终准确率减去独立投影头的",
    ),
    (
        "20 seeds per architecture, each at its learning rate tuned on 4 separate seeds over a fixed budget of 4000 steps (grid [0.003, 0.01, 0.03, 0.1, 0.3], extended at an edge); four tied architectures (two tied heads with residual path and self-attention) against one untied head",
        "每种架构 20 个种子，各用在另外 4 个种子上以 4000 步固定预算调得的学习率（网格 [0.003, 0.01, 0.03, 0.1, 0.3]，在边缘处扩展）；四种共享投影架构（带残差路径和自注意力的两个共享投影头等）对一个独立投影头",
    ),
    (
        "stopping: the plateau rule (accuracy rose < 0.01 over the last fifth, after 4000 steps; cap 10000)",
        "停止：平台期规则（最后五分之一内准确率上升 < 0.01，至少 4000 步；上限 10000）",
    ),
    (
        "stopping: after 4000 steps, the earlier protocol's fixed budget",
        "停止：4000 步之后，即早先协议的固定预算",
    ),
    (
        "share of runs whose final residual is below their shuffled-label null's",
        "最终残差低于其打乱标签零基线的运行比例",
    ),
    (
        "median over runs of Spearman ρ between turn residual and test accuracy across evaluations",
        "在各次评估上，转角残差与测试准确率之间 Spearman ρ 在各运行上的中位数",
    ),
    (
        "20 seeds × 5 architectures at their tuned rates, to a plateau (cap 10000 steps); residuals of the trained layers on 400 held-out inputs every 50 steps; null: seeds 0–7 of each architecture trained as long on shuffled labels",
        "20 个种子 × 5 种架构，用调得的学习率，训练到平台期（上限 10000 步）；训练后各层在 400 个留出输入上的残差，每 50 步一次；零基线：每种架构的种子 0–7 在打乱的标签上训练同样长的步数",
    ),
    (
        "residual: turn ρ = mean over tokens of 1 − cos(f(x)_t, x_t)",
        "残差：转角 ρ = 1 − cos(f(x)_t, x_t) 在单标上的均值",
    ),
    (
        "residual: output q = ‖f(x) − x‖ / ‖f(x)‖ (the DEQ residual at z = x)",
        "残差：输出 q = ‖f(x) − x‖ / ‖f(x)‖（z = x 处的 DEQ 残差）",
    ),
    (
        "residual: data r = ‖f(x) − x‖ / ‖x‖ (grows with the outputs' scale)",
        "残差：数据 r = ‖f(x) − x‖ / ‖x‖（随输出的尺度增长）",
    ),
    (
        "slope over layers of the mean relative update, trained − random",
        "平均相对更新随层数的斜率，训练后 − 随机",
    ),
    (
        "slope over layers of the mean cosine of consecutive states, trained − random",
        "相邻状态平均余弦随层数的斜率，训练后 − 随机",
    ),
    (
        "random baseline: relative update of layer 6 / of layer 1",
        "随机基线：第 6 层的相对更新 / 第 1 层的",
    ),
    (
        "all-MiniLM-L6-v2 (post-LayerNorm) against the same architecture at BERT initialisation (random_init), on the context sentences of models/contexts.txt: 20 sentences for the stream, 2 for 8 iterations of each layer and 5 loops of the stack; and SmolLM2-135M-Instruct (pre-RMSNorm decoder, 30 blocks) against the same architecture at Llama's initialisation (N(0, (1/24)²), smollm2::random_init) on the same 20 sentences",
        "all-MiniLM-L6-v2（后置 LayerNorm）对 BERT 初始化下的同一架构（random_init），用 `models/contexts.txt` 的上下文句子：20 个句子用于流，2 个句子用于每层 8 次迭代与层栈的 5 次循环；以及 SmolLM2-135M-Instruct（前置 RMSNorm 的解码器，30 块）对 Llama 初始化下的同一架构（N(0, (1/24)²)，smollm2::random_init），用同样的 20 个句子",
    ),
    ("the whole curve, layers 1–6", "整条曲线，第 1–6 层"),
    (
        "layers 1–5 (the last layer left out)",
        "第 1–5 层（去掉最后一层）",
    ),
    (
        "model: SmolLM2-135M-Instruct, a pre-RMSNorm decoder, blocks 1–30",
        "模型：SmolLM2-135M-Instruct，前置 RMSNorm 的解码器，第 1–30 块",
    ),
    (
        "slope over blocks of the mean relative update, trained − random",
        "平均相对更新随块数的斜率，训练后 − 随机",
    ),
    (
        "slope over blocks of the mean cosine of consecutive states, trained − random",
        "相邻状态平均余弦随块数的斜率，训练后 − 随机",
    ),
    (
        "model: SmolLM2-135M-Instruct, blocks 2–30 (its first write onto the small embedding left out)",
        "模型：SmolLM2-135M-Instruct，第 2–30 块（去掉它写到很小的嵌入上的第一次写入）",
    ),
    (
        "model: SmolLM2-135M-Instruct, blocks 2–30, every token but the first (where the attention sink sits)",
        "模型：SmolLM2-135M-Instruct，第 2–30 块，除第一个（注意力汇点所在之处）外的每个单标",
    ),
    (
        "trained, with residual paths: ‖f(Z) − Z‖/‖Z‖ after the last step",
        "训练后，有残差路径：最后一步之后的 ‖f(Z) − Z‖/‖Z‖",
    ),
    (
        "trained, with residual paths: distance from rank one at the end",
        "训练后，有残差路径：结束时到秩一的距离",
    ),
    (
        "trained, without residual paths: distance from rank one at the end",
        "训练后，无残差路径：结束时到秩一的距离",
    ),
    (
        "random baseline, without residual paths: the same",
        "随机基线，无残差路径：同一量",
    ),
    (
        "all-MiniLM-L6-v2 (post-LayerNorm) against the same architecture at BERT initialisation (random_init), on the context sentences of models/contexts.txt: 20 sentences for the stream, 2 for 8 iterations of each layer and 5 loops of the stack; and each block of SmolLM2-135M-Instruct iterated 8 times on its input stream, and its whole stack looped 5 times, for 2 sentences, against the same architecture at Llama's initialisation",
        "all-MiniLM-L6-v2（后置 LayerNorm）对 BERT 初始化下的同一架构（random_init），用 `models/contexts.txt` 的上下文句子：20 个句子用于流，2 个句子用于每层 8 次迭代与层栈的 5 次循环；以及 SmolLM2-135M-Instruct 的每个块在自己的输入流上迭代 8 次、整个层栈循环 5 次，取 2 个句子，对 Llama 初始化下的同一架构",
    ),
    (
        "one layer iterated on its own input",
        "单层在自身输入上迭代",
    ),
    ("the whole stack looped", "整个层栈循环"),
    (
        "trained, with residual paths: ‖f(Z) − Z‖/‖Z‖ after the last loop",
        "训练后，有残差路径：最后一次循环之后的 ‖f(Z) − Z‖/‖Z‖",
    ),
    (
        "model: SmolLM2-135M-Instruct, pre-RMSNorm: each of its 30 blocks iterated on its own input, Z ↦ Z + f(rms Z); step: ‖ΔZ‖/‖Z‖",
        "模型：SmolLM2-135M-Instruct，前置 RMSNorm：它的 30 个块各自在自己的输入上迭代，Z ↦ Z + f(rms Z)；步长：‖ΔZ‖/‖Z‖",
    ),
    (
        "SmolLM2 trained: step size after step 8 (random decoder: 0.138)",
        "SmolLM2 训练后：第 8 步之后的步长（随机解码器：0.138）",
    ),
    (
        "model: SmolLM2-135M-Instruct, every row but the first (the sink's massive activation)",
        "模型：SmolLM2-135M-Instruct，除第一行（汇点的巨大激活）外的每一行",
    ),
    (
        "model: SmolLM2-135M-Instruct, step measured on the rms-normalised iterate (what the block reads), every row but the first",
        "模型：SmolLM2-135M-Instruct，步长在 rms 归一化后的迭代值（即块所读取的）上测量，除第一行外的每一行",
    ),
    (
        "model: SmolLM2-135M-Instruct, blocks 1–10 only",
        "模型：SmolLM2-135M-Instruct，只取第 1–10 块",
    ),
    (
        "model: SmolLM2-135M-Instruct, the whole stack looped",
        "模型：SmolLM2-135M-Instruct，整个层栈循环",
    ),
    (
        "SmolLM2 trained: ‖f(Z) − Z‖/‖Z‖ after the last loop (random decoder: 0.293)",
        "SmolLM2 训练后：最后一次循环之后的 ‖f(Z) − Z‖/‖Z‖（随机解码器：0.293）",
    ),
    (
        "chapter 3's measurement (ch03.trained-later-layers-correct): MiniLM and its random-weight twin, 20 corpus sentences each, one head per layer 0–4 per sentence; κ = ⟨Δ_tot, Δ_dir⟩/‖Δ_dir‖², r = 1 − κ, the null the random model's",
        "第 3 章的测量（`ch03.trained-later-layers-correct`）：MiniLM 及其随机权重孪生模型，各取 20 个语料句子，每个句子在第 0–4 层各取一个头；κ = ⟨Δ_tot, Δ_dir⟩/‖Δ_dir‖²，r = 1 − κ，零基线为随机模型的 κ",
    ),
    (
        "head W_QK symmetrised, LayerNorm frozen, all last states",
        "头的 W_QK 对称化，LayerNorm 冻结，全部最后状态",
    ),
    ("head zeroed", "头置零"),
    (
        "positions: every position but the first (where the attention sink sits)",
        "位置：除第一个（注意力汇点所在之处）外的每个位置",
    ),
    (
        "the logit lens: in the last layers the model's final top-1 is already the lens's top-1; the share of positions whose lens top-1 at the last boundary before the output (29) is the final top-1",
        "对数几率透镜：在最后几层，模型的最终 top-1 已经是透镜的 top-1；输出之前最后一个边界（29）上透镜 top-1 即最终 top-1 的位置比例",
    ),
    (
        "share of positions, lens top-1 at boundary 29 = final top-1",
        "位置比例，边界 29 上透镜 top-1 = 最终 top-1",
    ),
    (
        "the logit lens's KL divergence from the model's output distribution falls with depth (their Figure 2's curve, read as a rank correlation): Spearman ρ between the boundary 0–29 and the mean KL(output ‖ lens)",
        "对数几率透镜与模型输出分布之间的 KL 散度随深度下降（他们图 2 的曲线，按秩相关读取）：边界 0–29 与平均 KL(输出 ‖ 透镜) 之间的 Spearman ρ",
    ),
    (
        "Spearman ρ, boundary vs mean KL of the lens from the output",
        "Spearman ρ，边界对透镜与输出之间的平均 KL",
    ),
    (
        "share of seeds whose median r over prompts is below their initialisation's",
        "r 在各提示词上的中位数低于其初始化时的种子比例",
    ),
    (
        "share of seeds whose median r over prompts is below their shuffled-label null's",
        "r 在各提示词上的中位数低于其打乱标签零基线的种子比例",
    ),
    (
        "8 seeds; one block of 2 heads (width 16, residual path, row normalisation) looped K = 3 times on the two-hop task (8 keys, 4 context pairs), at the rate tuned on 2 other seeds, to a plateau (cap 8000 steps); residuals on 200 held-out prompts; baselines: the same block at its initialisation, and the same seed trained as long on shuffled labels",
        "8 个种子；一个 2 头的块（宽 16，残差路径，行归一化）在两跳任务上循环 K = 3 次（8 个 Key，4 个上下文对），用在另外 2 个种子上调得的学习率，训练到平台期（上限 8000 步）；在 200 个留出提示词上的残差；基线：初始化时的同一个块，以及同一种子在打乱的标签上训练同样长的步数",
    ),
    (
        "injection: the prompt added at every iteration, U_k = Z_k + X; residual r_K at the trained depth",
        "注入：每次迭代都加上提示词，U_k = Z_k + X；训练深度处的残差 r_K",
    ),
    (
        "injection: the prompt added at every iteration, U_k = Z_k + X; residual r_4K past the trained depth",
        "注入：每次迭代都加上提示词，U_k = Z_k + X；越过训练深度的残差 r_4K",
    ),
    (
        "injection: none, the prompt only sets Z_0; residual r_K",
        "注入：无，提示词只设定 Z_0；残差 r_K",
    ),
    (
        "share of prompts whose r falls from K to 4K",
        "r 从 K 到 4K 下降的提示词比例",
    ),
    (
        "median over prompts of r_4K / r_K",
        "r_4K / r_K 在各提示词上的中位数",
    ),
    (
        "mean readout accuracy at 4K minus at K",
        "4K 处的平均读出准确率减去 K 处的",
    ),
    (
        "injection: the prompt added at every iteration, U_k = Z_k + X",
        "注入：每次迭代都加上提示词，U_k = Z_k + X",
    ),
    (
        "injection: none, the prompt only sets Z_0",
        "注入：无，提示词只设定 Z_0",
    ),
    (
        "median over seeds of the settled query states' distance between prompts over their residual",
        "稳定后的 Query 状态在不同提示词之间的距离与其残差之比，在各种子上的中位数",
    ),
    (
        "share of seeds whose readout at 4K beats their shuffled-label null's",
        "4K 处的读出优于其打乱标签零基线的种子比例",
    ),
    (
        "verbs found beyond the null, of absorbed, corrected, re-used",
        "吸收、修正、重新利用三者中超出零基线的个数",
    ),
    (
        "absorbed: share of runs (both tasks) ending at accuracy ≥ 0.9 with mean ρ < 0.9, minus their nulls' share",
        "吸收：结束时准确率 ≥ 0.9 且平均 ρ < 0.9 的运行比例（两个任务），减去其零基线的比例",
    ),
    (
        "corrected: share of match seeds whose ρ (or the choice's measure) rose more than any null seed's",
        "修正：ρ（或该选项的量度）的上升超过任一零基线种子的匹配任务种子比例",
    ),
    (
        "corrected, gradually: median over match seeds of Spearman(step, ρ or the choice's measure)",
        "逐渐修正：Spearman(步数, ρ 或该选项的量度) 在匹配任务种子上的中位数",
    ),
    (
        "re-used: share of successor seeds whose accuracy owed to the mismatch rose more than any null seed's",
        "重新利用：归功于错位的准确率的上升超过任一零基线种子的后继任务种子比例",
    ),
    (
        "re-used, gradually: median over successor seeds of Spearman(step, owed accuracy)",
        "逐渐重新利用：Spearman(步数, 归功于错位的准确率) 在后继任务种子上的中位数",
    ),
    (
        "16 seeds per arm, untied heads of full width on the match and successor recall tasks (vocab 8, context 4, d 8), each arm at its rate tuned on 4 separate seeds over 1500 steps (grid [0.003, 0.01, 0.03, 0.1, 0.3]), to a plateau (cap 6000); a checkpoint every 100 steps on 200 held-out inputs; null: each seed trained as long on shuffled labels, same checkpoints",
        "每组 16 个种子，全宽的独立投影头，用于匹配与后继回忆任务（词表 8，上下文 4，d 8），每组用在另外 4 个种子上以 1500 步调得的学习率（网格 [0.003, 0.01, 0.03, 0.1, 0.3]），训练到平台期（上限 6000）；每 100 步一个检查点，在 200 个留出输入上评估；零基线：每个种子在打乱的标签上训练同样长的步数，检查点相同",
    ),
    (
        "architecture: one head; swap: the symmetric part of W_QK; mismatch: ρ with raw similarity",
        "架构：单头；替换：W_QK 的对称部分；错位：与原始相似度的 ρ",
    ),
    (
        "architecture: two layers of two heads with residual paths",
        "架构：两层、每层两个头，带残差路径",
    ),
    (
        "swap: raw similarity, c·I of the same size",
        "替换：原始相似度，同样大小的 c·I",
    ),
    (
        "mismatch: the symmetric share of W_QK in place of ρ",
        "错位：以 W_QK 的对称份额代替 ρ",
    ),
    (
        "match: share of seeds whose ρ rose more than any null seed's",
        "匹配任务：ρ 的上升超过任一零基线种子的种子比例",
    ),
    (
        "match: median Spearman(step, ρ)",
        "匹配任务：Spearman(步数, ρ) 的中位数",
    ),
    (
        "successor: share of seeds whose ρ rose more than any null seed's",
        "后继任务：ρ 的上升超过任一零基线种子的种子比例",
    ),
    (
        "successor: median Spearman(step, ρ)",
        "后继任务：Spearman(步数, ρ) 的中位数",
    ),
    ("architecture: one head", "架构：单头"),
    // the trained arms, as the plateau lines name them
    ("tied head", "共享投影单头"),
    ("+ residual", "+ 残差"),
    ("two tied heads", "两个共享投影头"),
    ("two tied layers", "两层共享投影层"),
    ("untied head", "独立投影单头"),
    ("looped block, injected", "有注入的循环块"),
    ("looped block, not injected", "无注入的循环块"),
    ("one head, match", "单头，匹配任务"),
    ("two layers of two heads, match", "两层双头，匹配任务"),
    ("one head, successor", "单头，后继任务"),
    ("two layers of two heads, successor", "两层双头，后继任务"),
];
