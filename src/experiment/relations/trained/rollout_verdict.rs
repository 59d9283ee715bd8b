//! Chapter 4's composites against raw attention: the claim that attention
//! rollout beats the last layer's attention (Abnar & Zuidema's, tested on
//! MiniLM as it is), the broader claim that a composite of the layers'
//! relations does, decided on composites that do not multiply the sink
//! ([`super::composite`]), and their numbers (keys `tr_p_…`).

use super::importance::{Cell, Counterfactual, Keys, SINK_SHARE, Target};
use super::{CHOICE_SENTENCES, IMPORTANCE_SENTENCES, Model, ModelFindings, book};
use crate::claim::{Claim, Evidence, Test};
use crate::experiment::relations::decoder_verdict;
use crate::measure::{Measure, fixed, pm};
use crate::stats::{Summary, mean};

/// A composite of the layers' relations, as the tests and choices name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Composite {
    /// Abnar & Zuidema's rollout, `(½I + ½A_L) ⋯ (½I + ½A_1)`.
    Rollout,
    /// Rollout with the sink columns removed.
    Sinkless,
    /// The composite of what each layer carries (norm-weighted).
    Carried,
}

impl Composite {
    pub const ALL: [Composite; 3] = [Composite::Rollout, Composite::Sinkless, Composite::Carried];

    /// The composite's name in tests and choices.
    pub fn name(self) -> &'static str {
        match self {
            Composite::Rollout => "rollout",
            Composite::Sinkless => "rollout without the sinks",
            Composite::Carried => "norm-weighted composite",
        }
    }

    /// What the choices call it.
    pub fn described(self) -> &'static str {
        match self {
            Composite::Rollout => "rollout (½I + ½A, multiplied over the layers)",
            Composite::Sinkless => {
                "rollout with the sink columns removed and the rows renormalised"
            }
            Composite::Carried => {
                "norm-weighted composite (‖Σ_h α_ij f_j‖, ‖x_i‖ on the diagonal; Kobayashi et al.)"
            }
        }
    }

    /// Its key in the measures.
    pub fn key(self) -> &'static str {
        match self {
            Composite::Rollout => "rollout",
            Composite::Sinkless => "sinkless",
            Composite::Carried => "carried",
        }
    }

    /// Its agreement with the importance in one cell.
    pub fn of(self, c: &Cell) -> f64 {
        match self {
            Composite::Rollout => c.rollout,
            Composite::Sinkless => c.sinkless,
            Composite::Carried => c.carried,
        }
    }
}

/// Per sentence, ρ(composite, importance) − ρ(raw, importance) in one setting.
pub fn gain(x: &ModelFindings, by: Composite, c: Counterfactual, t: Target, k: Keys) -> Summary {
    over(x, c, t, k, |cell| by.of(cell) - cell.raw)
}

/// Per sentence measured, one number `g` of a rollout setting.
fn over(
    x: &ModelFindings,
    c: Counterfactual,
    t: Target,
    k: Keys,
    g: impl Fn(&Cell) -> f64,
) -> Summary {
    let rows: Vec<f64> = x
        .importance
        .iter()
        .filter_map(|i| i.cell(c, t, k))
        .map(g)
        .collect();
    Summary::of(&rows)
}

/// The core test: the lower 95% bound of the composite's gain over raw attention.
pub fn gain_test(
    who: &str,
    x: &ModelFindings,
    by: Composite,
    c: Counterfactual,
    t: Target,
    k: Keys,
) -> Test {
    let g = gain(x, by, c, t, k);
    Test::above(
        format!(
            "{who}: lower 95% bound of ρ({}, importance) − ρ(raw, importance) ({} sentences)",
            by.name(),
            g.n
        ),
        g.ci95().0,
        0.0,
        2,
    )
}

/// Attention flow's gain over raw attention in one setting, per sentence.
pub fn flow_gain(x: &ModelFindings, c: Counterfactual, t: Target, k: Keys) -> Summary {
    over(x, c, t, k, |c| c.flow - c.raw)
}

/// Every encoder choice of one composite's claim: each counterfactual, each
/// target, without the sinks, and the gradient on the pooled vector.
fn choices(x: &ModelFindings, by: Composite) -> Vec<(String, Vec<Test>)> {
    use Counterfactual::{Gradient, Mask, Mean, Unk, Zero};
    let test = |c, t, k| vec![gain_test("trained", x, by, c, t, k)];
    let mut out: Vec<(String, Vec<Test>)> = [Zero, Unk, Mask, Gradient]
        .into_iter()
        .map(|c| {
            (
                format!("counterfactual: {}", c.name()),
                test(c, Target::Words, Keys::All),
            )
        })
        .collect();
    for t in [Target::Cls, Target::Pooled] {
        out.push((format!("target: {}", t.name()), test(Mean, t, Keys::All)));
    }
    out.push((
        format!("token set: {}", Keys::NoSinks.name()),
        test(Mean, Target::Words, Keys::NoSinks),
    ));
    out.push((
        format!(
            "counterfactual: {}; target: {}",
            Gradient.name(),
            Target::Pooled.name()
        ),
        test(Gradient, Target::Pooled, Keys::All),
    ));
    out.push((
        format!(
            "counterfactual: {}; target: {}; token set: {}",
            Unk.name(),
            Target::Pooled.name(),
            Keys::NoSinks.name()
        ),
        test(Unk, Target::Pooled, Keys::NoSinks),
    ));
    out
}

/// What every composite claim measured, and on what.
fn setting() -> String {
    format!(
        "all-MiniLM-L6-v2; the first {IMPORTANCE_SENTENCES} A sentences of models/contexts.txt (zero ablation and [MASK] on the first {CHOICE_SENTENCES}); importance of token j: ‖target − target with token j removed‖ (input × gradient: with x_j scaled by 1 + 10⁻⁴); raw: last layer's head-mean attention; rollout: (½I + ½A₆) ⋯ (½I + ½A₁); sinks: [CLS] and the tokens receiving more than {SINK_SHARE} of some head's weight"
    ) + &decoder_verdict::setting()
}

/// A composite's claim decided on its gain over raw attention: the default
/// protocol as core, every encoder choice, the sink-free rollout, the decoder.
trait DecidedBy {
    fn decided_by(self, t: &ModelFindings, by: Composite) -> Claim;
}

impl DecidedBy for Claim {
    fn decided_by(self, t: &ModelFindings, by: Composite) -> Claim {
        use Counterfactual::Mean;
        let sinkless = gain_test(
            "trained",
            t,
            Composite::Sinkless,
            Mean,
            Target::Words,
            Keys::All,
        );
        self.core(gain_test("trained", t, by, Mean, Target::Words, Keys::All))
            .under_each(choices(t, by))
            .under(
                format!("composite: {}", Composite::Sinkless.described()),
                vec![sinkless],
            )
            .under_each(decoder_verdict::composite_choices(by))
    }
}

/// The claims of chapter 4 on composites (evidence: pretrained).
pub fn claims() -> Vec<Claim> {
    use Counterfactual::Unk;
    let t = &book().trained;
    let rollout = Composite::Rollout;
    let carried = Composite::Carried;
    vec![
        Claim::empirical(
            "trained-rollout",
            "attention rollout (½I + ½A multiplied over the layers, Abnar & Zuidema 2020) tracks which tokens matter better than the last layer's raw attention",
        )
        .zh("注意力 rollout（各层 ½I + ½A 相乘，Abnar 与 Zuidema 2020）比最后一层的原始注意力更能反映哪些单标重要。")
        .evidence(Evidence::Pretrained)
        .default_choice("counterfactual: mean ablation; target: each word's final state; token set: all tokens")
        .decided_by(t, rollout)
        .replication(
            "Abnar & Zuidema 2020",
            "Spearman ρ of the [CLS] row of raw last-layer attention and of rollout with blank-out importance (each token → [UNK]), over all tokens, final layer; MiniLM has no classifier, so the importance is the change of the [CLS] final state",
            gain_test("trained, their protocol", t, rollout, Unk, Target::Cls, Keys::All),
        )
        .replication(
            "Abnar & Zuidema 2020",
            "the same protocol with attention flow (max flow through the layers' ½I + ½A graph to the [CLS] output) in place of rollout",
            {
                let g = flow_gain(t, Unk, Target::Cls, Keys::All);
                Test::above(
                    format!(
                        "trained, their protocol: lower 95% bound of ρ(flow, importance) − ρ(raw, importance) ({} sentences)",
                        g.n
                    ),
                    g.ci95().0,
                    0.0,
                    2,
                )
            },
        )
        .setting(setting()),
        Claim::empirical(
            "trained-composite",
            "the relation that matters is the composite of the layers' relations, not one layer's attention: composed by what each layer carries, the layers track which tokens matter better than the last layer's raw attention",
        )
        .zh("重要的关系是各层关系的复合，而不是某一层的注意力：按每层实际携带的量复合后，比最后一层的原始注意力更能反映哪些单标重要。")
        .evidence(Evidence::Pretrained)
        .default_choice("composite: norm-weighted; counterfactual: mean ablation; target: each word's final state; token set: all tokens")
        .decided_by(t, carried)
        .setting(setting()),
    ]
}

/// The composites' numbers (keys `tr_p_…`).
pub fn measures() -> Vec<Measure> {
    use Counterfactual::{Gradient, Mean, Unk};
    let f = book();
    let mut m = vec![
        Measure::new("tr_p_sentences", IMPORTANCE_SENTENCES.to_string()),
        Measure::new("tr_p_choice_sentences", CHOICE_SENTENCES.to_string()),
        Measure::new("tr_p_sink_share", fixed(SINK_SHARE, 1)),
        Measure::new("tr_p_step", "10⁻⁴".to_string()),
    ];
    let settings = [
        ("default", Mean, Target::Words, Keys::All),
        ("az", Unk, Target::Cls, Keys::All),
        ("nosinks", Mean, Target::Words, Keys::NoSinks),
        ("pooled", Unk, Target::Pooled, Keys::All),
        ("gradient", Gradient, Target::Pooled, Keys::All),
    ];
    for model in Model::BOTH {
        let (x, name) = (f.model(model), model.name());
        // every relation on the two protocols the page tabulates
        for &(key, c, t, k) in &settings[..2] {
            let cell = |g: &dyn Fn(&Cell) -> f64| pm(over(x, c, t, k, g), 2);
            m.push(Measure::new(
                format!("tr_p_{key}_raw_{name}"),
                cell(&|c| c.raw),
            ));
            m.push(Measure::new(
                format!("tr_p_{key}_flow_{name}"),
                cell(&|c| c.flow),
            ));
            m.push(Measure::new(
                format!("tr_p_{key}_rollout_{name}"),
                cell(&|c| c.rollout),
            ));
        }
        let sinks: Vec<&String> = x.importance.iter().flat_map(|i| &i.sinks).collect();
        let cls = sinks.iter().filter(|s| s.as_str() == "[CLS]").count();
        let heads = mean(
            &x.importance
                .iter()
                .map(|i| i.sink_heads as f64)
                .collect::<Vec<_>>(),
        );
        m.push(Measure::new(
            format!("tr_p_sinks_cls_{name}"),
            cls.to_string(),
        ));
        m.push(Measure::new(
            format!("tr_p_sinks_other_{name}"),
            (sinks.len() - cls).to_string(),
        ));
        m.push(Measure::new(
            format!("tr_p_sink_heads_{name}"),
            fixed(heads, 0),
        ));
    }
    // the composites' gains over raw attention, trained model
    let t = &f.trained;
    for (key, c, tg, k) in settings {
        for by in Composite::ALL {
            let g = gain(t, by, c, tg, k);
            let (lo, hi) = g.ci95();
            m.push(Measure::new(
                format!("tr_p_{key}_{}_gain_trained", by.key()),
                format!("{:+.2} [{lo:+.2}, {hi:+.2}]", g.mean),
            ));
        }
    }
    m
}
