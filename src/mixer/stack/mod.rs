//! The stacked recall model of chapter 7's larger setting: token embedding,
//! `L` pre-norm residual blocks built as fla builds its layers (short causal
//! convolution on q, k, v; L2-normalised q, k for all but softmax; output
//! RMSNorm times a SiLU gate), a final RMSNorm and a readout, no MLP (as
//! Zoology's MQAR models). The mixers are [`crate::mixer::recurrence`] and
//! [`crate::mixer::softmax`]; the backward pass is by hand.
//!
//! Linear attention here is the delta layers' scaffold with the additive
//! update `S_t = S_{t−1} + k̂_t v_tᵀ`: L2-normalised q, k, no denominator, an
//! output RMSNorm. That is fla's `LinearAttention` normalisation
//! (`fla/layers/linear_attn.py`: `do_feature_map_norm = False`, so no
//! `q·Σk` denominator; `output_norm = 'rmsnorm'`), with its feature map
//! replaced by the L2 normalisation the delta layers use, so that linear
//! attention and DeltaNet differ only in the update rule, at equal state.
//!
//! ```text
//! h⁰ = E[tok];  hˡ = hˡ⁻¹ + (RMSNorm(mixer(q̂, k̂, v, β, g)) ⊙ SiLU(n W_g)) W_o,  n = RMSNorm(hˡ⁻¹)
//! logits = RMSNorm(hᴸ) W_r   at the query positions
//! ```
//! Introduced in chapter 7.

pub mod block;
pub mod conv;
mod model;

pub use block::{Block, BlockPass};
pub use model::{Stack, StackPass};

use crate::mixer::fast;
use crate::mixer::layer::GateInit;
use crate::mixer::objective::{self, Fit, Gradients, cosine, fit, warm_then_constant};
use crate::mixer::{Mixer, Schedule};
use crate::random::seeded;
use crate::recall::{Sequence, Task};
use crate::train::{Plateau, Rule, Settled, Stop, TensorCheck};

/// The stacked model's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Config {
    #[serde(with = "mixer_name")]
    pub mixer: Mixer,
    pub vocab: usize,
    /// Model width `d`.
    pub d: usize,
    /// Key width `K`.
    pub k: usize,
    /// Value width `V`; each block's state is `K × V`.
    pub v: usize,
    /// Blocks `L`.
    pub layers: usize,
    /// Kernel width `W` of the short convolution (fla's `conv_size = 4`).
    pub conv: usize,
}

/// Serialise a [`Mixer`] by its [`Mixer::name`].
pub(crate) mod mixer_name {
    use crate::mixer::Mixer;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(m: &Mixer, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(m.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Mixer, D::Error> {
        let name = String::deserialize(d)?;
        Mixer::EVERY
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown mixer {name}")))
    }
}

/// Which pass computes the gradients: the readable reference or the fast one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Engine {
    /// [`Stack::loss_and_grad`]: one sequence at a time, `f64`.
    #[default]
    Reference,
    /// [`crate::mixer::fast`]: the whole batch at once, `f32`.
    Fast,
}

impl Gradients<Stack> for Engine {
    fn loss_and_grad(&self, model: &Stack, batch: &[Sequence]) -> (f64, Stack) {
        match self {
            Engine::Reference => model.loss_and_grad(batch),
            Engine::Fast => fast::loss_and_grad(model, batch),
        }
    }

    fn accuracy(&self, model: &Stack, set: &[Sequence]) -> f64 {
        match self {
            Engine::Reference => model.accuracy(set),
            Engine::Fast => fast::accuracy(model, set),
        }
    }
}

/// How the rate moves, how the weights decay and when a run stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Recipe {
    /// Adam; the rate warms up over the first tenth of the cap, then stays
    /// (a decaying rate would flatten any curve and fake a plateau); until
    /// [`Training::plateau`] holds.
    #[default]
    Book,
    /// Zoology's (`zoology/train.py`): AdamW with decay `weight_decay` on
    /// every tensor; a cosine from the rate to zero over the cap, no warm-up;
    /// until `until` ends the run.
    Zoology { weight_decay: f64, until: Settled },
}

/// How a run trains: the schedule (its `steps` the cap), how often the
/// held-out accuracy is evaluated, the plateau rule, the pass and the recipe.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Training {
    pub schedule: Schedule,
    /// Held-out accuracy is evaluated every this many steps.
    pub every: usize,
    pub plateau: Plateau,
    #[serde(default)]
    pub engine: Engine,
    #[serde(default)]
    pub recipe: Recipe,
}

/// One trained stack.
#[derive(Clone, Debug)]
pub struct StackRun {
    pub model: Stack,
    /// The same model before training.
    pub initial: Stack,
    /// Held-out accuracy at the end.
    pub accuracy: f64,
    /// `(step, held-out accuracy)` at every evaluation.
    pub curve: Vec<(usize, f64)>,
    pub stop: Stop,
    /// The held-out set.
    pub test: Vec<Sequence>,
}

/// Train a `config` stack with `gates` on `task` until `training.plateau`
/// holds on its held-out accuracy or the cap is hit (or as `training.recipe`
/// says); everything from `seed`.
///
/// ```
/// use attention_geometry::mixer::layer::GateInit;
/// use attention_geometry::mixer::stack::{Config, Engine, Recipe, Training, train};
/// use attention_geometry::mixer::{Mixer, Schedule};
/// use attention_geometry::recall::Mqar;
/// use attention_geometry::train::Plateau;
/// let task = Mqar { vocab: 16, pairs: 2, len: 8 };
/// let config = Config { mixer: Mixer::Softmax, vocab: 16, d: 16, k: 4, v: 4, layers: 2, conv: 4 };
/// let schedule = Schedule { steps: 600, batch: 8, lr: 0.03, test: 32 };
/// let plateau = Plateau::BOOK.after(200);
/// let t = Training { schedule, every: 25, plateau, engine: Engine::Fast, recipe: Recipe::Book };
/// let run = train(config, GateInit::Fla, task, t, 0);
/// assert!(!run.stop.capped() && run.accuracy > 0.5); // chance is 1/8
/// ```
///
/// # Panics
/// If the vocabularies of model and task differ, or `every` is zero.
pub fn train(config: Config, gates: GateInit, task: impl Task, t: Training, seed: u64) -> StackRun {
    train_observed(config, gates, task, t, seed, |_, _| {})
}

/// [`train`], calling `observe(step, accuracy)` at every evaluation.
pub fn train_observed(
    config: Config,
    gates: GateInit,
    task: impl Task,
    t: Training,
    seed: u64,
    observe: impl FnMut(usize, f64),
) -> StackRun {
    assert_eq!(
        config.vocab,
        task.vocab(),
        "stack::train: the model has {} tokens but the task {}",
        config.vocab,
        task.vocab()
    );
    assert!(t.every > 0, "stack::train: evaluate every ≥ 1 steps");
    let mut rng = seeded(seed);
    let test = task.draw(&mut rng, t.schedule.test);
    let mut model = Stack::init(config, gates, &mut rng);
    let initial = model.clone();
    let (lr, cap) = (t.schedule.lr, t.schedule.steps);
    type Rate = Box<dyn Fn(usize) -> f64>;
    let (rate, weight_decay, until): (Rate, f64, &dyn Rule) = match &t.recipe {
        Recipe::Book => (Box::new(warm_then_constant(lr, cap)), 0.0, &t.plateau),
        Recipe::Zoology {
            weight_decay,
            until,
        } => (Box::new(cosine(lr, cap)), *weight_decay, until),
    };
    let rule = Fit {
        gradients: &t.engine,
        cap,
        batch: t.schedule.batch,
        rate: &rate,
        weight_decay,
        every: t.every,
        until: Some(until),
    };
    let (curve, stop) = fit(&mut model, task, &test, &mut rng, rule, observe);
    StackRun {
        accuracy: curve.last().expect("at least one evaluation").1,
        model,
        initial,
        curve,
        stop,
        test,
    }
}

/// [`crate::train::check_tensors`] on every tensor of `model` over `batch`, step `h`.
pub fn gradient_check(model: &Stack, batch: &[Sequence], h: f64) -> Vec<TensorCheck> {
    objective::gradient_check(model, batch, h)
}

/// What survives of a write until its query, per block: the mean over the
/// queries of `seqs` and the key channels of `exp(Σ_{j<t≤p} g_t)`, `j` the
/// position of the queried pair's value and `p` the query. Empty without decay.
///
/// ```
/// use attention_geometry::mixer::Mixer;
/// use attention_geometry::mixer::layer::GateInit;
/// use attention_geometry::mixer::stack::{Config, Stack, survival};
/// use attention_geometry::random::seeded;
/// use attention_geometry::recall::Mqar;
/// let mut rng = seeded(0);
/// let seqs = Mqar { vocab: 32, pairs: 4, len: 64 }.batch(&mut rng, 8);
/// let config = Config { mixer: Mixer::GatedDeltaNet, vocab: 32, d: 8, k: 4, v: 4, layers: 2, conv: 4 };
/// let horizon = survival(&Stack::init(config, GateInit::Horizon(64), &mut rng), &seqs);
/// assert!(horizon.len() == 2 && horizon.iter().all(|&s| s > 0.8));
/// ```
pub fn survival(model: &Stack, seqs: &[Sequence]) -> Vec<f64> {
    let kd = model.config.k;
    let mut kept = vec![Vec::new(); model.blocks.len()];
    for s in seqs {
        let pass = model.forward(s);
        for (l, b) in pass.blocks.iter().enumerate() {
            let Some(g) = b.decay(kd) else {
                return Vec::new();
            };
            for &(p, _) in &s.queries {
                let key = s.tokens[p];
                let j = (0..p)
                    .step_by(2)
                    .find(|&j| s.tokens[j] == key)
                    .expect("key")
                    + 1;
                for c in 0..kd {
                    let total: f64 = (j + 1..=p).map(|t| g[(t, c)]).sum();
                    kept[l].push(total.exp());
                }
            }
        }
    }
    kept.iter().map(|k| crate::stats::mean(k)).collect()
}
