//! Chapter 3: a two-layer induction circuit built by hand — a previous-token
//! head and a content head in layer 1, an induction head in layer 2 that
//! reads what layer 1 wrote — and how well it predicts a repeated segment.

use nalgebra::DMatrix;
use rand::RngExt;

use crate::attention::{Head, Mask};
use crate::multi_head::MultiHead;
use crate::random::seeded;
use crate::stats::argmax;

/// Token types; the last one is the start token `BOS`.
pub const V: usize = 10;
/// Length of the segment that the sequence repeats.
pub const L: usize = 8;
/// Sequence length: `BOS`, the segment, the segment again.
pub const N: usize = 2 * L + 1;
/// Offsets of the four blocks of the residual stream: token type, position,
/// previous token's type (written by layer 1), prediction (written by layer 2).
pub const TYPE: usize = 0;
pub const POS: usize = V;
pub const PREV: usize = V + N;
pub const OUT: usize = 2 * V + N;
/// Residual-stream width.
pub const D: usize = 3 * V + N;
/// Heads per layer.
pub const H: usize = 4;
/// Logit gap of the constructed heads (before the `1/√d_k` scale, which is undone).
pub const GAP: f64 = 8.0;

/// A token sequence and its residual stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Type of each position; `types[0]` is `BOS = V − 1`.
    pub types: Vec<usize>,
    /// `(N, D)`: one-hot type and one-hot position, the other blocks zero.
    pub x: DMatrix<f64>,
}

/// `BOS`, then `L` distinct random types, then the same `L` again.
pub fn field(seed: u64) -> Field {
    let mut rng = seeded(seed);
    let mut pool: Vec<usize> = (0..V - 1).collect();
    // Fisher–Yates: the first L of a random permutation
    for i in 0..L {
        let j = rng.random_range(i..pool.len());
        pool.swap(i, j);
    }
    let segment = &pool[..L];
    let types: Vec<usize> = [&[V - 1][..], segment, segment].concat();
    let x = DMatrix::from_fn(N, D, |i, c| f64::from(c == TYPE + types[i] || c == POS + i));
    Field { types, x }
}

/// `(D, size)` with an identity in rows `offset..offset + size`: reads (or,
/// transposed, writes) one block of the stream.
pub fn selector(offset: usize, size: usize) -> DMatrix<f64> {
    DMatrix::from_fn(D, size, |r, c| f64::from(r == offset + c))
}

/// The previous-token head (`d_k = N`, `d_v = V`) and its `W_O`: position
/// `i` queries position `i − 1`; it copies that token's type into `PREV`.
pub fn previous_token_head() -> (Head, DMatrix<f64>) {
    let w_q = selector(POS, N) * (GAP * (N as f64).sqrt());
    // k_j = e_{j+1}: key j answers the query of position j + 1
    let w_k = DMatrix::from_fn(D, N, |r, c| f64::from(c >= 1 && r == POS + c - 1));
    (
        Head {
            w_q,
            w_k,
            w_v: selector(TYPE, V),
        },
        selector(PREV, V).transpose(),
    )
}

/// The content head (`d_k = N`, `d_v = V`): each token queries earlier tokens
/// of its own type. It writes nothing (`W_O = 0`).
pub fn content_head() -> (Head, DMatrix<f64>) {
    let mut w_q = DMatrix::zeros(D, N);
    let mut w_k = DMatrix::zeros(D, N);
    w_q.columns_mut(0, V)
        .copy_from(&(selector(TYPE, V) * (GAP * (N as f64).sqrt())));
    w_k.columns_mut(0, V).copy_from(&selector(TYPE, V));
    (
        Head {
            w_q,
            w_k,
            w_v: selector(TYPE, V),
        },
        DMatrix::zeros(V, D),
    )
}

/// The induction head (`d_k = d_v = V`) and its `W_O`: a token's type queries
/// the `PREV` block that layer 1 wrote, so it finds the token *after* an
/// earlier copy of itself, and copies that token's type into `OUT`.
pub fn induction_head() -> (Head, DMatrix<f64>) {
    let w_q = selector(TYPE, V) * (GAP * (V as f64).sqrt());
    (
        Head {
            w_q,
            w_k: selector(PREV, V),
            w_v: selector(TYPE, V),
        },
        selector(OUT, V).transpose(),
    )
}

/// A two-layer model: layer 1 = [previous-token, content, random, random],
/// layer 2 = [induction, random, random, random]; the random heads are drawn from `seed`.
pub fn model(seed: u64) -> [MultiHead; 2] {
    let mut rng = seeded(seed + 10_000);
    let (p, p_o) = previous_token_head();
    let (c, c_o) = content_head();
    let (ind, ind_o) = induction_head();
    let first = MultiHead::random(&mut rng, D, H, N, V)
        .with_head(0, &p, &p_o)
        .with_head(1, &c, &c_o);
    let second = MultiHead::random(&mut rng, D, H, V, V).with_head(0, &ind, &ind_o);
    [first, second]
}

/// Positions whose next token the repeat determines: `L + 1 ..= 2L − 1`.
pub fn scored() -> std::ops::Range<usize> {
    L + 1..2 * L
}

/// Fraction of scored positions where the `OUT` block's largest entry of
/// the final stream `h: (N, D)` is the type of the next token.
pub fn readout(f: &Field, h: &DMatrix<f64>) -> f64 {
    let hits = scored()
        .filter(|&i| {
            let out = h.view((i, OUT), (1, V));
            argmax(0..V, |a| out[(0, a)]) == Some(f.types[i - L + 1])
        })
        .count();
    hits as f64 / scored().len() as f64
}

/// Induction accuracy with the heads whose `keep` flag is false removed.
pub fn accuracy(model: &[MultiHead; 2], f: &Field, keep: &[[bool; H]; 2]) -> f64 {
    let h1 = model[0].residual(&f.x, Mask::Causal, &keep[0]);
    readout(f, &model[1].residual(&h1, Mask::Causal, &keep[1]))
}

/// Every head's attention pattern on the field of `seed`: `[layer][head]`.
pub fn patterns(seed: u64) -> [Vec<DMatrix<f64>>; 2] {
    let (m, f) = (model(seed), field(seed));
    let all = [true; H];
    let h1 = m[0].residual(&f.x, Mask::Causal, &all);
    [
        m[0].forward(&f.x, Mask::Causal).weights,
        m[1].forward(&h1, Mask::Causal).weights,
    ]
}

/// The sizes of the circuit that chapter 3 quotes.
pub fn measures() -> Vec<crate::measure::Measure> {
    use crate::measure::{Measure, fixed};
    vec![
        Measure::new("v", (V - 1).to_string()),
        Measure::new("l", L.to_string()),
        Measure::new("n", N.to_string()),
        Measure::new("d", D.to_string()),
        Measure::new("h", H.to_string()),
        Measure::new("gap", fixed(GAP, 0)),
        Measure::new("scored", scored().len().to_string()),
        Measure::new("chance", fixed(1.0 / (V - 1) as f64, 2)),
    ]
}
