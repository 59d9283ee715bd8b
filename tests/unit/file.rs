//! Unit tests of `crate::file` (`src/file.rs`).

use attention_geometry::file::write_atomic;
use std::path::PathBuf;

/// Set in a child process of [`two_processes_writing_one_path_each_leave_a_whole_file`]:
/// the path to write and the byte to fill it with.
const CHILD: &str = "ATTENTION_GEOMETRY_WRITER";

/// 1 MiB of `byte`: large enough that an unsynchronised writer would be caught half-way.
fn contents(byte: u8) -> Vec<u8> {
    vec![byte; 1 << 20]
}

/// The child's side: write the path many times, as two `cargo` processes
/// regenerating the same figure would.
#[test]
fn writer() {
    let Ok(job) = std::env::var(CHILD) else {
        return; // run by the parent only
    };
    let (path, byte) = job.rsplit_once(' ').expect("PATH BYTE");
    let byte: u8 = byte.parse().expect("a byte");
    for _ in 0..40 {
        write_atomic(&PathBuf::from(path), &contents(byte)).expect("write");
    }
}

#[test]
fn two_processes_writing_one_path_each_leave_a_whole_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("figure.svg");
    let me = std::env::current_exe().unwrap();
    let children: Vec<_> = [b'a', b'b']
        .iter()
        .map(|byte| {
            std::process::Command::new(&me)
                .args(["--exact", "unit::file::writer", "--test-threads=1"])
                .env(CHILD, format!("{} {byte}", path.display()))
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success(), "a writer failed");
    }
    let written = std::fs::read(&path).unwrap();
    assert!(written == contents(b'a') || written == contents(b'b'));
    // only the file: every temporary was renamed or removed
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
