//! Unit tests of `crate::mixer::fast` (`src/mixer/fast/mod.rs`).

use attention_geometry::mixer::Mixer;
use attention_geometry::mixer::fast;
use attention_geometry::mixer::layer::GateInit;
use attention_geometry::mixer::stack::{Config, Stack};
use attention_geometry::random::seeded;
use attention_geometry::recall::Mqar;

/// `‖a − b‖ / ‖b‖` of two gradients, tensor by tensor, with the tensors' names.
fn gaps(a: &Stack, b: &Stack) -> Vec<(String, f64)> {
    a.tensors()
        .into_iter()
        .zip(b.named_tensors())
        .map(|(x, (name, y))| (name, (x - y).norm() / y.norm().max(1e-30)))
        .collect()
}

#[test]
fn the_fast_gradient_of_every_tensor_of_every_mixer_is_the_reference_gradient() {
    let task = Mqar {
        vocab: 32,
        pairs: 4,
        len: 24,
    };
    for gates in [GateInit::Fla, GateInit::Horizon(24)] {
        for (i, mixer) in Mixer::ALL.into_iter().enumerate() {
            let mut rng = seeded(60 + i as u64);
            let batch = task.batch(&mut rng, 5);
            let config = Config {
                mixer,
                vocab: 32,
                d: 12,
                k: 6,
                v: 5,
                layers: 2,
                conv: 4,
            };
            let model = Stack::init(config, gates, &mut rng);
            let (loss, grad) = model.loss_and_grad(&batch);
            let (fast_loss, fast_grad) = fast::loss_and_grad(&model, &batch);
            assert!(
                (loss - fast_loss).abs() < 1e-5,
                "{mixer:?}: {loss} vs {fast_loss}"
            );
            assert!((model.mean_loss(&batch) - fast::mean_loss(&model, &batch)).abs() < 1e-5);
            for (name, gap) in gaps(&fast_grad, &grad) {
                assert!(
                    gap < 1e-5,
                    "{mixer:?} {gates:?} {name}: relative gap {gap:e}"
                );
            }
            assert_eq!(model.accuracy(&batch), fast::accuracy(&model, &batch));
        }
    }
}

#[test]
#[ignore]
fn timing() {
    let task = Mqar {
        vocab: 64,
        pairs: 16,
        len: 64,
    };
    for batch_size in [16, 64] {
        for mixer in Mixer::ALL {
            let mut rng = seeded(1);
            let batch = task.batch(&mut rng, batch_size);
            let config = Config {
                mixer,
                vocab: 64,
                d: 32,
                k: 8,
                v: 8,
                layers: 2,
                conv: 4,
            };
            let model = Stack::init(config, GateInit::Fla, &mut rng);
            let t = std::time::Instant::now();
            for _ in 0..3 {
                std::hint::black_box(model.loss_and_grad(&batch));
            }
            let r = t.elapsed().as_secs_f64() / 3.0;
            let t = std::time::Instant::now();
            for _ in 0..20 {
                std::hint::black_box(fast::loss_and_grad(&model, &batch));
            }
            let f = t.elapsed().as_secs_f64() / 20.0;
            eprintln!(
                "batch {batch_size} {mixer:?}: reference {:.2} ms, fast {:.3} ms, ×{:.1}",
                r * 1e3,
                f * 1e3,
                r / f
            );
        }
    }
}

#[test]
#[ignore]
fn profile_fast() {
    let task = Mqar {
        vocab: 64,
        pairs: 16,
        len: 64,
    };
    let mut rng = seeded(1);
    let batch = task.batch(&mut rng, 16);
    let config = Config {
        mixer: Mixer::Kda,
        vocab: 64,
        d: 32,
        k: 8,
        v: 8,
        layers: 2,
        conv: 4,
    };
    let model = Stack::init(config, GateInit::Fla, &mut rng);
    let t = std::time::Instant::now();
    for _ in 0..400 {
        std::hint::black_box(fast::loss_and_grad(&model, &batch));
    }
    eprintln!("fast {:.3} ms", t.elapsed().as_secs_f64() / 400.0 * 1e3);
}
