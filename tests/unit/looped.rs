//! Unit tests of `crate::looped` (`src/looped/mod.rs`).

use attention_geometry::looped::*;
use attention_geometry::random::{gaussian, seeded};
use attention_geometry::train::{Relation, Task};

fn config(injection: Injection) -> LoopConfig {
    LoopConfig {
        d: 6,
        d_k: 3,
        heads: 2,
        iterations: 3,
        injection,
        outputs: 6,
    }
}

#[test]
fn the_tied_gradient_matches_finite_differences() {
    let task = Task {
        relation: Relation::TwoHop,
        vocab: 6,
        context: 4,
        d: 6,
        noise: 0.1,
        examples: None,
    };
    let mut rng = seeded(3);
    let world = task.world(&mut rng);
    let ex = world.examples(&mut rng, 3);
    let batch: Vec<_> = ex.iter().map(|e| (&e.x, e.target)).collect();
    for injection in [Injection::Input, Injection::None] {
        let block = Looped::init(config(injection), &mut rng);
        for c in block.gradient_check(&batch, 1e-5) {
            assert!(
                c.error < 1e-6 && c.norm > 0.0,
                "{injection:?} {} {}",
                c.name,
                c.error
            );
        }
    }
}

#[test]
fn the_unrolled_pass_is_the_iteration() {
    let mut rng = seeded(4);
    let block = Looped::init(config(Injection::Input), &mut rng);
    let (a, b) = (gaussian(&mut rng, 5, 6, 1.0), gaussian(&mut rng, 5, 6, 1.0));
    let fwd = block.forward_batch(&[&a, &b]);
    let zs = block.iterates(&b, 3);
    // input b sits in rows 5..10 of every stacked iterate
    assert!((fwd.z[3].rows(5, 5) - &zs[3]).norm() < 1e-12);
    // without injection the prompt only sets Z_0: f(Z; X) ignores X
    let free = Looped::init(config(Injection::None), &mut rng);
    assert!((free.step(&zs[1], &a) - free.step(&zs[1], &b)).norm() < 1e-12);
}

#[test]
#[should_panic(expected = "Looped::step")]
fn a_prompt_of_another_width_is_refused() {
    let mut rng = seeded(5);
    let block = Looped::init(config(Injection::Input), &mut rng);
    block.step(
        &gaussian(&mut rng, 4, 6, 1.0),
        &gaussian(&mut rng, 4, 5, 1.0),
    );
}
