//! Chapter 3's claims: heads as separate coverings of one token field, what
//! splitting a width costs, and what a later layer does with an earlier one.

use super::bottleneck::{self, Task, total_widths};
use super::induction::{H, V};
use super::{SEEDS, ablation, composition, specialisation, split};
use crate::claim::{Claim, Evidence, Test};
use crate::stats::Summary;

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<Claim> {
    let f = ablation::book();
    let b = bottleneck::book();
    let c = composition::book();
    let cb = composition::BOOK;
    let s = specialisation::book();
    let sb = specialisation::BOOK;
    let chance = 1.0 / (V - 1) as f64;
    let others = (0..2 * H)
        .filter(|&k| k != 0 && k != H)
        .map(|k| f.without(k).mean)
        .fold(f64::INFINITY, f64::min);
    let one = specialisation::accuracy(&s.one);
    let widths = total_widths(b.setup);
    let error_gap = |w: usize| {
        let at = widths
            .iter()
            .position(|&x| x == w)
            .expect("the width is swept");
        let (wide, narrow) = b.width(Task::TwoContents, at);
        narrow.mean - wide.mean
    };
    let sp = split::book();
    let split_index = |h: usize| {
        split::BOOK
            .splits
            .iter()
            .position(|&(n, _)| n == h)
            .expect("a trained split")
    };
    let split = |h: usize| sp.trained(split_index(h)).mean;
    // paired by seed: the pair of narrow heads' accuracy minus the wide head's
    let pair_gain = Summary::of(
        &s.two
            .iter()
            .zip(&s.one)
            .map(|(a, b)| a.accuracy - b.accuracy)
            .collect::<Vec<_>>(),
    );
    let match_gain = sp.gain(split_index(2), split_index(1));
    let (s_capped_one, s_capped_two) = s.capped();
    let (c_capped_two, c_capped_one) = c.capped();
    let [heads_split, one_head] = Claim::empirical(
            "heads-capture-different-relations",
            "trained heads may split the relations of a task between them",
        )
        .quotes("heads-may-capture").zh("训练后的各个头可能把一个任务的不同关系分给不同的头。")
        .evidence(Evidence::Toy)
        .setting(format!(
            "{} seeds; trained to a plateau (cap {} steps) on the ordered pair of labels at q and \
             q + 1; two heads of width {} against one head of width {}",
            sb.seeds,
            sb.schedule.steps,
            sb.task.d / 2,
            sb.task.d
        ))
        .default_choice(format!("a head reads a relation with ≥ {} of its attention on it", sb.split))
        .core(Test::above(
            "share of seeds on which the two heads split the relations",
            s.splits() as f64 / sb.seeds as f64,
            0.5,
            2,
        ))
        .under(
            format!("a head reads a relation with ≥ {} of its attention on it", sb.loose_split),
            vec![Test::above(
                "share of seeds on which the two heads split the relations",
                s.splits_at(sb.loose_split) as f64 / sb.seeds as f64,
                0.5,
                2,
            )],
        )
        .scope(Test::below(
            "accuracy of one head on the two relations (it cannot read both if one head is one relation)",
            one.mean,
            0.5,
            2,
        ))
        .trained("one-head", s_capped_one, sb.seeds as usize)
        .trained("two-head", s_capped_two, sb.seeds as usize)
    .ask(
        "one-head-one-relation",
        "one head cannot read two relations at once: it fails a task of two relations",
        "一个头无法同时读取两种关系：面对含两种关系的任务，它会失败。",
        |_| true,
    );
    let one_head = one_head
        .default_choice("statistic: the mean accuracy over seeds")
        .under(
            "statistic: the share of seeds whose one head stays below 0.5",
            vec![Test::above(
                "share of seeds whose one head's accuracy on the two relations is below 0.5",
                s.one.iter().filter(|r| r.accuracy < 0.5).count() as f64 / sb.seeds as f64,
                0.5,
                2,
            )],
        );
    vec![
        Claim::construction(
            "later-layers-combine",
            "a later layer can combine the coverings of earlier heads: a constructed induction circuit needs both of its heads",
        )
        .quotes("heads-may-capture").zh("后续层可以组合前面各头的覆盖：构造出的归纳电路需要它的两个头。")
        .evidence(Evidence::Toy)
        .setting(format!(
            "{SEEDS} seeds; a hand-built two-layer induction circuit, {H} heads per layer, {V} token types"
        ))
        .core(Test::near("induction accuracy with every head", Summary::of(&f.full).mean, 1.0, 0.0, 2))
        .core(Test::below(
            "accuracy without the previous-token head, minus chance",
            f.without(0).mean - chance,
            0.05,
            2,
        ))
        .core(Test::below(
            "accuracy without the induction head, minus chance",
            f.without(H).mean - chance,
            0.05,
            2,
        ))
        .core(Test::above("lowest accuracy without any other single head", others, 0.99, 2)),
        Claim::theorem(
            "rank-bottleneck",
            "a head of width r expresses only relations of rank at most r: a positional relation needs full rank, a content relation does not",
        )
        .zh("宽度为 r 的头只能表达秩不超过 r 的关系：位置关系需要满秩，内容关系则不需要。")
        .evidence(Evidence::Random)
        .setting(format!("{} seeds; best rank-r patterns of target relations on 16 tokens", b.setup.seeds))
        .core(Test::above(
            "pattern error of a rank-8 head on the previous-token relation",
            b.rank(Task::PositionAndContent, 0, 8).mean,
            0.3,
            2,
        ))
        .core(Test::below(
            "pattern error of a rank-16 head on the previous-token relation",
            b.rank(Task::PositionAndContent, 0, 16).mean,
            0.05,
            2,
        ))
        .core(Test::below(
            "pattern error of a rank-4 head on a content relation",
            b.rank(Task::PositionAndContent, 1, 4).mean,
            0.05,
            2,
        )),
        // If heads are separate coverings that capture different relations,
        // training two heads on a task of two relations should split them.
        heads_split,
        one_head,
        // The essay's stacked coverings: several narrow heads should serve a
        // task at least as well as one wide head of the same total width.
        Claim::empirical(
            "narrow-heads-beat-one-wide",
            "many narrow coverings serve better than one wide one of the same width",
        )
        .zh("同样的总宽度下，多个窄覆盖胜过一个宽覆盖。")
        .evidence(Evidence::Toy)
        .setting(format!(
            "trained to a plateau at tuned rates: the two-relation task ({} seeds) and the match \
             task at total width 8 ({} seeds, cap {} steps); constructed: best patterns on two \
             content relations",
            sb.seeds,
            split::BOOK.seeds,
            split::BOOK.schedule.steps
        ))
        .default_choice("task: two relations at width 16; constructed patterns at total width 8")
        .core(Test::above(
            "lower 95% bound of the accuracy gain, two narrow heads over one wide",
            pair_gain.ci95().0,
            0.0,
            2,
        ))
        .core(Test::below(
            "pattern error of two narrow heads minus one wide, two content relations",
            error_gap(8),
            0.0,
            2,
        ))
        .under(
            "task: one relation (match) at width 8; constructed patterns at total width 4",
            vec![
                Test::above(
                    "lower 95% bound of the accuracy gain, two narrow heads over one wide",
                    match_gain.ci95().0,
                    0.0,
                    2,
                ),
                Test::below(
                    "pattern error of two narrow heads minus one wide, two content relations",
                    error_gap(4),
                    0.0,
                    2,
                ),
            ],
        )
        .scope(Test::above(
            "accuracy of 8 heads of width 1 minus 1 head of width 8, one relation",
            split(8) - split(1),
            -0.05,
            2,
        ))
        .trained("one-head (two relations)", s_capped_one, sb.seeds as usize)
        .trained("two-head (two relations)", s_capped_two, sb.seeds as usize)
        .trained(
            "match-task split",
            sp.capped.iter().sum(),
            split::BOOK.splits.len() * split::BOOK.seeds as usize,
        ),
        // If later layers combine, correct, suppress or amplify what earlier
        // heads write, a trained later layer should change an earlier head's
        // effect on the output more than the same layer does at random
        // initialisation: the null is the same seed before training.
        Claim::empirical(
            "later-layers-act-on-earlier-heads",
            "later layers combine, correct, suppress or amplify the coverings of earlier ones",
        )
        .quotes("heads-may-capture").zh("后续层组合、修正、抑制或强化前面各头的覆盖。")
        .evidence(Evidence::Toy)
        .setting(format!(
            "{} seeds; two layers of {} heads with residual paths trained to a plateau (cap {} \
             steps) on a two-hop recall task; change c = ‖Δ_tot − Δ_dir‖ / ‖Δ_dir‖ on the \
             centred logits; null: the same seed's model at initialisation",
            cb.seeds, cb.heads, cb.schedule.steps
        ))
        .default_choice("head: each seed's first-layer head with the largest total effect")
        .core(Test::above(
            "share of seeds on which the trained change exceeds the same seed's at initialisation",
            c.beyond_init(),
            0.5,
            2,
        ))
        .under(
            "head: every first-layer head",
            vec![Test::above(
                "share of seeds on which the trained change exceeds the same seed's at initialisation",
                c.every_head_beyond_init(),
                0.5,
                2,
            )],
        )
        .scope(Test::above(
            format!(
                "share of seeds on which the later layer changes the head's effect by more than c = {}",
                cb.change
            ),
            c.changed(cb.change).0,
            0.5,
            2,
        ))
        .trained("two-layer", c_capped_two, cb.seeds as usize)
        .trained("one-layer", c_capped_one, cb.seeds as usize),
    ]
    .into_iter()
    .chain(super::trained::claims())
    .chain(super::induction_heads::verdict::claims())
    .collect()
}
