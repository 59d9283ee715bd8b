//! The numbers the section quotes and its claims, written as predictions
//! before the runs were looked at.

use super::inside::Inside;
use super::{Findings, book, setup};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed, pm, table_of};
use crate::mixer::Mixer;
use crate::stats::{Summary, mean};

const SOFTMAX: usize = 0;
const LINEAR: usize = 1;
const DELTANET: usize = 2;
const GDN: usize = 3;
const KDA: usize = 4;

/// A channel with mean decay rate above this forgets most of a write in one step (`α < e⁻¹`).
pub const FAST: f64 = 1.0;
/// A channel with mean decay rate below this keeps most of a write over the longest sequence.
pub const SLOW: f64 = 0.01;

/// Over the reported seeds of mixer `m`, one number of each [`Inside`].
fn over_seeds(f: &Findings, m: usize, field: impl Fn(&Inside) -> f64) -> Summary {
    Summary::of(&f.inside[m].iter().map(field).collect::<Vec<_>>())
}

fn slowest(r: &[f64]) -> f64 {
    r.iter().cloned().fold(f64::INFINITY, f64::min)
}

fn fastest(r: &[f64]) -> f64 {
    r.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
}

/// Mean over seeds of KDA's trained spread over its spread at initialisation.
fn spread_growth(f: &Findings) -> f64 {
    mean(
        &f.inside[KDA]
            .iter()
            .map(|i| Inside::spread(&i.decay) / Inside::spread(&i.decay_init))
            .collect::<Vec<_>>(),
    )
}

/// Mean over seeds of the trained mean decay rate over the initial one.
fn decay_ratio(f: &Findings, m: usize) -> f64 {
    mean(
        &f.inside[m]
            .iter()
            .map(|i| mean(&i.decay) / mean(&i.decay_init))
            .collect::<Vec<_>>(),
    )
}

/// `(point, mixer m − mixer n)` mean accuracy differences over both sweeps.
fn differences(f: &Findings, m: usize, n: usize) -> Vec<f64> {
    let s = setup();
    let pairs = (0..s.pairs.len()).map(|i| f.pairs_mean(m, i) - f.pairs_mean(n, i));
    let states = (0..s.states.len()).map(|i| f.state_mean(m, i) - f.state_mean(n, i));
    pairs.chain(states).collect()
}

/// The numbers the section's prose quotes.
pub fn measures() -> Vec<Measure> {
    let (s, f) = (setup(), book());
    let last = s.pairs.len() - 1;
    let shared = s
        .pairs
        .iter()
        .position(|&p| p == s.fixed_pairs)
        .unwrap_or(0);
    let mut m = vec![
        Measure::new("recall_vocab", s.vocab.to_string()),
        Measure::new("recall_d", s.d.to_string()),
        Measure::new("recall_steps", s.steps.to_string()),
        Measure::new("recall_batch", s.batch.to_string()),
        Measure::new("recall_test", s.test.to_string()),
        Measure::new("recall_seeds", s.seeds.to_string()),
        Measure::new("recall_tune_seeds", s.tune_seeds.to_string()),
        Measure::new("recall_state", s.state.to_string()),
        Measure::new("recall_fixed_pairs", s.fixed_pairs.to_string()),
        Measure::new("recall_pairs_max", s.pairs[last].to_string()),
        Measure::new("recall_state_min", s.states[0].to_string()),
        Measure::new("recall_state_max", s.states[s.states.len() - 1].to_string()),
        Measure::new("recall_grid_low", fixed(s.rates[0], 3)),
        Measure::new("recall_grid_high", fixed(s.rates[s.rates.len() - 1], 1)),
        Measure::new("recall_looked_at", super::inside::LOOKED_AT.to_string()),
        Measure::new(
            "kda_decay_slow",
            pm(over_seeds(f, KDA, |i| slowest(&i.decay)), 3),
        ),
        Measure::new(
            "kda_decay_fast",
            pm(over_seeds(f, KDA, |i| fastest(&i.decay)), 3),
        ),
        Measure::new(
            "kda_decay_init",
            pm(over_seeds(f, KDA, |i| mean(&i.decay_init)), 3),
        ),
        Measure::new(
            "kda_fast_channels",
            pm(
                over_seeds(f, KDA, |i| Inside::channels_above(&i.decay, FAST)),
                1,
            ),
        ),
        Measure::new(
            "kda_fast_channels_init",
            pm(
                over_seeds(f, KDA, |i| Inside::channels_above(&i.decay_init, FAST)),
                1,
            ),
        ),
        Measure::new(
            "kda_slow_channels",
            pm(
                over_seeds(f, KDA, |i| {
                    s.state as f64 - Inside::channels_above(&i.decay, SLOW)
                }),
                1,
            ),
        ),
        Measure::new(
            "kda_slow_channels_init",
            pm(
                over_seeds(f, KDA, |i| {
                    s.state as f64 - Inside::channels_above(&i.decay_init, SLOW)
                }),
                1,
            ),
        ),
        Measure::new("fast_rate", fixed(FAST, 0)),
        Measure::new("slow_rate", fixed(SLOW, 2)),
        Measure::new("gdn_decay", pm(over_seeds(f, GDN, |i| mean(&i.decay)), 3)),
        Measure::new(
            "gdn_decay_init",
            pm(over_seeds(f, GDN, |i| mean(&i.decay_init)), 3),
        ),
        Measure::new("kda_decay_ratio", fixed(decay_ratio(f, KDA), 2)),
        Measure::new("gdn_decay_ratio", fixed(decay_ratio(f, GDN), 2)),
    ];
    let (mut accuracy, mut weights, mut beta) = (Vec::new(), Vec::new(), Vec::new());
    for (i, mixer) in Mixer::ALL.into_iter().enumerate() {
        let n = mixer.name();
        m.push(Measure::new(format!("rate_{n}"), format!("{}", f.rate(i))));
        let acc = |key: &str, accs: &[f64]| {
            Measure::new(format!("acc_{n}_{key}"), pm(Summary::of(accs), 2))
        };
        accuracy.push((
            n.to_string(),
            vec![
                acc("fewest", &f.by_pairs[i][0]),
                acc("shared", &f.by_pairs[i][shared]),
                acc("most", &f.by_pairs[i][last]),
                acc("smallest", &f.by_state[i][0]),
            ],
        ));
        let inside = |key: &str, g: fn(&Inside) -> f64| {
            Measure::new(format!("{key}_{n}"), pm(over_seeds(f, i, g), 2))
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
    let at = |pairs: usize, state: usize| format!("{pairs} pairs, K = V = {state}");
    let columns = [
        at(s.pairs[0], s.state),
        at(s.fixed_pairs, s.state),
        at(s.pairs[last], s.state),
        at(s.fixed_pairs, s.states[0]),
    ];
    let header: Vec<&str> = ["mixer"]
        .into_iter()
        .chain(columns.iter().map(String::as_str))
        .collect();
    m.extend(table_of("recall_accuracy", &header, accuracy));
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

/// The section's claims, predictions fixed before the runs were looked at.
pub fn claims() -> Vec<Claim> {
    let (s, f) = (setup(), book());
    let last = s.pairs.len() - 1;
    let setting = format!(
        "MQAR, vocab {}, T = 4 × pairs, one mixer layer, d = {}, {} Adam steps of {} sequences; \
         {} seeds per point, rates tuned per mixer on {} other seeds; pairs {:?} at K = V = {}, \
         K = V in {:?} at {} pairs",
        s.vocab,
        s.d,
        s.steps,
        s.batch,
        s.seeds,
        s.tune_seeds,
        s.pairs,
        s.state,
        s.states,
        s.fixed_pairs
    );
    let at_most = |m: usize| f.pairs_mean(m, last);
    let recurrent_over_softmax = (LINEAR..=KDA)
        .flat_map(|m| differences(f, m, SOFTMAX))
        .fold(f64::NEG_INFINITY, f64::max);
    let softmax_floor = (0..s.pairs.len())
        .map(|i| f.pairs_mean(SOFTMAX, i))
        .chain((0..s.states.len()).map(|i| f.state_mean(SOFTMAX, i)))
        .fold(f64::INFINITY, f64::min);
    let shared = s
        .pairs
        .iter()
        .position(|&p| p == s.fixed_pairs)
        .unwrap_or(0);
    let beta_gap = |m: usize| {
        mean(
            &f.inside[m]
                .iter()
                .map(|i| i.beta_values - i.beta_other)
                .collect::<Vec<_>>(),
        )
    };
    let hit_gap = |m: usize| {
        mean(
            &f.inside[m]
                .iter()
                .map(|i| i.hit_weights - i.hit_similarity)
                .collect::<Vec<_>>(),
        )
    };
    vec![
        Claim::empirical(
            "learned-delta-recalls-more",
            "the delta correction lets a fixed-size state hold more associations than additive writes",
        )
        .evidence(Evidence::Toy)
        .core(Test::above(
            format!("DeltaNet − linear mean accuracy at {} pairs", s.pairs[last]),
            at_most(DELTANET) - at_most(LINEAR),
            0.05,
            2,
        ))
        .scope(Test::above(
            "smallest DeltaNet − linear difference over every point",
            differences(f, DELTANET, LINEAR).into_iter().fold(f64::INFINITY, f64::min),
            -0.05,
            2,
        ))
        .setting(setting.clone()),
        Claim::empirical(
            "learned-softmax-ceiling",
            "softmax attention, whose cache grows with T, is the ceiling of recall",
        )
        .evidence(Evidence::Toy)
        .core(Test::below(
            "largest margin of a recurrent mixer over softmax at any point",
            recurrent_over_softmax,
            0.05,
            2,
        ))
        .scope(Test::above("softmax's lowest mean accuracy", softmax_floor, 0.9, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "learned-decay-retains",
            "attention is a learned operator for information flow: where nothing must be forgotten, the learned gates keep",
        )
        .evidence(Evidence::Toy)
        .core(Test::below("KDA's trained mean decay rate / at initialisation", decay_ratio(f, KDA), 1.0, 2))
        .core(Test::near(
            format!("KDA − DeltaNet mean accuracy at {} pairs", s.fixed_pairs),
            f.pairs_mean(KDA, shared) - f.pairs_mean(DELTANET, shared),
            0.0,
            0.1,
            2,
        ))
        .scope(Test::below("Gated DeltaNet's trained decay rate / at initialisation", decay_ratio(f, GDN), 1.0, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "learned-channels-spread",
            "per-channel decay lets channels specialise into slow and fast memories",
        )
        .evidence(Evidence::Toy)
        .core(Test::above("KDA's fastest/slowest channel ratio, trained over initial", spread_growth(f), 1.5, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "learned-beta-selective",
            "the learned write strength β decides what is written",
        )
        .evidence(Evidence::Toy)
        .core(Test::above("DeltaNet's mean β at value positions − elsewhere", beta_gap(DELTANET), 0.1, 2))
        .scope(Test::above("KDA's mean β at value positions − elsewhere", beta_gap(KDA), 0.1, 2))
        .setting(setting.clone()),
        Claim::empirical(
            "learned-weights-not-similarity",
            "a trained delta layer does not weigh tokens by similarity alone",
        )
        .evidence(Evidence::Toy)
        // the same bound as the random-weight claim `weights-are-not-similarities`
        .core(Test::below("DeltaNet: Spearman ρ of effective weight vs s q̂·k̂ at query rows", mean(&f.inside[DELTANET].iter().map(|i| i.rho).collect::<Vec<_>>()), 0.5, 2))
        .core(Test::above("DeltaNet: answer hit rate of effective weights − of similarities", hit_gap(DELTANET), 0.0, 2))
        .setting(setting),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the section's prose says in words, checked on the book's findings.
    #[test]
    fn the_prose_describes_the_findings() {
        let (s, f) = (setup(), book());
        let last = s.pairs.len() - 1;
        // softmax is the ceiling at every point
        assert!(differences(f, LINEAR, SOFTMAX).iter().all(|&d| d <= 1e-12));
        for m in DELTANET..=KDA {
            assert!(differences(f, m, SOFTMAX).iter().all(|&d| d <= 1e-12));
            // at this budget linear attention recalls more than every delta mixer at the most pairs
            assert!(f.pairs_mean(LINEAR, last) > f.pairs_mean(m, last));
            // and every recurrent mixer is near one at the widest state
            assert!(f.state_mean(m, s.states.len() - 1) > 0.8);
        }
        // KDA is the lowest of the delta mixers at the shared point
        let shared = s.pairs.iter().position(|&p| p == s.fixed_pairs).unwrap();
        assert!(
            f.pairs_mean(KDA, shared)
                < f.pairs_mean(DELTANET, shared)
                    .min(f.pairs_mean(GDN, shared))
        );
        // KDA splits into slow and fast channels; Gated DeltaNet's one rate goes to ≈ 0
        for i in &f.inside[KDA] {
            assert!(Inside::channels_above(&i.decay, FAST) >= 1.0);
            assert!(s.state as f64 - Inside::channels_above(&i.decay, SLOW) >= 1.0);
        }
        assert!(over_seeds(f, GDN, |i| i.decay[0]).mean < 0.01);
        // β writes harder at the value positions, on average over the seeds
        for m in DELTANET..=KDA {
            assert!(
                over_seeds(f, m, |i| i.beta_values).mean > over_seeds(f, m, |i| i.beta_other).mean
            );
        }
        // trained effective weights still track similarity
        assert!(over_seeds(f, DELTANET, |i| i.rho).mean > 0.5);
    }
}
