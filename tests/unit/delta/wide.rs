//! The AVX-512 path's own operations, through their public checks (each
//! `None`, and the test vacuous, on a processor without AVX-512).

use attention_geometry::delta::wide::{exp_avx512, pair_sums_avx512};

#[test]
fn the_avx512_pair_sums_are_the_sums_to_the_bit() {
    // lanes of every magnitude, so the order of the additions shows in the bits
    let mut seed = 1u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
        m * 10f64.powi((seed % 17) as i32 - 8)
    };
    // Wide::sum's halving order: (x₀ + x₄, …, x₃ + x₇), then (q₀ + q₂) + (q₁ + q₃)
    let sum = |x: &[f64; 8]| {
        let q: [f64; 4] = std::array::from_fn(|i| x[i] + x[i + 4]);
        (q[0] + q[2]) + (q[1] + q[3])
    };
    for _ in 0..1000 {
        let x: [[f64; 8]; 8] = std::array::from_fn(|_| std::array::from_fn(|_| next()));
        let Some([tree, one]) = pair_sums_avx512(&x) else {
            return;
        };
        let bits = |p: [(f64, f64); 4]| p.map(|(a, b)| (a.to_bits(), b.to_bits()));
        assert_eq!(bits(tree), bits(one));
        for g in 0..4 {
            assert_eq!(one[g], (sum(&x[g]), sum(&x[g + 4])));
        }
    }
}

#[test]
fn the_avx512_exp_is_within_two_ulps_of_libm_over_its_whole_range() {
    // a grid over [−760, 720] (past both ends: 0 and ∞), then the edges
    let mut xs: Vec<f64> = (0..=148_000).map(|i| -760.0 + i as f64 * 0.01).collect();
    let edges = [
        0.0, -0.0, 1e-300, -1e-300, 709.78, 709.79, -708.4, -745.13, -745.14,
    ];
    xs.extend(
        edges
            .into_iter()
            .chain([f64::INFINITY, f64::NEG_INFINITY, f64::NAN]),
    );
    // (an odd length: the last few through the padded tail)
    let Some(got) = exp_avx512(&xs) else {
        return;
    };
    assert_eq!(got.len(), xs.len());
    for (x, y) in xs.iter().zip(&got) {
        let want = x.exp();
        let ulps = (y.to_bits() as i64 - want.to_bits() as i64).abs();
        assert!(
            (want.is_nan() && y.is_nan()) || ulps <= 2,
            "exp({x:e}) = {y:e}, libm {want:e}: {ulps} ulps apart"
        );
    }
}
