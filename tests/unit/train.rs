//! Unit tests of `crate::train` (`src/train/`).

use attention_geometry::train::{Adam, Outcome, Settled};
use nalgebra::dmatrix;

#[test]
fn adamw_shrinks_the_weights_by_lr_times_decay_before_the_adam_step() {
    // a zero gradient leaves only the decay: θ ← θ (1 − lr λ), as torch.optim.AdamW
    let mut w = dmatrix![2.0, -4.0];
    let mut adam = Adam::new(0.01);
    adam.weight_decay = 0.1;
    adam.step(vec![&mut w], vec![&dmatrix![0.0, 0.0]]);
    assert_eq!(w, dmatrix![2.0 * (1.0 - 0.001), -4.0 * (1.0 - 0.001)]);
    // without decay the same step is Adam's, bit for bit
    let (mut a, mut b) = (dmatrix![0.3, -0.7], dmatrix![0.3, -0.7]);
    let g = dmatrix![0.5, 0.25];
    let mut plain = Adam::new(0.01);
    let mut zero = Adam::new(0.01);
    zero.weight_decay = 0.0;
    plain.step(vec![&mut a], vec![&g]);
    zero.step(vec![&mut b], vec![&g]);
    assert_eq!(a, b);
}

#[test]
fn a_flat_stretch_at_chance_is_not_a_plateau() {
    // MQAR's curves are flat, then jump: flat at chance must keep the run going
    let rule = Settled {
        solved: 0.99,
        learned: 0.2,
        window: 300,
        tolerance: 0.01,
    };
    let steps: Vec<usize> = (1..=10).map(|i| i * 100).collect();
    let at_chance = [0.06; 10];
    assert_eq!(rule.outcome(&steps, &at_chance), Outcome::NeverLearned);
    // left chance only inside the window: not yet flat after leaving it
    let late = [0.06, 0.06, 0.06, 0.06, 0.06, 0.06, 0.06, 0.06, 0.5, 0.5];
    assert_eq!(rule.outcome(&steps, &late), Outcome::Cut);
    // the same level held for the whole window: flat
    let held = [0.06, 0.06, 0.06, 0.06, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5];
    assert_eq!(rule.outcome(&steps, &held), Outcome::Flat);
}
