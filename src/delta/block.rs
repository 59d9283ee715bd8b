//! One block of the fused kernel's steps: its inputs gathered step-major,
//! its decays taken, and its outputs scattered back (see [`STEPS`]).

use super::args::{Args, Decay};
use super::wide::Wide;

/// Steps per block. The inputs are column-major (`q[d T + t]`), so one step
/// reads `K` scattered entries of each of `q, k, g` and `n` of `v`, and writes
/// `n` of `out`: each in its own cache line, missed afresh once the state's
/// sweep has evicted it. A block gathers `STEPS` steps' entries into
/// step-major buffers first (each line read once, whole), and scatters the
/// outputs once at its end.
pub const STEPS: usize = 64;

/// Key channels gathered together: one 64-byte line of a step-major row.
const LINE: usize = 8;

/// One block's inputs, step-major: row `i` is step `t0 + i`.
pub struct Block {
    /// `[STEPS, K]`: α, k, k ⊙ α, sq ⊙ α.
    pub alpha: Vec<f64>,
    pub k: Vec<f64>,
    pub ka: Vec<f64>,
    pub qa: Vec<f64>,
    /// `[STEPS]`: sq · k.
    pub qk: [f64; STEPS],
    /// `[n, STEPS]`: the block's values `v_t[j0 + j]`, then its outputs.
    pub v: Vec<f64>,
    pub out: Vec<f64>,
}

impl Block {
    pub fn new(kd: usize, n: usize) -> Block {
        let rows = || vec![0.0; STEPS * kd];
        Block {
            alpha: rows(),
            k: rows(),
            ka: rows(),
            qa: rows(),
            qk: [0.0; STEPS],
            v: vec![0.0; n * STEPS],
            out: vec![0.0; n * STEPS],
        }
    }

    /// Gather steps `t0..t0 + len`, [`LINE`] key channels at a time: their
    /// `len` entries of `q, k, g` are contiguous (column-major), their
    /// `α = eᵍ` are taken `W` at a time by [`Wide::exp`], and each step's
    /// row receives them as one line of each step-major buffer, not as
    /// [`LINE`] stores a row apart. Per step, the same arithmetic in the same
    /// order as one step at a time (`sq · k` summed over ascending `d`).
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
        self.qk = [0.0; STEPS];
        // [LINE, STEPS]: the channels' α, k, k ⊙ α and sq ⊙ α, each row
        // contiguous in time, so the products run across steps on the vector units
        let mut tile = [[[0.0; STEPS]; LINE]; 4];
        for d0 in (0..kd).step_by(LINE) {
            let width = LINE.min(kd - d0);
            for e in 0..width {
                let d = d0 + e;
                let [al, kt, ka, qa] = &mut tile;
                let (al, kt, ka, qa) = (
                    &mut al[e][..len],
                    &mut kt[e][..len],
                    &mut ka[e][..len],
                    &mut qa[e][..len],
                );
                decays::<V, W>(x, d, t0, al);
                kt.copy_from_slice(&k[d * t_len + t0..][..len]);
                let qd = &q[d * t_len + t0..][..len];
                for i in 0..len {
                    let sq = x.scale * qd[i];
                    (ka[i], qa[i]) = (kt[i] * al[i], sq * al[i]);
                    self.qk[i] = V::mul_add1(sq, kt[i], self.qk[i]);
                }
            }
            // each step's row receives the line d0..d0 + width of every buffer
            let rows = [&mut self.alpha, &mut self.k, &mut self.ka, &mut self.qa];
            for (rows, tile) in rows.into_iter().zip(&tile) {
                for i in 0..len {
                    let row = &mut rows[i * kd + d0..][..width];
                    for e in 0..width {
                        row[e] = tile[e][i];
                    }
                }
            }
        }
        for (j, row) in self.v.chunks_mut(STEPS).enumerate() {
            row[..len].copy_from_slice(&v[(j0 + j) * t_len + t0..][..len]);
        }
    }

    /// Scatter the block's outputs into `out: [T, n]` at steps `t0..t0 + len`.
    pub fn scatter(&self, out: &mut [f64], t_len: usize, t0: usize, len: usize) {
        for (j, row) in self.out.chunks(STEPS).enumerate() {
            out[j * t_len + t0..][..len].copy_from_slice(&row[..len]);
        }
    }
}

/// Channel `d`'s decays `α_t[d] = exp(g_t[d])` at steps `t0..t0 + α.len()`
/// into `α`, `W` at a time by [`Wide::exp`] straight from the column of `g`
/// (contiguous, column-major), the last `len mod W` through a padded copy.
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
    let (a, a_tail) = alpha.as_chunks_mut::<W>();
    let (g, g_tail) = g.as_chunks::<W>();
    for (a, g) in a.iter_mut().zip(g) {
        V::load(g).exp().store(a);
    }
    if !a_tail.is_empty() {
        let mut pad = [0.0; W];
        pad[..g_tail.len()].copy_from_slice(g_tail);
        let mut e = [0.0; W];
        V::load(&pad).exp().store(&mut e);
        a_tail.copy_from_slice(&e[..a_tail.len()]);
    }
}

/// Row `i` of a step-major `[STEPS, K]` buffer.
#[inline(always)]
pub fn step(m: &[f64], i: usize, kd: usize) -> &[f64] {
    &m[i * kd..][..kd]
}
