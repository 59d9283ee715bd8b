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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// What the forward pass keeps for the backward pass, for one head.
#[derive(Clone, Debug)]
struct HeadCache {
    q: DMatrix<f64>,
    k: DMatrix<f64>,
    v: DMatrix<f64>,
    a: DMatrix<f64>,
    o: DMatrix<f64>,
}

/// The forward pass of one input.
#[derive(Clone, Debug)]
pub struct Forward {
    /// Layer inputs `z⁰ … z^L`, each `(T, d)`.
    pub z: Vec<DMatrix<f64>>,
    /// Class probabilities at the query position, `(1, outputs)`.
    pub probs: DMatrix<f64>,
    heads: Vec<Vec<HeadCache>>,
}

impl Forward {
    /// Attention weights `(T, T)` of `head` in `layer`.
    pub fn weights(&self, layer: usize, head: usize) -> &DMatrix<f64> {
        &self.heads[layer][head].a
    }

    /// The predicted class.
    pub fn predicted(&self) -> usize {
        self.probs.iter().enumerate().fold(
            0,
            |best, (i, &p)| if p > self.probs[best] { i } else { best },
        )
    }

    /// Cross-entropy `−log p[target]`.
    pub fn loss(&self, target: usize) -> f64 {
        -self.probs[target].max(f64::MIN_POSITIVE).ln()
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

    /// Run the model on one input `x: (T, d)`, keeping what the backward pass needs.
    ///
    /// # Panics
    /// If `x` is not `d` wide, or has one row without self-attention.
    pub fn forward(&self, x: &DMatrix<f64>) -> Forward {
        let c = self.config;
        assert_eq!(
            x.ncols(),
            c.d,
            "Model::forward: x is {:?} but the model expects width {}",
            x.shape(),
            c.d
        );
        let t = x.nrows();
        assert!(
            c.self_attention || t > 1,
            "Model::forward: one token and no self-attention leaves nothing to attend to"
        );
        let scale = 1.0 / (c.d_k as f64).sqrt();
        let mut z = vec![x.clone()];
        let mut caches = Vec::with_capacity(c.layers);
        for l in 0..c.layers {
            let zl = &z[l];
            let mut next = if c.residual {
                zl.clone()
            } else {
                DMatrix::zeros(t, c.d)
            };
            let mut layer = Vec::with_capacity(c.heads);
            for p in &self.heads[l] {
                let (q, k) = match c.qk {
                    Qk::Untied | Qk::Mimetic => (zl * &p.w_q, zl * &p.w_k),
                    Qk::Tied => {
                        let q = zl * &p.w_q;
                        (q.clone(), q)
                    }
                    Qk::Identity => (zl.clone(), zl.clone()),
                };
                // s = q kᵀ / √d_k  (T, T)
                let mut s = &q * k.transpose() * scale;
                if !c.self_attention {
                    s.fill_diagonal(f64::NEG_INFINITY);
                }
                let a = softmax_rows(&s);
                let v = zl * &p.w_v;
                let o = &a * &v;
                // z^{l+1} += a v W_O  (T, d)
                next += &o * &p.w_o;
                layer.push(HeadCache { q, k, v, a, o });
            }
            caches.push(layer);
            z.push(next);
        }
        let last = z[c.layers].row(t - 1) * &self.w_r;
        let probs = softmax_rows(&DMatrix::from_row_slice(1, c.outputs, last.as_slice()));
        Forward {
            z,
            probs,
            heads: caches,
        }
    }

    /// Gradient of `−log p[target]` with respect to every tensor, given the
    /// forward pass of the same input; added into `grad` (same shape as `self`).
    ///
    /// ```text
    /// ∂logits = p − onehot(target);  ∂W_R = z^L_{T−1}ᵀ ∂logits
    /// per head: ∂W_O = oᵀ ∂y, ∂o = ∂y W_Oᵀ, ∂a = ∂o vᵀ, ∂v = aᵀ ∂o
    ///           ∂s = a ⊙ (∂a − rowsum(∂a ⊙ a))          (softmax Jacobian)
    ///           ∂q = ∂s k / √d_k,  ∂k = ∂sᵀ q / √d_k
    ///           ∂W_Q = zᵀ ∂q, ∂W_K = zᵀ ∂k (tied: ∂W = zᵀ(∂q + ∂k)), ∂W_V = zᵀ ∂v
    /// ```
    ///
    /// # Panics
    /// If `target` is not a class or `grad` has another shape.
    pub fn backward(&self, fwd: &Forward, target: usize, grad: &mut Model) {
        let c = self.config;
        assert!(
            target < c.outputs,
            "Model::backward: target {target} is not one of {} classes",
            c.outputs
        );
        assert_eq!(
            grad.config, c,
            "Model::backward: the gradient has another configuration"
        );
        let t = fwd.z[0].nrows();
        let scale = 1.0 / (c.d_k as f64).sqrt();
        // ∂logits (1, outputs)
        let mut dlogits = fwd.probs.clone();
        dlogits[target] -= 1.0;
        let zl_last = fwd.z[c.layers].row(t - 1);
        // ∂W_R += z_{T−1}ᵀ ∂logits  (d, outputs)
        grad.w_r += zl_last.transpose() * &dlogits;
        // ∂z^L: zero except the query row, ∂logits W_Rᵀ
        let mut dz = DMatrix::zeros(t, c.d);
        dz.row_mut(t - 1)
            .copy_from(&(&dlogits * self.w_r.transpose()));
        for l in (0..c.layers).rev() {
            let zl = &fwd.z[l];
            let mut dprev = if c.residual {
                dz.clone()
            } else {
                DMatrix::zeros(t, c.d)
            };
            for (h, p) in self.heads[l].iter().enumerate() {
                let cache = &fwd.heads[l][h];
                let g = &mut grad.heads[l][h];
                // ∂W_O = oᵀ ∂y  (d_v, d);  ∂o = ∂y W_Oᵀ  (T, d_v)
                g.w_o += cache.o.transpose() * &dz;
                let d_o = &dz * p.w_o.transpose();
                // ∂a = ∂o vᵀ  (T, T);  ∂v = aᵀ ∂o  (T, d_v)
                let da = &d_o * cache.v.transpose();
                let dv = cache.a.transpose() * &d_o;
                g.w_v += zl.transpose() * &dv;
                dprev += &dv * p.w_v.transpose();
                // ∂s_ij = a_ij (∂a_ij − Σ_m ∂a_im a_im)
                let mut ds = da.component_mul(&cache.a);
                for i in 0..t {
                    let r: f64 = ds.row(i).sum();
                    for j in 0..t {
                        ds[(i, j)] -= cache.a[(i, j)] * r;
                    }
                }
                ds *= scale;
                // ∂q = ∂s k,  ∂k = ∂sᵀ q  (T, d_k)
                let dq = &ds * &cache.k;
                let dk = ds.transpose() * &cache.q;
                match c.qk {
                    Qk::Untied | Qk::Mimetic => {
                        g.w_q += zl.transpose() * &dq;
                        g.w_k += zl.transpose() * &dk;
                        dprev += &dq * p.w_q.transpose() + &dk * p.w_k.transpose();
                    }
                    Qk::Tied => {
                        let dqk = dq + dk;
                        g.w_q += zl.transpose() * &dqk;
                        dprev += &dqk * p.w_q.transpose();
                    }
                    Qk::Identity => dprev += dq + dk,
                }
            }
            dz = dprev;
        }
    }

    /// Mean cross-entropy over a batch of `(x, target)` pairs (forward only).
    pub fn mean_loss(&self, batch: &[(&DMatrix<f64>, usize)]) -> f64 {
        batch
            .iter()
            .map(|&(x, t)| self.forward(x).loss(t))
            .sum::<f64>()
            / batch.len() as f64
    }

    /// Mean loss and gradient over a batch of `(x, target)` pairs.
    pub fn loss_and_grad(&self, batch: &[(&DMatrix<f64>, usize)]) -> (f64, Model) {
        let mut grad = self.zeros_like();
        let mut loss = 0.0;
        for &(x, target) in batch {
            let fwd = self.forward(x);
            loss += fwd.loss(target);
            self.backward(&fwd, target, &mut grad);
        }
        let n = batch.len() as f64;
        for g in grad.tensors_mut() {
            *g /= n;
        }
        (loss / n, grad)
    }
}
