//! The numbers the trained-absorption section quotes.

use super::{BOOK, Findings, KEYS, TIED, UNTIED, architectures, book};
use crate::measure::{Measure, fixed, grid, of_total, pm, table};

/// The edges of the grid, as a table: which arms the edge rule extended,
/// the rates it added and where their chosen rate ended (or "none").
fn edges(f: &Findings) -> String {
    let names = architectures(f.setup.task);
    let mut rows = Vec::new();
    for (a, t) in f.tuning.iter().enumerate() {
        let added: Vec<String> = t
            .grid
            .iter()
            .filter(|r| !f.setup.lrs.contains(&r.lr))
            .map(|r| r.lr.to_string())
            .collect();
        if t.at_edge() || !added.is_empty() {
            let chosen = match t.at_edge() {
                true => format!("{} (still at the edge)", t.lr),
                false => t.lr.to_string(),
            };
            rows.push(vec![names[a].0.to_string(), added.join(", "), chosen]);
        }
    }
    match rows.is_empty() {
        true => "none".into(),
        false => table(&["architecture", "rates added", "rate chosen"], &rows),
    }
}

/// The arms that reach the threshold at no rate tried (for them the
/// accuracy tie-break chose), or "none".
fn by_accuracy(f: &Findings) -> String {
    let names = architectures(f.setup.task);
    let out: Vec<&str> = f
        .tuning
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.reaches(f.setup.schedule))
        .map(|(a, _)| names[a].0)
        .collect();
    match out.is_empty() {
        true => "none".into(),
        false => out.join(", "),
    }
}

/// The numbers chapter 5 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (task, schedule, plateau) = (BOOK.task, BOOK.schedule, BOOK.plateau);
    let mut m = vec![
        Measure::new("train_seeds", BOOK.seeds.to_string()),
        Measure::new("train_cap", schedule.steps.to_string()),
        Measure::new("train_budget", BOOK.budget.to_string()),
        Measure::new("train_min_steps", plateau.min_steps.to_string()),
        Measure::new("train_tolerance", fixed(plateau.tolerance, 2)),
        Measure::new("train_eval_every", schedule.eval_every.to_string()),
        Measure::new("train_test", schedule.test.to_string()),
        Measure::new("train_batch", schedule.batch.to_string()),
        Measure::new("train_vocab", task.vocab.to_string()),
        Measure::new("train_context", task.context.to_string()),
        Measure::new("train_chance", fixed(1.0 / task.vocab as f64, 3)),
        Measure::new("train_early", BOOK.early.to_string()),
        Measure::new("train_threshold", schedule.threshold.to_string()),
        Measure::new("tuning_seeds", BOOK.tuning_seeds.to_string()),
        Measure::new("tuning_first", BOOK.tuning_seed.to_string()),
        Measure::new(
            "tuning_last",
            (BOOK.tuning_seed + BOOK.tuning_seeds - 1).to_string(),
        ),
        Measure::new("lrs", grid(BOOK.lrs)),
        Measure::new("edge_lrs", edges(f)),
        Measure::new("tuned_by_accuracy", by_accuracy(f)),
        Measure::new("solved", BOOK.solved.to_string()),
        Measure::new("null_seeds", BOOK.null_seeds.to_string()),
    ];
    for (a, key) in KEYS.iter().enumerate() {
        m.push(Measure::new(
            format!("lr_{key}"),
            f.tuning[a].lr.to_string(),
        ));
        m.push(Measure::new(
            format!("trained_{key}"),
            pm(f.accuracy(a, BOOK.early), 2),
        ));
        m.push(Measure::new(
            format!("trained_{key}_budget"),
            pm(f.accuracy(a, BOOK.budget), 2),
        ));
        m.push(Measure::new(
            format!("trained_{key}_final"),
            pm(f.final_accuracy(a), 2),
        ));
        m.push(Measure::new(
            format!("steps_{key}"),
            pm(f.trained_steps(a), 0),
        ));
        m.push(Measure::new(
            format!("capped_{key}"),
            format!("{}/{}", f.capped(a), BOOK.seeds),
        ));
    }
    m.extend([
        Measure::new(
            "trained_tied_solved",
            of_total(f.solved(TIED), TIED.len() * BOOK.seeds as usize, "runs"),
        ),
        Measure::new("trained_untied_solved", f.solved([UNTIED]).to_string()),
        Measure::new("gap", fixed(f.gap(None), 2)),
        Measure::new("gap_budget", fixed(f.gap(Some(BOOK.budget)), 2)),
    ]);
    m
}
