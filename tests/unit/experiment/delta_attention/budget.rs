//! Unit tests of `crate::experiment::delta_attention::budget` (`src/experiment/delta_attention/budget/`).

use attention_geometry::experiment::delta_attention::budget::*;
use attention_geometry::mixer::Mixer;
use attention_geometry::train::Outcome;

/// The experiment at a size a test affords: two mixers, two cells, tiny runs.
fn tiny() -> Setup {
    Setup {
        vocab: 24,
        len: 16,
        d: 8,
        mixers: vec![Mixer::Softmax, Mixer::GatedDeltaNet],
        cells: vec![(4, 2), (4, 3)],
        cap: 6,
        tune_cap: 4,
        tune_seeds: vec![10, 11],
        seeds: 2,
        batch: 2,
        test: 4,
        every: 2,
        ..setup()
    }
}

#[test]
fn a_resumed_run_reuses_every_record_and_fills_every_cell() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = Vec::new();
    let first = resume(&tiny(), "h1", dir.path(), |l| lines.push(l)).unwrap();
    // softmax and two gate initialisations of Gated DeltaNet, in two cells
    assert_eq!(first.cells.len(), 6);
    for c in &first.cells {
        assert_eq!(c.runs.len(), 2);
        assert!(c.tuning.len() >= 3 && c.tuning.iter().all(|(_, rs)| rs.len() == 2));
        // every pick sits inside its grid, or at a limit
        let rates: Vec<f64> = c.tuning.iter().map(|&(r, _)| r).collect();
        let (low, high) = (
            rates.iter().copied().fold(1.0, f64::min),
            rates.iter().copied().fold(0.0, f64::max),
        );
        assert!((c.lr > low && c.lr < high) || c.lr <= 1e-4 * 1.001 || c.lr >= 0.1 * 0.999);
        // a tiny run stops at its cap; where the cap cut most runs, they went
        // again at twice it, at most twice over
        let cap = 6 << c.shorter.len();
        assert!(c.shorter.len() <= 2 && c.runs.iter().all(|r| r.cap == cap && r.steps() <= cap));
        for (i, (at, runs)) in c.shorter.iter().enumerate() {
            assert_eq!(*at, 6 << i);
            assert!(runs.iter().all(|r| r.cap == *at));
        }
        assert!(c.shorter.len() == 2 || !c.cap_binds());
    }
    let said = status(&tiny(), "h1", dir.path()).unwrap();
    assert!(said.contains("reported: 0 of 12 runs to go\n"), "{said}");
    // nothing to go at any cap
    assert!(
        said.lines()
            .filter(|l| l.contains("runs to go"))
            .all(|l| l.contains(" 0 of ")),
        "{said}"
    );
    assert!(
        status(&tiny(), "h3", dir.path())
            .unwrap()
            .contains("0 tuning and 0 reported runs on file")
    );
    // a second call finds every run on disk and runs nothing
    let mut again = Vec::new();
    let second = resume(&tiny(), "h1", dir.path(), |l| again.push(l)).unwrap();
    assert_eq!(second, first);
    assert!(again.iter().all(|l| !l.starts_with("  ")), "{again:?}");
    // another code hash reruns everything
    let mut other = Vec::new();
    resume(&tiny(), "h2", dir.path(), |l| other.push(l)).unwrap();
    assert!(
        other.iter().filter(|l| l.starts_with("  ")).count()
            >= lines.iter().filter(|l| l.starts_with("  ")).count()
    );
}

#[test]
fn the_pick_prefers_accuracy_then_speed_and_the_grid_widens_past_an_edge() {
    let record = |lr: f64, accuracy: f64, steps: usize| Record {
        code_hash: String::new(),
        stage: Stage::Tune,
        arm: "linear".into(),
        state: 8,
        pairs: 8,
        lr,
        seed: 0,
        cap: 100,
        outcome: Outcome::Flat,
        accuracy,
        curve: vec![(steps, accuracy)],
        seconds: 0.0,
    };
    let (a, b, c) = (
        record(0.001, 0.995, 900),
        record(0.003, 0.996, 400),
        record(0.01, 0.5, 100),
    );
    let grid = vec![(0.001, vec![&a]), (0.003, vec![&b]), (0.01, vec![&c])];
    assert_eq!(pick(&grid), 0.003);
    assert_eq!(setup().widened(&grid), None);
    // equal accuracy: the faster rate wins, here the low edge, so the grid widens below it
    let fast_low = record(0.001, 0.996, 300);
    let grid = vec![
        (0.001, vec![&fast_low]),
        (0.003, vec![&b]),
        (0.01, vec![&c]),
    ];
    assert_eq!(pick(&grid), 0.001);
    let next = setup().widened(&grid).unwrap();
    assert!((next - 0.001 / 10f64.sqrt()).abs() < 1e-12);
}

/// Findings made by hand: every arm's seeds at `acc(arm, cell) + small noise`, solved above 0.99.
fn made(acc: impl Fn(&str, (usize, usize)) -> f64) -> Findings {
    let s = setup();
    let cells = s
        .arms()
        .into_iter()
        .flat_map(|arm| s.cells.iter().map(move |&cell| (arm, cell)))
        .map(|(arm, (state, pairs))| {
            let name = arm.name();
            let runs = (0..s.seeds)
                .map(|seed| {
                    let a = (acc(&name, (state, pairs)) + 0.002 * seed as f64).min(1.0);
                    Record {
                        code_hash: String::new(),
                        stage: Stage::Report,
                        arm: name.clone(),
                        state,
                        pairs,
                        lr: 0.003,
                        seed,
                        cap: s.cap,
                        outcome: if a > 0.99 {
                            Outcome::Solved
                        } else {
                            Outcome::Flat
                        },
                        accuracy: a,
                        curve: vec![(1000, a.min(0.6)), (2000, a)],
                        seconds: 1.0,
                    }
                })
                .collect();
            Cell {
                arm: name,
                state,
                pairs,
                tuning: Vec::new(),
                lr: 0.003,
                runs,
                shorter: Vec::new(),
            }
        })
        .collect();
    Findings {
        code_hash: String::new(),
        command: COMMAND.into(),
        setup: s,
        core_seconds: 0.0,
        cells,
    }
}

#[test]
fn the_claims_read_the_gaps_against_the_seed_spread() {
    use attention_geometry::claim::Verdict;
    // the delta rule ahead within the state and level above it; softmax solves everything
    let f = made(|arm, (k, p)| match arm {
        "softmax" => 1.0,
        a if a.starts_with("linear") => {
            if p <= k {
                0.5
            } else {
                0.2
            }
        }
        _ => {
            if p <= k {
                0.98
            } else {
                0.2
            }
        }
    });
    let claims = claims(&f);
    let id = |slug: &str| claims.iter().find(|c| c.id.ends_with(slug)).unwrap();
    assert_eq!(id("large-delta-recalls-more").verdict(), Verdict::Supported);
    assert_eq!(
        id("large-delta-above-state").verdict(),
        Verdict::Contradicted
    );
    assert_eq!(id("large-softmax-ceiling").verdict(), Verdict::Supported);
    // softmax's lead over linear grows from 0.5 to 0.8: Arora et al. reproduced
    assert!(
        id("large-softmax-ceiling")
            .replications
            .iter()
            .all(|r| r.finding.passes())
    );
    // DeltaNet at 0.98–0.994 is solved in a minority of runs: Yang et al.'s perfect recall is not
    assert!(
        !id("large-delta-recalls-more").replications[0]
            .finding
            .passes()
    );
    // the report apart: learning speed, and how the runs ended
    let cell = f.cell("deltanet", (8, 8));
    assert_eq!(cell.steps_to(0.5), (Some(1000.0), 8));
    for &c in &f.setup.cells {
        let cell = f.cell("deltanet", c);
        assert_eq!(
            cell.count(Outcome::Cut) + cell.count(Outcome::NeverLearned),
            0
        );
    }
}

#[test]
fn an_arm_the_cap_kept_cutting_is_judged_across_caps() {
    use attention_geometry::claim::Verdict;
    use attention_geometry::claim::plateau::Ending;
    use report::{Rule, TOLERANCE};
    let above = |arm: &str, (k, p): (usize, usize)| match arm {
        "softmax" => 1.0,
        _ if p <= k => 0.995,
        _ => 0.2,
    };
    // fla's linear attention at 16 pairs: cut at every cap; at the doubled
    // cap its seeds end at `after`, at the cap before at `before`
    let judged = |before: &dyn Fn(u64) -> f64, after: &dyn Fn(u64) -> f64| {
        let mut f = made(above);
        let cap = f.setup.cap;
        let cell = f
            .cells
            .iter_mut()
            .find(|c| c.arm == "linear" && (c.state, c.pairs) == (8, 16))
            .unwrap();
        let at = |cap: usize, acc: &dyn Fn(u64) -> f64, runs: &[Record]| -> Vec<Record> {
            runs.iter()
                .map(|r| Record {
                    cap,
                    outcome: Outcome::Cut,
                    accuracy: acc(r.seed),
                    ..r.clone()
                })
                .collect()
        };
        cell.shorter = vec![(cap, at(cap, before, &cell.runs))];
        cell.runs = at(2 * cap, after, &cell.runs);
        f
    };
    let verdict = |f: &Findings, rule| {
        let c = claims::judged(f, rule);
        let c = c
            .iter()
            .find(|c| c.id.ends_with("large-delta-above-state"))
            .unwrap();
        (
            c.verdict(),
            c.plateau
                .iter()
                .any(|r| r.ending == Ending::Rising && r.n > 0),
        )
    };
    // still rising by 0.1, seed for seed: undecided under either rule
    let rising = judged(&|s| 0.3 + 0.01 * s as f64, &|s| 0.4 + 0.01 * s as f64);
    let linear = rising.cell("linear", (8, 16));
    assert!(linear.cap_binds() && linear.rise().unwrap().1 > 0.0);
    for rule in [Rule::NoRise, Rule::Within(TOLERANCE)] {
        assert_eq!(verdict(&rising, rule), (Verdict::Undecided, true));
    }
    // level on average, but the seeds spread by ±0.2: no rise detected, yet
    // none excluded above the tolerance either
    let spread = |s: u64| 0.3 + if s.is_multiple_of(2) { 0.2 } else { -0.2 };
    let level = judged(&spread, &|s| spread(s + 1));
    let linear = level.cell("linear", (8, 16));
    assert!(linear.settled(Rule::NoRise) && !linear.settled(Rule::Within(TOLERANCE)));
    assert_eq!(
        verdict(&level, Rule::NoRise),
        (Verdict::Contradicted, false)
    );
    assert_eq!(
        verdict(&level, Rule::Within(TOLERANCE)).0,
        Verdict::Undecided
    );
    // the report shows the rise and both rules, and each claim under both
    let m = report::measures(&level);
    let value = |k: &str| m.iter().find(|x| x.key == k).unwrap().value.clone();
    assert!(value("budget_caps_linear_k8p16_rise").starts_with("0.000 ["));
    assert_eq!(value("budget_caps_linear_k8p16_no_rise"), "stopped");
    assert_eq!(value("budget_caps_linear_k8p16_within"), "rising");
    assert_eq!(
        value("budget_rules_large-delta-above-state_no_rise"),
        "contradicted"
    );
    assert_eq!(
        value("budget_rules_large-delta-above-state_within"),
        "undecided"
    );
}

#[test]
fn the_figures_draw_every_arm_the_same_way_twice() {
    use attention_geometry::figures::delta_attention_budget::{capacity, curves};
    let f = made(|arm, (k, p)| {
        if arm == "softmax" || p <= k {
            0.995
        } else {
            0.3
        }
    });
    let (a, b) = (curves(&f, (8, 16)).unwrap(), capacity(&f).unwrap());
    assert_eq!(a, curves(&f, (8, 16)).unwrap());
    assert_eq!(b, capacity(&f).unwrap());
    for (arm, name) in report::ARMS {
        assert!(a.contains(name), "{arm} has no panel");
    }
    if let Ok(dir) = std::env::var("BUDGET_FIGURES") {
        std::fs::write(format!("{dir}/budget-curves.svg"), a).unwrap();
        std::fs::write(format!("{dir}/budget-capacity.svg"), b).unwrap();
    }
}

#[test]
fn every_arm_and_cell_has_a_row_of_measures() {
    let f = made(|_, (k, p)| if p <= k { 0.995 } else { 0.3 });
    let m = report::measures(&f);
    let value = |k: &str| m.iter().find(|x| x.key == k).unwrap().value.clone();
    assert_eq!(value("budget_ends_deltanet_k8p4"), "8 / 0 / 0 / 0");
    assert_eq!(value("budget_ends_deltanet_k8p16"), "0 / 8 / 0 / 0");
    assert_eq!(
        value("budget_half_deltanet_k8p16"),
        "none of the 8 seeds, fewer than half"
    );
    assert!(value("budget_table_k16p16").lines().count() == 2 + 9);
}

#[test]
fn the_committed_findings_come_from_this_code() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(
        findings().code_hash,
        code_hash(root),
        "{FINDINGS} is stale: the code it depends on ({RUN} and the training code) changed since \
         its runs ran; rerun `{COMMAND}` (hours: see the README) and commit {DIR} and {FINDINGS}"
    );
    assert_eq!(
        findings().setup,
        setup(),
        "{FINDINGS} is stale: rerun `{COMMAND}`"
    );
}
