//! The claim cards' strings of chapter 3 in Chinese (see [`super::zh`]).

/// English card string → Chinese, numbers in the same order.
pub const CARDS: &[(&str, &str)] = &[
    (
        "induction accuracy with every head",
        "所有头都在时的归纳准确率",
    ),
    (
        "accuracy without the previous-token head, minus chance",
        "去掉前一单标头后的准确率，减去随机水平",
    ),
    (
        "accuracy without the induction head, minus chance",
        "去掉归纳头后的准确率，减去随机水平",
    ),
    (
        "lowest accuracy without any other single head",
        "单独去掉其他任一个头后的最低准确率",
    ),
    (
        "200 seeds; a hand-built two-layer induction circuit, 4 heads per layer, 10 token types",
        "200 个种子；手工搭建的两层归纳回路，每层 4 个头，10 种单标",
    ),
    (
        "pattern error of a rank-8 head on the previous-token relation",
        "秩 8 的头在前一单标关系上的模式误差",
    ),
    (
        "pattern error of a rank-16 head on the previous-token relation",
        "秩 16 的头在前一单标关系上的模式误差",
    ),
    (
        "pattern error of a rank-4 head on a content relation",
        "秩 4 的头在一个内容关系上的模式误差",
    ),
    (
        "50 seeds; best rank-r patterns of target relations on 16 tokens",
        "50 个种子；16 个单标上目标关系的最佳秩 r 模式",
    ),
    (
        "share of seeds on which the two heads split the relations",
        "两个头分担两种关系的种子比例",
    ),
    (
        "accuracy of one head on the two relations (it cannot read both if one head is one relation)",
        "一个头在两种关系上的准确率（如果一个头只对应一种关系，它就读不出两者）",
    ),
    (
        "10 seeds; trained to a plateau (cap 4000 steps) on the ordered pair of labels at q and q + 1; two heads of width 8 against one head of width 16",
        "10 个种子；训练到平台期（上限 4000 步），任务是 q 与 q + 1 处标签的有序对；两个宽 8 的头对一个宽 16 的头",
    ),
    (
        "a head reads a relation with ≥ 0.9 of its attention on it",
        "一个头把至少 0.9 的注意力放在某个关系上，才算读出这个关系",
    ),
    (
        "lower 95% bound of the accuracy gain, two narrow heads over one wide",
        "准确率提升的 95% 下界，两个窄头对一个宽头",
    ),
    (
        "pattern error of two narrow heads minus one wide, two content relations",
        "两个窄头的模式误差减去一个宽头的，两种内容关系",
    ),
    (
        "accuracy of 8 heads of width 1 minus 1 head of width 8, one relation",
        "8 个宽 1 的头的准确率减去 1 个宽 8 的头的，一种关系",
    ),
    (
        "trained to a plateau at tuned rates: the two-relation task (10 seeds) and the match task at total width 8 (20 seeds, cap 6000 steps); constructed: best patterns on two content relations",
        "以调得的学习率训练到平台期：双关系任务（10 个种子）与总宽度 8 的匹配任务（20 个种子，上限 6000 步）；构造：两种内容关系上的最佳模式",
    ),
    (
        "task: two relations at width 16; constructed patterns at total width 8",
        "任务：宽度 16 上的两种关系；构造模式的总宽度 8",
    ),
    (
        "task: one relation (match) at width 8; constructed patterns at total width 4",
        "任务：宽度 8 上的一种关系（匹配）；构造模式的总宽度 4",
    ),
    (
        "share of seeds on which the trained change exceeds the same seed's at initialisation",
        "训练后的变化超过同一种子初始化时变化的种子比例",
    ),
    (
        "share of seeds on which the later layer changes the head's effect by more than c = 0.5",
        "后层使该头效应的改变超过 c = 0.5 的种子比例",
    ),
    (
        "16 seeds; two layers of 2 heads with residual paths trained to a plateau (cap 4000 steps) on a two-hop recall task; change c = ‖Δ_tot − Δ_dir‖ / ‖Δ_dir‖ on the centred logits; null: the same seed's model at initialisation",
        "16 个种子；两层、每层 2 个头、带残差路径，在两跳回忆任务上训练到平台期（上限 4000 步）；在中心化的对数几率上，变化 c = ‖Δ_tot − Δ_dir‖ / ‖Δ_dir‖；零基线：同一种子初始化时的模型",
    ),
    (
        "head: each seed's first-layer head with the largest total effect",
        "头：每个种子第一层中总效应最大的头",
    ),
    ("head: every first-layer head", "头：第一层的每个头"),
    (
        "median repair r = 1 − κ over heads of layers 0–4, trained − random",
        "修复量 r = 1 − κ 在第 0–4 层各头上的中位数，训练后 − 随机",
    ),
    (
        "share of trained heads whose r exceeds the random model's median",
        "r 超过随机模型中位数的训练后头的比例",
    ),
    (
        "MiniLM-L6 and its random-weight twin (BERT init), 20 corpus sentences each, one head per layer 0–4 per sentence (100 per model); κ = ⟨Δ_tot, Δ_dir⟩/‖Δ_dir‖², r = 1 − κ; the null is the random model's κ; decoder choices: SmolLM2-135M-Instruct and its random-weight twin (Llama init, N(0, (1/24)²)), 6 context sentences, one head per layer 0–28 on every other layer per sentence (87 heads per model); κ read after the final RMSNorm",
        "MiniLM-L6 及其随机权重孪生模型（BERT 初始化），各取 20 个语料句子，每个句子在第 0–4 层各取一个头（每个模型 100 个）；κ = ⟨Δ_tot, Δ_dir⟩/‖Δ_dir‖²，r = 1 − κ；零基线是随机模型的 κ；解码器选项：SmolLM2-135M-Instruct 及其随机权重孪生模型（Llama 初始化，N(0, (1/24)²)），6 个上下文句子，每个句子在第 0–28 层中隔层各取一个头（每个模型 87 个头）；κ 在最后的 RMSNorm 之后读取",
    ),
    (
        "head zeroed, LayerNorm frozen, all last states",
        "头置零，LayerNorm 冻结，全部最后状态",
    ),
    ("head mean-ablated", "头均值消融"),
    ("head W_QK symmetrised", "头的 W_QK 对称化"),
    ("head resample-ablated", "头重采样消融"),
    (
        "LayerNorm recomputed on the direct path",
        "在直接路径上重算 LayerNorm",
    ),
    (
        "target: the pooled embedding's turn g(Δ)",
        "目标：池化嵌入的转角 g(Δ)",
    ),
    (
        "norm ratio ‖Δ_tot‖/‖Δ_dir‖ in place of κ",
        "以范数比 ‖Δ_tot‖/‖Δ_dir‖ 代替 κ",
    ),
    (
        "decoder SmolLM2-135M-Instruct: head zeroed, final RMSNorm frozen, every normed last state",
        "解码器 SmolLM2-135M-Instruct：头置零，最后的 RMSNorm 冻结，每个归一化后的最后状态",
    ),
    (
        "decoder SmolLM2-135M-Instruct: head mean-ablated",
        "解码器 SmolLM2-135M-Instruct：头均值消融",
    ),
    (
        "decoder SmolLM2-135M-Instruct: head zeroed, logit of each position's clean top-1 token",
        "解码器 SmolLM2-135M-Instruct：头置零，每个位置在干净运行中 top-1 单标的对数几率",
    ),
    (
        "the Hydra effect, their protocol: a whole attention layer resample-ablated (its output on another corpus sentence of the same token length, else the first n positions of the shortest longer one; κ averaged over 3 donors), direct effect with LayerNorm frozen against total effect on the model's output (the pooled embedding; MiniLM has no logits), layers 0–4",
        "Hydra 效应，按他们的协议：整个注意力层做重采样消融（换成它在另一个单标长度相同的语料句子上的输出，没有则取最短的更长句子的前 n 个位置；κ 对 3 个供体取平均），LayerNorm 冻结时的直接效应对模型输出上的总效应（池化嵌入；MiniLM 没有对数几率），第 0–4 层",
    ),
    (
        "share of layer ablations whose total effect along the direct one is below it (κ < 1)",
        "沿直接效应方向的总效应小于直接效应（κ < 1）的层消融比例",
    ),
    (
        "the same with the layer mean-ablated in place of resampled",
        "同一协议，层改为均值消融而非重采样",
    ),
    (
        "their protocol on a decoder language model (SmolLM2-135M-Instruct): a whole attention layer resample-ablated (its output on another context sentence at least as long), direct effect with the final RMSNorm frozen against total effect on the logit of each position's clean top-1 token, layers 0–28",
        "他们的协议用在解码器语言模型上（SmolLM2-135M-Instruct）：整个注意力层做重采样消融（换成它在另一个至少同样长的上下文句子上的输出），最后的 RMSNorm 冻结时的直接效应对每个位置在干净运行中 top-1 单标对数几率上的总效应，第 0–28 层",
    ),
    (
        "the same on SmolLM2-135M-Instruct's whole normed last stream in place of the top-1 logit",
        "同一协议，目标换成 SmolLM2-135M-Instruct 整个归一化后的最后状态流，而非 top-1 对数几率",
    ),
    (
        "largest single-head change 1 − cos over heads and sentences ÷ median paraphrase distance",
        "单个头造成的最大变化 1 − cos（遍及各头与句子）÷ 复述距离的中位数",
    ),
    (
        "heads pruned (least important first) before word-sense accuracy drops by the stated amount",
        "在词义准确率下降规定幅度之前剪掉的头数（先剪最不重要的）",
    ),
    (
        "word-sense accuracy with every head kept (chance 0.5)",
        "保留所有头时的词义准确率（随机水平 0.5）",
    ),
    (
        "word-sense accuracy, every head removed − every head kept (the task needs attention)",
        "词义准确率，去掉所有头 − 保留所有头（任务需要注意力）",
    ),
    (
        "SmolLM2's top-1 agreement with every head removed (the task needs attention)",
        "去掉所有头后 SmolLM2 的 top-1 一致率（任务需要注意力）",
    ),
    (
        "SmolLM2's share pruned before top-1 agreement drops, trained − random-weight decoder",
        "top-1 一致率下降之前 SmolLM2 被剪掉的比例，训练后 − 随机权重解码器",
    ),
    (
        "SmolLM2's share pruned before top-1 agreement drops, importance order − random order (mean of the seeds)",
        "top-1 一致率下降之前 SmolLM2 被剪掉的比例，按重要性次序 − 按随机次序（各种子的均值）",
    ),
    (
        "trained MiniLM; baseline: the distance 1 − cos between a sentence and its paraphrase; 20 words in four sentences each (models/contexts.txt, models/senses.txt) and 30 paraphrase pairs, heads removed in steps of 24, drop 0.10; random-weight word-sense accuracy 0.51 (every head kept), 0.47 (removed); who-did-what-to-whom (40 role triples, models/roles.txt): trained 0.03, every head removed 0.00, random 0.00; decoder: SmolLM2-135M-Instruct and its random-weight twin (Llama init): 2 paragraphs of 5 context sentences, every next-token position scored; importance = mean |first-order direct effect| on the loss (final norm frozen); 27 heads removed per level; 3 random orders; loss kept not tested against the random decoder (its loss is that of a random readout whatever heads it keeps): random decoder's loss 11.25 nats clean, 11.36 with every head removed",
        "训练后的 MiniLM；基线：一个句子与其复述之间的距离 1 − cos；20 个词各四个句子（`models/contexts.txt`、`models/senses.txt`）与 30 对复述句，每步去掉 24 个头，下降幅度 0.10；随机权重的词义准确率 0.51（保留所有头）、0.47（去掉所有头）；谁对谁做了什么（40 个角色三元组，`models/roles.txt`）：训练后 0.03，去掉所有头 0.00，随机 0.00；解码器：SmolLM2-135M-Instruct 及其随机权重孪生模型（Llama 初始化）：2 段、每段 5 个上下文句子，为每个下一单标位置打分；重要性 = |一阶直接效应| 在损失上的均值（最后的归一化冻结）；每级去掉 27 个头；3 个随机次序；保留的损失未与随机解码器比较（无论保留哪些头，它的损失都是随机读出的损失）：随机解码器的损失干净时 11.25 奈特，去掉所有头后 11.36",
    ),
    (
        "task: which sense a word has in its sentence (word-in-context)",
        "任务：一个词在句子中是哪个词义（上下文中的词义）",
    ),
    (
        "task: paraphrase retrieval among the corpus sentences",
        "任务：在语料句子中检索复述句",
    ),
    (
        "heads pruned (least important first) before top-1 drops by the stated amount",
        "在 top-1 一致率下降规定幅度之前剪掉的头数（先剪最不重要的）",
    ),
    (
        "SmolLM2-135M-Instruct, task: top-1 agreement with the unablated decoder",
        "SmolLM2-135M-Instruct，任务：与未消融解码器的 top-1 一致率",
    ),
    (
        "largest drop of top-1 agreement from removing one of the 9 heads the first pass ranks highest, alone",
        "单独去掉首轮排名最高的 9 个头之一时 top-1 一致率的最大下降",
    ),
    (
        "share of the decoder's heads pruned (least important first) before top-1 agreement drops by 0.10 (the encoder's bound, 12 of 72)",
        "top-1 一致率下降 0.10 之前被剪掉的解码器头的比例（先剪最不重要的；编码器的界限，12/72）",
    ),
    (
        "SmolLM2-135M-Instruct, task: share of the next-token loss kept, (L_all − L_K)/(L_all − L_clean)",
        "SmolLM2-135M-Instruct，任务：保留的下一单标损失比例，(L_all − L_K)/(L_all − L_clean)",
    ),
    (
        "largest drop of the share of loss kept from removing one of the 9 heads the first pass ranks highest, alone",
        "单独去掉首轮排名最高的 9 个头之一时保留损失比例的最大下降",
    ),
    (
        "share of the decoder's heads pruned (least important first) before the share of loss kept drops by 0.10 (the encoder's bound, 12 of 72)",
        "保留损失比例下降 0.10 之前被剪掉的解码器头的比例（先剪最不重要的；编码器的界限，12/72）",
    ),
    (
        "mean JS divergence between heads, trained − random (bits)",
        "头之间的平均 JS 散度，训练后 − 随机（比特）",
    ),
    (
        "no head of the random-weight baseline passes the threshold (previous, next, [SEP] or sink)",
        "随机权重基线中没有哪个头超过阈值（前一、下一、[SEP] 或汇点）",
    ),
    ("sink: [SEP], hard-coded", "汇点：[SEP]，硬编码"),
    (
        "a previous-token, a next-token and a [SEP]-sink head each exist",
        "前一单标头、下一单标头与 [SEP] 汇点头各自存在",
    ),
    (
        "loss rise (nats) with the 5 induction heads removed − the largest rise with 24 random sets of 5 heads from the induction heads' own layers removed",
        "去掉 5 个归纳头时损失的上升（奈特）− 去掉 24 组从归纳头自己所在的层中随机抽取的 5 个头时的最大上升",
    ),
    (
        "drop of the induction heads' prefix score with the 5 previous-token heads removed − the largest drop with 24 random sets of 5 heads from the previous-token heads' own layers removed",
        "去掉 5 个前一单标头时归纳头前缀分数的下降 − 去掉 24 组从前一单标头自己所在的层中随机抽取的 5 个头时的最大下降",
    ),
    (
        "loss rise (nats) with the 5 induction heads removed − the largest rise with 24 random sets of 5 heads from every other head removed",
        "去掉 5 个归纳头时损失的上升（奈特）− 去掉 24 组从所有其他头中随机抽取的 5 个头时的最大上升",
    ),
    (
        "drop of the induction heads' prefix score with the 5 previous-token heads removed − the largest drop with 24 random sets of 5 heads from every layer below the first induction head removed",
        "去掉 5 个前一单标头时归纳头前缀分数的下降 − 去掉 24 组从第一个归纳头之下的所有层中随机抽取的 5 个头时的最大下降",
    ),
    (
        "SmolLM2-135M-Instruct (pre-RMSNorm decoder, 30 blocks × 9 heads) against the same architecture at Llama's initialisation (N(0, (1/24)²)); sequences of T = 25 token ids uniform over 17–49151 repeated once after `<|im_start|>`; induction heads = the 5 of highest prefix score, previous-token heads = the 5 of highest previous-token score below the first induction layer, both selected on seeds 0–15; ablation (context zeroed before W_O) on 4 held-out sequences (seeds 100–103), each control 24 seeded random head sets",
        "SmolLM2-135M-Instruct（前置 RMSNorm 的解码器，30 块 × 9 个头）对 Llama 初始化下的同一架构（N(0, (1/24)²)）；序列为 T = 25 个在 17–49151 上均匀抽取的单标编号，在 `<|im_start|>` 之后重复一次；归纳头 = 前缀分数最高的 5 个，前一单标头 = 在第一个归纳层之下前一单标分数最高的 5 个，两者都在种子 0–15 上选出；消融（在 W_O 之前把上下文置零）在 4 条留出序列（种子 100–103）上做，每种对照取 24 组带种子的随机头",
    ),
    (
        "control heads drawn from the same layers: from the induction heads' own layers (induction), from the previous-token heads' own layers (previous-token)",
        "对照头取自同样的层：归纳检验取自归纳头自己所在的层，前一单标检验取自前一单标头自己所在的层",
    ),
    (
        "ablation on the sequences the heads were selected on (seeds 0–3)",
        "在挑选这些头所用的序列上消融（种子 0–3）",
    ),
    (
        "controls drawn from every other head (induction)",
        "归纳检验的对照取自所有其他头",
    ),
    (
        "controls drawn from every layer below the first induction head (previous-token)",
        "前一单标检验的对照取自第一个归纳头之下的所有层",
    ),
    ("3 heads per set", "每组 3 个头"),
    (
        "random decoder: heads with prefix-matching score ≥ 0.3",
        "随机解码器：前缀匹配分数 ≥ 0.3 的头",
    ),
    (
        "random decoder: loss on the repeat ÷ loss on the first copy",
        "随机解码器：重复段上的损失 ÷ 第一遍上的损失",
    ),
    (
        "share of the induction heads (prefix ≥ 0.3) whose write at the repeat raises the next token's logit (direct effect > 0)",
        "前缀 ≥ 0.3 的归纳头中，在重复段的写入提高下一单标对数几率（直接效应 > 0）的比例",
    ),
    (
        "induction heads copy: the eigenvalues of each induction head's OV circuit read from token embedding to logit (E^T diag(g_attn) W_V W_O diag(g_out) E, the tied embedding) have a positive balance Σ Re λ / Σ |λ|",
        "归纳头会复制：每个归纳头从单标嵌入到对数几率读出的 OV 回路（E^T diag(g_attn) W_V W_O diag(g_out) E，共享的嵌入）的特征值有正的平衡 Σ Re λ / Σ |λ|",
    ),
    (
        "share of the induction heads (prefix ≥ 0.3) with a positive eigenvalue balance",
        "特征值平衡为正的归纳头（前缀 ≥ 0.3）所占比例",
    ),
    (
        "induction heads exist: heads whose prefix-matching score (mean attention from each repeat position to the token after its token's first copy) is at least 0.3; 16 sequences of T = 25 token ids uniform over 17–49151 repeated once, after `<|im_start|>`",
        "归纳头存在：前缀匹配分数（从每个重复位置到该单标第一遍出现之后那个单标的平均注意力）至少为 0.3 的头；16 条序列，每条 T = 25 个在 17–49151 上均匀抽取的单标编号，重复一次，前置 `<|im_start|>`",
    ),
    (
        "heads with prefix-matching score ≥ 0.3",
        "前缀匹配分数 ≥ 0.3 的头",
    ),
    (
        "in-context learning on the repeat: mean next-token loss on the repeat against the first copy, the same tokens predicted; 16 sequences of T = 25 token ids uniform over 17–49151 repeated once, after `<|im_start|>`",
        "重复段上的上下文学习：重复段上对第一遍的平均下一单标损失，预测的是同样的单标；16 条序列，每条 T = 25 个在 17–49151 上均匀抽取的单标编号，重复一次，前置 `<|im_start|>`",
    ),
    (
        "loss on the repeat ÷ loss on the first copy",
        "重复段上的损失 ÷ 第一遍上的损失",
    ),
    (
        "induction heads exist: heads whose prefix-matching score (mean attention from each repeat position to the token after its token's first copy) is at least 0.3; 8 sequences of T = 25 token ids uniform over 17–49151 repeated once, after `<|endoftext|>`",
        "归纳头存在：前缀匹配分数（从每个重复位置到该单标第一遍出现之后那个单标的平均注意力）至少为 0.3 的头；8 条序列，每条 T = 25 个在 17–49151 上均匀抽取的单标编号，重复一次，前置 `<|endoftext|>`",
    ),
    (
        "in-context learning on the repeat: mean next-token loss on the repeat against the first copy, the same tokens predicted; 8 sequences of T = 25 token ids uniform over 17–49151 repeated once, after `<|endoftext|>`",
        "重复段上的上下文学习：重复段上对第一遍的平均下一单标损失，预测的是同样的单标；8 条序列，每条 T = 25 个在 17–49151 上均匀抽取的单标编号，重复一次，前置 `<|endoftext|>`",
    ),
    (
        "induction heads exist: heads whose prefix-matching score (mean attention from each repeat position to the token after its token's first copy) is at least 0.3; 8 sequences of T = 25 token ids uniform over 17–49151 repeated once, after no lead token",
        "归纳头存在：前缀匹配分数（从每个重复位置到该单标第一遍出现之后那个单标的平均注意力）至少为 0.3 的头；8 条序列，每条 T = 25 个在 17–49151 上均匀抽取的单标编号，重复一次，没有起始单标",
    ),
    (
        "in-context learning on the repeat: mean next-token loss on the repeat against the first copy, the same tokens predicted; 8 sequences of T = 25 token ids uniform over 17–49151 repeated once, after no lead token",
        "重复段上的上下文学习：重复段上对第一遍的平均下一单标损失，预测的是同样的单标；8 条序列，每条 T = 25 个在 17–49151 上均匀抽取的单标编号，重复一次，没有起始单标",
    ),
    (
        "statistic: the mean accuracy over seeds",
        "统计量：各种子上准确率的均值",
    ),
    (
        "statistic: the share of seeds whose one head stays below 0.5",
        "统计量：单头停在 0.5 以下的种子比例",
    ),
    (
        "share of seeds whose one head's accuracy on the two relations is below 0.5",
        "单头在两种关系上的准确率低于 0.5 的种子比例",
    ),
    (
        "SmolLM2's share pruned before top-1 agreement with the unablated decoder drops, importance order − random order (mean of the seeds)",
        "与未消融解码器的 top-1 一致率下降之前 SmolLM2 被剪掉的比例，按重要性次序 − 按随机次序（各种子的均值）",
    ),
    (
        "SmolLM2-135M-Instruct and its random-weight twin (Llama init): 2 paragraphs of 5 context sentences, every next-token position scored; importance = mean |first-order direct effect| on the loss (final norm frozen); 27 heads removed per level; 3 random orders; loss kept not tested against the random decoder (its loss is that of a random readout whatever heads it keeps): random decoder's loss 11.25 nats clean, 11.36 with every head removed",
        "SmolLM2-135M-Instruct 及其随机权重孪生模型（Llama 初始化）：2 段、每段 5 个上下文句子，为每个下一单标位置打分；重要性 = |一阶直接效应| 在损失上的均值（最后的归一化冻结）；每级去掉 27 个头；3 个随机次序；保留的损失未与随机解码器比较（无论保留哪些头，它的损失都是随机读出的损失）：随机解码器的损失干净时 11.25 奈特，去掉所有头后 11.36",
    ),
    (
        "task: top-1 agreement with the unablated decoder",
        "任务：与未消融解码器的 top-1 一致率",
    ),
    (
        "task: share of the next-token loss kept, (L_all − L_K)/(L_all − L_clean) (the random decoder's loss is a random readout's, so only the order is compared)",
        "任务：保留的下一单标损失比例，(L_all − L_K)/(L_all − L_clean)（随机解码器的损失是随机读出的损失，因此只比较次序）",
    ),
    (
        "SmolLM2's share pruned before share of the next-token loss kept, (L_all − L_K)/(L_all − L_clean) drops, importance order − random order (mean of the seeds)",
        "保留的下一单标损失比例 (L_all − L_K)/(L_all − L_clean) 下降之前 SmolLM2 被剪掉的比例，按重要性次序 − 按随机次序（各种子的均值）",
    ),
    // the trained arms, as the plateau lines name them
    ("one-head", "单头"),
    ("two-head", "双头"),
    ("one-head (two relations)", "单头（两种关系）"),
    ("two-head (two relations)", "双头（两种关系）"),
    ("match-task split", "匹配任务拆分"),
    ("two-layer", "两层"),
    ("one-layer", "单层"),
    (
        "a previous-token, a next-token and a sink head each exist (mean weight above the threshold; sink against uniform)",
        "前一单标头、下一单标头与汇点头各自存在（平均权重高于阈值；汇点相对于均匀权重）",
    ),
    (
        "all 72 heads on the 60 corpus sentences, trained and random-weight MiniLM; previous- and next-token heads: mean weight above 0.50; a sink: the token with the largest mean weight over queries i ≥ 1, per sentence; sink heads by default: that weight × n above 4/n (against uniform 1/n), 44 of them; mean sentence length 8.5 (shorter half 7.7, longer half 9.3)",
        "全部 72 个头，60 个语料句子，训练后与随机权重的 MiniLM；前一单标头与下一单标头：平均权重高于 0.50；汇点：每个句子中在 Query i ≥ 1 上平均权重最大的单标；默认的汇点头：该权重 × n 高于 4/n（对照均匀权重 1/n），共 44 个；平均句长 8.5（较短的一半 7.7，较长的一半 9.3）",
    ),
    (
        "sink: the token that receives most of a head's weight, found from the data; sink heads: mean weight on the sink above 4× uniform (4/n); every sentence",
        "汇点：从数据中找到的、得到一个头最多权重的单标；汇点头：汇点上的平均权重高于均匀权重的 4 倍（4/n）；全部句子",
    ),
    (
        "sink heads: mean weight on the sink above 3× uniform (3/n)",
        "汇点头：汇点上的平均权重高于均匀权重的 3 倍（3/n）",
    ),
    (
        "a previous-token, a next-token and a sink head each exist (sink: mean weight on the sink above 3× uniform (3/n))",
        "前一单标头、下一单标头与汇点头各自存在（汇点：平均权重高于均匀权重的 3 倍（3/n））",
    ),
    (
        "sink heads: mean weight on the sink above 6× uniform (6/n)",
        "汇点头：汇点上的平均权重高于均匀权重的 6 倍（6/n）",
    ),
    (
        "a previous-token, a next-token and a sink head each exist (sink: mean weight on the sink above 6× uniform (6/n))",
        "前一单标头、下一单标头与汇点头各自存在（汇点：平均权重高于均匀权重的 6 倍（6/n））",
    ),
    (
        "sink heads: mean weight on the sink above 8× uniform (8/n)",
        "汇点头：汇点上的平均权重高于均匀权重的 8 倍（8/n）",
    ),
    (
        "a previous-token, a next-token and a sink head each exist (sink: mean weight on the sink above 8× uniform (8/n))",
        "前一单标头、下一单标头与汇点头各自存在（汇点：平均权重高于均匀权重的 8 倍（8/n））",
    ),
    (
        "sink heads: mean weight on the sink above 0.3",
        "汇点头：汇点上的平均权重高于 0.3",
    ),
    (
        "a previous-token, a next-token and a sink head each exist (sink: mean weight on the sink above 0.3)",
        "前一单标头、下一单标头与汇点头各自存在（汇点：平均权重高于 0.3）",
    ),
    (
        "sink heads: mean weight on the sink above 0.5",
        "汇点头：汇点上的平均权重高于 0.5",
    ),
    (
        "a previous-token, a next-token and a sink head each exist (sink: mean weight on the sink above 0.5)",
        "前一单标头、下一单标头与汇点头各自存在（汇点：平均权重高于 0.5）",
    ),
    (
        "sink heads: mean weight on the sink above 0.7",
        "汇点头：汇点上的平均权重高于 0.7",
    ),
    (
        "a previous-token, a next-token and a sink head each exist (sink: mean weight on the sink above 0.7)",
        "前一单标头、下一单标头与汇点头各自存在（汇点：平均权重高于 0.7）",
    ),
    (
        "a previous-token, a next-token and a sink head each exist (sink: mean weight on the sink above 4× uniform (4/n))",
        "前一单标头、下一单标头与汇点头各自存在（汇点：平均权重高于均匀权重的 4 倍（4/n））",
    ),
    (
        "sentences: the shorter half by length",
        "句子：按长度较短的一半",
    ),
    (
        "sentences: the longer half by length",
        "句子：按长度较长的一半",
    ),
];
