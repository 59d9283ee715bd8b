//! Chapter code is code: every ```rust block of chapters/*.md keeps its lines
//! within the book's column, is formatted as rustfmt formats it, and shows a panic
//! with `should_panic` rather than catching it.

use std::fs;
use std::io::Write;
use std::process::{Command, Stdio};

/// The widest line a snippet may have: the book's column, about 86 characters
/// of code (the crate itself is formatted at rustfmt's 100).
const WIDTH: usize = 86;

/// One ```rust block: where it starts and its lines as written.
struct Snippet {
    at: String,
    lines: Vec<String>,
}

fn snippets() -> Vec<Snippet> {
    let mut files: Vec<_> = fs::read_dir("chapters")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).unwrap();
        let mut open: Option<Snippet> = None;
        for (i, line) in text.lines().enumerate() {
            match open.take() {
                None if line.starts_with("```rust") => {
                    let at = format!("{}:{}", path.display(), i + 1);
                    open = Some(Snippet { at, lines: vec![] });
                }
                None => {}
                Some(s) if line.starts_with("```") => out.push(s),
                Some(mut s) => {
                    s.lines.push(line.to_string());
                    open = Some(s);
                }
            }
        }
    }
    out
}

/// A line without its hiding mark: `# x` is the hidden line `x`.
fn unhidden(line: &str) -> (bool, &str) {
    match line.strip_prefix("# ") {
        Some(code) => (true, code),
        None if line == "#" => (true, ""),
        None => (false, line),
    }
}

impl Snippet {
    /// The program skeptic compiles, and the width rustfmt should keep it to.
    /// Code shown at column 0 inside a hidden `fn main() {` … `}` is indented
    /// into the function, and the width grows by that indent, so that the
    /// shown lines are held to [`WIDTH`].
    fn program(&self) -> (String, usize) {
        let code: Vec<(bool, &str)> = self.lines.iter().map(|l| unhidden(l)).collect();
        let open = code
            .iter()
            .position(|&(h, c)| h && c.trim() == "fn main() {");
        let close = code.iter().rposition(|&(h, c)| h && c.trim() == "}");
        let wrapped = match (open, close) {
            (Some(o), Some(c)) => code[..o].iter().chain(&code[c..]).all(|&(h, _)| h),
            _ => false,
        };
        let mut text = String::new();
        for (k, (_, c)) in code.iter().enumerate() {
            let inside = wrapped && k > open.unwrap() && k < close.unwrap();
            if inside && !c.is_empty() {
                text.push_str("    ");
            }
            text.push_str(c);
            text.push('\n');
        }
        (text, if wrapped { WIDTH + 4 } else { WIDTH })
    }
}

#[test]
fn snippet_lines_fit_the_column() {
    let long: Vec<String> = snippets()
        .iter()
        .flat_map(|s| {
            s.lines
                .iter()
                .enumerate()
                .filter(|(_, l)| l.chars().count() > WIDTH)
                .map(move |(k, l)| format!("{} (+{}): {} columns", s.at, k + 1, l.chars().count()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "snippet lines wider than {WIDTH}:\n{}",
        long.join("\n")
    );
}

#[test]
fn snippets_show_panics_with_should_panic() {
    let caught: Vec<String> = snippets()
        .iter()
        .filter(|s| s.lines.iter().any(|l| l.contains("catch_unwind")))
        .map(|s| s.at.clone())
        .collect();
    assert!(
        caught.is_empty(),
        "use ```rust,should_panic instead of catch_unwind: {caught:?}"
    );
}

#[test]
fn snippets_are_formatted_as_rustfmt_would() {
    if Command::new("rustfmt").arg("--version").output().is_err() {
        let _ = writeln!(
            std::io::stderr(),
            "snippet format check skipped: rustfmt is not installed"
        );
        return;
    }
    let mut unformatted = Vec::new();
    for s in snippets() {
        let (program, width) = s.program();
        let mut child = Command::new("rustfmt")
            .args(["--edition", "2021", "--config"])
            .arg(format!("max_width={width}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(program.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let formatted = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            unformatted.push(format!(
                "{}: rustfmt failed: {}",
                s.at,
                String::from_utf8_lossy(&out.stderr)
            ));
        } else if formatted != program {
            unformatted.push(format!("{}: rustfmt writes it as\n{formatted}", s.at));
        }
    }
    assert!(
        unformatted.is_empty(),
        "snippets not formatted as rustfmt would (shown code sits at column 0 inside a hidden \
         `fn main() {{`):\n{}",
        unformatted.join("\n")
    );
}
