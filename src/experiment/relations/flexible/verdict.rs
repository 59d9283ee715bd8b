//! Chapter 4's "flexible, but costly": the numbers the section quotes and
//! its two claims, read from the findings of [`super::book`] and [`super::sharp`].

use super::{BOOK, Findings, Head, SHARP, STRICT, book, other, own, sharp};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed, of_total, pm, share_of, table_of};
use crate::stats::{Summary, quantile};

/// Smallest share of seeds reaching the threshold over `cells`, or the largest with `max`.
fn reach(f: &Findings, keep: Keep, strict: bool, max: bool) -> f64 {
    let shares = f
        .where_(keep)
        .into_iter()
        .map(|c| c.reached(f.setup, strict));
    match max {
        true => shares.fold(0.0, f64::max),
        false => shares.fold(1.0, f64::min),
    }
}

/// Which (head, member) cells a statistic reads.
type Keep = fn(Head, usize) -> bool;

fn learned(head: Head, _: usize) -> bool {
    head == Head::Learned
}

/// Final accuracies of every run of `cells`.
fn accuracy(f: &Findings, keep: Keep) -> Vec<f64> {
    let cells = f.where_(keep).into_iter();
    cells.flat_map(|c| c.accuracy.iter().copied()).collect()
}

/// The lower 95% bounds of the paired step costs, one per member.
fn lower_bounds(f: &Findings, strict: bool) -> Vec<f64> {
    (0..f.setup.members)
        .map(|r| f.cost(r, strict).1.0)
        .collect()
}

/// The first claim's core: the learned head solves every member, each fixed
/// form its own only, and the learned head pays steps on every member.
fn flexible_core(f: &Findings, strict: bool) -> Vec<Test> {
    let t = if strict {
        STRICT
    } else {
        f.setup.schedule.threshold
    };
    let null = quantile(&f.null(), 0.95);
    let lows = lower_bounds(f, strict);
    vec![
        Test::above(
            format!(
                "smallest share of learned-head seeds reaching test accuracy {t}, over the members (flexible)"
            ),
            reach(f, learned, strict, false),
            0.9,
            2,
        ),
        Test::above(
            format!(
                "smallest learned-head final accuracy minus the null's 95% quantile ({null:.2}, shuffled labels)"
            ),
            accuracy(f, learned).into_iter().fold(1.0, f64::min) - null,
            0.0,
            2,
        ),
        Test::above(
            format!("smallest share of a fixed form's seeds reaching {t} on its own member"),
            reach(f, own, strict, false),
            0.9,
            2,
        ),
        Test::below(
            format!("largest share of a fixed form's seeds reaching {t} on another member"),
            reach(f, other, strict, true),
            0.05,
            2,
        ),
        Test::above(
            "smallest lower 95% bound, over the members, of the median paired steps learned − fixed at that member (costly)",
            lows.iter().copied().fold(f64::INFINITY, f64::min),
            0.0,
            0,
        ),
    ]
}

/// The second claim's core: solved everywhere, and measurably slower on some member.
fn efficient_core(f: &Findings, strict: bool) -> Vec<Test> {
    let t = if strict {
        STRICT
    } else {
        f.setup.schedule.threshold
    };
    vec![
        Test::above(
            format!(
                "smallest share of learned-head seeds reaching test accuracy {t}, over the members (powerful)"
            ),
            reach(f, learned, strict, false),
            0.9,
            2,
        ),
        Test::above(
            "largest lower 95% bound, over the members, of the median paired steps learned − fixed at that member (not efficient on some member)",
            lower_bounds(f, strict)
                .into_iter()
                .fold(f64::NEG_INFINITY, f64::max),
            0.0,
            0,
        ),
    ]
}

/// The setting both claims state.
fn setting(f: &Findings) -> String {
    let s = f.setup;
    format!(
        "a family of {} relations key = q + r (r < {}) over {} keys, context q … q + {}, query e[q], \
         each member trained on its own; one head of width {} with W_Q, W_K learned (untied) against \
         W_Q, W_K frozen at one member's form (score {} on the key q + r, 0 elsewhere; the same \
         tensors, only W_V, W_O, W_R learn); {} seeds per (head, member), sharing tables, test set and batches, \
         each tuned arm at its rate from {} other seeds over {:?} (a fixed form on another member at \
         its own member's rate); null: the learned head on shuffled labels; steps read every {} \
         steps; every run to a plateau (accuracy rose < 0.01 over the last fifth, none before step {}) \
         with a cap of {} steps (unreached counted as {})",
        s.members,
        s.members,
        s.sizes.vocab,
        s.sizes.context - 1,
        s.sizes.d,
        s.sizes.margin,
        s.seeds,
        s.tuning_seeds,
        s.lrs,
        s.schedule.eval_every,
        s.min_steps,
        s.schedule.steps,
        s.beyond()
    )
}

/// Adds the plateau status and the stalled runs of each arm.
fn arms(claim: Claim, f: &Findings) -> Claim {
    let null = quantile(&f.null(), 0.95);
    let groups: [(&str, Keep); 3] = [
        ("learned", learned),
        ("fixed (own member)", own),
        ("fixed (other member)", other),
    ];
    let mut claim = groups.iter().fold(claim, |c, &(name, keep)| {
        let cells = f.where_(keep);
        let capped = cells.iter().flat_map(|c| &c.capped).filter(|&&x| x);
        let runs = cells.iter().map(|c| c.capped.len()).sum();
        c.trained(name, capped.count(), runs)
    });
    for (name, keep) in &groups[..2] {
        let acc = accuracy(f, *keep);
        let stalled = acc.iter().filter(|&&a| a <= null).count();
        claim = claim.learned(name, stalled, acc.len());
    }
    let nulls = f.cells.iter().filter(|c| c.shuffled);
    let capped: Vec<bool> = nulls.flat_map(|c| c.capped.iter().copied()).collect();
    claim.trained(
        "shuffled-label null",
        capped.iter().filter(|&&x| x).count(),
        capped.len(),
    )
}

/// The section's two claims.
pub fn claims() -> Vec<Claim> {
    let (f, g) = (book(), sharp());
    let threshold = format!("steps counted to test accuracy {}", BOOK.schedule.threshold);
    let strict = format!("steps counted to test accuracy {STRICT}");
    let sharper = format!(
        "fixed forms at margin {} (threshold {})",
        SHARP.sizes.margin, SHARP.schedule.threshold
    );
    let default = format!("{threshold}; fixed forms at margin {}", BOOK.sizes.margin);
    let flexible = Claim::empirical(
        "flexible-costly",
        "at equal parameters, a learned head solves every member of a family of relations, where a form fixed to one relation solves only its own (flexible); on each member it needs more steps than the form given that member's relation (costly)",
    )
    .quotes("flexible-because")
    .zh("在参数量相同时，可学习的头能解决一族关系中的每一个成员，而固定为某一关系的形式只能解决它自己那一个（灵活）；在每个成员上，它比直接给定该成员关系的形式需要更多步（有代价）。")
    .evidence(Evidence::Toy)
    .setting(setting(f))
    .default_choice(default.clone())
    .under(strict.clone(), flexible_core(f, true))
    .under(sharper.clone(), flexible_core(g, false));
    let flexible = flexible_core(f, false)
        .into_iter()
        .fold(flexible, Claim::core);
    let efficient = Claim::empirical(
        "not-necessarily-efficient",
        "the learned head solves every member of the family (powerful), and on some member it is measurably slower to learn than the form given that member's relation (not necessarily efficient)",
    )
    .quotes("powerful-not-efficient")
    .zh("可学习的头能解决这一族中的每一个成员（强大），而在某个成员上，它的学习明显慢于直接给定该成员关系的形式（并不一定高效）。")
    .evidence(Evidence::Toy)
    .setting(setting(f))
    .default_choice(default)
    .under(strict, efficient_core(f, true))
    .under(sharper, efficient_core(g, false));
    let efficient = efficient_core(f, false)
        .into_iter()
        .fold(efficient, Claim::core);
    vec![arms(flexible, f), arms(efficient, f)]
}

/// `median (q25–q75)` of steps, `> cap` beyond the cap.
fn steps_text(f: &Findings, xs: &[f64]) -> String {
    let cap = f.setup.schedule.steps as f64;
    let text = |x: f64| match x > cap {
        true => format!("> {cap}"),
        false => format!("{x:.0}"),
    };
    let m = crate::stats::median(xs);
    format!(
        "{} ({}–{})",
        text(m),
        text(quantile(xs, 0.25)),
        text(quantile(xs, 0.75))
    )
}

/// One table measure `key`: a row per member `r`, a cell per column,
/// `cell(column, r)` its text (each cell keyed `{key}_{column}_r{r}`).
fn per_member(
    f: &Findings,
    key: &str,
    header: &[&str],
    cell: impl Fn(usize, usize) -> String,
) -> Vec<Measure> {
    let rows = (0..f.setup.members)
        .map(|r| {
            let cells = (1..header.len())
                .map(|c| Measure::new(format!("{key}_{c}_r{r}"), cell(c, r)))
                .collect();
            (r.to_string(), cells)
        })
        .collect();
    table_of(key, header, rows)
}

/// The paired cost of member `r`: `median [lo, hi]`.
fn cost(f: &Findings, r: usize, strict: bool) -> String {
    let (m, (lo, hi)) = f.cost(r, strict);
    format!("{m:.0} [{lo:.0}, {hi:.0}]")
}

/// The numbers the section quotes.
pub fn measures() -> Vec<Measure> {
    let (f, g) = (book(), sharp());
    let s = f.setup;
    let cell = |h: Head, r: usize| f.cell(h, r, false);
    let edges = [s.lrs[0], s.lrs[s.lrs.len() - 1]];
    let at_edge = f.tuning.iter().filter(|(_, _, lr)| edges.contains(lr));
    let capped: Vec<bool> = f
        .cells
        .iter()
        .chain(&g.cells)
        .flat_map(|c| c.capped.clone())
        .collect();
    let over = |xs: Vec<f64>| pm(Summary::of(&xs), 2);
    let mut m = vec![
        Measure::new("flex_members", s.members.to_string()),
        Measure::new("flex_last", (s.members - 1).to_string()),
        Measure::new("flex_d", s.sizes.d.to_string()),
        Measure::new("flex_vocab", s.sizes.vocab.to_string()),
        Measure::new("flex_context", s.sizes.context.to_string()),
        Measure::new("flex_seeds", s.seeds.to_string()),
        Measure::new("flex_tuning_seeds", s.tuning_seeds.to_string()),
        Measure::new(
            "flex_tuning_range",
            format!("{}–{}", s.tuning_seed, s.tuning_seed + s.tuning_seeds - 1),
        ),
        Measure::new("flex_lrs", s.lrs.map(|x| x.to_string()).join(", ")),
        Measure::new("flex_budget", s.schedule.steps.to_string()),
        Measure::new("flex_min_steps", s.min_steps.to_string()),
        Measure::new("flex_eval_every", s.schedule.eval_every.to_string()),
        Measure::new("flex_threshold", fixed(s.schedule.threshold, 1)),
        Measure::new("flex_strict", fixed(STRICT, 2)),
        Measure::new("flex_margin", fixed(BOOK.sizes.margin, 0)),
        Measure::new("flex_sharp", fixed(SHARP.sizes.margin, 0)),
        Measure::new(
            "flex_edge",
            of_total(at_edge.count(), f.tuning.len(), "tuned arms"),
        ),
        Measure::new(
            "flex_capped",
            of_total(capped.iter().filter(|&&x| x).count(), capped.len(), "runs"),
        ),
        Measure::new(
            "flex_reached_learned",
            share_of(reach(f, learned, false, false), "seeds"),
        ),
        Measure::new(
            "flex_reached_own",
            share_of(reach(f, own, false, false), "seeds"),
        ),
        Measure::new("flex_reached_other", fixed(reach(f, other, false, true), 2)),
        Measure::new("flex_acc_learned", over(accuracy(f, learned))),
        Measure::new("flex_acc_own", over(accuracy(f, own))),
        Measure::new("flex_acc_own_sharp", over(accuracy(g, own))),
        Measure::new("flex_acc_other", over(accuracy(f, other))),
        Measure::new("flex_null", over(f.null())),
        Measure::new("flex_null_q95", fixed(quantile(&f.null(), 0.95), 2)),
        Measure::new("flex_untrained", over(accuracy_before(f))),
        Measure::new(
            "flex_reached_own_strict",
            share_of(reach(f, own, true, false), "seeds"),
        ),
    ];
    let steps = |h: Head, r: usize| steps_text(f, &cell(h, r).steps);
    m.extend(per_member(
        f,
        "flex_rates",
        &["member r", "rate, learned head", "rate, fixed form"],
        |c, r| match c {
            1 => cell(Head::Learned, r).lr.to_string(),
            _ => cell(Head::Fixed(r), r).lr.to_string(),
        },
    ));
    m.extend(per_member(
        f,
        "flex_steps",
        &[
            "member r",
            "learned head: median steps (25–75%)",
            "form given: median steps (25–75%)",
            "learned − given, per seed [95%]",
        ],
        |c, r| match c {
            1 => steps(Head::Learned, r),
            2 => steps(Head::Fixed(r), r),
            _ => cost(f, r, false),
        },
    ));
    m.extend(per_member(
        f,
        "flex_costs",
        &["member r", "stricter threshold", "sharper fixed forms"],
        |c, r| match c {
            1 => cost(f, r, true),
            _ => cost(g, r, false),
        },
    ));
    m
}

/// Test accuracy before training, every run on true labels.
fn accuracy_before(f: &Findings) -> Vec<f64> {
    let cells = f.where_(|_, _| true).into_iter();
    cells.flat_map(|c| c.untrained.iter().copied()).collect()
}
