//! One Adam step of the stacked recall model at the capacity page's setting
//! (vocab 64, T = 64, d = 32, two blocks, K = V = 8), timed for the three
//! trainers ([`Pass::ALL`]: the reference, the fast pass the long experiment
//! trains with, and the fused trainer beside it) at batch 16 and 64, against
//! the machine's f32 matrix-product rate.
//!
//! ```text
//! flops(B) = 3 · B · T · Σ_blocks 2 d (2K + 2V + K_β + K_f) + 2 V d     the products, forward and backward
//!          + 3 · B · queries · 2 d vocab                                the readout
//! ```
//! The recurrences and the element-wise work are not counted: the share is of
//! the products alone.
//!
//! Introduced in chapter 7.

use super::median_seconds;
use crate::fused::trainer::Trainer;
use crate::mixer::Mixer;
use crate::mixer::layer::GateInit;
use crate::mixer::objective::Gradients;
use crate::mixer::stack::{Config, Engine, Stack};
use crate::random::seeded;
use crate::recall::{Mqar, Sequence};
use crate::train::Adam;

/// The batches the bench times.
pub const BATCHES: [usize; 2] = [16, 64];

/// The speed-up over the reference the issue set.
pub const GOAL: f64 = 10.0;

/// Adam steps the reference takes in a row in each round; every other pass
/// takes as many as last as long (at least as many). A trainer's steps
/// follow one another, each finding the last one's data in the cache; the
/// first step of a round finds it cold, which is not how a pass trains. So
/// every pass pays that once per round of the same length: in rounds of a
/// fixed number of steps the fastest pass would pay it ten times as often
/// (its first step of a round takes 20–40% longer than the rest).
pub const STEPS: usize = 8;

/// A trainer the bench times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// [`Engine::Reference`] and [`Adam`]: `f64`, one sequence at a time.
    Reference,
    /// [`Engine::Fast`] and [`Adam`]: `f32`, the whole batch (the long
    /// experiment's).
    Fast,
    /// [`Trainer`]: `f32`, the whole batch, row-major and fused, the model
    /// and Adam's moments kept in the pass's layout.
    Fused,
}

/// A trainer in training (three of them at a time: their sizes do not matter).
#[allow(clippy::large_enum_variant)]
enum Training {
    /// A pass's gradient, and [`Adam`] on the `f64` model.
    Adam(Engine, Stack, Adam),
    Fused(Trainer),
}

impl Training {
    fn step(&mut self, batch: &[Sequence]) {
        match self {
            Training::Adam(engine, model, adam) => {
                let (_, grad) = engine.loss_and_grad(model, batch);
                adam.step(model.tensors_mut(), grad.tensors());
            }
            Training::Fused(trainer) => drop(trainer.step(batch)),
        }
    }
}

impl Pass {
    /// Every trainer, in the order of the report.
    pub const ALL: [Pass; 3] = [Pass::Reference, Pass::Fast, Pass::Fused];

    /// This trainer, about to train `model` at rate `lr`.
    fn start(self, model: &Stack, lr: f64) -> Training {
        let adam = Adam::new(lr);
        match self {
            Pass::Reference => Training::Adam(Engine::Reference, model.clone(), adam),
            Pass::Fast => Training::Adam(Engine::Fast, model.clone(), adam),
            Pass::Fused => Training::Fused(Trainer::new(model, &adam)),
        }
    }
}

/// The capacity page's model with `mixer`.
pub fn config(mixer: Mixer) -> Config {
    Config {
        mixer,
        vocab: 64,
        d: 32,
        k: 8,
        v: 8,
        layers: 2,
        conv: 4,
    }
}

/// The capacity page's task at 16 pairs.
pub const TASK: Mqar = Mqar {
    vocab: 64,
    pairs: 16,
    len: 64,
};

/// Counted flops of one step at batch `b` (see the module's formula).
pub fn flops(c: Config, b: usize) -> f64 {
    let beta = usize::from(c.mixer.writes_delta());
    let gate = match c.mixer {
        Mixer::Kda => c.k,
        Mixer::GatedDeltaNet => 1,
        _ => 0,
    };
    let block = 2 * c.d * (2 * c.k + 2 * c.v + beta + gate) + 2 * c.v * c.d;
    let tokens = b * TASK.len;
    (3 * (tokens * c.layers * block + b * TASK.pairs * 2 * c.d * c.vocab)) as f64
}

/// One timed mixer, pass and batch.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingRow {
    pub mixer: Mixer,
    pub pass: Pass,
    pub batch: usize,
    /// Median seconds of one Adam step (gradient and update).
    pub seconds: f64,
    pub flops: f64,
}

impl TrainingRow {
    /// Achieved GFLOP/s (products only).
    pub fn gflops(&self) -> f64 {
        self.flops / self.seconds / 1e9
    }
}

/// Time one Adam step of every mixer with every pass at each batch of
/// [`BATCHES`] (median of `repeats` rounds, each [`STEPS`] reference steps in
/// a row, or as many steps of another pass as take as long; the passes in
/// alternate rounds).
pub fn run(repeats: usize) -> Vec<TrainingRow> {
    let mut rows = Vec::new();
    for batch in BATCHES {
        for mixer in Mixer::ALL {
            let mut rng = seeded(batch as u64);
            let seqs = TASK.batch(&mut rng, batch);
            let model = Stack::init(config(mixer), GateInit::Horizon(TASK.len), &mut rng);
            let mut trainers = Pass::ALL.map(|p| p.start(&model, 1e-3));
            // a step of each, to size the rounds (Pass::ALL[0] is the reference)
            let once = median_seconds(3, Pass::ALL.len(), |i| trainers[i].step(&seqs));
            let steps: Vec<usize> = once
                .iter()
                .map(|t| ((STEPS as f64 * once[0] / t).round() as usize).max(STEPS))
                .collect();
            let seconds = median_seconds(repeats, Pass::ALL.len(), |i| {
                for _ in 0..steps[i] {
                    trainers[i].step(&seqs);
                }
            });
            for ((pass, seconds), steps) in Pass::ALL.into_iter().zip(seconds).zip(steps) {
                rows.push(TrainingRow {
                    mixer,
                    pass,
                    batch,
                    seconds: seconds / steps as f64,
                    flops: flops(config(mixer), batch),
                });
            }
        }
    }
    rows
}

/// The report: one line per mixer and batch with every pass, the fused
/// pass's rate, share and speed-up (and the fast pass's), and the goal,
/// judged on the fused pass.
pub fn report(rows: &[TrainingRow], gemm_gflops: f64) -> String {
    let mut out = format!(
        "One Adam step of the stacked recall model, one thread\n\
         (vocab 64, T = 64, d = 32, 2 blocks, K = V = 8);\n\
         reference: f64, one sequence at a time; fast: f32, the whole batch\n\
         (the long experiment's); fused: f32, the whole batch, row-major, fused,\n\
         the model and Adam's moments kept in f32 from step to step;\n\
         each round {STEPS} reference steps in a row, or another pass's steps for as long,\n\
         the passes in alternate rounds;\n\
         f32 matrix product (128 × 576 by 576 × 1536): {gemm_gflops:.1} GFLOP/s\n\n\
         {:>5}  {:<8}  {:>9}  {:>7}  {:>8}  {:>7}  {:>5}  {:>6}  {:>6}\n",
        "batch", "mixer", "ref. ms", "fast ms", "fused ms", "steps/s", "share", "fast", "fused"
    );
    let mut worst = f64::INFINITY;
    for group in rows.chunks(Pass::ALL.len()) {
        let [reference, fast, fused] = group else {
            continue;
        };
        let speed_up = |r: &TrainingRow| reference.seconds / r.seconds;
        worst = worst.min(speed_up(fused));
        out += &format!(
            "{:>5}  {:<8}  {:>9.2}  {:>7.2}  {:>8.2}  {:>7.0}  {:>4.0}%  {:>5.1}×  {:>5.1}×\n",
            fused.batch,
            fused.mixer.name(),
            reference.seconds * 1e3,
            fast.seconds * 1e3,
            fused.seconds * 1e3,
            1.0 / fused.seconds,
            100.0 * fused.gflops() / gemm_gflops,
            speed_up(fast),
            speed_up(fused)
        );
    }
    out += &format!(
        "\nsteps/s, share: the fused pass's; fast, fused: speed-ups over the reference\n\
         goal: the fused pass at least {GOAL:.0}× the reference's steps per second:\n\
         {} (smallest speed-up {worst:.1}×)\n",
        if worst >= GOAL { "met" } else { "not met" }
    );
    out
}
