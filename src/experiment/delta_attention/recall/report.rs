//! The numbers the section quotes.

use super::inside::Inside;
use super::tally::*;
use super::{Variant, book, setup};
use crate::experiment::delta_attention::arm::title;
use crate::measure::{Measure, fixed, of_total, pm, table_of};
use crate::mixer::Mixer;
use crate::stats::{Summary, mean};

/// The mixers with runs stalled near chance: `Gated DeltaNet or KDA`.
fn stalled_mixers(f: &crate::experiment::delta_attention::recall::Findings) -> String {
    let names: Vec<&str> = stalled(f).iter().map(|s| title(s.0)).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// The numbers the section's prose quotes.
pub fn measures() -> Vec<Measure> {
    let (s, f) = (setup(), book());
    let last = s.pairs[s.pairs.len() - 1];
    let mut m = vec![
        Measure::new("recall_vocab", s.vocab.to_string()),
        Measure::new("recall_d", s.d.to_string()),
        Measure::new("recall_cap", s.schedule.steps.to_string()),
        Measure::new("recall_min_steps", s.min_steps.to_string()),
        Measure::new("recall_every", s.every.to_string()),
        Measure::new("recall_tune_steps", s.tune_steps.to_string()),
        Measure::new("recall_batch", s.schedule.batch.to_string()),
        Measure::new("recall_test", s.schedule.test.to_string()),
        Measure::new("recall_seeds", s.seeds.to_string()),
        Measure::new("recall_tune_seeds", s.tune_seeds.to_string()),
        Measure::new("recall_state", s.state.to_string()),
        Measure::new("recall_fixed_pairs", s.fixed_pairs.to_string()),
        Measure::new("recall_pairs_min", s.pairs[0].to_string()),
        Measure::new("recall_pairs_max", last.to_string()),
        Measure::new("recall_state_min", s.states[0].to_string()),
        Measure::new("recall_state_max", s.states[s.states.len() - 1].to_string()),
        Measure::new("recall_grid_low", fixed(s.rates[0], 2)),
        Measure::new("recall_grid_high", fixed(s.rates[s.rates.len() - 1], 1)),
        Measure::new("recall_horizon", s.horizon().to_string()),
        Measure::new("recall_looked_at", super::inside::LOOKED_AT.to_string()),
        Measure::new("kda_log_ratio", fixed(log_ratio(f, BOOK, KDA), 2)),
        Measure::new("kda_log_ratio_near", fixed(log_ratio(f, NEAR, KDA), 2)),
        Measure::new("gdn_log_ratio", fixed(log_ratio(f, BOOK, GDN), 2)),
        Measure::new("kda_spread_growth", fixed(spread_growth(f, BOOK), 2)),
        Measure::new("kda_spread_growth_near", fixed(spread_growth(f, NEAR), 2)),
        Measure::new(
            "kda_spread_init",
            pm(
                over_seeds(f, BOOK, KDA, |i| Inside::log_spread(&i.decay_init)),
                2,
            ),
        ),
        Measure::new(
            "kda_spread",
            pm(
                over_seeds(f, BOOK, KDA, |i| Inside::log_spread(&i.decay)),
                2,
            ),
        ),
    ];
    let (narrow, wide) = (s.states[0], s.states[s.states.len() - 1]);
    m.extend([
        Measure::new("delta_lead", fixed(delta_lead(f), 2)),
        Measure::new("near_gap", fixed(near_gap(f), 2)),
        Measure::new("book_gap", fixed(gated_gap(f, BOOK), 2)),
        Measure::new(
            "widest_min",
            fixed(min(recurrent_at(f, s.fixed_pairs, wide)), 2),
        ),
        Measure::new(
            "narrowest_max",
            fixed(max(recurrent_at(f, s.fixed_pairs, narrow)), 2),
        ),
        Measure::new(
            "softmax_narrowest",
            fixed(f.mean(BOOK, SOFTMAX, s.fixed_pairs, narrow), 2),
        ),
        Measure::new("chance", fixed(2.0 / s.vocab as f64, 2)),
        Measure::new(
            "linear_over_deltanet",
            fixed(gap(f, BOOK, LINEAR, DELTANET, last), 2),
        ),
        Measure::new(
            "linear_over_deltanet_norm",
            fixed(gap(f, NORM, LINEAR, DELTANET, last), 2),
        ),
        Measure::new(
            "stalled",
            stalled(f).iter().map(|s| s.1).sum::<usize>().to_string(),
        ),
        Measure::new("stalled_mixers", stalled_mixers(f)),
        Measure::new("near_chance", fixed(NEAR_CHANCE, 2)),
        Measure::new(
            "capped_all",
            of_total(
                f.runs.iter().filter(|r| r.stop.capped()).count(),
                f.runs.len(),
                "runs",
            ),
        ),
    ]);
    for (v, key) in [(BOOK, "fla"), (NEAR, "near")] {
        for (mx, n) in [(GDN, "gdn"), (KDA, "kda")] {
            m.push(Measure::new(
                format!("survival_init_{n}_{key}"),
                pm(over_seeds(f, v, mx, |i| i.survival_init), 2),
            ));
            m.push(Measure::new(
                format!("survival_{n}_{key}"),
                pm(over_seeds(f, v, mx, |i| i.survival), 2),
            ));
        }
    }
    let (mut accuracy, mut variants, mut weights, mut beta, mut plateau) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let acc = |v: Variant, mx: usize, p: usize, k: usize| {
        let key = format!("acc_v{}_{}_{p}_{k}", v.index(), Mixer::ALL[mx].name());
        Measure::new(key, pm(Summary::of(&f.accs(v, mx, p, k)), 2))
    };
    for (i, mixer) in Mixer::ALL.into_iter().enumerate() {
        let n = mixer.name();
        m.push(Measure::new(format!("rate_{n}"), rate(f.rate(BOOK, i))));
        let points = s.points(BOOK);
        accuracy.push((
            n.to_string(),
            points.iter().map(|&(p, k)| acc(BOOK, i, p, k)).collect(),
        ));
        let mut cells = Vec::new();
        for v in [NEAR, NORM] {
            for &p in &s.variant_pairs {
                cells.push(match v.mixers().contains(&i) {
                    true => acc(v, i, p, s.state),
                    false => Measure::new(format!("acc_v{}_{n}_{p}_none", v.index()), "–"),
                });
            }
        }
        variants.push((n.to_string(), cells));
        for v in Variant::ALL {
            if v.mixers().contains(&i) {
                let (capped, runs) = f.capped(v, i);
                let stops: Vec<f64> = f
                    .runs
                    .iter()
                    .filter(|r| r.variant == v && r.mixer == i)
                    .map(|r| r.curve.last().map_or(0.0, |c| c.0 as f64))
                    .collect();
                plateau.push((
                    arm(v, i),
                    vec![
                        Measure::new(
                            format!("plateau_rate_v{}_{n}", v.index()),
                            rate(f.rate(v, i)),
                        ),
                        Measure::new(
                            format!("plateau_capped_v{}_{n}", v.index()),
                            of_total(capped, runs, "runs"),
                        ),
                        Measure::new(
                            format!("plateau_stop_v{}_{n}", v.index()),
                            fixed(mean(&stops), 0),
                        ),
                    ],
                ));
            }
        }
        let inside = |key: &str, g: fn(&Inside) -> f64| {
            Measure::new(format!("{key}_{n}"), pm(over_seeds(f, BOOK, i, g), 2))
        };
        if mixer.writes_delta() {
            let cells = vec![
                inside("beta_values", |x| x.beta_values),
                inside("beta_other", |x| x.beta_other),
            ];
            beta.push((n.to_string(), cells));
        }
        if mixer != Mixer::Softmax {
            let cells = vec![
                inside("rho", |x| x.rho),
                inside("hit_weights", |x| x.hit_weights),
                inside("hit_similarity", |x| x.hit_similarity),
            ];
            weights.push((n.to_string(), cells));
        }
    }
    let columns: Vec<String> = s
        .points(BOOK)
        .iter()
        .map(|&(p, k)| format!("{p} pairs, K = V = {k}"))
        .collect();
    let header: Vec<&str> = ["mixer"]
        .into_iter()
        .chain(columns.iter().map(String::as_str))
        .collect();
    m.extend(table_of("recall_accuracy", &header, accuracy));
    let columns: Vec<String> = ["gates near 1", "output RMSNorm"]
        .iter()
        .flat_map(|v| {
            s.variant_pairs
                .iter()
                .map(move |p| format!("{v}, {p} pairs"))
        })
        .collect();
    let header: Vec<&str> = ["mixer"]
        .into_iter()
        .chain(columns.iter().map(String::as_str))
        .collect();
    m.extend(table_of("recall_variants", &header, variants));
    m.extend(table_of(
        "recall_plateau",
        &["arm", "rate", "runs that hit the cap", "mean steps trained"],
        plateau,
    ));
    let header = [
        "mixer",
        "ρ(weight, similarity)",
        "largest weight on the answer",
        "largest similarity on the answer",
    ];
    m.extend(table_of("recall_weights", &header, weights));
    m.extend(table_of(
        "recall_beta",
        &["mixer", "β at the value positions", "β elsewhere"],
        beta,
    ));
    m
}
