use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mavuno::db::users::NewUser;
use mavuno::domain::identifiers::insert_account;
use mavuno::model::user::{Country, Role, Status};
use mavuno::startup::Application;
use mavuno::state::AppState;
use mavuno::{Config, auth};
use reqwest::multipart::{Form, Part};
use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::sync::oneshot;

pub const PASSWORD: &str = "secret123";

pub struct TestApp {
    /// `http://127.0.0.1:PORT`
    pub origin: String,
    pub client: reqwest::Client,
    pub state: AppState,
    pub data_dir: PathBuf,
    /// PostgreSQL's URL when the server runs on it, else SQLite in the data dir.
    pub database_url: Option<String>,
    _dir: Option<TempDir>,
    _shutdown: oneshot::Sender<()>,
}

pub async fn spawn_app() -> TestApp {
    spawn_with(|_| {}).await
}

/// Starts the app with a fresh data dir, after `adjust` has had its say on the config.
pub async fn spawn_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut app = spawn_in(dir.path(), adjust).await;
    app._dir = Some(dir);
    app
}

/// Starts the app on an existing data dir (which the caller keeps alive), as
/// `mavuno serve` starts it (`startup::Application`), on a free port.
pub async fn spawn_in(data_dir: &Path, adjust: impl FnOnce(&mut Config)) -> TestApp {
    // A failing test shows the server's errors (an internal error's cause is only logged).
    let filter = std::env::var("RUST_LOG").unwrap_or_else(|_| "error".to_owned());
    tracing_subscriber::fmt().with_test_writer().with_env_filter(filter).try_init().ok();
    let mut config = Config::new(data_dir);
    config.database_url = postgres_of(data_dir).map(Into::into);
    adjust(&mut config);
    let database_url = config.database_url.as_ref().map(|url| url.expose().to_owned());
    let app = Application::build(config, "127.0.0.1:0".parse().unwrap()).await.expect("start");
    let (origin, state) = (app.origin().to_owned(), app.state().clone());
    let (shutdown, stop) = oneshot::channel::<()>();
    tokio::spawn(app.run_until(async {
        let _ = stop.await;
    }));
    TestApp {
        origin,
        client: reqwest::Client::builder().no_proxy().build().unwrap(),
        state,
        data_dir: data_dir.to_owned(),
        database_url,
        _dir: None,
        _shutdown: shutdown,
    }
}

/// Whether the suite runs on PostgreSQL (a few tests are of SQLite's own file and backup).
pub fn on_postgres() -> bool {
    std::env::var_os("MAVUNO_TEST_DATABASE_URL").is_some()
}

/// When the suite runs on PostgreSQL (`MAVUNO_TEST_DATABASE_URL`, set by
/// scripts/with-postgres): the database of `data_dir`, made empty on first use (the
/// server migrates it) and named in the data dir, so a server started again on the
/// same data dir finds the same database.
pub fn postgres_of(data_dir: &Path) -> Option<String> {
    let admin = std::env::var("MAVUNO_TEST_DATABASE_URL").ok()?;
    let named = data_dir.join("test-database");
    let name = match std::fs::read_to_string(&named) {
        Ok(name) => name,
        Err(_) => {
            let name = format!("t_{}", uuid::Uuid::new_v4().simple());
            let conn = mavuno::db::Connection::open_url(&admin).expect("the test cluster");
            conn.execute_batch(&format!("CREATE DATABASE {name}")).expect("a test database");
            std::fs::create_dir_all(data_dir).unwrap();
            std::fs::write(&named, &name).unwrap();
            name
        }
    };
    let (base, _) = admin.rsplit_once('/').expect("a database URL ends with the database's name");
    Some(format!("{base}/{name}"))
}

/// Takes a backup of the database of `data_dir` into the folder `backup`, marked as a
/// backup (a server started on it knows it was restored): SQLite's online backup, or on
/// PostgreSQL the engine's own pg_dump into a database of its own.
pub fn backup_database(data_dir: &Path, backup: &Path) {
    let Some(from) = postgres_of(data_dir) else {
        return mavuno::db::backup(data_dir, &backup.join(mavuno::db::DB_FILE)).unwrap();
    };
    let to = postgres_of(backup).unwrap();
    let bin = std::env::var("PG_BIN").map(PathBuf::from).unwrap_or_default();
    let dump = std::process::Command::new(bin.join("pg_dump")).args(["--no-owner", "-d", &from]).output().unwrap();
    assert!(dump.status.success(), "{}", String::from_utf8_lossy(&dump.stderr));
    let mut load = std::process::Command::new(bin.join("psql"))
        .args(["-q", "-v", "ON_ERROR_STOP=1", "-d", &to])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(load.stdin.as_mut().unwrap(), &dump.stdout).unwrap();
    assert!(load.wait().unwrap().success());
    mavuno::db::Connection::open_url(&to)
        .unwrap()
        .execute_batch(&format!(
            "INSERT INTO meta (key, value) VALUES ('{}', '{}')",
            mavuno::db::sync::RESTORED_FROM_BACKUP,
            mavuno::platform::clock::now()
        ))
        .unwrap();
}

/// Restores the backup in the folder `backup` as the database of `data_dir`.
pub fn restore_database(backup: &Path, data_dir: &Path) {
    let file = if on_postgres() { "test-database" } else { mavuno::db::DB_FILE };
    std::fs::copy(backup.join(file), data_dir.join(file)).unwrap();
}

/// The multipart form the spec's client sends, with every field valid.
/// A DRC number of the account of `email`, as typed at home ("099…"): each
/// address has its own, as numbers are unique like emails.
pub fn phone_of(email: &str) -> String {
    let hash = email
        .to_lowercase()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("099{:07}", hash % 10_000_000)
}

/// `phone_of(email)` as the server stores it (E.164).
pub fn e164_of(email: &str) -> String {
    format!("+243{}", &phone_of(email)[1..])
}

pub fn registration(email: &str) -> Vec<(&'static str, String)> {
    vec![
        ("first_name", "Amani".to_owned()),
        ("last_name", "Bahati".to_owned()),
        ("email", email.to_owned()),
        ("phone_number", phone_of(email)),
        ("country", "DRC".to_owned()),
        ("password", PASSWORD.to_owned()),
        ("password_confirmation", PASSWORD.to_owned()),
    ]
}

pub fn user_form(fields: &[(&str, String)]) -> Form {
    fields.iter().fold(Form::new(), |form, (name, value)| form.text(format!("user[{name}]"), value.clone()))
}

pub fn image_part(bytes: Vec<u8>, file_name: &str, mime: &str) -> Part {
    Part::bytes(bytes).file_name(file_name.to_owned()).mime_str(mime).unwrap()
}

/// A small PNG with some transparency.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbaImage::from_fn(width, height, |x, y| image::Rgba([(x % 255) as u8, (y % 255) as u8, 90, 200]));
    let mut out = Vec::new();
    image::DynamicImage::ImageRgba8(img).write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png).unwrap();
    out
}

impl TestApp {
    pub fn api(&self, path: &str) -> String {
        format!("{}/api/v1{path}", self.origin)
    }

    pub async fn post_form(&self, path: &str, form: Form) -> Response {
        self.client.post(self.api(path)).multipart(form).send().await.unwrap()
    }

    /// Registers through the API; returns the token and the user.
    pub async fn register(&self, email: &str) -> (String, Value) {
        let response = self.post_form("/users", user_form(&registration(email))).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        let body: Value = response.json().await.unwrap();
        (body["data"]["token"].as_str().unwrap().to_owned(), body["data"]["user"].clone())
    }

    pub async fn login(&self, email: &str, password: &str) -> Response {
        self.client
            .post(self.api("/users/login"))
            .json(&json!({"user": {"email": email, "password": password}}))
            .send()
            .await
            .unwrap()
    }

    pub async fn login_token(&self, email: &str, password: &str) -> String {
        let response = self.login(email, password).await;
        assert_eq!(response.status(), StatusCode::OK, "login of {email}");
        let body: Value = response.json().await.unwrap();
        body["user"]["token"].as_str().unwrap().to_owned()
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Response {
        let mut request = self.client.get(self.api(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().await.unwrap()
    }

    pub async fn me(&self, token: &str) -> Response {
        self.get("/me", Some(token)).await
    }

    pub async fn update_me(&self, token: &str, form: Form) -> Response {
        self.client.patch(self.api("/me/update")).bearer_auth(token).multipart(form).send().await.unwrap()
    }

    /// Makes an account of any role directly (the API only makes buyers) and signs it in.
    pub async fn user_with_role(&self, email: &str, role: Role) -> String {
        let account = NewUser {
            email: Some(email.to_owned()),
            password_hash: auth::hash_password(PASSWORD).unwrap(),
            first_name: "Test".to_owned(),
            last_name: role.as_str().to_owned(),
            phone_number: None,
            country: Some(Country::Drc),
            role,
            status: Status::Active,
            location: None,
            avatar: None,
        };
        self.state.db.write(move |tx| insert_account(tx, &account)).await.unwrap();
        self.login_token(email, PASSWORD).await
    }

    /// Every SMS written, oldest first: (number, text).
    pub fn sms_bodies(&self) -> Vec<(String, String)> {
        let conn = self.database();
        let mut stmt = conn.prepare("SELECT to_number, body FROM sms_outbox ORDER BY id").unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().collect::<Result<_, _>>().unwrap()
    }

    pub fn sql(&self, sql: &str) {
        self.database().execute_batch(sql).unwrap();
    }

    /// A connection of the test's own to the server's database, through the storage seam.
    pub fn database(&self) -> mavuno::db::Connection {
        match &self.database_url {
            Some(url) => mavuno::db::Connection::open_url(url).unwrap(),
            None => mavuno::db::Connection::open(&self.data_dir.join(mavuno::db::DB_FILE)).unwrap(),
        }
    }
}

/// A picture's address in the media store: its SHA-256 in hex.
pub fn sha(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(bytes))
}

/// Reads an error answer and checks its shape.
pub async fn error_of(response: Response, status: StatusCode) -> Value {
    assert_eq!(response.status(), status);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("application/json"), "errors are JSON");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["success"], false);
    assert!(body["code"].is_string() && body["message"].is_string(), "{body}");
    body
}

/// The `mavuno` binary, with none of its settings taken from this environment.
pub fn mavuno() -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mavuno"));
    command.env_remove("MAVUNO_DATA_DIR").env_remove("MAVUNO_ADDR").env_remove("MAVUNO_DEMO");
    command
}

/// Reads a starting server's log until it says where it listens.
pub async fn read_origin<R: tokio::io::AsyncBufRead + Unpin>(lines: &mut tokio::io::Lines<R>) -> String {
    loop {
        let line = lines.next_line().await.unwrap().expect("server printed its address");
        if let Some(at) = line.find("listening on ") {
            // The rest of the line (text), or up to the end of the message (JSON).
            return line[at + "listening on ".len()..].split('"').next().unwrap().trim().to_owned();
        }
    }
}

/// The server as its own process, for what a test cannot measure from inside
/// its own process (memory, open files).
pub struct ServerProcess {
    pub origin: String,
    pub child: tokio::process::Child,
    pub client: reqwest::Client,
    /// The last lines the server wrote (log and panics), to explain a failure.
    log: Arc<std::sync::Mutex<std::collections::VecDeque<String>>>,
    _dir: TempDir,
}

impl ServerProcess {
    /// Starts `mavuno serve` on a fresh data dir with `args`; `prepare` runs
    /// first (e.g. `create-user`); `open_files` caps the server's files.
    pub async fn start(prepare: &[&[&str]], args: &[&str], open_files: Option<u32>) -> ServerProcess {
        Self::start_keeping(prepare, args, open_files, 100).await
    }

    /// `start`, keeping the last `lines` lines of its log.
    pub async fn start_keeping(
        prepare: &[&[&str]],
        args: &[&str],
        open_files: Option<u32>,
        lines: usize,
    ) -> ServerProcess {
        use tokio::io::AsyncBufReadExt;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().to_str().unwrap().to_owned();
        for args in prepare {
            let output = mavuno().args(*args).args(["--data-dir", &data]).output().await.unwrap();
            assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        }
        let mut command = match open_files {
            // The shell sets the limit (soft and hard), then becomes the server.
            Some(limit) => {
                let mut shell = tokio::process::Command::new("sh");
                shell.args(["-c", &format!("ulimit -n {limit} && exec \"$0\" \"$@\""), env!("CARGO_BIN_EXE_mavuno")]);
                shell.env_remove("MAVUNO_DATA_DIR").env_remove("MAVUNO_ADDR").env_remove("MAVUNO_DEMO");
                shell
            }
            None => mavuno(),
        };
        command
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir", &data, "--payments", "simulator"])
            .args(args)
            .env("RUST_LOG", "warn,mavuno=info")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn().unwrap();
        let keep = lines;
        let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let origin = read_origin(&mut lines).await;
        let log = Arc::new(std::sync::Mutex::new(std::collections::VecDeque::new()));
        keep_tail(lines.into_inner(), Arc::clone(&log), keep);
        keep_tail(tokio::io::BufReader::new(child.stderr.take().unwrap()), Arc::clone(&log), keep);
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        ServerProcess { origin, child, client, log, _dir: dir }
    }

    /// Whether the server has stopped: its exit status and last lines, if so.
    pub fn stopped(&mut self) -> Option<String> {
        let status = self.child.try_wait().unwrap()?;
        let log = self.log.lock().unwrap();
        Some(format!("{status}; its last lines:\n{}", Vec::from(log.clone()).join("\n")))
    }

    pub fn data_dir(&self) -> &Path {
        self._dir.path()
    }

    /// The last lines the server wrote after it started listening.
    pub fn log_tail(&self) -> String {
        Vec::from(self.log.lock().unwrap().clone()).join("\n")
    }

    pub fn api(&self, path: &str) -> String {
        format!("{}/api/v1{path}", self.origin)
    }

    /// The server's resident memory, in MiB.
    pub fn rss_mib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id().unwrap())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
    }
}

/// Drains a child's output to its end (so the child never blocks on a full
/// pipe, whatever bytes it writes), keeping the last `keep` lines.
fn keep_tail<R: tokio::io::AsyncBufRead + Unpin + Send + 'static>(
    mut output: R,
    tail: Arc<std::sync::Mutex<std::collections::VecDeque<String>>>,
    keep: usize,
) {
    use tokio::io::AsyncBufReadExt;
    tokio::spawn(async move {
        let mut line = Vec::new();
        while output.read_until(b'\n', &mut line).await.is_ok_and(|read| read > 0) {
            let mut tail = tail.lock().unwrap();
            if tail.len() == keep {
                tail.pop_front();
            }
            tail.push_back(String::from_utf8_lossy(&line).trim_end().to_owned());
            line.clear();
        }
    });
}

/// A PNG that declares `width`×`height` black pixels and is honest about it: it
/// decodes, yet weighs a few hundred KB (an "image bomb").
pub fn png_bomb(width: u32, height: u32) -> Vec<u8> {
    // The stream writer wants to own its output: a file, read back at the end.
    let file = tempfile::NamedTempFile::new().unwrap();
    let mut encoder = png::Encoder::new(file.reopen().unwrap(), width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header().unwrap().into_stream_writer().unwrap();
    let row = vec![0u8; width as usize * 3];
    for _ in 0..height {
        std::io::Write::write_all(&mut writer, &row).unwrap();
    }
    writer.finish().unwrap();
    std::fs::read(file.path()).unwrap()
}

/// xorshift64*: enough randomness for a test, and repeatable from its seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The spec's multipart product form with every text field valid (add photos with `.part`).
pub fn product_form() -> Form {
    Form::new()
        .text("product[title]", "Avocados")
        .text("product[description]", "Creamy Hass avocados")
        .text("product[quantity]", "30")
        .text("product[price]", "1.50")
        .text("product[current_price]", "1.20")
        .text("product[category]", "fruits")
        .text("product[unit]", "piece")
}
