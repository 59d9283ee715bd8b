//! Unit tests of `crate::delta::fused` (`src/delta/fused.rs`).

use attention_geometry::delta::DeltaInput;
use attention_geometry::delta::args::{Args, Decay};
use attention_geometry::delta::fused::*;
use attention_geometry::delta::lanes::L;
use nalgebra::DMatrix;

#[test]
fn the_portable_loop_equals_the_reference() {
    for (seed, t, kd, vd) in [
        (1, 60, 9, 5),
        (2, 40, 4, 8),
        (3, 30, 13, 3),
        (4, 131, 11, 6),
        (5, 1, 3, 2),
    ] {
        let x = DeltaInput::random(seed, t, kd, vd, 2.0);
        let g = match x.gate() {
            attention_geometry::delta::Gate::PerChannel(g) => g.clone(),
            _ => unreachable!(),
        };
        let args = Args {
            q: x.q(),
            k: x.k(),
            v: x.v(),
            decay: Decay::Channel(&g),
            beta: Some(x.beta()),
            scale: x.scale(),
            initial_state: x.initial_state(),
        };
        let mut s = args.start_state();
        let mut out = DMatrix::zeros(t, vd);
        columns_with::<[f64; L]>(&args, 0, s.as_mut_slice(), out.as_mut_slice());
        let (o, s_ref) = x.kda();
        assert!((o - out).amax() < 1e-12 && (s_ref - s).amax() < 1e-12);
    }
}
