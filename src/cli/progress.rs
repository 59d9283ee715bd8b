//! Progress on long work, on standard error: a banner before the first
//! experiment is computed, then one line per experiment as it finishes —
//! read from `findings/`, or computed and how long it took. Colour only on a
//! terminal (and never with `NO_COLOR` set); nothing with `--quiet`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use attention_geometry::experiment::cache::{self, Progress};

use crate::status;

/// Wall minutes every experiment takes from scratch on two cores: the book's
/// 2-core machine recomputed them all in 5 min 39 s idle, longer under load
/// (README, "How long it takes"). The banner scales it by the cores this
/// machine has.
const ALL_MINUTES_ON_TWO_CORES: f64 = 6.0;

/// Whether every experiment is recomputed (`figures --check`).
static ALL: AtomicBool = AtomicBool::new(false);
static BANNER_SHOWN: AtomicBool = AtomicBool::new(false);

/// Print the cache's progress from now on; `all`: every experiment will be
/// recomputed, not only those whose findings are stale.
pub fn show(all: bool) {
    ALL.store(all, Ordering::Relaxed);
    cache::listen(line);
}

fn line(p: &Progress) {
    match *p {
        Progress::Read { stem } => status(&format!("  {} {stem}", paint("cached  ", DIM))),
        Progress::Computing { .. } => {
            if !BANNER_SHOWN.swap(true, Ordering::Relaxed) {
                status(&banner());
            }
        }
        Progress::Computed { stem, seconds } => status(&format!(
            "  {} {stem} in {}",
            paint("computed", YELLOW),
            duration(seconds)
        )),
    }
}

fn banner() -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let minutes = (ALL_MINUTES_ON_TWO_CORES * 2.0 / cores as f64).ceil();
    let n = cache::count();
    let dir = "findings/";
    if ALL.load(Ordering::Relaxed) {
        format!(
            "recomputing all {n} experiments to check {dir} (about {minutes} min on {cores} cores)"
        )
    } else {
        format!(
            "computing the experiments whose findings in {dir} are stale \
             (all {n} take about {minutes} min on {cores} cores); each is saved as it finishes"
        )
    }
}

/// `seconds` as a reader reads it: "0.4 s", "12 s", "3 min 5 s".
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 10.0 => format!("{s:.1} s"),
        s if s < 60.0 => format!("{s:.0} s"),
        s => {
            let whole = s.round() as u64;
            format!("{} min {} s", whole / 60, whole % 60)
        }
    }
}

const DIM: &str = "2";
const YELLOW: &str = "33";

/// `word` in the SGR colour `code` when standard error is a terminal.
fn paint(word: &str, code: &str) -> String {
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    match colour {
        true => format!("\x1b[{code}m{word}\x1b[0m"),
        false => word.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::duration;

    #[test]
    fn durations_read_as_seconds_or_minutes() {
        assert_eq!(duration(0.42), "0.4 s");
        assert_eq!(duration(12.4), "12 s");
        assert_eq!(duration(185.0), "3 min 5 s");
        assert_eq!(duration(119.7), "2 min 0 s");
    }
}
