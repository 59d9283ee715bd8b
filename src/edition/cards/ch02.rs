//! The claim cards' strings of chapter 2 in Chinese (see [`super::zh`]).

/// English card string → Chinese, numbers in the same order.
pub const CARDS: &[(&str, &str)] = &[
    (
        "pieces of 16×16 over pieces of 32",
        "16×16 的分片数比 32 的分片数",
    ),
    (
        "pieces of 8×8×8×8 over pieces of 32",
        "8×8×8×8 的分片数比 32 的分片数",
    ),
    (
        "pieces of 32 units over pieces of 8 units, one layer",
        "32 个单元的分片数比 8 个单元的分片数，单层",
    ),
    (
        "40 seeds; ReLU networks on the plane [-3, 3]², He-initialised weights; pieces counted on a lattice; null: one layer of the same 32 units",
        "40 个种子；平面 [-3, 3]² 上的 ReLU 网络，He 初始化的权重；在格点上计数分片；零基线：同样 32 个单元的单层网络",
    ),
    (
        "initialisation: biases N(0, 1); lattice: 80² points",
        "初始化：偏置 N(0, 1)；格点：80² 个点",
    ),
    (
        "initialisation: biases N(0, 0.1²)",
        "初始化：偏置 N(0, 0.1²)",
    ),
    ("lattice: 160² points", "格点：160² 个点"),
    (
        "pieces at initialisation, equal units, depth varied",
        "初始化时的分片数，单元数相同，深度变化",
    ),
    (
        "share of seeds whose head Jacobian changed, minus the ReLU network's",
        "头的雅可比矩阵发生变化的种子比例，减去 ReLU 网络的比例",
    ),
    (
        "lower 95% bound of the head Jacobian's relative change under a new prompt",
        "换一个新提示词时头的雅可比矩阵相对变化的 95% 下界",
    ),
    (
        "100 seeds; the Jacobian of one causal head and of a ReLU network [2, 16, 16, 1] after a move of ε = 0.01; two prompts under the same weights",
        "100 个种子；一个因果头与一个 ReLU 网络 [2, 16, 16, 1] 在移动 ε = 0.01 之后的雅可比矩阵；同一组权重下的两个提示词",
    ),
    ("move: ε = 0.01", "移动：ε = 0.01"),
    ("largest change of any weight", "任一权重的最大变化"),
    (
        "mean relative change of the output (varied norms)",
        "输出的平均相对变化（范数各异）",
    ),
    (
        "100 seeds; one random head, n = 16, d = 16, d_k = d_v = 4; the OV parts of two heads swapped",
        "100 个种子；一个随机头，n = 16，d = 16，d_k = d_v = 4；交换两个头的 OV 部分",
    ),
    (
        "mean ρ(carried norm, effect) − mean ρ(weight, effect)",
        "ρ(携带范数, 效应) 的均值 − ρ(权重, 效应) 的均值",
    ),
    (
        "share of prompts where the heaviest token is the most effective",
        "最重的单标恰是效应最大的单标的提示词比例",
    ),
    (
        "100 seeds; one random head, n = 16, d = 16, d_k = d_v = 4; tokens of varied norm; importance = leave-one-out effect",
        "100 个种子；一个随机头，n = 16，d = 16，d_k = d_v = 4；单标范数各异；重要性 = 留一效应",
    ),
    ("tokens: varied norms", "单标：范数各异"),
    ("tokens: isotropic", "单标：各向同性"),
    (
        "largest output difference of the equivalent pattern",
        "等效模式的最大输出差",
    ),
    (
        "mean total variation of the equivalent pattern from α",
        "等效模式与 α 的平均总变差",
    ),
    (
        "100 seeds; one random head, n = 16, d = 16, d_k = d_v = 4; a pattern built in the null space of V",
        "100 个种子；一个随机头，n = 16，d = 16，d_k = d_v = 4；在 V 的零空间里构造的模式",
    ),
    (
        "mean ρ(‖αf‖, E) − ρ(α, E), trained",
        "ρ(‖αf‖, E) 的均值 − ρ(α, E)，训练后",
    ),
    (
        "ρ(‖αf‖, E) − ρ(α‖f_π‖, E), ‖f_j‖ permuted across keys, trained: lower end of the 95% interval over sentences",
        "ρ(‖αf‖, E) − ρ(α‖f_π‖, E)，‖f_j‖ 在 Key 之间打乱，训练后：句子上 95% 区间的下端",
    ),
    (
        "MiniLM-L6, 72 heads × 60 corpus sentences; E = the change a key's removal makes; ρ Spearman over keys, mean over queries, heads, sentences; null: ‖f_j‖ permuted across the keys ranked (10 permutations per head and sentence), 95% interval over sentences; value zeroing at the head's own output is left out (there E = α‖f‖ by definition); and SmolLM2-135M-Instruct, 270 heads × 8 context sentences, ρ over each query's visible keys (queries with at least three); the sign of ρ(‖αf‖, E) − ρ(α, E) is decided by the counterfactual (knockout and mean-value ablation: negative while the sink is ranked; value zeroing: positive) and by whether the sink key is ranked (left out: positive), not by the target",
        "MiniLM-L6，72 个头 × 60 个语料句子；E = 去掉一个 Key 造成的变化；ρ 为在 Key 上的 Spearman 相关，对 Query、头与句子取均值；零分布：‖f_j‖ 在参与排序的 Key 之间打乱（每个头、每个句子 10 次），句子上的 95% 区间；头自身输出上的值置零不计入（在那里 E = α‖f‖，按定义成立）；以及 SmolLM2-135M-Instruct，270 个头 × 8 个上下文句子，ρ 取在每个 Query 可见的 Key 上（只取至少有三个 Key 的 Query）；ρ(‖αf‖, E) − ρ(α, E) 的符号由反事实决定（敲除和均值消融：汇点参与排序时为负；值置零：为正），也由汇点是否参与排序决定（去掉汇点：为正），而不由测量位置决定",
    ),
    (
        "counterfactual: value zeroing in every head of the layer (Mohebbi et al. 2023); target: the layer's output (after the FFN and LayerNorm), cosine distance; keys: every key",
        "反事实：在该层每个头中同时值置零（Mohebbi 等人 2023）；目标：该层的输出（经过 FFN 和 LayerNorm），余弦距离；Key：每个 Key",
    ),
    (
        "counterfactual: value zeroing in every head of the layer (Mohebbi et al. 2023); target: the layer's output (after the FFN and LayerNorm), cosine distance; keys: every key but the head's sink",
        "反事实：在该层每个头中同时值置零（Mohebbi 等人 2023）；目标：该层的输出（经过 FFN 和 LayerNorm），余弦距离；Key：除该头汇点外的每个 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: value zeroing in every head of the layer (Mohebbi et al. 2023); target: the block's output (the stream after the FFN), cosine distance; keys: every visible key",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：在该层每个头中同时值置零（Mohebbi 等人 2023）；目标：块的输出（经过 FFN 后的残差流），余弦距离；Key：每个可见的 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: value zeroing in every head of the layer (Mohebbi et al. 2023); target: the block's output (the stream after the FFN), cosine distance; keys: every visible key but the first token",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：在该层每个头中同时值置零（Mohebbi 等人 2023）；目标：块的输出（经过 FFN 后的残差流），余弦距离；Key：除首个单标外每个可见的 Key",
    ),
    (
        "counterfactual: knockout, renormalised; target: the head's output; keys: every key",
        "反事实：敲除，重新归一化；目标：头的输出；Key：每个 Key",
    ),
    (
        "counterfactual: knockout, renormalised; target: the head's output; keys: every key but the head's sink",
        "反事实：敲除，重新归一化；目标：头的输出；Key：除该头汇点外的每个 Key",
    ),
    (
        "counterfactual: mean-value ablation; target: the head's output; keys: every key",
        "反事实：均值消融；目标：头的输出；Key：每个 Key",
    ),
    (
        "counterfactual: mean-value ablation; target: the head's output; keys: every key but the head's sink",
        "反事实：均值消融；目标：头的输出；Key：除该头汇点外的每个 Key",
    ),
    (
        "counterfactual: knockout, renormalised; target: the attention block's output (residual + LayerNorm); keys: every key",
        "反事实：敲除，重新归一化；目标：注意力块的输出（残差 + LayerNorm）；Key：每个 Key",
    ),
    (
        "counterfactual: knockout, renormalised; target: the attention block's output (residual + LayerNorm); keys: every key but the head's sink",
        "反事实：敲除，重新归一化；目标：注意力块的输出（残差 + LayerNorm）；Key：除该头汇点外的每个 Key",
    ),
    (
        "counterfactual: value zeroing; target: the attention block's output (residual + LayerNorm); keys: every key",
        "反事实：值置零；目标：注意力块的输出（残差 + LayerNorm）；Key：每个 Key",
    ),
    (
        "counterfactual: value zeroing; target: the attention block's output (residual + LayerNorm); keys: every key but the head's sink",
        "反事实：值置零；目标：注意力块的输出（残差 + LayerNorm）；Key：除该头汇点外的每个 Key",
    ),
    (
        "counterfactual: mean-value ablation; target: the attention block's output (residual + LayerNorm); keys: every key",
        "反事实：均值消融；目标：注意力块的输出（残差 + LayerNorm）；Key：每个 Key",
    ),
    (
        "counterfactual: mean-value ablation; target: the attention block's output (residual + LayerNorm); keys: every key but the head's sink",
        "反事实：均值消融；目标：注意力块的输出（残差 + LayerNorm）；Key：除该头汇点外的每个 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: knockout, renormalised; target: the head's output; keys: every visible key",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：敲除，重新归一化；目标：头的输出；Key：每个可见的 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: knockout, renormalised; target: the head's output; keys: every visible key but the first token",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：敲除，重新归一化；目标：头的输出；Key：除首个单标外每个可见的 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: mean-value ablation; target: the head's output; keys: every visible key",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：均值消融；目标：头的输出；Key：每个可见的 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: mean-value ablation; target: the head's output; keys: every visible key but the first token",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：均值消融；目标：头的输出；Key：除首个单标外每个可见的 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: knockout, renormalised; target: the normalised stream the FFN reads (rms(x + attn + Δ)); keys: every visible key",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：敲除，重新归一化；目标：FFN 读取的归一化流（`rms(x + attn + Δ)`）；Key：每个可见的 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: knockout, renormalised; target: the normalised stream the FFN reads (rms(x + attn + Δ)); keys: every visible key but the first token",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：敲除，重新归一化；目标：FFN 读取的归一化流（`rms(x + attn + Δ)`）；Key：除首个单标外每个可见的 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: value zeroing; target: the normalised stream the FFN reads (rms(x + attn + Δ)); keys: every visible key",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：值置零；目标：FFN 读取的归一化流（`rms(x + attn + Δ)`）；Key：每个可见的 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: value zeroing; target: the normalised stream the FFN reads (rms(x + attn + Δ)); keys: every visible key but the first token",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：值置零；目标：FFN 读取的归一化流（`rms(x + attn + Δ)`）；Key：除首个单标外每个可见的 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: mean-value ablation; target: the normalised stream the FFN reads (rms(x + attn + Δ)); keys: every visible key",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：均值消融；目标：FFN 读取的归一化流（`rms(x + attn + Δ)`）；Key：每个可见的 Key",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); counterfactual: mean-value ablation; target: the normalised stream the FFN reads (rms(x + attn + Δ)); keys: every visible key but the first token",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；反事实：均值消融；目标：FFN 读取的归一化流（`rms(x + attn + Δ)`）；Key：除首个单标外每个可见的 Key",
    ),
    (
        "α against ‖αf(x)‖ per head, §4.1: the weight and the norm [CLS], [SEP] and punctuation receive",
        "每个头上 α 对 ‖αf(x)‖，§4.1：[CLS]、[SEP] 与标点得到的权重和范数",
    ),
    (
        "weight share − norm share of [CLS], [SEP], punctuation, trained",
        "[CLS]、[SEP] 与标点的权重份额 − 范数份额，训练后",
    ),
    (
        "Spearman ρ(α_ij, ‖f(x_j)‖) per head, §4.2: α and ‖f(x)‖ cancel",
        "每个头的 Spearman ρ(α_ij, ‖f(x_j)‖)，§4.2：α 与 ‖f(x)‖ 相互抵消",
    ),
    (
        "mean ρ(α, ‖f(x)‖), trained (random: -0.01)",
        "ρ(α, ‖f(x)‖) 的均值，训练后（随机：-0.01）",
    ),
    ("the same difference, random weights", "同一差值，随机权重"),
    (
        "the same difference for the first token, SmolLM2 at Llama's initialisation",
        "首个单标的同一差值，Llama 初始化下的 SmolLM2",
    ),
    (
        "all-MiniLM-L6-v2: mean over 72 heads and every corpus sentence; SmolLM2-135M-Instruct: mean over 270 heads and 8 context sentences, every query but the first (it sees only itself); weight share of token 0: mean over queries of α_i0; its norm share: Σ_i ‖α_i0 f_0‖ / Σ_ij ‖α_ij f_j‖",
        "all-MiniLM-L6-v2：对 72 个头与每个语料句子取均值；SmolLM2-135M-Instruct：对 270 个头与 8 个上下文句子取均值，除第一个外的每个 Query（它只看得见自己）；单标 0 的权重份额：α_i0 对 Query 的均值；它的范数份额：Σ_i ‖α_i0 f_0‖ / Σ_ij ‖α_ij f_j‖",
    ),
    (
        "token set: [CLS], [SEP] and punctuation",
        "单标集：[CLS]、[SEP] 与标点",
    ),
    (
        "token set: each head's sink from the data (the key that receives most weight)",
        "单标集：从数据中找到的每个头的汇点（得到最多权重的 Key）",
    ),
    (
        "weight share − norm share of the sink, trained",
        "汇点的权重份额 − 范数份额，训练后",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); token set: the first token, the sentence's own first token",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；单标集：首个单标，即句子自己的首个单标",
    ),
    (
        "weight share − norm share of the first token, trained",
        "首个单标的权重份额 − 范数份额，训练后",
    ),
    (
        "model: SmolLM2-135M-Instruct (causal; the sink is the first token); token set: the first token, a newline token (Ċ) prepended",
        "模型：SmolLM2-135M-Instruct（因果；汇点是首个单标）；单标集：首个单标，即前置的一个换行单标（Ċ）",
    ),
    (
        "α against ‖αf(x)‖ per head, §4.1",
        "每个头上 α 对 ‖αf(x)‖，§4.1",
    ),
    (
        "SmolLM2-135M-Instruct: mean attention weight on the first token, every head of layers 3–30 and every query but the first, §3.1 and Figure 2 (\"beyond the bottom two layers, the model heavily attends to the initial token\"); first token: the sentence's own first token",
        "SmolLM2-135M-Instruct：首个单标上的平均注意力权重，取第 3–30 层的每个头、除第一个外的每个 Query，§3.1 与图 2（“在最底下两层之后，模型大量关注初始单标”）；首个单标：句子自己的首个单标",
    ),
    (
        "weight on token 0, layers 3–30, trained (random: 0.22)",
        "单标 0 上的权重，第 3–30 层，训练后（随机：0.22）",
    ),
    (
        "SmolLM2-135M-Instruct: mean attention weight on the first token, every head of layers 3–30 and every query but the first, §3.1 and Figure 2 (\"beyond the bottom two layers, the model heavily attends to the initial token\"); first token: a newline token (Ċ) prepended (their §3.1 replaces the first four tokens by \\n and measures perplexity; here one \\n is prepended and the weight measured)",
        "SmolLM2-135M-Instruct：首个单标上的平均注意力权重，取第 3–30 层的每个头、除第一个外的每个 Query，§3.1 与图 2（“在最底下两层之后，模型大量关注初始单标”）；首个单标：前置的一个换行单标（Ċ）（他们的 §3.1 把前四个单标换成 \\n 并测量困惑度；这里只前置一个 \\n，测量的是权重）",
    ),
    (
        "first-order error at ε = 0.01, trained",
        "ε = 0.01 时的一阶误差，训练后",
    ),
    (
        "error at the largest ε, trained − random",
        "最大 ε 处的误差，训练后 − 随机",
    ),
    (
        "all-MiniLM-L6-v2: each of 6 layers at 4 corpus sentences, one Gaussian direction each, ‖z‖ = ‖x‖; null: random weights",
        "all-MiniLM-L6-v2：6 层中的每一层取 4 个语料句子，各取一个高斯方向，‖z‖ = ‖x‖；零基线：随机权重",
    ),
    (
        "direction: Gaussian over every token",
        "方向：遍及每个单标的高斯方向",
    ),
    (
        "direction: Gaussian on one word",
        "方向：只在一个词上的高斯方向",
    ),
];
