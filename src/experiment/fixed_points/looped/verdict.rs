//! The looped block's measures and claims, read from [`super::book`]'s runs.
//!
//! ```text
//! per seed:   r_K = median over prompts of r_K(x);  likewise r_{4K}
//! lowered     ⇔ trained r_K < its initialisation's, and < its shuffled-label null's (share of seeds)
//! settles     ⇔ r_{4K}(x) < r_K(x) for most prompts, and median r_{4K}/r_K < ½
//! moves       ⇔ settled states of different prompts lie further apart than each still moves,
//!               and the settled state answers the prompt better than the null's does
//! ```

use super::{Findings, INJECTIONS, Reading, Run, book};
use crate::claim::{Claim, Evidence, Test};
use crate::looped::Injection;
use crate::measure::{Measure, fixed, pm};
use crate::stats::{Summary, median, share};
use crate::train::capped;

/// Which block of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arm {
    Trained,
    Init,
    Null,
}

impl Arm {
    pub const ALL: [Arm; 3] = [Arm::Trained, Arm::Init, Arm::Null];

    /// Name used in measure keys.
    pub fn name(self) -> &'static str {
        match self {
            Arm::Trained => "trained",
            Arm::Init => "init",
            Arm::Null => "null",
        }
    }

    /// This arm's reading in `run`.
    pub fn of(self, run: &Run) -> &Reading {
        match self {
            Arm::Trained => &run.trained,
            Arm::Init => &run.init,
            Arm::Null => &run.null,
        }
    }
}

/// Where along the iteration a residual is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// At the trained depth `K`.
    Trained,
    /// At `past · K`.
    Past,
}

impl Depth {
    fn of(self, r: &Reading) -> &[f64] {
        match self {
            Depth::Trained => &r.at_depth,
            Depth::Past => &r.past,
        }
    }
}

/// Key fragment of an injection.
fn key(inj: Injection) -> &'static str {
    match inj {
        Injection::Input => "injected",
        Injection::None => "none",
    }
}

impl Findings {
    /// The runs under injection `inj`.
    pub fn under(&self, inj: Injection) -> &[Run] {
        let i = INJECTIONS
            .iter()
            .position(|&x| x == inj)
            .expect("a known injection");
        &self.runs[i]
    }

    /// Per seed, the median over prompts of arm `arm`'s residual at `depth`.
    pub fn seed_residuals(&self, inj: Injection, arm: Arm, depth: Depth) -> Vec<f64> {
        self.under(inj)
            .iter()
            .map(|r| median(depth.of(arm.of(r))))
            .collect()
    }

    /// [`Findings::seed_residuals`] over seeds, mean ± sd.
    pub fn residual(&self, inj: Injection, arm: Arm, depth: Depth) -> Summary {
        Summary::of(&self.seed_residuals(inj, arm, depth))
    }

    /// Share of seeds whose trained residual at `depth` is below `than`'s.
    pub fn below(&self, inj: Injection, than: Arm, depth: Depth) -> f64 {
        let t = self.seed_residuals(inj, Arm::Trained, depth);
        let o = self.seed_residuals(inj, than, depth);
        share(t.iter().zip(&o).map(|(a, b)| a < b))
    }

    /// Share of prompts (pooled over seeds) whose trained residual falls from `K` to `past · K`.
    pub fn settling(&self, inj: Injection) -> f64 {
        share(self.under(inj).iter().flat_map(|r| {
            r.trained
                .at_depth
                .iter()
                .zip(&r.trained.past)
                .map(|(k, p)| p < k)
        }))
    }

    /// Median over prompts (pooled over seeds) of the trained `r_{past·K} / r_K`.
    pub fn settle_ratio(&self, inj: Injection) -> f64 {
        let ratios: Vec<f64> = self
            .under(inj)
            .iter()
            .flat_map(|r| {
                r.trained
                    .at_depth
                    .iter()
                    .zip(&r.trained.past)
                    .map(|(k, p)| p / k)
            })
            .collect();
        median(&ratios)
    }

    /// Per seed, the accuracy of arm `arm`'s readout at iterate `k`.
    pub fn accuracy_at(&self, inj: Injection, arm: Arm, k: usize) -> Summary {
        Summary::over(self.under(inj).iter().map(|r| arm.of(r).accuracy[k]))
    }

    /// Share of seeds whose trained readout at `past · K` beats their null's there.
    pub fn beats_null_past(&self, inj: Injection) -> f64 {
        let h = self.setup.horizon();
        share(
            self.under(inj)
                .iter()
                .map(|r| r.trained.accuracy[h] > r.null.accuracy[h]),
        )
    }

    /// Median over seeds of the trained block's separation of settled states.
    pub fn separation(&self, inj: Injection, arm: Arm) -> f64 {
        median(
            &self
                .under(inj)
                .iter()
                .map(|r| arm.of(r).separation)
                .collect::<Vec<_>>(),
        )
    }

    /// Median trained `r_K` of the prompts answered right (`true`) or wrong, pooled over seeds.
    pub fn residual_when(&self, inj: Injection, correct: bool) -> f64 {
        let rs: Vec<f64> = self
            .under(inj)
            .iter()
            .flat_map(|r| {
                r.trained
                    .at_depth
                    .iter()
                    .zip(&r.trained.correct)
                    .filter(move |(_, c)| **c == correct)
                    .map(|(x, _)| *x)
            })
            .collect();
        if rs.is_empty() { f64::NAN } else { median(&rs) }
    }

    /// Trained runs under `inj` that hit the cap, and that ended below twice chance.
    pub fn undecided(&self, inj: Injection) -> (usize, usize) {
        let runs = self.under(inj);
        let floor = 2.0 / self.setup.task.classes() as f64;
        (
            capped(runs.iter().map(|r| &r.history)),
            runs.iter()
                .filter(|r| r.history.final_accuracy < floor)
                .count(),
        )
    }
}

/// The numbers the looped section quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let s = f.setup;
    let n = s.seeds as usize;
    let mut m = vec![
        Measure::new("looped_seeds", s.seeds.to_string()),
        Measure::new("looped_k", s.iterations.to_string()),
        Measure::new("looped_horizon", s.horizon().to_string()),
        Measure::new("looped_heads", s.heads.to_string()),
        Measure::new("looped_d", s.task.d.to_string()),
        Measure::new("looped_vocab", s.task.vocab.to_string()),
        Measure::new("looped_context", s.task.context.to_string()),
        Measure::new("looped_test", s.schedule.test.to_string()),
        Measure::new("looped_cap", s.schedule.steps.to_string()),
    ];
    for (i, &inj) in INJECTIONS.iter().enumerate() {
        let k = key(inj);
        let runs = f.under(inj);
        let (cap, low) = f.undecided(inj);
        let h = s.horizon();
        m.extend([
            Measure::new(format!("looped_lr_{k}"), f.tuning[i].lr.to_string()),
            Measure::new(
                format!("looped_steps_{k}"),
                pm(
                    Summary::over(runs.iter().map(|r| r.history.end() as f64)),
                    0,
                ),
            ),
            Measure::new(format!("looped_capped_{k}"), format!("{cap}/{n}")),
            Measure::new(format!("looped_stalled_{k}"), format!("{low}/{n}")),
            Measure::new(
                format!("looped_accuracy_{k}"),
                pm(f.accuracy_at(inj, Arm::Trained, s.iterations), 2),
            ),
            Measure::new(
                format!("looped_accuracy_past_{k}"),
                pm(f.accuracy_at(inj, Arm::Trained, h), 2),
            ),
            Measure::new(
                format!("looped_null_accuracy_{k}"),
                pm(f.accuracy_at(inj, Arm::Null, s.iterations), 2),
            ),
            Measure::new(
                format!("looped_null_accuracy_past_{k}"),
                pm(f.accuracy_at(inj, Arm::Null, h), 2),
            ),
            Measure::new(format!("looped_settling_{k}"), fixed(f.settling(inj), 2)),
            Measure::new(
                format!("looped_settle_ratio_{k}"),
                fixed(f.settle_ratio(inj), 3),
            ),
            Measure::new(
                format!("looped_separation_{k}"),
                fixed(f.separation(inj, Arm::Trained), 1),
            ),
            Measure::new(
                format!("looped_r_right_{k}"),
                fixed(f.residual_when(inj, true), 3),
            ),
            Measure::new(
                format!("looped_r_wrong_{k}"),
                fixed(f.residual_when(inj, false), 3),
            ),
        ]);
        for (depth, d) in [(Depth::Trained, "depth"), (Depth::Past, "past")] {
            for arm in Arm::ALL {
                m.push(Measure::new(
                    format!("looped_r_{d}_{}_{k}", arm.name()),
                    pm(f.residual(inj, arm, depth), 3),
                ));
            }
            for than in [Arm::Init, Arm::Null] {
                let below = f.below(inj, than, depth);
                m.push(Measure::new(
                    format!("looped_below_{}_{d}_{k}", than.name()),
                    format!("{}/{n}", (below * n as f64).round() as usize),
                ));
            }
        }
    }
    m
}

/// Training lowered the residual at `depth`: below the initialisation's and the null's in most seeds.
fn lowered(f: &Findings, inj: Injection, depth: Depth) -> Vec<Test> {
    let q =
        |than: &str| format!("share of seeds whose median r over prompts is below their {than}");
    vec![
        Test::above(
            q("initialisation's"),
            f.below(inj, Arm::Init, depth),
            0.5,
            2,
        ),
        Test::above(
            q("shuffled-label null's"),
            f.below(inj, Arm::Null, depth),
            0.5,
            2,
        ),
    ]
}

/// The iterate settles past the trained depth.
fn settles(f: &Findings, inj: Injection) -> Vec<Test> {
    vec![
        Test::above(
            "share of prompts whose r falls from K to 4K",
            f.settling(inj),
            0.5,
            2,
        ),
        Test::below(
            "median over prompts of r_4K / r_K",
            f.settle_ratio(inj),
            0.5,
            3,
        ),
    ]
}

/// The settled state moves with the prompt and carries its answer.
fn moves(f: &Findings, inj: Injection) -> Vec<Test> {
    vec![
        Test::above(
            "median over seeds of the settled query states' distance between prompts over their residual",
            f.separation(inj, Arm::Trained),
            1.0,
            1,
        ),
        Test::above(
            "share of seeds whose readout at 4K beats their shuffled-label null's",
            f.beats_null_past(inj),
            0.5,
            2,
        ),
    ]
}

/// Each trained arm's plateau status and runs that never learned.
fn arms(mut c: Claim, f: &Findings) -> Claim {
    let n = f.setup.seeds as usize;
    for inj in INJECTIONS {
        let (cap, low) = f.undecided(inj);
        let arm = format!("looped block, {}", inj.name());
        c = c.trained(&arm, cap, n).learned(&arm, low, n);
    }
    c
}

/// The looped block's claims, ids local to chapter 5.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let s = f.setup;
    let setting = format!(
        "{} seeds; one block of {} heads (width {}, residual path, row normalisation) looped K = {} \
         times on the two-hop task ({} keys, {} context pairs), at the rate tuned on {} other seeds, \
         to a plateau (cap {} steps); residuals on {} held-out prompts; baselines: the same block at \
         its initialisation, and the same seed trained as long on shuffled labels",
        s.seeds,
        s.heads,
        s.task.d,
        s.iterations,
        s.task.vocab,
        s.task.context,
        s.tuning_seeds,
        s.schedule.steps,
        s.schedule.test
    );
    let default = "injection: the prompt added at every iteration, U_k = Z_k + X";
    let none = "injection: none, the prompt only sets Z_0";
    vec![
        arms(
            Claim::empirical(
                "looped-training-lowers-the-residual",
                "training a looped block, the architecture's constraint taken literally, lowers its scale-invariant fixed-point residual at the trained depth below its initialisation's and a shuffled-label null's",
            )
            .quotes("constraints-residual")
            .zh("训练一个循环（权重共享）块——按字面取架构约束——会使它在训练深度处的尺度不变不动点残差低于其初始化时和打乱标签零假设时的残差。")
            .evidence(Evidence::Toy)
            .setting(setting.clone())
            .default_choice(format!("{default}; residual r_K at the trained depth"))
            .core_all(lowered(f, Injection::Input, Depth::Trained))
            .under(format!("{default}; residual r_4K past the trained depth"), lowered(f, Injection::Input, Depth::Past))
            .under(format!("{none}; residual r_K"), lowered(f, Injection::None, Depth::Trained)),
            f,
        ),
        arms(
            Claim::empirical(
                "looped-iterate-settles",
                "past the depth it was trained at, the looped block's iterate settles under each prompt: its fixed-point residual keeps falling",
            )
            .zh("循环块的迭代越过训练时的深度后，在每个提示词下都会稳定下来：它的不动点残差继续下降。")
            .evidence(Evidence::Toy)
            .setting(setting.clone())
            .default_choice(default)
            .core_all(settles(f, Injection::Input))
            .under(none, settles(f, Injection::None))
            .scope(Test::above(
                "mean readout accuracy at 4K minus at K",
                f.accuracy_at(Injection::Input, Arm::Trained, s.horizon()).mean
                    - f.accuracy_at(Injection::Input, Arm::Trained, s.iterations).mean,
                -0.05,
                2,
            )),
            f,
        ),
        arms(
            Claim::empirical(
                "looped-fixed-point-moves-with-the-prompt",
                "the state a looped block settles at moves with the prompt: different prompts settle at different states, and the settled state carries the prompt's answer",
            )
            .zh("循环块稳定下来的状态随提示词而动：不同的提示词稳定在不同的状态，而稳定状态携带着该提示词的答案。")
            .evidence(Evidence::Toy)
            .setting(setting)
            .default_choice(default)
            .core_all(moves(f, Injection::Input))
            .under(none, moves(f, Injection::None)),
            f,
        ),
    ]
}

/// Adding a list of core tests at once.
trait CoreAll {
    fn core_all(self, tests: Vec<Test>) -> Claim;
}

impl CoreAll for Claim {
    fn core_all(self, tests: Vec<Test>) -> Claim {
        tests.into_iter().fold(self, Claim::core)
    }
}
