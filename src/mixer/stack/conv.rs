//! The short causal depthwise convolution with SiLU that fla puts after the
//! q, k, v projections (`fla/modules/convolution.py`, `ShortConvolution`:
//! `nn.Conv1d(groups = channels, padding = W − 1)` cut to the first `T`
//! outputs, `activation = 'silu'`, no bias as `conv_bias = False` in
//! `fla/layers/gated_deltanet.py`).
//!
//! ```text
//! forward   z_t[c] = Σ_{i<W} w[i, c] x_{t−W+1+i}[c]   (x_{<0} = 0),   y_t = silu(z_t) = z_t σ(z_t)
//! backward  z̄ = ȳ ⊙ σ(z) (1 + z (1 − σ(z))),   w̄[i, c] = Σ_t z̄_t[c] x_{t−W+1+i}[c],
//!           x̄_s[c] = Σ_i z̄_{s+W−1−i}[c] w[i, c]
//! ```
//! Introduced in chapter 7.

use nalgebra::DMatrix;

use crate::delta::sigmoid;

/// `silu(z) = z σ(z)`, entrywise.
pub fn silu(z: &DMatrix<f64>) -> DMatrix<f64> {
    z.map(|a| a * sigmoid(a))
}

/// `ȳ ⊙ silu'(z)`, `silu'(z) = σ(z) (1 + z (1 − σ(z)))`.
pub fn silu_backward(z: &DMatrix<f64>, dy: &DMatrix<f64>) -> DMatrix<f64> {
    z.zip_map(dy, |a, d| {
        let s = sigmoid(a);
        d * s * (1.0 + a * (1.0 - s))
    })
}

/// `(y, z)`: the convolution of `x: [T, C]` by `w: [W, C]` after SiLU, and its pre-activation `z`.
///
/// ```
/// use attention_geometry::mixer::stack::conv::forward;
/// use nalgebra::dmatrix;
/// // a kernel that only looks one step back shifts the sequence down by one
/// let (_, z) = forward(&dmatrix![1.0; 2.0; 3.0], &dmatrix![0.0; 0.0; 1.0; 0.0]);
/// assert_eq!(z, dmatrix![0.0; 1.0; 2.0]);
/// ```
///
/// # Panics
/// If `x` and `w` have different numbers of channels.
pub fn forward(x: &DMatrix<f64>, w: &DMatrix<f64>) -> (DMatrix<f64>, DMatrix<f64>) {
    assert_eq!(
        x.ncols(),
        w.ncols(),
        "conv: x [T, C] has {} channels but w [W, C] {}",
        x.ncols(),
        w.ncols()
    );
    let (t_len, width) = (x.nrows(), w.nrows());
    let z = DMatrix::from_fn(t_len, x.ncols(), |t, c| {
        (0..width)
            .filter(|&i| t + i + 1 >= width)
            .map(|i| w[(i, c)] * x[(t + i + 1 - width, c)])
            .sum()
    });
    (silu(&z), z)
}

/// `(x̄, w̄)` from `x`, `w`, the `z` of [`forward`] and `ȳ` (see the module docs).
pub fn backward(
    x: &DMatrix<f64>,
    w: &DMatrix<f64>,
    z: &DMatrix<f64>,
    dy: &DMatrix<f64>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let dz = silu_backward(z, dy);
    let (t_len, width) = (x.nrows(), w.nrows());
    let mut dx = DMatrix::zeros(t_len, x.ncols());
    let mut dw = DMatrix::zeros(width, x.ncols());
    for c in 0..x.ncols() {
        for t in 0..t_len {
            let d = dz[(t, c)];
            for i in (0..width).filter(|&i| t + i + 1 >= width) {
                let s = t + i + 1 - width;
                dw[(i, c)] += d * x[(s, c)];
                dx[(s, c)] += d * w[(i, c)];
            }
        }
    }
    (dx, dw)
}
