//! Chapter 4: "flexible, but costly" — on a family of relations (the
//! offsets `key = q + r`, `r < members`), each member trained on its own, a
//! learned head against heads whose `W_Q, W_K` are frozen at one member's
//! form: same tensors, same widths, only what is learned differs.
//!
//! ```text
//! flexible: the learned head reaches the threshold on every member;
//!           the form fixed at f reaches it on member f only
//! costly:   on member r, steps(learned) − steps(fixed at r) > 0
//! null:     the learned head on shuffled labels, per member
//! ```
//! Every (head, member) trains at its own rate, tuned on disjoint seeds;
//! a fixed form on another member trains at its own member's rate.

pub mod member;
pub mod verdict;

pub use member::{Head, Sizes, example, form, train, world};
pub use verdict::{claims, measures};

use crate::experiment::learning_cost::tuning::{GridPoint, grid};
use crate::parallel;
use crate::random::seeded;
use crate::stats::{bootstrap_ci, median};
use crate::train::tuning::censored_steps;
use crate::train::{History, Plateau, Schedule};

/// Sizes and budgets of the experiment.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub sizes: Sizes,
    /// The family: offsets `r = 0 … members − 1`.
    pub members: usize,
    /// Every run's schedule: `steps` the cap, `lr` unused (each arm has its tuned rate).
    pub schedule: Schedule,
    /// No plateau is declared before this step.
    pub min_steps: usize,
    /// Measurement seeds `0..seeds`.
    pub seeds: u64,
    /// Tuning seeds `tuning_seed..tuning_seed + tuning_seeds`.
    pub tuning_seed: u64,
    pub tuning_seeds: u64,
    /// The learning-rate grid.
    pub lrs: [f64; 5],
}

/// The size the book reports.
pub const BOOK: Setup = Setup {
    sizes: Sizes {
        d: 16,
        vocab: 8,
        context: 8,
        margin: 4.0,
    },
    members: 4,
    schedule: Schedule {
        steps: 2400,
        batch: 16,
        lr: 0.0,
        eval_every: 5,
        test: 128,
        threshold: 0.8,
    },
    min_steps: 400,
    seeds: 12,
    tuning_seed: 1000,
    tuning_seeds: 3,
    lrs: [0.003, 0.01, 0.03, 0.1, 0.3],
};

/// The referee's variant: fixed forms twice as sharp (margin 8), so that the
/// given relation is not handicapped by a soft softmax.
pub const SHARP: Setup = Setup {
    sizes: Sizes {
        margin: 8.0,
        ..BOOK.sizes
    },
    ..BOOK
};

/// The stricter threshold a referee would count steps to, read off the same curves.
pub const STRICT: f64 = 0.95;

impl Setup {
    /// The schedule at rate `lr`.
    pub fn at(self, lr: f64) -> Schedule {
        Schedule {
            lr,
            ..self.schedule
        }
    }

    /// Train `head` on member `r` at `lr` from `seed` to the book's plateau rule.
    pub fn run(self, head: Head, r: usize, lr: f64, seed: u64, shuffled: bool) -> History {
        let plateau = Plateau::BOOK.after(self.min_steps);
        train(self.sizes, head, r, self.at(lr), plateau, seed, shuffled)
    }

    /// Where an unreached threshold is counted: one evaluation past the cap.
    pub fn beyond(self) -> f64 {
        (self.schedule.steps + self.schedule.eval_every) as f64
    }

    /// Steps to `threshold` on a run's curve, [`Setup::beyond`] if never reached.
    pub fn steps_to(self, h: &History, threshold: f64) -> f64 {
        h.steps
            .iter()
            .zip(&h.accuracy)
            .find(|&(_, &a)| a >= threshold)
            .map_or(self.beyond(), |(&s, _)| s as f64)
    }
}

/// One (head, member, labels): its rate and its measurement seeds.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Cell {
    pub head: Head,
    pub member: usize,
    /// Trained on shuffled labels (the null).
    pub shuffled: bool,
    /// The rate it trained at.
    pub lr: f64,
    /// Steps to the threshold per seed (censored at [`Setup::beyond`]).
    pub steps: Vec<f64>,
    /// Steps to [`STRICT`] per seed.
    pub steps_strict: Vec<f64>,
    /// Final test accuracy per seed.
    pub accuracy: Vec<f64>,
    /// Test accuracy before training per seed.
    pub untrained: Vec<f64>,
    /// Whether each seed hit the cap before a plateau.
    pub capped: Vec<bool>,
}

impl Cell {
    /// Share of seeds that reached `threshold`'s steps within the cap.
    pub fn reached(&self, setup: Setup, strict: bool) -> f64 {
        let steps = if strict {
            &self.steps_strict
        } else {
            &self.steps
        };
        let cap = setup.schedule.steps as f64;
        steps.iter().filter(|&&s| s <= cap).count() as f64 / steps.len() as f64
    }
}

/// Every cell and every tuning.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    /// Per tuned arm `(head, member)`: its grid and chosen rate.
    pub tuning: Vec<((Head, usize), Vec<GridPoint>, f64)>,
    pub cells: Vec<Cell>,
}

impl Findings {
    /// Tune the learned head and each fixed form on its own member, then run
    /// every (head, member) and the shuffled-label null on the measurement seeds.
    pub fn run(setup: Setup) -> Findings {
        let members = 0..setup.members;
        let tuned_arms: Vec<(Head, usize)> = members
            .clone()
            .flat_map(|r| [(Head::Learned, r), (Head::Fixed(r), r)])
            .collect();
        let seeds = setup.tuning_seed..setup.tuning_seed + setup.tuning_seeds;
        let tuned = grid(&tuned_arms, &setup.lrs, seeds, |(head, r), lr, seed| {
            let h = setup.run(head, r, lr, seed, false);
            (censored_steps(setup.schedule, &h), h.final_accuracy)
        });
        let rate = |head: Head, r: usize| {
            let own = match head {
                Head::Learned => r,
                Head::Fixed(f) => f,
            };
            let i = tuned_arms
                .iter()
                .position(|&a| a == (head, own))
                .expect("every form is tuned on its own member");
            tuned[i].1
        };
        // (head, member, shuffled): learned and every fixed form on every member, and the null
        let arms: Vec<(Head, usize, bool)> = members
            .clone()
            .flat_map(|r| {
                std::iter::once((Head::Learned, r, false))
                    .chain((0..setup.members).map(move |f| (Head::Fixed(f), r, false)))
                    .chain(std::iter::once((Head::Learned, r, true)))
            })
            .collect();
        let per = setup.seeds as usize;
        let runs = parallel::map(0..(arms.len() * per) as u64, |i| {
            let (head, r, shuffled) = arms[i as usize / per];
            let h = setup.run(head, r, rate(head, r), i % setup.seeds, shuffled);
            (
                setup.steps_to(&h, setup.schedule.threshold),
                setup.steps_to(&h, STRICT),
                h.final_accuracy,
                h.accuracy[0],
                h.stop.capped(),
            )
        });
        let cells = arms
            .iter()
            .zip(runs.chunks(per))
            .map(|(&(head, member, shuffled), c)| Cell {
                head,
                member,
                shuffled,
                lr: rate(head, member),
                steps: c.iter().map(|x| x.0).collect(),
                steps_strict: c.iter().map(|x| x.1).collect(),
                accuracy: c.iter().map(|x| x.2).collect(),
                untrained: c.iter().map(|x| x.3).collect(),
                capped: c.iter().map(|x| x.4).collect(),
            })
            .collect();
        let tuning = tuned_arms
            .into_iter()
            .zip(tuned)
            .map(|(a, (g, lr))| (a, g, lr))
            .collect();
        Findings {
            setup,
            tuning,
            cells,
        }
    }

    /// The cell of `head` on member `r` (`shuffled`: the null).
    pub fn cell(&self, head: Head, r: usize, shuffled: bool) -> &Cell {
        self.cells
            .iter()
            .find(|c| c.head == head && c.member == r && c.shuffled == shuffled)
            .expect("every (head, member) is run")
    }

    /// Per seed, on member `r`: the learned head's steps minus those of the
    /// form fixed at `r` (the same tables, test set and batches), to the
    /// threshold or to [`STRICT`].
    pub fn paired(&self, r: usize, strict: bool) -> Vec<f64> {
        let steps = |c: &Cell| {
            if strict {
                c.steps_strict.clone()
            } else {
                c.steps.clone()
            }
        };
        let learned = steps(self.cell(Head::Learned, r, false));
        let fixed = steps(self.cell(Head::Fixed(r), r, false));
        learned.iter().zip(&fixed).map(|(l, f)| l - f).collect()
    }

    /// The median of [`Findings::paired`] and its percentile-bootstrap 95% interval.
    pub fn cost(&self, r: usize, strict: bool) -> (f64, (f64, f64)) {
        let d = self.paired(r, strict);
        let ci = bootstrap_ci(&d, median, 0.95, 2000, &mut seeded(4 + r as u64));
        (median(&d), ci)
    }

    /// The cells of every (head, member) with `keep(head, member)`, trained on true labels.
    pub fn where_(&self, keep: impl Fn(Head, usize) -> bool) -> Vec<&Cell> {
        let cells = self.cells.iter();
        cells
            .filter(|c| !c.shuffled && keep(c.head, c.member))
            .collect()
    }

    /// Final test accuracies of the shuffled-label null, every member and seed.
    pub fn null(&self) -> Vec<f64> {
        let cells = self.cells.iter().filter(|c| c.shuffled);
        cells.flat_map(|c| c.accuracy.iter().copied()).collect()
    }
}

/// Whether `head` is the form fixed at member `r`.
pub fn own(head: Head, r: usize) -> bool {
    head == Head::Fixed(r)
}

/// Whether `head` is a form fixed at another member than `r`.
pub fn other(head: Head, r: usize) -> bool {
    matches!(head, Head::Fixed(f) if f != r)
}

findings! {
    /// The book-size findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}

findings! {
    /// The findings at [`SHARP`], computed once per process.
    pub fn sharp() -> Findings = cached("sharp", SHARP => Findings::run(SHARP))
}
