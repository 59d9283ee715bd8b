//! One sweep of the fused kernel over a panel of the state's columns: the
//! pending pair of steps' write, and the next pair's four dot products
//! (see [`super::fused`]).

use super::block::VECTORS;
use super::wide::Wide;

/// The `[K]` vectors every column reads in one sweep, as `W`-lane chunks
/// and their last `K mod W` entries: the pending pair's write
/// `α₁ ⊙ α₀, α₁ ⊙ k₀, k₁`, then this pair's reads (see [`VECTORS`]).
pub struct Shared<'a, const W: usize> {
    chunks: [&'a [[f64; W]]; VECTORS],
    tails: [&'a [f64]; VECTORS],
}

impl<'a, const W: usize> Shared<'a, W> {
    /// From the rows `[VECTORS, K]` of the pending pair and of this one.
    #[inline(always)]
    pub fn new(write: &'a [f64], read: &'a [f64], kd: usize) -> Shared<'a, W> {
        let mut chunks: [&[[f64; W]]; VECTORS] = [&[]; VECTORS];
        let mut tails: [&[f64]; VECTORS] = [&[]; VECTORS];
        for r in 0..VECTORS {
            let row = if r < 3 { write } else { read };
            (chunks[r], tails[r]) = row[r * kd..][..kd].as_chunks::<W>();
        }
        Shared { chunks, tails }
    }
}

/// One pass over the columns of `s: [K, n]`: the pending pair's write
/// `s_j ← (α₁ ⊙ α₀) ⊙ s_j + c₀ (α₁ ⊙ k₀) + c₁ k₁`, then this pair's four dot
/// products on the new values, `G` columns at a time (they share the loads of
/// the seven vectors, and their `4 G` running sums are independent chains of
/// multiply-adds). Each column's arithmetic is the same alone or in a group,
/// so results do not depend on the grouping.
#[inline(always)]
pub fn sweep<V: Wide<W>, const W: usize, const G: usize>(
    s: &mut [f64],
    kd: usize,
    shared: &Shared<W>,
    c: &[[f64; 2]],
    dots: &mut [[f64; 4]],
) {
    let done = s.len() / kd / G * G;
    let mut groups = s.chunks_exact_mut(G * kd);
    for (p, cols) in groups.by_ref().enumerate() {
        let j = G * p;
        let mut cg = [[0.0; 2]; G];
        cg.copy_from_slice(&c[j..j + G]);
        let sums = group::<V, W, G>(cols, kd, shared, cg);
        dots[j..j + G].copy_from_slice(&sums);
    }
    for (i, col) in groups.into_remainder().chunks_mut(kd).enumerate() {
        let j = done + i;
        [dots[j]] = group::<V, W, 1>(col, kd, shared, [c[j]]);
    }
}

/// `G` adjacent columns `cols: [K, G]` of the state through one sweep.
#[inline(always)]
fn group<V: Wide<W>, const W: usize, const G: usize>(
    cols: &mut [f64],
    kd: usize,
    shared: &Shared<W>,
    c: [[f64; 2]; G],
) -> [[f64; 4]; G] {
    let [p, u, w, ka0, qa0, ka1, qa1] = shared.chunks;
    // (loops, not array::map: a map's call may not be inlined, and then
    // neither compiled for the vector units nor free of copies)
    let mut acc = [Acc::<V, W>::new([0.0; 2]); G];
    for g in 0..G {
        acc[g] = Acc::new(c[g]);
    }
    let mut split = cols.chunks_exact_mut(kd);
    let mut m: [_; G] =
        std::array::from_fn(|_| split.next().expect("G columns").as_chunks_mut::<W>());
    let n = p.len();
    for (x, _) in &m {
        assert_eq!(x.len(), n);
    }
    for i in 0..n {
        let sh = [
            V::load(&p[i]),
            V::load(&u[i]),
            V::load(&w[i]),
            V::load(&ka0[i]),
            V::load(&qa0[i]),
            V::load(&ka1[i]),
            V::load(&qa1[i]),
        ];
        for g in 0..G {
            acc[g].lanes(&mut m[g].0[i], sh);
        }
    }
    let mut tails = [[0.0; 4]; G];
    for (g, (acc, (_, tail))) in acc.iter().zip(m.iter_mut()).enumerate() {
        tails[g] = acc.tail(tail, shared);
    }
    let (mut a0, mut b0, mut a1, mut b1) = (
        [V::zero(); G],
        [V::zero(); G],
        [V::zero(); G],
        [V::zero(); G],
    );
    for g in 0..G {
        [a0[g], b0[g], a1[g], b1[g]] = acc[g].dots;
    }
    let (step0, step1) = (V::pair_sums(a0, b0), V::pair_sums(a1, b1));
    let mut out = [[0.0; 4]; G];
    for g in 0..G {
        let t = tails[g];
        out[g] = [
            step0[g].0 + t[0],
            step0[g].1 + t[1],
            step1[g].0 + t[2],
            step1[g].1 + t[3],
        ];
    }
    out
}

/// One column's corrections `c₀, c₁` and the lane sums of its four dot products.
#[derive(Clone, Copy)]
struct Acc<V, const W: usize> {
    c: [f64; 2],
    cv: [V; 2],
    dots: [V; 4],
}

impl<V: Wide<W>, const W: usize> Acc<V, W> {
    #[inline(always)]
    fn new(c: [f64; 2]) -> Acc<V, W> {
        Acc {
            c,
            cv: [V::splat(c[0]), V::splat(c[1])],
            dots: [V::zero(); 4],
        }
    }

    /// `W` entries of the column: `x = (α₁ ⊙ α₀) s + c₀ (α₁ ⊙ k₀) + c₁ k₁`,
    /// stored; then the four dot products gain `(k₀ ⊙ α₀) x`, … .
    #[inline(always)]
    fn lanes(&mut self, s: &mut [f64; W], [p, u, w, ka0, qa0, ka1, qa1]: [V; VECTORS]) {
        let x = p.mul_add(V::load(s), self.cv[1].mul_add(w, self.cv[0].mul(u)));
        x.store(s);
        let [a0, b0, a1, b1] = &mut self.dots;
        *a0 = ka0.mul_add(x, *a0);
        *b0 = qa0.mul_add(x, *b0);
        *a1 = ka1.mul_add(x, *a1);
        *b1 = qa1.mul_add(x, *b1);
    }

    /// The column's last `K mod W` entries, and their share of the four dot products.
    #[inline(always)]
    fn tail(&self, s: &mut [f64], shared: &Shared<W>) -> [f64; 4] {
        let [p, u, w, ka0, qa0, ka1, qa1] = shared.tails;
        let mut t = [0.0; 4];
        for d in 0..s.len() {
            let x = V::mul_add1(p[d], s[d], V::mul_add1(self.c[1], w[d], self.c[0] * u[d]));
            s[d] = x;
            for (t, r) in t.iter_mut().zip([ka0[d], qa0[d], ka1[d], qa1[d]]) {
                *t = V::mul_add1(r, x, *t);
            }
        }
        t
    }
}
