//! The bench's report: the machine, a table of every kernel against its
//! bound, the chunk sweep, and the goals checked at `T = 4096`, `K = V = 128`.

use super::{CHUNK, Machine, Mixer, Row};

/// The size at which the goals are checked: `(T, K = V)`.
pub const GOAL_SIZE: (usize, usize) = (4096, 128);

/// The share of its roofline bound `kda_fused` must reach at [`GOAL_SIZE`].
pub const FUSED_GOAL: f64 = 0.5;

/// The share of the matrix-product rate `kda_chunked` must reach at [`GOAL_SIZE`].
pub const CHUNKED_GOAL: f64 = 0.5;

/// The report of one run: the whole text (`figures/bench-delta.txt`, in the
/// How fast appendix) and its closing summary (`figures/bench-delta-summary.txt`,
/// quoted in chapter 7).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Every line.
    pub full: String,
    /// The lines at [`GOAL_SIZE`], the goals, and the faster form at each size.
    pub summary: String,
}

fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "NOT met" }
}

fn find(rows: &[Row], mixer: Mixer, t: usize, d: usize) -> Option<&Row> {
    rows.iter()
        .find(|r| r.mixer == mixer && r.t == t && r.d == d)
}

/// The table: one line per kernel and size, with its bound and the share of it reached.
pub fn table(rows: &[Row], machine: &Machine) -> String {
    let mut s = format!(
        "{:<12} {:>6} {:>4} {:>10} {:>8} {:>9} {:>6} {:>9}\n",
        "mixer", "T", "K=V", "median ms", "GFLOP/s", "bound ms", "bound", "of bound"
    );
    for r in rows {
        let b = machine.bound(r);
        s += &format!(
            "{:<12} {:>6} {:>4} {:>10.3} {:>8.2} {:>9.3} {:>6} {:>8.0}%\n",
            r.mixer.name(),
            r.t,
            r.d,
            r.seconds * 1e3,
            r.gflops(),
            b.seconds * 1e3,
            b.limit.name(),
            100.0 * machine.share(r)
        );
    }
    s
}

/// Which of `kda_fused` and `kda_chunked` is faster at each measured size, and by how much.
pub fn faster(rows: &[Row]) -> String {
    let mut ds: Vec<usize> = rows.iter().map(|r| r.d).collect();
    ds.dedup();
    let per_width: Vec<String> = ds
        .into_iter()
        .map(|d| {
            let sizes: Vec<String> = rows
                .iter()
                .filter(|r| r.mixer == Mixer::KdaFused && r.d == d)
                .filter_map(|f| {
                    let c = find(rows, Mixer::KdaChunked, f.t, d)?;
                    let (winner, x) = if f.seconds <= c.seconds {
                        ("kda_fused", c.seconds / f.seconds)
                    } else {
                        ("kda_chunked", f.seconds / c.seconds)
                    };
                    Some(format!("  K = V = {d}, T = {}: {winner} ({x:.2}×)\n", f.t))
                })
                .collect();
            sizes.concat()
        })
        .collect();
    format!(
        "faster of kda_fused and kda_chunked (chunk {CHUNK}), by size:\n{}",
        per_width.concat()
    )
}

/// The summary at [`GOAL_SIZE`]: the three KDA kernels, both goals, and [`faster`].
pub fn summary(rows: &[Row], machine: &Machine) -> String {
    let (t, d) = GOAL_SIZE;
    let mut s = format!("at T = {t}, K = V = {d}, one thread:\n");
    for m in [Mixer::Kda, Mixer::KdaFused, Mixer::KdaChunked] {
        if let Some(r) = find(rows, m, t, d) {
            let b = machine.bound(r);
            s += &format!(
                "  {:<12} {:>8.2} ms {:>7.2} GFLOP/s   {:>3.0}% of its bound ({:.2} ms, {})\n",
                m.name(),
                r.seconds * 1e3,
                r.gflops(),
                100.0 * machine.share(r),
                b.seconds * 1e3,
                b.limit.name()
            );
        }
    }
    if let Some(r) = find(rows, Mixer::KdaFused, t, d) {
        let share = machine.share(r);
        s += &format!(
            "kda_fused reaches {:.0}% of its roofline bound; goal ≥ {:.0}%: {}\n",
            100.0 * share,
            100.0 * FUSED_GOAL,
            verdict(share >= FUSED_GOAL)
        );
    }
    if let Some(r) = find(rows, Mixer::KdaChunked, t, d) {
        let share = r.gflops() / machine.gemm_gflops;
        s += &format!(
            "kda_chunked reaches {:.0}% of the matrix-product rate; goal ≥ {:.0}%: {}\n",
            100.0 * share,
            100.0 * CHUNKED_GOAL,
            verdict(share >= CHUNKED_GOAL)
        );
    }
    let kda = find(rows, Mixer::Kda, t, d);
    for m in [Mixer::KdaFused, Mixer::KdaChunked] {
        if let (Some(k), Some(r)) = (kda, find(rows, m, t, d)) {
            s += &format!(
                "{} is {:.2}× faster than kda there\n",
                m.name(),
                k.seconds / r.seconds
            );
        }
    }
    s + &faster(rows)
}

/// The whole report of one bench run: the machine's rates, the table, the
/// chunk sizes swept at [`GOAL_SIZE`], and the [`summary`].
pub fn report(rows: &[Row], sweep: &[(usize, f64)], machine: &Machine) -> Report {
    let mut s = format!(
        "matrix product (512³, nalgebra gemm, best of before and after): {:.2} GFLOP/s\n",
        machine.gemm_gflops
    );
    let bandwidth: Vec<String> = machine
        .bandwidth
        .iter()
        .map(|(d, gbs)| format!("  K = V = {d} ({} KiB): {gbs:.1} GB/s\n", d * d * 8 / 1024))
        .collect();
    s += &format!(
        "state read-modify-write (x ← a x + b, 16 bytes per number):\n{}",
        bandwidth.concat()
    );
    s += &format!("vector units: {}\n", super::machine::vector_units());
    s += &table(rows, machine);
    if !sweep.is_empty() {
        let times: Vec<String> = sweep
            .iter()
            .map(|(c, secs)| format!("{c}: {:.1} ms", secs * 1e3))
            .collect();
        s += &format!(
            "kda_chunked by chunk size at T = {}, K = V = {}:\n  {}\n",
            GOAL_SIZE.0,
            GOAL_SIZE.1,
            times.join(", ")
        );
    }
    let summary = summary(rows, machine);
    s += &summary;
    Report { full: s, summary }
}
