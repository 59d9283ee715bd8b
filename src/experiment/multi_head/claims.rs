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
    let at8 = widths
        .iter()
        .position(|&w| w == 8)
        .expect("width 8 is swept");
    let (wide_cc, narrow_cc) = b.width(Task::TwoContents, at8);
    let split = |h: usize| {
        let k = split::BOOK
            .splits
            .iter()
            .position(|&(n, _)| n == h)
            .expect("a trained split");
        split::book().trained(k).mean
    };
    // paired by seed: the pair of narrow heads' accuracy minus the wide head's
    let pair_gain = Summary::of(
        &s.two
            .iter()
            .zip(&s.one)
            .map(|(a, b)| a.accuracy - b.accuracy)
            .collect::<Vec<_>>(),
    );
    vec![
        Claim::construction(
            "later-layers-combine",
            "later layers combine the coverings of earlier ones",
        )
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
            "a head of width r expresses only relations of rank r: a positional relation needs full rank, a content relation does not",
        )
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
        Claim::empirical(
            "heads-capture-different-relations",
            "each head is its own projected covering: heads capture different relations of the same token field",
        )
        .evidence(Evidence::Toy)
        .setting(format!(
            "{} seeds; trained on the ordered pair of labels at q and q + 1; two heads of width {} \
             against one head of width {}",
            sb.seeds,
            sb.task.d / 2,
            sb.task.d
        ))
        .core(Test::above(
            "share of seeds on which the two heads split the relations",
            s.splits() as f64 / sb.seeds as f64,
            0.5,
            2,
        ))
        .scope(Test::below(
            "accuracy of one head on the two relations (it cannot read both if one head is one relation)",
            one.mean,
            0.5,
            2,
        )),
        // The essay's stacked coverings: several narrow heads should serve a
        // task at least as well as one wide head of the same total width.
        Claim::empirical(
            "narrow-heads-beat-one-wide",
            "many narrow coverings serve better than one wide one of the same width",
        )
        .evidence(Evidence::Toy)
        .setting(format!(
            "trained at tuned rates: the two-relation task ({} seeds) and the match task at total \
             width 8 ({} seeds, {} steps, a plateau); constructed: best patterns of width 8 on two \
             content relations",
            sb.seeds,
            split::BOOK.seeds,
            split::BOOK.schedule.steps
        ))
        .core(Test::above(
            "lower 95% bound of the accuracy gain, two narrow heads over one wide, two relations",
            pair_gain.ci95().0,
            0.0,
            2,
        ))
        .core(Test::below(
            "pattern error of two narrow heads minus one wide, two content relations, width 8",
            narrow_cc.mean - wide_cc.mean,
            0.0,
            2,
        ))
        .scope(Test::above(
            "accuracy of 8 heads of width 1 minus 1 head of width 8, one relation",
            split(8) - split(1),
            -0.05,
            2,
        )),
        // If later layers combine, correct, suppress or amplify what earlier
        // heads write, a trained later layer should change an earlier head's
        // effect on the output: its total effect should differ from its direct one.
        Claim::empirical(
            "later-layers-act-on-earlier-heads",
            "later layers combine, correct, suppress or amplify the coverings of earlier ones",
        )
        .evidence(Evidence::Toy)
        .setting(format!(
            "{} seeds; two layers of {} heads with residual paths trained on a two-hop recall \
             task; each seed's first-layer head with the largest total effect; change \
             c = ‖Δ_tot − Δ_dir‖ / ‖Δ_dir‖ on the centred logits; baseline: the same models at \
             initialisation",
            cb.seeds, cb.heads
        ))
        .core(Test::above(
            format!(
                "share of seeds on which the later layer changes the head's effect by more than c = {}",
                cb.change
            ),
            c.changed(cb.change).0,
            0.5,
            2,
        ))
        .scope(Test::above(
            "share of seeds on which that change exceeds the same seed's at initialisation",
            c.beyond_init(),
            0.5,
            2,
        )),
    ]
    .into_iter()
    .chain(super::trained::claims())
    .collect()
}
