//! Chapter 5, trained: does training lower the data-level fixed-point
//! residual of the essay's Lagrangian, `√(Σ_x ‖f_θ(x) − x‖² / Σ_x ‖x‖²)`
//! ([`crate::train::data_residual`]), and does a lower residual go with a
//! better model? Read from the runs of [`super::trained_absorption`]; the
//! baseline is each run's own model at initialisation.

use crate::measure::{Measure, fixed, pm};
use crate::stats::{Summary, mean, median, spearman};

use super::trained_absorption::{CHAPTER, Findings, KEYS, Run};

impl Findings {
    /// The runs of the chapter's five architectures, every seed.
    fn chapter_runs(&self) -> impl Iterator<Item = &Run> {
        CHAPTER.iter().flat_map(|&a| &self.runs[a])
    }

    /// Residual of architecture `a` at evaluation `k` (0: initialisation;
    /// `None`: the last), over the reported seeds.
    pub fn residual(&self, a: usize, k: Option<usize>) -> Summary {
        Summary::of(
            &self.runs[a]
                .iter()
                .map(|r| k.map_or(r.residual[r.residual.len() - 1], |k| r.residual[k]))
                .collect::<Vec<_>>(),
        )
    }

    /// How many runs of architecture `a` end with a lower residual than they started with.
    pub fn lowered(&self, a: usize) -> usize {
        self.runs[a].iter().filter(|r| lowers(r)).count()
    }

    /// Share of the chapter's runs that end with a lower residual than at initialisation.
    pub fn lowered_share(&self) -> f64 {
        let runs: Vec<&Run> = self.chapter_runs().collect();
        runs.iter().filter(|r| lowers(r)).count() as f64 / runs.len() as f64
    }

    /// Spearman ρ between the residual and the test accuracy over one run's
    /// evaluations, for every run of the chapter's architectures.
    pub fn within_run_rho(&self) -> Vec<f64> {
        self.chapter_runs()
            .map(|r| spearman(&r.residual, &r.history.accuracy))
            .collect()
    }

    /// Median of [`Findings::within_run_rho`].
    pub fn within_run_rho_median(&self) -> f64 {
        median(&self.within_run_rho())
    }

    /// Spearman ρ between final residual and final accuracy across the seeds
    /// of architecture `a`.
    pub fn across_seeds_rho(&self, a: usize) -> f64 {
        let (res, acc): (Vec<f64>, Vec<f64>) = self.runs[a]
            .iter()
            .map(|r| (r.residual[r.residual.len() - 1], r.history.final_accuracy))
            .unzip();
        spearman(&res, &acc)
    }

    /// Mean over the chapter's architectures of [`Findings::across_seeds_rho`].
    pub fn across_seeds_rho_mean(&self) -> f64 {
        mean(&CHAPTER.map(|a| self.across_seeds_rho(a)))
    }
}

/// Whether a run ends with a lower residual than at initialisation.
fn lowers(r: &Run) -> bool {
    r.residual[r.residual.len() - 1] < r.residual[0]
}

/// The numbers chapter 5 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = super::trained_absorption::book();
    let mut m = vec![
        Measure::new("residual_lowered_share", fixed(f.lowered_share(), 2)),
        Measure::new("residual_rho_within", fixed(f.within_run_rho_median(), 2)),
        Measure::new("residual_rho_across", fixed(f.across_seeds_rho_mean(), 2)),
    ];
    for &a in &CHAPTER {
        let key = KEYS[a];
        m.push(Measure::new(
            format!("residual_init_{key}"),
            pm(f.residual(a, Some(0)), 2),
        ));
        m.push(Measure::new(
            format!("residual_final_{key}"),
            pm(f.residual(a, None), 2),
        ));
        m.push(Measure::new(
            format!("residual_lowered_{key}"),
            f.lowered(a).to_string(),
        ));
        m.push(Measure::new(
            format!("residual_rho_across_{key}"),
            fixed(f.across_seeds_rho(a), 2),
        ));
    }
    m
}
