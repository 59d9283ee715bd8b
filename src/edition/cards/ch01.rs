//! The claim cards' strings of chapter 1 in Chinese (see [`super::zh`]).

/// English card string → Chinese, numbers in the same order.
pub const CARDS: &[(&str, &str)] = &[
    (
        "|mean Spearman ρ|, raw dot product vs untied score",
        "|Spearman ρ 的均值|，原始点积对独立投影分数",
    ),
    (
        "own-best-match rate, untied (chance 1/n)",
        "自身为最佳匹配的比率，独立投影（随机水平 1/n）",
    ),
    (
        "upper 95% bound of the untied k-NN overlap minus chance",
        "独立投影 k 近邻重合度的 95% 上界减去随机水平",
    ),
    (
        "200 seeds; n = 32, d = d_k = 16; Gaussian tokens and projections; baseline: the identity and tied couplings on the same tokens",
        "200 个种子；n = 32，d = d_k = 16；高斯单标与高斯投影；基线：同一批单标上的恒等耦合与共享投影耦合",
    ),
    ("size: n = 32, d = d_k = 16", "规模：n = 32，d = d_k = 16"),
    (
        "symmetric share of $W_{QK}$, tied",
        "$W_{QK}$ 的对称份额，共享投影",
    ),
    (
        "share of negative eigenvalues of $S$, tied",
        "$S$ 的负特征值比例，共享投影",
    ),
    ("mean Spearman ρ, identity", "Spearman ρ 的均值，恒等耦合"),
    ("k-NN overlap, identity", "k 近邻重合度，恒等耦合"),
    (
        "symmetric share of $W_{QK}$, untied (theory $\\tfrac12 + \\tfrac1{2d}$)",
        "$W_{QK}$ 的对称份额，独立投影（理论值 $\\tfrac12 + \\tfrac1{2d}$）",
    ),
    (
        "share of negative eigenvalues of $S$, untied",
        "$S$ 的负特征值比例，独立投影",
    ),
    (
        "largest relative score change under $W_Q \\to W_Q A$, $W_K \\to W_K A^{-\\top}$",
        "在 $W_Q \\to W_Q A$、$W_K \\to W_K A^{-\\top}$ 下分数的最大相对变化",
    ),
    (
        "mean rank shift, d_k = d/4, minus d_k = d",
        "平均秩移动，d_k = d/4 减去 d_k = d",
    ),
    (
        "mean rank shift, d_k = d/4 (unrelated: 1/3)",
        "平均秩移动，d_k = d/4（无关次序：1/3）",
    ),
    (
        "200 seeds; pairwise-distance ranks before and after x ↦ x W, d = 16, d_k = d and d/4; unrelated orders move by 1/3",
        "200 个种子；x ↦ x W 前后的两两距离秩，d = 16，d_k = d 与 d/4；无关的次序移动 1/3",
    ),
    ("size: n = 32, d = 16", "规模：n = 32，d = 16"),
    (
        "MiniLM mean symmetric share per head",
        "MiniLM 每个头的平均对称份额",
    ),
    (
        "SmolLM2 mean symmetric share per head",
        "SmolLM2 每个头的平均对称份额",
    ),
    (
        "MiniLM mean negative eigenvalue mass",
        "MiniLM 的平均负特征值质量",
    ),
    (
        "SmolLM2 mean negative eigenvalue mass",
        "SmolLM2 的平均负特征值质量",
    ),
    (
        "every head of all-MiniLM-L6-v2 (72) and of SmolLM2-135M-Instruct (270); bounds halfway between a random head (share ½ + 1/(2d), measured 0.5018 and 0.5007; mass ½) and a tied one (share 1, mass 0)",
        "all-MiniLM-L6-v2 的每个头（72 个）与 SmolLM2-135M-Instruct 的每个头（270 个）；界限取在随机头（份额 ½ + 1/(2d)，实测 0.5018 与 0.5007；质量 ½）与共享投影头（份额 1，质量 0）的中点",
    ),
    (
        "unit: one head; weights as stored",
        "单位：单个头；权重按存储原样",
    ),
    (
        "unit: one layer's Σ_h W_QK (Saponati et al.)",
        "单位：一层的 Σ_h W_QK（Saponati et al.）",
    ),
    (
        "MiniLM mean symmetric share per layer",
        "MiniLM 每层的平均对称份额",
    ),
    (
        "SmolLM2 mean symmetric share per layer",
        "SmolLM2 每层的平均对称份额",
    ),
    (
        "weights: the preceding norm's gain folded in, and MiniLM's biases as a coordinate",
        "权重：并入前一个归一化层的增益，并把 MiniLM 的偏置作为一个坐标",
    ),
    (
        "MiniLM mean symmetric share per head, folded",
        "MiniLM 每个头的平均对称份额，并入增益后",
    ),
    (
        "SmolLM2 mean symmetric share per head, folded",
        "SmolLM2 每个头的平均对称份额，并入增益后",
    ),
    (
        "MiniLM mean per-row Spearman ρ, raw vs score, trained heads",
        "MiniLM 逐行 Spearman ρ 的均值，原始对分数，训练后的头",
    ),
    ("trained minus tied per-row ρ", "训练后减去共享投影的逐行 ρ"),
    (
        "token set: without [CLS] and [SEP]; statistic: ρ over each query's keys",
        "单标集：不含 [CLS] 与 [SEP]；统计量：在每个 Query 的 Key 上取 ρ",
    ),
    (
        "token set: every token, [CLS] and [SEP] included",
        "单标集：全部单标，含 [CLS] 与 [SEP]",
    ),
    (
        "statistic: ρ over all pairs of a sentence",
        "统计量：在一个句子的全部单标对上取 ρ",
    ),
    (
        "MiniLM minus SmolLM2 mean head share, minus the same for random heads",
        "MiniLM 减 SmolLM2 的头平均份额，再减去随机头的同一差值",
    ),
    (
        "all-MiniLM-L6-v2 (an encoder) and SmolLM2-135M-Instruct (a decoder); null: random Gaussian heads of each model's shapes",
        "all-MiniLM-L6-v2（编码器）与 SmolLM2-135M-Instruct（解码器）；零基线：按各模型形状生成的随机高斯头",
    ),
    (
        "MiniLM minus SmolLM2 mean layer share, minus the same for random layers",
        "MiniLM 减 SmolLM2 的层平均份额，再减去随机层的同一差值",
    ),
    (
        "MiniLM minus SmolLM2 mean head share, folded, minus the same for random heads",
        "MiniLM 减 SmolLM2 的头平均份额（并入增益后），再减去随机头的同一差值",
    ),
    (
        "symmetry score 2·share − 1 of each layer's Σ_h W_Q^h W_K^hᵀ, mean over layers, encoder against decoder",
        "每层 Σ_h W_Q^h W_K^hᵀ 的对称分数 2·份额 − 1，对各层取均值，编码器对解码器",
    ),
    (
        "MiniLM minus SmolLM2 mean layer score",
        "MiniLM 减 SmolLM2 的层平均分数",
    ),
    (
        "MiniLM: every trained and random head has r negative eigenvalues",
        "MiniLM：每个训练后的头和随机头都有 r 个负特征值",
    ),
    (
        "SmolLM2: every trained and random head has r negative eigenvalues",
        "SmolLM2：每个训练后的头和随机头都有 r 个负特征值",
    ),
    (
        "every head of all-MiniLM-L6-v2 and SmolLM2-135M-Instruct, trained and random; Sylvester's law of inertia on S = ½ [W_Q W_K] J [W_Q W_K]ᵀ; eigenvalues below −1e-9·max|λ| counted",
        "all-MiniLM-L6-v2 与 SmolLM2-135M-Instruct 的每个头，训练后与随机；对 S = ½ [W_Q W_K] J [W_Q W_K]ᵀ 用 Sylvester 惯性定律；计数低于 −1e-9·max|λ| 的特征值",
    ),
    (
        "MiniLM-shaped random heads, mean share",
        "MiniLM 形状的随机头，平均份额",
    ),
    (
        "SmolLM2-shaped random heads, mean share",
        "SmolLM2 形状的随机头，平均份额",
    ),
    (
        "6 random layers per model, seeds 2025–2030",
        "每个模型 6 个随机层，种子 2025–2030",
    ),
    (
        "SmolLM2 mean over heads of R²(score, raw cosine), trained",
        "SmolLM2 在各头上 R²(分数, 原始余弦) 的均值，训练后",
    ),
    (
        "mean R²(score, mean score per offset), trained − random",
        "R²(分数, 每个偏移量上的平均分数) 的均值，训练后 − 随机",
    ),
    (
        "SmolLM2-135M-Instruct (RoPE, θ = 1e5) against the same architecture at Llama's initialisation (smollm2::random_init), every one of its 270 heads, on the first 20 context sentences (191 tokens) of models/contexts.txt, all pairs (i, j ≤ i) pooled per head; R² of the score against the learned W_QK at offset 0 (q_i k_jᵀ / 8): trained 0.87, random 0.77; symmetric share of diag(g) W_Q R(Δ) W_Kᵀ diag(g), mean over heads and distances 1–64: trained 0.538, random 0.501",
        "SmolLM2-135M-Instruct（RoPE，θ = 1e5）对 Llama 初始化下的同一架构（smollm2::random_init），它的全部 270 个头，取 `models/contexts.txt` 的前 20 个上下文句子（191 个单标），每个头汇集全部单标对 (i, j ≤ i)；分数对偏移量 0 处学到的 W_QK（q_i k_jᵀ / 8）的 R²：训练后 0.87，随机 0.77；diag(g) W_Q R(Δ) W_Kᵀ diag(g) 的对称份额，对各头与距离 1–64 取均值：训练后 0.538，随机 0.501",
    ),
    (
        "keys: every earlier position j ≤ i",
        "Key：每个更早的位置 j ≤ i",
    ),
    (
        "keys: without the first token (where the attention sink sits)",
        "Key：不含首个单标（注意力汇点所在之处）",
    ),
    (
        "largest rank shift of a pair (share of all pairs), d_k = d",
        "单个点对的最大秩移动（占全部点对的比例），d_k = d",
    ),
    (
        "200 seeds; pairwise-distance ranks before and after x ↦ x W, d = d_k = 16; the identity moves none",
        "200 个种子；x ↦ x W 前后的两两距离秩，d = d_k = 16；恒等映射不移动任何秩",
    ),
    (
        "all-MiniLM-L6-v2 on 40 sentences (685 tokens), every layer's input hidden states; null: random untied heads on the same states (ρ = -0.01); tied heads (trained W_Q on both sides) ρ = 0.56; and SmolLM2-135M-Instruct on 20 context sentences (191 tokens), rows with at least 3 earlier keys, similarity rms(x)·g, without the first token: random untied heads ρ = 0.02, tied heads (unrotated q qᵀ) ρ = 0.40; trained heads' ρ, 95% interval of 2000 bootstrap resamples of the sentences: rms(x)·g without the first token [-0.04, 0.04], with it [-0.36, -0.31]; with it, cosine [-0.21, -0.15], raw x·x [0.47, 0.52]",
        "all-MiniLM-L6-v2 上 40 个句子（685 个单标），每层的输入隐藏状态；零基线：同样状态上的随机独立投影头（ρ = -0.01）；共享投影头（两侧都用训练后的 W_Q）ρ = 0.56；以及 SmolLM2-135M-Instruct 上 20 个上下文句子（191 个单标），至少有 3 个更早 Key 的行，相似度 rms(x)·g，不含首个单标：随机独立投影头 ρ = 0.02，共享投影头（未旋转的 q qᵀ）ρ = 0.40；训练后的头的 ρ，对句子做 95% 自助法区间（2000 次重采样）：rms(x)·g 不含首个单标 [-0.04, 0.04]，含首个单标 [-0.36, -0.31]；含首个单标时，余弦 [-0.21, -0.15]，原始 x·x [0.47, 0.52]",
    ),
    (
        "model: SmolLM2-135M-Instruct, a causal RoPE decoder; similarity: the normed dot product rms(x)·g its heads read; keys: each query's earlier keys without the first token (the sink)",
        "模型：SmolLM2-135M-Instruct，一个因果 RoPE 解码器；相似度：注意力头所读取的归一化点积 rms(x)·g；Key：每个 Query 更早的 Key，不含首个单标（汇点）",
    ),
    (
        "SmolLM2 mean per-row Spearman ρ, normed dot product rms(x)·g vs score, trained heads",
        "SmolLM2 逐行 Spearman ρ 的均值，归一化点积 rms(x)·g 对分数，训练后的头",
    ),
    (
        "model: SmolLM2-135M-Instruct; similarity: rms(x)·g; keys: each query's earlier keys, the first token included",
        "模型：SmolLM2-135M-Instruct；相似度：rms(x)·g；Key：每个 Query 更早的 Key，含首个单标",
    ),
    (
        "model: SmolLM2-135M-Instruct; similarity: cosine; keys: the first token included",
        "模型：SmolLM2-135M-Instruct；相似度：余弦；Key：含首个单标",
    ),
    (
        "SmolLM2 mean per-row Spearman ρ, cosine vs score, trained heads",
        "SmolLM2 逐行 Spearman ρ 的均值，余弦对分数，训练后的头",
    ),
    (
        "model: SmolLM2-135M-Instruct; similarity: raw dot product x·x of the stream (the first token's activation dominates it); keys: the first token included",
        "模型：SmolLM2-135M-Instruct；相似度：残差流的原始点积 x·x（首个单标的激活主导了它）；Key：含首个单标",
    ),
    (
        "SmolLM2 mean per-row Spearman ρ, raw dot product x·x vs score, trained heads",
        "SmolLM2 逐行 Spearman ρ 的均值，原始点积 x·x 对分数，训练后的头",
    ),
    (
        "model: SmolLM2-135M-Instruct; similarity: raw dot product x·x; keys: without the first token",
        "模型：SmolLM2-135M-Instruct；相似度：原始点积 x·x；Key：不含首个单标",
    ),
];
