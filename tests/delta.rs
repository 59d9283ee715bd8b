//! The delta-rule kernels agree with each other, with their special cases and
//! with the algebra they claim, and stay finite under strong decay.

use attention_geometry::delta::{
    DecayForm, DeltaInput, Gate, delta_rule, gated_delta_rule, kda, kda_chunked, kda_chunked_with,
    kda_fused, linear_attention, regression_loss,
};
use attention_geometry::random::{gaussian, orthogonal, seeded};
use nalgebra::{DMatrix, DVector};
use rand::RngExt;

fn max_diff(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    assert_eq!(a.shape(), b.shape());
    (a - b).amax()
}

/// A random case (unit q and k, β ~ U(0, 1), per-step decays `−strength · U(0, 1)`).
fn case(seed: u64, t: usize, kd: usize, vd: usize, strength: f64, with_state: bool) -> DeltaInput {
    let x = DeltaInput::random(seed, t, kd, vd, strength);
    let s0 = with_state.then(|| x.initial_state().cloned()).flatten();
    x.with_initial_state(s0)
}

/// The per-channel decays of a case.
fn g(x: &DeltaInput) -> &DMatrix<f64> {
    match x.gate() {
        Gate::PerChannel(g) => g,
        other => panic!("a random case has a per-channel gate, not {other:?}"),
    }
}

/// The random cases the kernels are compared on: widths of 5 or less on
/// either side of the small-product fallback of nalgebra's gemm, decays from
/// none to −40 per step, with and without an initial state.
fn cases() -> impl Iterator<Item = (String, DeltaInput)> {
    let sizes = [
        (1, 3, 2),
        (37, 5, 3),
        (64, 4, 4),
        (100, 8, 6),
        (19, 2, 7),
        (40, 8, 3),
    ];
    (0..12u64).flat_map(move |seed| {
        sizes.into_iter().flat_map(move |(t, kd, vd)| {
            [0.0, 0.01, 0.5, 5.0, 40.0]
                .into_iter()
                .map(move |strength| {
                    let x = case(seed * 1000 + t as u64, t, kd, vd, strength, seed % 2 == 0);
                    (
                        format!("T={t} K={kd} V={vd} g≥−{strength}"),
                        x.with_scale(0.7),
                    )
                })
        })
    })
}

#[test]
fn chunked_equals_recurrent_over_many_random_cases() {
    let mut worst: f64 = 0.0;
    let mut n = 0;
    for (name, x) in cases() {
        let (o1, s1) = x.kda();
        for chunk in [1, 3, 8, 16, 64] {
            let (o2, s2) = x.kda_chunked(chunk);
            let err = max_diff(&o1, &o2).max(max_diff(&s1, &s2));
            assert!(err < 1e-10, "{name} C={chunk}: {err:e}");
            worst = worst.max(err);
            n += 1;
        }
    }
    assert!(n >= 1500 && worst < 1e-10);
}

#[test]
fn fused_equals_recurrent_to_1e_12_over_the_same_cases() {
    let mut worst: f64 = 0.0;
    for (name, x) in cases() {
        let (o1, s1) = x.kda();
        let (o2, s2) = x.kda_fused();
        let err = max_diff(&o1, &o2).max(max_diff(&s1, &s2));
        assert!(err < 1e-12, "{name}: {err:e}");
        worst = worst.max(err);
    }
    assert!(worst < 1e-12);
}

#[test]
fn fused_on_wide_heads_and_strong_decay_equals_recurrent() {
    // K and V past the two-column blocks and the four lanes, with odd remainders
    for (seed, t, kd, vd, strength) in [(1, 300, 128, 128, 0.05), (2, 200, 67, 33, 20.0)] {
        let x = case(seed, t, kd, vd, strength, true);
        let (o1, s1) = x.kda();
        let (o2, s2) = x.kda_fused();
        assert!(max_diff(&o1, &o2) < 1e-12 && max_diff(&s1, &s2) < 1e-12);
    }
}

#[test]
fn fused_on_threads_is_bit_identical_to_one_thread() {
    for (kd, vd) in [(8, 7), (128, 128), (5, 1)] {
        let x = case(4, 120, kd, vd, 1.0, true);
        let one = x.kda_fused();
        for threads in [2, 3, 8] {
            assert_eq!(
                x.kda_fused_threads(threads),
                one,
                "K={kd} V={vd} on {threads}"
            );
        }
    }
}

#[test]
fn the_free_functions_are_the_methods() {
    let x = case(6, 50, 6, 4, 1.0, true);
    let (q, k, v, beta, s0) = (x.q(), x.k(), x.v(), x.beta(), x.initial_state());
    let s = x.scale();
    assert_eq!(kda(q, k, v, g(&x), beta, s, s0), x.kda());
    assert_eq!(kda_fused(q, k, v, g(&x), beta, s, s0), x.kda_fused());
    assert_eq!(
        kda_chunked(q, k, v, g(&x), beta, s, s0, 16),
        x.kda_chunked(16)
    );
    assert_eq!(delta_rule(q, k, v, beta, s, s0), x.delta_rule());
    assert_eq!(linear_attention(q, k, v, s, s0), x.linear_attention());
    let scalar = g(&x).column(0).clone_owned();
    let gdn = gated_delta_rule(q, k, v, &scalar, beta, s, s0);
    assert_eq!(
        gdn,
        x.clone().with_gate(Gate::Scalar(scalar)).gated_delta_rule()
    );
}

#[test]
fn every_decay_form_agrees_where_it_is_finite() {
    for seed in 0..10 {
        let x = case(seed, 50, 6, 4, 2.0, true).with_scale(1.0);
        let reference = x.kda().0;
        for form in [
            DecayForm::Difference,
            DecayForm::Factorised,
            DecayForm::Auto,
        ] {
            let o = x.kda_chunked_with(16, form).0;
            assert!(max_diff(&reference, &o) < 1e-10, "{form:?}");
            let (q, k, v, beta, s0) = (x.q(), x.k(), x.v(), x.beta(), x.initial_state());
            let free = kda_chunked_with(q, k, v, g(&x), beta, 1.0, s0, 16, form).0;
            assert_eq!(free, o);
        }
    }
}

#[test]
fn kda_without_decay_is_deltanet_and_gdn_without_decay_is_deltanet() {
    for seed in 0..10 {
        let x = case(seed, 30, 5, 3, 0.0, seed % 2 == 1).with_scale(0.5);
        let (od, sd) = x.delta_rule();
        let zero = x.clone().with_gate(Gate::PerChannel(DMatrix::zeros(30, 5)));
        let (ok, sk) = zero.kda();
        let (og, sg) = x
            .clone()
            .with_gate(Gate::Scalar(DVector::zeros(30)))
            .gated_delta_rule();
        assert!(max_diff(&od, &ok) < 1e-12 && max_diff(&sd, &sk) < 1e-12);
        assert!(max_diff(&od, &og) < 1e-12 && max_diff(&sd, &sg) < 1e-12);
        // no gate at all is no decay, in every form
        let none = x.with_gate(Gate::None);
        assert!(max_diff(&none.kda().0, &od) < 1e-12);
        assert!(max_diff(&none.kda_fused().0, &od) < 1e-12);
        assert!(max_diff(&none.kda_chunked(8).0, &od) < 1e-12);
    }
}

#[test]
fn kda_with_equal_channels_is_gated_deltanet() {
    for seed in 0..10 {
        let x = case(seed, 40, 6, 5, 1.0, true).with_scale(0.5);
        let scalar = g(&x).column(0).clone_owned();
        let equal = DMatrix::from_fn(40, 6, |t, _| scalar[t]);
        let (ok, sk) = x.clone().with_gate(Gate::PerChannel(equal)).kda();
        let gdn = x.with_gate(Gate::Scalar(scalar));
        let (og, sg) = gdn.gated_delta_rule();
        assert!(max_diff(&ok, &og) < 1e-12 && max_diff(&sk, &sg) < 1e-12);
        // a scalar gate is shared by every channel in the fused and chunked forms too
        assert!(max_diff(&gdn.kda_fused().0, &og) < 1e-12);
        assert!(max_diff(&gdn.kda_chunked(16).0, &og) < 1e-10);
    }
}

#[test]
fn beta_zero_keeps_the_state() {
    let x = case(3, 20, 4, 4, 0.0, true)
        .with_scale(1.0)
        .with_beta(DVector::zeros(20));
    let s0 = x.initial_state().cloned().unwrap();
    assert_eq!(x.delta_rule().1, s0);
    assert!(max_diff(&x.kda_chunked(8).1, &s0) < 1e-14);
    assert!(max_diff(&x.kda_fused().1, &s0) < 1e-14);
}

#[test]
fn orthonormal_keys_with_beta_one_store_and_overwrite_exactly() {
    let kd = 8;
    let mut rng = seeded(11);
    let keys = orthogonal(&mut rng, kd); // rows are orthonormal
    let v1 = gaussian(&mut rng, kd, 3, 1.0);
    let v2 = gaussian(&mut rng, kd, 3, 1.0);
    // write all keys with v1, then all again with v2
    let k = DMatrix::from_fn(2 * kd, kd, |t, d| keys[(t % kd, d)]);
    let v = DMatrix::from_fn(
        2 * kd,
        3,
        |t, j| if t < kd { v1[(t, j)] } else { v2[(t % kd, j)] },
    );
    let ones = DVector::from_element(2 * kd, 1.0);
    let (_, s_half) = delta_rule(
        &k.rows(0, kd).clone_owned(),
        &k.rows(0, kd).clone_owned(),
        &v1,
        &ones.rows(0, kd).clone_owned(),
        1.0,
        None,
    );
    assert!(max_diff(&(&keys * &s_half), &v1) < 1e-12, "stored exactly");
    let (_, s) = delta_rule(&k, &k, &v, &ones, 1.0, None);
    assert!(max_diff(&(&keys * &s), &v2) < 1e-12, "overwritten exactly");
    // the additive memory returns the sum of both
    let (_, s_lin) = linear_attention(&k, &k, &v, 1.0, None);
    assert!(max_diff(&(&keys * &s_lin), &(&v1 + &v2)) < 1e-12);
}

#[test]
fn the_state_carries_across_a_split_sequence() {
    let x = case(5, 90, 6, 4, 1.0, true).with_scale(0.4);
    let (o, s) = x.kda();
    let part = |a: usize, n: usize, s0: Option<DMatrix<f64>>| {
        let m = |m: &DMatrix<f64>| m.rows(a, n).clone_owned();
        let gate = Gate::PerChannel(m(g(&x)));
        let beta = x.beta().rows(a, n).clone_owned();
        DeltaInput::new(m(x.q()), m(x.k()), m(x.v()), gate, beta, 0.4, s0)
    };
    let (oa, sa) = part(0, 37, x.initial_state().cloned()).kda();
    let (ob, sb) = part(37, 53, Some(sa.clone())).kda_chunked(16);
    let (of, sf) = part(37, 53, Some(sa)).kda_fused();
    assert!(max_diff(&o.rows(0, 37).clone_owned(), &oa) < 1e-12);
    assert!(max_diff(&o.rows(37, 53).clone_owned(), &ob) < 1e-10);
    assert!(max_diff(&o.rows(37, 53).clone_owned(), &of) < 1e-12);
    assert!(max_diff(&s, &sb) < 1e-10 && max_diff(&s, &sf) < 1e-12);
}

#[test]
fn strong_decay_stays_finite_in_every_form() {
    let x = case(9, 3000, 4, 3, 20.0, true).with_scale(0.5);
    let (o1, s1) = x.kda();
    let (o2, s2) = x.kda_chunked(64);
    let (o5, s5) = x.kda_fused();
    for m in [&o1, &s1, &o2, &s2, &o5, &s5] {
        assert!(m.iter().all(|x| x.is_finite()));
    }
    assert!(max_diff(&o1, &o2) < 1e-10 && max_diff(&s1, &s2) < 1e-10);
    assert!(max_diff(&o1, &o5) < 1e-12 && max_diff(&s1, &s5) < 1e-12);
    // every step at the floor: −20 per step for thousands of steps
    let x = x
        .with_gate(Gate::PerChannel(DMatrix::from_element(3000, 4, -20.0)))
        .with_initial_state(None);
    let (o3, o4, o6) = (x.kda_chunked(64).0, x.kda().0, x.kda_fused().0);
    assert!(
        o3.iter()
            .chain(o4.iter())
            .chain(o6.iter())
            .all(|x| x.is_finite())
    );
    assert!(max_diff(&o3, &o4) < 1e-10 && max_diff(&o6, &o4) < 1e-12);
}

#[test]
fn the_delta_update_is_a_gradient_step_on_the_regression_loss() {
    let mut rng = seeded(4);
    for _ in 0..10 {
        let s0 = gaussian(&mut rng, 5, 3, 1.0);
        let k = gaussian(&mut rng, 1, 5, 0.5);
        let v = gaussian(&mut rng, 1, 3, 1.0);
        let beta = rng.random::<f64>();
        let (_, s1) = delta_rule(&k, &k, &v, &DVector::from_element(1, beta), 1.0, Some(&s0));
        // ∇_S ½‖Sᵀk − v‖² by central differences
        let (kv, vv) = (k.row(0).transpose(), v.row(0).transpose());
        let h = 1e-6;
        let grad = DMatrix::from_fn(5, 3, |i, j| {
            let (mut up, mut dn) = (s0.clone(), s0.clone());
            up[(i, j)] += h;
            dn[(i, j)] -= h;
            (regression_loss(&up, &kv, &vv) - regression_loss(&dn, &kv, &vv)) / (2.0 * h)
        });
        assert!(max_diff(&s1, &(&s0 - grad * beta)) < 1e-8);
    }
}

#[test]
#[should_panic(expected = "kda: g is (4, 2) but must be [T, K] = (4, 3)")]
fn a_wrong_gate_shape_is_named() {
    let x = DMatrix::zeros(4, 3);
    kda(
        &x,
        &x,
        &x,
        &DMatrix::zeros(4, 2),
        &DVector::zeros(4),
        1.0,
        None,
    );
}

#[test]
#[should_panic(expected = "initial_state is (2, 2) but must be [K, V] = [3, 5]")]
fn a_wrong_state_shape_is_named() {
    let x = DMatrix::zeros(4, 3);
    delta_rule(
        &x,
        &x,
        &DMatrix::zeros(4, 5),
        &DVector::zeros(4),
        1.0,
        Some(&DMatrix::zeros(2, 2)),
    );
}

#[test]
#[should_panic(expected = "chunk_size must be at least 1")]
fn a_zero_chunk_is_refused() {
    let x = DMatrix::zeros(4, 3);
    kda_chunked(
        &x,
        &x,
        &x,
        &DMatrix::zeros(4, 3),
        &DVector::zeros(4),
        1.0,
        None,
        0,
    );
}

#[test]
fn effective_weights_reproduce_the_delta_rule_outputs() {
    use attention_geometry::delta::effective_weights;

    let mut rng = seeded(4);
    let (t_len, kd, vd) = (9, 3, 2);
    let q = gaussian(&mut rng, t_len, kd, 1.0);
    let k = attention_geometry::delta::l2_normalize(&gaussian(&mut rng, t_len, kd, 1.0));
    let v = gaussian(&mut rng, t_len, vd, 1.0);
    let beta = DVector::from_fn(t_len, |t, _| 0.2 + 0.1 * t as f64);
    let w = effective_weights(&q, &k, &DMatrix::zeros(t_len, kd), &beta, 0.7);
    // o = W v, with S_t = (I − β_t k_t k_tᵀ) S_{t−1} + β_t k_t v_tᵀ and o_t = S_tᵀ (s q_t)
    let (o, _) = delta_rule(&q, &k, &v, &beta, 0.7, None);
    assert!((&w * &v - o).norm() < 1e-12);
    assert!((0..t_len).all(|t| (t + 1..t_len).all(|j| w[(t, j)] == 0.0)));
}

#[test]
fn the_bundle_names_the_shapes_that_disagree() {
    let x = DeltaInput::random(1, 6, 3, 2, 1.0);
    let (q, k, v, beta) = (
        x.q().clone(),
        x.k().clone(),
        x.v().clone(),
        x.beta().clone(),
    );
    let bad = DeltaInput::try_new(q, k, v, Gate::Scalar(DVector::zeros(5)), beta, 1.0, None);
    assert_eq!(
        bad.unwrap_err().to_string(),
        "DeltaInput: g has length 5 but must be [T] = 6"
    );
}

#[test]
#[should_panic(expected = "DeltaInput: beta has length 4 but T = 6")]
fn a_wrong_beta_is_refused_when_it_is_set() {
    let _ = DeltaInput::random(1, 6, 3, 2, 1.0).with_beta(DVector::zeros(4));
}

#[test]
#[should_panic(expected = "gated_delta_rule: the gate is per channel, (6, 3)")]
fn gated_deltanet_refuses_a_per_channel_gate() {
    let _ = DeltaInput::random(1, 6, 3, 2, 1.0).gated_delta_rule();
}

#[test]
#[should_panic(expected = "kda_fused: g is (4, 2) but must be [T, K] = (4, 3)")]
fn the_fused_kernel_names_a_wrong_gate() {
    let x = DMatrix::zeros(4, 3);
    let g = DMatrix::zeros(4, 2);
    let _ = kda_fused(&x, &x, &x, &g, &DVector::zeros(4), 1.0, None);
}
