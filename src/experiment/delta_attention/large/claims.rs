//! The claims of chapter 7's "Associative recall where capacity binds", read
//! from the committed findings; predictions written from the literature before
//! the run (Arora et al. 2023: attention-free mixers fall behind attention as
//! the pairs outgrow the state; Yang et al. 2024: DeltaNet recalls more than
//! linear attention at equal state).

use super::report::*;
use super::{Findings, findings};
use crate::claim::{Claim, Evidence, Test};

/// Runs of `arm` that ended below four times chance: they never learned the
/// task (the small setting's "near chance", 0.25 at 16 values, likewise).
pub fn stalled(f: &Findings, arm: &str) -> (usize, usize) {
    let floor = chance_floor(f);
    f.cells
        .iter()
        .filter(|c| c.arm == arm)
        .fold((0, 0), |(s, n), cell| {
            let low = cell.runs.iter().filter(|r| r.accuracy < floor).count();
            (s + low, n + cell.runs.len())
        })
}

/// Each arm's plateau status: capped runs, and runs that stalled at chance.
fn trained(mut c: Claim, f: &Findings, arms: &[&str]) -> Claim {
    for arm in arms {
        let (n, runs) = capped(f, arm);
        let (low, _) = stalled(f, arm);
        c = c
            .trained(label(arm), n, runs)
            .learned(label(arm), low, runs);
    }
    c
}

/// The section's claims.
pub fn claims() -> Vec<Claim> {
    let f = findings();
    let s = &f.setup;
    let (bind, free) = bind_and_free(f);
    let setting = format!(
        "MQAR at the larger setting (a long experiment, `{}`): vocab {}, T = {}, {} pre-norm blocks \
         as fla builds them (short convolution of width {}, output RMSNorm and gate), d = {}, no MLP; \
         cells {}; every arm's rate the best of {:?} by held-out loss after {} steps on seed {}; \
         {} seeds, batches of {}, trained until held-out accuracy rose < 0.01 over the last fifth \
         (not before step {}, cap {})",
        super::COMMAND,
        s.vocab,
        s.len,
        s.layers,
        s.conv,
        s.d,
        cells(f)
            .into_iter()
            .map(cell_name)
            .collect::<Vec<_>>()
            .join("; "),
        s.rates,
        s.tune_steps,
        s.tune_seed,
        s.seeds,
        s.training.schedule.batch,
        s.training.plateau.min_steps,
        s.training.schedule.steps
    );
    let over_linear = |arm: &str| {
        Test::above(
            format!(
                "{} − linear mean accuracy at {}",
                label(arm),
                cell_name(bind)
            ),
            gap(f, arm, "linear", bind),
            0.05,
            2,
        )
    };
    let mut delta = Claim::empirical(
        "large-delta-recalls-more",
        "the delta correction lets a fixed-size state hold more associations than additive writes (Yang et al. 2024), at the larger setting",
    )
    .zh("在较大的设置下，Delta 修正使固定大小的状态比加性写入容纳更多的关联（Yang 等 2024）。")
    .evidence(Evidence::Toy)
    .core(over_linear("deltanet"))
    .scope(Test::above(
        format!("DeltaNet − linear mean accuracy at {}", cell_name(free)),
        gap(f, "deltanet", "linear", free),
        -0.05,
        2,
    ))
    .default_choice("the delta rule without decay (DeltaNet)");
    for arm in ["gdn_fla", "gdn_horizon", "kda_fla", "kda_horizon"] {
        delta = delta.under(
            format!("the delta rule with decay: {}", label(arm)),
            vec![over_linear(arm)],
        );
    }
    let delta = trained(
        delta
            .replication(
                "Yang et al. 2024",
                "DeltaNet against linear attention on Zoology's MQAR in fla's layers, at equal \
                 state, scaled to this machine",
                Test::above(
                    "smallest DeltaNet − linear mean accuracy over the cells",
                    cells(f)
                        .into_iter()
                        .map(|c| gap(f, "deltanet", "linear", c))
                        .fold(f64::INFINITY, f64::min),
                    0.0,
                    2,
                ),
            )
            .setting(setting.clone()),
        f,
        &[
            "linear",
            "deltanet",
            "gdn_fla",
            "gdn_horizon",
            "kda_fla",
            "kda_horizon",
        ],
    );
    let ceiling = |gates: &str| {
        Test::below(
            format!("largest margin of a recurrent arm ({gates} gates) over softmax in any cell"),
            over_softmax(f, &recurrent(gates)),
            0.05,
            2,
        )
    };
    let softmax_low = softmax_min(f);
    let top = trained(
        Claim::empirical(
            "large-softmax-ceiling",
            "softmax attention, whose cache grows with T, is the ceiling of recall",
        )
        .zh("缓存随 T 增长的 softmax 注意力是回忆的上限。")
        .evidence(Evidence::Toy)
        .core(ceiling("fla"))
        .scope(Test::above(
            "softmax's lowest mean accuracy",
            softmax_low,
            0.9,
            2,
        ))
        .default_choice("fla's gate initialisation")
        .under(
            format!("gates initialised for T = {}", s.len),
            vec![ceiling("horizon")],
        )
        .replication(
            "Arora et al. 2023",
            format!(
                "Zoology's MQAR: attention's lead over linear attention grows as the pairs \
                 outgrow the state, {} → {}",
                cell_name(free),
                cell_name(bind)
            ),
            Test::above(
                "(softmax − linear) where capacity binds minus where it does not",
                gap(f, "softmax", "linear", bind) - gap(f, "softmax", "linear", free),
                0.0,
                2,
            ),
        )
        .setting(setting),
        f,
        &ARMS.map(|(a, _)| a),
    );
    vec![delta, top]
}
