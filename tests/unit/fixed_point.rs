//! Unit tests of `crate::fixed_point` (`src/fixed_point.rs`).

use attention_geometry::attention::Head;
use attention_geometry::fixed_point::*;
use attention_geometry::random::{gaussian, projection, seeded};

fn layer(seed: u64, d: usize) -> TiedLayer {
    let mut rng = seeded(seed);
    let head = Head::random(&mut rng, d, d, d);
    let gamma = 0.5 / head.w_v.singular_values().max();
    TiedLayer { head, gamma }
}

#[test]
fn the_injected_layer_contracts_geometrically() {
    let l = layer(1, 6);
    assert!((l.contraction() - 0.5).abs() < 1e-12);
    let x = gaussian(&mut seeded(2), 5, 6, 1.0);
    let (z, steps) = solve(&l, Variant::Injected, &x, 1e-12, 200);
    assert!(steps < 60, "{steps}");
    assert!(residual(&l.apply(Variant::Injected, &z, &x), &z) < 1e-11);
}

#[test]
fn pure_attention_collapses_the_tokens() {
    let l = layer(3, 6);
    let x = gaussian(&mut seeded(4), 5, 6, 1.0);
    let zs = l.iterate(Variant::Attention, &x, 30);
    assert!(collapse(zs.last().unwrap()) < 1e-8);
}

#[test]
fn tied_hopfield_energy_never_increases() {
    let mut rng = seeded(5);
    let w = projection(&mut rng, 5, 5);
    let m = &w * w.transpose();
    let x = gaussian(&mut rng, 7, 5, 1.0);
    let mut xi = gaussian(&mut rng, 5, 1, 1.0).column(0).into_owned();
    for _ in 0..20 {
        let next = hopfield_update(&x, &m, &xi, 2.0);
        assert!(hopfield_energy(&x, &m, &next, 2.0) <= hopfield_energy(&x, &m, &xi, 2.0) + 1e-12);
        xi = next;
    }
}

#[test]
fn lagrangian_adds_the_weighted_constraint() {
    let mut l = layer(6, 4);
    l.gamma *= 4.0; // c = 2
    let data = vec![gaussian(&mut seeded(7), 3, 4, 1.0)];
    let (fit, g, total) = lagrangian(&l, Variant::Injected, &data, 10.0);
    assert!((g - 1.0).abs() < 1e-12 && (total - fit - 10.0).abs() < 1e-9);
}
