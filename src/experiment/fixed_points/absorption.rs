//! Chapter 5: can a head absorb a directional relation? Successor accuracy
//! of five hand-set constructions and of random tied and untied heads on
//! three tokens.

use nalgebra::DMatrix;

use crate::absorption::{Mechanism, constructed, successor_accuracy};
use crate::attention::{Head, Mask};
use crate::measure::{Measure, fixed, pm, sci};
use crate::parallel;
use crate::random::{gaussian, projection, seeded};
use crate::stats::{Summary, share};

/// Token width `d` of the three tokens, and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub d: usize,
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    d: 8,
    seeds: super::SEEDS,
};

/// Successor accuracy of the five constructions and of random heads, one seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Absorption {
    /// Accuracy of each [`Mechanism`], in `Mechanism::ALL` order.
    pub constructed: Vec<f64>,
    /// Accuracy of a random tied head.
    pub random_tied: f64,
    /// Accuracy of a random untied head.
    pub random_untied: f64,
    /// `max |s_ab − s_ba|` of the random tied head's scores.
    pub tied_asymmetry: f64,
}

/// Three tokens of width `setup.d` and the heads, from one seed.
pub fn absorption(setup: Setup, seed: u64) -> Absorption {
    let d = setup.d;
    let mut rng = seeded(seed);
    let e = gaussian(&mut rng, 3, d, 1.0);
    let w = projection(&mut rng, d, d) * 2.0;
    let id = DMatrix::identity(d, d);
    let tied = Head {
        w_q: w.clone(),
        w_k: w,
        w_v: id.clone(),
    };
    let untied = Head {
        w_q: projection(&mut rng, d, d) * 2.0,
        w_k: projection(&mut rng, d, d),
        w_v: id,
    };
    let s = tied.scores(&e);
    Absorption {
        constructed: Mechanism::ALL
            .iter()
            .map(|&m| successor_accuracy(&constructed(m, &e)))
            .collect(),
        random_tied: successor_accuracy(&tied.forward(&e, Mask::Full).weights),
        random_untied: successor_accuracy(&untied.forward(&e, Mask::Full).weights),
        tied_asymmetry: (&s - s.transpose()).abs().max(),
    }
}

/// One [`Absorption`] per seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub seeds: Vec<Absorption>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
            seeds: parallel::map(0..setup.seeds, |s| absorption(setup, s)),
        }
    }

    /// Accuracy of one mechanism over seeds.
    pub fn mechanism(&self, m: Mechanism) -> Summary {
        let i = Mechanism::ALL
            .iter()
            .position(|&w| w == m)
            .expect("every mechanism is built");
        self.summary(|a| a.constructed[i])
    }

    /// Summary of one number per seed.
    pub fn summary(&self, field: impl Fn(&Absorption) -> f64) -> Summary {
        Summary::over(self.seeds.iter().map(field))
    }

    /// The share of seeds whose random head of this kind follows the cycle on every token.
    pub fn solved(&self, field: fn(&Absorption) -> f64) -> f64 {
        share(self.seeds.iter().map(|a| field(a) == 1.0))
    }
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = Findings::run(BOOK)
}

/// The numbers chapter 5 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![Measure::new("successor_d", BOOK.d.to_string())];
    for mech in Mechanism::ALL {
        m.push(Measure::new(
            format!("acc_{}", mech.name()),
            pm(f.mechanism(mech), 2),
        ));
    }
    m.extend([
        Measure::new("random_tied", pm(f.summary(|a| a.random_tied), 2)),
        Measure::new("random_untied", pm(f.summary(|a| a.random_untied), 2)),
        Measure::new("random_tied_solved", fixed(f.solved(|a| a.random_tied), 2)),
        Measure::new(
            "random_untied_solved",
            fixed(f.solved(|a| a.random_untied), 2),
        ),
        Measure::new(
            "tied_asymmetry",
            sci(
                f.seeds.iter().map(|a| a.tied_asymmetry).fold(0.0, f64::max),
                1,
            ),
        ),
    ]);
    m
}
