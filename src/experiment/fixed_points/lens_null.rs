//! The lens's norm-matched null: the trained decoder's own writes, each
//! block's turned by a seeded random rotation, so that every write keeps its
//! norm (and its geometry across positions) and loses its direction.
//!
//! ```text
//! Δ_l   = h_{l+1} − h_l                  the trained block l's write, (n, 576)
//! R_l   = Haar-random orthogonal (576, 576), one per block and seed
//! h'_0  = h_0,   h'_{l+1} = h'_l + Δ_l R_l
//! final top-1 of the null = argmax_t (rms(h'_L) ⊙ g_out) · e_t
//! ```
//!
//! The null's final top-1 is the decoded top-1 of its own last stream h'_L
//! (as the random twin's is its own output), not the trained model's: the
//! question is whether writes of the trained norms in random directions
//! arrive at their own end as early and stay as well. The random twin's
//! late writes shrink like 1/√l, so its predictions persist for geometric
//! reasons; this null keeps the trained model's write norms.
//!
//! Introduced in chapter 5.

use nalgebra::DMatrix;

use crate::random::{orthogonal, seeded};

/// Seeds of the rotations start here (disjoint from every other seed of chapter 5).
const ROTATION_SEED: u64 = 5_300;

/// The rotations `R_0 … R_{L−1}` of seed `seed`, `(d, d)` each.
pub fn rotations(layers: usize, d: usize, seed: u64) -> Vec<DMatrix<f64>> {
    let mut rng = seeded(ROTATION_SEED + seed);
    (0..layers).map(|_| orthogonal(&mut rng, d)).collect()
}

/// The null's stream at every boundary, from the trained stream `states`
/// (`L + 1` boundaries) and `L` rotations.
///
/// # Shapes
/// `states[l]: (n, d)`, `rotations[l]: (d, d)` → `L + 1` matrices `(n, d)`.
///
/// # Panics
/// If there is not one rotation per block.
pub fn rotated(states: &[DMatrix<f64>], rotations: &[DMatrix<f64>]) -> Vec<DMatrix<f64>> {
    assert_eq!(
        states.len(),
        rotations.len() + 1,
        "rotated: {} boundaries need {} rotations, got {}",
        states.len(),
        states.len() - 1,
        rotations.len()
    );
    let mut h = states[0].clone();
    let mut out = vec![h.clone()];
    for (w, r) in states.windows(2).zip(rotations) {
        // h'_{l+1} = h'_l + (h_{l+1} − h_l) R_l
        h += (&w[1] - &w[0]) * r;
        out.push(h.clone());
    }
    out
}

/// Per block, the mean over positions of the write's norm relative to the
/// stream it writes into: `‖Δ_l[i]‖ / ‖h_{l+1}[i]‖`.
pub fn write_share(runs: &[Vec<DMatrix<f64>>]) -> Vec<f64> {
    let blocks = runs[0].len() - 1;
    (0..blocks)
        .map(|l| {
            let all: Vec<f64> = runs
                .iter()
                .flat_map(|r| {
                    let d = &r[l + 1] - &r[l];
                    (0..d.nrows())
                        .map(|i| d.row(i).norm() / r[l + 1].row(i).norm())
                        .collect::<Vec<_>>()
                })
                .collect();
            crate::stats::mean(&all)
        })
        .collect()
}
