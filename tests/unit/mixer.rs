//! Unit tests of `crate::mixer` (`src/mixer/mod.rs`).

mod fast;
mod gate;
mod layer;
mod recurrence;
mod softmax;
mod stack;

use attention_geometry::random::seeded;
use attention_geometry::recall::Mqar;

use attention_geometry::mixer::*;

#[test]
fn every_tensor_of_every_mixer_passes_the_gradient_check() {
    let task = Mqar {
        vocab: 14,
        pairs: 3,
        len: 13,
    };
    let layers = [
        Layer::BOOK,
        Layer {
            gates: GateInit::Horizon(13),
            norm: OutNorm::Rms,
        },
    ];
    for (l, layer) in layers.into_iter().enumerate() {
        for (i, mixer) in Mixer::EVERY.into_iter().enumerate() {
            let mut rng = seeded(20 + i as u64);
            let batch = task.batch(&mut rng, 3);
            let config = Config {
                mixer,
                vocab: 14,
                d: 4,
                k: 3,
                v: 2,
            };
            let model = Model::init_with(config, layer, &mut rng);
            let checks = gradient_check(&model, &batch, 1e-5);
            let expected = match mixer {
                Mixer::Softmax | Mixer::Linear | Mixer::Normalised | Mixer::Unnormalised => 6,
                Mixer::DeltaNet => 7,
                _ => 10,
            } + l;
            assert_eq!(checks.len(), expected, "{mixer:?} {layer:?}");
            for c in checks {
                assert!(
                    c.norm > 0.0 && c.error < 1e-6,
                    "{mixer:?} {layer:?} {}: error {:e}, norm {:e}",
                    c.name,
                    c.error,
                    c.norm
                );
            }
        }
    }
}
