//! Unit tests of `crate::experiment::multi_head::trained::roles` (`src/experiment/multi_head/trained/roles.rs`).

use attention_geometry::experiment::multi_head::trained::roles::*;
use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::intervention::run_parts;
use attention_geometry::pretrained::minilm::LAYERS;
use attention_geometry::pretrained::minilm::forward::embed;

#[test]
fn sentences_of_one_length_stacked_match_their_own_runs() {
    let m = Model::Trained.minilm();
    let ids: Vec<Vec<u32>> = ["The dog bit the man.", "The cat bit the dog.", "A dog."]
        .iter()
        .map(|t| m.encode(t).unwrap().ids)
        .collect();
    let removed = [vec![], vec![(1, 3)]];
    let all = last_states(Model::Trained, &ids, &removed);
    for (t, id) in ids.iter().enumerate() {
        let x = embed(&m.weights, id);
        let one = run_parts(&m.weights, 0, x, id.len(), &[vec![(1, 3)]]);
        assert!((&all[t][1] - &one[LAYERS - 1].output).abs().max() < 1e-9);
    }
}

#[test]
fn forty_triples_whose_twin_has_the_sentences_words() {
    let t = triples();
    assert_eq!(t.len(), 40);
    let words = |s: &str| {
        let mut w: Vec<String> = s
            .trim_end_matches('.')
            .to_lowercase()
            .split(' ')
            .map(String::from)
            .collect();
        w.sort();
        w
    };
    for [s, _, twin] in &t {
        assert_eq!(words(s), words(twin));
    }
}
