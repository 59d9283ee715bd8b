//! The three verbs read off the checkpoints, each a prediction stated
//! before the result, against the same seeds trained on shuffled labels.
//!
//! ```text
//! trend(q)   = Spearman(step, q) over one run's checkpoints      (gradual: a monotone course, not two points)
//! rise(q)    = q at the last checkpoint − q at step 0
//! beyond     = share of seeds whose rise exceeds the largest rise of any null seed
//! absorbed   ⇔ accuracy ≥ threshold at the end while the final mean ρ < 0.9 (the mismatch stays)
//! corrected  ⇔ on Match, ρ rises beyond the null, and gradually (median trend > 0.5)
//! re-used    ⇔ on Successor, the accuracy owed to the mismatch rises beyond the null, and gradually
//! ```
//! The essay's sentence says the mismatch *can* be so treated: an existence
//! claim, supported when some verb is found; each verb's tests are its scope.

use super::{Arm, Checkpoint, Findings, Swap, architectures, book};
use crate::claim::{Claim, Evidence, Test};
use crate::stats::{Summary, mean, median, quantile, share, spearman};
use crate::train::{Relation, held};

/// The final mean ρ below which the mismatch counts as still there.
pub const FAR: f64 = 0.9;
/// The median trend above which a rise counts as gradual.
pub const GRADUAL: f64 = 0.5;

/// What a checkpoint curve follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// Test accuracy as trained.
    Accuracy,
    /// Mean over heads of ρ with raw similarity.
    Rho,
    /// Mean over heads of the symmetric share of `W_QK`.
    Share,
    /// Accuracy owed to the mismatch under a swap.
    Owed(Swap),
}

impl Quantity {
    /// Its value at one checkpoint.
    pub fn at(self, c: &Checkpoint) -> f64 {
        match self {
            Quantity::Accuracy => c.accuracy,
            Quantity::Rho => c.mean_rho(),
            Quantity::Share => c.mean_share(),
            Quantity::Owed(s) => c.owed(s),
        }
    }
}

/// One run's course of a quantity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trend {
    /// Spearman ρ between step and the quantity (0 for a constant curve).
    pub trend: f64,
    /// Last minus first.
    pub rise: f64,
}

impl Trend {
    /// The course of `q` along `checkpoints`.
    pub fn of(checkpoints: &[Checkpoint], q: Quantity) -> Trend {
        let ys: Vec<f64> = checkpoints.iter().map(|c| q.at(c)).collect();
        let xs: Vec<f64> = checkpoints.iter().map(|c| c.step as f64).collect();
        let t = spearman(&xs, &ys);
        Trend {
            trend: if t.is_nan() { 0.0 } else { t },
            rise: ys[ys.len() - 1] - ys[0],
        }
    }
}

impl Arm {
    /// The checkpoints of every seed, trained or null.
    fn checkpoints(&self, null: bool) -> impl Iterator<Item = &[Checkpoint]> {
        self.runs.iter().map(move |r| match null {
            true => r.null.as_slice(),
            false => r.trained.as_slice(),
        })
    }

    /// Every seed's course of `q`.
    pub fn trends(&self, q: Quantity, null: bool) -> Vec<Trend> {
        self.checkpoints(null).map(|c| Trend::of(c, q)).collect()
    }

    /// Median over seeds of the trend of `q`.
    pub fn median_trend(&self, q: Quantity, null: bool) -> f64 {
        median(
            &self
                .trends(q, null)
                .iter()
                .map(|t| t.trend)
                .collect::<Vec<_>>(),
        )
    }

    /// Share of seeds whose rise of `q` exceeds the largest rise of any null seed.
    pub fn beyond_null(&self, q: Quantity) -> f64 {
        let top = self
            .trends(q, true)
            .iter()
            .map(|t| t.rise)
            .fold(f64::NEG_INFINITY, f64::max);
        share(self.trends(q, false).iter().map(|t| t.rise > top))
    }

    /// Share of seeds that end at accuracy ≥ `threshold` with final mean ρ < [`FAR`].
    pub fn absorbed(&self, threshold: f64, null: bool) -> f64 {
        share(self.checkpoints(null).map(|c| {
            let end = &c[c.len() - 1];
            end.accuracy >= threshold && end.mean_rho() < FAR
        }))
    }

    /// Over seeds: `q` at the first checkpoint, at its largest, and at the last.
    pub fn course(&self, q: Quantity, null: bool) -> [Summary; 3] {
        let values: Vec<Vec<f64>> = self
            .checkpoints(null)
            .map(|c| c.iter().map(|p| q.at(p)).collect())
            .collect();
        [
            Summary::over(values.iter().map(|v| v[0])),
            Summary::over(
                values
                    .iter()
                    .map(|v| v.iter().cloned().fold(f64::NEG_INFINITY, f64::max)),
            ),
            Summary::over(values.iter().map(|v| v[v.len() - 1])),
        ]
    }

    /// Seeds that hit the cap before a plateau.
    pub fn capped(&self) -> usize {
        crate::train::capped(self.runs.iter().map(|r| &r.history))
    }

    /// Seeds whose final accuracy is below twice chance.
    pub fn stalled(&self, chance: f64) -> usize {
        self.runs
            .iter()
            .filter(|r| r.history.final_accuracy < 2.0 * chance)
            .count()
    }

    /// Mean, 10% and 90% over seeds of `q` at each checkpoint of the
    /// longest run (a run stopped at its plateau keeps its last value):
    /// `(step, mean, lo, hi)`.
    pub fn curve(&self, q: Quantity, null: bool) -> Vec<(f64, f64, f64, f64)> {
        let all: Vec<&[Checkpoint]> = self.checkpoints(null).collect();
        let longest = all.iter().max_by_key(|c| c.len()).expect("seeds");
        let curves: Vec<Vec<f64>> = all
            .iter()
            .map(|c| {
                held(
                    &c.iter().map(|p| q.at(p)).collect::<Vec<_>>(),
                    longest.len(),
                )
            })
            .collect();
        longest
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let xs: Vec<f64> = curves.iter().map(|c| c[i]).collect();
                (
                    p.step as f64,
                    mean(&xs),
                    quantile(&xs, 0.1),
                    quantile(&xs, 0.9),
                )
            })
            .collect()
    }
}

/// The verbs' tests for one architecture, one swap and one mismatch
/// measure: absorbed, corrected, re-used; a verb is found when its tests hold.
pub fn verbs(f: &Findings, arch: usize, swap: Swap, mismatch: Quantity) -> [Vec<Test>; 3] {
    let (m, s) = (
        f.arm(Relation::Match, arch),
        f.arm(Relation::Successor, arch),
    );
    let threshold = f.setup.schedule.threshold;
    let absorbed = |null| (m.absorbed(threshold, null) + s.absorbed(threshold, null)) / 2.0;
    let owed = Quantity::Owed(swap);
    [
        vec![Test::above(
            format!(
                "absorbed: share of runs (both tasks) ending at accuracy ≥ {threshold} with mean ρ < {FAR}, minus their nulls' share"
            ),
            absorbed(false) - absorbed(true),
            0.5,
            2,
        )],
        vec![
            Test::above(
                "corrected: share of match seeds whose ρ (or the choice's measure) rose more than any null seed's",
                m.beyond_null(mismatch),
                0.5,
                2,
            ),
            Test::above(
                "corrected, gradually: median over match seeds of Spearman(step, ρ or the choice's measure)",
                m.median_trend(mismatch, false),
                GRADUAL,
                2,
            ),
        ],
        vec![
            Test::above(
                "re-used: share of successor seeds whose accuracy owed to the mismatch rose more than any null seed's",
                s.beyond_null(owed),
                0.5,
                2,
            ),
            Test::above(
                "re-used, gradually: median over successor seeds of Spearman(step, owed accuracy)",
                s.median_trend(owed, false),
                GRADUAL,
                2,
            ),
        ],
    ]
}

/// The names of the three verbs, in [`verbs`]' order.
pub const VERBS: [&str; 3] = ["absorbed", "corrected", "re-used"];

/// The verbs found: those whose tests all hold.
pub fn found(verbs: &[Vec<Test>; 3]) -> Vec<&'static str> {
    VERBS
        .iter()
        .zip(verbs)
        .filter(|(_, t)| t.iter().all(Test::passes))
        .map(|(&v, _)| v)
        .collect()
}

/// The existence test: at least one verb found beyond the null.
fn some_verb(verbs: &[Vec<Test>; 3]) -> Test {
    Test::above(
        "verbs found beyond the null, of absorbed, corrected, re-used",
        found(verbs).len() as f64,
        0.5,
        0,
    )
}

/// The corrected verb asked of every task.
fn corrects_everywhere(f: &Findings, arch: usize) -> Vec<Test> {
    Relation::ALL
        .iter()
        .flat_map(|&r| {
            let a = f.arm(r, arch);
            [
                Test::above(
                    format!(
                        "{}: share of seeds whose ρ rose more than any null seed's",
                        r.name()
                    ),
                    a.beyond_null(Quantity::Rho),
                    0.5,
                    2,
                ),
                Test::above(
                    format!("{}: median Spearman(step, ρ)", r.name()),
                    a.median_trend(Quantity::Rho, false),
                    GRADUAL,
                    2,
                ),
            ]
        })
        .collect()
}

/// The plateau status and the runs that never learned, of every arm.
fn arms(claim: Claim, f: &Findings) -> Claim {
    let names = architectures(f.setup.task.d, f.setup.task.vocab);
    let chance = 1.0 / f.setup.task.vocab as f64;
    let seeds = f.setup.seeds as usize;
    f.arms.iter().fold(claim, |c, a| {
        let name = format!("{}, {}", names[a.arch].0, a.relation.name());
        c.trained(&name, a.capped(), seeds)
            .learned(&name, a.stalled(chance), seeds)
    })
}

/// The setting both claims share.
fn setting(f: &Findings) -> String {
    let s = f.setup;
    format!(
        "{} seeds per arm, untied heads of full width on the match and successor recall tasks \
         (vocab {}, context {}, d {}), each arm at its rate tuned on {} separate seeds over {} \
         steps (grid {:?}), to a plateau (cap {}); a checkpoint every {} steps on {} held-out \
         inputs; null: each seed trained as long on shuffled labels, same checkpoints",
        s.seeds,
        s.task.vocab,
        s.task.context,
        s.task.d,
        s.tuning_seeds,
        s.budget,
        s.lrs,
        s.schedule.steps,
        s.every,
        s.schedule.test
    )
}

/// The section's claims.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let names = architectures(f.setup.task.d, f.setup.task.vocab);
    let default = verbs(f, 0, Swap::Symmetric, Quantity::Rho);
    // an existence claim: supported when some verb is found beyond the null;
    // each verb's own tests are its scope
    let essay = Claim::empirical(
        "absorbed-corrected-reused",
        "along training, a model trained here absorbs its heads' coordinate mismatch (solves the task while it stays), corrects it (it falls) or re-uses it (the accuracy comes to owe more to it), beyond a shuffled-label null",
    )
    .quotes("absorbed-corrected-reused")
    .zh("沿着训练，这里训练的模型会吸收其注意力头的坐标错位（错位仍在而任务已解决）、修正它（错位减小）或重新利用它（准确率越来越依赖它），且超出打乱标签的零假设。")
    .evidence(Evidence::Toy)
    .setting(setting(f))
    .default_choice(format!(
        "architecture: {}; swap: the symmetric part of W_QK; mismatch: ρ with raw similarity",
        names[0].0
    ))
    .core(some_verb(&default))
    .scope_all(default.concat())
    .under(
        format!("architecture: {} with residual paths", names[1].0),
        vec![some_verb(&verbs(f, 1, Swap::Symmetric, Quantity::Rho))],
    )
    .under(
        "swap: raw similarity, c·I of the same size",
        vec![some_verb(&verbs(f, 0, Swap::Identity, Quantity::Rho))],
    )
    .under(
        "mismatch: the symmetric share of W_QK in place of ρ",
        vec![some_verb(&verbs(f, 0, Swap::Symmetric, Quantity::Share))],
    );
    let every = Claim::empirical(
        "training-corrects-every-task",
        "training corrects the mismatch on every task: along training, each head's scores come to agree with raw similarity",
    )
    .zh("训练在每个任务上都修正错位：沿着训练，每个头的分数都越来越接近原始相似度。")
    .evidence(Evidence::Toy)
    .setting(setting(f))
    .default_choice(format!("architecture: {}", names[0].0))
    .core_all(corrects_everywhere(f, 0))
    .under(
        format!("architecture: {} with residual paths", names[1].0),
        corrects_everywhere(f, 1),
    );
    vec![arms(essay, f), arms(every, f)]
}

/// Adding several core or scope tests at once.
trait AddAll {
    fn core_all(self, tests: Vec<Test>) -> Claim;
    fn scope_all(self, tests: Vec<Test>) -> Claim;
}

impl AddAll for Claim {
    fn core_all(self, tests: Vec<Test>) -> Claim {
        tests.into_iter().fold(self, Claim::core)
    }

    fn scope_all(self, tests: Vec<Test>) -> Claim {
        tests.into_iter().fold(self, Claim::scope)
    }
}
