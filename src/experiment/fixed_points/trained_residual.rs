//! Chapter 5, trained: does training lower the fixed-point residual of the
//! essay's Lagrangian, and does a lower residual go with a better model?
//! Read from the runs of [`super::trained_absorption`].
//!
//! The essay's residual measures how far the layers' map `f_θ(x) = z^L(x)`
//! is from leaving the data where they are. Its data-level form relative to
//! the input, `r = √(Σ‖f(x) − x‖² / Σ‖x‖²)`, is zero only for the identity
//! and grows with the size of the outputs a model learns, so it cannot fall
//! when a model learns to write larger outputs. The book's default is the
//! scale-invariant *turn* residual, how far `f` turns each token off its own
//! ray (`train::turn_residual`); the output-relative form
//! `q = ‖f(x) − x‖ / ‖f(x)‖` (`train::output_residual`) and `r` are choices:
//!
//! ```text
//! ρ(θ) = mean_{x,t} (1 − cos(f_θ(x)_t, x_t))        default, invariant to the outputs' scale
//! q(θ) = √(Σ‖f(x) − x‖² / Σ‖f(x)‖²)                 choice
//! r(θ) = √(Σ‖f(x) − x‖² / Σ‖x‖²)                    choice (the chapter's earlier residual)
//! lowered ⇔ final residual < the same seed's, trained as long on shuffled labels
//! ```

use crate::measure::{Measure, fixed, pm};
use crate::stats::{Summary, median, share, spearman};

use super::trained_absorption::{CHAPTER, Findings, KEYS, RESIDUAL_EVERY, Residuals, Run};

/// Which residual.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Residual {
    /// `ρ`, the turn residual (the default).
    Turn,
    /// `q`, relative to the outputs.
    Output,
    /// `r`, relative to the inputs.
    Data,
}

impl Residual {
    pub const ALL: [Residual; 3] = [Residual::Turn, Residual::Output, Residual::Data];

    /// The curve of this residual in `r`.
    pub fn of(self, r: &Residuals) -> &[f64] {
        match self {
            Residual::Turn => &r.turn,
            Residual::Output => &r.output,
            Residual::Data => &r.data,
        }
    }

    /// Name used in measures.
    pub fn name(self) -> &'static str {
        match self {
            Residual::Turn => "turn",
            Residual::Output => "output",
            Residual::Data => "data",
        }
    }
}

fn last(xs: &[f64]) -> f64 {
    *xs.last().expect("at least one evaluation")
}

impl Findings {
    /// The runs of the chapter's five architectures, every seed.
    fn chapter_runs(&self) -> impl Iterator<Item = &Run> {
        CHAPTER.iter().flat_map(|&a| &self.runs[a])
    }

    /// Residual `which` of architecture `a` at initialisation (`init`) or
    /// at the end, over the reported seeds.
    pub fn residual(&self, a: usize, which: Residual, init: bool) -> Summary {
        Summary::of(
            &self.runs[a]
                .iter()
                .map(|r| match init {
                    true => which.of(&r.residual)[0],
                    false => last(which.of(&r.residual)),
                })
                .collect::<Vec<_>>(),
        )
    }

    /// Final residual `which` of architecture `a`'s shuffled-label nulls.
    pub fn null_residual(&self, a: usize, which: Residual) -> Summary {
        Summary::of(
            &self.runs[a]
                .iter()
                .filter_map(|r| r.null.as_ref())
                .map(|(_, n)| last(which.of(n)))
                .collect::<Vec<_>>(),
        )
    }

    /// Mean final test accuracy of architecture `a`'s shuffled-label nulls.
    pub fn null_accuracy(&self, a: usize) -> f64 {
        crate::stats::mean(
            &self.runs[a]
                .iter()
                .filter_map(|r| r.null.as_ref())
                .map(|(h, _)| h.final_accuracy)
                .collect::<Vec<_>>(),
        )
    }

    /// Per run with a null, whether its final residual `which` is below its null's.
    fn below_null_runs(&self, runs: &[Run], which: Residual) -> Vec<bool> {
        runs.iter()
            .filter_map(|r| {
                let (_, n) = r.null.as_ref()?;
                Some(last(which.of(&r.residual)) < last(which.of(n)))
            })
            .collect()
    }

    /// How many runs of architecture `a` (with a null) end below their null, and of how many.
    pub fn below_null_count(&self, a: usize, which: Residual) -> (usize, usize) {
        let b = self.below_null_runs(&self.runs[a], which);
        (b.iter().filter(|&&x| x).count(), b.len())
    }

    /// Share of the chapter's runs (with a null) whose final residual is below their null's.
    pub fn below_null(&self, which: Residual) -> f64 {
        share(
            CHAPTER
                .iter()
                .flat_map(|&a| self.below_null_runs(&self.runs[a], which)),
        )
    }

    /// Spearman ρ between residual `which` and the test accuracy over one
    /// run's evaluations, for every run of the chapter's architectures.
    pub fn within_run_rho(&self, which: Residual) -> Vec<f64> {
        self.chapter_runs()
            .map(|r| {
                let res = which.of(&r.residual);
                // the accuracy at the steps the residual was measured
                let acc: Vec<f64> = (0..res.len())
                    .map(|k| r.history.accuracy_at(k * RESIDUAL_EVERY))
                    .collect();
                spearman(res, &acc)
            })
            .collect()
    }

    /// Median of [`Findings::within_run_rho`].
    pub fn within_run_rho_median(&self, which: Residual) -> f64 {
        median(&self.within_run_rho(which))
    }
}

/// The numbers chapter 5 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = super::trained_absorption::book();
    let mut m = Vec::new();
    for which in Residual::ALL {
        let w = which.name();
        m.push(Measure::new(
            format!("residual_{w}_below_null"),
            fixed(f.below_null(which), 2),
        ));
        m.push(Measure::new(
            format!("residual_{w}_rho_within"),
            fixed(f.within_run_rho_median(which), 2),
        ));
        // the chapter tabulates the scale-invariant residual per architecture
        if which != Residual::Turn {
            continue;
        }
        for &a in &CHAPTER {
            let key = KEYS[a];
            let (below, of) = f.below_null_count(a, which);
            m.extend([
                Measure::new(
                    format!("residual_{w}_init_{key}"),
                    pm(f.residual(a, which, true), 2),
                ),
                Measure::new(
                    format!("residual_{w}_final_{key}"),
                    pm(f.residual(a, which, false), 2),
                ),
                Measure::new(
                    format!("residual_{w}_null_{key}"),
                    pm(f.null_residual(a, which), 2),
                ),
                Measure::new(format!("residual_{w}_below_{key}"), format!("{below}/{of}")),
            ]);
        }
    }
    for &a in &CHAPTER {
        m.push(Measure::new(
            format!("null_accuracy_{}", KEYS[a]),
            fixed(f.null_accuracy(a), 2),
        ));
    }
    m
}
