//! Chapter 6: what it costs to learn a relation from scratch — steps to the
//! accuracy threshold for untied, tied, mimetic and identity query–key
//! forms, on a symmetric and a directional recall task, over many seeds,
//! each form at its own tuned learning rate.

use crate::measure::{Measure, fixed, pm, table_of};
use crate::parallel;
use crate::train::{Plateau, Qk, Relation, Schedule};

use super::arm::{Arm, Variant, run};
use super::tuning::{Tuning, tune};

/// Sizes and budgets of the chapter's experiments.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// Token width `d` (= `d_k` = `d_v`).
    pub d: usize,
    /// Keys and labels.
    pub vocab: usize,
    /// Context length.
    pub context: usize,
    /// The schedule of a tuning run: its `steps` the same fixed budget for
    /// every arm, its `lr` unused (each run is at the rate tried or tuned).
    pub schedule: Schedule,
    /// Step cap of a reported run, which trains until `plateau` holds.
    pub cap: usize,
    pub plateau: Plateau,
    /// Measurement seeds `0..seeds`.
    pub seeds: u64,
    /// Tuning seeds `tuning_seed..tuning_seed + tuning_seeds`, disjoint from the measurement seeds.
    pub tuning_seeds: u64,
    /// Fixed training-set sizes of the data sweep (besides fresh data every step).
    pub examples: [usize; 2],
    /// The learning-rate grid every arm is tuned on.
    pub lrs: [f64; 5],
    /// First tuning seed.
    pub tuning_seed: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    d: 12,
    vocab: 12,
    context: 5,
    schedule: Schedule {
        steps: 240,
        batch: 16,
        lr: 0.0,
        eval_every: 10,
        test: 96,
        threshold: 0.8,
    },
    cap: 720,
    plateau: Plateau {
        min_steps: 240,
        ..Plateau::BOOK
    },
    seeds: 20,
    tuning_seeds: 3,
    examples: [64, 256],
    lrs: [0.003, 0.01, 0.03, 0.1, 0.3],
    tuning_seed: 1000,
};

/// The tuning and every arm.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    pub tuning: Vec<Tuning>,
    pub arms: Vec<Arm>,
}

impl Findings {
    /// Tune, then run every arm at `setup`.
    pub fn run(setup: Setup) -> Findings {
        let pairs: Vec<(Relation, Qk)> = Relation::ALL
            .iter()
            .flat_map(|&r| Qk::ALL.iter().map(move |&q| (r, q)))
            .collect();
        let tuning = tune(setup, &pairs);
        let lr = |r: Relation, q: Qk| {
            tuning
                .iter()
                .find(|t| t.relation == r && t.qk == q)
                .expect("tuned")
                .lr
        };
        let mut arms: Vec<(Relation, Qk, Variant)> =
            pairs.iter().map(|&(r, q)| (r, q, Variant::Clean)).collect();
        for n in setup.examples {
            arms.extend(
                Qk::ALL
                    .iter()
                    .map(|&q| (Relation::Match, q, Variant::Examples(n))),
            );
        }
        arms.extend(
            Qk::ALL
                .iter()
                .map(|&q| (Relation::Match, q, Variant::TwoLayer)),
        );
        let jobs: Vec<(Relation, Qk, Variant, u64)> = arms
            .iter()
            .flat_map(|&(r, q, v)| (0..setup.seeds).map(move |s| (r, q, v, s)))
            .collect();
        let mut runs = parallel::map(0..jobs.len() as u64, |i| {
            let (r, q, v, s) = jobs[i as usize];
            run(setup, r, q, v, lr(r, q), s)
        })
        .into_iter();
        let arms = arms
            .iter()
            .map(|&(relation, qk, variant)| Arm {
                relation,
                qk,
                variant,
                lr: lr(relation, qk),
                runs: runs.by_ref().take(setup.seeds as usize).collect(),
            })
            .collect();
        Findings {
            setup,
            tuning,
            arms,
        }
    }

    /// The arm of a relation, parameterisation and variant.
    pub fn arm(&self, relation: Relation, qk: Qk, variant: Variant) -> &Arm {
        self.arms
            .iter()
            .find(|a| a.relation == relation && a.qk == qk && a.variant == variant)
            .expect("every arm is run")
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}

/// Steps as text: `"> cap"` beyond the cap.
fn steps_text(setup: Setup, s: f64) -> String {
    if s > setup.cap as f64 {
        format!("> {}", setup.cap)
    } else {
        format!("{s:.0}")
    }
}

/// Each tuned arm's chosen rate, `"match: untied 0.03, …; successor: …"`.
fn chosen_rates(f: &Findings) -> String {
    Relation::ALL
        .iter()
        .map(|&r| {
            let arms: Vec<String> = f
                .tuning
                .iter()
                .filter(|t| t.relation == r)
                .map(|t| format!("{} {}", t.qk.name(), t.lr))
                .collect();
            format!("{}: {}", r.name(), arms.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The tuned arms whose chosen rate is at an edge of the grid, and whether
/// they reach the threshold at any rate of it.
fn edge_rates(f: &Findings) -> String {
    let edges = [f.setup.lrs[0], f.setup.lrs[f.setup.lrs.len() - 1]];
    let at_edge: Vec<String> = f
        .tuning
        .iter()
        .filter(|t| edges.contains(&t.lr))
        .map(|t| {
            let learns = t.grid.iter().any(|g| g.1 <= f.setup.schedule.steps as f64);
            let how = if learns {
                "reaches the threshold on the grid: the grid should be extended"
            } else {
                "reaches the threshold at no rate of the grid, so the accuracy tie-break chose"
            };
            format!("{} {} at {} ({how})", t.relation.name(), t.qk.name(), t.lr)
        })
        .collect();
    match at_edge.is_empty() {
        true => "none".into(),
        false => at_edge.join("; "),
    }
}

/// The numbers chapter 6 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let s = f.setup;
    let mut m = vec![
        Measure::new("seeds", s.seeds.to_string()),
        Measure::new("tuning_seeds", s.tuning_seeds.to_string()),
        Measure::new("tuning_first", s.tuning_seed.to_string()),
        Measure::new(
            "tuning_last",
            (s.tuning_seed + s.tuning_seeds - 1).to_string(),
        ),
        Measure::new("d", s.d.to_string()),
        Measure::new("vocab", s.vocab.to_string()),
        Measure::new("context", s.context.to_string()),
        Measure::new("steps", s.schedule.steps.to_string()),
        Measure::new("cap", s.cap.to_string()),
        Measure::new("min_steps", s.plateau.min_steps.to_string()),
        Measure::new(
            "capped",
            f.arms.iter().map(Arm::capped).sum::<usize>().to_string(),
        ),
        Measure::new("runs", (f.arms.len() as u64 * s.seeds).to_string()),
        Measure::new("batch", s.schedule.batch.to_string()),
        Measure::new("eval_every", s.schedule.eval_every.to_string()),
        Measure::new("test", s.schedule.test.to_string()),
        Measure::new("threshold", fixed(s.schedule.threshold, 2)),
        Measure::new("chance", fixed(1.0 / s.vocab as f64, 3)),
        Measure::new(
            "lrs",
            s.lrs
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        ),
        Measure::new("chosen_lrs", chosen_rates(f)),
        Measure::new("edge_lrs", edge_rates(f)),
        Measure::new("n_small", s.examples[0].to_string()),
        Measure::new("n_large", s.examples[1].to_string()),
    ];
    let mut geometry = Vec::new();
    for a in &f.arms {
        let key = format!("{}_{}_{}", a.relation.name(), a.qk.name(), a.variant.name());
        let (med, lo, hi) = a.median_steps(s);
        m.push(Measure::new(format!("steps_{key}"), steps_text(s, med)));
        m.push(Measure::new(
            format!("ci_{key}"),
            format!("[{}, {}]", steps_text(s, lo), steps_text(s, hi)),
        ));
        m.push(Measure::new(
            format!("reached_{key}"),
            format!("{}/{}", a.reached(), a.runs.len()),
        ));
        m.push(Measure::new(format!("acc_{key}"), pm(a.accuracy(), 2)));
        m.push(Measure::new(format!("lr_{key}"), a.lr.to_string()));
        m.push(Measure::new(
            format!("capped_{key}"),
            format!("{}/{}", a.capped(), a.runs.len()),
        ));
        if a.variant == Variant::Clean {
            let rho = a.curve(|r| &r.rho);
            let share = a.curve(|r| &r.symmetric_share);
            let (first, last) = (0, rho.len() - 1);
            let cells = vec![
                Measure::new(format!("rho0_{key}"), fixed(rho[first].0, 2)),
                Measure::new(format!("rho_{key}"), fixed(rho[last].0, 2)),
                Measure::new(format!("share0_{key}"), fixed(share[first].0, 2)),
                Measure::new(format!("share_{key}"), fixed(share[last].0, 2)),
            ];
            geometry.push((format!("{}, {}", a.relation.name(), a.qk.name()), cells));
        }
    }
    let header = [
        "task, query–key form",
        "ρ(raw, score) at init",
        "ρ trained",
        "symmetric share at init",
        "share trained",
    ];
    m.extend(table_of("geometry", &header, geometry));
    m
}
