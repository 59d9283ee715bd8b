//! One block of [`crate::mixer::stack::Block`] in `f32` over a whole batch:
//! every projection is one matrix product over the `B·T` rows, the
//! convolution and the mixer run sequence by sequence. The algebra is the
//! reference block's; see its module for the formulas.
//!
//! ```text
//! n = RMSNorm_in(h)                       [B·T, d]
//! q, k, v = conv(n W_q), conv(n W_k), conv(n W_v)
//! o = mixer(l2(q), l2(k), v, σ(n w_β), −e^{A_log} softplus(n W_f + dt_bias))   (φ(q), φ(k): Zoology's)
//! h' = h + (RMSNorm_o(o) ⊙ SiLU(n W_g)) W_o                                     (o ⊙ SiLU: Zoology's)
//! ```
//! Introduced in chapter 7.

use super::attention;
use super::recurrence::{self, Lanes, Trace};
use super::rows::{
    M, conv, conv_backward, features, features_backward, l2_rows, l2_rows_backward, rms_norm,
    rms_norm_backward, sigmoid, silu, silu_backward, softplus,
};
use crate::mixer::Mixer;
use crate::mixer::stack::Block;

/// How the mixer ran: the recurrence's trace or softmax's weights.
#[derive(Clone, Debug)]
enum Kernel {
    Recurrence {
        trace: Trace,
        q_norm: Vec<f32>,
        k_norm: Vec<f32>,
    },
    Softmax(Vec<M>),
}

/// What one block's forward pass keeps for its backward pass.
#[derive(Clone, Debug)]
pub struct Pass {
    mixer: Mixer,
    h: M,
    n: M,
    inv_in: Vec<f32>,
    /// `(projection, conv pre-activation)` of q, k, v.
    pre: [(M, M); 3],
    /// q, k as the mixer reads them, and v.
    q: M,
    k: M,
    v: M,
    /// `[B·T]`: `β` (delta mixers).
    beta: Option<Vec<f32>>,
    /// `[B·T, 1 or K]`: the gate's softplus input and `g`.
    gate_in: Option<(M, M)>,
    kernel: Kernel,
    o: M,
    inv_o: Vec<f32>,
    y: M,
    gate: M,
    out: M,
}

/// `[W_q | W_k | W_v | W_g | w_β | W_f]` and the widths of the parts
/// (`w_β`, `W_f` of width 0 where the mixer has none).
#[inline(always)]
fn side_by_side(b: &Block<f32>) -> (M, [usize; 6]) {
    let parts = [&b.w_q, &b.w_k, &b.w_v, &b.w_g, &b.w_beta, &b.w_gate];
    let widths = parts.map(|p| p.ncols());
    let d = b.w_q.nrows();
    let mut w = M::zeros(d, widths.iter().sum());
    let mut at = 0;
    for p in parts.into_iter().filter(|p| p.ncols() > 0) {
        w.columns_mut(at, p.ncols()).copy_from(p);
        at += p.ncols();
    }
    (w, widths)
}

/// The columns of `m` cut into consecutive parts of `widths` (empty parts left out).
#[inline(always)]
fn split(m: &M, widths: &[usize]) -> Vec<M> {
    let mut at = 0;
    let mut parts = Vec::new();
    for &w in widths.iter().filter(|&&w| w > 0) {
        parts.push(m.columns(at, w).into_owned());
        at += w;
    }
    parts
}

/// `m` row-major.
#[inline(always)]
fn row_major(m: &M) -> Vec<f32> {
    m.transpose().data.into()
}

/// `g: [B·T, 1 or K]` as `[B·T, K]`, row-major.
#[inline(always)]
fn broadcast(g: &M, kd: usize) -> Vec<f32> {
    (0..g.nrows() * kd)
        .map(|i| g[(i / kd, (i % kd).min(g.ncols() - 1))])
        .collect()
}

/// `(h', pass)` for the residual stream `h: [B·T, d]` of sequences of `t_len`.
#[inline(always)]
pub fn forward(b: &Block<f32>, mixer: Mixer, h: &M, t_len: usize) -> (M, Pass) {
    let (n, inv_in) = rms_norm(h, &b.norm_in);
    // every projection of n in one product, then split by columns
    let (w, widths) = side_by_side(b);
    let all = &n * &w;
    let mut parts = split(&all, &widths).into_iter();
    let mut part = || parts.next().expect("six parts");
    let mut conv_of = |c: &M| {
        let p = part();
        let (y, z) = conv(&p, c, t_len);
        (y, (p, z))
    };
    let (q, pre_q) = conv_of(&b.conv_q);
    let (k, pre_k) = conv_of(&b.conv_k);
    let (v, pre_v) = conv_of(&b.conv_v);
    let gate = part();
    let beta = mixer
        .writes_delta()
        .then(|| part().iter().map(|&x| sigmoid(x)).collect());
    let gate_in = mixer.decays().then(|| {
        let mut z = part();
        for (c, mut col) in z.column_iter_mut().enumerate() {
            col.iter_mut().for_each(|x| *x += b.dt_bias[c]);
        }
        let a = b.a_log[0].exp();
        let g = z.map(|x| -a * softplus(x));
        (z, g)
    });
    let kd = q.ncols();
    let scale = 1.0 / (kd as f32).sqrt();
    let (q, k, o, kernel) = if mixer == Mixer::Softmax {
        let (o, weights) = attention::forward(&q, &k, &v, scale, t_len);
        (q, k, o, Kernel::Softmax(weights))
    } else {
        let ((q, q_norm), (k, k_norm)) = if mixer.maps_features() {
            ((features(&q), Vec::new()), (features(&k), Vec::new()))
        } else {
            (l2_rows(&q), l2_rows(&k))
        };
        let (qr, kr, vr) = (row_major(&q), row_major(&k), row_major(&v));
        let g = gate_in.as_ref().map(|(_, g)| broadcast(g, kd));
        let lanes = Lanes {
            q: &qr,
            k: &kr,
            v: &vr,
            beta: beta.as_deref(),
            g: g.as_deref(),
            scale,
            normaliser: mixer.normaliser().map(|e| e as f32),
            t_len,
            kd,
        };
        let (o, trace) = recurrence::forward(&lanes);
        let o = M::from_row_slice(v.nrows(), v.ncols(), &o);
        let kernel = Kernel::Recurrence {
            trace,
            q_norm,
            k_norm,
        };
        (q, k, o, kernel)
    };
    let (y, inv_o) = if mixer.norms_output() {
        rms_norm(&o, &b.norm_o)
    } else {
        (o.clone(), Vec::new())
    };
    let out = y.component_mul(&silu(&gate));
    let h_next = h + &out * &b.w_o;
    let pass = Pass {
        mixer,
        h: h.clone(),
        n,
        inv_in,
        pre: [pre_q, pre_k, pre_v],
        q,
        k,
        v,
        beta,
        gate_in,
        kernel,
        o,
        inv_o,
        y,
        gate,
        out,
    };
    (h_next, pass)
}

/// `h̄` from `h̄'`; adds the block's gradients into `grad`.
#[inline(always)]
pub fn backward(
    b: &Block<f32>,
    pass: &Pass,
    dh_next: &M,
    t_len: usize,
    grad: &mut Block<f32>,
) -> M {
    grad.w_o += pass.out.transpose() * dh_next;
    let d_out = dh_next * b.w_o.transpose();
    let dy = d_out.component_mul(&silu(&pass.gate));
    let dgate = silu_backward(&pass.gate, &d_out.component_mul(&pass.y));
    let d_o = if pass.mixer.norms_output() {
        let (d_o, dnorm_o) = rms_norm_backward(&pass.o, &b.norm_o, &pass.inv_o, &dy);
        grad.norm_o += dnorm_o;
        d_o
    } else {
        dy
    };
    let kd = pass.q.ncols();
    let scale = 1.0 / (kd as f32).sqrt();
    let (dq, dk, dv, dbeta, dg) = match &pass.kernel {
        Kernel::Softmax(weights) => {
            let (dq, dk, dv) = attention::backward(&pass.q, &pass.k, &pass.v, weights, scale, &d_o);
            (dq, dk, dv, None, None)
        }
        Kernel::Recurrence {
            trace,
            q_norm,
            k_norm,
        } => {
            let (qr, kr, vr) = (row_major(&pass.q), row_major(&pass.k), row_major(&pass.v));
            let g = pass.gate_in.as_ref().map(|(_, g)| broadcast(g, kd));
            let lanes = Lanes {
                q: &qr,
                k: &kr,
                v: &vr,
                beta: pass.beta.as_deref(),
                g: g.as_deref(),
                scale,
                normaliser: pass.mixer.normaliser().map(|e| e as f32),
                t_len,
                kd,
            };
            let gr = recurrence::backward(&lanes, trace, &row_major(&d_o));
            let rows = pass.q.nrows();
            let dq = M::from_row_slice(rows, kd, &gr.q);
            let dk = M::from_row_slice(rows, kd, &gr.k);
            let (dq, dk) = if pass.mixer.maps_features() {
                (
                    features_backward(&pass.q, &dq),
                    features_backward(&pass.k, &dk),
                )
            } else {
                (
                    l2_rows_backward(&pass.q, q_norm, &dq),
                    l2_rows_backward(&pass.k, k_norm, &dk),
                )
            };
            (
                dq,
                dk,
                M::from_row_slice(rows, pass.v.ncols(), &gr.v),
                Some(gr.beta),
                Some(M::from_row_slice(rows, kd, &gr.g)),
            )
        }
    };
    // the gradients of the six parts of n [W_q | W_k | W_v | W_g | w_β | W_f]
    let mut dparts = Vec::with_capacity(6);
    let convs = [
        (&b.conv_q, &mut grad.conv_q),
        (&b.conv_k, &mut grad.conv_k),
        (&b.conv_v, &mut grad.conv_v),
    ];
    for ((c, dc_w), (dc, (p, z))) in convs.into_iter().zip([dq, dk, dv].iter().zip(&pass.pre)) {
        let (dp, dw) = conv_backward(p, c, z, dc, t_len);
        *dc_w += dw;
        dparts.push(dp);
    }
    dparts.push(dgate);
    if let (Some(beta), Some(db)) = (&pass.beta, dbeta) {
        // logit̄ = β̄ β (1 − β)
        dparts.push(M::from_fn(beta.len(), 1, |r, _| {
            db[r] * beta[r] * (1.0 - beta[r])
        }));
    }
    if let (Some((z, g)), Some(dg_wide)) = (&pass.gate_in, dg) {
        // Gated DeltaNet's scalar gate collects every channel's gradient
        let dg = match g.ncols() {
            1 => M::from_fn(g.nrows(), 1, |r, _| dg_wide.row(r).sum()),
            _ => dg_wide,
        };
        let a = b.a_log[0].exp();
        let dz = z.zip_map(&dg, |x, d| -d * a * sigmoid(x));
        grad.a_log[0] += dg.dot(g);
        for (c, col) in dz.column_iter().enumerate() {
            grad.dt_bias[c] += col.sum();
        }
        dparts.push(dz);
    }
    let (w, widths) = side_by_side(b);
    let mut dall = M::zeros(pass.n.nrows(), w.ncols());
    let mut at = 0;
    for dp in &dparts {
        dall.columns_mut(at, dp.ncols()).copy_from(dp);
        at += dp.ncols();
    }
    let dn = &dall * w.transpose();
    let dw = pass.n.transpose() * &dall;
    let targets = [
        &mut grad.w_q,
        &mut grad.w_k,
        &mut grad.w_v,
        &mut grad.w_g,
        &mut grad.w_beta,
        &mut grad.w_gate,
    ];
    for (t, part) in targets
        .into_iter()
        .filter(|t| t.ncols() > 0)
        .zip(split(&dw, &widths))
    {
        *t += part;
    }
    let (dh, dnorm_in) = rms_norm_backward(&pass.h, &b.norm_in, &pass.inv_in, &dn);
    grad.norm_in += dnorm_in;
    dh + dh_next
}
