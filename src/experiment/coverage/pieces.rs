//! Chapter 2: mathematical coverage — the linear pieces into which random
//! ReLU networks on the plane cut a window of their input.

use crate::coverage::{Pieces, ReluNet, linear_pieces};
use crate::measure::{Measure, fixed, pm};
use crate::parallel;
use crate::random::seeded;
use crate::stats::Summary;

/// The window `[-window, window]²`, lattice points per side, the networks'
/// hidden widths, the seeds, and the standard deviation of the biases.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub window: f64,
    pub grid: usize,
    pub nets: &'static [&'static [usize]],
    pub seeds: u64,
    pub bias: f64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    window: 3.0,
    grid: 80,
    nets: &[&[8], &[16], &[32], &[16, 16], &[8, 8, 8, 8]],
    seeds: 40,
    bias: 1.0,
};

/// 32 units, one, two or four layers deep: the depth comparison.
pub const EQUAL_UNITS: &[&[usize]] = &[&[32], &[16, 16], &[8, 8, 8, 8]];

/// The choices a referee would vary: biases ten times smaller (cuts through
/// the origin, as Hanin and Rolnick's small bias variance), and a lattice
/// twice as fine.
pub const VARIED: [(&str, Setup); 2] = [
    (
        "initialisation: biases N(0, 0.1²)",
        Setup {
            nets: EQUAL_UNITS,
            bias: 0.1,
            ..BOOK
        },
    ),
    (
        "lattice: 160² points",
        Setup {
            nets: EQUAL_UNITS,
            grid: 160,
            ..BOOK
        },
    ),
];

/// `[2, hidden…, 1]`: the widths of a network on the plane.
pub fn widths(hidden: &[usize]) -> Vec<usize> {
    [&[2][..], hidden, &[1]].concat()
}

/// A label such as `16×16`.
pub fn net_name(hidden: &[usize]) -> String {
    hidden
        .iter()
        .map(|w| w.to_string())
        .collect::<Vec<_>>()
        .join("×")
}

/// The pieces of the network `[2, hidden…, 1]` drawn from `seed`, on `setup.grid²` points.
pub fn pieces(setup: Setup, hidden: &[usize], seed: u64) -> Pieces {
    let mut net = ReluNet::random(&mut seeded(seed), &widths(hidden));
    for b in &mut net.biases {
        *b *= setup.bias;
    }
    linear_pieces(&net, -setup.window, setup.window, setup.grid)
}

/// Piece counts of every network.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub setup: Setup,
    /// Piece counts `[net][seed]` for `setup.nets`.
    pub counts: Vec<Vec<f64>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
            setup,
            counts: setup
                .nets
                .iter()
                .map(|h| parallel::map(0..setup.seeds, |s| pieces(setup, h, s).count as f64))
                .collect(),
        }
    }

    /// Piece counts of network `net` over seeds.
    pub fn count(&self, net: usize) -> Summary {
        Summary::of(&self.counts[net])
    }

    /// Mean piece count of the network with hidden widths `hidden`.
    ///
    /// # Panics
    /// If `hidden` was not counted.
    pub fn mean_of(&self, hidden: &[usize]) -> f64 {
        let k = self
            .setup
            .nets
            .iter()
            .position(|n| *n == hidden)
            .unwrap_or_else(|| panic!("pieces of {hidden:?} were not counted"));
        self.count(k).mean
    }

    /// Pieces of `hidden` over pieces of one layer of 32, seed by seed averaged.
    pub fn over_shallow(&self, hidden: &[usize]) -> f64 {
        self.mean_of(hidden) / self.mean_of(&[32])
    }
}

findings! {
    /// The findings under each of [`VARIED`], read or computed once per process
    /// (the piece counts are cached; the setups are the constants).
    pub fn varied() -> Vec<Findings> = cached("varied", VARIED => {
        VARIED
            .iter()
            .map(|(_, s)| Findings::run(*s).counts)
            .collect::<Vec<_>>()
    })
    .map(|counts: Vec<_>| {
        VARIED
            .iter()
            .zip(counts)
            .map(|(&(_, setup), counts)| Findings { setup, counts })
            .collect()
    })
}

findings! {
    /// The book-size findings, read or computed once per process (the piece
    /// counts are cached; the setup is the constant).
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK).counts)
        .map(|counts| Findings { setup: BOOK, counts })
}

/// The numbers chapter 2 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("grid", BOOK.grid.to_string()),
        Measure::new("piece_seeds", BOOK.seeds.to_string()),
        Measure::new("window", fixed(BOOK.window, 0)),
    ];
    for ((name, _), v) in VARIED.iter().zip(varied()) {
        let key = if name.starts_with("init") {
            "bias"
        } else {
            "fine"
        };
        for h in EQUAL_UNITS {
            m.push(Measure::new(
                format!("pieces_{key}_{}", net_name(h).replace('×', "x")),
                fixed(v.mean_of(h), 0),
            ));
        }
    }
    for (k, h) in BOOK.nets.iter().enumerate() {
        m.push(Measure::new(
            format!("pieces_{}", net_name(h).replace('×', "x")),
            pm(f.count(k), 0),
        ));
    }
    m
}
