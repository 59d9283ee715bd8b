//! Chapter 3's induction heads in SmolLM2 as the prose quotes them: measures
//! (keys `ind_…`) and the claim (evidence: pretrained).
//!
//! Heads are named `layer.head`, both counted from 0.

use super::ablation::{Ablations, Heads};
use super::{BOOK, INDUCTION_AT, Lead, ORDINARY, Scores, book};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed, number, pm, table_of};
use crate::pretrained::corpus::Model;
use crate::stats::{Summary, mean, share};

/// `17.4, 18.6, …`: heads as `layer.head`.
pub fn names(heads: &[(usize, usize)]) -> String {
    heads
        .iter()
        .map(|(l, h)| format!("{l}.{h}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `a–b`: the range of layers of `heads` (`a` alone if one layer).
pub fn layers(heads: &[(usize, usize)]) -> String {
    let lo = heads.iter().map(|h| h.0).min().expect("a head");
    let hi = heads.iter().map(|h| h.0).max().expect("a head");
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    }
}

fn largest(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

/// `first[i]` of the `i` with the largest `by[i]`.
fn first_of_largest(by: &[f64], first: &[f64]) -> f64 {
    let i = (0..by.len())
        .max_by(|&i, &j| by[i].total_cmp(&by[j]))
        .expect("a set");
    first[i]
}

/// The mean of `pick` over `heads`.
fn over(heads: &Heads, grid: &[Vec<f64>]) -> f64 {
    mean(&heads.iter().map(|&(l, h)| grid[l][h]).collect::<Vec<_>>())
}

/// Share of Olsson's induction heads (all heads if not `induction_only`)
/// whose score in `grid` is positive: the eigenvalue balance of the OV
/// circuit (`|s| &s.copying`) or the direct logit effect (`|s| &s.direct`).
pub fn positive_share(
    s: &Scores,
    grid: fn(&Scores) -> &Vec<Vec<f64>>,
    induction_only: bool,
) -> f64 {
    let heads: Vec<(usize, usize)> = if induction_only {
        s.induction_heads()
            .iter()
            .map(|&(l, h, _)| (l, h))
            .collect()
    } else {
        s.ranked(grid).iter().map(|&(l, h, _)| (l, h)).collect()
    };
    share(heads.iter().map(|&(l, h)| grid(s)[l][h] > 0.0))
}

/// The numbers the section quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let a = &f.ablation;
    let mut m = vec![
        Measure::new("ind_sequences", BOOK.sequences.to_string()),
        Measure::new("ind_lead_sequences", BOOK.lead_sequences.to_string()),
        Measure::new("ind_length", BOOK.length.to_string()),
        Measure::new("ind_lead", format!("`{}`", BOOK.lead.name())),
        Measure::new("ind_first_id", ORDINARY.start.to_string()),
        Measure::new("ind_last_id", (ORDINARY.end - 1).to_string()),
        Measure::new("ind_k", BOOK.k.to_string()),
        Measure::new("ind_ablated", BOOK.ablated.to_string()),
        Measure::new("ind_draws", BOOK.draws.to_string()),
        Measure::new("ind_at", fixed(INDUCTION_AT, 1)),
        Measure::new("ind_uniform_loss", fixed((ORDINARY.end as f64).ln(), 1)),
        Measure::new("ind_heads", names(&a.induction)),
        Measure::new(
            "ind_all_layers",
            layers(
                &f.scores
                    .trained
                    .induction_heads()
                    .iter()
                    .map(|&(l, h, _)| (l, h))
                    .collect::<Vec<_>>(),
            ),
        ),
        Measure::new("ind_previous_layers", layers(&a.previous)),
        Measure::new("ind_top_layer", layers(&a.induction[..1])),
        Measure::new("ind_previous_heads", names(&a.previous)),
        Measure::new("ind_prefix_clean", fixed(a.prefix_clean, 2)),
        Measure::new("ind_previous_drop", fixed(a.previous_drop, 3)),
        Measure::new("ind_clean", fixed(mean(&a.clean), 2)),
        Measure::new("ind_rise", fixed(a.induction_rise, 2)),
        Measure::new(
            "ind_ablated_loss",
            fixed(mean(&a.clean) + a.induction_rise, 2),
        ),
        Measure::new("ind_ablated_first", fixed(mean(&a.first), 2)),
        Measure::new("ind_first_rise", fixed(a.induction_first_rise, 2)),
        Measure::new(
            "ind_random_max_first",
            fixed(first_of_largest(&a.random_rise, &a.random_first_rise), 2),
        ),
        Measure::new(
            "ind_same_layer_first_max",
            fixed(largest(&a.same_layer_first_rise), 2),
        ),
        Measure::new("ind_in_rise", fixed(f.in_sample.induction_rise, 2)),
        Measure::new(
            "ind_in_rise_max",
            fixed(largest(&f.in_sample.same_layer_rise), 2),
        ),
        Measure::new("ind_in_drop", fixed(f.in_sample.previous_drop, 3)),
        Measure::new(
            "ind_in_drop_max",
            fixed(largest(&f.in_sample.same_layer_drop), 3),
        ),
        Measure::new(
            "ind_top_previous",
            fixed(over(&a.previous, &f.scores.trained.previous), 2),
        ),
        Measure::new(
            "ind_copying_share",
            fixed(positive_share(&f.scores.trained, |s| &s.copying, true), 2),
        ),
        Measure::new(
            "ind_direct_share",
            fixed(positive_share(&f.scores.trained, |s| &s.direct, true), 2),
        ),
        Measure::new(
            "ind_direct_share_random",
            fixed(positive_share(&f.scores.random, |s| &s.direct, false), 2),
        ),
        Measure::new(
            "ind_direct",
            fixed(over(&a.induction, &f.scores.trained.direct), 2),
        ),
        Measure::new(
            "ind_direct_random",
            number(
                largest(
                    &f.scores
                        .random
                        .direct
                        .concat()
                        .iter()
                        .map(|x| x.abs())
                        .collect::<Vec<_>>(),
                ),
                2,
            ),
        ),
        Measure::new(
            "ind_copying_share_random",
            fixed(positive_share(&f.scores.random, |s| &s.copying, false), 2),
        ),
    ];
    for (key, xs, digits) in [
        ("ind_random_rise", &a.random_rise, 2),
        ("ind_same_layer_rise", &a.same_layer_rise, 2),
        ("ind_random_drop", &a.random_drop, 3),
        ("ind_same_layer_drop", &a.same_layer_drop, 3),
    ] {
        m.extend([
            Measure::new(format!("{key}_max"), fixed(largest(xs), digits)),
            Measure::new(key, pm(Summary::of(xs), digits)),
        ]);
    }
    m.extend([
        Measure::new("ind_held_first_seed", BOOK.held_out.to_string()),
        Measure::new(
            "ind_held_last_seed",
            (BOOK.held_out + BOOK.ablated as u64 - 1).to_string(),
        ),
    ]);
    for (k, h) in &f.held_out {
        m.extend([
            Measure::new(format!("ind_held_k{k}"), k.to_string()),
            Measure::new(format!("ind_held_rise_k{k}"), fixed(h.induction_rise, 2)),
            Measure::new(
                format!("ind_held_random_rise_max_k{k}"),
                fixed(largest(&h.same_layer_rise), 2),
            ),
            Measure::new(format!("ind_held_drop_k{k}"), fixed(h.previous_drop, 3)),
            Measure::new(
                format!("ind_held_random_drop_max_k{k}"),
                fixed(largest(&h.same_layer_drop), 3),
            ),
        ]);
    }
    let mut rows = vec![];
    for model in Model::BOTH {
        let (s, name) = (f.scores.model(model), model.name());
        let max = |grid: &Vec<Vec<f64>>| largest(&grid.concat());
        m.extend([
            Measure::new(
                format!("ind_count_{name}"),
                s.induction_heads().len().to_string(),
            ),
            Measure::new(format!("ind_max_prefix_{name}"), fixed(max(&s.prefix), 2)),
            Measure::new(
                format!("ind_max_previous_{name}"),
                fixed(max(&s.previous), 2),
            ),
            Measure::new(format!("ind_first_{name}"), pm(Summary::of(&s.first), 1)),
            Measure::new(format!("ind_repeat_{name}"), pm(Summary::of(&s.repeat), 1)),
        ]);
        rows.push((format!("{name} decoder, `{}`", BOOK.lead.name()), s));
    }
    for (lead, s) in &f.leads {
        rows.push((format!("trained decoder, {}", lead_name(*lead)), s));
    }
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(i, (label, s))| {
            (
                label,
                vec![
                    Measure::new(
                        format!("ind_lead_count_{i}"),
                        s.induction_heads().len().to_string(),
                    ),
                    Measure::new(format!("ind_lead_first_{i}"), fixed(mean(&s.first), 1)),
                    Measure::new(format!("ind_lead_repeat_{i}"), fixed(mean(&s.repeat), 1)),
                    Measure::new(format!("ind_lead_ratio_{i}"), fixed(s.loss_ratio(), 2)),
                ],
            )
        })
        .collect();
    let header = [
        "model, lead token",
        "heads with prefix score ≥ 0.3",
        "loss, first copy (nats)",
        "loss, repeat (nats)",
        "repeat ÷ first",
    ];
    m.extend(table_of("ind_lead_table", &header, rows));
    m
}

fn lead_name(lead: Lead) -> String {
    match lead.id() {
        Some(_) => format!("`{}`", lead.name()),
        None => lead.name().to_string(),
    }
}

/// Olsson et al.'s two findings on one lead token's scores.
fn olsson(claim: Claim, lead: Lead, s: &Scores, sequences: usize) -> Claim {
    let protocol = |what: &str| {
        format!(
            "{what}; {sequences} sequences of T = {} token ids uniform over {}–{} repeated once, after {}",
            BOOK.length,
            ORDINARY.start,
            ORDINARY.end - 1,
            lead_name(lead)
        )
    };
    claim
        .replication(
            "Olsson et al. 2022",
            protocol("induction heads exist: heads whose prefix-matching score (mean attention from each repeat position to the token after its token's first copy) is at least 0.3"),
            Test::above("heads with prefix-matching score ≥ 0.3", s.induction_heads().len() as f64, 0.5, 1),
        )
        .replication(
            "Olsson et al. 2022",
            protocol("in-context learning on the repeat: mean next-token loss on the repeat against the first copy, the same tokens predicted"),
            Test::below("loss on the repeat ÷ loss on the first copy", s.loss_ratio(), 0.5, 2),
        )
}

/// The two core tests of `a`: the induction heads' rise against the largest
/// of `rises`, the previous-token heads' drop against the largest of `drops`;
/// `from` names where each control was drawn.
fn core(a: &Ablations, rises: &[f64], drops: &[f64], from: [&str; 2]) -> Vec<Test> {
    let (k, d) = (a.induction.len(), rises.len());
    vec![
        Test::above(
            format!(
                "loss rise (nats) with the {k} induction heads removed − the largest rise with {d} random sets of {k} heads from {} removed",
                from[0]
            ),
            a.induction_rise - largest(rises),
            0.0,
            2,
        ),
        Test::above(
            format!(
                "drop of the induction heads' prefix score with the {k} previous-token heads removed − the largest drop with {d} random sets of {k} heads from {} removed",
                from[1]
            ),
            a.previous_drop - largest(drops),
            0.0,
            3,
        ),
    ]
}

/// Where the default controls are drawn.
const SAME: [&str; 2] = [
    "the induction heads' own layers",
    "the previous-token heads' own layers",
];

/// Both core tests of `a` against its same-layer controls.
fn same_layer(a: &Ablations) -> Vec<Test> {
    core(a, &a.same_layer_rise, &a.same_layer_drop, SAME)
}

/// The claim: a later head reads what an earlier head wrote, in a real decoder.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let a = &f.ablation;
    let (t, r) = (&f.scores.trained, &f.scores.random);
    let core_tests = same_layer(a);
    let seeds = |first: u64| format!("seeds {first}–{}", first + BOOK.ablated as u64 - 1);
    let claim = Claim::empirical(
        "trained-heads-compose",
        "in the decoder, previous-token heads and induction heads compose: removing the first weakens the second",
    )
    .quotes("heads-may-capture").zh("在解码器中，前一单标头与归纳头相互组合：去掉前者会削弱后者。")
    .evidence(Evidence::Pretrained)
    .setting(format!(
        "SmolLM2-135M-Instruct (pre-RMSNorm decoder, 30 blocks × 9 heads) against the same architecture at Llama's initialisation (N(0, (1/24)²)); sequences of T = {} token ids uniform over {}–{} repeated once after `{}`; induction heads = the {} of highest prefix score, previous-token heads = the {} of highest previous-token score below the first induction layer, both selected on seeds 0–{}; ablation (context zeroed before W_O) on {} held-out sequences ({}), each control {} seeded random head sets",
        BOOK.length,
        ORDINARY.start,
        ORDINARY.end - 1,
        BOOK.lead.name(),
        BOOK.k,
        BOOK.k,
        BOOK.sequences - 1,
        BOOK.ablated,
        seeds(BOOK.held_out),
        BOOK.draws
    ))
    .default_choice("control heads drawn from the same layers: from the induction heads' own layers (induction), from the previous-token heads' own layers (previous-token)")
    .core(core_tests[0].clone())
    .core(core_tests[1].clone())
    .under(
        format!(
            "ablation on the sequences the heads were selected on ({})",
            seeds(0)
        ),
        same_layer(&f.in_sample),
    )
    .under(
        "controls drawn from every other head (induction)",
        core(a, &a.random_rise, &a.same_layer_drop, ["every other head", SAME[1]]),
    )
    .under(
        "controls drawn from every layer below the first induction head (previous-token)",
        core(
            a,
            &a.same_layer_rise,
            &a.random_drop,
            [SAME[0], "every layer below the first induction head"],
        ),
    )
    .under_each(
        f.held_out
            .iter()
            .filter(|(k, _)| *k != BOOK.k)
            .map(|(k, h)| (format!("{k} heads per set"), same_layer(h))),
    )
    .scope(Test::below(
        "random decoder: heads with prefix-matching score ≥ 0.3",
        r.induction_heads().len() as f64,
        0.5,
        1,
    ))
    .scope(Test::above(
        "random decoder: loss on the repeat ÷ loss on the first copy",
        r.loss_ratio(),
        0.9,
        2,
    ))
    .scope(Test::above(
        "share of the induction heads (prefix ≥ 0.3) whose write at the repeat raises the next token's logit (direct effect > 0)",
        positive_share(t, |s| &s.direct, true),
        0.5,
        2,
    ))
    .replication(
        "Olsson et al. 2022",
        "induction heads copy: the eigenvalues of each induction head's OV circuit read from token embedding to logit (E^T diag(g_attn) W_V W_O diag(g_out) E, the tied embedding) have a positive balance Σ Re λ / Σ |λ|",
        Test::above(
            "share of the induction heads (prefix ≥ 0.3) with a positive eigenvalue balance",
            positive_share(t, |s| &s.copying, true),
            0.5,
            2,
        ),
    );
    let mut claim = olsson(claim, BOOK.lead, t, BOOK.sequences);
    for (lead, s) in &f.leads {
        claim = olsson(claim, *lead, s, BOOK.lead_sequences);
    }
    vec![claim]
}
