//! An S3-compatible store on loopback for the tests of what goes to one (pictures, the
//! off-site copy): rclone's `serve s3` over a directory of its own, with the buckets
//! `pictures` and `copies`. rclone and Litestream come from PyPI, installed by
//! scripts/test into .tools/ (MAVUNO_RCLONE, MAVUNO_LITESTREAM point elsewhere).

use std::path::PathBuf;
use std::time::Duration;

use tempfile::TempDir;

/// The one key the store accepts.
pub const KEY_ID: &str = "AKTEST";
pub const SECRET: &str = "test-secret-key";

/// A tool's program: `variable`, else the one scripts/test installs into .tools/. None
/// when neither is there: the test says so and passes.
fn tool(variable: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(variable) {
        return Some(PathBuf::from(path));
    }
    let tools = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.tools/bin").join(name);
    tools.exists().then_some(tools)
}

pub fn rclone() -> Option<PathBuf> {
    tool("MAVUNO_RCLONE", "rclone")
}

pub fn litestream() -> Option<PathBuf> {
    tool("MAVUNO_LITESTREAM", "litestream")
}

pub struct Store {
    pub dir: TempDir,
    pub endpoint: String,
    _server: tokio::process::Child,
}

impl Store {
    pub async fn start(rclone: &PathBuf) -> Store {
        let dir = tempfile::tempdir().unwrap();
        for bucket in ["pictures", "copies"] {
            std::fs::create_dir(dir.path().join(bucket)).unwrap();
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let server = tokio::process::Command::new(rclone)
            .args(["serve", "s3", "--auth-key", &format!("{KEY_ID},{SECRET}"), "--addr", &format!("127.0.0.1:{port}")])
            .arg(dir.path())
            .env("RCLONE_CONFIG", "/dev/null")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("rclone starts");
        let endpoint = format!("http://127.0.0.1:{port}");
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Store { dir, endpoint, _server: server }
    }
}
