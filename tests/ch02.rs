//! Chapter 2's verdict, checked on the book-size findings the prose quotes.

use attention_geometry::experiment::coverage::drift::{self, epsilons};
use attention_geometry::experiment::coverage::head::Tokens;
use attention_geometry::experiment::coverage::{attribution, pieces, prompts};
use attention_geometry::stats::{Summary, mean};

#[test]
fn relu_networks_cut_the_plane_into_many_pieces_and_more_units_cut_more() {
    let f = pieces::book();
    let counts: Vec<f64> = (0..pieces::BOOK.nets.len())
        .map(|k| f.count(k).mean)
        .collect();
    assert!(counts[0] < counts[1] && counts[1] < counts[2], "{counts:?}");
    assert!(counts[3] > 100.0, "{counts:?}");
}

#[test]
fn a_relu_piece_is_locally_exact_but_an_attention_jacobian_drifts_with_any_move() {
    let f = drift::book();
    let small = epsilons()
        .iter()
        .position(|&e| (e - 0.01).abs() < 1e-12)
        .unwrap();
    let (relu, head) = f.changed(small);
    assert!(relu < 0.2 && head == 1.0, "{relu} {head}");
    assert!(f.changed(0).0 < 0.05);
    // the head's drift grows in proportion to ε
    let drift = |e: usize| mean(&f.head.iter().map(|r| r[e]).collect::<Vec<_>>());
    let ratio = drift(4) / drift(0);
    assert!((ratio - 10.0).abs() < 2.0, "{ratio}");
}

#[test]
fn a_new_prompt_under_fixed_weights_gives_a_new_local_map() {
    let f = prompts::book();
    assert!(Summary::of(&f.prompt_change).mean > 0.5);
    assert!(Summary::of(&f.pattern_change).mean > 0.2);
}

#[test]
fn qk_decides_where_and_ov_decides_what() {
    let f = attribution::book();
    for t in Tokens::ALL {
        assert_eq!(f.summary(t, |x| x.swap_pattern).mean, 0.0);
        assert!(f.summary(t, |x| x.swap_output).mean > 1.0);
    }
}

#[test]
fn weights_track_effects_only_partly_and_the_norm_tracks_them_better() {
    let f = attribution::book();
    for t in Tokens::ALL {
        let (wl, nl) = (
            f.summary(t, |x| x.weight_loo).mean,
            f.summary(t, |x| x.norm_loo).mean,
        );
        assert!(wl > 0.5 && wl < 0.9 && nl > wl, "{wl} {nl}");
        assert!(f.summary(t, |x| x.top_agree).mean < 0.85);
    }
}

#[test]
fn a_visibly_different_pattern_gives_the_same_output() {
    let f = attribution::book();
    for t in Tokens::ALL {
        assert!(f.summary(t, |x| x.equivalent_tv).mean > 0.05);
        assert!(f.summary(t, |x| x.equivalent_top_moved).mean > 0.2);
        assert!(
            f.trials
                .iter()
                .flatten()
                .all(|x| x.equivalent_output < 1e-12)
        );
    }
}
