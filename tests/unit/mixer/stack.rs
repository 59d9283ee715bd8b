//! Unit tests of `crate::mixer::stack` (`src/mixer/stack/mod.rs`).

mod conv;

use attention_geometry::mixer::Mixer;
use attention_geometry::mixer::layer::GateInit;
use attention_geometry::random::seeded;
use attention_geometry::recall::Mqar;

use attention_geometry::mixer::stack::*;

#[test]
fn every_tensor_of_every_mixer_passes_the_gradient_check() {
    let task = Mqar {
        vocab: 14,
        pairs: 3,
        len: 13,
    };
    for gates in [GateInit::Fla, GateInit::Horizon(13)] {
        for (i, mixer) in Mixer::EVERY.into_iter().enumerate() {
            let mut rng = seeded(40 + i as u64);
            let batch = task.batch(&mut rng, 2);
            let config = Config {
                mixer,
                vocab: 14,
                d: 4,
                k: 3,
                v: 2,
                layers: 2,
                conv: 4,
            };
            let model = Stack::init(config, gates, &mut rng);
            let checks = gradient_check(&model, &batch, 1e-5);
            let per_block = match mixer {
                Mixer::Softmax | Mixer::Linear => 10,
                // no output RMSNorm
                Mixer::Normalised | Mixer::Unnormalised => 9,
                Mixer::DeltaNet => 11,
                _ => 14,
            };
            assert_eq!(checks.len(), 3 + 2 * per_block, "{mixer:?}");
            for c in checks {
                assert!(
                    c.norm > 0.0 && c.error < 1e-6,
                    "{mixer:?} {gates:?} {}: error {:e}, norm {:e}",
                    c.name,
                    c.error,
                    c.norm
                );
            }
        }
    }
}

#[test]
fn every_mixer_round_trips_through_its_name() {
    for mixer in Mixer::EVERY {
        let config = Config {
            mixer,
            vocab: 8,
            d: 4,
            k: 2,
            v: 2,
            layers: 1,
            conv: 4,
        };
        let json = serde_json::to_string(&config).expect("serialise");
        assert!(json.contains(&format!("\"{}\"", mixer.name())), "{json}");
        assert_eq!(serde_json::from_str::<Config>(&json).expect("read"), config);
    }
}
