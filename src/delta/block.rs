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

    /// Gather steps `t0..t0 + len`, one key channel `d` at a time: its `len`
    /// entries of `q, k, g` are contiguous (column-major), and their `α = eᵍ`
    /// are taken `W` at a time by [`Wide::exp`]. Per step, the same arithmetic
    /// in the same order as one step at a time.
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
        let mut alpha = [0.0; STEPS];
        for d in 0..kd {
            decays::<V, W>(x, d, t0, &mut alpha[..len]);
            let (qd, kd_) = (&q[d * t_len + t0..][..len], &k[d * t_len + t0..][..len]);
            // row i of each step-major buffer, entry d
            let rows = (self
                .alpha
                .chunks_exact_mut(kd)
                .zip(self.k.chunks_exact_mut(kd)))
            .zip(
                self.ka
                    .chunks_exact_mut(kd)
                    .zip(self.qa.chunks_exact_mut(kd)),
            )
            .zip(&mut self.qk);
            let inputs = alpha[..len].iter().zip(kd_).zip(qd);
            for ((((al, k), (ka, qa)), qk), ((&alpha, &kd_), &qd)) in rows.zip(inputs) {
                let qd = x.scale * qd;
                (al[d], k[d]) = (alpha, kd_);
                (ka[d], qa[d]) = (kd_ * alpha, qd * alpha);
                *qk = V::mul_add1(qd, kd_, *qk);
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
