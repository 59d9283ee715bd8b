//! Chapter 2: mathematical coverage — the linear pieces into which random
//! ReLU networks on the plane cut a window of their input.

use std::sync::OnceLock;

use crate::coverage::{Pieces, ReluNet, linear_pieces};
use crate::measure::{Measure, fixed, pm};
use crate::parallel;
use crate::random::seeded;
use crate::stats::Summary;

/// The window `[-window, window]²`, lattice points per side, the networks'
/// hidden widths, and the seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub window: f64,
    pub grid: usize,
    pub nets: &'static [&'static [usize]],
    pub seeds: u64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    window: 3.0,
    grid: 80,
    nets: &[&[8], &[16], &[32], &[16, 16], &[8, 8, 8, 8]],
    seeds: 40,
};

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
    linear_pieces(
        &ReluNet::random(&mut seeded(seed), &widths(hidden)),
        -setup.window,
        setup.window,
        setup.grid,
    )
}

/// Piece counts of every network.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// Piece counts `[net][seed]` for `setup.nets`.
    pub counts: Vec<Vec<f64>>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        Findings {
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
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| Findings::run(BOOK))
}

/// The numbers chapter 2 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("grid", BOOK.grid.to_string()),
        Measure::new("piece_seeds", BOOK.seeds.to_string()),
        Measure::new("window", fixed(BOOK.window, 0)),
    ];
    for (k, h) in BOOK.nets.iter().enumerate() {
        m.push(Measure::new(
            format!("pieces_{}", net_name(h).replace('×', "x")),
            pm(f.count(k), 0),
        ));
    }
    m
}
