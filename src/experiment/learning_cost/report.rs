//! The numbers chapter 6 quotes from its experiment ([`super::steps`]):
//! its sizes, the rates tuned, and per arm the steps to threshold and the
//! geometry at the start and the end of training.

use super::arm::{Arm, Variant};
use super::steps::{Findings, book};
use crate::measure::{Measure, fixed, grid, pm, steps, table_of};
use crate::train::{Qk, Relation};

/// Each tuned arm's chosen rate: a table with a row per task and a column
/// per query–key form.
fn chosen_rates(f: &Findings) -> Vec<Measure> {
    let forms: Vec<Qk> = f
        .tuning
        .iter()
        .filter(|t| t.relation == Relation::ALL[0])
        .map(|t| t.qk)
        .collect();
    let rows = Relation::ALL
        .iter()
        .map(|&r| {
            let cells = forms
                .iter()
                .map(|&qk| {
                    let t = f
                        .tuning
                        .iter()
                        .find(|t| t.relation == r && t.qk == qk)
                        .expect("every task tunes the same forms");
                    Measure::new(
                        format!("chosen_lr_{}_{}", r.name(), qk.name()),
                        t.lr.to_string(),
                    )
                })
                .collect();
            (r.name().to_string(), cells)
        })
        .collect();
    let mut header = vec!["task"];
    header.extend(forms.iter().map(|qk| qk.name()));
    table_of("chosen_lrs", &header, rows)
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
        Measure::new("lrs", grid(s.lrs)),
        Measure::new("edge_lrs", edge_rates(f)),
        Measure::new("n_small", s.examples[0].to_string()),
        Measure::new("n_large", s.examples[1].to_string()),
    ];
    let mut geometry = Vec::new();
    for a in &f.arms {
        let key = format!("{}_{}_{}", a.relation.name(), a.qk.name(), a.variant.name());
        let (med, lo, hi) = a.median_steps(s);
        m.push(Measure::new(format!("steps_{key}"), steps(med, s.cap)));
        m.push(Measure::new(
            format!("ci_{key}"),
            format!("[{}, {}]", steps(lo, s.cap), steps(hi, s.cap)),
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
    m.extend(chosen_rates(f));
    m
}
