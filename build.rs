//! Turn every Rust code block in `chapters/*.md` into a test (skeptic).

use std::{env, fs, path::Path};

fn main() {
    let mut pages: Vec<_> = fs::read_dir("chapters")
        .expect("chapters/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md") && !p.ends_with("SUMMARY.md"))
        .collect();
    pages.sort();
    // watch the pages themselves, not the folder: chapters/figures links to
    // the generated figures, which must not trigger a rebuild (a new page
    // also changes SUMMARY.md)
    println!("cargo:rerun-if-changed=chapters/SUMMARY.md");
    for page in &pages {
        println!("cargo:rerun-if-changed={}", page.display());
    }
    skeptic::generate_doc_tests(&pages);

    // skeptic names each test after its page; `01-…md` would start the name
    // with a digit, so prefix such names with `chapter_`
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("skeptic-tests.rs");
    let tests = fs::read_to_string(&out).expect("skeptic wrote its tests");
    let mut fixed = String::with_capacity(tests.len());
    let mut rest = tests.as_str();
    while let Some(at) = rest.find("fn ") {
        let (head, tail) = rest.split_at(at + 3);
        fixed.push_str(head);
        if tail.starts_with(|c: char| c.is_ascii_digit()) {
            fixed.push_str("chapter_");
        }
        rest = tail;
    }
    fixed.push_str(rest);
    // run through tests/skeptic.rs's `run_test`, which retries a block whose
    // binary the kernel found busy
    let fixed = fixed.replace("skeptic::rt::run_test(", "run_test(");
    fs::write(&out, fixed).expect("rewrite skeptic's tests");
}
