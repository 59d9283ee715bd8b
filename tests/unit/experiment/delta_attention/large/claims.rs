//! Unit tests of `crate::experiment::delta_attention::large::claims` (`src/experiment/delta_attention/large/claims.rs`).

use attention_geometry::experiment::delta_attention::large::claims::*;
use attention_geometry::experiment::delta_attention::large::findings;
use attention_geometry::experiment::delta_attention::large::report::*;

/// What the section's prose says in words, checked on the committed findings.
#[test]
fn the_prose_describes_the_findings() {
    let f = findings();
    let (bind, free) = bind_and_free(f);
    let seeds = f.setup.seeds as usize;
    // one state, pairs below and above it
    assert!(free.0 == bind.0 && free.1 < free.0 && bind.1 > bind.0);
    // every arm ran every seed in every cell
    for (arm, _) in ARMS {
        for c in cells(f) {
            assert_eq!(f.cell(arm, c.0, c.1).runs.len(), seeds);
        }
    }
    // softmax recalls in both cells (at least 0.9) and leads every recurrent arm in both
    assert!(softmax_min(f) > 0.9);
    assert!(over_softmax_at(f, bind) < 0.0 && over_softmax_at(f, free) < 0.0);
    // where the pairs fit, most recurrent runs leave chance; DeltaNet leads
    // linear attention; KDA with fla's gates is the lowest recurrent arm
    assert!(3 * left_chance(f, &ARMS[1..], free) >= 2 * 6 * seeds);
    assert!(gap(f, "deltanet", "linear", free) > 0.0);
    assert_eq!(
        ARMS[1..]
            .iter()
            .map(|(a, _)| (a, mean_acc(f, a, free)))
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .map(|(a, _)| *a),
        Some("kda_fla")
    );
    // where the pairs are twice the state, most delta-rule runs end below
    // four times chance, most of those on the plateau rule's floor; linear
    // attention is the best recurrent arm and every delta arm trails it
    let delta_runs = 5 * seeds;
    assert!(2 * (delta_runs - left_chance(f, &ARMS[2..], bind)) > delta_runs);
    assert!(2 * floor_stops(f, &ARMS[2..], bind) > delta_runs);
    assert_eq!(best_recurrent(f, bind).0, "linear");
    for (arm, _) in &ARMS[2..] {
        assert!(gap(f, arm, "linear", bind) < 0.0, "{arm}");
    }
    // the fla gates cost KDA more than Gated DeltaNet where the pairs fit
    assert!(gap(f, "kda_horizon", "kda_fla", free) > gap(f, "gdn_horizon", "gdn_fla", free));
    // Arora et al.'s direction: softmax's lead over linear grows with the pairs
    assert!(gap(f, "softmax", "linear", bind) > gap(f, "softmax", "linear", free));
    // the runs that ended at chance are mostly where the pairs are twice the state
    let low = |c| 6 * seeds - left_chance(f, &ARMS[1..], c);
    assert!(low(bind) > low(free));
    // where pairs are written by hand (figure `ch07-capacity`), the delta rule's error at 2K is below additive's
    {
        use attention_geometry::experiment::delta_attention::capacity::{BOOK, Write, book};
        let at = |w| book().at(w, 2 * BOOK.d).mean;
        assert!(at(Write::Delta) < at(Write::Additive));
    }
    // so both claims are undecided: some arm's runs mostly ended at chance
    assert!(
        ARMS.iter()
            .skip(1)
            .any(|(a, _)| { 2 * stalled(f, a).0 >= stalled(f, a).1 })
    );
}
