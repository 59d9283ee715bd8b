//! One prediction and what was measured ([`Test`]); the same core tests
//! under another choice a referee would vary ([`Choice`]); a cited paper's own
//! result on its own protocol ([`Replication`]).

use serde::Serialize;

use crate::measure::number;

/// How a measured value must compare with its bound.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    /// `value < bound`.
    Below,
    /// `value > bound`.
    Above,
    /// `|value − bound| ≤ tolerance`.
    Near(f64),
    /// A statement measured true (value 1) or false (value 0).
    Holds,
}

/// One prediction: `quantity` compared with `bound`, and the value measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Test {
    pub quantity: String,
    pub value: f64,
    pub relation: Relation,
    pub bound: f64,
    /// Decimals used to print the value and the bound.
    pub digits: usize,
}

impl Test {
    /// Predicts `quantity < bound`.
    pub fn below(quantity: impl Into<String>, value: f64, bound: f64, digits: usize) -> Test {
        Test::new(quantity, value, Relation::Below, bound, digits)
    }

    /// Predicts `quantity > bound`.
    pub fn above(quantity: impl Into<String>, value: f64, bound: f64, digits: usize) -> Test {
        Test::new(quantity, value, Relation::Above, bound, digits)
    }

    /// Predicts `|quantity − target| ≤ tolerance`.
    pub fn near(
        quantity: impl Into<String>,
        value: f64,
        target: f64,
        tolerance: f64,
        digits: usize,
    ) -> Test {
        Test::new(quantity, value, Relation::Near(tolerance), target, digits)
    }

    /// Predicts that `statement` is true; `holds` is what the measurement found.
    pub fn holds(statement: impl Into<String>, holds: bool) -> Test {
        Test::new(
            statement,
            f64::from(u8::from(holds)),
            Relation::Holds,
            1.0,
            0,
        )
    }

    fn new(
        quantity: impl Into<String>,
        value: f64,
        relation: Relation,
        bound: f64,
        digits: usize,
    ) -> Test {
        Test {
            quantity: quantity.into(),
            value,
            relation,
            bound,
            digits,
        }
    }

    /// Whether the measured value meets the prediction (NaN never does).
    pub fn passes(&self) -> bool {
        match self.relation {
            Relation::Below => self.value < self.bound,
            Relation::Above => self.value > self.bound,
            Relation::Near(tol) => (self.value - self.bound).abs() <= tol,
            Relation::Holds => self.value == 1.0,
        }
    }

    /// The prediction as text, e.g. `mean ρ < 0.10`.
    pub fn prediction(&self) -> String {
        let b = number(self.bound, self.digits);
        match self.relation {
            Relation::Below => format!("{} < {b}", self.quantity),
            Relation::Above => format!("{} > {b}", self.quantity),
            Relation::Holds => self.quantity.clone(),
            Relation::Near(0.0) => format!("{} = {b}", self.quantity),
            Relation::Near(tol) => format!(
                "{} ≈ {b} (± {})",
                self.quantity,
                number(tol, self.digits.max(1))
            ),
        }
    }

    /// The measurement as text, e.g. `mean ρ = 0.01`.
    pub fn measured(&self) -> String {
        if self.relation == Relation::Holds {
            let word = if self.passes() { "yes" } else { "no" };
            return format!("{}: {word}", self.quantity);
        }
        format!("{} = {}", self.quantity, number(self.value, self.digits))
    }
}

/// One choice a referee would vary, and the claim's core tests measured under it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// What was varied and to what, e.g. `counterfactual: value zeroing`.
    pub name: String,
    /// The core tests under this choice (same quantities, same bounds).
    pub core: Vec<Test>,
}

impl Choice {
    /// Whether every core test holds under this choice.
    pub fn holds(&self) -> bool {
        !self.core.is_empty() && self.core.iter().all(Test::passes)
    }
}

/// A cited paper's own result, measured with the paper's metric on the
/// paper's protocol as closely as the models allow.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replication {
    /// Authors and year, e.g. `Kobayashi et al. 2020`.
    pub paper: String,
    /// The paper's metric and protocol, in a phrase.
    pub metric: String,
    /// The paper's finding as a test: it reproduces when the test holds.
    pub finding: Test,
}

impl Replication {
    /// Whether the paper's direction reproduces here.
    pub fn reproduced(&self) -> bool {
        self.finding.passes()
    }
}
