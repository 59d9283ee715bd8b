//! The book's experiments: one module per chapter, named for the chapter's
//! page (`chapters/01-coordinate-mismatch.md` → [`coordinate_mismatch`]).
//!
//! Each module runs its chapter's claims over many seeds at a fixed book
//! size, returns plain data (no plotting), and lists the numbers its prose
//! quotes as [`crate::measure::Measure`]s. Figures and prose read the same
//! run, computed once per process (through the `findings!` macro).

/// `fn name() -> &'static T`, whose value is computed at most once per
/// process: read from the findings cache ([`cache::load_or_run`]) or run.
///
/// ```text
/// fn f() -> T = run                          f() = once(run)
/// fn f() -> T = cached(setup => run)         f() = once(load_or_run(module, setup, run))
/// fn f() -> T = cached("part", setup => run) f() = once(load_or_run(module::part, setup, run))
/// fn f() -> T = cached(setup => run).map(g)  f() = once(g(load_or_run(module, setup, run)))
/// ```
/// (each inside `findings! { /// doc … }`; `once(x)` is `x` evaluated at the
/// first call, the same `&'static T` returned at every call).
/// `module` is the path of the module that calls the macro (`module_path!()`
/// expands there), so `experiment::coverage::trained`'s findings stay in
/// `findings/experiment.coverage.trained.*`. `.map(g)` caches only the part
/// `run` returns (say, the part that serialises) and builds `T` from it.
/// A macro rather than a generic function, since a `static` inside a generic
/// function is one static shared by every type.
macro_rules! findings {
    (@cached $stem:expr; $(#[$attr:meta])* $vis:vis fn $name:ident() -> $t:ty
        = ($setup:expr => $run:expr) $(.map($then:expr))?) => {
        findings! {
            $(#[$attr])* $vis fn $name() -> $t = {
                let found = $crate::experiment::cache::load_or_run($stem, &$setup, || $run);
                // an array's `map`, so that `then`'s argument type is inferred
                $(let [found] = [found].map($then);)?
                found
            }
        }
    };
    ($(#[$attr:meta])* $vis:vis fn $name:ident() -> $t:ty
        = cached($part:literal, $setup:expr => $run:expr) $(.map($then:expr))?) => {
        findings! {
            @cached concat!(module_path!(), "::", $part);
            $(#[$attr])* $vis fn $name() -> $t = ($setup => $run) $(.map($then))?
        }
    };
    ($(#[$attr:meta])* $vis:vis fn $name:ident() -> $t:ty
        = cached($setup:expr => $run:expr) $(.map($then:expr))?) => {
        findings! {
            @cached module_path!();
            $(#[$attr])* $vis fn $name() -> $t = ($setup => $run) $(.map($then))?
        }
    };
    ($(#[$attr:meta])* $vis:vis fn $name:ident() -> $t:ty = $run:expr) => {
        $(#[$attr])*
        $vis fn $name() -> &'static $t {
            static CELL: ::std::sync::OnceLock<$t> = ::std::sync::OnceLock::new();
            CELL.get_or_init(|| $run)
        }
    };
}

pub mod cache;
pub mod coordinate_mismatch;
pub mod coverage;
pub mod delta_attention;
pub mod example;
pub mod fixed_points;
pub mod learning_cost;
pub mod multi_head;
pub mod relations;
pub mod source;

use crate::claim::Claim;
use crate::measure::Measure;

/// One chapter: its number, its page's slug, and the numbers and claims its prose quotes.
#[derive(Clone, Copy, Debug)]
pub struct Chapter {
    pub number: u8,
    /// The page is `chapters/{number:02}-{slug}.md`; the module is the slug in snake case.
    pub slug: &'static str,
    /// Measures with keys local to the chapter (`rho_untied`).
    pub measures: fn() -> Vec<Measure>,
    /// Claims with ids local to the chapter (`score-not-similarity`).
    pub claims: fn() -> Vec<Claim>,
}

impl Chapter {
    /// The prefix of the chapter's measure keys and claim ids, `chNN`.
    pub fn prefix(&self) -> String {
        format!("ch{:02}", self.number)
    }

    /// The chapter's page, `NN-slug.md`.
    pub fn page(&self) -> String {
        format!("{:02}-{}.md", self.number, self.slug)
    }
}

/// The book's chapters, in order.
pub const CHAPTERS: [Chapter; 7] = [
    Chapter {
        number: 1,
        slug: "coordinate-mismatch",
        measures: coordinate_mismatch::measures,
        claims: coordinate_mismatch::claims,
    },
    Chapter {
        number: 2,
        slug: "coverage",
        measures: coverage::measures,
        claims: coverage::claims,
    },
    Chapter {
        number: 3,
        slug: "multi-head",
        measures: multi_head::measures,
        claims: multi_head::claims,
    },
    Chapter {
        number: 4,
        slug: "relations",
        measures: relations::measures,
        claims: relations::claims,
    },
    Chapter {
        number: 5,
        slug: "fixed-points",
        measures: fixed_points::measures,
        claims: fixed_points::claims,
    },
    Chapter {
        number: 6,
        slug: "learning-cost",
        measures: learning_cost::measures,
        claims: learning_cost::claims,
    },
    Chapter {
        number: 7,
        slug: "delta-attention",
        measures: delta_attention::measures,
        claims: delta_attention::claims,
    },
];

/// Every measure the prose may quote, keys prefixed with their chapter
/// (`ch01.rho_untied`), then the bench's settings (`bench.chunk`).
/// This is the one place a prefix is added.
pub fn measures() -> Vec<Measure> {
    let prefixed = |prefix: String, ms: Vec<Measure>| {
        ms.into_iter().map(move |m| Measure {
            key: format!("{prefix}.{}", m.key),
            value: m.value,
            table: m.table.map(|t| format!("{prefix}.{t}")),
        })
    };
    let mut all: Vec<Measure> = CHAPTERS
        .iter()
        .flat_map(|c| {
            let mut ms = (c.measures)();
            // the running example's numbers, quoted in chapters 1–5
            ms.extend(example::measures(c.number));
            prefixed(c.prefix(), ms)
        })
        .collect();
    all.extend(prefixed("bench".into(), crate::bench::measures()));
    all
}

/// Every claim of the book, in chapter order, ids prefixed (`ch01.score-not-similarity`)
/// and chapter numbers set.
pub fn claims() -> Vec<Claim> {
    CHAPTERS
        .iter()
        .flat_map(|c| {
            (c.claims)().into_iter().map(move |mut claim| {
                claim.id = format!("{}.{}", c.prefix(), claim.id);
                claim.chapter = c.number;
                claim
            })
        })
        .collect()
}
