//! The claim cards' strings of chapter 5's real models across depth in
//! Chinese: the range-free tail statistic, idempotence and the fitted lens
//! (see [`super::zh`]).

/// English card string → Chinese, numbers in the same order.
pub const CARDS: &[(&str, &str)] = &[
    (
        "upper end of the 95% interval over sentences: relative update, last blocks over middle blocks, trained − random",
        "对句子的 95% 区间上端：相对更新，最后几块比中间几块，训练后 − 随机",
    ),
    (
        "upper end of the 95% interval over sentences: turn 1 − cos of consecutive states, last blocks over middle blocks, trained − random",
        "对句子的 95% 区间上端：相邻状态的转角 1 − cos，最后几块比中间几块，训练后 − 随机",
    ),
    (
        "model: all-MiniLM-L6-v2, the last layer (6) over layers 3–4",
        "模型：all-MiniLM-L6-v2，最后一层（第 6 层）比第 3–4 层",
    ),
    (
        "model: all-MiniLM-L6-v2, the last 2 layers (5–6) over layers 3–4",
        "模型：all-MiniLM-L6-v2，最后 2 层（第 5–6 层）比第 3–4 层",
    ),
    (
        "model: SmolLM2-135M-Instruct, the last 5 blocks (26–30) over blocks 11–20, every token, the first (the sink) included",
        "模型：SmolLM2-135M-Instruct，最后 5 块（第 26–30 块）比第 11–20 块，每个单标，包括第一个（汇聚点）",
    ),
    (
        "model: SmolLM2-135M-Instruct, the last 5 blocks (26–30) over blocks 11–20, every token but the first (the sink)",
        "模型：SmolLM2-135M-Instruct，最后 5 块（第 26–30 块）比第 11–20 块，除第一个（汇聚点）外的每个单标",
    ),
    (
        "all-MiniLM-L6-v2 (post-LayerNorm) against the same architecture at BERT initialisation (random_init), on the first 20 context sentences of models/contexts.txt; per sentence, the mean step of the last blocks over that of the middle blocks, trained − random paired on the sentence, with its 95% interval over sentences; and SmolLM2-135M-Instruct (pre-RMSNorm decoder, 30 blocks) against the same architecture at Llama's initialisation (N(0, (1/24)²), smollm2::random_init) on the same 20 sentences",
        "all-MiniLM-L6-v2（后置 LayerNorm）对 BERT 初始化下的同一架构（random_init），用 `models/contexts.txt` 的前 20 个上下文句子；对每个句子，取最后几块的平均步长与中间几块的平均步长之比，训练后 − 随机按句子配对，并给出对句子的 95% 区间；以及 SmolLM2-135M-Instruct（前置 RMSNorm 的解码器，30 块）对 Llama 初始化下的同一架构（N(0, (1/24)²)，smollm2::random_init），用同样的 20 个句子",
    ),
    (
        "upper end of the 95% interval over sentences: ‖B(B(Z)) − B(Z)‖ / ‖B(Z) − Z‖, mean over blocks",
        "对句子的 95% 区间上端：‖B(B(Z)) − B(Z)‖ / ‖B(Z) − Z‖，对块取均值",
    ),
    (
        "upper end of the 95% interval over sentences: the same ratio, trained − random",
        "对句子的 95% 区间上端：同一比值，训练后 − 随机",
    ),
    (
        "lower end of the 95% interval over sentences: share of positions whose top-1 next token is kept",
        "对句子的 95% 区间下端：保留排名第一的下一个单标的位置所占份额",
    ),
    (
        "lower end of the 95% interval over sentences: the same share, trained − random",
        "对句子的 95% 区间下端：同一份额，训练后 − 随机",
    ),
    ("the same, trained − random", "同上，训练后 − 随机"),
    (
        "model: all-MiniLM-L6-v2, every layer re-applied to its own output",
        "模型：all-MiniLM-L6-v2，每一层再作用一次于自己的输出",
    ),
    (
        "model: SmolLM2-135M-Instruct, every block re-applied to its own output",
        "模型：SmolLM2-135M-Instruct，每一块再作用一次于自己的输出",
    ),
    (
        "model: SmolLM2-135M-Instruct, blocks 26–30 re-applied to their own outputs",
        "模型：SmolLM2-135M-Instruct，第 26–30 块再作用一次于各自的输出",
    ),
    (
        "model: SmolLM2-135M-Instruct, every block, every row but the first (the sink)",
        "模型：SmolLM2-135M-Instruct，每一块，除第一行（汇聚点）外的每一行",
    ),
    (
        "model: SmolLM2-135M-Instruct, its output re-passed through its last block",
        "模型：SmolLM2-135M-Instruct，把它的输出再经过它的最后一块",
    ),
    (
        "model: SmolLM2-135M-Instruct, its output re-passed through its last 2 blocks",
        "模型：SmolLM2-135M-Instruct，把它的输出再经过它的最后 2 块",
    ),
    (
        "protocol: MiniLM, each layer iterated 8 times on its input (the earlier protocol; it tests the architecture as much as what was learned)",
        "方案：MiniLM，每一层在自己的输入上迭代 8 次（早先的方案；它检验架构，不亚于检验学到的东西）",
    ),
    (
        "protocol: SmolLM2-135M-Instruct, each block iterated 8 times on its input (a pre-norm block has fixed points only where its write vanishes)",
        "方案：SmolLM2-135M-Instruct，每一块在自己的输入上迭代 8 次（前置归一化的块只在其写入为零处才有不动点）",
    ),
    (
        "all-MiniLM-L6-v2 (post-LayerNorm) and SmolLM2-135M-Instruct (pre-RMSNorm), each against its random-weight twin, on the first 20 context sentences of models/contexts.txt: each block B applied once more to its own output B(Z) on the real stream; SmolLM2's final state re-passed through its last 1–3 blocks and decoded; the earlier iteration (8 applications, 2 sentences) kept as a choice",
        "all-MiniLM-L6-v2（后置 LayerNorm）与 SmolLM2-135M-Instruct（前置 RMSNorm），各自对其随机权重孪生模型，用 `models/contexts.txt` 的前 20 个上下文句子：在真实的残差流上把每个块 B 再作用一次于它自己的输出 B(Z)；把 SmolLM2 的最终状态再经过它的最后 1–3 块并解码；早先的迭代（8 次作用，2 个句子）保留为一项选择",
    ),
    (
        "reading: the fitted lens (ridge least squares per boundary on held-out text); null: norm-matched, the trained writes in random directions (3 rotation seeds); positions: those not answered at boundary 0; arrival: the boundary from which the final top-1 is kept",
        "读法：拟合的透镜（在留出文本上逐边界做岭回归最小二乘）；零基线：范数匹配，方向随机的训练写入（3 个旋转种子）；位置：边界 0 尚未答对的位置；到达：从此保持最终 top-1 的边界",
    ),
    (
        "mean boundary (0–30) from which the lens keeps the final top-1, positions not answered at boundary 0, trained − null",
        "透镜从此保持最终 top-1 的边界（0–30）的均值，边界 0 尚未答对的位置，训练后 − 零基线",
    ),
    (
        "mean share of the later boundaries (to 29) that keep it, positions not answered at boundary 0, trained − null",
        "之后的边界（到 29）中保持它的平均比例，边界 0 尚未答对的位置，训练后 − 零基线",
    ),
    (
        "mean boundary (0–30) from which the lens keeps the final top-1, positions not answered at boundary 0, trained − random",
        "透镜从此保持最终 top-1 的边界（0–30）的均值，边界 0 尚未答对的位置，训练后 − 随机",
    ),
    (
        "mean share of the later boundaries (to 29) that keep it, positions not answered at boundary 0, trained − random",
        "之后的边界（到 29）中保持它的平均比例，边界 0 尚未答对的位置，训练后 − 随机",
    ),
    (
        "mean boundary (0–30) from which the lens keeps the final top-1, positions not answered at boundary 0, trained − shuffled",
        "透镜从此保持最终 top-1 的边界（0–30）的均值，边界 0 尚未答对的位置，训练后 − 打乱次序",
    ),
    (
        "mean share of the later boundaries (to 29) that keep it, positions not answered at boundary 0, trained − shuffled",
        "之后的边界（到 29）中保持它的平均比例，边界 0 尚未答对的位置，训练后 − 打乱次序",
    ),
    (
        "mean boundary (0–30) from which the lens keeps the final top-1, every position, trained − null",
        "透镜从此保持最终 top-1 的边界（0–30）的均值，每个位置，训练后 − 零基线",
    ),
    (
        "mean share of the later boundaries (to 29) that keep it, every position, trained − null",
        "之后的边界（到 29）中保持它的平均比例，每个位置，训练后 − 零基线",
    ),
    (
        "mean boundary (0–30) from which the lens keeps the final top-1, every position but the first, trained − null",
        "透镜从此保持最终 top-1 的边界（0–30）的均值，除第一个外的每个位置，训练后 − 零基线",
    ),
    (
        "mean share of the later boundaries (to 29) that keep it, every position but the first, trained − null",
        "之后的边界（到 29）中保持它的平均比例，除第一个外的每个位置，训练后 − 零基线",
    ),
    (
        "mean first boundary (0–30) whose lens top-1 is the final top-1, positions not answered at boundary 0, trained − null",
        "透镜 top-1 即最终 top-1 的第一个边界（0–30）的均值，边界 0 尚未答对的位置，训练后 − 零基线",
    ),
    (
        "upper end of the 95% interval over sentences of the settled-boundary gap, trained − null",
        "稳定边界之差（训练后 − 零基线）按句子的 95% 区间的上端",
    ),
    (
        "lower end of the 95% interval over sentences of the stay-share gap, trained − null",
        "保持比例之差（训练后 − 零基线）按句子的 95% 区间的下端",
    ),
    (
        "reading: the plain logit lens (null: norm-matched, the trained writes in random directions)",
        "读法：朴素对数几率透镜（零基线：范数匹配，方向随机的训练写入）",
    ),
    (
        "null: the random-weight decoder (Llama's initialisation), its own fitted lens",
        "零基线：随机权重解码器（Llama 的初始化），用它自己拟合的透镜",
    ),
    (
        "reading: the plain logit lens; null: the random-weight decoder",
        "读法：朴素对数几率透镜；零基线：随机权重解码器",
    ),
    (
        "reading: the plain logit lens; null: the same trained blocks with blocks 1–28 in a shuffled order (10 seeded orders; block 0 and block 29 in place)",
        "读法：朴素对数几率透镜；零基线：同一批训练后的块，第 1–28 块打乱次序（10 个带种子的次序；第 0 块与第 29 块不动）",
    ),
    ("positions: every position", "位置：每个位置"),
    (
        "arrival: the first boundary that agrees",
        "到达：第一个一致的边界",
    ),
    (
        "reading: graded, the final top-1 among the fitted lens's top 10",
        "读法：分级，最终 top-1 在拟合透镜的 top 10 之中",
    ),
    (
        "a linear map fitted from a layer to the last predicts the model's final top-1 more often than reading the layer directly: the share of positions agreeing, fitted lens − plain logit lens, mean over boundaries 1–29",
        "从某一层拟合到最后一层的线性映射，比直接读取该层更常预测出模型的最终 top-1：与之一致的位置比例，拟合透镜 − 朴素对数几率透镜，对边界 1–29 取平均",
    ),
    (
        "share agreeing with the final top-1, fitted − plain, mean over boundaries 1–29",
        "与最终 top-1 一致的比例，拟合 − 朴素，对边界 1–29 取平均",
    ),
    (
        "SmolLM2-135M-Instruct; fitted lens: per boundary 0–29 an affine map from the stream to the final stream (both at unit RMS), ridge 0.1 × the mean eigenvalue, least squares on 1015 held-out tokens (models/corpus.txt and models/paraphrases.txt), then the final RMSNorm and the tied embedding; nulls: the trained writes h_(l+1) − h_l each turned by a Haar-random rotation per block (3 seeds), read by their own fitted lens and against their own final top-1; the same architecture at Llama's initialisation (smollm2::random_init) with its own fitted lens; the trained blocks 1–28 in 10 seeded orders; every position of the first 12 context sentences (116 tokens) of models/contexts.txt; intervals: 2000 bootstrap resamples of the sentences",
        "SmolLM2-135M-Instruct；拟合的透镜：在边界 0–29 的每一个上，从流到最终流的仿射映射（两者都按单位均方根），岭参数为平均特征值的 0.1 倍，在 1015 个留出单标（`models/corpus.txt` 与 `models/paraphrases.txt`）上做最小二乘，再接最终的 RMSNorm 与共享的嵌入；零基线：训练写入 h_(l+1) − h_l 每块各用一个均匀随机的正交旋转转开（3 个种子），用它们自己拟合的透镜读取，并对照它们自己的最终 top-1；Llama 初始化下的同一架构（smollm2::random_init），用它自己拟合的透镜；训练后的第 1–28 块按 10 个带种子的次序重排；`models/contexts.txt` 的前 12 个上下文句子（116 个单标）的每个位置；区间：对句子做 2000 次自助重抽样",
    ),
];
