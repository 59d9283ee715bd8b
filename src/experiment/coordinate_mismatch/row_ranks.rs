//! Chapter 1's per-row rank statistic on a pretrained model's real states,
//! written once for both models: does a head rank each query's keys as the
//! raw dot products of the states do?
//!
//! ```text
//! raw        x xᵀ                                  the states entering the layer, (n, n)
//! trained    the head's own scores (MiniLM's with biases, SmolLM2's rotated)
//! random     (a W_Q)(a W_K)ᵀ, W_Q, W_K ~ N(0, 1) of the head's shape, a = what the
//!            layer's projections read (x in the post-LN encoder, rms(x) ⊙ g in the decoder)
//! tied       q qᵀ                                  the trained queries on both sides
//! ρ_i        Spearman ρ over the keys row i sees, its own position left out
//!            (every other key in the encoder; the earlier keys in the causal decoder)
//! ```
//!
//! Introduced in chapter 1.

use nalgebra::DMatrix;

use crate::pretrained::trace::LayerTrace;
use crate::pretrained::transformer::{Mask, Transformer};
use crate::random::{gaussian, seeded};
use crate::stats::{pearson, ranks};

/// Which head scores the hidden states (of either model).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The model's own head as it scores: MiniLM's with its biases, SmolLM2's
    /// rotated by position; the scores its softmax sees.
    Trained,
    /// Independent Gaussian `W_Q`, `W_K` of the head's shape (`(384, 32)`,
    /// `(576, 64)`), the same for every sentence.
    Random,
    /// The trained (unrotated) queries on both sides: `q qᵀ`.
    Tied,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Trained, Variant::Random, Variant::Tied];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Trained => "trained",
            Variant::Random => "random",
            Variant::Tied => "tied",
        }
    }
}

/// `count` random untied heads `(w_q, w_k)`, each `(d, r)` with N(0, 1) entries.
pub fn random_heads(
    count: usize,
    d: usize,
    r: usize,
    seed: u64,
) -> Vec<(DMatrix<f64>, DMatrix<f64>)> {
    let mut rng = seeded(seed);
    (0..count)
        .map(|_| (gaussian(&mut rng, d, r, 1.0), gaussian(&mut rng, d, r, 1.0)))
        .collect()
}

/// The scores of each [`Variant`] for head `h` of a recorded layer, in the
/// order of [`Variant::ALL`], the random one from `random = (w_q, w_k)`.
///
/// # Shapes
/// Three `(n, n)`.
pub fn variant_scores(
    m: &dyn Transformer,
    layer: &LayerTrace,
    h: usize,
    random: &(DMatrix<f64>, DMatrix<f64>),
) -> [DMatrix<f64>; 3] {
    let a = m.query_input(layer.layer, &layer.input);
    let (head, (w_q, w_k)) = (&layer.heads[h], random);
    [
        head.scores.clone(),
        (&a * w_q) * (&a * w_k).transpose(),
        &head.q * head.q.transpose(),
    ]
}

/// Spearman ρ of `raw` against `scores` over the keys each query row sees
/// under `mask`, its own position left out: one value per row with at least
/// `min_keys` such keys.
///
/// # Shapes
/// `raw, scores: (n, n)`; under a causal mask entries on and above the
/// diagonal are not read.
pub fn row_rhos(
    mask: Mask,
    raw: &DMatrix<f64>,
    scores: &DMatrix<f64>,
    min_keys: usize,
) -> Vec<f64> {
    let n = raw.nrows();
    (0..n)
        .filter_map(|i| {
            let keys: Vec<usize> = match mask {
                Mask::Causal => (0..i).collect(),
                Mask::Bidirectional => (0..n).filter(|&j| j != i).collect(),
            };
            let row =
                |m: &DMatrix<f64>| ranks(&keys.iter().map(|&j| m[(i, j)]).collect::<Vec<_>>());
            (keys.len() >= min_keys).then(|| pearson(&row(raw), &row(scores)))
        })
        .collect()
}
