//! The claim cards' strings of chapter 4 in Chinese (see [`super::zh`]).

/// English card string → Chinese, numbers in the same order.
pub const CARDS: &[(&str, &str)] = &[
    (
        "largest deviation from the identity law",
        "与恒等律的最大偏差",
    ),
    (
        "largest deviation of a composite's row sums from 1",
        "复合矩阵行和与 1 的最大偏差",
    ),
    ("largest deviation from associativity", "与结合律的最大偏差"),
    ("every composite is stochastic", "每个复合矩阵都是随机矩阵"),
    (
        "1000 random triples of stochastic matrices; tolerance 1.0e-12",
        "1000 组随机的随机矩阵三元组；容差 1.0e-12",
    ),
    (
        "lower 95% bound of Spearman ρ(rollout, effect) − ρ(raw last layer, effect)",
        "Spearman ρ(rollout, 效应) − ρ(最后一层原始权重, 效应) 的 95% 下界",
    ),
    (
        "share of seeds on which rollout agrees better",
        "rollout 吻合得更好的种子比例",
    ),
    (
        "200 seeds; n = 12, d = 16, 3 residual attention layers at random weights; importance = leave-one-out effect on the last token",
        "200 个种子；n = 12，d = 16，3 层随机权重的残差注意力；重要性 = 对最后一个单标的留一效应",
    ),
    (
        "query sharpness 2 ($W_Q$ scaled)",
        "Query 锐度 2（缩放 $W_Q$）",
    ),
    (
        "query sharpness 1 (flatter attention)",
        "Query 锐度 1（注意力更平）",
    ),
    (
        "share of suffix tokens whose strongest suffix partner changes, layer 1",
        "后缀单标中最强后缀伙伴发生变化的比例，第 1 层",
    ),
    (
        "lower 95% bound of the partner turnover in the rollout",
        "rollout 中伙伴更替率的 95% 下界",
    ),
    (
        "lower 95% bound of the partner turnover in the last layer",
        "最后一层中伙伴更替率的 95% 下界",
    ),
    (
        "200 seeds; n = 12, d = 16, 3 residual attention layers at random weights; importance = leave-one-out effect on the last token; a new prefix of 6 tokens before a fixed suffix",
        "200 个种子；n = 12，d = 16，3 层随机权重的残差注意力；重要性 = 对最后一个单标的留一效应；在固定后缀之前换上 6 个单标的新前缀",
    ),
    (
        "lower 95% bound of max ρ(relation, effect) − max ρ(object, effect)",
        "max ρ(关系, 效应) − max ρ(对象, 效应) 的 95% 下界",
    ),
    (
        "mean row total variation, last layer on its own input vs on the prompt",
        "行总变差的均值，最后一层作用于自身输入对作用于提示词",
    ),
    (
        "share of negative delta-rule weights (linear attention's share is 0)",
        "delta 规则权重中负值的比例（线性注意力的比例为 0）",
    ),
    (
        "share of delta-rule rows that division by their sum makes stochastic (bound: linear attention's share − 0.01)",
        "除以行和后成为随机向量的 delta 规则行的比例（界限：线性注意力的比例 − 0.01）",
    ),
    (
        "200 seeds; n = 12, d = 16, 3 residual attention layers at random weights; importance = leave-one-out effect on the last token; the delta rule's effective weights on non-negative unit features, T = 12, K = 4",
        "200 个种子；n = 12，d = 16，3 层随机权重的残差注意力；重要性 = 对最后一个单标的留一效应；delta 规则在非负单位特征上的有效权重，T = 12，K = 4",
    ),
    (
        "model: the random stack, query sharpness 2",
        "模型：随机层栈，Query 锐度 2",
    ),
    (
        "model: all-MiniLM-L6-v2, each word's final state, mean ablation (object: cosine of the embeddings)",
        "模型：all-MiniLM-L6-v2，每个词的最终状态，均值消融（对象：嵌入的余弦）",
    ),
    (
        "lower 95% bound of the learned head's median steps at k = 8 minus at k = 1",
        "95% 下界：学习型头在 k = 8 时的中位步数减去 k = 1 时的",
    ),
    (
        "lower 95% bound of that growth minus the given structure's, k = 1 → 8",
        "这一增长减去给定结构的增长的 95% 下界，k = 1 → 8",
    ),
    (
        "share of learned-head seeds reaching the threshold at k = 8 (flexible)",
        "k = 8 时学习型头达到阈值的种子比例（灵活）",
    ),
    (
        "k = [1, 2, 4, 8] relations key = q + r (r < k) over 8 keys, context of 8 keys q … q + 7, one untied head of width 16 (query: the pair's own embedding) against the relations' structure given (query: the key the relation names, $W_{QK} = I$); 12 seeds per (arm, k), each at the rate tuned on 3 other seeds over [0.003, 0.01, 0.03, 0.1, 0.3]; steps to test accuracy 0.8 read off the curve; every run to a plateau (accuracy rose < 0.01 over the last fifth, none before step 1200) with a cap of 2400 steps (unreached counted as 2410)",
        "k = [1, 2, 4, 8] 种关系 Key = q + r（r < k），共 8 个 Key，上下文为 8 个 Key q … q + 7；一个宽 16 的独立投影头（Query：该对自己的嵌入）对给定的关系结构（Query：关系所指的 Key，$W_{QK} = I$）；每个（组，k）12 个种子，各用在另外 3 个种子上从 [0.003, 0.01, 0.03, 0.1, 0.3] 中调得的学习率；从曲线读出达到测试准确率 0.8 的步数；每次运行都训练到平台期（最后五分之一内准确率上升 < 0.01，第 1200 步之前不停），上限 2400 步（未达到的记为 2410）",
    ),
    (
        "steps counted to test accuracy 0.8",
        "按达到测试准确率 0.8 计步",
    ),
    (
        "trained: lower 95% bound of ρ(rollout, importance) − ρ(raw, importance) (20 sentences)",
        "训练后：ρ(rollout, 重要性) − ρ(原始, 重要性) 的 95% 下界（20 个句子）",
    ),
    (
        "random baseline (the null): lower 95% bound of ρ(rollout, importance) − ρ(raw, importance) (20 sentences)",
        "随机基线（零基线）：ρ(rollout, 重要性) − ρ(原始, 重要性) 的 95% 下界（20 个句子）",
    ),
    (
        "all-MiniLM-L6-v2 against the same architecture at BERT initialisation (random_init); the first 20 A sentences of models/contexts.txt (zero ablation and [MASK] on the first 10); importance of token j: ‖target − target with token j removed‖; raw: last layer's head-mean attention; rollout: (½I + ½A₆) ⋯ (½I + ½A₁); sinks: tokens receiving more than 0.5 of some head's weight; SmolLM2-135M-Instruct against the same architecture at Llama's initialisation: rollout on the first 8 A sentences, importance of token j to the last token by mean ablation of j's embedding, raw: layer 30's head-mean attention row of the last token; boundary: 20 of 20 words that are one token (Ġword) in both sentences, the stream after each block",
        "all-MiniLM-L6-v2 对 BERT 初始化下的同一架构（random_init）；`models/contexts.txt` 的前 20 个 A 句（零消融与 [MASK] 只用前 10 个）；单标 j 的重要性：‖目标 − 去掉单标 j 后的目标‖；原始：最后一层各头平均的注意力；rollout：(½I + ½A₆) ⋯ (½I + ½A₁)；汇点：从某个头得到多于 0.5 权重的单标；SmolLM2-135M-Instruct 对 Llama 初始化下的同一架构：rollout 取前 8 个 A 句，单标 j 对最后一个单标的重要性由均值消融 j 的嵌入得到，原始：第 30 层各头平均的最后一个单标的注意力行；边界：20 个词中的 20 个在两个句子里都是单个单标（`Ġword`），取每个块之后的流",
    ),
    (
        "counterfactual: mean ablation; target: each word's final state; token set: all tokens",
        "反事实：均值消融；目标：每个词的最终状态；单标集：全部单标",
    ),
    ("counterfactual: zero ablation", "反事实：零消融"),
    (
        "counterfactual: blank-out by [UNK]",
        "反事实：换成 [UNK] 的遮盖",
    ),
    (
        "counterfactual: blank-out by [MASK]",
        "反事实：换成 [MASK] 的遮盖",
    ),
    ("target: the [CLS] final state", "目标：[CLS] 的最终状态"),
    (
        "target: the mean-pooled sentence vector",
        "目标：均值池化的句向量",
    ),
    (
        "token set: without the sinks found in the data",
        "单标集：去掉从数据中找到的汇点",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; target: the last token); counterfactual: mean ablation; target: the last token's final state; token set: every earlier token",
        "模型：SmolLM2-135M-Instruct（因果；目标：最后一个单标）；反事实：均值消融；目标：最后一个单标的最终状态；单标集：每个更早的单标",
    ),
    (
        "SmolLM2, trained: lower 95% bound of ρ(rollout, importance) − ρ(raw, importance) (8 sentences)",
        "SmolLM2，训练后：ρ(rollout, 重要性) − ρ(原始, 重要性) 的 95% 下界（8 个句子）",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; target: the last token); counterfactual: mean ablation; target: the last token's final state; token set: every earlier token but the first (the sink)",
        "模型：SmolLM2-135M-Instruct（因果；目标：最后一个单标）；反事实：均值消融；目标：最后一个单标的最终状态；单标集：除第一个（汇点）外每个更早的单标",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; target: the last token); counterfactual: mean ablation; target: the next-token distribution (total variation); token set: every earlier token",
        "模型：SmolLM2-135M-Instruct（因果；目标：最后一个单标）；反事实：均值消融；目标：下一单标分布（总变差）；单标集：每个更早的单标",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; target: the last token); counterfactual: mean ablation; target: the next-token distribution (total variation); token set: every earlier token but the first (the sink)",
        "模型：SmolLM2-135M-Instruct（因果；目标：最后一个单标）；反事实：均值消融；目标：下一单标分布（总变差）；单标集：除第一个（汇点）外每个更早的单标",
    ),
    (
        "Spearman ρ of the [CLS] row of raw last-layer attention and of rollout with blank-out importance (each token → [UNK]), over all tokens, final layer; MiniLM has no classifier, so the importance is the change of the [CLS] final state",
        "最后一层原始注意力的 [CLS] 行、以及 rollout 的 [CLS] 行，与遮盖重要性（每个单标 → [UNK]）的 Spearman ρ，遍及全部单标，最后一层；MiniLM 没有分类器，因此重要性取 [CLS] 最终状态的变化",
    ),
    (
        "trained, their protocol: lower 95% bound of ρ(rollout, importance) − ρ(raw, importance) (20 sentences)",
        "训练后，按他们的协议：ρ(rollout, 重要性) − ρ(原始, 重要性) 的 95% 下界（20 个句子）",
    ),
    (
        "the same protocol with attention flow (max flow through the layers' ½I + ½A graph to the [CLS] output) in place of rollout",
        "同一协议，用注意力流（沿各层 ½I + ½A 图到 [CLS] 输出的最大流）代替 rollout",
    ),
    (
        "trained, their protocol: lower 95% bound of ρ(flow, importance) − ρ(raw, importance) (20 sentences)",
        "训练后，按他们的协议：ρ(注意力流, 重要性) − ρ(原始, 重要性) 的 95% 下界（20 个句子）",
    ),
    (
        "trained, layer 6: TV(measured, linearised composite) − TV(measured, uniform)",
        "训练后，第 6 层：TV(实测, 线性化复合) − TV(实测, 均匀)",
    ),
    (
        "trained, layer 6: ‖δ_lin − δ_true‖ / ‖δ_true‖ of the composite linearisation (null: predicting no change, 1)",
        "训练后，第 6 层：复合线性化的 ‖δ_lin − δ_true‖ / ‖δ_true‖（零基线：预测不变，1）",
    ),
    (
        "random baseline, layer 6: TV(measured, linearised composite) − TV(measured, uniform)",
        "随机基线，第 6 层：TV(实测, 线性化复合) − TV(实测, 均匀)",
    ),
    (
        "all-MiniLM-L6-v2 against the same architecture at BERT initialisation (random_init); effects: mean ablation of each input token, 4 sentences; contexts: 20 words in two sentences each (models/contexts.txt), unrelated baseline: the next pair's word in its own sentence; the composite linearisation J₆ ⋯ J₁ applied to each mean ablation by forward differences (step 10⁻⁶ of the direction's norm)",
        "all-MiniLM-L6-v2 对 BERT 初始化下的同一架构（random_init）；效应：对每个输入单标做均值消融，4 个句子；上下文：20 个词，每个词两个句子（`models/contexts.txt`），无关基线：下一对中的词在它自己的句子里；复合线性化 J₆ ⋯ J₁ 用前向差分作用于每个均值消融（步长为方向范数的 10⁻⁶）",
    ),
    (
        "objects composed: each layer's linearisation at the clean input (Jacobian-vector products), which compose by the chain rule; depth: h₆",
        "复合的对象：每层在干净输入处的线性化（雅可比-向量积），按链式法则复合；深度：h₆",
    ),
    ("depth: h₃", "深度：h₃"),
    (
        "objects composed: row-normalised one-layer effect norms (built to fail: norms do not compose even for linear maps, ‖Σ_k J_ik J_kj‖ ≠ Σ_k ‖J_ik‖ ‖J_kj‖)",
        "复合的对象：按行归一化的单层效应范数（故意设计成会失败：即使对线性映射，范数也不复合，‖Σ_k J_ik J_kj‖ ≠ Σ_k ‖J_ik‖ ‖J_kj‖）",
    ),
    (
        "trained, layer 6: TV(measured, composite of norms) − TV(measured, uniform)",
        "训练后，第 6 层：TV(实测, 范数的复合) − TV(实测, 均匀)",
    ),
    (
        "trained growth of 1 − cos(word in A, word in B) from h₀ to h6 minus the random model's",
        "1 − cos(A 中的词, B 中的词) 从 h₀ 到 h6 的训练后增长，减去随机模型的",
    ),
    (
        "trained, h6: context change / unrelated change",
        "训练后，h6：上下文变化 / 无关变化",
    ),
    (
        "all-MiniLM-L6-v2 against the same architecture at BERT initialisation (random_init); effects: mean ablation of each input token, 4 sentences; contexts: 20 words in two sentences each (models/contexts.txt), unrelated baseline: the next pair's word in its own sentence; SmolLM2-135M-Instruct against the same architecture at Llama's initialisation: rollout on the first 8 A sentences, importance of token j to the last token by mean ablation of j's embedding, raw: layer 30's head-mean attention row of the last token; boundary: 20 of 20 words that are one token (Ġword) in both sentences, the stream after each block",
        "all-MiniLM-L6-v2 对 BERT 初始化下的同一架构（random_init）；效应：对每个输入单标做均值消融，4 个句子；上下文：20 个词，每个词两个句子（`models/contexts.txt`），无关基线：下一对中的词在它自己的句子里；SmolLM2-135M-Instruct 对 Llama 初始化下的同一架构：rollout 取前 8 个 A 句，单标 j 对最后一个单标的重要性由均值消融 j 的嵌入得到，原始：第 30 层各头平均的最后一个单标的注意力行；边界：20 个词中的 20 个在两个句子里都是单个单标（`Ġword`），取每个块之后的流",
    ),
    ("depth: h₆", "深度：h₆"),
    (
        "trained growth of 1 − cos(word in A, word in B) from h₀ to h3 minus the random model's",
        "1 − cos(A 中的词, B 中的词) 从 h₀ 到 h3 的训练后增长，减去随机模型的",
    ),
    (
        "trained, h3: context change / unrelated change",
        "训练后，h3：上下文变化 / 无关变化",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the word after two prefixes); depth: h30",
        "模型：SmolLM2-135M-Instruct（因果；两个前缀之后的词）；深度：h30",
    ),
    (
        "SmolLM2: trained growth of 1 − cos(word after prefix A, after prefix B) from h₀ to h30 minus the random model's",
        "SmolLM2：1 − cos(前缀 A 之后的词, 前缀 B 之后的词) 从 h₀ 到 h30 的训练后增长，减去随机模型的",
    ),
    (
        "SmolLM2, trained, h30: context change / unrelated change",
        "SmolLM2，训练后，h30：上下文变化 / 无关变化",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the word after two prefixes); depth: h15",
        "模型：SmolLM2-135M-Instruct（因果；两个前缀之后的词）；深度：h15",
    ),
    (
        "SmolLM2: trained growth of 1 − cos(word after prefix A, after prefix B) from h₀ to h15 minus the random model's",
        "SmolLM2：1 − cos(前缀 A 之后的词, 前缀 B 之后的词) 从 h₀ 到 h15 的训练后增长，减去随机模型的",
    ),
    (
        "SmolLM2, trained, h15: context change / unrelated change",
        "SmolLM2，训练后，h15：上下文变化 / 无关变化",
    ),
    (
        "trained: share of the 72 heads whose strongest partner changes with the context",
        "训练后：72 个头中最强伙伴随上下文变化的比例",
    ),
    ("random baseline: the same share", "随机基线：同一比例"),
    (
        "all-MiniLM-L6-v2 against the same architecture at BERT initialisation (random_init); effects: mean ablation of each input token, 4 sentences; contexts: 20 words in two sentences each (models/contexts.txt), unrelated baseline: the next pair's word in its own sentence",
        "all-MiniLM-L6-v2 对 BERT 初始化下的同一架构（random_init）；效应：对每个输入单标做均值消融，4 个句子；上下文：20 个词，每个词两个句子（`models/contexts.txt`），无关基线：下一对中的词在它自己的句子里",
    ),
    ("token set: every key", "单标集：每个 Key"),
    (
        "trained: mean TV(A_l on h_{l−1}, A_l on h₀), layers 2–6, minus the random model's",
        "训练后：TV(A_l 作用于 h_{l−1}, A_l 作用于 h₀) 的均值，第 2–6 层，减去随机模型的",
    ),
    (
        "trained: mean TV, layers 2–6",
        "训练后：TV 的均值，第 2–6 层",
    ),
    ("summary: mean over layers 2–6", "汇总：第 2–6 层的均值"),
    (
        "summary: the smallest layer of 2–6",
        "汇总：第 2–6 层中最小的一层",
    ),
    (
        "trained: smallest per-layer mean TV, layers 2–6, minus the random model's",
        "训练后：逐层平均 TV 的最小值，第 2–6 层，减去随机模型的",
    ),
    (
        "smallest share of learned-head seeds reaching test accuracy 0.8, over the members (flexible)",
        "学习型头达到测试准确率 0.8 的种子比例，在各成员上的最小值（灵活）",
    ),
    (
        "smallest learned-head final accuracy minus the null's 95% quantile (0.15, shuffled labels)",
        "学习型头最终准确率的最小值减去零基线的 95% 分位数（0.15，打乱标签）",
    ),
    (
        "smallest share of a fixed form's seeds reaching 0.8 on its own member",
        "固定形式在它自己的成员上达到 0.8 的种子比例的最小值",
    ),
    (
        "largest share of a fixed form's seeds reaching 0.8 on another member",
        "固定形式在另一个成员上达到 0.8 的种子比例的最大值",
    ),
    (
        "smallest lower 95% bound, over the members, of the median paired steps learned − fixed at that member (costly)",
        "在各成员上，该成员处配对步数之差（学习型 − 固定形式）的中位数的 95% 下界，取最小值（有代价）",
    ),
    (
        "a family of 4 relations key = q + r (r < 4) over 8 keys, context q … q + 7, query e[q], each member trained on its own; one head of width 16 with W_Q, W_K learned (untied) against W_Q, W_K frozen at one member's form (score 4 on the key q + r, 0 elsewhere; the same tensors, only W_V, W_O, W_R learn); 12 seeds per (head, member), sharing tables, test set and batches, each tuned arm at its rate from 3 other seeds over [0.003, 0.01, 0.03, 0.1, 0.3] (a fixed form on another member at its own member's rate); null: the learned head on shuffled labels; steps read every 5 steps; every run to a plateau (accuracy rose < 0.01 over the last fifth, none before step 400) with a cap of 2400 steps (unreached counted as 2405)",
        "一族 4 种关系 Key = q + r（r < 4），共 8 个 Key，上下文 q … q + 7，Query 为 e[q]，每个成员单独训练；一个宽 16 的头，W_Q、W_K 可学习（独立投影），对 W_Q、W_K 冻结为某个成员的形式（在 Key q + r 上分数为 4，其他处为 0；同样的张量，只有 W_V、W_O、W_R 学习）；每个（头，成员）12 个种子，共享同样的表、测试集与批次，每个调参的组各用在另外 3 个种子上从 [0.003, 0.01, 0.03, 0.1, 0.3] 中调得的学习率（固定形式在另一个成员上用它自己成员的学习率）；零基线：在打乱的标签上训练的学习型头；每 5 步读一次步数；每次运行都训练到平台期（最后五分之一内准确率上升 < 0.01，第 400 步之前不停），上限 2400 步（未达到的记为 2405）",
    ),
    (
        "steps counted to test accuracy 0.8; fixed forms at margin 4",
        "按达到测试准确率 0.8 计步；固定形式的间隔为 4",
    ),
    (
        "fixed forms at margin 8 (threshold 0.8)",
        "固定形式的间隔为 8（阈值 0.8）",
    ),
    (
        "smallest share of learned-head seeds reaching test accuracy 0.8, over the members (powerful)",
        "学习型头达到测试准确率 0.8 的种子比例，在各成员上的最小值（强大）",
    ),
    (
        "largest lower 95% bound, over the members, of the median paired steps learned − fixed at that member (not efficient on some member)",
        "在各成员上，该成员处配对步数之差（学习型 − 固定形式）的中位数的 95% 下界，取最大值（在某个成员上并不高效）",
    ),
    // the trained arms, as the plateau lines name them
    ("learned k = 1", "学习型 k = 1"),
    ("given k = 1", "给定结构 k = 1"),
    ("learned", "学习型头"),
    ("fixed (own member)", "固定形式（自身成员）"),
    ("fixed (other member)", "固定形式（其他成员）"),
    ("shuffled-label null", "打乱标签零基线"),
    // issue 36: the composites and input × gradient
    (
        "SmolLM2, trained: lower 95% bound of ρ(norm-weighted composite, importance) − ρ(raw, importance) (8 sentences)",
        "SmolLM2，训练后：ρ(范数加权复合, 重要性) − ρ(原始, 重要性) 的 95% 下界（8 个句子）",
    ),
    (
        "all-MiniLM-L6-v2; the first 20 A sentences of models/contexts.txt (zero ablation and [MASK] on the first 10); importance of token j: ‖target − target with token j removed‖ (input × gradient: with x_j scaled by 1 + 10⁻⁴); raw: last layer's head-mean attention; rollout: (½I + ½A₆) ⋯ (½I + ½A₁); sinks: [CLS] and the tokens receiving more than 0.5 of some head's weight; SmolLM2-135M-Instruct against the same architecture at Llama's initialisation: rollout on the first 8 A sentences, importance of token j to the last token by mean ablation of j's embedding, raw: layer 30's head-mean attention row of the last token; boundary: 20 of 20 words that are one token (Ġword) in both sentences, the stream after each block",
        "all-MiniLM-L6-v2；`models/contexts.txt` 的前 20 个 A 句（零消融与 [MASK] 只用前 10 个）；单标 j 的重要性：‖目标 − 去掉单标 j 后的目标‖（输入 × 梯度：把 x_j 放大为 1 + 10⁻⁴ 倍）；原始：最后一层各头平均的注意力；rollout：(½I + ½A₆) ⋯ (½I + ½A₁)；汇点：[CLS] 以及从某个头得到多于 0.5 权重的单标；SmolLM2-135M-Instruct 对 Llama 初始化下的同一架构：rollout 取前 8 个 A 句，单标 j 对最后一个单标的重要性由均值消融 j 的嵌入得到，原始：第 30 层各头平均的最后一个单标的注意力行；边界：20 个词中的 20 个在两个句子里都是单个单标（`Ġword`），取每个块之后的流",
    ),
    (
        "composite: norm-weighted; counterfactual: mean ablation; target: each word's final state; token set: all tokens",
        "复合：范数加权；反事实：均值消融；目标：每个词的最终状态；单标集：全部单标",
    ),
    (
        "composite: rollout with the sink columns removed and the rows renormalised",
        "复合：去掉汇点列并把各行重新归一化的 rollout",
    ),
    (
        "counterfactual: blank-out by [UNK]; target: the mean-pooled sentence vector; token set: without the sinks found in the data",
        "反事实：用 [UNK] 置空；目标：平均池化的句向量；单标集：去掉数据中找到的汇点",
    ),
    (
        "counterfactual: input × gradient (forward difference)",
        "反事实：输入 × 梯度（前向差分）",
    ),
    (
        "counterfactual: input × gradient (forward difference); target: the mean-pooled sentence vector",
        "反事实：输入 × 梯度（前向差分）；目标：平均池化的句向量",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; target: the last token); counterfactual: input × gradient (forward difference); target: the last token's final state; token set: every earlier token but the first (the sink)",
        "模型：SmolLM2-135M-Instruct（因果；目标：最后一个单标）；反事实：输入 × 梯度（前向差分）；目标：最后一个单标的最终状态；单标集：除第一个（汇点）外每个更早的单标",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; target: the last token); counterfactual: input × gradient (forward difference); target: the last token's final state; token set: every earlier token",
        "模型：SmolLM2-135M-Instruct（因果；目标：最后一个单标）；反事实：输入 × 梯度（前向差分）；目标：最后一个单标的最终状态；单标集：每个更早的单标",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; target: the last token); counterfactual: input × gradient (forward difference); target: the next-token distribution (total variation); token set: every earlier token but the first (the sink)",
        "模型：SmolLM2-135M-Instruct（因果；目标：最后一个单标）；反事实：输入 × 梯度（前向差分）；目标：下一单标分布（总变差）；单标集：除第一个（汇点）外每个更早的单标",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; target: the last token); counterfactual: input × gradient (forward difference); target: the next-token distribution (total variation); token set: every earlier token",
        "模型：SmolLM2-135M-Instruct（因果；目标：最后一个单标）；反事实：输入 × 梯度（前向差分）；目标：下一单标分布（总变差）；单标集：每个更早的单标",
    ),
    (
        "trained: lower 95% bound of ρ(norm-weighted composite, importance) − ρ(raw, importance) (10 sentences)",
        "训练后：ρ(范数加权复合, 重要性) − ρ(原始, 重要性) 的 95% 下界（10 个句子）",
    ),
    (
        "trained: lower 95% bound of ρ(norm-weighted composite, importance) − ρ(raw, importance) (20 sentences)",
        "训练后：ρ(范数加权复合, 重要性) − ρ(原始, 重要性) 的 95% 下界（20 个句子）",
    ),
    (
        "trained: lower 95% bound of ρ(rollout without the sinks, importance) − ρ(raw, importance) (20 sentences)",
        "训练后：ρ(去掉汇点的 rollout, 重要性) − ρ(原始, 重要性) 的 95% 下界（20 个句子）",
    ),
];
