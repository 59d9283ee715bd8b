//! Unit tests of `crate::pretrained::edits` (`src/pretrained/edits.rs`).

use nalgebra::DVector;

use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::edits::whole;
use attention_geometry::pretrained::transformer::Architecture;

#[test]
fn the_stacked_and_the_cached_prefix_edits_equal_whole_reruns() {
    for arch in Architecture::ALL {
        let m = arch.with(Model::Trained);
        let ids = m.encode("The cat sat on the mat.").unwrap().ids;
        let x = m.embed(&ids);
        let mean = x.row_mean().transpose();
        let edits = [
            (0, mean.clone()),
            (2, mean),
            (ids.len() - 1, DVector::zeros(x.ncols())),
        ];
        for (fast, slow) in m.run_edits(&x, &edits).iter().zip(whole(m, &x, &edits)) {
            let rel = (fast - &slow).norm() / slow.norm();
            assert!(rel < 1e-5, "{}: {rel}", m.name());
        }
    }
}
