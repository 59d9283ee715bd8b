//! The book's experiments: one module per chapter, named for the chapter's
//! page (`chapters/01-coordinate-mismatch.md` → [`coordinate_mismatch`]).
//!
//! Each module runs its chapter's claims over many seeds at a fixed book
//! size, returns plain data (no plotting), and lists the numbers its prose
//! quotes as [`crate::measure::Measure`]s. Figures and prose read the same
//! run, computed once per process.

pub mod cache;
pub mod coordinate_mismatch;
pub mod coverage;
pub mod delta_attention;
pub mod example;
pub mod fixed_points;
pub mod learning_cost;
pub mod multi_head;
pub mod relations;

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
