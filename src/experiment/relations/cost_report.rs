//! The numbers chapter 4 quotes from its relations-cost experiment
//! ([`super::cost`]): its sizes, the rates tuned, and per `k` the steps each
//! arm needs.

use super::cost::{Arm, book};
use crate::measure::{Measure, fixed, grid, of_total, share_of, steps, table_of};

/// The numbers chapter 4 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let s = f.setup;
    let mut m = vec![
        Measure::new("cost_d", s.d.to_string()),
        Measure::new("cost_vocab", s.vocab.to_string()),
        Measure::new("cost_context", s.context.to_string()),
        Measure::new("cost_seeds", s.seeds.to_string()),
        Measure::new("cost_tuning_seeds", s.tuning_seeds.to_string()),
        Measure::new(
            "cost_tuning_range",
            format!("{}–{}", s.tuning_seed, s.tuning_seed + s.tuning_seeds - 1),
        ),
        Measure::new("cost_budget", s.schedule.steps.to_string()),
        Measure::new("cost_min_steps", s.min_steps.to_string()),
        Measure::new(
            "cost_capped",
            of_total(
                f.cells
                    .iter()
                    .flat_map(|c| &c.capped)
                    .filter(|&&x| x)
                    .count(),
                f.cells.iter().map(|c| c.capped.len()).sum(),
                "runs",
            ),
        ),
        Measure::new("cost_pairs", (s.ks[s.ks.len() - 1] * s.vocab).to_string()),
        Measure::new("cost_threshold", fixed(s.schedule.threshold, 1)),
        Measure::new("cost_lrs", grid(s.lrs)),
        Measure::new(
            "cost_ks",
            s.ks.map(|k| k.to_string()).join(", ").to_string(),
        ),
    ];
    let [own, diff] = f.growth_ci();
    m.push(Measure::new(
        "cost_growth_learned",
        format!("{:.0}", f.growth(Arm::Learned)),
    ));
    m.push(Measure::new(
        "cost_growth_given",
        format!("{:.0}", f.growth(Arm::Given)),
    ));
    m.push(Measure::new(
        "cost_growth_ci",
        format!("[{:.0}, {:.0}]", own.0, own.1),
    ));
    m.push(Measure::new(
        "cost_diff_ci",
        format!("[{:.0}, {:.0}]", diff.0, diff.1),
    ));
    // per k: each arm's rate and median steps, and the learned head's share
    // of seeds that reached the threshold
    let rows =
        s.ks.iter()
            .map(|&k| {
                let mut cells: Vec<Measure> = Arm::ALL
                    .iter()
                    .map(|&arm| {
                        Measure::new(
                            format!("cost_lr_{}_k{k}", arm.name()),
                            f.cell(arm, k).lr.to_string(),
                        )
                    })
                    .collect();
                for arm in Arm::ALL {
                    let c = f.cell(arm, k);
                    let (lo, hi) = c.quartiles();
                    let text = |x| steps(x, s.schedule.steps);
                    cells.push(Measure::new(
                        format!("cost_steps_{}_k{k}", arm.name()),
                        format!("{} ({}–{})", text(c.median()), text(lo), text(hi)),
                    ));
                }
                cells.push(Measure::new(
                    format!("cost_reached_learned_k{k}"),
                    fixed(f.cell(Arm::Learned, k).reached(s), 2),
                ));
                (k.to_string(), cells)
            })
            .collect();
    let header = [
        "k",
        "rate, learned head",
        "rate, given structure",
        "learned head: median steps (25–75%)",
        "given structure: median steps (25–75%)",
        "learned head: share of seeds reaching it",
    ];
    m.extend(table_of("cost_table", &header, rows));
    let given = s.ks.iter().map(|&k| f.cell(Arm::Given, k).reached(s));
    m.push(Measure::new(
        "cost_reached_given",
        share_of(given.fold(1.0, f64::min), "seeds"),
    ));
    let edges = [s.lrs[0], s.lrs[s.lrs.len() - 1]];
    let at_edge: Vec<String> = f
        .cells
        .iter()
        .filter(|c| edges.contains(&c.lr))
        .map(|c| format!("{} k = {} at {}", c.arm.name(), c.k, c.lr))
        .collect();
    m.push(Measure::new(
        "cost_edge",
        if at_edge.is_empty() {
            "none".to_string()
        } else {
            at_edge.join("; ")
        },
    ));
    m
}
