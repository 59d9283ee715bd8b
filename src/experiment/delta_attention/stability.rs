//! Chapter 7: under strong decay the chunkwise form's difference form stays
//! finite and exact while the factorised form overflows.

use nalgebra::DMatrix;

use crate::delta::{DecayForm, DeltaInput, Gate};
use crate::measure::{Measure, fixed, sci};

/// The input (seed, `t` steps, widths `k`, `v`, scale), the chunk size and
/// the constant per-step decays `g = −s` swept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub seed: u64,
    pub t: usize,
    pub k: usize,
    pub v: usize,
    pub scale: f64,
    pub chunk: usize,
    pub strengths: &'static [f64],
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    seed: 3,
    t: 128,
    k: 4,
    v: 3,
    scale: 0.5,
    chunk: 64,
    strengths: &[
        0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 6.0, 9.0, 11.0, 12.0, 15.0, 20.0,
    ],
};

/// For each decay `s`: `(s, difference-form error, factorised-form error)`,
/// the largest error against the recurrence (`NaN` when the form produced a
/// non-finite number).
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub sweep: Vec<(f64, f64, f64)>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let (t, k) = (setup.t, setup.k);
        let sweep = setup
            .strengths
            .iter()
            .map(|&s| {
                let x = DeltaInput::random(setup.seed, t, k, setup.v, 0.0)
                    .with_gate(Gate::PerChannel(DMatrix::from_element(t, k, -s)))
                    .with_scale(setup.scale);
                let (o, _) = x.kda();
                let err = |form| {
                    let (oc, _) = x.kda_chunked_with(setup.chunk, form);
                    if oc.iter().all(|x| x.is_finite()) {
                        (&o - oc).amax()
                    } else {
                        f64::NAN
                    }
                };
                (s, err(DecayForm::Difference), err(DecayForm::Factorised))
            })
            .collect();
        Findings { sweep }
    }

    /// The smallest decay at which the factorised form fails.
    pub fn factorised_failure(&self) -> Option<f64> {
        self.sweep.iter().find(|s| s.2.is_nan()).map(|s| s.0)
    }

    /// The largest error of the difference form over the sweep.
    pub fn difference_error(&self) -> f64 {
        self.sweep.iter().map(|s| s.1).fold(0.0, f64::max)
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 7 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    vec![
        Measure::new("stability_chunk", BOOK.chunk.to_string()),
        Measure::new("safe_exponent", fixed(crate::delta::SAFE_EXPONENT, 0)),
        Measure::new("difference_error", sci(f.difference_error(), 1)),
        Measure::new(
            "factorised_failure",
            f.factorised_failure()
                .map_or("never".to_string(), |s| fixed(s, 0)),
        ),
    ]
}
