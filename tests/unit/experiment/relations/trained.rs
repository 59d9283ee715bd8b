//! Unit tests of `crate::experiment::relations::trained` (`src/experiment/relations/trained.rs`).

mod composite;
mod context;
mod flow;
mod rollout_verdict;

use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::transformer::Architecture;

use attention_geometry::experiment::relations::trained::*;
use attention_geometry::pretrained::minilm::LAYERS;
use attention_geometry::pretrained::minilm::forward::run_from;

#[test]
fn contexts_parse_and_each_word_is_one_token() {
    let s = sentences();
    assert_eq!(s.len(), BOOK.pairs);
    assert!(s.iter().all(|(a, b)| a.tokens[a.word] == b.tokens[b.word]));
    // the encoder finds every word through the interface as it does directly
    let m = Architecture::Minilm.with(Model::Trained);
    for (p, (a, _)) in pairs().iter().zip(&s) {
        assert_eq!(find(m, &p.a, &p.word).as_ref(), Some(a));
    }
}

#[test]
fn most_decoder_words_are_one_token_and_each_word_is_unchanged_at_the_embedding() {
    let f = decoder();
    assert!(f.trained.words.iter().filter(|w| w.1).count() >= 10);
    assert!(f.trained.context.iter().all(|c| c.state[0].abs() < 1e-9));
    assert_eq!(f.trained.importance.len(), DECODER.importance_sentences);
    assert!(book().trained.words.iter().all(|w| w.1));
}

#[test]
fn stacked_ablation_matches_one_run() {
    let w = Model::Trained.weights();
    let ids = &sentences()[0].0.ids;
    let clean = Clean::run(w, ids);
    let e = input_effects(w, &clean);
    let j = 2;
    let alone = run_from(w, 0, mean_ablate(&clean.states[0], j), &[]).output;
    let col: Vec<f64> = (0..ids.len())
        .map(|i| (clean.states[LAYERS].row(i) - alone.row(i)).norm())
        .collect();
    assert!((0..ids.len()).all(|i| (e[LAYERS - 1][(i, j)] - col[i]).abs() < 1e-9));
}
