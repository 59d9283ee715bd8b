//! The decoder's pruning as chapter 3 quotes it: measures (keys `pr_…`) and
//! the choices it adds to `ch03.trained-heads-redundant`.

use super::{BOOK, Side, Tally, Task, book};
use crate::claim::{Claim, Evidence, Test};
use crate::measure::{Measure, fixed, of_total, pm};
use crate::stats::Summary;

/// The encoder claim's bound, 12 of 72 heads, as a share: "many heads".
pub const MANY: f64 = 12.0 / 72.0;

fn heads(side: &Side) -> f64 {
    side.order.len() as f64
}

/// Share of heads prunable (least important first) before `task` drops.
pub fn share(side: &Side, task: Task) -> f64 {
    side.prunable(task, &side.curve, BOOK.drop) as f64 / heads(side)
}

/// Share prunable in each random order of the trained decoder.
pub fn random_shares(task: Task) -> Vec<f64> {
    let t = &book().trained;
    t.random
        .iter()
        .map(|c| t.prunable(task, c, BOOK.drop) as f64 / heads(t))
        .collect()
}

fn short(task: Task) -> &'static str {
    match task {
        Task::Agreement => "top-1 agreement",
        Task::Loss => "the share of loss kept",
    }
}

/// The core tests under one decoder task: no single head, many heads.
pub fn tests(task: Task) -> Vec<Test> {
    let f = book();
    let drop = fixed(BOOK.drop, 2);
    vec![
        Test::below(
            format!(
                "largest drop of {} from removing one of the {} heads the first pass ranks highest, alone",
                short(task),
                BOOK.singles
            ),
            f.trained.single_drop(task),
            BOOK.drop,
            2,
        ),
        Test::above(
            format!(
                "share of the decoder's heads pruned (least important first) before {} drops by {drop} (the encoder's bound, 12 of 72)",
                short(task)
            ),
            share(&f.trained, task),
            MANY,
            2,
        ),
    ]
}

/// Adds the decoder's tasks to the redundancy claim as choices, and its scope tests.
pub fn with_decoder(claim: Claim) -> Claim {
    let f = book();
    let all = |s: &Side| s.curve[s.curve.len() - 1].agreement();
    Task::BOTH
        .into_iter()
        .fold(claim, |c, task| {
            c.under(
                format!("SmolLM2-135M-Instruct, task: {}", task.name()),
                tests(task),
            )
        })
        .scope(Test::below(
            "SmolLM2's top-1 agreement with every head removed (the task needs attention)",
            all(&f.trained),
            1.0 - BOOK.drop,
            2,
        ))
}

/// The book's question of the decoder: does training (or importance) let
/// more heads go before its predictions change?
pub fn decoder_claim() -> Claim {
    let f = book();
    let ordered = |task: Task| {
        Test::above(
            format!(
                "SmolLM2's share pruned before {} drops, importance order − random order (mean of the seeds)",
                task.name()
            ),
            share(&f.trained, task) - Summary::of(&random_shares(task)).mean,
            0.0,
            2,
        )
    };
    Claim::empirical(
        "decoder-prunes-more-heads",
        "the trained decoder loses more heads before its top-1 agreement drops than its random-weight twin, and more when the least important go first",
    )
    .zh("训练后的解码器在 top-1 一致率下降前能去掉的头多于随机权重的同构模型，且按重要性从低到高去掉时更多。")
    .evidence(Evidence::Pretrained)
    .setting(setting())
    .default_choice(format!("task: {}", Task::Agreement.name()))
    .core(ordered(Task::Agreement))
    .scope(Test::above(
        "SmolLM2's share pruned before top-1 agreement drops, trained − random-weight decoder",
        share(&f.trained, Task::Agreement) - share(&f.random, Task::Agreement),
        0.0,
        2,
    ))
    .under(
        format!("task: {} (the random decoder's loss is a random readout's, so only the order is compared)", Task::Loss.name()),
        vec![ordered(Task::Loss)],
    )
}

/// What the claim's setting says of the decoder.
pub fn setting() -> String {
    let f = book();
    format!(
        "SmolLM2-135M-Instruct and its random-weight twin (Llama init): {} paragraphs of {} context sentences, every next-token position scored; importance = mean |first-order direct effect| on the loss (final norm frozen); {} heads removed per level; {} random orders; loss kept not tested against the random decoder (its loss is that of a random readout whatever heads it keeps): random decoder's loss {} nats clean, {} with every head removed",
        BOOK.paragraphs,
        BOOK.sentences,
        BOOK.step,
        BOOK.orders,
        fixed(f.random.curve[0].mean_loss(), 2),
        fixed(f.random.curve[f.random.curve.len() - 1].mean_loss(), 2),
    )
}

/// How many of `heads` go before the drop, as far as levels of
/// [`BOOK`]`.step` heads can tell: none at the first level means fewer than
/// a level, not none.
fn prunable(n: usize, heads: usize) -> String {
    match n {
        0 => format!("fewer than {} of the {heads} heads", BOOK.step),
        _ => of_total(n, heads, "heads"),
    }
}

/// The numbers the prose quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let (t, r) = (&f.trained, &f.random);
    let first = |c: &[Tally]| c[1];
    let random_first = Summary::over(t.random.iter().map(|c| first(c).agreement()));
    vec![
        Measure::new("pr_heads", t.order.len().to_string()),
        Measure::new("pr_paragraphs", BOOK.paragraphs.to_string()),
        Measure::new("pr_sentences", BOOK.sentences.to_string()),
        Measure::new("pr_positions", t.curve[0].positions.to_string()),
        Measure::new("pr_step", BOOK.step.to_string()),
        Measure::new("pr_drop", fixed(BOOK.drop, 2)),
        Measure::new("pr_orders", BOOK.orders.to_string()),
        Measure::new("pr_singles", BOOK.singles.to_string()),
        Measure::new("pr_many", fixed(MANY, 2)),
        Measure::new("pr_single_drop", fixed(t.single_drop(Task::Agreement), 2)),
        Measure::new(
            "pr_trained_agree_first",
            fixed(first(&t.curve).agreement(), 2),
        ),
        Measure::new(
            "pr_trained_prunable",
            prunable(
                t.prunable(Task::Agreement, &t.curve, BOOK.drop),
                t.order.len(),
            ),
        ),
        Measure::new("pr_random_order_agree_first", pm(random_first, 2)),
        Measure::new("pr_trained_loss", fixed(t.curve[0].mean_loss(), 2)),
        Measure::new(
            "pr_trained_loss_first",
            fixed(first(&t.curve).mean_loss(), 2),
        ),
        Measure::new(
            "pr_loss_prunable",
            t.prunable(Task::Loss, &t.curve, BOOK.drop).to_string(),
        ),
        Measure::new(
            "pr_trained_loss_all",
            fixed(t.curve[t.curve.len() - 1].mean_loss(), 2),
        ),
        Measure::new(
            "pr_random_agree_first",
            fixed(first(&r.curve).agreement(), 2),
        ),
        Measure::new("pr_random_loss", fixed(r.curve[0].mean_loss(), 2)),
    ]
}
