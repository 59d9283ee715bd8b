//! The essay as data: every sentence of *单标几何 07：注意力* in the author's
//! own Chinese, a faithful English rendering that keeps every hedge, and
//! whether a measurement could bear on it. Introduced in the introduction.
//!
//! An essay claim tests exactly one of these sentences ([`super::Claim::quotes`]);
//! the chapters' opening quotes and the introduction's argument read them
//! from here (`{{essay ID …}}`), so a rendering cannot drop a hedge the
//! original carries: [`MODALS`] pairs each Chinese modal word with the
//! English words that may render it, and a test holds every rendering to it.
//!
//! ```
//! use attention_geometry::claim::essay::{self, Kind};
//! let s = essay::sentence("score-not-direct");
//! assert_eq!(s.kind, Kind::Empirical);
//! assert!(s.en.contains("not a direct measure"));
//! assert!(essay::SENTENCES.iter().filter(|s| s.kind == Kind::Empirical).count() >= 15);
//! ```

/// Whether a measurement could bear on a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A measurement could bear on it: the book tests it with a claim.
    Empirical,
    /// A definition, an analogy, the history or a pointer: nothing to measure.
    Framing,
}

/// One sentence of the essay.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sentence {
    /// A stable slug (`score-not-direct`), used by claims and markers.
    pub id: &'static str,
    /// The book's chapter that reads this sentence (1–7; 0 for the essay's frame).
    pub chapter: u8,
    /// The essay's words, verbatim.
    pub zh: &'static str,
    /// A faithful English rendering: every modal word of `zh` kept.
    pub en: &'static str,
    pub kind: Kind,
}

/// The Chinese modal and hedging words, each with the English words that
/// may render it: where a sentence's `zh` has the first, its `en` has one of the second.
pub const MODALS: [(&str, &[&str]); 14] = [
    ("可能", &["may", "possible"]),
    ("可以", &["can"]),
    ("常常", &["often"]),
    ("逐渐", &["gradually"]),
    ("不一定", &["not necessarily"]),
    ("只", &["merely"]),
    ("甚至", &["even"]),
    ("进一步说明", &["further suggests"]),
    ("更适合", &["better understood as"]),
    ("动态", &["dynamic"]),
    ("临时", &["temporary"]),
    ("主要", &["mainly"]),
    ("显著", &["significant"]),
    ("几乎", &["almost"]),
];

use Kind::{Empirical, Framing};

const fn s(
    id: &'static str,
    chapter: u8,
    kind: Kind,
    zh: &'static str,
    en: &'static str,
) -> Sentence {
    Sentence {
        id,
        chapter,
        zh,
        en,
        kind,
    }
}

/// Every sentence of the essay's body, in the essay's order (its title,
/// headings and closing line are not sentences of the argument).
pub const SENTENCES: [Sentence; 53] = [
    // 高中数学错误 — the high-school math error
    s(
        "often-similarity",
        1,
        Framing,
        "Transformer 注意力常常被描述成一种相似性机制。",
        "Transformer attention is often described as a similarity mechanism.",
    ),
    s(
        "query-meets-key",
        1,
        Framing,
        "一个单标产生 Query，与其他单标的 Key 进行比较，然后利用这个结果决定信息应该流向哪里。",
        "A token produces a Query, compares it with the Keys of other tokens, and uses the result to decide where information should flow.",
    ),
    s(
        "clean-operation",
        1,
        Framing,
        "在这种解释中，注意力听起来几乎像一个干净的几何操作：一个单标提出问题，另一个单标提供匹配，最高的分数就代表最强的关系。",
        "In this explanation attention sounds almost like a clean geometric operation: one token asks a question, another supplies a match, and the highest score stands for the strongest relation.",
    ),
    s(
        "hidden-coordinate-problem",
        1,
        Framing,
        "但这种解释隐藏了一个基本的坐标问题。",
        "But this explanation hides a basic coordinate problem.",
    ),
    s(
        "not-raw-tokens",
        1,
        Framing,
        "Query、Key 和 Value 并不是原始的单标表示。",
        "Query, Key and Value are not the raw token representations.",
    ),
    s(
        "independent-projections",
        1,
        Framing,
        "它们是由彼此独立的可学习投影产生的。",
        "They are produced by mutually independent learnable projections.",
    ),
    s(
        "geometry-not-kept",
        1,
        Framing,
        "一旦一个单标被投影到 Query 空间、Key 空间或 Value 空间，它就不一定还能保持与其他单标之间原来的几何关系。",
        "Once a token is projected into Query space, Key space or Value space, it does not necessarily keep its original geometric relations with other tokens.",
    ),
    s(
        "projection-can-deform",
        1,
        Framing,
        "一个投影可以拉伸、旋转、压缩、坍缩或放大不同方向。",
        "A projection can stretch, rotate, compress, collapse or amplify different directions.",
    ),
    s(
        "near-far-swap",
        1,
        Empirical,
        "两个在原始表示中接近的单标，投影后可能变得很远；两个原本相距很远的单标，投影后反而可能变得接近。",
        "Two tokens that are close in the original representation may become far apart after projection; two tokens that were far apart may instead become close after projection.",
    ),
    s(
        "high-school-error",
        1,
        Empirical,
        "这就是注意力实现中的高中数学错误：注意力常常被解释成是在一个共享坐标系中测量相似性，但实际上，它比较的是那些已经被移动到不同可学习坐标系中的对象。",
        "This is the high-school math error in how attention is implemented: attention is often explained as measuring similarity in one shared coordinate system, but in fact it compares objects that have already been moved into different learnable coordinate systems.",
    ),
    s(
        "score-not-direct",
        1,
        Empirical,
        "因此，注意力分数并不是对原始单标相似性的直接测量。",
        "Therefore an attention score is not a direct measure of raw token similarity.",
    ),
    s(
        "learned-relation",
        1,
        Framing,
        "它是在原始几何已经被改变之后，由模型创建出来的一种可学习的、依赖坐标系的关系正如我在 2025 年 4 月首次指出的",
        "It is a learnable, coordinate-dependent relation that the model creates after the original geometry has already been changed, as I first pointed out in April 2025.",
    ),
    // 数学覆盖与物理覆盖 — mathematical and physical coverage
    s(
        "two-coverages",
        2,
        Framing,
        "从深度流形的视角看，这一区分可以通过“数学覆盖”和“物理覆盖”的分离来理解。",
        "From the deep-manifold perspective, this distinction can be understood through the separation of “mathematical coverage” and “physical coverage”.",
    ),
    s(
        "mathematical-coverage",
        2,
        Framing,
        "数学覆盖指的是模型内部更深层的学习结构：由数据、权重、架构和训练共同塑造的、不断演化的堆叠分片流形。",
        "Mathematical coverage is the deeper learned structure inside the model: a continually evolving stacked piecewise manifold, shaped jointly by data, weights, architecture and training.",
    ),
    s(
        "physical-coverage",
        2,
        Framing,
        "物理覆盖则是在一次具体前向传播中可以观察到的计算机制。",
        "Physical coverage is the computational mechanism that can be observed in one concrete forward pass.",
    ),
    s(
        "attention-is-physical",
        2,
        Empirical,
        "注意力就是这样一种物理覆盖：它并不暴露完整的已学习流形，而是给出一个可计算的局部视角，用来说明信息是如何被路由的。",
        "Attention is such a physical coverage: it does not expose the complete learned manifold, but gives a computable local view that shows how information is routed.",
    ),
    s(
        "not-on-the-whole",
        2,
        Framing,
        "这一点很重要，因为注意力并不是直接在完整的数学覆盖上运行。",
        "This matters because attention does not run directly on the complete mathematical coverage.",
    ),
    s(
        "applies-value",
        2,
        Framing,
        "它是通过投影后的物理覆盖来施加 Value。",
        "It applies Value through the projected physical coverage.",
    ),
    s(
        "qk-place-v-carries",
        2,
        Empirical,
        "Query 和 Key 决定注意力权重被放置在哪里，而 Value 则携带变换后的信息继续向前传播。",
        "Query and Key decide where the attention weights are placed, while Value carries the transformed information forward.",
    ),
    s(
        "not-merely-meaning",
        2,
        Framing,
        "从这个意义上说，注意力并不只是“寻找意义”。",
        "In this sense attention is not merely “looking for meaning”.",
    ),
    s(
        "controls-deformation",
        2,
        Framing,
        "它控制的是一个局部投影覆盖如何发生形变，以及信息如何沿着这个覆盖流动。",
        "What it controls is how a local projected covering deforms, and how information flows along that covering.",
    ),
    s(
        "head-not-whole",
        2,
        Framing,
        "因此，一个单独的注意力头并不是完整的几何。",
        "Therefore a single attention head is not the complete geometry.",
    ),
    s(
        "local-deformation",
        2,
        Empirical,
        "它只是一个物理覆盖上的一次局部形变。",
        "It is merely one local deformation on one physical covering.",
    ),
    // 多头 — multi-head attention
    s(
        "multi-head-clearer",
        3,
        Framing,
        "多头注意力使这一点更加清楚。",
        "Multi-head attention makes this clearer.",
    ),
    s(
        "own-covering",
        3,
        Framing,
        "每一个头都会生成自己的投影覆盖，拥有自己的 Query、Key 和 Value 变换。",
        "Each head generates its own projected covering, with its own Query, Key and Value transformations.",
    ),
    s(
        "stacked-local-coverings",
        3,
        Framing,
        "这些头并不只是并行工程技巧；它们是在同一个单标场上运行的堆叠局部覆盖。",
        "These heads are not merely a parallel engineering trick; they are stacked local coverings running on the same token field.",
    ),
    s(
        "heads-may-capture",
        3,
        Empirical,
        "一个头可能捕捉一种关系，另一个头可能捕捉另一种关系，而后续层则可能将它们组合、修正、抑制或强化。",
        "One head may capture one relation, another head may capture another, and later layers may combine, correct, suppress or amplify them.",
    ),
    s(
        "many-imperfect-coverings",
        3,
        Empirical,
        "这就是为什么多头注意力本身已经包含了堆叠流形思想：模型并不依赖一个完美的几何视角，而是通过许多不完美的物理覆盖来学习，这些覆盖跨越注意力头和层级不断堆叠起来。",
        "This is why multi-head attention already contains the stacked-manifold idea: the model does not rely on one perfect geometric view, but learns through many imperfect physical coverings, which keep stacking up across heads and layers.",
    ),
    // 范畴论 — attention and category theory
    s(
        "category-theory",
        4,
        Framing,
        "这自然会连接到范畴论。",
        "This connects naturally to category theory.",
    ),
    s(
        "relations-and-composition",
        4,
        Framing,
        "范畴论并不是从孤立对象开始，而是从关系与复合开始。",
        "Category theory does not start from isolated objects, but from relations and composition.",
    ),
    s(
        "relations-matter",
        4,
        Empirical,
        "在 Transformer 注意力中，真正重要的计算并不是单标对象本身，而是单标之间被学习出来的关系。",
        "In Transformer attention, the computation that really matters is not the token objects themselves, but the learned relations between tokens.",
    ),
    s(
        "not-merely-moving",
        4,
        Framing,
        "因此，注意力并不仅仅是一个移动信息的机制。",
        "So attention is not merely a mechanism that moves information.",
    ),
    s(
        "numerical-relations",
        4,
        Framing,
        "它是一种用数值方式构造单标关系的方法。",
        "It is a way of constructing relations between tokens numerically.",
    ),
    s(
        "learned-not-given",
        4,
        Framing,
        "但是，这种关系并不是预先给定的，而是学习出来的。",
        "But this relation is not given in advance; it is learned.",
    ),
    s(
        "beyond-category",
        4,
        Framing,
        "这正是深度流形不同于纯抽象范畴描述的地方。",
        "This is exactly where deep manifold differs from a purely abstract categorical description.",
    ),
    s(
        "relational-view",
        4,
        Framing,
        "范畴论提供的是关系视角：单标的重要性来自态射、复合以及学习到的相互作用。",
        "Category theory offers the relational view: a token's importance comes from morphisms, composition and learned interactions.",
    ),
    s(
        "numerically-realised",
        5,
        Framing,
        "深度流形则进一步解释这些关系是如何被数值实现的：通过堆叠分片流形、投影覆盖、边界条件下的迭代，以及动态不动点。",
        "Deep manifold further explains how these relations are realised numerically: through stacked piecewise manifolds, projected coverings, iteration under boundary conditions, and dynamic fixed points.",
    ),
    s(
        "local-relation-operator",
        4,
        Framing,
        "因此，注意力可以被理解为一种局部关系算子。",
        "So attention can be understood as a local relation operator.",
    ),
    s(
        "temporary-relations",
        4,
        Empirical,
        "它在当前提示词所给出的边界条件下，构造单标之间的临时关系。",
        "Under the boundary condition given by the current prompt, it constructs temporary relations between tokens.",
    ),
    s(
        "flexible-and-costly",
        4,
        Framing,
        "但由于这种关系不是建立在被保持的原始几何之上，而是通过投影后的物理覆盖建立起来的，所以它同时具有灵活性和代价。",
        "But because this relation is built not on the preserved original geometry but through the projected physical coverage, it is both flexible and costly.",
    ),
    s(
        "flexible-because",
        4,
        Empirical,
        "它灵活，是因为模型可以学习许多可能的关系；它有代价，是因为模型必须花费训练容量去发现哪些投影关系是有用的。",
        "It is flexible because the model can learn many possible relations; it is costly because the model must spend training capacity to discover which projected relations are useful.",
    ),
    s(
        "powerful-not-efficient",
        4,
        Empirical,
        "这就是为什么注意力很强大，但并不一定具有很高的学习效率。",
        "This is why attention is powerful, but not necessarily highly efficient to learn.",
    ),
    // 为什么这个几何错误是可以容忍的 — why the geometric error is tolerable
    s(
        "tolerable-because",
        5,
        Framing,
        "从神经不动点的拉格朗日表述来看，这个几何错误之所以可以被容忍，是因为神经网络并不是在执行一次精确的相似性测量。",
        "From the Lagrangian formulation of neural fixed points, this geometric error can be tolerated because the neural network is not performing one exact similarity measurement.",
    ),
    s(
        "iterative-computation",
        5,
        Framing,
        "它是在通过迭代进行可学习数值计算。",
        "It is performing learnable numerical computation through iteration.",
    ),
    s(
        "constraints-residual",
        5,
        Empirical,
        "模型架构定义了哪些变换是可接受的约束条件，而训练则是在这些约束条件下不断降低不动点残差。",
        "The model's architecture defines which transformations are admissible constraints, and training continually lowers the fixed-point residual under those constraints.",
    ),
    s(
        "different-coverings",
        5,
        Framing,
        "标准注意力允许 Query、Key 和 Value 生活在不同的投影覆盖中。",
        "Standard attention allows Query, Key and Value to live in different projected coverings.",
    ),
    s(
        "absorbed-corrected-reused",
        5,
        Empirical,
        "这会造成坐标错位，但这种错位可以通过多头、多层、残差路径以及训练更新，被逐渐吸收、修正，甚至重新利用。",
        "This creates a coordinate misalignment, but the misalignment can, through multiple heads, multiple layers, residual paths and training updates, be gradually absorbed, corrected, and even re-used.",
    ),
    s(
        "not-necessarily-broken",
        6,
        Empirical,
        "从这个意义上说，这个错误并不一定会破坏注意力机制。",
        "In this sense the error does not necessarily break the attention mechanism.",
    ),
    s(
        "part-of-the-system",
        5,
        Framing,
        "它会成为模型需要学习绕过去的数值系统的一部分。",
        "It becomes part of the numerical system that the model has to learn its way around.",
    ),
    s(
        "further-reading",
        0,
        Framing,
        "请阅读《关于神经网络架构的数学思考》以获取一些详细的解释.",
        "See “Mathematical Thoughts on Neural Network Architecture” for a more detailed explanation.",
    ),
    s(
        "tolerable-not-efficient",
        6,
        Empirical,
        "但可以容忍并不等于高效。",
        "But that it can be tolerated does not mean that it is efficient.",
    ),
    s(
        "significant-cost",
        6,
        Empirical,
        "模型可能需要付出显著的学习成本，才能在原始几何已经被打碎之后，重新发现有用的几何结构。",
        "The model may need to pay a significant learning cost to rediscover useful geometric structure after the original geometry has been broken.",
    ),
    s(
        "kda",
        7,
        Empirical,
        "Kimi Delta Attention（KDA）提供了一个近期案例：它并不主要将注意力视为单标之间的相似度计算，而是通过 Delta 修正与逐通道衰减持续更新递归状态，进一步说明注意力更适合被理解为一种用于关系变换与信息流动的学习算子。",
        "Kimi Delta Attention (KDA) offers a recent case: it does not mainly treat attention as a similarity computation between tokens, but continually updates a recurrent state through delta correction and per-channel decay, which further suggests that attention is better understood as a learned operator for relation transformation and information flow.",
    ),
];

/// Every sentence, in the essay's order.
pub fn all() -> impl Iterator<Item = &'static Sentence> {
    SENTENCES.iter()
}

/// The sentence `id`.
///
/// # Panics
/// If the essay has no sentence `id` (the message lists the valid ids' count).
pub fn sentence(id: &str) -> &'static Sentence {
    find(id).unwrap_or_else(|| {
        panic!(
            "the essay has no sentence '{id}' ({} sentences: see essay::SENTENCES)",
            all().count()
        )
    })
}

/// The sentence `id`, if the essay has it.
pub fn find(id: &str) -> Option<&'static Sentence> {
    all().find(|s| s.id == id)
}

/// The sentence whose Chinese text is `zh`, verbatim.
pub fn by_text(zh: &str) -> Option<&'static Sentence> {
    all().find(|s| s.zh == zh)
}

/// The modal words of `s.zh` whose English `s.en` lacks: empty for a faithful rendering.
pub fn dropped_hedges(s: &Sentence) -> Vec<&'static str> {
    let en = s.en.to_lowercase();
    MODALS
        .iter()
        .filter(|(zh, ens)| s.zh.contains(zh) && !ens.iter().any(|e| en.contains(e)))
        .map(|(zh, _)| *zh)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_every_rendering_keeps_its_hedges() {
        let mut ids: Vec<&str> = all().map(|s| s.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), all().count());
        let dropped: Vec<(&str, Vec<&str>)> = all()
            .map(|s| (s.id, dropped_hedges(s)))
            .filter(|(_, d)| !d.is_empty())
            .collect();
        assert!(
            dropped.is_empty(),
            "renderings that drop a hedge: {dropped:?}"
        );
    }

    #[test]
    fn a_rendering_without_its_hedge_is_caught() {
        let bad = s("x", 1, Empirical, "它可能变得很远。", "It becomes far.");
        assert_eq!(dropped_hedges(&bad), vec!["可能"]);
        let good = s("x", 1, Empirical, "它可能变得很远。", "It may become far.");
        assert!(dropped_hedges(&good).is_empty());
    }
}
