//! Unit tests of `crate::experiment::fixed_points::logit_lens` (`src/experiment/fixed_points/logit_lens.rs`).

use attention_geometry::experiment::fixed_points::logit_lens::*;
use attention_geometry::pretrained::corpus::Model;
use attention_geometry::stats::argmax;

#[test]
fn the_last_boundary_is_the_models_own_prediction() {
    let m = Model::Trained.smollm2();
    let ids = m.encode("The capital of France is").unwrap().ids;
    let t = m.run(&ids);
    let z = m.logits(&ids);
    let own = argmax(0..z.ncols(), |v| f64::from(z[(ids.len() - 1, v)])).unwrap();
    assert_eq!(*lens_top1(m, &t.output).last().unwrap(), own);
}

#[test]
fn first_settled_and_stay_follow_their_definitions() {
    let t = Token {
        position: 1,
        agree: vec![false, true, false, true, true, true],
        rank: vec![3, 0, 12, 0, 0, 0],
        kl: vec![0.0; 6],
    };
    assert_eq!(t.within(10).agree, [true, true, false, true, true, true]);
    assert_eq!((t.first(), t.settled()), (1, 3));
    assert_eq!(t.stay(), Some(2.0 / 3.0));
    let f = book();
    let a = f.trained.agreement(Positions::All);
    assert_eq!(a.len(), 31);
    assert!((a[30] - 1.0).abs() < 1e-12);
    // the final distribution is its own: rank 0, KL 0
    assert!(
        f.trained
            .tokens
            .iter()
            .all(|t| t.rank[30] == 0 && t.kl[30].abs() < 1e-9)
    );
}
