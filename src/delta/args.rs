//! The borrowed inputs every delta kernel reads, and the one check of their shapes.
//!
//! [`super::DeltaInput`] owns its matrices and lends them as [`Args`]; the
//! public free functions (`kda(q, k, v, g, beta, scale, initial_state)`, …)
//! build an [`Args`] from their references without a copy. Both check it here.

use nalgebra::{DMatrix, DVector};

/// How the state decays before each write: `α_t = exp(g_t)`.
#[derive(Clone, Copy, Debug)]
pub enum Decay<'a> {
    /// `α_t = 1`.
    None,
    /// One log-decay per step, `[T]`, shared by every key channel.
    Scalar(&'a DVector<f64>),
    /// One log-decay per step and key channel, `[T, K]`.
    Channel(&'a DMatrix<f64>),
}

impl Decay<'_> {
    /// The log-decay of step `t`, channel `d`.
    #[inline(always)]
    pub fn log_decay(&self, t: usize, d: usize) -> f64 {
        match *self {
            Decay::None => 0.0,
            Decay::Scalar(s) => s[t],
            Decay::Channel(m) => m[(t, d)],
        }
    }

    /// The log-decays of step `t` into `g: [K]`.
    pub fn log_decays(&self, t: usize, g: &mut [f64]) {
        g.iter_mut()
            .enumerate()
            .for_each(|(d, x)| *x = self.log_decay(t, d));
    }
}

/// Borrowed `q, k: [T, K]`, `v: [T, V]`, the decay, `beta: [T]` (none for
/// linear attention), the scale of `q` and `initial_state: [K, V]`.
#[derive(Clone, Copy, Debug)]
pub struct Args<'a> {
    pub q: &'a DMatrix<f64>,
    pub k: &'a DMatrix<f64>,
    pub v: &'a DMatrix<f64>,
    pub decay: Decay<'a>,
    pub beta: Option<&'a DVector<f64>>,
    pub scale: f64,
    pub initial_state: Option<&'a DMatrix<f64>>,
}

impl<'a> Args<'a> {
    /// What is wrong with the shapes, naming them, or `None` if they agree.
    pub fn problem(&self) -> Option<String> {
        let (t, kd) = self.k.shape();
        let vd = self.v.ncols();
        if self.q.shape() != self.k.shape() {
            return Some(format!(
                "q is {:?} but k is {:?}; both must be [T, K]",
                self.q.shape(),
                self.k.shape()
            ));
        }
        if self.v.nrows() != t {
            return Some(format!(
                "v is {:?} but k is {:?}; v must be [T, V] with the same T",
                self.v.shape(),
                self.k.shape()
            ));
        }
        if let Some(b) = self.beta.filter(|b| b.len() != t) {
            return Some(format!("beta has length {} but T = {t}", b.len()));
        }
        match self.decay {
            Decay::Scalar(g) if g.len() != t => {
                return Some(format!("g has length {} but must be [T] = {t}", g.len()));
            }
            Decay::Channel(g) if g.shape() != (t, kd) => {
                return Some(format!(
                    "g is {:?} but must be [T, K] = {:?}",
                    g.shape(),
                    (t, kd)
                ));
            }
            _ => {}
        }
        if let Some(s) = self.initial_state.filter(|s| s.shape() != (kd, vd)) {
            return Some(format!(
                "initial_state is {:?} but must be [K, V] = [{kd}, {vd}]",
                s.shape()
            ));
        }
        None
    }

    /// `self`, or a panic `"{name}: {problem}"` if the shapes disagree.
    pub fn checked(self, name: &str) -> Args<'a> {
        if let Some(p) = self.problem() {
            panic!("{name}: {p}");
        }
        self
    }

    /// `(T, K, V)`.
    pub fn dims(&self) -> (usize, usize, usize) {
        (self.k.nrows(), self.k.ncols(), self.v.ncols())
    }

    /// The state before the first step: `initial_state`, or zeros `[K, V]`.
    pub fn start_state(&self) -> DMatrix<f64> {
        let (_, kd, vd) = self.dims();
        self.initial_state
            .cloned()
            .unwrap_or_else(|| DMatrix::zeros(kd, vd))
    }
}
