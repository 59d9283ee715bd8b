//! Prefetches of the fused kernel's next block of inputs.
//!
//! The inputs are column-major, so a block of `STEPS` steps reads a short run
//! of every column of `q, k, g` and of its value channels of `v`: at long
//! sequences, each run a miss to
//! memory of its own, too many for the hardware prefetcher's streams. While
//! the state is swept for one block's steps, those runs of the next block are
//! asked for into L2, a share per step.

use super::args::{Args, Decay};

/// The runs of block `t0..t0 + len` for the value channels `j0..j0 + n`:
/// columns `d` of `q, k` (and `g`, if per channel), then `j0 + j` of `v`.
pub struct Runs<'a> {
    inputs: [&'a [f64]; 3],
    v: &'a [f64],
    t_len: usize,
    kd: usize,
    n: usize,
    j0: usize,
    t0: usize,
    len: usize,
}

impl<'a> Runs<'a> {
    /// The runs of block `t0..t0 + len` (`len = 0`: none).
    pub fn new(x: &Args<'a>, (j0, n): (usize, usize), t0: usize, len: usize) -> Self {
        let (t_len, kd, _) = x.dims();
        let g = match x.decay {
            Decay::Channel(g) => g.as_slice(),
            _ => &[],
        };
        Runs {
            inputs: [x.q.as_slice(), x.k.as_slice(), g],
            v: x.v.as_slice(),
            t_len,
            kd,
            n,
            j0,
            t0,
            len,
        }
    }

    /// How many runs there are.
    pub fn count(&self) -> usize {
        3 * self.kd + self.n
    }

    /// Ask for the runs `first..last` (clipped to [`Runs::count`]).
    #[inline(always)]
    pub fn fetch(&self, first: usize, last: usize) {
        if self.len == 0 {
            return;
        }
        for r in first..last.min(self.count()) {
            let (m, col) = match r / self.kd {
                p @ 0..3 => (self.inputs[p], r % self.kd),
                _ => (self.v, self.j0 + r - 3 * self.kd),
            };
            // (g is empty unless per channel)
            let start = col * self.t_len + self.t0;
            if let Some(run) = m.get(start..start + self.len) {
                lines(run);
            }
        }
    }
}

/// Ask for every 64-byte line of `run` into L2.
#[inline(always)]
fn lines(run: &[f64]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T1, _mm_prefetch};
        let p = run.as_ptr_range();
        let mut a = p.start as usize & !63;
        while a < p.end as usize {
            // SAFETY: a prefetch is a hint; it never faults, whatever the address
            unsafe { _mm_prefetch::<_MM_HINT_T1>(a as *const i8) };
            a += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = run;
}
