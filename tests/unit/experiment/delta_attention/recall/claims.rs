//! Unit tests of `crate::experiment::delta_attention::recall::claims` (`src/experiment/delta_attention/recall/claims.rs`).

use attention_geometry::experiment::delta_attention::recall::tally::*;
use attention_geometry::experiment::delta_attention::recall::{Variant, book, setup};
use attention_geometry::mixer::Mixer;
use attention_geometry::stats::Summary;

/// What the section's prose says in words, checked on the book's findings
/// over the whole range each sentence covers.
#[test]
fn the_prose_describes_the_findings() {
    let (s, f) = (setup(), book());
    let (narrow, wide) = (s.states[0], s.states[s.states.len() - 1]);
    let last = s.pairs[s.pairs.len() - 1];
    // every arm ran every seed at every one of its points
    for v in Variant::ALL {
        for m in v.mixers() {
            for (p, k) in s.points(v) {
                assert_eq!(f.accs(v, m, p, k).len(), s.seeds as usize);
            }
        }
    }
    // softmax's lowest point is the narrowest key width
    let softmax: Vec<f64> = s
        .points(BOOK)
        .into_iter()
        .map(|(p, k)| f.mean(BOOK, SOFTMAX, p, k))
        .collect();
    assert_eq!(min(softmax), f.mean(BOOK, SOFTMAX, s.fixed_pairs, narrow));
    // at K = V = 2 every recurrent mixer is near chance, at 16 every one near 1
    assert!(max(recurrent_at(f, s.fixed_pairs, narrow)) < 0.25);
    assert!(min(recurrent_at(f, s.fixed_pairs, wide)) > 0.95);
    // no delta mixer leads linear attention by more than 0.05 anywhere
    assert!(delta_lead(f) < 0.05);
    // with fla's gates both gated mixers fall behind DeltaNet at the most pairs
    for m in [GDN, KDA] {
        assert!(f.mean(BOOK, m, last, s.state) < f.mean(BOOK, DELTANET, last, s.state));
    }
    // with gates near 1 they come closer to DeltaNet than with fla's gates
    assert!(near_gap(f) < gated_gap(f, BOOK));
    // fla's initialisation keeps less of a write until its query than gates near 1
    for m in [GDN, KDA] {
        let at = |v| over_seeds(f, v, m, |i| i.survival_init).mean;
        assert!(at(BOOK) < at(NEAR));
    }
    // the output norm, with fla's gates, lowers Gated DeltaNet at every point run;
    // KDA moves by less than its spread over seeds
    for &p in &s.variant_pairs {
        assert!(f.mean(NORM, GDN, p, s.state) < f.mean(BOOK, GDN, p, s.state));
        let sd = |v| Summary::of(&f.accs(v, KDA, p, s.state)).sd;
        let moved = (f.mean(NORM, KDA, p, s.state) - f.mean(BOOK, KDA, p, s.state)).abs();
        assert!(moved < sd(BOOK).max(sd(NORM)));
    }
    // the runs that stalled near chance at K = V = 8 are all gated
    let stuck = f
        .runs
        .iter()
        .filter(|r| r.state == s.state && r.accuracy < 0.25);
    assert!(stuck.clone().count() > 0);
    assert!(stuck.into_iter().all(|r| Mixer::ALL[r.mixer].decays()));
    // no run of any arm reached the cap
    assert!(f.runs.iter().all(|r| !r.stop.capped()));
    // with the output norm, linear and DeltaNet were tuned to a lower rate
    for m in [LINEAR, DELTANET] {
        assert!(f.rate(NORM, m) < f.rate(BOOK, m));
    }
    // most channels' decay falls by orders of magnitude (more than ×100)
    for m in [GDN, KDA] {
        assert!(log_ratio(f, BOOK, m) < -(100f64.ln()));
    }
    // started near 1, KDA's channels do not spread
    assert!(
        spread_growth(f, NEAR) < 1.5f64.ln() && spread_growth(f, NEAR) < spread_growth(f, BOOK)
    );
    // β writes harder at the value positions, on average over the seeds
    for m in [DELTANET, GDN, KDA] {
        let gap = over_seeds(f, BOOK, m, |i| i.beta_values - i.beta_other).mean;
        assert!(gap > 0.0);
    }
    // trained effective weights still track similarity
    assert!(over_seeds(f, BOOK, DELTANET, |i| i.rho).mean > 0.5);
}
