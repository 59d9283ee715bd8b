//! Unit tests of `crate::experiment::coverage::claims` (`src/experiment/coverage/claims.rs`).

/// The directions chapter 2's prose states about the trained encoder.
#[test]
fn the_trained_gap_follows_the_counterfactual_and_the_sink() {
    use attention_geometry::experiment::coverage::sensitivity::{Effect, Keys};
    use attention_geometry::experiment::coverage::trained::book;
    use attention_geometry::experiment::coverage::trained_report::{effects, gap, over_null};
    use attention_geometry::pretrained::corpus::Model;
    use attention_geometry::pretrained::counterfactual::{Counterfactual, Target};
    use attention_geometry::pretrained::minilm::{HEADS, LAYERS};
    let heads = &book().side(Model::Trained).heads;
    let at = |t, c| Effect::Head(t, c);
    for t in Target::ALL {
        // knockout and mean-value: the weight ranks better while the sink is ranked
        assert!(gap(heads, at(t, Counterfactual::Knockout), Keys::All) < 0.0);
        assert!(gap(heads, at(t, Counterfactual::MeanValue), Keys::All) < 0.0);
        // the target matters little
        for c in [Counterfactual::Knockout, Counterfactual::MeanValue] {
            let d = gap(heads, at(t, c), Keys::All) - gap(heads, at(Target::Head, c), Keys::All);
            assert!(d.abs() < 0.05);
        }
    }
    // value zeroing, at the block or in every head at the layer: the norm
    assert!(
        gap(
            heads,
            at(Target::Block, Counterfactual::ValueZeroing),
            Keys::All
        ) > 0.0
    );
    assert!(gap(heads, Effect::Layer, Keys::All) > 0.0);
    for e in effects() {
        // without the sink the norm ranks better under every counterfactual
        assert!(gap(heads, e, Keys::WithoutSink) > 0.0);
        // and the true norm beats its permuted copy everywhere
        for k in Keys::ALL {
            assert!(over_null(heads, LAYERS * HEADS, e, k).ci95().0 > 0.0);
        }
    }
}
