//! Unit tests of `crate::pretrained::explorer` (`src/pretrained/explorer.rs`).

use attention_geometry::pretrained::attention_map::AttentionMap;
use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::explorer::*;
use attention_geometry::pretrained::transformer::Architecture;
use serde::Deserialize;

#[derive(Deserialize)]
struct Data {
    models: Vec<ModelView>,
}

#[test]
fn the_json_holds_attention_maps_weights_and_rows_sum_to_one() {
    let text = "The bank of the river.";
    let runs: Vec<(Architecture, Vec<String>)> = Architecture::ALL
        .iter()
        .map(|&a| (a, vec![text.to_string()]))
        .collect();
    let data: Data = serde_json::from_str(&json(&runs).unwrap()).unwrap();
    let half = 0.5 * 10f64.powi(-DECIMALS);
    for (view, arch) in data.models.iter().zip(Architecture::ALL) {
        let model = arch.with(Model::Trained);
        let s = &view.sentences[0];
        let n = s.tokens.len();
        assert_eq!(s.layers.len(), model.layers());
        let trace = model.run(&model.encode(text).unwrap().ids);
        for (l, heads) in s.layers.iter().enumerate() {
            assert_eq!(heads.len(), model.heads());
            // the weights against an independent pass at three layers (each
            // `AttentionMap` runs the model again); the rest of the checks at all
            let last = model.layers() - 1;
            let map = [0, last / 2, last]
                .contains(&l)
                .then(|| AttentionMap::compute(model, text, l, None).unwrap());
            if let Some(map) = &map {
                assert_eq!(map.tokens, s.tokens);
            }
            for (h, head) in heads.iter().enumerate() {
                let w = map.as_ref().map(|m| &m.heads[h].1);
                let write = model.write(&trace.layers[l], h);
                for (i, (row, carried)) in head.weights.iter().zip(&head.carried).enumerate() {
                    let seen = if view.mask == "causal" { i + 1 } else { n };
                    assert_eq!((row.len(), carried.len()), (seen, seen));
                    let sum: f64 = row.iter().sum();
                    assert!((sum - 1.0).abs() <= n as f64 * half, "{l} {h} {i}: {sum}");
                    if let Some(w) = w {
                        for (j, x) in row.iter().enumerate() {
                            assert!((x - w[(i, j)]).abs() <= half + 1e-12, "{l} {h} {i} {j}");
                        }
                    }
                    // the head's write of row i is the sum of what each key carries:
                    // ‖Σ_j α_ij f_j‖ ≤ Σ_j ‖α_ij f_j‖
                    let total: f64 = carried.iter().sum();
                    let wrote = write.row(i).norm();
                    assert!(wrote <= total + n as f64 * half, "{l} {h} {i}");
                    if seen == 1 {
                        // a causal first query sees only itself: equality
                        assert!((wrote - total).abs() <= half + 1e-9, "{l} {h}");
                    }
                }
            }
        }
    }
}
