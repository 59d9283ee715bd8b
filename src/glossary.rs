//! The terms of the *Deep Manifold* series, in both editions' words: the
//! single source of the glossary page and of the Chinese edition's terms.
//! Introduced in the glossary appendix (`{{glossary}}`).
//!
//! ```
//! use attention_geometry::edition::Lang;
//! use attention_geometry::glossary::{TERMS, markdown};
//! let zh = markdown(Lang::Zh);
//! assert!(zh.starts_with("| 术语 | English | 在本书中的含义 |"));
//! assert!(zh.contains("| 态射 | morphism |"));
//! assert_eq!(zh.lines().count(), TERMS.len() + 2);
//! ```

use crate::edition::Lang;
use crate::measure::table;

/// One term: its English and Chinese names and its meaning in each.
pub struct Term {
    pub en: &'static str,
    pub zh: &'static str,
    pub meaning_en: &'static str,
    pub meaning_zh: &'static str,
}

const fn term(
    en: &'static str,
    zh: &'static str,
    meaning_en: &'static str,
    meaning_zh: &'static str,
) -> Term {
    Term {
        en,
        zh,
        meaning_en,
        meaning_zh,
    }
}

/// Every term, in the glossary's order.
pub const TERMS: &[Term] = &[
    term(
        "token",
        "单标",
        "one position of the sequence, a row $x_i$ of $X$",
        "序列中的一个位置，即 $X$ 的一行 $x_i$",
    ),
    term(
        "single token geometry",
        "单标几何",
        "the series' view of a model through the geometry of one token's representation",
        "本系列看待模型的视角：从单个单标表示的几何出发",
    ),
    term(
        "coordinate projection",
        "坐标投影",
        "a learned linear map $W_Q$, $W_K$ or $W_V$ that moves tokens into new coordinates",
        "学习得到的线性映射 $W_Q$、$W_K$ 或 $W_V$，把单标移入新的坐标",
    ),
    term(
        "relation deformation",
        "关系变形",
        "how a projection changes which tokens are near or related",
        "投影如何改变哪些单标彼此接近或彼此相关",
    ),
    term(
        "information flow",
        "信息流动",
        "what values carry from token to token",
        "值（value）从一个单标带到另一个单标的内容",
    ),
    term(
        "mathematical coverage",
        "数学覆盖",
        "the model's deeper learned structure: the stacked piecewise manifold shaped by data, weights, architecture and training",
        "模型内部更深层的学习结构：由数据、权重、架构和训练共同塑造的堆叠分片流形",
    ),
    term(
        "physical coverage",
        "物理覆盖",
        "the computation one concrete forward pass exposes: a local, computable view",
        "一次具体前向传播所暴露的计算：一个局部的、可计算的视角",
    ),
    term(
        "stacked piecewise manifold",
        "堆叠分片流形",
        "the input space cut into pieces on each of which the network is a fixed (e.g. linear) map, stacked over layers",
        "输入空间被切成若干分片，网络在每一片上是一个固定的（例如线性的）映射，并逐层堆叠",
    ),
    term(
        "projected covering",
        "投影覆盖",
        "the covering of the token field one head builds through its own Q, K, V projections",
        "一个头通过自己的 Q、K、V 投影在单标场上建立的覆盖",
    ),
    term(
        "local covering",
        "局部覆盖",
        "one head's physical coverage, valid near the current input",
        "一个头的物理覆盖，只在当前输入附近成立",
    ),
    term(
        "neural fixed point",
        "神经不动点",
        "a state the network maps to itself, $f(x) = x$; the essay says training approaches one, which [chapter 5](05-fixed-points.md) puts to the test",
        "网络映射回自身的状态，$f(x) = x$；原文说训练会逼近这样的状态，[第 5 章](05-fixed-points.md)检验这一说法",
    ),
    term(
        "boundary condition",
        "边界条件",
        "what the prompt fixes for one forward pass",
        "提示词为一次前向传播所固定的条件",
    ),
    term(
        "the high-school math error",
        "高中数学错误",
        "reading an attention score as a similarity in one shared coordinate system",
        "把注意力分数读作同一个共享坐标系中的相似度",
    ),
    term(
        "linear piece",
        "线性分片",
        "a connected region of input space on which a ReLU network is one affine map",
        "输入空间中的一个连通区域，ReLU 网络在其上是同一个仿射映射",
    ),
    term(
        "activation pattern",
        "激活模式",
        "which ReLU units are on; fixes the linear piece",
        "哪些 ReLU 单元处于激活状态；它确定所在的线性分片",
    ),
    term(
        "QK circuit / OV circuit",
        "QK 回路 / OV 回路",
        "the part of a head that decides where weight goes ($W_Q W_K^\\top$) and the part that decides what moves ($W_V W_O$)",
        "头中决定权重落在哪里的部分（$W_Q W_K^\\top$）和决定搬运什么的部分（$W_V W_O$）",
    ),
    term(
        "leave-one-out effect",
        "留一效应",
        "how far an output moves when one token is removed from the keys and values",
        "从键和值中去掉一个单标时，输出移动了多远",
    ),
    term(
        "rank bottleneck",
        "低秩瓶颈",
        "a head of width $d_k$ can only form logit matrices of rank $\\le d_k$",
        "宽度为 $d_k$ 的头只能形成秩 $\\le d_k$ 的 logit 矩阵",
    ),
    term(
        "induction head",
        "归纳头",
        "a head that attends to the token after an earlier copy of the current one, built by composing with a previous-token head",
        "关注当前单标上一次出现之后那个单标的头，由它与一个前一单标头复合而成",
    ),
    term(
        "relation",
        "关系",
        "what one token reads from another: a row of an attention matrix, an arrow between position sets",
        "一个单标从另一个单标读取的内容：注意力矩阵的一行，位置集合之间的一个箭头",
    ),
    term(
        "morphism",
        "态射",
        "an arrow between objects; for attention, what one position reads from another",
        "对象之间的箭头；对注意力而言，是一个位置从另一个位置读取的内容",
    ),
    term(
        "composition",
        "复合",
        "applying relations in sequence; for attention, the product of the layers' matrices (rollout)",
        "依次施加关系；对注意力而言，是各层注意力矩阵的乘积（rollout）",
    ),
    term(
        "rank collapse",
        "秩坍缩",
        "all token states converging to one vector under repeated attention",
        "在反复施加的注意力下，所有单标状态收敛到同一个向量",
    ),
    term(
        "fixed-point residual",
        "不动点残差",
        "$\\lVert f(x) - x\\rVert$: how far a state is from being left unchanged by the layer",
        "$\\lVert f(x) - x\\rVert$：一个状态离“被该层保持不变”还有多远",
    ),
    term(
        "absorption",
        "吸收",
        "other heads, layers or paths making up for what one constrained head cannot do",
        "其他头、层或路径弥补一个受约束的头做不到的事",
    ),
    term(
        "learning cost",
        "学习成本",
        "extra training (steps, data) a parameterisation needs to reach the same accuracy",
        "一种参数化为达到同样准确率所需的额外训练（步数、数据）",
    ),
    term(
        "tied / untied projections",
        "共享 / 独立投影",
        "$W_Q = W_K$ (a symmetric form $W W^\\top$) or independent $W_Q$, $W_K$",
        "$W_Q = W_K$（对称形式 $W W^\\top$），或相互独立的 $W_Q$、$W_K$",
    ),
    term(
        "mimetic initialisation",
        "模仿初始化",
        "starting untied projections with $W_Q W_K^\\top \\approx I$ (Trockman & Kolter 2023)",
        "让独立投影从 $W_Q W_K^\\top \\approx I$ 开始训练（Trockman & Kolter 2023）",
    ),
    term(
        "steps to threshold",
        "达标步数",
        "the first evaluated training step at which test accuracy reaches the threshold",
        "测试准确率首次达到阈值时所在的评估训练步",
    ),
    term(
        "fast-weight memory",
        "快权重记忆",
        "a matrix state written by outer products $k v^\\top$ at run time, as linear attention does (chapter 7)",
        "在运行时由外积 $k v^\\top$ 写入的矩阵状态，线性注意力正是如此（第 7 章）",
    ),
    term(
        "delta rule",
        "delta 规则",
        "writing the error $v - S^\\top k$ instead of $v$: one step of online regression (chapter 7)",
        "写入误差 $v - S^\\top k$ 而不是 $v$：在线回归的一步（第 7 章）",
    ),
    term(
        "delta correction",
        "Delta 修正",
        "the delta rule's removal of what the state already returns for a key before writing the new value",
        "delta 规则在写入新值之前，先去掉状态对这个键已经返回的内容",
    ),
    term(
        "per-channel decay",
        "逐通道衰减",
        "KDA's forgetting: each key channel of the state shrinks by its own factor $e^{g_t[d]}$",
        "KDA 的遗忘方式：状态的每个键通道按各自的因子 $e^{g_t[d]}$ 收缩",
    ),
    term(
        "Kimi Delta Attention (KDA)",
        "Kimi Delta Attention",
        "the delta rule with per-channel decay used in Kimi Linear",
        "Kimi Linear 所用的、带逐通道衰减的 delta 规则",
    ),
    term(
        "chunkwise form",
        "分块形式",
        "the same recurrence computed a chunk at a time with matrix products (WY/UT transform)",
        "用矩阵乘积一次计算一块的同一递推（WY/UT 变换）",
    ),
];

/// The glossary as a Markdown table in `lang`'s words: the English edition
/// lists `term | 中文 | meaning`, the Chinese one the Chinese term first.
pub fn markdown(lang: Lang) -> String {
    let (header, rows): ([&str; 3], Vec<Vec<String>>) = match lang {
        Lang::En => (
            ["term", "中文", "meaning in this book"],
            TERMS
                .iter()
                .map(|t| vec![t.en.into(), t.zh.into(), t.meaning_en.into()])
                .collect(),
        ),
        Lang::Zh => (
            ["术语", "English", "在本书中的含义"],
            TERMS
                .iter()
                .map(|t| vec![t.zh.into(), t.en.into(), t.meaning_zh.into()])
                .collect(),
        ),
    };
    table(&header, &rows)
}
