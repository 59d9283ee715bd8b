//! One block of the fused kernel's steps: its inputs gathered pair by pair,
//! its decays taken, and its outputs scattered back (see [`STEPS`]).

use super::args::{Args, Decay};
use super::wide::{Wide, exp_into};

/// Steps per block. The inputs are column-major (`q[d T + t]`), so one step
/// reads `K` scattered entries of each of `q, k, g` and `n` of `v`, and writes
/// `n` of `out`: each in its own cache line, missed afresh once the state's
/// sweep has evicted it. A block gathers `STEPS` steps' entries into
/// pair-major rows first (each line read once, whole), and scatters the
/// outputs once at its end.
pub const STEPS: usize = 64;

/// Pairs of steps per block: the sweep takes two steps at a time.
pub const PAIRS: usize = STEPS / 2;

/// The `[K]` vectors of one pair of steps `(0, 1)`, in the order of a row of
/// [`Block::rows`]: the pair's write `α₁ ⊙ α₀, α₁ ⊙ k₀, k₁`, then its reads
/// `k₀ ⊙ α₀, sq₀ ⊙ α₀, k₁ ⊙ α₁ ⊙ α₀, sq₁ ⊙ α₁ ⊙ α₀`.
pub const VECTORS: usize = 7;

/// Key channels gathered together: one 64-byte line of a row.
const LINE: usize = 8;

/// One block's inputs, pair-major: pair `m` is steps `t0 + 2m, t0 + 2m + 1`.
/// An odd last step is paired with an idle one (`α = 1`, `k = q = 0`, `β = 0`).
pub struct Block {
    /// `[PAIRS, VECTORS, K]`: each pair's vectors (see [`VECTORS`]).
    pub rows: Vec<f64>,
    /// `[STEPS]`: `sq · k` and `β` of each step.
    pub qk: [f64; STEPS],
    pub beta: [f64; STEPS],
    /// `[PAIRS]`: `(k₁ ⊙ α₁)·k₀` and `(sq₁ ⊙ α₁)·k₀`, what step 1's dot
    /// products gain from step 0's write, per unit of its correction.
    pub kappa: [f64; PAIRS],
    pub mu: [f64; PAIRS],
    /// `[n, STEPS]`: the block's values `v_t[j0 + j]`, then its outputs.
    pub v: Vec<f64>,
    pub out: Vec<f64>,
}

impl Block {
    pub fn new(kd: usize, n: usize) -> Block {
        Block {
            rows: vec![0.0; PAIRS * VECTORS * kd],
            qk: [0.0; STEPS],
            beta: [0.0; STEPS],
            kappa: [0.0; PAIRS],
            mu: [0.0; PAIRS],
            v: vec![0.0; n * STEPS],
            out: vec![0.0; n * STEPS],
        }
    }

    /// Row `m` of [`Block::rows`], `[VECTORS, K]`.
    #[inline(always)]
    pub fn pair(&self, m: usize, kd: usize) -> &[f64] {
        &self.rows[m * VECTORS * kd..][..VECTORS * kd]
    }

    /// Gather steps `t0..t0 + len`, [`LINE`] key channels at a time: their
    /// `len` entries of `q, k, g` are contiguous (column-major), their
    /// `α = eᵍ` are taken `W` at a time by [`Wide::exp`], the pair products
    /// are formed across pairs, and each pair's row receives them as one
    /// line of each vector, not as [`LINE`] stores a row apart. The scalars
    /// `sq · k`, `κ`, `μ` are summed over ascending `d`.
    #[inline(always)]
    pub fn gather<V: Wide<W>, const W: usize>(
        &mut self,
        x: &Args,
        j0: usize,
        t0: usize,
        len: usize,
    ) {
        let (t_len, kd, _) = x.dims();
        let (q, k, v) = (x.q.as_slice(), x.k.as_slice(), x.v.as_slice());
        let beta = x.beta.expect("a delta rule: beta is given");
        let pairs = len.div_ceil(2);
        (self.qk, self.kappa, self.mu) = ([0.0; STEPS], [0.0; PAIRS], [0.0; PAIRS]);
        self.beta = [0.0; STEPS];
        self.beta[..len].copy_from_slice(&beta.as_slice()[t0..][..len]);
        // [VECTORS, LINE, PAIRS]: the channels' pair vectors, contiguous across pairs
        let mut tile = [[[0.0; PAIRS]; LINE]; VECTORS];
        for d0 in (0..kd).step_by(LINE) {
            let width = LINE.min(kd - d0);
            for e in 0..width {
                let d = d0 + e;
                // [2 pairs]: α, k, sq of channel d (the idle step: 1, 0, 0)
                let (mut al, mut kt, mut sq) = ([1.0; STEPS], [0.0; STEPS], [0.0; STEPS]);
                decays::<V, W>(x, d, t0, &mut al[..len]);
                kt[..len].copy_from_slice(&k[d * t_len + t0..][..len]);
                for (s, q) in sq.iter_mut().zip(&q[d * t_len + t0..][..len]) {
                    *s = x.scale * q;
                }
                for m in 0..pairs {
                    let (i0, i1) = (2 * m, 2 * m + 1);
                    let (a0, a1, k0, k1, s0, s1) = (al[i0], al[i1], kt[i0], kt[i1], sq[i0], sq[i1]);
                    let (ka1, sa1) = (k1 * a1, s1 * a1);
                    let row = [a1 * a0, a1 * k0, k1, k0 * a0, s0 * a0, ka1 * a0, sa1 * a0];
                    for (tile, r) in tile.iter_mut().zip(row) {
                        tile[e][m] = r;
                    }
                    self.qk[i0] = V::mul_add1(s0, k0, self.qk[i0]);
                    self.qk[i1] = V::mul_add1(s1, k1, self.qk[i1]);
                    self.kappa[m] = V::mul_add1(ka1, k0, self.kappa[m]);
                    self.mu[m] = V::mul_add1(sa1, k0, self.mu[m]);
                }
            }
            // each pair's row receives the line d0..d0 + width of every vector
            for m in 0..pairs {
                let row = &mut self.rows[m * VECTORS * kd..][..VECTORS * kd];
                for (r, tile) in tile.iter().enumerate() {
                    let line = &mut row[r * kd + d0..][..width];
                    for e in 0..width {
                        line[e] = tile[e][m];
                    }
                }
            }
        }
        for (j, row) in self.v.chunks_mut(STEPS).enumerate() {
            row[..len].copy_from_slice(&v[(j0 + j) * t_len + t0..][..len]);
            row[len..2 * pairs].fill(0.0);
        }
    }

    /// Column `j`'s corrections `[c₀, c₁]` of pair `m` from its four dot
    /// products on the state before the pair, and its two outputs:
    /// `c₀ = β₀ (v₀ − a₀)`, `o₀ = b₀ + c₀ (sq₀ · k₀)`; step 1 reads the state
    /// after step 0's write, so its sums gain `c₀ κ` and `c₀ μ` first.
    #[inline(always)]
    pub fn finish<V: Wide<W>, const W: usize>(
        &mut self,
        m: usize,
        j: usize,
        [a0, b0, a1, b1]: [f64; 4],
    ) -> [f64; 2] {
        let (i0, i1) = (2 * m, 2 * m + 1);
        let (v, o) = (&self.v[j * STEPS..], &mut self.out[j * STEPS..]);
        let c0 = self.beta[i0] * (v[i0] - a0);
        o[i0] = V::mul_add1(c0, self.qk[i0], b0);
        let a1 = V::mul_add1(c0, self.kappa[m], a1);
        let b1 = V::mul_add1(c0, self.mu[m], b1);
        let c1 = self.beta[i1] * (v[i1] - a1);
        o[i1] = V::mul_add1(c1, self.qk[i1], b1);
        [c0, c1]
    }

    /// Scatter the block's outputs into `out: [T, n]` at steps `t0..t0 + len`.
    pub fn scatter(&self, out: &mut [f64], t_len: usize, t0: usize, len: usize) {
        for (j, row) in self.out.chunks(STEPS).enumerate() {
            out[j * t_len + t0..][..len].copy_from_slice(&row[..len]);
        }
    }
}

/// Channel `d`'s decays `α_t[d] = exp(g_t[d])` at steps `t0..t0 + α.len()`
/// into `α`, by [`exp_into`] straight from the column of `g` (contiguous,
/// column-major).
#[inline(always)]
fn decays<V: Wide<W>, const W: usize>(x: &Args, d: usize, t0: usize, alpha: &mut [f64]) {
    let mut g = [0.0; STEPS];
    let g = match x.decay {
        Decay::Channel(m) => &m.as_slice()[d * m.nrows() + t0..][..alpha.len()],
        decay => {
            let g = &mut g[..alpha.len()];
            (g.iter_mut().enumerate()).for_each(|(i, g)| *g = decay.log_decay(t0 + i, d));
            g
        }
    };
    exp_into::<V, W>(g, alpha);
}
