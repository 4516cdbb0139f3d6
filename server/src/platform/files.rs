//! The data dir is private to the server's account: directories 0700, the
//! database, its journal and the token secret 0600 (docs/security.md).

use std::path::Path;

/// Creates `dir` (and its parents) if needed and makes it private.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    set_mode(dir, 0o700)
}

/// Makes an existing file private, or creates it empty and private, so that
/// SQLite (which gives its `-wal` and `-shm` files the database's mode) and
/// anything else that opens it later keeps it so.
pub fn private_file(path: &Path) -> std::io::Result<()> {
    if !path.exists() {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(false);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options.open(path)?;
    }
    set_mode(path, 0o600)
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> std::io::Result<()> {
    Ok(())
}
