//! Unit tests of `crate::pretrained::value_zeroing` (`src/pretrained/value_zeroing.rs`).

use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::transformer::Architecture;
use attention_geometry::pretrained::value_zeroing::*;

/// Zeroing every value in every head leaves `x + b_O`; one key's zeroing
/// through the layer is the whole layer run on the edited values.
#[test]
fn the_row_shortcut_is_the_layer_rerun_with_the_value_zeroed() {
    for arch in [Architecture::Minilm, Architecture::Smollm2] {
        let m = arch.with(Model::Trained);
        let ids = m.encode("the bank of the river").unwrap().ids;
        let trace = m.run(&ids);
        let (l, layer) = (1, &trace.layers[1]);
        let u = &layer.input + m.attention(layer);
        // the clean layer output is the next layer's input
        let y = layer_output(arch, Model::Trained, l, &u);
        let next = &trace.layers[2].input;
        assert!((&y - next).norm() / next.norm() < 1e-4, "{}", arch.name());
        let heads: Vec<_> = layer
            .heads
            .iter()
            .enumerate()
            .map(|(h, t)| (&t.weights, m.value_out(l, h, &t.v)))
            .collect();
        let e = layer_effects(arch, Model::Trained, l, &u, &heads);
        let n = ids.len();
        assert!(e.iter().all(|x| (0.0..=2.0).contains(x)));
        // the last query sees every key; key 0 moves it
        assert!(e[(n - 1, 0)] > 0.0);
    }
}
