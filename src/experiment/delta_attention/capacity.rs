//! Chapter 7: how many random key–value pairs an additive and a delta
//! memory of width `K = V` hold before retrieval fails.

use nalgebra::{DMatrix, DVector};

use crate::delta::{delta_rule, linear_attention};
use crate::measure::{Measure, pm};
use crate::parallel;
use crate::random::{seeded, unit_rows};
use crate::stats::Summary;

/// Memory width `d = K = V`, the numbers of stored pairs, and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub d: usize,
    pub pairs: &'static [usize],
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    d: 32,
    pairs: &[1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 64, 80, 96, 128],
    seeds: super::SEEDS,
};

/// How the memory is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// Linear attention: `S += k vᵀ`.
    Additive,
    /// DeltaNet with `β = 1`.
    Delta,
}

impl Write {
    pub const ALL: [Write; 2] = [Write::Additive, Write::Delta];

    pub fn name(self) -> &'static str {
        match self {
            Write::Additive => "additive",
            Write::Delta => "delta",
        }
    }

    /// The final state after writing `k: [n, K]`, `v: [n, V]`.
    pub fn store(self, k: &DMatrix<f64>, v: &DMatrix<f64>) -> DMatrix<f64> {
        match self {
            Write::Additive => linear_attention(k, k, v, 1.0, None).1,
            Write::Delta => {
                delta_rule(k, k, v, &DVector::from_element(k.nrows(), 1.0), 1.0, None).1
            }
        }
    }

    /// Position in [`Write::ALL`].
    pub fn index(self) -> usize {
        Write::ALL
            .iter()
            .position(|&x| x == self)
            .expect("a known write")
    }
}

/// Relative retrieval error `Σ_i ‖Sᵀ k_i − v_i‖² / Σ_i ‖v_i‖²` after storing
/// `n` random unit keys with unit values of width `setup.d`.
pub fn retrieval_error(setup: Setup, write: Write, n: usize, seed: u64) -> f64 {
    let mut rng = seeded(seed);
    let k = unit_rows(&mut rng, n, setup.d);
    let v = unit_rows(&mut rng, n, setup.d);
    let s = write.store(&k, &v);
    (&k * &s - &v).norm_squared() / v.norm_squared()
}

/// Retrieval errors of both memories at every number of pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub setup: Setup,
    /// `errors[w][i][seed]`: error of write `Write::ALL[w]` at `setup.pairs[i]` pairs.
    pub errors: Vec<Vec<Vec<f64>>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let errors = Write::ALL
            .iter()
            .map(|&w| {
                setup
                    .pairs
                    .iter()
                    .map(|&n| parallel::map(0..setup.seeds, |s| retrieval_error(setup, w, n, s)))
                    .collect()
            })
            .collect();
        Findings { setup, errors }
    }

    /// Retrieval error of `write` at `n` stored pairs (`n` must be one of `setup.pairs`).
    pub fn at(&self, write: Write, n: usize) -> Summary {
        let i = self
            .setup
            .pairs
            .iter()
            .position(|&x| x == n)
            .expect("n is one of the stored-pair counts");
        Summary::of(&self.errors[write.index()][i])
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 7 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let d = BOOK.d;
    let mut m = vec![Measure::new("capacity_d", d.to_string())];
    for w in Write::ALL {
        for (label, n) in [("half", d / 2), ("full", d), ("double", 2 * d)] {
            m.push(Measure::new(
                format!("capacity_{}_{label}", w.name()),
                pm(f.at(w, n), 2),
            ));
        }
    }
    m
}
