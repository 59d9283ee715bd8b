//! Floating-point operation counts of the mixers, one multiply-add = 2 flops;
//! exponentials, masks and copies are not counted.

/// Flops of causal softmax attention: scores `q kᵀ` and the weighted sum of
/// values over the `T(T+1)/2` visible pairs.
///
/// ```text
/// flops = T(T+1)/2 · 2(K + V)        (~ T²(K + V))
/// ```
///
/// ```
/// use attention_geometry::delta::flops_softmax;
/// assert_eq!(flops_softmax(2, 1, 1), 12.0);
/// ```
///
/// Introduced in chapter 7.
pub fn flops_softmax(t: usize, k: usize, v: usize) -> f64 {
    let pairs = t as f64 * (t as f64 + 1.0) / 2.0;
    pairs * 2.0 * (k + v) as f64
}

/// Flops of the recurrent KDA form, per step: decay `K·V` multiplies, `Sᵀk`
/// and the rank-one write `2·K·V` each, the read-out `2·K·V`.
///
/// ```text
/// flops = T · 7 K V        (~ T d²)
/// ```
///
/// ```
/// use attention_geometry::delta::flops_recurrent;
/// assert_eq!(flops_recurrent(10, 2, 3), 420.0);
/// ```
///
/// Introduced in chapter 7.
pub fn flops_recurrent(t: usize, k: usize, v: usize) -> f64 {
    7.0 * (t * k * v) as f64
}

/// Flops of [`super::kda_chunked`] with chunks of `c`, counting its matrix
/// products per chunk of `L` steps (the inverse by forward substitution, `L³/3`):
///
/// ```text
/// A_kk, A_qk: 2 · 2L²K     T: L³/3     [K ⊙ e^Γ; sQ ⊙ e^Γ] S0: 4LKV     N: 2L²V
/// O: 2L²V                  S: KV + 2LKV
/// ```
/// In total `~ T(6KV + C(4K + 4V) + C²/3)`: `T d²` plus `T C d`.
///
/// ```
/// use attention_geometry::delta::{flops_chunked, flops_recurrent};
/// // long sequences: the chunked form does more arithmetic than the recurrence, in matrix products
/// assert!(flops_chunked(4096, 128, 128, 64) > flops_recurrent(4096, 128, 128));
/// ```
///
/// Introduced in chapter 7.
pub fn flops_chunked(t: usize, k: usize, v: usize, c: usize) -> f64 {
    assert!(c >= 1, "flops_chunked: the chunk size must be at least 1");
    let (k, v) = (k as f64, v as f64);
    let chunk = |l: f64| {
        4.0 * l * l * k
            + l * l * l / 3.0
            + 4.0 * l * k * v
            + 2.0 * l * l * v
            + 2.0 * l * l * v
            + k * v
            + 2.0 * l * k * v
    };
    let full = (t / c) as f64 * chunk(c as f64);
    let rest = t % c;
    full + if rest > 0 { chunk(rest as f64) } else { 0.0 }
}
