//! Unit tests of `crate::pretrained::smollm2::attention` (`src/pretrained/smollm2/attention.rs`).

use attention_geometry::pretrained::smollm2::attention::*;
use nalgebra::DMatrix;

/// Hugging Face's order: head row i ↦ GGUF row 2i, row i + r/2 ↦ 2i + 1.
fn to_half_split(x: &DMatrix<f32>, r: usize) -> DMatrix<f32> {
    DMatrix::from_fn(x.nrows(), x.ncols(), |p, col| {
        let (head, i) = (col / r, col % r);
        let src = if i < r / 2 {
            2 * i
        } else {
            2 * (i - r / 2) + 1
        };
        x[(p, head * r + src)]
    })
}

/// `rotate_half` RoPE on the half-split order.
fn rope_half(x: &DMatrix<f32>, r: usize, theta: f64) -> DMatrix<f32> {
    DMatrix::from_fn(x.nrows(), x.ncols(), |p, col| {
        let (head, i) = (col / r, col % r);
        let pair = i % (r / 2);
        let angle = p as f64 * theta.powf(-2.0 * pair as f64 / r as f64);
        let (sin, cos) = (angle.sin() as f32, angle.cos() as f32);
        let lo = x[(p, head * r + pair)];
        let hi = x[(p, head * r + pair + r / 2)];
        if i < r / 2 {
            lo * cos - hi * sin
        } else {
            hi * cos + lo * sin
        }
    })
}

#[test]
fn adjacent_pairs_on_gguf_rows_equal_rotate_half_on_hugging_face_rows() {
    let x = DMatrix::from_fn(7, 128, |i, j| ((i * 31 + j * 17) % 13) as f32 - 6.0);
    let mut gguf = x.clone();
    rope(&mut gguf, 0, 64, 100000.0);
    let hf = rope_half(&to_half_split(&x, 64), 64, 100000.0);
    assert!((to_half_split(&gguf, 64) - &hf).amax() < 1e-4);
    // mixing the conventions is another model
    let mut mixed = to_half_split(&x, 64);
    rope(&mut mixed, 0, 64, 100000.0);
    assert!((mixed - hf).amax() > 1.0);
}

#[test]
fn rope_keeps_norms_and_makes_scores_depend_on_offset_only() {
    let q = DMatrix::from_fn(1, 64, |_, j| (j as f32 * 0.37).sin());
    let k = DMatrix::from_fn(1, 64, |_, j| (j as f32 * 0.11).cos());
    let score = |pq: usize, pk: usize| {
        let (mut a, mut b) = (q.clone(), k.clone());
        rope(&mut a, pq, 64, 100000.0);
        rope(&mut b, pk, 64, 100000.0);
        assert!((a.norm() - q.norm()).abs() < 1e-4);
        a.dot(&b)
    };
    assert!((score(9, 4) - score(105, 100)).abs() < 1e-3);
    assert!((score(9, 4) - score(4, 4)).abs() > 1e-2);
}
