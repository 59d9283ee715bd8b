//! The choices of how a mixer layer is built that a referee would vary: how
//! the decay gate is initialised, and whether the mixer's output is
//! RMS-normalised before the output projection (as fla's layers do).
//!
//! ```text
//! gate      g_t = −A softplus(x_t w + dt_bias),   dt_bias = softplus⁻¹(dt)
//!   fla       A ~ U(1, 16),  dt ~ logU(10⁻³, 10⁻¹)           (fla's GatedDeltaNet / KDA)
//!   horizon   A = 1,         dt ~ logU(0.01/H, 0.1/H)         (a write keeps e^{−dt·H} ≥ 0.90 over H steps)
//! RMSNorm   y_t = γ ⊙ o_t / r_t,   r_t = sqrt(mean_j o_tj² + ε)
//!           ō_t = (γ ⊙ ȳ_t) / r_t − ô_t (Σ_j γ_j ȳ_tj ô_tj) / (V r_t),   ô_t = o_t / r_t
//! ```
//! Introduced in chapter 7.

use nalgebra::DMatrix;
use rand::RngExt;

use crate::random::Rng;

/// How the decay gate's `A_log` and `dt_bias` start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum GateInit {
    /// fla's: `A ~ U(1, 16)`, `dt ~ logU(10⁻³, 0.1)`, made for long sequences.
    Fla,
    /// Suited to sequences of `H` steps: `A = 1`, `dt ~ logU(0.01/H, 0.1/H)`.
    Horizon(usize),
}

/// What follows the mixer before the output projection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OutNorm {
    /// The mixer's output goes straight to `W_o`.
    Plain,
    /// A learned-scale RMSNorm per position (fla's `o_norm`).
    Rms,
}

/// The layer's build choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Layer {
    pub gates: GateInit,
    pub norm: OutNorm,
}

impl Layer {
    /// The book's first setting: fla's gate initialisation, no output norm.
    pub const BOOK: Layer = Layer {
        gates: GateInit::Fla,
        norm: OutNorm::Plain,
    };
}

/// The RMSNorm's ε, fla's `norm_eps`.
pub const EPS: f64 = 1e-5;

impl GateInit {
    /// `(A_log [1, 1], dt_bias [1, width])` drawn from `rng`.
    ///
    /// ```
    /// use attention_geometry::mixer::GateInit;
    /// use attention_geometry::random::seeded;
    /// let (a, dt) = GateInit::Horizon(50).draw(&mut seeded(0), 4);
    /// // softplus(dt_bias) · A · H ≤ 0.1: at zero input a write keeps ≥ e^{−0.1} over 50 steps
    /// assert!(a[0] == 0.0 && dt.iter().all(|&b| b.exp().ln_1p() * 50.0 <= 0.1 + 1e-12));
    /// ```
    pub fn draw(self, rng: &mut Rng, width: usize) -> (DMatrix<f64>, DMatrix<f64>) {
        let mut uniform = |lo: f64, hi: f64| lo + (hi - lo) * rng.random::<f64>();
        let (a, lo, hi) = match self {
            GateInit::Fla => (uniform(1.0, 16.0), 1e-3, 0.1),
            GateInit::Horizon(h) => (1.0, 0.01 / h as f64, 0.1 / h as f64),
        };
        let a_log = DMatrix::from_element(1, 1, a.ln());
        let dt_bias = DMatrix::from_fn(1, width, |_, _| {
            let dt = uniform(f64::ln(lo), f64::ln(hi)).exp().max(1e-4f64.min(lo));
            dt + (-(-dt).exp_m1()).ln() // softplus⁻¹(dt) = dt + ln(1 − e^{−dt})
        });
        (a_log, dt_bias)
    }
}

/// `(y, r)`: every row of `o: [T, V]` RMS-normalised and scaled by `gamma: [1, V]`, and the rows' `r`.
///
/// ```
/// use attention_geometry::mixer::layer::rms_norm;
/// use nalgebra::dmatrix;
/// let (y, r) = rms_norm(&dmatrix![3.0, 4.0; 0.0, 0.0], &dmatrix![1.0, 1.0]);
/// assert!((r[0] - 12.5f64.sqrt()).abs() < 1e-5 && (y.row(0).norm_squared() - 2.0).abs() < 1e-5);
/// ```
pub fn rms_norm(o: &DMatrix<f64>, gamma: &DMatrix<f64>) -> (DMatrix<f64>, Vec<f64>) {
    let v = o.ncols() as f64;
    let r: Vec<f64> = o
        .row_iter()
        .map(|row| (row.norm_squared() / v + EPS).sqrt())
        .collect();
    let y = DMatrix::from_fn(o.nrows(), o.ncols(), |t, j| gamma[j] * o[(t, j)] / r[t]);
    (y, r)
}

/// `(ō, γ̄)` from `o`, `γ`, the `r` of [`rms_norm`] and `ȳ = ∂L/∂y` (see the module docs).
pub fn rms_norm_backward(
    o: &DMatrix<f64>,
    gamma: &DMatrix<f64>,
    r: &[f64],
    dy: &DMatrix<f64>,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let v = o.ncols() as f64;
    let mut dgamma = DMatrix::zeros(1, o.ncols());
    let mut d_o = DMatrix::zeros(o.nrows(), o.ncols());
    for t in 0..o.nrows() {
        // Σ_j γ_j ȳ_tj ô_tj
        let inner: f64 = (0..o.ncols())
            .map(|j| gamma[j] * dy[(t, j)] * o[(t, j)] / r[t])
            .sum();
        for j in 0..o.ncols() {
            let hat = o[(t, j)] / r[t];
            dgamma[j] += dy[(t, j)] * hat;
            d_o[(t, j)] = (gamma[j] * dy[(t, j)] - hat * inner / v) / r[t];
        }
    }
    (d_o, dgamma)
}
