//! Reading model files only after their SHA-256 matches the folder's `SHA256SUMS`.
//!
//! `SHA256SUMS` has the format of `sha256sum`: one `HEX  NAME` line per file, names
//! relative to the folder. A missing or altered file is a [`LoadError`] whose one-line
//! message names the file and the checksum it should have.
//!
//! Introduced in chapter 1.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Why a model file could not be loaded; displays as one line naming the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file at fault.
    pub file: PathBuf,
    /// What is wrong with it, e.g. `missing (expected SHA-256 8d07…)`.
    pub problem: String,
}

impl LoadError {
    /// An error about `file`.
    pub fn new(file: &Path, problem: impl Into<String>) -> Self {
        LoadError {
            file: file.to_path_buf(),
            problem: problem.into(),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.problem)
    }
}

impl std::error::Error for LoadError {}

/// Hex SHA-256 of `bytes`.
///
/// ```
/// use attention_geometry::pretrained::checksum::sha256_hex;
/// assert_eq!(&sha256_hex(b"abc")[..8], "ba7816bf");
/// ```
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The expected checksum of each file listed in `dir/SHA256SUMS`, in file order.
///
/// # Errors
/// If `SHA256SUMS` is missing or a line is not `HEX  NAME`.
pub fn expected_sums(dir: &Path) -> Result<Vec<(String, String)>, LoadError> {
    let path = dir.join("SHA256SUMS");
    let text = fs::read_to_string(&path)
        .map_err(|e| LoadError::new(&path, format!("cannot read ({e})")))?;
    text.lines()
        .map(|line| match line.split_once("  ") {
            Some((hex, name)) if hex.len() == 64 => Ok((name.to_string(), hex.to_string())),
            _ => Err(LoadError::new(&path, format!("malformed line '{line}'"))),
        })
        .collect()
}

/// Read `dir/name` and check it against `dir/SHA256SUMS`.
///
/// # Errors
/// If the file is not listed, missing, or its SHA-256 differs: the message names the
/// file and its expected checksum.
pub fn read_verified(dir: &Path, name: &str) -> Result<Vec<u8>, LoadError> {
    let sums = expected_sums(dir)?;
    let path = dir.join(name);
    let expected = sums
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, h)| h.as_str())
        .ok_or_else(|| {
            LoadError::new(
                &path,
                format!("not listed in {}", dir.join("SHA256SUMS").display()),
            )
        })?;
    let bytes = fs::read(&path).map_err(|e| {
        LoadError::new(
            &path,
            format!("cannot read ({e}); expected SHA-256 {expected}"),
        )
    })?;
    let actual = sha256_hex(&bytes);
    match actual == expected {
        true => Ok(bytes),
        false => Err(LoadError::new(
            &path,
            format!(
                "corrupted: SHA-256 is {actual}, expected {expected} (models/README.md says how to rebuild it)"
            ),
        )),
    }
}
