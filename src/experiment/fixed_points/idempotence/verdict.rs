//! The idempotence section of chapter 5 as the prose quotes it: its measures
//! (keys `id_…`) and the claim that a trained layer's output is a fixed
//! point of it (`trained-layer-converges`), with the iteration of the
//! earlier protocol kept as a choice labelled for what it tests.

use super::{BOOK, ModelFindings, book, paired, rate_for_eight_steps};
use crate::claim::{Claim, Evidence, Test};
use crate::experiment::fixed_points::trained::decoder_verdict::decoder_iterate;
use crate::experiment::fixed_points::trained::tail::interval;
use crate::experiment::fixed_points::trained::{self, Iteration};
use crate::measure::{Measure, fixed, table_of};
use crate::pretrained::corpus::ByModel;
use crate::stats::Summary;

/// A reading of the re-applied blocks: which blocks, which rows.
struct Reading {
    key: &'static str,
    label: &'static str,
    decoder: bool,
    /// The last `tail` blocks only (all if 0).
    tail: usize,
    later: bool,
}

const READINGS: [Reading; 4] = [
    Reading {
        key: "minilm",
        label: "model: all-MiniLM-L6-v2, every layer re-applied to its own output",
        decoder: false,
        tail: 0,
        later: false,
    },
    Reading {
        key: "dec",
        label: "model: SmolLM2-135M-Instruct, every block re-applied to its own output",
        decoder: true,
        tail: 0,
        later: false,
    },
    Reading {
        key: "dec_last5",
        label: "model: SmolLM2-135M-Instruct, blocks 26–30 re-applied to their own outputs",
        decoder: true,
        tail: 5,
        later: false,
    },
    Reading {
        key: "dec_later",
        label: "model: SmolLM2-135M-Instruct, every block, every row but the first (the sink)",
        decoder: true,
        tail: 0,
        later: true,
    },
];

impl Reading {
    fn of<'a>(
        &self,
        f: &'a crate::pretrained::transformer::ByArch<ByModel<ModelFindings>>,
    ) -> &'a ByModel<ModelFindings> {
        if self.decoder { &f.smollm2 } else { &f.minilm }
    }

    /// Per sentence, the mean ratio over this reading's blocks.
    fn per_sentence(&self, f: &ModelFindings) -> Vec<f64> {
        let n = f.ratio.len();
        let from = if self.tail == 0 { 0 } else { n - self.tail };
        f.per_sentence(from..n, self.later)
    }

    /// (trained, random, trained − random), each over sentences.
    fn summaries(&self, f: &ByModel<ModelFindings>) -> (Summary, Summary, Summary) {
        let (t, r) = (self.per_sentence(&f.trained), self.per_sentence(&f.random));
        (Summary::of(&t), Summary::of(&r), paired(&t, &r))
    }

    /// The claim's two core tests under this reading.
    fn tests(&self, f: &ByModel<ModelFindings>) -> Vec<Test> {
        let (t, _, gap) = self.summaries(f);
        vec![
            Test::below(
                "upper end of the 95% interval over sentences: ‖B(B(Z)) − B(Z)‖ / ‖B(Z) − Z‖, mean over blocks",
                t.ci95().1,
                rate_for_eight_steps(),
                2,
            ),
            Test::below(
                "upper end of the 95% interval over sentences: the same ratio, trained − random",
                gap.ci95().1,
                0.0,
                2,
            ),
        ]
    }
}

/// The decoder's output re-passed through its last `k` blocks: (trained, random, gap).
fn kept(k: usize) -> (Summary, Summary, Summary) {
    let d = &book().smollm2;
    let (t, r) = (&d.trained.kept[k - 1], &d.random.kept[k - 1]);
    (Summary::of(t), Summary::of(r), paired(t, r))
}

/// A fixed point of the last blocks keeps every top-1; the prediction asks
/// only that most positions keep theirs, and more than at random weights.
fn kept_tests(k: usize) -> Vec<Test> {
    let (t, _, gap) = kept(k);
    vec![
        Test::above(
            "lower end of the 95% interval over sentences: share of positions whose top-1 next token is kept",
            t.ci95().0,
            0.5,
            2,
        ),
        Test::above(
            "lower end of the 95% interval over sentences: the same share, trained − random",
            gap.ci95().0,
            0.0,
            2,
        ),
    ]
}

/// The claim, decided on idempotence.
pub fn claim() -> Claim {
    let f = book();
    let it = trained::book();
    let final_of = |x: &trained::ModelFindings, p: usize, g: fn(&Iteration) -> f64| {
        Summary::over(x.layer_runs(p).iter().map(|i| g(i))).mean
    };
    let res = |i: &Iteration| *i.residual.last().expect("steps > 0");
    let col = |i: &Iteration| *i.collapse.last().expect("steps > 0");
    let (t, r) = (&it.minilm.trained, &it.minilm.random);
    let (dec_t, dec_r) = decoder_iterate();
    let iterated = |trained: f64, random: f64| {
        vec![
            Test::below(
                "trained, with residual paths: ‖f(Z) − Z‖/‖Z‖ after the last step",
                trained,
                0.01,
                2,
            ),
            Test::below("the same, trained − random", trained - random, 0.0, 2),
        ]
    };
    let mut claim = Claim::empirical(
        "trained-layer-converges",
        "a trained layer's output is near a fixed point of the same layer: applied once more, the layer moves its output less than 0.56 times as far as it moved its input (the rate at which eight applications reach 1%), and less than at random weights",
    )
    .zh("训练后一层的输出接近该层自身的不动点：再施加一次，该层移动其输出的距离不到它移动输入距离的 0.56 倍（八次迭代达到 1% 所需的速率），且小于随机权重下的比值。")
    .evidence(Evidence::Pretrained)
    .default_choice(READINGS[0].label);
    for t in READINGS[0].tests(&f.minilm) {
        claim = claim.core(t);
    }
    claim
        .under_each(READINGS[1..].iter().map(|r| (r.label.to_string(), r.tests(r.of(f)))))
        .under_each((1..=BOOK.tail).map(|k| {
            let blocks = match k {
                1 => "block".to_string(),
                k => format!("{k} blocks"),
            };
            (
                format!("model: SmolLM2-135M-Instruct, its output re-passed through its last {blocks}"),
                kept_tests(k),
            )
        }))
        .under(
            "protocol: MiniLM, each layer iterated 8 times on its input (the earlier protocol; it tests the architecture as much as what was learned)",
            iterated(final_of(t, 0, res), final_of(r, 0, res)),
        )
        .under(
            "protocol: SmolLM2-135M-Instruct, each block iterated 8 times on its input (a pre-norm block has fixed points only where its write vanishes)",
            iterated(dec_t, dec_r),
        )
        .scope(Test::above("trained, with residual paths: distance from rank one at the end", final_of(t, 0, col), 0.1, 2))
        .scope(Test::below("trained, without residual paths: distance from rank one at the end", final_of(t, 1, col), 0.01, 2))
        .scope(Test::below("random baseline, without residual paths: the same", final_of(r, 1, col), 0.01, 2))
        .setting(format!(
            "all-MiniLM-L6-v2 (post-LayerNorm) and SmolLM2-135M-Instruct (pre-RMSNorm), each against its random-weight twin, on the first {} context sentences of models/contexts.txt: each block B applied once more to its own output B(Z) on the real stream; SmolLM2's final state re-passed through its last 1–{} blocks and decoded; the earlier iteration ({} applications, {} sentences) kept as a choice",
            BOOK.sentences, BOOK.tail, trained::BOOK.steps, trained::BOOK.iterate_sentences
        ))
}

/// The numbers the idempotence paragraph quotes (keys `id_…`) and its table.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("id_sentences", BOOK.sentences.to_string()),
        Measure::new("id_rate", fixed(rate_for_eight_steps(), 2)),
    ];
    let mut rows = Vec::new();
    for r in &READINGS {
        let (t, rnd, gap) = r.summaries(r.of(f));
        let cells = vec![
            Measure::new(format!("id_{}_trained", r.key), interval(t, 2)),
            Measure::new(format!("id_{}_random", r.key), interval(rnd, 2)),
            Measure::new(format!("id_{}_gap", r.key), interval(gap, 2)),
        ];
        rows.push((r.label.trim_start_matches("model: ").to_string(), cells));
    }
    for k in 1..=BOOK.tail {
        let (t, rnd, _) = kept(k);
        let pct = |s: Summary| fixed(100.0 * s.mean, 0);
        m.extend([
            Measure::new(format!("id_kept{k}_trained"), pct(t)),
            Measure::new(format!("id_kept{k}_random"), pct(rnd)),
        ]);
    }
    let header = [
        "re-applied",
        "trained [95%]",
        "random [95%]",
        "trained − random [95%]",
    ];
    m.extend(table_of("id_table", &header, rows));
    m
}
