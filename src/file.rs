//! Writing a file so that no reader ever sees half of it.

use std::io::Write;
use std::path::Path;

/// Write `contents` to `path` atomically: a uniquely named temporary file in
/// the same directory, flushed, then renamed over `path`. A crash or a failed
/// write leaves `path` as it was (the temporary file is removed), and two
/// processes writing the same path never share a temporary file.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("x.txt");
/// attention_geometry::file::write_atomic(&path, b"one").unwrap();
/// attention_geometry::file::write_atomic(&path, b"two").unwrap();
/// assert_eq!(std::fs::read(&path).unwrap(), b"two");
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1); // no temporary left
/// #[cfg(unix)]
/// {
///     use std::os::unix::fs::PermissionsExt;
///     let mode = std::fs::metadata(&path).unwrap().permissions().mode();
///     assert_eq!(mode & 0o644, 0o644); // readable by all, as a file written with fs::write
/// }
/// ```
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(contents)?;
    // a temporary file is private (0600); the file it replaces is not
    let permissions = match std::fs::metadata(path) {
        Ok(old) => old.permissions(),
        Err(_) => readable_by_all(tmp.as_file().metadata()?.permissions()),
    };
    tmp.as_file().set_permissions(permissions)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map(|_| ()).map_err(|e| e.error)
}

/// `p` with read permission for everyone and write for the owner (`rw-r--r--`).
#[cfg(unix)]
fn readable_by_all(mut p: std::fs::Permissions) -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    p.set_mode(0o644);
    p
}

#[cfg(not(unix))]
fn readable_by_all(p: std::fs::Permissions) -> std::fs::Permissions {
    p
}
