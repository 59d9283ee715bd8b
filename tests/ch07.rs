//! Chapter 7's verdict, checked on the book-size findings the prose quotes.

use attention_geometry::experiment::delta_attention::capacity::Write;
use attention_geometry::experiment::delta_attention::{
    capacity, chunkwise, cost, decay, overwrite, stability, token_weights,
};

#[test]
fn delta_weights_are_not_similarities() {
    let f = token_weights::book();
    let rho = f.summary(|w| w.rho).mean;
    let flips = f.summary(|w| w.sign_flips).mean;
    assert!(rho < 0.9 && rho > 0.0, "{rho}");
    assert!(flips > 0.05, "{flips}");
    // negative weights alone do not distinguish it: random similarities are negative about half the time
    assert!((f.summary(|w| w.negative_similarity).mean - 0.5).abs() < 0.1);
}

#[test]
fn the_delta_rule_holds_more_pairs_and_overwrites() {
    let f = capacity::book();
    let k = capacity::BOOK.d;
    for n in [k / 2, k, 2 * k] {
        let (a, d) = (f.at(Write::Additive, n).mean, f.at(Write::Delta, n).mean);
        assert!(d < 0.75 * a, "n = {n}: delta {d} vs additive {a}");
    }
    let o = overwrite::book();
    assert!(o.of(Write::Delta).mean < 0.5 * o.of(Write::Additive).mean);
}

#[test]
fn per_channel_decay_beats_the_best_scalar_decay_on_the_slow_fast_task() {
    let f = decay::book();
    let (_, gdn) = f.best_gdn();
    let (slow, fast, kda) = f.best_kda();
    let total = |e: (f64, f64)| e.0 + e.1;
    assert!(total(kda) < 0.8 * total(gdn), "{kda:?} vs {gdn:?}");
    assert!(slow > fast, "the facts keep more than the stream");
    // the scalar gate is on the diagonal of the per-channel search
    assert!(total(kda) <= total(gdn) + 1e-12);
}

#[test]
fn the_chunked_form_is_the_recurrence_and_the_difference_form_is_stable() {
    let error = chunkwise::book().error;
    assert!(error < 1e-10, "{error}");
    let f = stability::book();
    assert!(f.difference_error() < 1e-10);
    assert!(
        f.factorised_failure().is_some(),
        "the factorised form should fail under strong decay"
    );
}

#[test]
fn delta_attention_counts_fewer_flops_from_a_thousand_tokens_on() {
    let c = cost::BOOK.crossover();
    assert!((256..=4096).contains(&c), "{c}");
    assert!((cost::BOOK.hybrid_cache_saving(1 << 20) - 0.75).abs() < 1e-3);
}
