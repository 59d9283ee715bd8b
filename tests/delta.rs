//! The delta-rule kernels agree with each other, with their special cases and
//! with the algebra they claim, and stay finite under strong decay.

use attention_geometry::delta::{
    DecayForm, delta_rule, gated_delta_rule, kda, kda_chunked, kda_chunked_with, linear_attention,
    regression_loss,
};
use attention_geometry::experiment::delta_attention::chunkwise::random_input;
use attention_geometry::random::{gaussian, orthogonal, seeded};
use nalgebra::{DMatrix, DVector};
use rand::RngExt;

fn max_diff(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    assert_eq!(a.shape(), b.shape());
    (a - b).amax()
}

struct Case {
    q: DMatrix<f64>,
    k: DMatrix<f64>,
    v: DMatrix<f64>,
    g: DMatrix<f64>,
    beta: DVector<f64>,
    s0: Option<DMatrix<f64>>,
}

/// A random case (unit q and k, β ~ U(0, 1), per-step decays `−strength · U(0, 1)`).
fn case(seed: u64, t: usize, kd: usize, vd: usize, strength: f64, with_state: bool) -> Case {
    let (q, k, v, g, beta, s0) = random_input(seed, t, kd, vd, strength);
    Case {
        q,
        k,
        v,
        g,
        beta,
        s0: with_state.then_some(s0),
    }
}

#[test]
fn chunked_equals_recurrent_over_many_random_cases() {
    let mut worst: f64 = 0.0;
    let mut n = 0;
    for seed in 0..12u64 {
        // widths of 5 or less on either side of the small-product fallback of nalgebra's gemm
        for &(t, kd, vd) in &[
            (1, 3, 2),
            (37, 5, 3),
            (64, 4, 4),
            (100, 8, 6),
            (19, 2, 7),
            (40, 8, 3),
        ] {
            for &strength in &[0.0, 0.01, 0.5, 5.0, 40.0] {
                for &chunk in &[1, 3, 8, 16, 64] {
                    let c = case(seed * 1000 + t as u64, t, kd, vd, strength, seed % 2 == 0);
                    let (o1, s1) = kda(&c.q, &c.k, &c.v, &c.g, &c.beta, 0.7, c.s0.as_ref());
                    let (o2, s2) =
                        kda_chunked(&c.q, &c.k, &c.v, &c.g, &c.beta, 0.7, c.s0.as_ref(), chunk);
                    let err = max_diff(&o1, &o2).max(max_diff(&s1, &s2));
                    assert!(
                        err < 1e-10,
                        "T={t} K={kd} V={vd} g≥−{strength} C={chunk}: {err:e}"
                    );
                    worst = worst.max(err);
                    n += 1;
                }
            }
        }
    }
    assert!(n >= 1500 && worst < 1e-10);
}

#[test]
fn every_decay_form_agrees_where_it_is_finite() {
    for seed in 0..10 {
        let c = case(seed, 50, 6, 4, 2.0, true);
        let reference = kda(&c.q, &c.k, &c.v, &c.g, &c.beta, 1.0, c.s0.as_ref()).0;
        for form in [
            DecayForm::Difference,
            DecayForm::Factorised,
            DecayForm::Auto,
        ] {
            let o = kda_chunked_with(
                &c.q,
                &c.k,
                &c.v,
                &c.g,
                &c.beta,
                1.0,
                c.s0.as_ref(),
                16,
                form,
            )
            .0;
            assert!(max_diff(&reference, &o) < 1e-10, "{form:?}");
        }
    }
}

#[test]
fn kda_without_decay_is_deltanet_and_gdn_without_decay_is_deltanet() {
    for seed in 0..10 {
        let c = case(seed, 30, 5, 3, 0.0, seed % 2 == 1);
        let (od, sd) = delta_rule(&c.q, &c.k, &c.v, &c.beta, 0.5, c.s0.as_ref());
        let (ok, sk) = kda(
            &c.q,
            &c.k,
            &c.v,
            &DMatrix::zeros(30, 5),
            &c.beta,
            0.5,
            c.s0.as_ref(),
        );
        let (og, sg) = gated_delta_rule(
            &c.q,
            &c.k,
            &c.v,
            &DVector::zeros(30),
            &c.beta,
            0.5,
            c.s0.as_ref(),
        );
        assert!(max_diff(&od, &ok) < 1e-12 && max_diff(&sd, &sk) < 1e-12);
        assert!(max_diff(&od, &og) < 1e-12 && max_diff(&sd, &sg) < 1e-12);
    }
}

#[test]
fn kda_with_equal_channels_is_gated_deltanet() {
    for seed in 0..10 {
        let c = case(seed, 40, 6, 5, 1.0, true);
        let g = c.g.column(0).clone_owned();
        let g_all = DMatrix::from_fn(40, 6, |t, _| g[t]);
        let (ok, sk) = kda(&c.q, &c.k, &c.v, &g_all, &c.beta, 0.5, c.s0.as_ref());
        let (og, sg) = gated_delta_rule(&c.q, &c.k, &c.v, &g, &c.beta, 0.5, c.s0.as_ref());
        assert!(max_diff(&ok, &og) < 1e-12 && max_diff(&sk, &sg) < 1e-12);
    }
}

#[test]
fn beta_zero_keeps_the_state() {
    let c = case(3, 20, 4, 4, 0.0, true);
    let s0 = c.s0.clone().unwrap();
    let zero = DVector::zeros(20);
    let (_, s) = delta_rule(&c.q, &c.k, &c.v, &zero, 1.0, Some(&s0));
    assert_eq!(s, s0);
    let (_, s) = kda_chunked(
        &c.q,
        &c.k,
        &c.v,
        &DMatrix::zeros(20, 4),
        &zero,
        1.0,
        Some(&s0),
        8,
    );
    assert!(max_diff(&s, &s0) < 1e-14);
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
    let c = case(5, 90, 6, 4, 1.0, true);
    let s0 = c.s0.as_ref();
    let (o, s) = kda(&c.q, &c.k, &c.v, &c.g, &c.beta, 0.4, s0);
    let part = |m: &DMatrix<f64>, a: usize, n: usize| m.rows(a, n).clone_owned();
    let b = |a: usize, n: usize| c.beta.rows(a, n).clone_owned();
    let (oa, sa) = kda(
        &part(&c.q, 0, 37),
        &part(&c.k, 0, 37),
        &part(&c.v, 0, 37),
        &part(&c.g, 0, 37),
        &b(0, 37),
        0.4,
        s0,
    );
    let (ob, sb) = kda_chunked(
        &part(&c.q, 37, 53),
        &part(&c.k, 37, 53),
        &part(&c.v, 37, 53),
        &part(&c.g, 37, 53),
        &b(37, 53),
        0.4,
        Some(&sa),
        16,
    );
    assert!(max_diff(&part(&o, 0, 37), &oa) < 1e-12);
    assert!(max_diff(&part(&o, 37, 53), &ob) < 1e-10);
    assert!(max_diff(&s, &sb) < 1e-10);
}

#[test]
fn strong_decay_stays_finite_in_both_forms() {
    let c = case(9, 3000, 4, 3, 20.0, true);
    let (o1, s1) = kda(&c.q, &c.k, &c.v, &c.g, &c.beta, 0.5, c.s0.as_ref());
    let (o2, s2) = kda_chunked(&c.q, &c.k, &c.v, &c.g, &c.beta, 0.5, c.s0.as_ref(), 64);
    for m in [&o1, &s1, &o2, &s2] {
        assert!(m.iter().all(|x| x.is_finite()));
    }
    assert!(max_diff(&o1, &o2) < 1e-10 && max_diff(&s1, &s2) < 1e-10);
    // every step at the floor: −20 per step for thousands of steps
    let g = DMatrix::from_element(3000, 4, -20.0);
    let (o3, _) = kda_chunked(&c.q, &c.k, &c.v, &g, &c.beta, 0.5, None, 64);
    let (o4, _) = kda(&c.q, &c.k, &c.v, &g, &c.beta, 0.5, None);
    assert!(o3.iter().chain(o4.iter()).all(|x| x.is_finite()));
    assert!(max_diff(&o3, &o4) < 1e-10);
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
