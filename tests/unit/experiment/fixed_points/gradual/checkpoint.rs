//! Unit tests of `crate::experiment::fixed_points::gradual::checkpoint` (`src/experiment/fixed_points/gradual/checkpoint.rs`).

use attention_geometry::experiment::fixed_points::gradual::checkpoint::*;
use attention_geometry::experiment::learning_cost::arm::raw_agreement;
use attention_geometry::projection::split_symmetric;
use attention_geometry::random::seeded;
use attention_geometry::train::{Config, Relation, Task};
use attention_geometry::train::{Example, Model, Qk};

fn setup(config: Config) -> (Model, Vec<Example>) {
    let task = Task {
        relation: Relation::Successor,
        vocab: 8,
        context: 4,
        d: 8,
        noise: 0.0,
        examples: None,
    };
    let mut rng = seeded(3);
    let examples = task.world(&mut rng).examples(&mut rng, 40);
    (Model::init(config, &mut rng), examples)
}

#[test]
fn one_head_agreement_is_chapter_6s() {
    let (m, ex) = setup(Config::single(8, 8, Qk::Untied));
    assert!((agreement(&m, &ex)[0] - raw_agreement(&m, &ex)).abs() < 1e-12);
}

#[test]
fn swaps_put_the_form_in_place() {
    let c = Config {
        layers: 2,
        heads: 2,
        residual: true,
        self_attention: true,
        ..Config::single(8, 8, Qk::Untied)
    };
    let (m, ex) = setup(c);
    let s = swapped(&m, Swap::Symmetric);
    let w = s.w_qk(1, 1);
    assert!((&w - w.transpose()).norm() < 1e-12);
    assert!((&w - split_symmetric(&m.w_qk(1, 1)).0).norm() < 1e-12);
    // raw similarity: every head agrees with it exactly
    let i = swapped(&m, Swap::Identity);
    assert!(agreement(&i, &ex).iter().all(|&r| (r - 1.0).abs() < 1e-12));
    assert!((i.w_qk(0, 0).norm() - m.w_qk(0, 0).norm()).abs() < 1e-9);
    let cp = Checkpoint::of(0, &m, &ex);
    assert_eq!((cp.rho.len(), cp.share.len()), (4, 4));
}
