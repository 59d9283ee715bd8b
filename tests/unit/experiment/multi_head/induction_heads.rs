//! Unit tests of `crate::experiment::multi_head::induction_heads` (`src/experiment/multi_head/induction_heads.rs`).

mod verdict;

use attention_geometry::experiment::multi_head::induction_heads::*;

#[test]
fn a_repeat_scores_the_same_tokens_twice_and_keys_after_the_first_copy() {
    for lead in Lead::ALL {
        let r = Repeat::draw(lead, 7, 3);
        let (first, repeat) = r.scored();
        let next = |p: usize| r.ids[p + 1];
        assert_eq!(
            first.map(next).collect::<Vec<_>>(),
            repeat.map(next).collect::<Vec<_>>()
        );
        for (q, k) in r.prefix_pairs() {
            assert!(k <= q && r.ids[k - 1] == r.ids[q], "{lead:?}");
        }
        assert!(r.ids[r.start..].iter().all(|id| ORDINARY.contains(id)));
    }
}

#[test]
fn every_head_is_scored_and_every_control_drawn() {
    let f = book();
    for s in [&f.scores.trained, &f.scores.random] {
        assert_eq!((s.prefix.len(), s.prefix[0].len()), (30, 9));
        assert_eq!(s.copying.len(), 30);
        assert_eq!(s.first.len(), BOOK.sequences);
    }
    let a = &f.ablation;
    for control in [
        &a.random_rise,
        &a.same_layer_rise,
        &a.random_drop,
        &a.same_layer_drop,
    ] {
        assert_eq!(control.len(), BOOK.draws);
    }
    assert_eq!(a.induction.len(), BOOK.k);
    let first = a.induction.iter().map(|h| h.0).min().unwrap();
    assert!(a.previous.iter().all(|h| h.0 < first));
    assert!(BOOK.held_out >= BOOK.sequences as u64);
    let i = &f.in_sample;
    assert_eq!(
        (i.induction.clone(), i.previous.clone()),
        (a.induction.clone(), a.previous.clone())
    );
    assert!(i.random_rise.is_empty() && i.random_drop.is_empty());
    for (k, h) in &f.held_out {
        assert_eq!(
            (h.induction.len(), h.same_layer_rise.len()),
            (*k, BOOK.draws)
        );
        assert_eq!(h.same_layer_drop.len(), BOOK.draws);
    }
}
