//! Chapter 3's verdict, checked on the book-size findings the prose quotes.

use attention_geometry::experiment::multi_head::bottleneck::{self, Task, total_widths};
use attention_geometry::experiment::multi_head::induction::{H, V};
use attention_geometry::experiment::multi_head::{ablation, split};
use attention_geometry::stats::Summary;

#[test]
fn a_second_layer_composes_the_first_into_an_induction_head() {
    let f = ablation::book();
    let chance = 1.0 / (V - 1) as f64;
    assert_eq!(Summary::of(&f.full).mean, 1.0);
    assert!(f.without(0).mean < chance + 0.05, "{:?}", f.without(0));
    assert!(f.without(H).mean < chance + 0.05, "{:?}", f.without(H));
}

#[test]
fn ablation_is_concentrated_in_the_circuit_and_spread_in_a_random_layer() {
    let f = ablation::book();
    let shares = f.drop_shares();
    assert!(shares[0].mean + shares[H].mean > 0.99);
    for k in [1, 2, 3, 5, 6, 7] {
        assert!(f.without(k).mean > 0.99);
    }
    let top = f.top_random();
    assert!(
        top.mean < 2.0 / ablation::BOOK.random_heads as f64,
        "{top:?}"
    );
}

#[test]
fn a_positional_relation_needs_full_rank_and_a_content_relation_does_not() {
    let f = bottleneck::book();
    let pc = Task::PositionAndContent;
    assert!(f.rank(pc, 0, 8).mean > 0.3 && f.rank(pc, 0, 16).mean < 0.05);
    assert!(f.rank(pc, 1, 4).mean < 0.05);
}

#[test]
fn which_split_wins_depends_on_the_rank_of_the_relations() {
    let f = bottleneck::book();
    let widths = total_widths(f.setup);
    let at = |d: usize| widths.iter().position(|&w| w == d).unwrap();
    // position + content: the wide head wins at every width
    for (w, d) in widths.iter().enumerate() {
        let (wide, narrow) = f.width(Task::PositionAndContent, w);
        assert!(
            wide.mean <= narrow.mean + 0.01,
            "D = {d}: {wide:?} {narrow:?}"
        );
    }
    // two low-rank contents: two narrow heads are exact first
    let (wide, narrow) = f.width(Task::TwoContents, at(8));
    assert!(
        narrow.mean < 0.05 && wide.mean > narrow.mean + 0.05,
        "{wide:?} {narrow:?}"
    );
}

#[test]
fn trained_accuracy_falls_as_a_fixed_width_is_split_into_narrower_heads() {
    let f = split::book();
    let acc: Vec<f64> = (0..split::BOOK.splits.len())
        .map(|k| f.trained(k).mean)
        .collect();
    assert!(acc[0] > acc[2] + 0.1 && acc[2] > acc[3], "{acc:?}");
}

#[test]
fn trained_pairs_of_heads_split_two_relations_and_one_head_mixes_them() {
    use attention_geometry::experiment::multi_head::specialisation::{BOOK, accuracy, book};
    let f = book();
    let (one, two) = (accuracy(&f.one), accuracy(&f.two));
    // the pair is more accurate, the single head far above chance
    assert!(
        two.mean > 0.98 && one.mean > 0.8 && one.mean < two.mean,
        "{one:?} {two:?}"
    );
    // the pair splits the relations on (nearly) every seed
    assert!(
        f.splits() as f64 >= 0.8 * BOOK.seeds as f64,
        "{}",
        f.splits()
    );
    // the single head spreads an unequal mixture over both answers
    let (major, minor) = f.single_mixture();
    assert!(
        minor.mean > 0.2 && major.mean > minor.mean + 0.2,
        "{major:?} {minor:?}"
    );
    assert!(f.one.iter().all(|t| !t.split(BOOK.split)));
}
