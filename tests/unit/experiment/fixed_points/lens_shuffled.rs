//! Unit tests of `crate::experiment::fixed_points::lens_shuffled` (`src/experiment/fixed_points/lens_shuffled.rs`).

use attention_geometry::experiment::fixed_points::lens_shuffled::*;
use attention_geometry::pretrained::corpus::Model;

#[test]
fn the_identity_order_is_the_model() {
    let m = Model::Trained.smollm2();
    let ids = m.encode("The capital of France is").unwrap().ids;
    let ours = states(m, &ids, &(0..30).collect::<Vec<_>>());
    let theirs = m.run(&ids).states();
    let gap = (ours.last().unwrap() - theirs.last().unwrap()).amax();
    assert!(gap < 1e-3, "identity order differs from the model by {gap}");
    let o = order(30, 0);
    assert_eq!((o[0], o[29]), (0, 29));
    let mut sorted = o.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..30).collect::<Vec<_>>());
    assert_ne!(o, (0..30).collect::<Vec<_>>());
    assert_eq!(book().len(), BOOK.seeds as usize);
}
