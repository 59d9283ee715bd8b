//! Chapter 1: how far an attention score is from the raw similarity it is
//! said to measure, for untied, tied and identity projections.

pub mod claims;
pub mod rotating;
pub mod rotating_verdict;
pub mod row_ranks;
pub mod trained;
pub mod trained_text;
pub mod trained_verdict;

pub use claims::claims;

use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

use crate::attention::Head;
use crate::measure::{Measure, fixed, pm};
use crate::projection::{
    distances, knn_overlap, off_diagonal, rank_shift, regauge, self_match_rate, symmetric_share,
    symmetric_spectrum,
};
use crate::random::{gaussian, projection, seeded};
use crate::stats::{Summary, mean, spearman};

/// How the query and key projections relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Coupling {
    /// `W_Q = W_K = I`: the score is the raw dot product.
    Identity,
    /// `W_Q = W_K = W`, one random projection for both.
    Tied,
    /// `W_Q`, `W_K` independent random projections (the standard head at initialisation).
    Untied,
}

impl Coupling {
    /// All three, in the book's order.
    pub const ALL: [Coupling; 3] = [Coupling::Identity, Coupling::Tied, Coupling::Untied];

    /// Lower-case name used in figures and measures.
    pub fn name(self) -> &'static str {
        match self {
            Coupling::Identity => "identity",
            Coupling::Tied => "tied",
            Coupling::Untied => "untied",
        }
    }

    /// A head on width `d` with query/key width `d_k` coupled this way
    /// (`Identity` needs `d_k = d`).
    ///
    /// # Panics
    /// If `Identity` is asked for with `d_k ≠ d`.
    pub fn head(self, rng: &mut crate::random::Rng, d: usize, d_k: usize) -> Head {
        let w_v = projection(rng, d, d_k);
        match self {
            Coupling::Identity => {
                assert_eq!(
                    d, d_k,
                    "the identity coupling needs d_k = d (got d = {d}, d_k = {d_k})"
                );
                Head {
                    w_q: DMatrix::identity(d, d),
                    w_k: DMatrix::identity(d, d),
                    w_v,
                }
            }
            Coupling::Tied => {
                let w = projection(rng, d, d_k);
                Head {
                    w_q: w.clone(),
                    w_k: w,
                    w_v,
                }
            }
            Coupling::Untied => Head {
                w_q: projection(rng, d, d_k),
                w_k: projection(rng, d, d_k),
                w_v,
            },
        }
    }
}

/// Sizes of one trial: `n` tokens of width `d`, query/key width `d_k`,
/// `k` neighbours compared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub n: usize,
    pub d: usize,
    pub d_k: usize,
    pub k: usize,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    n: 32,
    d: 16,
    d_k: 16,
    k: 5,
};

/// The size a referee would try next: more tokens, wider tokens and heads.
pub const LARGER: Setup = Setup {
    n: 64,
    d: 64,
    d_k: 64,
    k: 5,
};

/// Number of seeds behind every summary in the chapter.
pub const SEEDS: u64 = 200;

/// What one seed measures for one coupling.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    /// Spearman ρ between raw dot products `x_i·x_j` and scores `q_i·k_j`, over pairs `i ≠ j`.
    pub rho: f64,
    /// Overlap of each token's `k` nearest partners, raw vs score.
    pub knn: f64,
    /// Fraction of tokens that are their own best match under the scores.
    pub self_match: f64,
    /// Share of `‖W_QK‖²_F` in its symmetric part.
    pub symmetric_share: f64,
    /// Fraction of the symmetric part's eigenvalues that are negative.
    pub negative_eigenvalues: f64,
}

/// Tokens `x ~ N(0, I)`, `(n, d)`, and a head coupled as asked, from one seed.
pub fn sample(setup: Setup, coupling: Coupling, seed: u64) -> (DMatrix<f64>, Head) {
    let mut rng = seeded(seed);
    let x = gaussian(&mut rng, setup.n, setup.d, 1.0);
    let head = coupling.head(&mut rng, setup.d, setup.d_k);
    (x, head)
}

/// One sample's pairs `i ≠ j`, as Figure 1.2 shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct Scatter {
    /// Raw dot products `x_i·x_j`.
    pub raw: Vec<f64>,
    /// Scores `q_i·k_j/√d_k`.
    pub score: Vec<f64>,
    /// Spearman ρ between the two.
    pub rho: f64,
}

/// Raw dot products and scores of every pair `i ≠ j` of one sample.
pub fn scatter(setup: Setup, coupling: Coupling, seed: u64) -> Scatter {
    let (x, head) = sample(setup, coupling, seed);
    let raw = off_diagonal(&(&x * x.transpose()));
    let score = off_diagonal(&head.scores(&x));
    let rho = spearman(&raw, &score);
    Scatter { raw, score, rho }
}

/// Measure one sample.
pub fn trial(setup: Setup, coupling: Coupling, seed: u64) -> Trial {
    let (x, head) = sample(setup, coupling, seed);
    let raw = &x * x.transpose();
    let scores = head.scores(&x);
    let w_qk = head.w_qk();
    let eig = symmetric_spectrum(&w_qk);
    let scale = eig.iter().fold(0.0_f64, |m, e| m.max(e.abs()));
    Trial {
        rho: spearman(&off_diagonal(&raw), &off_diagonal(&scores)),
        knn: knn_overlap(&raw, &scores, setup.k),
        self_match: self_match_rate(&scores),
        symmetric_share: symmetric_share(&w_qk),
        negative_eigenvalues: eig.iter().filter(|&&e| e < -1e-9 * scale).count() as f64
            / eig.len() as f64,
    }
}

/// Trials of one coupling over `seeds` seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Survey {
    pub coupling: Coupling,
    pub trials: Vec<Trial>,
}

impl Survey {
    /// Run `seeds` trials (seeds `0..seeds`).
    pub fn run(setup: Setup, coupling: Coupling, seeds: u64) -> Survey {
        Survey {
            coupling,
            trials: (0..seeds).map(|s| trial(setup, coupling, s)).collect(),
        }
    }

    /// Summary of one field over the seeds, e.g. `survey.summary(|t| t.rho)`.
    pub fn summary(&self, field: fn(&Trial) -> f64) -> Summary {
        Summary::over(self.trials.iter().map(field))
    }
}

/// How far pairwise-distance ranks move when tokens are projected by one
/// random `W (d, d_k)`, pooled over `seeds` seeds.
pub fn distance_rank_shift(setup: Setup, d_k: usize, seeds: u64) -> Vec<f64> {
    (0..seeds)
        .flat_map(|seed| {
            let mut rng = seeded(seed);
            let x = gaussian(&mut rng, setup.n, setup.d, 1.0);
            let w = projection(&mut rng, setup.d, d_k);
            rank_shift(&distances(&x), &distances(&(&x * w)))
        })
        .collect()
}

/// The spectrum of the symmetric part of `W_QK`, largest first, as mean and
/// spread of each sorted position over `seeds` seeds.
pub fn spectrum(setup: Setup, coupling: Coupling, seeds: u64) -> Vec<Summary> {
    let spectra: Vec<Vec<f64>> = (0..seeds)
        .map(|s| symmetric_spectrum(&sample(setup, coupling, s).1.w_qk()))
        .collect();
    (0..setup.d)
        .map(|i| Summary::over(spectra.iter().map(|e| e[i])))
        .collect()
}

/// The largest change of any score when one untied head's query and key
/// coordinates are changed by a random `A` (`W_Q A`, `W_K A^{-T}`), relative
/// to the largest score: zero up to rounding, because only `W_Q W_Kᵀ` enters.
pub fn regauge_change(setup: Setup, seed: u64) -> f64 {
    let (x, head) = sample(setup, Coupling::Untied, seed);
    let a = gaussian(&mut seeded(seed + 1_000_000), setup.d_k, setup.d_k, 1.0);
    let (w_q, w_k) = regauge(&head.w_q, &head.w_k, &a);
    let moved = Head {
        w_q,
        w_k,
        w_v: head.w_v.clone(),
    };
    let before = head.scores(&x);
    (moved.scores(&x) - &before).amax() / before.amax()
}

/// Tokens in the plane and one untied head on them: the picture of chapter 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Plane {
    /// Tokens `(n, 2)`.
    pub x: DMatrix<f64>,
    /// Queries `x W_Q`, `(n, 2)`.
    pub q: DMatrix<f64>,
    /// Keys `x W_K`, `(n, 2)`.
    pub k: DMatrix<f64>,
    /// The token whose partners are marked.
    pub focus: usize,
    /// Its 3 strongest partners by raw dot product.
    pub raw_partners: Vec<usize>,
    /// Its 3 strongest partners by score.
    pub score_partners: Vec<usize>,
}

/// The plane picture for one seed, with `n` tokens.
pub fn plane(n: usize, seed: u64) -> Plane {
    let setup = Setup {
        n,
        d: 2,
        d_k: 2,
        k: 3,
    };
    let (x, head) = sample(setup, Coupling::Untied, seed);
    let (raw, scores) = (&x * x.transpose(), head.scores(&x));
    let top = |m: &DMatrix<f64>| {
        let mut js: Vec<usize> = (1..n).collect();
        js.sort_by(|&a, &b| m[(0, b)].total_cmp(&m[(0, a)]));
        js.truncate(3);
        js
    };
    Plane {
        q: &x * &head.w_q,
        k: &x * &head.w_k,
        focus: 0,
        raw_partners: top(&raw),
        score_partners: top(&scores),
        x,
    }
}

/// Everything chapter 1 reports, at book size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Findings {
    pub surveys: Vec<Survey>,
    /// Rank shifts under a full-width projection (`d_k = d`).
    pub shift_full: Vec<f64>,
    /// Rank shifts under a collapsing projection (`d_k = d/4`).
    pub shift_collapsed: Vec<f64>,
    /// Per seed: the largest score change under a random change of the
    /// query coordinates `W_Q → W_Q A`, `W_K → W_K A^{-T}`, relative to the largest score.
    pub regauge_change: Vec<f64>,
}

impl Findings {
    /// Run the chapter's experiments at `setup` over `seeds` seeds.
    pub fn run(setup: Setup, seeds: u64) -> Findings {
        Findings {
            surveys: Coupling::ALL
                .iter()
                .map(|&c| Survey::run(setup, c, seeds))
                .collect(),
            shift_full: distance_rank_shift(setup, setup.d, seeds),
            shift_collapsed: distance_rank_shift(setup, setup.d / 4, seeds),
            regauge_change: (0..seeds).map(|s| regauge_change(setup, s)).collect(),
        }
    }

    /// The survey of one coupling.
    pub fn survey(&self, coupling: Coupling) -> &Survey {
        self.surveys
            .iter()
            .find(|s| s.coupling == coupling)
            .expect("every coupling is surveyed")
    }
}

findings! {
    /// The book-size findings, read or computed once per process.
    pub fn book() -> Findings = cached((BOOK, SEEDS) => Findings::run(BOOK, SEEDS))
}

findings! {
    /// The findings at [`LARGER`], read or computed once per process.
    pub fn larger() -> Findings = cached("larger", (LARGER, SEEDS) => Findings::run(LARGER, SEEDS))
}

/// The numbers chapter 1's prose quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("seeds", SEEDS.to_string()),
        Measure::new("n", BOOK.n.to_string()),
        Measure::new("d", BOOK.d.to_string()),
        Measure::new("k", BOOK.k.to_string()),
        Measure::new("knn_chance", fixed(BOOK.k as f64 / (BOOK.n - 1) as f64, 2)),
        Measure::new("shift_full", fixed(mean(&f.shift_full), 3)),
        Measure::new("shift_collapsed", fixed(mean(&f.shift_collapsed), 3)),
        Measure::new("d_collapsed", (BOOK.d / 4).to_string()),
        Measure::new("larger_n", LARGER.n.to_string()),
        Measure::new("larger_d", LARGER.d.to_string()),
        Measure::new(
            "larger_rho_untied",
            pm(larger().survey(Coupling::Untied).summary(|t| t.rho), 2),
        ),
        Measure::new("larger_shift_full", fixed(mean(&larger().shift_full), 3)),
        Measure::new(
            "larger_shift_collapsed",
            fixed(mean(&larger().shift_collapsed), 3),
        ),
    ];
    for s in &f.surveys {
        let c = s.coupling.name();
        m.push(Measure::new(
            format!("rho_{c}"),
            pm(s.summary(|t| t.rho), 2),
        ));
        m.push(Measure::new(
            format!("knn_{c}"),
            pm(s.summary(|t| t.knn), 2),
        ));
        m.push(Measure::new(
            format!("self_{c}"),
            pm(s.summary(|t| t.self_match), 2),
        ));
        m.push(Measure::new(
            format!("sym_{c}"),
            pm(s.summary(|t| t.symmetric_share), 2),
        ));
        m.push(Measure::new(
            format!("neg_{c}"),
            pm(s.summary(|t| t.negative_eigenvalues), 2),
        ));
    }
    let untied = f
        .surveys
        .iter()
        .find(|s| s.coupling == Coupling::Untied)
        .expect("the untied survey is run");
    let (lo, hi) = untied.summary(|t| t.knn).ci95();
    m.push(Measure::new(
        "knn_untied_ci",
        format!("[{}, {}]", fixed(lo, 3), fixed(hi, 3)),
    ));
    m.extend(trained_verdict::measures());
    m.extend(rotating_verdict::measures());
    m
}
