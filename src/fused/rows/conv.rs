//! The causal depthwise convolution within each sequence, and its backward
//! pass, over columns of the row-major activations.
//!
//! ```text
//! z_t[c] = Σ_{i<W} w[i, c] x_{t−W+1+i}[c]  within the sequence
//! x̄_s   = Σ_i w_i ⊙ z̄_{s+W−1−i},  w̄_i = Σ_r z̄_r ⊙ x_{r−W+1+i}
//! ```
//! Introduced in chapter 7.

#[cfg(target_arch = "x86_64")]
use super::avx2;
use super::{add_mul, fixed};

/// The causal depthwise convolution's input: columns `at .. at + C` of the
/// row-major `x: [rows, width]`, sequences of `t_len` rows, and the kernel
/// `w: [W, C]` (row-major).
#[derive(Clone, Copy, Debug)]
pub struct Conv<'a> {
    pub x: &'a [f32],
    pub width: usize,
    pub at: usize,
    pub w: &'a [f32],
    pub t_len: usize,
}

/// The convolution within each sequence: `z: [rows, C]`.
#[inline(always)]
pub fn conv(k: &Conv, c: usize) -> Vec<f32> {
    let mut z = vec![0.0; k.x.len() / k.width * c];
    if !on_avx2!(c, conv(k, &mut z)) {
        by_width!(c, conv_with(k, &mut z));
    }
    z
}

/// The portable [`conv`] into `z`, all zero.
#[inline(always)]
pub fn conv_with<const C: usize>(k: &Conv, z: &mut [f32]) {
    let c = fixed::<C>(z.len() * k.width / k.x.len());
    let taps = k.w.len() / c;
    for (r, zr) in z.chunks_exact_mut(c).enumerate() {
        let t = r % k.t_len;
        // tap i reads row r − (W − 1 − i), if it lies in the sequence
        for (i, wi) in
            k.w.chunks_exact(c)
                .enumerate()
                .skip((taps - 1).saturating_sub(t))
        {
            add_mul(zr, &k.x[(r + i + 1 - taps) * k.width + k.at..][..c], wi);
        }
    }
}

/// `(x̄, w̄)` of [`conv`] from `z̄: [rows, C]`: `x̄` added into columns
/// `at .. at + C` of `dx: [rows, width]`, `w̄` into `dw: [W, C]`.
#[inline(always)]
pub fn conv_backward(k: &Conv, dz: &[f32], dx: &mut [f32], dw: &mut [f32]) {
    let c = dz.len() * k.width / k.x.len();
    if !on_avx2!(c, conv_backward(k, dz, dx, dw)) {
        by_width!(c, conv_backward_with(k, dz, dx, dw));
    }
}

/// The portable [`conv_backward`].
#[inline(always)]
pub fn conv_backward_with<const C: usize>(k: &Conv, dz: &[f32], dx: &mut [f32], dw: &mut [f32]) {
    let c = fixed::<C>(dz.len() * k.width / k.x.len());
    let taps = k.w.len() / c;
    for (r, dr) in dz.chunks_exact(c).enumerate() {
        let t = r % k.t_len;
        let pairs = k.w.chunks_exact(c).zip(dw.chunks_exact_mut(c));
        for (i, (wi, dwi)) in pairs.enumerate().skip((taps - 1).saturating_sub(t)) {
            let row = (r + i + 1 - taps) * k.width + k.at;
            add_mul(dwi, dr, &k.x[row..][..c]);
            add_mul(&mut dx[row..][..c], wi, dr);
        }
    }
}
