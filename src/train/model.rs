//! A small attention model: `L` layers of `h` heads, a linear readout at the
//! query (last) position, and its forward and backward passes by hand.
//!
//! With `z⁰ = x: (T, d)` and, for each layer `l` and head `h`,
//!
//! ```text
//! q = z W_Q,  k = z W_K,  v = z W_V            (T, d_k), (T, d_k), (T, d_v)
//! s = q kᵀ / √d_k   (diagonal = −∞ without self-attention)
//! a = softmax_rows(s),   y_h = a v W_O         (T, d)
//! z^{l+1} = Σ_h y_h  (+ z^l with a residual path)
//! logits = z^L_{T−1} W_R                       (outputs)
//! ```
//! Introduced in chapter 6.

use nalgebra::DMatrix;

use crate::attention::softmax_rows;
use crate::random::{Rng, gaussian, orthogonal, projection};

/// How a head's query–key form `W_QK = W_Q W_Kᵀ` is parameterised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Qk {
    /// `W_Q`, `W_K` learned, independent N(0, 1/d) at initialisation (the standard head).
    Untied,
    /// `W_Q = W_K = W` learned: `W_QK = W Wᵀ` is symmetric.
    Tied,
    /// `W_Q`, `W_K` learned and untied, initialised so that `W_Q W_Kᵀ ≈ I` (Trockman & Kolter 2023).
    Mimetic,
    /// `W_QK = I` fixed: the score is the raw dot product (needs `d_k = d`).
    Identity,
}

impl Qk {
    /// All four, in the book's order.
    pub const ALL: [Qk; 4] = [Qk::Untied, Qk::Tied, Qk::Mimetic, Qk::Identity];

    /// Lower-case name used in figures and measures.
    pub fn name(self) -> &'static str {
        match self {
            Qk::Untied => "untied",
            Qk::Tied => "tied",
            Qk::Mimetic => "mimetic",
            Qk::Identity => "identity",
        }
    }
}

/// The shape of a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Token width.
    pub d: usize,
    /// Query/key width per head.
    pub d_k: usize,
    /// Value width per head.
    pub d_v: usize,
    /// Heads per layer.
    pub heads: usize,
    /// Number of attention layers.
    pub layers: usize,
    /// Query–key parameterisation of every head.
    pub qk: Qk,
    /// Add each layer's input to its output.
    pub residual: bool,
    /// Whether a position may attend to itself.
    pub self_attention: bool,
    /// Number of readout classes.
    pub outputs: usize,
}

impl Config {
    /// One layer, one head of full width, no residual, no self-attention.
    pub fn single(d: usize, outputs: usize, qk: Qk) -> Config {
        Config {
            d,
            d_k: d,
            d_v: d,
            heads: 1,
            layers: 1,
            qk,
            residual: false,
            self_attention: false,
            outputs,
        }
    }
}

/// The learned matrices of one head. Tensors a parameterisation does not
/// learn are empty `(0, 0)` (`w_k` when tied, `w_q` and `w_k` for identity).
#[derive(Clone, Debug, PartialEq)]
pub struct HeadParams {
    /// `(d, d_k)`
    pub w_q: DMatrix<f64>,
    /// `(d, d_k)`
    pub w_k: DMatrix<f64>,
    /// `(d, d_v)`
    pub w_v: DMatrix<f64>,
    /// `(d_v, d)`
    pub w_o: DMatrix<f64>,
}

/// An attention model: its configuration and parameters. Gradients have the
/// same type, so [`Model::tensors`] of a model and of its gradient line up.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub config: Config,
    /// `layers × heads`
    pub heads: Vec<Vec<HeadParams>>,
    /// Readout `(d, outputs)`.
    pub w_r: DMatrix<f64>,
}

/// What the forward pass keeps for the backward pass, for one head. With
/// `B` inputs of `T` tokens and `m` query rows per input (`T`, or 1 in the
/// last layer), rows of `q, a, o` are `b·m + i` and rows of `k, v` are `b·T + j`.
#[derive(Clone, Debug)]
pub(super) struct HeadCache {
    /// `(B·m, d_k)`
    pub(super) q: DMatrix<f64>,
    /// `(B·T, d_k)`
    pub(super) k: DMatrix<f64>,
    /// `(B·T, d_v)`
    pub(super) v: DMatrix<f64>,
    /// `(B·m, T)`
    pub(super) a: DMatrix<f64>,
    /// `(B·m, d_v)`
    pub(super) o: DMatrix<f64>,
}

/// The forward pass of a batch of `B` inputs of `T` tokens each.
#[derive(Clone, Debug)]
pub struct Forward {
    /// Tokens per input.
    pub t: usize,
    /// Layer inputs `z⁰ … z^{L−1}`, each `(B·T, d)` (input `b` in rows
    /// `b·T …`), and the output `z^L`, `(B, d)`: the query rows.
    pub z: Vec<DMatrix<f64>>,
    /// The query rows of each layer's input, `(B·m, d)`.
    pub(super) zq: Vec<DMatrix<f64>>,
    /// Class probabilities at the query positions, `(B, outputs)`.
    pub probs: DMatrix<f64>,
    pub(super) heads: Vec<Vec<HeadCache>>,
}

impl Forward {
    /// Attention weights of `head` in `layer`, `(B·m, T)`: row `b·m + i` is
    /// query `i` of input `b`; `m = T`, or 1 (the query row) in the last layer.
    pub fn weights(&self, layer: usize, head: usize) -> &DMatrix<f64> {
        &self.heads[layer][head].a
    }

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

/// Rows `b·t + r0 + i` (`i < m`) of `z`, for every input `b`: `(B·m, d)`.
fn query_rows(z: &DMatrix<f64>, t: usize, m: usize) -> DMatrix<f64> {
    if m == t {
        return z.clone();
    }
    let batch = z.nrows() / t;
    DMatrix::from_fn(batch * m, z.ncols(), |r, c| {
        z[((r / m) * t + t - m + r % m, c)]
    })
}

/// Add `dq: (B·m, d)` into the query rows of `dz: (B·T, d)`.
pub(super) fn add_query_rows(dz: &mut DMatrix<f64>, dq: &DMatrix<f64>, t: usize, m: usize) {
    for c in 0..dq.ncols() {
        for r in 0..dq.nrows() {
            dz[((r / m) * t + t - m + r % m, c)] += dq[(r, c)];
        }
    }
}

impl Model {
    /// A seeded model. Untied and tied projections are N(0, 1/d); mimetic
    /// ones are `W_Q = U + εG₁`, `W_K = U + εG₂` with `U` the first `d_k`
    /// columns of a random orthogonal matrix and `ε = 0.1/√d`, so
    /// `W_Q W_Kᵀ ≈ U Uᵀ` (the identity when `d_k = d`).
    ///
    /// # Panics
    /// If a size is zero, or `Identity` is asked for with `d_k ≠ d`.
    pub fn init(config: Config, rng: &mut Rng) -> Model {
        let Config {
            d,
            d_k,
            d_v,
            heads,
            layers,
            qk,
            outputs,
            ..
        } = config;
        assert!(
            d > 0 && d_k > 0 && d_v > 0 && heads > 0 && layers > 0 && outputs > 0,
            "Model::init: every size must be positive, got {config:?}"
        );
        assert!(
            qk != Qk::Identity || d_k == d,
            "Model::init: the identity form needs d_k = d (d = {d}, d_k = {d_k})"
        );
        let empty = || DMatrix::zeros(0, 0);
        let head = |rng: &mut Rng| {
            let (w_q, w_k) = match qk {
                Qk::Untied => (projection(rng, d, d_k), projection(rng, d, d_k)),
                Qk::Tied => (projection(rng, d, d_k), empty()),
                Qk::Mimetic => {
                    let u = orthogonal(rng, d).columns(0, d_k).into_owned();
                    let eps = 0.1 / (d as f64).sqrt();
                    (
                        &u + gaussian(rng, d, d_k, eps),
                        &u + gaussian(rng, d, d_k, eps),
                    )
                }
                Qk::Identity => (empty(), empty()),
            };
            HeadParams {
                w_q,
                w_k,
                w_v: projection(rng, d, d_v),
                w_o: projection(rng, d_v, d),
            }
        };
        let heads = (0..layers)
            .map(|_| (0..heads).map(|_| head(rng)).collect())
            .collect();
        Model {
            config,
            heads,
            w_r: projection(rng, d, outputs),
        }
    }

    /// A model of the same shape with every tensor zero.
    pub fn zeros_like(&self) -> Model {
        let mut m = self.clone();
        for t in m.tensors_mut() {
            t.fill(0.0);
        }
        m
    }

    /// Every learned tensor with its name (`l0.h1.w_q`, …, `w_r`), in a fixed order.
    pub fn named_tensors(&self) -> Vec<(String, &DMatrix<f64>)> {
        let mut out = Vec::new();
        for (l, layer) in self.heads.iter().enumerate() {
            for (h, p) in layer.iter().enumerate() {
                for (name, t) in [
                    ("w_q", &p.w_q),
                    ("w_k", &p.w_k),
                    ("w_v", &p.w_v),
                    ("w_o", &p.w_o),
                ] {
                    if !t.is_empty() {
                        out.push((format!("l{l}.h{h}.{name}"), t));
                    }
                }
            }
        }
        out.push(("w_r".to_string(), &self.w_r));
        out
    }

    /// Every learned tensor, in the order of [`Model::named_tensors`].
    pub fn tensors(&self) -> Vec<&DMatrix<f64>> {
        self.named_tensors().into_iter().map(|(_, t)| t).collect()
    }

    /// Every learned tensor, mutably, in the order of [`Model::named_tensors`].
    pub fn tensors_mut(&mut self) -> Vec<&mut DMatrix<f64>> {
        let mut out = Vec::new();
        for layer in self.heads.iter_mut() {
            for p in layer.iter_mut() {
                for t in [&mut p.w_q, &mut p.w_k, &mut p.w_v, &mut p.w_o] {
                    if !t.is_empty() {
                        out.push(t);
                    }
                }
            }
        }
        out.push(&mut self.w_r);
        out
    }

    /// Number of learned scalars.
    pub fn parameter_count(&self) -> usize {
        self.tensors().iter().map(|t| t.len()).sum()
    }

    /// The query and key projections `(W_Q, W_K)` of a head as used in the
    /// forward pass (`(W, W)` when tied, `(I, I)` for identity).
    pub fn qk(&self, layer: usize, head: usize) -> (DMatrix<f64>, DMatrix<f64>) {
        let p = &self.heads[layer][head];
        let d = self.config.d;
        match self.config.qk {
            Qk::Untied | Qk::Mimetic => (p.w_q.clone(), p.w_k.clone()),
            Qk::Tied => (p.w_q.clone(), p.w_q.clone()),
            Qk::Identity => (DMatrix::identity(d, d), DMatrix::identity(d, d)),
        }
    }

    /// The bilinear form `W_QK = W_Q W_Kᵀ`, `(d, d)`, of a head.
    pub fn w_qk(&self, layer: usize, head: usize) -> DMatrix<f64> {
        let (w_q, w_k) = self.qk(layer, head);
        w_q * w_k.transpose()
    }

    /// Run the model on one input `x: (T, d)`; see [`Model::forward_batch`].
    pub fn forward(&self, x: &DMatrix<f64>) -> Forward {
        self.forward_batch(&[x])
    }

    /// Run the model on `B` inputs of `T` tokens, keeping what the backward
    /// pass needs. Only the query (last) row is read out, so the last layer
    /// computes its query rows alone.
    ///
    /// ```
    /// use attention_geometry::random::{gaussian, seeded};
    /// use attention_geometry::train::{Config, Model, Qk};
    /// let mut rng = seeded(0);
    /// let model = Model::init(Config { layers: 2, ..Config::single(6, 5, Qk::Untied) }, &mut rng);
    /// let (a, b) = (gaussian(&mut rng, 4, 6, 1.0), gaussian(&mut rng, 4, 6, 1.0));
    /// let fwd = model.forward_batch(&[&a, &b]);
    /// assert_eq!(fwd.probs.shape(), (2, 5));
    /// assert!((fwd.probs.row(1).sum() - 1.0).abs() < 1e-12);
    /// assert_eq!(fwd.weights(0, 0).shape(), (8, 4)); // inner layer: every row asks
    /// assert_eq!(fwd.weights(1, 0).shape(), (2, 4)); // last layer: the query rows
    /// assert_eq!(fwd.weights(1, 0)[(0, 3)], 0.0);     // no self-attention
    /// ```
    ///
    /// # Panics
    /// If the batch is empty, an input is not `d` wide or not `T` long, or
    /// has one row without self-attention.
    pub fn forward_batch(&self, xs: &[&DMatrix<f64>]) -> Forward {
        let c = self.config;
        assert!(!xs.is_empty(), "Model::forward_batch: the batch is empty");
        let t = xs[0].nrows();
        for x in xs {
            assert_eq!(
                x.shape(),
                (t, c.d),
                "Model::forward: an input is {:?} but the model expects ({t}, {}) like the first",
                x.shape(),
                c.d
            );
        }
        assert!(
            c.self_attention || t > 1,
            "Model::forward: one token and no self-attention leaves nothing to attend to"
        );
        let batch = xs.len();
        let scale = 1.0 / (c.d_k as f64).sqrt();
        // z⁰: inputs stacked  (B·T, d)
        let mut z = vec![DMatrix::from_fn(batch * t, c.d, |r, col| {
            xs[r / t][(r % t, col)]
        })];
        let (mut zqs, mut caches) = (Vec::new(), Vec::new());
        for l in 0..c.layers {
            let zl = &z[l];
            // queries: every row, or the query row alone in the last layer
            let m = if l + 1 == c.layers { 1 } else { t };
            let r0 = t - m;
            let zq = query_rows(zl, t, m);
            let mut next = if c.residual {
                zq.clone()
            } else {
                DMatrix::zeros(batch * m, c.d)
            };
            let mut layer = Vec::with_capacity(c.heads);
            for p in &self.heads[l] {
                let (q, k) = match c.qk {
                    Qk::Untied | Qk::Mimetic => (&zq * &p.w_q, zl * &p.w_k),
                    Qk::Tied => (&zq * &p.w_q, zl * &p.w_q),
                    Qk::Identity => (zq.clone(), zl.clone()),
                };
                let v = zl * &p.w_v;
                // s_{b,i,j} = q_{b,i} · k_{b,j} / √d_k  (B·m, T)
                let mut s = DMatrix::zeros(batch * m, t);
                for r in 0..batch * m {
                    let (b, i) = (r / m, r % m);
                    for j in 0..t {
                        s[(r, j)] = if !c.self_attention && j == r0 + i {
                            f64::NEG_INFINITY
                        } else {
                            (0..q.ncols())
                                .map(|e| q[(r, e)] * k[(b * t + j, e)])
                                .sum::<f64>()
                                * scale
                        };
                    }
                }
                let a = softmax_rows(&s);
                // o_{b,i} = Σ_j a_{b,i,j} v_{b,j}  (B·m, d_v)
                let o = DMatrix::from_fn(batch * m, v.ncols(), |r, e| {
                    let b = r / m;
                    (0..t).map(|j| a[(r, j)] * v[(b * t + j, e)]).sum()
                });
                // z^{l+1} += o W_O  (B·m, d)
                next += &o * &p.w_o;
                layer.push(HeadCache { q, k, v, a, o });
            }
            zqs.push(zq);
            caches.push(layer);
            z.push(next);
        }
        // logits = z^L W_R  (B, outputs)
        let probs = softmax_rows(&(&z[c.layers] * &self.w_r));
        Forward {
            t,
            z,
            zq: zqs,
            probs,
            heads: caches,
        }
    }
}
