//! Learned token mixers on associative recall: one small model (embedding, one
//! mixer layer, readout) with five mixers ([`Mixer::ALL`]) and Zoology's
//! linear attention with its normaliser on and off ([`Mixer::EVERY`]), trained
//! by hand-written backprop and [`crate::train::Adam`].
//!
//! ```text
//! softmax           o_t = Σ_{j≤t} softmax_j(s q_t·k_j) v_j
//! linear            S_t = S_{t-1} + k̂_t v_tᵀ
//! DeltaNet          S_t = S_{t-1} + β_t k̂_t (v_t − S_{t-1}ᵀ k̂_t)ᵀ,            β_t = σ(x_t·w_β)
//! Gated DeltaNet    the same after S ← e^{g_t} S,  g_t = −e^{A_log} softplus(x_t·a + dt_bias)
//! KDA               the same after S ← Diag(e^{g_t}) S,  g_t = −e^{A_log} softplus(x_t W_f + dt_bias)
//! read-out          o_t = S_tᵀ (s q̂_t),  s = K^{−1/2},  q̂, k̂ L2-normalised (all but softmax)
//! Zoology's linear  S_t = S_{t-1} + φ(k_t) v_tᵀ,  z_t = z_{t-1} + φ(k_t),  φ(x) = elu(x) + 1
//!                   o_t = S_tᵀ (s φ(q_t)) / (s φ(q_t)·z_t + ε)   (linear_norm; linear_sum: no denominator)
//! ```
//! KDA's `W_f` is full rank (`[2d, K]`; fla's layer factors it through a low
//! rank). The recurrences equal [`crate::delta`]'s references (tested to 10⁻¹²).
//!
//! Introduced in chapter 7.

pub mod fast;
pub mod gate;
pub mod layer;
pub mod mixing;
mod model;
pub mod objective;
pub mod recurrence;
pub mod softmax;
pub mod stack;

pub use layer::{GateInit, Layer, OutNorm};
pub use model::{Model, Pass};
pub use objective::Recaller;

use crate::random::seeded;
use crate::recall::{Mqar, Sequence};
use crate::train::{Plateau, Rule, Stop, TensorCheck};

use objective::{Fit, Reference, fit, warm_then_constant};

/// The token mixer of the layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mixer {
    Softmax,
    Linear,
    DeltaNet,
    GatedDeltaNet,
    Kda,
    /// Zoology's linear attention (its `Based` mixer with Katharopoulos et
    /// al.'s feature map `φ(x) = elu(x) + 1`): the additive update on
    /// `φ(q), φ(k)` divided by the normaliser `s φ(q_t)·Σ_{j≤t} φ(k_j) + ε`.
    Normalised,
    /// [`Mixer::Normalised`] with the normaliser off: `o_t = S_tᵀ (s φ(q_t))`.
    Unnormalised,
}

impl Mixer {
    /// All five, in the book's order.
    pub const ALL: [Mixer; 5] = [
        Mixer::Softmax,
        Mixer::Linear,
        Mixer::DeltaNet,
        Mixer::GatedDeltaNet,
        Mixer::Kda,
    ];

    /// All seven: [`Mixer::ALL`] and Zoology's linear attention with its
    /// normaliser on and off.
    pub const EVERY: [Mixer; 7] = [
        Mixer::Softmax,
        Mixer::Linear,
        Mixer::DeltaNet,
        Mixer::GatedDeltaNet,
        Mixer::Kda,
        Mixer::Normalised,
        Mixer::Unnormalised,
    ];

    /// The name used in figures and measures.
    pub fn name(self) -> &'static str {
        match self {
            Mixer::Softmax => "softmax",
            Mixer::Linear => "linear",
            Mixer::DeltaNet => "deltanet",
            Mixer::GatedDeltaNet => "gdn",
            Mixer::Kda => "kda",
            Mixer::Normalised => "linear_norm",
            Mixer::Unnormalised => "linear_sum",
        }
    }

    /// Whether it writes by delta correction (and so learns `β`).
    pub fn writes_delta(self) -> bool {
        matches!(self, Mixer::DeltaNet | Mixer::GatedDeltaNet | Mixer::Kda)
    }

    /// Whether it learns a decay gate (`A_log`, `dt_bias`).
    pub fn decays(self) -> bool {
        matches!(self, Mixer::GatedDeltaNet | Mixer::Kda)
    }

    /// Whether q and k pass through the feature map `φ(x) = elu(x) + 1`
    /// (Zoology's arms) rather than the L2 normalisation (fla's scaffold).
    pub fn maps_features(self) -> bool {
        matches!(self, Mixer::Normalised | Mixer::Unnormalised)
    }

    /// Whether a stacked block RMS-normalises the mixer's output (fla's
    /// `o_norm`). Zoology's `Based` has no output norm, and with one the
    /// normaliser would cancel: `RMSNorm(o / c) = RMSNorm(o)` up to its ε.
    pub fn norms_output(self) -> bool {
        !self.maps_features()
    }

    /// The `ε` of the normaliser `s φ(q_t)·z_t + ε`, where the mixer divides by one.
    /// Zoology's is `10⁻¹²`; here `10⁻⁶`, because the fast pass runs in `f32`:
    /// where the normaliser nears `ε` the ratio's backward subtracts terms of
    /// size `|S|/ε`, which `f32` (24-bit mantissa) keeps only to `6·10⁻⁸ |S|/ε`.
    pub fn normaliser(self) -> Option<f64> {
        (self == Mixer::Normalised).then_some(1e-6)
    }
}

/// The model's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub mixer: Mixer,
    /// Number of tokens.
    pub vocab: usize,
    /// Embedding width (the mixer reads `2d`: a token and its predecessor).
    pub d: usize,
    /// Key width `K`.
    pub k: usize,
    /// Value width `V`; the recurrent state is `K × V`.
    pub v: usize,
}

/// How long and how fast to train.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Schedule {
    /// Adam steps, each on a fresh batch.
    pub steps: usize,
    /// Sequences per step.
    pub batch: usize,
    /// Adam's peak learning rate (see [`Schedule::rate`]).
    pub lr: f64,
    /// Held-out sequences for the accuracy.
    pub test: usize,
}

impl Schedule {
    /// The learning rate at `step`: a linear warm-up over the first tenth, then a cosine decay to 0.
    ///
    /// ```text
    /// lr_t = lr · min(1, (t + 1) / w) · ½ (1 + cos(π t / steps)),   w = ⌈steps / 10⌉
    /// ```
    ///
    /// ```
    /// use attention_geometry::mixer::Schedule;
    /// let s = Schedule { steps: 100, batch: 1, lr: 0.1, test: 1 };
    /// assert!((s.rate(0) - 0.01).abs() < 1e-12 && s.rate(50) < 0.1 && s.rate(99) < 1e-3);
    /// ```
    pub fn rate(&self, step: usize) -> f64 {
        let warm = self.steps.div_ceil(10).max(1) as f64;
        let ramp = ((step + 1) as f64 / warm).min(1.0);
        let cosine = 0.5 * (1.0 + (std::f64::consts::PI * step as f64 / self.steps as f64).cos());
        self.lr * ramp * cosine
    }
}

/// One trained model and what it measured.
#[derive(Clone, Debug)]
pub struct Run {
    pub model: Model,
    /// The same model before training.
    pub initial: Model,
    /// Query accuracy on the held-out set after training.
    pub accuracy: f64,
    /// Mean cross-entropy on the held-out set after training.
    pub loss: f64,
    /// The held-out set (drawn before training from the run's seed).
    pub test: Vec<Sequence>,
    /// `(step, held-out accuracy)` at every evaluation.
    pub curve: Vec<(usize, f64)>,
    /// How the run ended.
    pub stop: Stop,
}

/// Train a `config` model on `task` for `schedule`, everything from `seed`.
///
/// ```
/// use attention_geometry::mixer::{Config, Mixer, Schedule, train};
/// use attention_geometry::recall::Mqar;
/// let task = Mqar { vocab: 16, pairs: 2, len: 8 };
/// let config = Config { mixer: Mixer::Softmax, vocab: 16, d: 8, k: 4, v: 4 };
/// let run = train(config, task, Schedule { steps: 150, batch: 8, lr: 0.03, test: 32 }, 0);
/// assert!(run.accuracy > 0.5); // chance is 1/8
/// ```
///
/// # Panics
/// If the vocabularies of model and task differ.
pub fn train(config: Config, task: Mqar, schedule: Schedule, seed: u64) -> Run {
    assert_eq!(
        config.vocab, task.vocab,
        "mixer::train: the model has {} tokens but the task {}",
        config.vocab, task.vocab
    );
    let mut rng = seeded(seed);
    let test = task.batch(&mut rng, schedule.test);
    let mut model = Model::init(config, &mut rng);
    let initial = model.clone();
    let rate = |step| schedule.rate(step);
    let cosine = Fit {
        gradients: &Reference,
        cap: schedule.steps,
        batch: schedule.batch,
        rate: &rate,
        weight_decay: 0.0,
        every: schedule.steps.max(1),
        until: None,
    };
    let (curve, _) = fit(&mut model, task, &test, &mut rng, cosine, |_, _| {});
    let accuracy = curve
        .last()
        .map_or_else(|| model.accuracy(&test), |&(_, a)| a);
    Run {
        accuracy,
        loss: model.mean_loss(&test),
        model,
        initial,
        test,
        curve: vec![(schedule.steps, accuracy)],
        stop: Stop::Fixed,
    }
}

/// Train a `config` model built as `layer` until `plateau` holds on its
/// held-out accuracy, evaluated every `every` steps, or until the cap
/// `schedule.steps`; without a plateau rule, train to the cap. The rate warms
/// up over the first tenth of the cap, then stays at `schedule.lr` (a decaying
/// rate would flatten any curve and fake a plateau).
///
/// ```
/// use attention_geometry::mixer::{Config, Layer, Mixer, Schedule, train_to_plateau};
/// use attention_geometry::recall::Mqar;
/// use attention_geometry::train::Plateau;
/// let task = Mqar { vocab: 16, pairs: 2, len: 8 };
/// let config = Config { mixer: Mixer::Softmax, vocab: 16, d: 8, k: 4, v: 4 };
/// let cap = Schedule { steps: 600, batch: 8, lr: 0.03, test: 32 };
/// let run = train_to_plateau(config, Layer::BOOK, task, cap, Some(Plateau::BOOK.after(100)), 25, 0);
/// assert!(!run.stop.capped() && run.accuracy > 0.5);
/// ```
///
/// # Panics
/// If the vocabularies of model and task differ, or `every` is zero.
pub fn train_to_plateau(
    config: Config,
    layer: Layer,
    task: Mqar,
    schedule: Schedule,
    plateau: Option<Plateau>,
    every: usize,
    seed: u64,
) -> Run {
    assert_eq!(
        config.vocab, task.vocab,
        "mixer::train_to_plateau: the model has {} tokens but the task {}",
        config.vocab, task.vocab
    );
    assert!(
        every > 0,
        "mixer::train_to_plateau: evaluate every ≥ 1 steps"
    );
    let mut rng = seeded(seed);
    let test = task.batch(&mut rng, schedule.test);
    let mut model = Model::init_with(config, layer, &mut rng);
    let initial = model.clone();
    let rate = warm_then_constant(schedule.lr, schedule.steps);
    let rule = Fit {
        gradients: &Reference,
        cap: schedule.steps,
        batch: schedule.batch,
        rate: &rate,
        weight_decay: 0.0,
        every,
        until: plateau.as_ref().map(|p| p as &dyn Rule),
    };
    let (curve, stop) = fit(&mut model, task, &test, &mut rng, rule, |_, _| {});
    Run {
        accuracy: curve.last().expect("at least one evaluation").1,
        loss: model.mean_loss(&test),
        model,
        initial,
        test,
        curve,
        stop,
    }
}

/// [`crate::train::check_tensors`] on every tensor of `model` over `batch`, step `h`.
///
/// ```
/// use attention_geometry::mixer::{Config, Mixer, Model, gradient_check};
/// use attention_geometry::random::seeded;
/// use attention_geometry::recall::Mqar;
/// let mut rng = seeded(1);
/// let batch = Mqar { vocab: 12, pairs: 2, len: 9 }.batch(&mut rng, 2);
/// let model = Model::init(Config { mixer: Mixer::Kda, vocab: 12, d: 3, k: 2, v: 2 }, &mut rng);
/// for c in gradient_check(&model, &batch, 1e-5) {
///     assert!(c.norm > 0.0 && c.error < 1e-6, "{}: {:e}", c.name, c.error);
/// }
/// ```
pub fn gradient_check(model: &Model, batch: &[Sequence], h: f64) -> Vec<TensorCheck> {
    objective::gradient_check(model, batch, h)
}
