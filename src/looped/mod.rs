//! A looped (weight-tied) attention block: one block of `h` heads with a
//! residual path and a row normalisation, applied `K` times with the same
//! weights, the prompt injected at every iteration as the boundary
//! condition, read out at the query (last) row after `K` iterations.
//!
//! ```text
//! Z_0 = N(X)
//! U_k = Z_k + X   (injected)   or   U_k = Z_k   (not injected)
//! Y_k = U_k + Σ_h softmax_rows(U_k W_Q (U_k W_K)ᵀ / √d_k) U_k W_V W_O
//! Z_{k+1} = f_θ(Z_k; X) = N(Y_k),     N(y) = √d · y / ‖y‖ per row
//! logits = Z_K[T−1] W_R
//! ```
//! The gradient of a tied weight is the sum of its per-iteration gradients
//! in the unrolled model ([`Looped::backward`]). Introduced in chapter 5.

mod backward;
mod run;

pub use run::{evaluate_looped, train_looped};

use nalgebra::DMatrix;

use crate::attention::softmax_rows;
use crate::random::{Rng, projection};
use crate::train::HeadParams;

/// Whether the prompt re-enters the block at every iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Injection {
    /// `U_k = Z_k + X`: the prompt is the boundary condition of every step.
    Input,
    /// `U_k = Z_k`: the prompt only sets the start `Z_0 = N(X)`.
    None,
}

impl Injection {
    /// Lower-case name used in measures and figures.
    pub fn name(self) -> &'static str {
        match self {
            Injection::Input => "injected",
            Injection::None => "not injected",
        }
    }
}

/// The shape of a looped block.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LoopConfig {
    /// Token width `d`.
    pub d: usize,
    /// Query/key/value width per head.
    pub d_k: usize,
    pub heads: usize,
    /// Iterations `K` the block is trained and read out at.
    pub iterations: usize,
    pub injection: Injection,
    /// Readout classes.
    pub outputs: usize,
}

/// A looped block: its configuration, one set of head weights shared by
/// every iteration, and the readout. Gradients have the same type.
#[derive(Clone, Debug, PartialEq)]
pub struct Looped {
    pub config: LoopConfig,
    /// `heads` heads, each `w_q, w_k, w_v: (d, d_k)`, `w_o: (d_k, d)`.
    pub heads: Vec<HeadParams>,
    /// Readout `(d, outputs)`.
    pub w_r: DMatrix<f64>,
}

/// Row normalisation `N(y) = √d · y / ‖y‖` of every row (a zero row stays zero).
///
/// ```
/// use attention_geometry::looped::normalise;
/// use nalgebra::dmatrix;
/// let z = normalise(&dmatrix![3.0, 4.0; 0.0, 0.0]);
/// assert!((z.row(0).norm() - 2f64.sqrt()).abs() < 1e-12 && z.row(1).norm() == 0.0);
/// ```
pub fn normalise(y: &DMatrix<f64>) -> DMatrix<f64> {
    let root_d = (y.ncols() as f64).sqrt();
    let mut z = y.clone();
    for mut row in z.row_iter_mut() {
        let n = row.norm();
        if n > 0.0 {
            row *= root_d / n;
        }
    }
    z
}

/// One head's cache for the backward pass, over a batch of `B` inputs of
/// `T` tokens (row `b·T + i`).
#[derive(Clone, Debug)]
pub struct HeadCache {
    /// `(B·T, d_k)` each.
    pub q: DMatrix<f64>,
    pub k: DMatrix<f64>,
    pub v: DMatrix<f64>,
    /// `(B·T, T)`: row `b·T + i` is query `i` of input `b`.
    pub a: DMatrix<f64>,
    /// `(B·T, d_k)`.
    pub o: DMatrix<f64>,
}

/// One iteration's cache: its input `U_k`, pre-norm output `Y_k`, heads.
#[derive(Clone, Debug)]
pub struct StepCache {
    pub u: DMatrix<f64>,
    pub y: DMatrix<f64>,
    pub heads: Vec<HeadCache>,
}

/// The unrolled forward pass of a batch: every iterate and the class probabilities.
#[derive(Clone, Debug)]
pub struct LoopForward {
    /// Tokens per input.
    pub t: usize,
    /// `Z_0 … Z_K`, each `(B·T, d)`.
    pub z: Vec<DMatrix<f64>>,
    /// `(B, outputs)`.
    pub probs: DMatrix<f64>,
    pub steps: Vec<StepCache>,
}

impl LoopForward {
    /// The predicted class of each input.
    pub fn predicted(&self) -> Vec<usize> {
        self.probs
            .row_iter()
            .map(|r| (0..r.len()).fold(0, |best, i| if r[i] > r[best] { i } else { best }))
            .collect()
    }

    /// Cross-entropy `−log p_b[target_b]` of each input.
    pub fn losses(&self, targets: &[usize]) -> Vec<f64> {
        targets
            .iter()
            .enumerate()
            .map(|(b, &t)| -self.probs[(b, t)].max(f64::MIN_POSITIVE).ln())
            .collect()
    }
}

impl Looped {
    /// A seeded block: every projection N(0, 1/fan-in).
    ///
    /// # Panics
    /// If a size is zero.
    pub fn init(config: LoopConfig, rng: &mut Rng) -> Looped {
        let LoopConfig {
            d,
            d_k,
            heads,
            iterations,
            outputs,
            ..
        } = config;
        assert!(
            d > 0 && d_k > 0 && heads > 0 && iterations > 0 && outputs > 0,
            "Looped::init: every size must be positive, got {config:?}"
        );
        let heads = (0..heads)
            .map(|_| HeadParams {
                w_q: projection(rng, d, d_k),
                w_k: projection(rng, d, d_k),
                w_v: projection(rng, d, d_k),
                w_o: projection(rng, d_k, d),
            })
            .collect();
        Looped {
            config,
            heads,
            w_r: projection(rng, d, outputs),
        }
    }

    /// The same block with every tensor zero.
    pub fn zeros_like(&self) -> Looped {
        let mut m = self.clone();
        for t in m.tensors_mut() {
            t.fill(0.0);
        }
        m
    }

    /// Every learned tensor's name (`h0.w_q`, …, `w_r`), in the order of [`Looped::tensors_mut`].
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for h in 0..self.heads.len() {
            for name in ["w_q", "w_k", "w_v", "w_o"] {
                out.push(format!("h{h}.{name}"));
            }
        }
        out.push("w_r".to_string());
        out
    }

    /// Every learned tensor, mutably, in a fixed order.
    pub fn tensors_mut(&mut self) -> Vec<&mut DMatrix<f64>> {
        let mut out = Vec::new();
        for p in self.heads.iter_mut() {
            out.extend([&mut p.w_q, &mut p.w_k, &mut p.w_v, &mut p.w_o]);
        }
        out.push(&mut self.w_r);
        out
    }

    /// Every learned tensor, in the order of [`Looped::tensors_mut`].
    pub fn tensors(&self) -> Vec<&DMatrix<f64>> {
        let mut out = Vec::new();
        for p in &self.heads {
            out.extend([&p.w_q, &p.w_k, &p.w_v, &p.w_o]);
        }
        out.push(&self.w_r);
        out
    }

    /// The start of the iteration, `Z_0 = N(X)`.
    pub fn start(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        normalise(x)
    }

    /// One application of the block to a stack of `B` inputs of `t` tokens,
    /// keeping what the backward pass needs.
    ///
    /// # Shapes
    /// `z, x: (B·t, d)` → `(B·t, d)`.
    fn step_cached(
        &self,
        z: &DMatrix<f64>,
        x: &DMatrix<f64>,
        t: usize,
    ) -> (DMatrix<f64>, StepCache) {
        let c = self.config;
        let rows = z.nrows();
        let scale = 1.0 / (c.d_k as f64).sqrt();
        // U = Z + X, or Z  (B·T, d)
        let u = match c.injection {
            Injection::Input => z + x,
            Injection::None => z.clone(),
        };
        let mut y = u.clone();
        let mut heads = Vec::with_capacity(c.heads);
        for p in &self.heads {
            let (q, k, v) = (&u * &p.w_q, &u * &p.w_k, &u * &p.w_v);
            // s_{b,i,j} = q_{b,i} · k_{b,j} / √d_k  (B·T, T)
            let s = DMatrix::from_fn(rows, t, |r, j| {
                let kr = (r / t) * t + j;
                (0..c.d_k).map(|e| q[(r, e)] * k[(kr, e)]).sum::<f64>() * scale
            });
            let a = softmax_rows(&s);
            // o_{b,i} = Σ_j a_{b,i,j} v_{b,j}  (B·T, d_k)
            let o = DMatrix::from_fn(rows, c.d_k, |r, e| {
                let b0 = (r / t) * t;
                (0..t).map(|j| a[(r, j)] * v[(b0 + j, e)]).sum()
            });
            // Y += o W_O  (B·T, d)
            y += &o * &p.w_o;
            heads.push(HeadCache { q, k, v, a, o });
        }
        (normalise(&y), StepCache { u, y, heads })
    }

    /// One application `f_θ(Z; X)` of the block to one prompt.
    ///
    /// # Shapes
    /// `z, x: (T, d)` → `(T, d)`.
    ///
    /// # Panics
    /// If `z` and `x` differ in shape or are not `d` wide.
    pub fn step(&self, z: &DMatrix<f64>, x: &DMatrix<f64>) -> DMatrix<f64> {
        assert!(
            z.shape() == x.shape() && x.ncols() == self.config.d,
            "Looped::step: z is {:?} and x is {:?}, but both must be (T, {})",
            z.shape(),
            x.shape(),
            self.config.d
        );
        self.step_cached(z, x, x.nrows()).0
    }

    /// The iterates `Z_0 … Z_steps` of the block on one prompt `x: (T, d)`.
    ///
    /// ```
    /// use attention_geometry::random::{gaussian, seeded};
    /// use attention_geometry::looped::{Injection, LoopConfig, Looped};
    /// let mut rng = seeded(0);
    /// let config = LoopConfig { d: 6, d_k: 3, heads: 2, iterations: 3, injection: Injection::Input, outputs: 4 };
    /// let block = Looped::init(config, &mut rng);
    /// let x = gaussian(&mut rng, 5, 6, 1.0);
    /// let zs = block.iterates(&x, 3);
    /// assert_eq!(zs.len(), 4);
    /// // every row of an iterate has norm √d
    /// assert!((zs[3].row(2).norm() - 6f64.sqrt()).abs() < 1e-12);
    /// // the readout is that of the K-th iterate's query row
    /// let p = block.forward_batch(&[&x]).probs;
    /// assert!((&p - block.probabilities(&zs[3])).norm() < 1e-12);
    /// ```
    pub fn iterates(&self, x: &DMatrix<f64>, steps: usize) -> Vec<DMatrix<f64>> {
        let mut zs = vec![self.start(x)];
        for _ in 0..steps {
            let next = self.step(zs.last().expect("starts with Z_0"), x);
            zs.push(next);
        }
        zs
    }

    /// Class probabilities read from an iterate's query (last) row, `(1, outputs)`.
    pub fn probabilities(&self, z: &DMatrix<f64>) -> DMatrix<f64> {
        softmax_rows(&(z.rows(z.nrows() - 1, 1) * &self.w_r))
    }

    /// The unrolled forward pass of `B` prompts of `T` tokens, `K` iterations.
    ///
    /// # Panics
    /// If the batch is empty or a prompt is not `(T, d)` like the first.
    pub fn forward_batch(&self, xs: &[&DMatrix<f64>]) -> LoopForward {
        let c = self.config;
        assert!(!xs.is_empty(), "Looped::forward_batch: the batch is empty");
        let t = xs[0].nrows();
        for x in xs {
            assert_eq!(
                x.shape(),
                (t, c.d),
                "Looped::forward_batch: a prompt is {:?} but the block expects ({t}, {})",
                x.shape(),
                c.d
            );
        }
        // X: prompts stacked  (B·T, d)
        let x = DMatrix::from_fn(xs.len() * t, c.d, |r, col| xs[r / t][(r % t, col)]);
        let mut z = vec![normalise(&x)];
        let mut steps = Vec::with_capacity(c.iterations);
        for _ in 0..c.iterations {
            let (next, cache) = self.step_cached(z.last().expect("Z_0"), &x, t);
            z.push(next);
            steps.push(cache);
        }
        // logits = Z_K[query rows] W_R  (B, outputs)
        let last = &z[c.iterations];
        let query = DMatrix::from_fn(xs.len(), c.d, |b, col| last[(b * t + t - 1, col)]);
        let probs = softmax_rows(&(query * &self.w_r));
        LoopForward { t, z, probs, steps }
    }
}
