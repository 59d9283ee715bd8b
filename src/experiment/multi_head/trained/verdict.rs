//! Chapter 3's trained-encoder section as the prose quotes it: its measures
//! (keys `lm_…`) and its claims (evidence: pretrained).

use super::sinks::{CRITERIA, Criterion, DEFAULT, Sentences};
use super::{Ablation, book};
use crate::claim::{Claim, Evidence, Test};
use crate::experiment::multi_head::repair::{self, verdict as repair_verdict};
use crate::measure::{Measure, fixed, of_total, pm, sci, table_of};
use crate::pretrained::corpus::Model;
use crate::pretrained::minilm::{HEADS, LAYERS};
use crate::pretrained::transformer::Architecture;
use crate::stats::{Summary, median};

fn largest(xs: &[f64]) -> f64 {
    xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max)
}

/// The numbers the section quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let last = |v: &[(usize, crate::pretrained::paraphrase::Retrieval)]| v[v.len() - 1].1;
    let mut m = vec![
        Measure::new("lm_trained_sweep", f.setup.sweep[0].to_string()),
        Measure::new("lm_random_sweep", f.setup.sweep[1].to_string()),
        Measure::new("lm_prune_pairs", f.setup.prune_pairs.to_string()),
        Measure::new("lm_prune_step", f.setup.prune_step.to_string()),
        Measure::new("lm_prune_drop", fixed(f.setup.drop, 2)),
        Measure::new("lm_named_threshold", fixed(f.setup.named, 2)),
        Measure::new("lm_heads", (LAYERS * HEADS).to_string()),
        Measure::new(
            "lm_pairs",
            (f.sides.trained.partner_distance.len() / 2).to_string(),
        ),
        Measure::new(
            "lm_chance",
            fixed(1.0 / (f.sides.trained.partner_distance.len() - 1) as f64, 3),
        ),
        Measure::new("lm_prunable", f.prunable().to_string()),
        Measure::new("lm_pruned_all_top1", fixed(last(&f.pruning).top1, 2)),
        Measure::new("lm_pruned_all_margin", fixed(last(&f.pruning).margin, 3)),
        Measure::new("lm_roles", super::roles::triples().len().to_string()),
        Measure::new("lm_senses", super::senses::quads().len().to_string()),
        Measure::new("lm_sense_prunable", f.sense_prunable().to_string()),
    ];
    let senses = &f.senses;
    for (key, s) in [
        ("sense_trained_clean", senses[0].1),
        ("sense_trained_all", senses[senses.len() - 1].1),
        ("sense_random_clean", f.senses_random[0]),
        ("sense_random_all", f.senses_random[1]),
        ("role_trained_clean", f.roles.trained[0]),
        ("role_trained_all", f.roles.trained[1]),
        ("role_random_clean", f.roles.random[0]),
        ("role_random_all", f.roles.random[1]),
    ] {
        m.push(Measure::new(format!("lm_{key}"), fixed(s.accuracy, 2)));
    }
    let rows = senses
        .iter()
        .map(|(k, s)| {
            (
                k.to_string(),
                vec![
                    Measure::new(format!("lm_sense_pruned_{k}"), fixed(s.accuracy, 2)),
                    Measure::new(format!("lm_sense_pruned_margin_{k}"), fixed(s.margin, 3)),
                ],
            )
        })
        .collect();
    m.extend(table_of(
        "lm_sense_table",
        &["heads removed", "word-sense accuracy", "mean margin"],
        rows,
    ));
    let early: Vec<&Ablation> = f
        .all(Model::Trained)
        .into_iter()
        .filter(|a| a.layer + 1 < LAYERS)
        .collect();
    for (name, stage) in [("attn", 0), ("ffn", 1)] {
        let share = early
            .iter()
            .map(|a| (0..LAYERS).map(|l| a.shares[2 * l + stage]).sum::<f64>())
            .sum::<f64>()
            / early.len() as f64;
        m.push(Measure::new(
            format!("lm_trained_share_{name}"),
            fixed(share, 2),
        ));
    }
    for model in Model::BOTH {
        let side = f.sides.model(model);
        let name = model.name();
        let named = f.named(model);
        m.extend([
            Measure::new(format!("lm_{name}_top1"), fixed(side.retrieval.top1, 2)),
            Measure::new(format!("lm_{name}_margin"), fixed(side.retrieval.margin, 3)),
            Measure::new(
                format!("lm_{name}_partner_distance"),
                pm(Summary::of(&side.partner_distance), 3),
            ),
            Measure::new(
                format!("lm_{name}_change"),
                pm(f.summary(model, |a| a.change), 4),
            ),
            Measure::new(
                format!("lm_{name}_change_max"),
                sci(f.all(model).iter().map(|a| a.change).fold(0.0, f64::max), 1),
            ),
            Measure::new(
                format!("lm_{name}_repair"),
                pm(f.summary(model, |a: &Ablation| a.repair), 2),
            ),
            Measure::new(
                format!("lm_{name}_residual"),
                pm(f.summary(model, |a| a.residual), 2),
            ),
            Measure::new(format!("lm_{name}_named_previous"), named[0].to_string()),
            Measure::new(format!("lm_{name}_named_next"), named[1].to_string()),
            Measure::new(format!("lm_{name}_named_sep"), named[2].to_string()),
            Measure::new(format!("lm_{name}_named_sink"), named[3].to_string()),
            Measure::new(
                format!("lm_{name}_max_previous"),
                fixed(largest(&side.patterns.previous), 2),
            ),
            Measure::new(
                format!("lm_{name}_max_next"),
                fixed(largest(&side.patterns.next), 2),
            ),
            Measure::new(
                format!("lm_{name}_max_sep"),
                fixed(largest(&side.patterns.sep), 2),
            ),
            Measure::new(
                format!("lm_{name}_max_sink"),
                fixed(largest(&side.patterns.sink), 2),
            ),
            Measure::new(
                format!("lm_{name}_js_within"),
                fixed(side.patterns.within, 3),
            ),
            Measure::new(
                format!("lm_{name}_js_across"),
                fixed(side.patterns.across, 3),
            ),
        ]);
    }
    m.extend(sink_measures());
    m.extend(repair_verdict::measures());
    m
}

/// The sink heads by criterion and sentence length, what their sinks are,
/// and the most weight any head puts on `[CLS]`, `[SEP]` and punctuation.
pub fn sink_measures() -> Vec<Measure> {
    let f = book();
    let p = &f.sides.trained.patterns;
    let kinds = ["cls", "sep", "punct", "word"];
    let mut m = vec![
        Measure::new("lm_sink_default", DEFAULT.short()),
        Measure::new(
            "lm_sink_max_sep",
            fixed(p.largest_mean(|s| Some(&s.sep)), 2),
        ),
        Measure::new(
            "lm_sink_max_punct",
            fixed(p.largest_mean(|s| s.punct.as_ref()), 2),
        ),
    ];
    for (k, kind) in kinds.iter().enumerate() {
        m.push(Measure::new(
            format!("lm_sinks_{kind}"),
            f.sinks(Model::Trained, DEFAULT)[k].to_string(),
        ));
    }
    for w in Sentences::ALL {
        m.push(Measure::new(
            format!("lm_sink_length_{}", w.name()),
            fixed(p.mean_length(w), 1),
        ));
    }
    let mut rows = Vec::new();
    for c in CRITERIA {
        let mut cells: Vec<Measure> = Sentences::ALL
            .iter()
            .map(|w| {
                Measure::new(
                    format!("lm_sink_heads_{}_{}", c.key(), w.name()),
                    p.sink_heads(c, *w).len().to_string(),
                )
            })
            .collect();
        let by = f.sinks(Model::Trained, c);
        cells.push(Measure::new(
            format!("lm_sink_cls_{}", c.key()),
            of_total(by[0], by.iter().sum(), "sinks"),
        ));
        cells.push(Measure::new(
            format!("lm_sink_random_{}", c.key()),
            f.sides
                .random
                .patterns
                .sink_heads(c, Sentences::All)
                .len()
                .to_string(),
        ));
        rows.push((c.short(), cells));
    }
    m.extend(table_of(
        "lm_sink_table",
        &[
            "sink weight above",
            "all sentences",
            "shorter half",
            "longer half",
            "[CLS] sinks",
            "random weights",
        ],
        rows,
    ));
    m
}

/// The section's claims, predictions as the essay makes them.
pub fn claims() -> Vec<Claim> {
    let f = book();
    let partner = median(&f.sides.trained.partner_distance);
    let change_max = f
        .all(Model::Trained)
        .iter()
        .map(|a| a.change)
        .fold(0.0, f64::max);
    let [prev, next, sep, sink] = f.named(Model::Trained);
    let random_named: usize = f.named(Model::Random).iter().sum();
    let change = Test::below(
        "largest single-head change 1 − cos over heads and sentences ÷ median paraphrase distance",
        change_max / partner,
        1.0,
        2,
    );
    let drop = fixed(f.setup.drop, 2);
    let senses = &f.senses;
    let (clean, all) = (senses[0].1.accuracy, senses[senses.len() - 1].1.accuracy);
    let js = || {
        Test::above(
            "mean JS divergence between heads, trained − random (bits)",
            f.sides.trained.patterns.across - f.sides.random.patterns.across,
            0.1,
            2,
        )
    };
    let r = repair::book(Architecture::Minilm);
    let correct = repair_verdict::with_repair(
        Claim::empirical(
            "trained-later-layers-correct",
            "later layers combine, correct, suppress or amplify what earlier heads write",
        )
        .quotes("heads-may-capture")
        .zh("后续层组合、修正、抑制或强化前面各头写入的内容。")
        .evidence(Evidence::Pretrained),
        repair::HEAD_ZEROED,
    );
    let correct = repair_verdict::with_decoder(repair_verdict::with_hydra(correct))
        .setting(format!(
            "MiniLM-L6 and its random-weight twin (BERT init), {} corpus sentences each, one head per layer 0–{} per sentence ({} per model); κ = ⟨Δ_tot, Δ_dir⟩/‖Δ_dir‖², r = 1 − κ; the null is the random model's κ; {}",
            r.setup.sentences,
            r.last_layer(),
            r.heads(),
            repair_verdict::setting()
        ));
    // the decoder's pruning against its random twin is the book's stronger reading
    let redundant = crate::experiment::multi_head::pruning::verdict::with_decoder(Claim::empirical(
            "trained-heads-redundant",
            "no single head carries the sentence: removing any one head moves the sentence's vector less than a paraphrase does",
        )
        .quotes("many-imperfect-coverings").zh("没有哪一个头单独承载整个句子：去掉任何一个头对句子向量的改变都小于一次改写。")
        .evidence(Evidence::Pretrained)
        .default_choice("task: which sense a word has in its sentence (word-in-context)")
        .core(change.clone())
        .core(Test::above(
            "heads pruned (least important first) before word-sense accuracy drops by the stated amount",
            f.sense_prunable() as f64,
            12.0,
            0,
        ))
        .under(
            "task: paraphrase retrieval among the corpus sentences",
            vec![
                change,
                Test::above(
                    "heads pruned (least important first) before top-1 drops by the stated amount",
                    f.prunable() as f64,
                    12.0,
                    0,
                ),
            ],
        )
        .scope(Test::above(
            "word-sense accuracy with every head kept (chance 0.5)",
            clean,
            0.6,
            2,
        ))
        .scope(Test::below(
            "word-sense accuracy, every head removed − every head kept (the task needs attention)",
            all - clean,
            -f.setup.drop,
            2,
        ))
        .setting(format!(
            "trained MiniLM; baseline: the distance 1 − cos between a sentence and its paraphrase; {} words in four sentences each (models/contexts.txt, models/senses.txt) and {} paraphrase pairs, heads removed in steps of {}, drop {drop}; random-weight word-sense accuracy {} (every head kept), {} (removed); who-did-what-to-whom ({} role triples, models/roles.txt): trained {}, every head removed {}, random {}",
            super::senses::quads().len(),
            f.setup.prune_pairs,
            f.setup.prune_step,
            fixed(f.senses_random[0].accuracy, 2),
            fixed(f.senses_random[1].accuracy, 2),
            super::roles::triples().len(),
            fixed(f.roles.trained[0].accuracy, 2),
            fixed(f.roles.trained[1].accuracy, 2),
            fixed(f.roles.random[0].accuracy, 2),
        ) + "; decoder: " + &crate::experiment::multi_head::pruning::verdict::setting()))
;
    let decoder_prunes = crate::experiment::multi_head::pruning::verdict::decoder_claim();
    vec![
        correct,
        redundant,
        decoder_prunes,
        Claim::empirical(
            "trained-heads-specialise",
            "trained heads capture different relations: previous-token, next-token and sink heads exist",
        )
        .quotes("heads-may-capture").zh("训练后的各个头捕捉不同的关系：存在前一单标头、后一单标头和汇点头。")
        .evidence(Evidence::Pretrained)
        .default_choice(format!(
            "sink: the token that receives most of a head's weight, found from the data; sink heads: {}; every sentence",
            DEFAULT.label()
        ))
        .core(Test::holds(
            "a previous-token, a next-token and a sink head each exist (mean weight above the threshold; sink against uniform)",
            prev > 0 && next > 0 && sink > 0,
        ))
        .core(js())
        .under(
            "sink: [SEP], hard-coded",
            vec![
                Test::holds(
                    "a previous-token, a next-token and a [SEP]-sink head each exist",
                    prev > 0 && next > 0 && sep > 0,
                ),
                js(),
            ],
        )
        .under_each(sink_choices(prev > 0 && next > 0, &js))
        .scope(Test::holds(
            "no head of the random-weight baseline passes the threshold (previous, next, [SEP] or sink)",
            random_named == 0,
        ))
        .setting(format!(
            "all 72 heads on the 60 corpus sentences, trained and random-weight MiniLM; previous- and next-token heads: mean weight above {}; a sink: the token with the largest mean weight over queries i ≥ 1, per sentence; sink heads by default: that weight × n above {} (against uniform 1/n), {} of them; mean sentence length {} (shorter half {}, longer half {})",
            fixed(f.setup.named, 2),
            DEFAULT.short(),
            sink,
            fixed(f.sides.trained.patterns.mean_length(Sentences::All), 1),
            fixed(f.sides.trained.patterns.mean_length(Sentences::Shorter), 1),
            fixed(f.sides.trained.patterns.mean_length(Sentences::Longer), 1),
        )),
    ]
}

/// The sink criterion and the sentences varied, each repeating both core tests:
/// every criterion but the default on all sentences, and the default on each half.
fn sink_choices(prev_next: bool, js: &dyn Fn() -> Test) -> Vec<(String, Vec<Test>)> {
    let p = &book().sides.trained.patterns;
    let test = |c: Criterion, w: Sentences| {
        Test::holds(
            format!(
                "a previous-token, a next-token and a sink head each exist (sink: {})",
                c.label()
            ),
            prev_next && !p.sink_heads(c, w).is_empty(),
        )
    };
    let mut out: Vec<(String, Vec<Test>)> = CRITERIA[1..]
        .iter()
        .map(|&c| {
            (
                format!("sink heads: {}", c.label()),
                vec![test(c, Sentences::All), js()],
            )
        })
        .collect();
    for w in [Sentences::Shorter, Sentences::Longer] {
        out.push((
            format!("sentences: the {} half by length", w.name()),
            vec![test(DEFAULT, w), js()],
        ));
    }
    out
}
