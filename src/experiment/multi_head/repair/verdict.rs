//! Self-repair as chapters 3 and 5 quote it, for both models from one
//! experiment: the measures (keys `lm_…` for the encoder, `dr_…` for the
//! decoder), the choices on `ch03.trained-later-layers-correct` and
//! `ch05.trained-absorbs`, and the replications of McGrath et al. 2023.

use super::{CHANGES, Findings, HEAD_ZEROED, LAYER_MEAN, LAYER_RESAMPLE, Read, book};
use crate::claim::{Claim, Test};
use crate::measure::{Measure, fixed, share_of, table_of};
use crate::pretrained::corpus::Model;
use crate::pretrained::transformer::Architecture;
use crate::stats::median;

/// The decoder the choices rest on, as their names cite it.
pub const MODEL: &str = "SmolLM2-135M-Instruct";

/// How the encoder's `κ` is read: `(name, read)`, the default first.
pub const MINILM_READS: [(&str, Read); 4] = [
    ("LayerNorm frozen, all last states", |k| k.states),
    ("LayerNorm recomputed on the direct path", |k| {
        k.recomputed.expect("the encoder recomputes its LayerNorms")
    }),
    ("target: the pooled embedding's turn g(Δ)", |k| k.output),
    ("norm ratio ‖Δ_tot‖/‖Δ_dir‖ in place of κ", |k| {
        k.ratio
    }),
];

/// How the decoder's `κ` is read: `(name, read)`, the default first.
pub const SMOLLM2_READS: [(&str, Read); 4] = [
    ("final RMSNorm frozen, every normed last state", |k| {
        k.states
    }),
    ("logit of each position's clean top-1 token", |k| k.output),
    ("norm ratio ‖Δ_tot‖/‖Δ_dir‖ in place of κ", |k| {
        k.ratio
    }),
    ("the first token's state left out", |k| k.later),
];

/// The readings of `arch`.
pub fn reads(arch: Architecture) -> &'static [(&'static str, Read)] {
    match arch {
        Architecture::Minilm => &MINILM_READS,
        Architecture::Smollm2 => &SMOLLM2_READS,
    }
}

/// The encoder's head changes (the first four of [`CHANGES`]).
const HEAD_CHANGES: usize = 4;

/// The encoder's choices around the change `default` (an index of
/// [`CHANGES`]): `(name, change, read)`, the default first, then each other
/// head change, then each other reading.
pub fn choices(default: usize) -> Vec<(String, usize, Read)> {
    let r = &MINILM_READS;
    let mut out = vec![(format!("{}, {}", CHANGES[default], r[0].0), default, r[0].1)];
    for c in (0..HEAD_CHANGES).filter(|&c| c != default) {
        out.push((CHANGES[c].to_string(), c, r[0].1));
    }
    for (name, read) in &r[1..] {
        out.push((name.to_string(), default, *read));
    }
    out
}

/// The decoder's choices on the claim: `(name, change, read)`.
pub fn decoder_choices() -> Vec<(String, usize, Read)> {
    let r = &SMOLLM2_READS;
    vec![
        (
            format!("decoder {MODEL}: head zeroed, {}", r[0].0),
            0,
            r[0].1,
        ),
        (format!("decoder {MODEL}: head mean-ablated"), 1, r[0].1),
        (
            format!("decoder {MODEL}: head zeroed, {}", r[1].0),
            0,
            r[1].1,
        ),
    ]
}

/// The two core tests of repair against its null for one choice, the same
/// bounds for both models.
pub fn repair_tests(arch: Architecture, change: usize, read: Read) -> Vec<Test> {
    let f = book(arch);
    let (d, s) = f.against_null(change, read);
    vec![
        Test::above(
            format!(
                "median repair r = 1 − κ over heads of layers 0–{}, trained − random",
                f.last_layer()
            ),
            d,
            0.1,
            2,
        ),
        Test::above(
            "share of trained heads whose r exceeds the random model's median",
            s,
            0.5,
            2,
        ),
    ]
}

/// A claim with the encoder's repair tests under the default change `default`
/// and every choice.
pub fn with_repair(mut claim: Claim, default: usize) -> Claim {
    let all = choices(default);
    claim = claim.default_choice(all[0].0.clone());
    for t in repair_tests(Architecture::Minilm, all[0].1, all[0].2) {
        claim = claim.core(t);
    }
    for (name, change, read) in &all[1..] {
        claim = claim.under(
            name.clone(),
            repair_tests(Architecture::Minilm, *change, *read),
        );
    }
    claim
}

/// McGrath et al.'s finding: most layer ablations are repaired (κ < 1).
fn hydra_finding(value: f64) -> Test {
    Test::above(
        "share of layer ablations whose total effect along the direct one is below it (κ < 1)",
        value,
        0.5,
        2,
    )
}

/// Adds McGrath et al.'s own protocol (the Hydra effect) on the encoder as the
/// claim's replication, with resample ablation as they run it and mean
/// ablation beside it: chapters 3 and 5 ask their question of one measurement.
pub fn with_hydra(claim: Claim) -> Claim {
    let f = book(Architecture::Minilm);
    let read = MINILM_READS[2].1;
    claim
        .replication(
            "McGrath et al. 2023",
            format!(
                "the Hydra effect, their protocol: a whole attention layer resample-ablated (its output on another corpus sentence of the same token length, else the first n positions of the shortest longer one; κ averaged over {} donors), direct effect with LayerNorm frozen against total effect on the model's output (the pooled embedding; MiniLM has no logits), layers 0–{}",
                f.setup.resamples,
                f.last_layer()
            ),
            hydra_finding(f.below_one(LAYER_RESAMPLE, read)),
        )
        .replication(
            "McGrath et al. 2023",
            "the same with the layer mean-ablated in place of resampled",
            hydra_finding(f.below_one(LAYER_MEAN, read)),
        )
}

/// `claim` with every decoder choice and McGrath et al.'s protocol on the decoder.
pub fn with_decoder(mut claim: Claim) -> Claim {
    for (name, change, read) in decoder_choices() {
        claim = claim.under(name, repair_tests(Architecture::Smollm2, change, read));
    }
    let f = book(Architecture::Smollm2);
    let r = &SMOLLM2_READS;
    claim
        .replication(
            "McGrath et al. 2023",
            format!(
                "their protocol on a decoder language model ({MODEL}): a whole attention layer resample-ablated (its output on another context sentence at least as long), direct effect with the final RMSNorm frozen against total effect on the logit of each position's clean top-1 token, layers 0–{}",
                f.last_layer()
            ),
            hydra_finding(f.below_one(LAYER_RESAMPLE, r[1].1)),
        )
        .replication(
            "McGrath et al. 2023",
            format!("the same on {MODEL}'s whole normed last stream in place of the top-1 logit"),
            hydra_finding(f.below_one(LAYER_RESAMPLE, r[0].1)),
        )
}

/// The claim's setting for the decoder.
pub fn setting() -> String {
    let f = book(Architecture::Smollm2);
    format!(
        "decoder choices: {MODEL} and its random-weight twin (Llama init, N(0, (1/24)²)), {} context sentences, one head per layer 0–{} on every other layer per sentence ({} heads per model); κ read after the final RMSNorm",
        f.setup.sentences,
        f.last_layer(),
        f.heads()
    )
}

/// The table of every change `changes` (indices of [`CHANGES`]) of `f` under
/// every reading: keys `{prefix}_kept_{trained,random}_{c}_{i}`,
/// `{prefix}_{gap}_{c}_{i}`, `{prefix}_{share}_{c}_{i}` (`c` the change's
/// position in `changes`, `i` the reading's), and the table `{prefix}_{table}`.
fn table(
    f: &Findings,
    changes: &[usize],
    prefix: &str,
    [gap, share, table]: [&str; 3],
) -> Vec<Measure> {
    let mut rows = vec![];
    for (c, &change) in changes.iter().enumerate() {
        for (i, (name, read)) in reads(f.setup.arch).iter().enumerate() {
            let (d, s) = f.against_null(change, *read);
            let med = |model| fixed(median(&f.all(model, change, *read)), 2);
            rows.push((
                format!("{}; {name}", CHANGES[change]),
                vec![
                    Measure::new(
                        format!("{prefix}_kept_trained_{c}_{i}"),
                        med(Model::Trained),
                    ),
                    Measure::new(format!("{prefix}_kept_random_{c}_{i}"), med(Model::Random)),
                    Measure::new(format!("{prefix}_{gap}_{c}_{i}"), fixed(d, 2)),
                    Measure::new(format!("{prefix}_{share}_{c}_{i}"), fixed(s, 2)),
                ],
            ));
        }
    }
    let header = [
        "change; how κ is read",
        "median κ, trained",
        "median κ, random",
        "median r, trained − random",
        "share of trained r above the random median",
    ];
    table_of(&format!("{prefix}_{table}"), &header, rows)
}

/// The encoder's numbers (keys `lm_…`).
fn encoder_measures() -> Vec<Measure> {
    let f = book(Architecture::Minilm);
    let pooled = MINILM_READS[2].1;
    let mut m = vec![
        Measure::new("lm_repair_sentences", f.setup.sentences.to_string()),
        Measure::new("lm_repair_heads", f.heads().to_string()),
        Measure::new(
            "lm_hydra_share",
            share_of(f.below_one(LAYER_MEAN, pooled), "layer ablations"),
        ),
        Measure::new(
            "lm_hydra_resample_share",
            share_of(f.below_one(LAYER_RESAMPLE, pooled), "layer ablations"),
        ),
        Measure::new("lm_resamples", f.setup.resamples.to_string()),
        Measure::new(
            "lm_resample_same_length",
            share_of(f.same_length_share(), "sentences"),
        ),
    ];
    for model in Model::BOTH {
        for (change, key) in [(LAYER_MEAN, "median"), (LAYER_RESAMPLE, "resample_median")] {
            m.push(Measure::new(
                format!("lm_hydra_{key}_{}", model.name()),
                fixed(median(&f.all(model, change, pooled)), 2),
            ));
        }
    }
    m.extend(table(
        f,
        &[0, 1, 2, 3],
        "lm",
        ["repair_gap", "repair_share", "repair_table"],
    ));
    m
}

/// The decoder's numbers (keys `dr_…`).
fn decoder_measures() -> Vec<Measure> {
    let f = book(Architecture::Smollm2);
    let mut m = vec![
        Measure::new("dr_sentences", f.setup.sentences.to_string()),
        Measure::new("dr_heads", f.heads().to_string()),
        Measure::new("dr_layers", (f.last_layer() + 1).to_string()),
    ];
    for (i, (_, read)) in SMOLLM2_READS.iter().enumerate().take(2) {
        m.push(Measure::new(
            format!("dr_hydra_share_{i}"),
            fixed(f.below_one(LAYER_RESAMPLE, *read), 2),
        ));
        for model in Model::BOTH {
            m.push(Measure::new(
                format!("dr_hydra_median_{i}_{}", model.name()),
                fixed(median(&f.all(model, LAYER_RESAMPLE, *read)), 2),
            ));
        }
    }
    m.extend(table(
        f,
        &[0, 1, LAYER_RESAMPLE],
        "dr",
        ["gap", "share", "table"],
    ));
    let [kept, later, cos, ratio, ratio_random] = layer_zero(f);
    m.extend([
        Measure::new("dr_layer0_kept", fixed(kept, 1)),
        Measure::new("dr_layer0_kept_later", fixed(later, 1)),
        Measure::new("dr_layer0_cos", fixed(cos, 3)),
        Measure::new("dr_layer0_ratio_trained", fixed(ratio, 0)),
        Measure::new("dr_layer0_ratio_random", fixed(ratio_random, 0)),
    ]);
    m
}

/// Why the decoder's κ is negative at layer 0, head zeroed, medians over
/// sentences: `[κ, κ without the first token's state, cos(Δ_tot, Δ_dir) = κ /
/// ratio, ‖Δ_tot‖/‖Δ_dir‖ trained, the same random]`.
pub fn layer_zero(f: &Findings) -> [f64; 5] {
    let at0 = |model, read: Read| f.by_layer(model, HEAD_ZEROED, read)[0];
    [
        at0(Model::Trained, |k| k.states),
        at0(Model::Trained, |k| k.later),
        at0(Model::Trained, |k| k.states / k.ratio),
        at0(Model::Trained, |k| k.ratio),
        at0(Model::Random, |k| k.ratio),
    ]
}

/// Both models' numbers, encoder first.
pub fn measures() -> Vec<Measure> {
    let mut m = encoder_measures();
    m.extend(decoder_measures());
    m
}
