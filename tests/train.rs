//! The training module: gradients against finite differences for every
//! parameter tensor of every model variant, and training that learns.

use attention_geometry::random::seeded;
use attention_geometry::train::{
    Config, Model, Qk, Relation, Schedule, Task, gradient_check, train,
};

/// Largest relative error accepted between the hand-written gradient and
/// central differences with step 1e-5 (their truncation error is ~1e-10).
const TOLERANCE: f64 = 1e-6;

fn variants() -> Vec<Config> {
    let mut out = Vec::new();
    for qk in Qk::ALL {
        let d_k = if qk == Qk::Identity { 6 } else { 4 };
        for (heads, layers, residual, self_attention) in [
            (1, 1, false, false),
            (2, 1, false, true),
            (1, 2, true, false),
            (2, 2, true, true),
            (1, 2, false, true),
        ] {
            out.push(Config {
                d: 6,
                d_k,
                d_v: 5,
                heads,
                layers,
                qk,
                residual,
                self_attention,
                outputs: 7,
            });
        }
    }
    out
}

#[test]
fn every_gradient_matches_central_differences() {
    let task = Task {
        relation: Relation::Successor,
        vocab: 7,
        context: 4,
        d: 6,
        noise: 0.3,
        examples: None,
    };
    for (i, config) in variants().into_iter().enumerate() {
        let mut rng = seeded(i as u64);
        let world = task.world(&mut rng);
        let examples = world.examples(&mut rng, 3);
        let model = Model::init(config, &mut rng);
        let batch: Vec<_> = examples.iter().map(|e| (&e.x, e.target)).collect();
        let checks = gradient_check(&model, &batch, 1e-5);
        assert_eq!(checks.len(), model.tensors().len());
        for c in checks {
            assert!(c.norm > 0.0, "{config:?}: {} has a zero gradient", c.name);
            assert!(
                c.error < TOLERANCE,
                "{config:?}: {} relative error {:e}",
                c.name,
                c.error
            );
        }
    }
}

#[test]
fn states_agree_with_the_forward_pass_at_the_query_and_layer_by_layer() {
    for (i, config) in variants().into_iter().enumerate() {
        let mut rng = seeded(100 + i as u64);
        let model = Model::init(config, &mut rng);
        let x = attention_geometry::random::gaussian(&mut rng, 5, config.d, 1.0);
        let fwd = model.forward(&x);
        let z = model.states(&x);
        let at_query = (z.row(4) - fwd.z[config.layers].row(0)).norm();
        assert!(
            at_query < 1e-12,
            "{config:?}: query row off by {at_query:e}"
        );
        // inner layers compute every row in the forward pass too
        if config.layers == 2 {
            let first = Model {
                config: Config {
                    layers: 1,
                    ..config
                },
                heads: model.heads[..1].to_vec(),
                w_r: model.w_r.clone(),
            };
            let inner = (first.states(&x) - &fwd.z[1]).norm();
            assert!(inner < 1e-12, "{config:?}: first layer off by {inner:e}");
        }
    }
}

#[test]
fn tensors_are_listed_as_the_parameterisation_learns_them() {
    let mut rng = seeded(0);
    let names = |qk| {
        let m = Model::init(Config::single(4, 5, qk), &mut seeded(0));
        m.named_tensors()
            .into_iter()
            .map(|(n, _)| n)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(Qk::Untied),
        ["l0.h0.w_q", "l0.h0.w_k", "l0.h0.w_v", "l0.h0.w_o", "w_r"]
    );
    assert_eq!(
        names(Qk::Tied),
        ["l0.h0.w_q", "l0.h0.w_v", "l0.h0.w_o", "w_r"]
    );
    assert_eq!(names(Qk::Identity), ["l0.h0.w_v", "l0.h0.w_o", "w_r"]);
    let tied = Model::init(Config::single(4, 5, Qk::Tied), &mut rng);
    let w = tied.w_qk(0, 0);
    assert!((&w - w.transpose()).norm() < 1e-12);
    let mimetic = Model::init(Config::single(16, 5, Qk::Mimetic), &mut rng);
    let off = mimetic.w_qk(0, 0) - nalgebra::DMatrix::<f64>::identity(16, 16);
    assert!(
        off.norm() / 4.0 < 0.2,
        "mimetic W_QK is {} from I",
        off.norm()
    );
}

#[test]
fn extreme_logits_stay_finite() {
    let task = Task {
        relation: Relation::Match,
        vocab: 6,
        context: 4,
        d: 4,
        noise: 0.0,
        examples: None,
    };
    let mut rng = seeded(2);
    let world = task.world(&mut rng);
    let ex = world.example(&mut rng);
    let mut model = Model::init(Config::single(4, 6, Qk::Untied), &mut rng);
    for t in model.tensors_mut() {
        *t *= 1e3;
    }
    let (loss, grad) = model.loss_and_grad(&[(&ex.x, ex.target)]);
    assert!(loss.is_finite());
    assert!(
        grad.tensors()
            .iter()
            .all(|t| t.iter().all(|g| g.is_finite()))
    );
}

#[test]
#[should_panic(expected = "the model is 4 wide")]
fn a_model_that_does_not_fit_the_task_is_refused() {
    let task = Task {
        relation: Relation::Match,
        vocab: 6,
        context: 4,
        d: 8,
        noise: 0.0,
        examples: None,
    };
    let schedule = Schedule {
        steps: 1,
        batch: 1,
        lr: 0.01,
        eval_every: 1,
        test: 1,
        threshold: 0.9,
    };
    train(Config::single(4, 6, Qk::Untied), task, schedule, 0);
}

#[test]
fn training_is_deterministic_and_learns_the_match_task() {
    let task = Task {
        relation: Relation::Match,
        vocab: 8,
        context: 4,
        d: 8,
        noise: 0.0,
        examples: None,
    };
    let schedule = Schedule {
        steps: 150,
        batch: 16,
        lr: 0.03,
        eval_every: 50,
        test: 100,
        threshold: 0.9,
    };
    let a = train(Config::single(8, 8, Qk::Untied), task, schedule, 5);
    let b = train(Config::single(8, 8, Qk::Untied), task, schedule, 5);
    assert_eq!(a, b);
    assert!(
        a.final_accuracy > 0.8,
        "final accuracy {}",
        a.final_accuracy
    );
}

#[test]
fn the_two_relation_task_asks_for_the_ordered_pair_of_labels() {
    use attention_geometry::random::seeded;
    let task = |relation| Task {
        relation,
        vocab: 7,
        context: 5,
        d: 6,
        noise: 0.0,
        examples: None,
    };
    assert_eq!(task(Relation::Both).classes(), 49);
    assert_eq!(task(Relation::Match).classes(), 7);
    // the same draws under each relation: same context, different answers
    for seed in 0..50 {
        let example = |relation| {
            let mut rng = seeded(seed);
            let world = task(relation).world(&mut rng);
            world.example(&mut rng)
        };
        let (m, s, b) = (
            example(Relation::Match),
            example(Relation::Successor),
            example(Relation::Both),
        );
        assert_eq!(m.x, b.x);
        assert_eq!((m.pair, s.pair), (b.pair, b.pair));
        assert_eq!((m.position, s.position), (b.pair[0], b.pair[1]));
        assert_eq!(b.target, 7 * m.target + s.target);
    }
}
