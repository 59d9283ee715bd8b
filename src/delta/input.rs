//! The delta family's inputs as one validated value, with a method for each mixer.

use std::fmt;

use nalgebra::{DMatrix, DVector};
use rand::RngExt;

use super::args::{Args, Decay};
use super::chunked::{self, DecayForm};
use super::fused;
use super::recurrent::{recur, softmax};
use crate::random::{gaussian, seeded, unit_rows};

/// The decay a mixer applies to its state before each write, `α_t = exp(g_t)`, `g ≤ 0`.
#[derive(Clone, Debug, PartialEq)]
pub enum Gate {
    /// No decay, `α_t = 1` (linear attention, DeltaNet).
    None,
    /// One natural-log decay per step, `g: [T]`, shared by the key channels (Gated DeltaNet).
    Scalar(DVector<f64>),
    /// One natural-log decay per step and key channel, `g: [T, K]` (KDA).
    PerChannel(DMatrix<f64>),
}

impl Gate {
    fn decay(&self) -> Decay<'_> {
        match self {
            Gate::None => Decay::None,
            Gate::Scalar(g) => Decay::Scalar(g),
            Gate::PerChannel(g) => Decay::Channel(g),
        }
    }
}

/// Shapes that disagree, with a message that names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError(pub String);

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShapeError {}

/// One head's inputs to a delta mixer, with shapes checked once, at construction.
///
/// ```text
/// q, k: [T, K]    v: [T, V]    gate: none | g [T] | g [T, K]    beta: [T]
/// scale (multiplies q)         initial_state: [K, V] or none (zeros)
/// ```
/// Each mixer method reads the parts its mixer has: linear attention ignores
/// `beta` and the gate, DeltaNet the gate; Gated DeltaNet takes no per-channel
/// gate; KDA takes any gate (a scalar one is shared by every channel). Each
/// returns `(outputs [T, V], final_state [K, V])`, as the free functions do.
///
/// # Panics
/// [`DeltaInput::new`] and the `with_` methods panic if the shapes disagree,
/// naming them; [`DeltaInput::try_new`] returns the [`ShapeError`] instead.
///
/// ```
/// use attention_geometry::delta::{DeltaInput, Gate};
/// use nalgebra::{dmatrix, dvector};
/// let x = DeltaInput::new(
///     dmatrix![1.0, 0.0], dmatrix![1.0, 0.0], dmatrix![2.0],
///     Gate::PerChannel(dmatrix![0.5f64.ln(), 0.0]), dvector![1.0], 1.0, Some(dmatrix![4.0; 0.0]),
/// );
/// // decay the stored 4 to 2, then β = 1 moves the answer for k to v = 2
/// let (o, s) = x.kda();
/// assert!((o[(0, 0)] - 2.0).abs() < 1e-12 && (s[(0, 0)] - 2.0).abs() < 1e-12);
/// assert_eq!(x.linear_attention().0[(0, 0)], 6.0); // 4 + k·v, no decay
/// ```
///
/// Introduced in chapter 7.
#[derive(Clone, Debug, PartialEq)]
pub struct DeltaInput {
    q: DMatrix<f64>,
    k: DMatrix<f64>,
    v: DMatrix<f64>,
    gate: Gate,
    beta: DVector<f64>,
    scale: f64,
    initial_state: Option<DMatrix<f64>>,
}

impl DeltaInput {
    /// The inputs, or the first disagreement of their shapes.
    pub fn try_new(
        q: DMatrix<f64>,
        k: DMatrix<f64>,
        v: DMatrix<f64>,
        gate: Gate,
        beta: DVector<f64>,
        scale: f64,
        initial_state: Option<DMatrix<f64>>,
    ) -> Result<DeltaInput, ShapeError> {
        let x = DeltaInput {
            q,
            k,
            v,
            gate,
            beta,
            scale,
            initial_state,
        };
        match x.args().problem() {
            Some(p) => Err(ShapeError(format!("DeltaInput: {p}"))),
            None => Ok(x),
        }
    }

    /// The inputs; panics with [`DeltaInput::try_new`]'s message if the shapes disagree.
    pub fn new(
        q: DMatrix<f64>,
        k: DMatrix<f64>,
        v: DMatrix<f64>,
        gate: Gate,
        beta: DVector<f64>,
        scale: f64,
        initial_state: Option<DMatrix<f64>>,
    ) -> DeltaInput {
        DeltaInput::try_new(q, k, v, gate, beta, scale, initial_state)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Seeded random inputs: unit-norm rows q and k, `v ~ N(0, 1)`, a
    /// per-channel gate `g = −strength · U(0, 1)`, `β ~ U(0, 1)`, an initial
    /// state `~ N(0, 1)` and `scale = K^-1/2`, drawn in that order from [`seeded`]`(seed)`.
    ///
    /// ```
    /// use attention_geometry::delta::DeltaInput;
    /// let x = DeltaInput::random(1, 50, 8, 4, 2.0);
    /// assert_eq!((x.len(), x.key_dim(), x.value_dim()), (50, 8, 4));
    /// assert!((x.q().row(3).norm() - 1.0).abs() < 1e-12 && x.initial_state().is_some());
    /// assert!((x.kda().0 - x.kda_chunked(16).0).amax() < 1e-12);
    /// ```
    pub fn random(seed: u64, t: usize, kd: usize, vd: usize, strength: f64) -> DeltaInput {
        let mut rng = seeded(seed);
        let q = unit_rows(&mut rng, t, kd);
        let k = unit_rows(&mut rng, t, kd);
        let v = gaussian(&mut rng, t, vd, 1.0);
        let g = DMatrix::from_fn(t, kd, |_, _| -strength * rng.random::<f64>());
        let beta = DVector::from_fn(t, |_, _| rng.random::<f64>());
        let s0 = gaussian(&mut rng, kd, vd, 1.0);
        let scale = 1.0 / (kd as f64).sqrt();
        DeltaInput::new(q, k, v, Gate::PerChannel(g), beta, scale, Some(s0))
    }

    /// The same inputs with another gate; panics if its shape disagrees.
    pub fn with_gate(self, gate: Gate) -> DeltaInput {
        DeltaInput { gate, ..self }.revalidated()
    }

    /// The same inputs with another `beta: [T]`; panics if its length disagrees.
    pub fn with_beta(self, beta: DVector<f64>) -> DeltaInput {
        DeltaInput { beta, ..self }.revalidated()
    }

    /// The same inputs with another scale of `q`.
    pub fn with_scale(self, scale: f64) -> DeltaInput {
        DeltaInput { scale, ..self }
    }

    /// The same inputs from another initial state (`None`: zeros); panics if not `[K, V]`.
    pub fn with_initial_state(self, initial_state: Option<DMatrix<f64>>) -> DeltaInput {
        DeltaInput {
            initial_state,
            ..self
        }
        .revalidated()
    }

    fn revalidated(self) -> DeltaInput {
        self.args().checked("DeltaInput");
        self
    }

    /// The borrowed form the kernels read, with the parts every mixer may use.
    fn args(&self) -> Args<'_> {
        Args {
            q: &self.q,
            k: &self.k,
            v: &self.v,
            decay: self.gate.decay(),
            beta: Some(&self.beta),
            scale: self.scale,
            initial_state: self.initial_state.as_ref(),
        }
    }

    /// `q: [T, K]`.
    pub fn q(&self) -> &DMatrix<f64> {
        &self.q
    }
    /// `k: [T, K]`.
    pub fn k(&self) -> &DMatrix<f64> {
        &self.k
    }
    /// `v: [T, V]`.
    pub fn v(&self) -> &DMatrix<f64> {
        &self.v
    }
    /// The gate.
    pub fn gate(&self) -> &Gate {
        &self.gate
    }
    /// `beta: [T]`.
    pub fn beta(&self) -> &DVector<f64> {
        &self.beta
    }
    /// The scale that multiplies `q`.
    pub fn scale(&self) -> f64 {
        self.scale
    }
    /// `initial_state: [K, V]`, if any.
    pub fn initial_state(&self) -> Option<&DMatrix<f64>> {
        self.initial_state.as_ref()
    }
    /// The sequence length `T`.
    pub fn len(&self) -> usize {
        self.k.nrows()
    }
    /// Whether `T = 0`.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The key width `K`.
    pub fn key_dim(&self) -> usize {
        self.k.ncols()
    }
    /// The value width `V`.
    pub fn value_dim(&self) -> usize {
        self.v.ncols()
    }

    /// Causal softmax attention on `q, k, v` and the scale (see [`super::softmax_attention`]).
    pub fn softmax_attention(&self) -> DMatrix<f64> {
        softmax(&self.args())
    }

    /// Linear attention (see [`super::linear_attention`]); ignores `beta` and the gate.
    pub fn linear_attention(&self) -> (DMatrix<f64>, DMatrix<f64>) {
        recur(&Args {
            decay: Decay::None,
            beta: None,
            ..self.args()
        })
    }

    /// DeltaNet (see [`super::delta_rule`]); ignores the gate.
    pub fn delta_rule(&self) -> (DMatrix<f64>, DMatrix<f64>) {
        recur(&Args {
            decay: Decay::None,
            ..self.args()
        })
    }

    /// Gated DeltaNet (see [`super::gated_delta_rule`]); no gate means no decay.
    ///
    /// # Panics
    /// If the gate is per channel: that is KDA ([`DeltaInput::kda`]).
    pub fn gated_delta_rule(&self) -> (DMatrix<f64>, DMatrix<f64>) {
        if let Gate::PerChannel(g) = &self.gate {
            panic!(
                "gated_delta_rule: the gate is per channel, {:?}; Gated DeltaNet takes g: [T] (KDA takes [T, K])",
                g.shape()
            );
        }
        recur(&self.args())
    }

    /// KDA, the readable recurrence (see [`super::kda`]).
    pub fn kda(&self) -> (DMatrix<f64>, DMatrix<f64>) {
        recur(&self.args())
    }

    /// KDA, the fused recurrence (see [`super::kda_fused`]).
    pub fn kda_fused(&self) -> (DMatrix<f64>, DMatrix<f64>) {
        fused::run(&self.args(), 1)
    }

    /// [`DeltaInput::kda_fused`] with the value channels split over `threads`
    /// threads; the result is bit-identical to one thread.
    ///
    /// # Panics
    /// If `threads` is 0.
    pub fn kda_fused_threads(&self, threads: usize) -> (DMatrix<f64>, DMatrix<f64>) {
        fused::run(&self.args(), threads)
    }

    /// KDA chunk by chunk (see [`super::kda_chunked`]).
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    pub fn kda_chunked(&self, chunk_size: usize) -> (DMatrix<f64>, DMatrix<f64>) {
        chunked::run(&self.args(), chunk_size, DecayForm::Auto)
    }

    /// [`DeltaInput::kda_chunked`] with a chosen [`DecayForm`].
    ///
    /// # Panics
    /// If `chunk_size` is 0.
    pub fn kda_chunked_with(
        &self,
        chunk_size: usize,
        form: DecayForm,
    ) -> (DMatrix<f64>, DMatrix<f64>) {
        chunked::run(&self.args(), chunk_size, form)
    }
}
