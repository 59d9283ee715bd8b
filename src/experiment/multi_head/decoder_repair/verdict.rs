//! The decoder's self-repair as chapter 3 quotes it: its measures (keys
//! `dr_…`), its choices on `ch03.trained-later-layers-correct` and its
//! replication of McGrath et al. 2023 on a decoder language model.

use super::{BOOK, CHANGES, LAYERS, Read, book};
use crate::claim::{Claim, Test};
use crate::measure::{Measure, fixed, table_of};
use crate::pretrained::corpus::Model;
use crate::stats::median;

/// The model the choices rest on, as their names cite it.
pub const MODEL: &str = "SmolLM2-135M-Instruct";

/// How `κ` is read: `(name, read)`, the default first.
pub const READS: [(&str, Read); 3] = [
    ("final RMSNorm frozen, every normed last state", |k| {
        k.states
    }),
    ("logit of each position's clean top-1 token", |k| k.logit),
    ("norm ratio ‖Δ_tot‖/‖Δ_dir‖ in place of κ", |k| {
        k.ratio
    }),
];

/// Index of the whole-layer resample ablation in [`CHANGES`].
pub const LAYER: usize = 2;

/// The decoder's choices on the claim: `(name, change, read)`.
pub fn choices() -> Vec<(String, usize, Read)> {
    vec![
        (
            format!("decoder {MODEL}: head zeroed, {}", READS[0].0),
            0,
            READS[0].1,
        ),
        (format!("decoder {MODEL}: head mean-ablated"), 1, READS[0].1),
        (
            format!("decoder {MODEL}: head zeroed, {}", READS[1].0),
            0,
            READS[1].1,
        ),
    ]
}

/// The encoder's two core tests, bounds unchanged, on the decoder's heads.
pub fn tests(change: usize, read: Read) -> Vec<Test> {
    let (d, s) = book().against_null(change, read);
    vec![
        Test::above(
            "median repair r = 1 − κ over heads of layers 0–28, trained − random",
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

/// `claim` with every decoder choice and McGrath et al.'s protocol on the decoder.
pub fn with_decoder(mut claim: Claim) -> Claim {
    for (name, change, read) in choices() {
        claim = claim.under(name, tests(change, read));
    }
    let f = book();
    let finding = |value| {
        Test::above(
            "share of layer ablations whose total effect along the direct one is below it (κ < 1)",
            value,
            0.5,
            2,
        )
    };
    claim
        .replication(
            "McGrath et al. 2023",
            format!(
                "their protocol on a decoder language model ({MODEL}): a whole attention layer resample-ablated (its output on another context sentence at least as long), direct effect with the final RMSNorm frozen against total effect on the logit of each position's clean top-1 token, layers 0–28"
            ),
            finding(f.below_one(LAYER, READS[1].1)),
        )
        .replication(
            "McGrath et al. 2023",
            format!("the same on {MODEL}'s whole normed last stream in place of the top-1 logit"),
            finding(f.below_one(LAYER, READS[0].1)),
        )
}

/// The claim's setting for the decoder.
pub fn setting() -> String {
    format!(
        "decoder choices: {MODEL} and its random-weight twin (Llama init, N(0, (1/24)²)), {} context sentences, one head per layer 0–28 on every other layer per sentence ({} heads per model); κ read after the final RMSNorm",
        book().setup.sentences,
        heads()
    )
}

/// How many heads (and layer ablations) were measured per model.
fn heads() -> usize {
    book().sides.trained.iter().map(|s| s.layers.len()).sum()
}

/// The numbers the section quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("dr_sentences", BOOK.sentences.to_string()),
        Measure::new("dr_heads", heads().to_string()),
        Measure::new("dr_layers", LAYERS.to_string()),
    ];
    for (i, (_, read)) in READS.iter().enumerate().take(2) {
        m.push(Measure::new(
            format!("dr_hydra_share_{i}"),
            fixed(f.below_one(LAYER, *read), 2),
        ));
        for model in Model::BOTH {
            m.push(Measure::new(
                format!("dr_hydra_median_{i}_{}", model.name()),
                fixed(median(&f.all(model, LAYER, *read)), 2),
            ));
        }
    }
    let mut rows = vec![];
    for (c, change) in CHANGES.iter().enumerate() {
        for (i, (name, read)) in READS.iter().enumerate() {
            let (d, s) = f.against_null(c, *read);
            let med = |model| fixed(median(&f.all(model, c, *read)), 2);
            rows.push((
                format!("{change}; {name}"),
                vec![
                    Measure::new(format!("dr_kept_trained_{c}_{i}"), med(Model::Trained)),
                    Measure::new(format!("dr_kept_random_{c}_{i}"), med(Model::Random)),
                    Measure::new(format!("dr_gap_{c}_{i}"), fixed(d, 2)),
                    Measure::new(format!("dr_share_{c}_{i}"), fixed(s, 2)),
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
    m.extend(table_of("dr_table", &header, rows));
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_decoder_repair_marker_of_chapter_3_is_a_measure() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/chapters/03-multi-head.md");
        let text = std::fs::read_to_string(path).unwrap();
        let keys: Vec<String> = measures().into_iter().map(|m| m.key).collect();
        let quoted: Vec<&str> = text
            .split("{{measure ch03.")
            .skip(1)
            .filter_map(|p| p.split("}}").next())
            .filter(|k| k.starts_with("dr_"))
            .collect();
        assert!(quoted.len() > 10);
        for key in quoted {
            assert!(keys.iter().any(|k| k == key), "{key} is not a measure");
        }
    }

    #[test]
    fn every_decoder_choice_names_the_model() {
        assert!(choices().iter().all(|(name, _, _)| name.contains(MODEL)));
        assert!(setting().contains(MODEL));
    }
}
