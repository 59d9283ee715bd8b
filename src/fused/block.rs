//! One block of [`crate::mixer::stack::Block`] in the fused pass: every
//! projection one product over the part's rows ([`mod@super::gemm`]), every
//! row-wise step a pass over row-major rows ([`super::rows`]), the mixer the
//! fused kernels. The algebra is the reference block's.
//!
//! ```text
//! n = RMSNorm_in(h)                        [rows, d]
//! a = n W                                  [rows, P]    W = [W_q | W_k | W_v | W_g | w_β | W_f]
//! q, k, v = silu(conv(a_q | a_k | a_v))    one convolution over the 2K + V columns
//! o = mixer(l2(q), l2(k), v, σ(a_β), −e^{A_log} softplus(a_f + dt_bias))   (φ(q), φ(k): Zoology's)
//! h' = h + (RMSNorm_o(o) ⊙ silu(a_g)) W_o     at the rows read after the block: all, or the last block's queries
//! ```
//! Introduced in chapter 7.

use super::attention;
use super::gemm::{View, gemm, linear_backward};
use super::pass::{Kernel, Pass, inputs, lanes};
use super::recurrence;
use super::rows::{
    Conv, columns, conv, conv_backward, dot, features, features_backward, l2, l2_backward, pick,
    put_add, rms_norm, rms_norm_backward, set_columns, sigmoid, sigmoids, silu_into,
    softplus_sigmoid, sum,
};
use super::spare;
use super::weights::Weights;
use crate::mixer::Mixer;

vectorised! {
    /// `(h', pass)` for the residual stream `h: [rows, d]` of sequences of
    /// `t_len` rows; `h'` only at the rows `kept` (none: every row), the
    /// only ones read after the block. The mixer's state still reads every row.
    pub fn forward(w: &Weights, h: &[f32], t_len: usize, kept: Option<&[usize]>) -> (Vec<f32>, Pass) = forward_in;
}

/// [`forward`]'s body, inlined into its vectorised piece.
#[inline(always)]
fn forward_in(w: &Weights, h: &[f32], t_len: usize, kept: Option<&[usize]>) -> (Vec<f32>, Pass) {
    let (d, kd, vd, p) = (w.d, w.k, w.v, w.p());
    let rows = h.len() / d;
    let (n, inv_in) = rms_norm(h, &w.norm_in);
    let mut a = spare::take(rows * p);
    gemm(
        View::rows(&n, rows, d),
        View::columns(&w.w, d, p),
        &mut a,
        false,
    );
    let c = 2 * kd + vd;
    let input = Conv {
        x: &a,
        width: p,
        at: 0,
        w: &w.conv,
        t_len,
    };
    let z = conv(&input, c);
    let sz = sigmoids(&z);
    let mut y = spare::take(z.len());
    silu_into(&mut y, &z, &sz);
    let (mut q, mut k, v) = (
        columns(&y, c, 0, kd),
        columns(&y, c, kd, kd),
        columns(&y, c, 2 * kd, vd),
    );
    let (q_norm, k_norm) = match w.mixer {
        Mixer::Softmax => (Vec::new(), Vec::new()),
        m if m.maps_features() => {
            features(&mut q);
            features(&mut k);
            (Vec::new(), Vec::new())
        }
        _ => (l2(&mut q, kd), l2(&mut k, kd)),
    };
    let at = w.at_gate() + vd;
    let mut beta = spare::take(if w.beta > 0 { rows } else { 0 });
    for (b, r) in beta.iter_mut().zip(a.chunks_exact(p)) {
        *b = sigmoid(r[at]);
    }
    // z_f = a_f + dt_bias,  g = −e^{A_log} softplus(z_f),  and σ(z_f) in
    // z_f's place  [rows, 1 or K]
    let mut sf = columns(&a, p, at + w.beta, w.f);
    for zr in sf.chunks_exact_mut(w.f.max(1)) {
        for (z, &b) in zr.iter_mut().zip(&w.dt_bias) {
            *z += b;
        }
    }
    // (a plain loop over the gate's own numbers, so that it runs in vectors;
    // a closure passed to `collect` would be compiled without FMA)
    let e_a = w.a();
    let mut g = spare::take(sf.len());
    for (e, z) in g.iter_mut().zip(&mut sf) {
        let (softplus, sigmoid) = softplus_sigmoid(*z);
        (*e, *z) = (-e_a * softplus, sigmoid);
    }
    // (Gated DeltaNet's one gate repeated over the K channels)
    if w.f == 1 {
        let mut wide = vec![0.0; rows * kd];
        for (gr, &x) in wide.chunks_exact_mut(kd).zip(&g) {
            gr.fill(x);
        }
        g = wide;
    }
    let mut pass = Pass {
        n,
        inv_in,
        a,
        z,
        sz,
        q,
        k,
        v,
        q_norm,
        k_norm,
        beta,
        sf,
        g,
        kernel: Kernel::Softmax(Vec::new()),
        kept: kept.map(<[usize]>::to_vec),
        o: Vec::new(),
        inv_o: Vec::new(),
        y: Vec::new(),
        gate: Vec::new(),
        s_gate: Vec::new(),
        out: Vec::new(),
    };
    // o at the kept rows: softmax reads only those; the recurrence runs over all
    if w.mixer == Mixer::Softmax {
        let (o, weights) = attention::forward(&inputs(&pass, kd, t_len));
        pass.o = o;
        pass.kernel = Kernel::Softmax(weights);
    } else {
        let (o, trace) = recurrence::forward(&lanes(w, &pass, t_len));
        pass.o = match kept {
            Some(r) => pick(&o, vd, 0, vd, r),
            None => o,
        };
        pass.kernel = Kernel::Recurrence(trace);
    }
    (pass.y, pass.inv_o) = if w.mixer.norms_output() {
        rms_norm(&pass.o, &w.norm_o)
    } else {
        (pass.o.clone(), Vec::new())
    };
    // out = y ⊙ silu(a_g)
    pass.gate = match kept {
        Some(r) => pick(&pass.a, p, w.at_gate(), vd, r),
        None => columns(&pass.a, p, w.at_gate(), vd),
    };
    pass.s_gate = sigmoids(&pass.gate);
    pass.out = pass.y.clone();
    for ((o, &x), &s) in pass.out.iter_mut().zip(&pass.gate).zip(&pass.s_gate) {
        *o *= x * s;
    }
    let mut h_next = match kept {
        Some(r) => pick(h, d, 0, d, r),
        None => h.to_vec(),
    };
    gemm(
        View::rows(&pass.out, h_next.len() / d, vd),
        View::columns(&w.w_o, vd, d),
        &mut h_next,
        true,
    );
    (h_next, pass)
}

vectorised! {
    /// `h̄` from `h̄'` (at the rows the forward pass kept) and the block's
    /// input `h`; adds the block's gradients into `grad`.
    pub fn backward(
        w: &Weights,
        pass: &Pass,
        h: &[f32],
        dh_next: &[f32],
        t_len: usize,
        grad: &mut Weights,
    ) -> Vec<f32> = backward_in;
}

/// [`backward`]'s body, inlined into its vectorised piece.
#[inline(always)]
fn backward_in(
    w: &Weights,
    pass: &Pass,
    h: &[f32],
    dh_next: &[f32],
    t_len: usize,
    grad: &mut Weights,
) -> Vec<f32> {
    let (d, kd, vd, p) = (w.d, w.k, w.v, w.p());
    let rows = h.len() / d;
    let kept = pass.kept.as_deref();
    // W̄_o = outᵀ h̄';  out̄ = h̄' W_oᵀ   (at the kept rows)
    let mut d_out = linear_backward(&pass.out, &w.w_o, dh_next, vd, &mut grad.w_o);
    let mut da = vec![0.0; rows * p];
    let gate = w.at_gate();
    // ā_g = out̄ ⊙ y ⊙ silu'(a_g);  ȳ = out̄ ⊙ silu(a_g)
    let mut dgate = d_out.clone();
    let each = dgate
        .iter_mut()
        .zip(&mut d_out)
        .zip(pass.y.iter().zip(&pass.gate).zip(&pass.s_gate));
    for ((dg, dy), ((&y, &x), &s)) in each {
        *dg *= y * s * (1.0 + x * (1.0 - s));
        *dy *= x * s;
    }
    let d_o = if w.mixer.norms_output() {
        rms_norm_backward(&pass.o, &w.norm_o, &pass.inv_o, &d_out, &mut grad.norm_o)
    } else {
        d_out
    };
    // ā's gate columns: zero where no row was kept
    match kept {
        Some(r) => put_add(&mut da, p, gate, &dgate, r),
        None => set_columns(&mut da, p, gate, &dgate),
    }
    let (mut dq, mut dk, dv) = match &pass.kernel {
        Kernel::Softmax(weights) => attention::backward(&inputs(pass, kd, t_len), weights, &d_o),
        Kernel::Recurrence(trace) => {
            // ō at every row: zero where no row was kept
            let d_o = match kept {
                Some(r) => {
                    let mut all = vec![0.0; rows * vd];
                    put_add(&mut all, vd, 0, &d_o, r);
                    all
                }
                None => d_o,
            };
            let gr = recurrence::backward(&lanes(w, pass, t_len), trace, &d_o);
            let at = gate + vd;
            if w.beta > 0 {
                // ā_β = β̄ β (1 − β)
                for ((dar, &b), &db) in da.chunks_exact_mut(p).zip(&pass.beta).zip(&gr.beta) {
                    dar[at] = db * b * (1.0 - b);
                }
            }
            if w.f > 0 {
                // ḡ over K channels, summed into one for Gated DeltaNet's scalar gate;
                // Ā_log = Σ ḡ g;  z̄_f = −ḡ e^{A_log} σ(z_f)  (σ kept by the forward pass)
                grad.a_log[0] += dot(&gr.g, &pass.g);
                // (a loop, not `collect`: a closure is compiled without AVX2)
                let mut dz = gr.g;
                if w.f == 1 {
                    for r in 0..rows {
                        dz[r] = sum(&dz[r * kd..][..kd]);
                    }
                    dz.truncate(rows);
                }
                let e_a = w.a();
                for (d, &s) in dz.iter_mut().zip(&pass.sf) {
                    *d *= -e_a * s;
                }
                let from = at + w.beta;
                set_columns(&mut da, p, from, &dz);
                for dzr in dz.chunks_exact(w.f) {
                    for (b, &x) in grad.dt_bias.iter_mut().zip(dzr) {
                        *b += x;
                    }
                }
                spare::give(dz);
            }
            spare::give(gr.beta);
            (gr.q, gr.k, gr.v)
        }
    };
    if w.mixer.maps_features() {
        features_backward(&pass.q, &mut dq);
        features_backward(&pass.k, &mut dk);
    } else if w.mixer != Mixer::Softmax {
        l2_backward(&pass.q, &pass.q_norm, &mut dq);
        l2_backward(&pass.k, &pass.k_norm, &mut dk);
    }
    // z̄ = (q̄ | k̄ | v̄) ⊙ silu'(z), then the convolution's backward into ā
    let c = 2 * kd + vd;
    let mut dz = spare::take(rows * c);
    set_columns(&mut dz, c, 0, &dq);
    set_columns(&mut dz, c, kd, &dk);
    set_columns(&mut dz, c, 2 * kd, &dv);
    for ((o, &x), &s) in dz.iter_mut().zip(&pass.z).zip(&pass.sz) {
        *o *= s * (1.0 + x * (1.0 - s));
    }
    let input = Conv {
        x: &pass.a,
        width: p,
        at: 0,
        w: &w.conv,
        t_len,
    };
    conv_backward(&input, &dz, &mut da, &mut grad.conv);
    // W̄ = nᵀ ā;  n̄ = ā Wᵀ
    let dn = linear_backward(&pass.n, &w.w, &da, d, &mut grad.w);
    let mut dh = rms_norm_backward(h, &w.norm_in, &pass.inv_in, &dn, &mut grad.norm_in);
    match kept {
        Some(r) => put_add(&mut dh, d, 0, dh_next, r),
        None => {
            for (a, &b) in dh.iter_mut().zip(dh_next) {
                *a += b;
            }
        }
    }
    for b in [dq, dk, dv, dz, da, dn] {
        spare::give(b);
    }
    dh
}
