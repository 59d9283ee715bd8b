//! Chapter 7: the chunkwise form of KDA is the recurrence — the matrices of
//! one chunk, and the largest difference between the two forms over random
//! inputs, chunk sizes and decays.

use nalgebra::{DMatrix, DVector};
use rand::RngExt;

use crate::delta::{ChunkMatrices, DeltaInput, chunk_matrices, l2_normalize};
use crate::measure::{Measure, sci};
use crate::parallel;
use crate::random::{gaussian, seeded};

/// Sizes of the agreement check and of the one-chunk picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// Random inputs `0..seeds`, each tried at every strength and chunk size.
    pub seeds: u64,
    /// Sequence length, key and value widths, score scale.
    pub t: usize,
    pub k: usize,
    pub v: usize,
    pub scale: f64,
    /// Per-step decays `−strength · U(0, 1)`.
    pub strengths: &'static [f64],
    pub chunks: &'static [usize],
    /// Steps of the pictured chunk.
    pub picture_l: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    seeds: super::SEEDS / 4,
    t: 100,
    k: 8,
    v: 6,
    scale: 0.35,
    strengths: &[0.0, 0.1, 1.0, 20.0],
    chunks: &[1, 7, 16, 64],
    picture_l: 16,
};

impl Setup {
    /// Cases compared: seeds × strengths × chunk sizes.
    pub fn cases(&self) -> usize {
        self.seeds as usize * self.strengths.len() * self.chunks.len()
    }
}

/// The matrices of one chunk of `setup.picture_l` steps (K = 8, g ~ −U(0, 0.3), β ~ U(0, 1)), seed 1.
pub fn chunk_picture(setup: Setup) -> ChunkMatrices {
    let l = setup.picture_l;
    let mut rng = seeded(1);
    let q = l2_normalize(&gaussian(&mut rng, l, 8, 1.0));
    let k = l2_normalize(&gaussian(&mut rng, l, 8, 1.0));
    let g = DMatrix::from_fn(l, 8, |_, _| -0.3 * rng.random::<f64>());
    let beta = DVector::from_fn(l, |_, _| rng.random::<f64>());
    chunk_matrices(&q, &k, &g, &beta, 1.0 / 8f64.sqrt())
}

/// The largest difference between `kda_chunked` and `kda` (outputs and final
/// state) on the input of `seed`, over every strength and chunk size.
pub fn agreement(setup: Setup, seed: u64) -> f64 {
    let mut worst: f64 = 0.0;
    for &strength in setup.strengths {
        let x =
            DeltaInput::random(seed, setup.t, setup.k, setup.v, strength).with_scale(setup.scale);
        let (o1, s1) = x.kda();
        for &c in setup.chunks {
            let (o2, s2) = x.kda_chunked(c);
            worst = worst.max((&o1 - o2).amax()).max((&s1 - s2).amax());
        }
    }
    worst
}

/// The largest difference over every case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Findings {
    pub error: f64,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
            error: parallel::map(0..setup.seeds, |s| agreement(setup, s))
                .into_iter()
                .fold(0.0, f64::max),
        }
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 7 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    vec![
        Measure::new("picture_l", BOOK.picture_l.to_string()),
        Measure::new("chunk_error", sci(book().error, 1)),
        Measure::new("chunk_cases", BOOK.cases().to_string()),
    ]
}
