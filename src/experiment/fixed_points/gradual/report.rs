//! The numbers the along-training section quotes.

use super::verdict::{FAR, GRADUAL, Quantity, found, verbs};
use super::{BOOK, Swap, book};
use crate::measure::{Measure, fixed, pm};
use crate::stats::Summary;
use crate::train::Relation;

/// Measure keys of the two architectures, in [`super::architectures`] order.
pub const KEYS: [&str; 2] = ["one", "deep"];

/// The numbers chapter 5 quotes from this experiment.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let s = BOOK;
    let mut m = vec![
        Measure::new("gradual_seeds", s.seeds.to_string()),
        Measure::new("gradual_cap", s.schedule.steps.to_string()),
        Measure::new("gradual_min_steps", s.plateau.min_steps.to_string()),
        Measure::new("gradual_every", s.every.to_string()),
        Measure::new("gradual_test", s.schedule.test.to_string()),
        Measure::new("gradual_threshold", s.schedule.threshold.to_string()),
        Measure::new("gradual_far", FAR.to_string()),
        Measure::new("gradual_gradual", GRADUAL.to_string()),
    ];
    for (a, key) in KEYS.iter().enumerate() {
        for r in Relation::ALL {
            let arm = f.arm(r, a);
            let k = format!("{}_{key}", r.name());
            let [start, peak, end] = arm.course(Quantity::Rho, false);
            let null = arm.course(Quantity::Rho, true)[2];
            let owed = |swap, null| arm.course(Quantity::Owed(swap), null)[2];
            let trend = |q| fixed(arm.median_trend(q, false), 2);
            m.extend([
                Measure::new(format!("gradual_lr_{k}"), arm.tuning.lr.to_string()),
                Measure::new(
                    format!("gradual_acc_{k}"),
                    pm(arm.course(Quantity::Accuracy, false)[2], 2),
                ),
                Measure::new(
                    format!("gradual_steps_{k}"),
                    pm(
                        Summary::over(arm.runs.iter().map(|r| r.history.end() as f64)),
                        0,
                    ),
                ),
                Measure::new(format!("gradual_rho_start_{k}"), pm(start, 2)),
                Measure::new(format!("gradual_rho_peak_{k}"), pm(peak, 2)),
                Measure::new(format!("gradual_rho_{k}"), pm(end, 2)),
                Measure::new(format!("gradual_rho_null_{k}"), pm(null, 2)),
                Measure::new(
                    format!("gradual_share_{k}"),
                    pm(arm.course(Quantity::Share, false)[2], 2),
                ),
                Measure::new(format!("gradual_trend_rho_{k}"), trend(Quantity::Rho)),
                Measure::new(
                    format!("gradual_trend_owed_{k}"),
                    trend(Quantity::Owed(Swap::Symmetric)),
                ),
                Measure::new(
                    format!("gradual_beyond_rho_{k}"),
                    fixed(arm.beyond_null(Quantity::Rho), 2),
                ),
            ]);
            for swap in Swap::ALL {
                let n = swap.name();
                m.push(Measure::new(
                    format!("gradual_owed_{n}_{k}"),
                    pm(owed(swap, false), 2),
                ));
                m.push(Measure::new(
                    format!("gradual_owed_{n}_null_{k}"),
                    pm(owed(swap, true), 2),
                ));
            }
        }
        m.push(Measure::new(
            format!("gradual_found_{key}"),
            found(&verbs(f, a, Swap::Symmetric, Quantity::Rho))
                .len()
                .to_string(),
        ));
    }
    m
}
