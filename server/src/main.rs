use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use cli::database::DatabaseArgs;
use cli::media::MediaArgs;
use cli::offsite::OffsiteArgs;
use mavuno::startup::Application;
use mavuno::{Config, demo};

mod cli;

/// MAVUNO: marketplace, training and farmer services that work offline.
#[derive(Parser)]
#[command(name = "mavuno", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// `text` for people, `json` (one object a line, with the request's id) for log shippers.
    #[arg(long, global = true, env = "MAVUNO_LOG_FORMAT", value_enum, default_value = "text")]
    log_format: LogFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

// Parsed once at start: the size of `Serve` (every server option) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Run the server: API, sync and the web app.
    Serve {
        #[arg(long, env = "MAVUNO_ADDR", default_value = "127.0.0.1:8080")]
        addr: SocketAddr,
        #[arg(long, env = "MAVUNO_DATA_DIR", default_value = "./data")]
        data_dir: PathBuf,
        #[command(flatten)]
        database: DatabaseArgs,
        /// The built web app; defaults to pwa/dist when it exists.
        #[arg(long, env = "MAVUNO_WEB_DIR")]
        web_dir: Option<PathBuf>,
        /// Load the demo content (once; harmless on later starts).
        #[arg(long, env = "MAVUNO_DEMO")]
        demo: bool,
        /// Token signing secret; generated into the data dir when not given.
        #[arg(long, env = "MAVUNO_JWT_SECRET", hide_env_values = true)]
        jwt_secret: Option<String>,
        /// SMTP server for the email outbox, e.g. smtp://user:pass@host:587?tls=required or smtps://user:pass@host;
        /// without it, messages are written to the log.
        #[arg(long, env = "MAVUNO_SMTP_URL", hide_env_values = true)]
        smtp_url: Option<String>,
        /// The address people open MAVUNO at (e.g. https://mavuno.africa), for links in emails;
        /// this server's own address when not set. Never taken from a request's Host header.
        #[arg(long, env = "MAVUNO_PUBLIC_URL")]
        public_url: Option<String>,
        /// Sender address of every email.
        #[arg(long, env = "MAVUNO_MAIL_FROM", default_value = "MAVUNO <no-reply@mavuno.africa>")]
        mail_from: String,
        /// pawaPay's API token: mobile money through pawaPay instead of the built-in simulator.
        #[arg(long, env = "MAVUNO_PAWAPAY_TOKEN", hide_env_values = true)]
        pawapay_token: Option<String>,
        /// `simulator`: take mobile-money payments with the built-in simulator, where no real
        /// money moves, on purpose. Without pawaPay settings a server refuses to start
        /// unless this is given (or --demo, which always simulates).
        #[arg(long, env = "MAVUNO_PAYMENTS", value_parser = ["simulator"])]
        payments: Option<String>,
        /// pawaPay's API address (its sandbox unless set).
        #[arg(long, env = "MAVUNO_PAWAPAY_URL", default_value = "https://api.sandbox.pawapay.cloud")]
        pawapay_url: String,
        /// Africa's Talking's username: SMS through Africa's Talking instead of the log.
        #[arg(long, env = "MAVUNO_AT_USERNAME", requires = "at_api_key")]
        at_username: Option<String>,
        /// Africa's Talking's API key.
        #[arg(long, env = "MAVUNO_AT_API_KEY", hide_env_values = true, requires = "at_username")]
        at_api_key: Option<String>,
        /// Africa's Talking's API address (its sandbox is https://api.sandbox.africastalking.com).
        #[arg(long, env = "MAVUNO_AT_URL", default_value = "https://api.africastalking.com")]
        at_url: String,
        /// The SMS sender id or short code, when the Africa's Talking account has one.
        #[arg(long, env = "MAVUNO_SMS_FROM")]
        sms_from: Option<String>,
        /// A secret of at least 32 characters: Africa's Talking's delivery reports are
        /// taken at /api/v1/sms/delivery/{this}.
        #[arg(long, env = "MAVUNO_AT_CALLBACK_TOKEN", hide_env_values = true)]
        at_callback_token: Option<String>,
        /// A secret of at least 32 characters: USSD sessions are taken at /api/v1/ussd/{this} and
        /// incoming SMS at /api/v1/sms/incoming/{this}; made in the data dir when not given.
        #[arg(long, env = "MAVUNO_GATEWAY_TOKEN", hide_env_values = true)]
        gateway_token: Option<String>,
        /// A secret of at least 32 characters: Prometheus reads /api/v1/metrics with it as
        /// its bearer token; without it there are no metrics to read.
        #[arg(long, env = "MAVUNO_METRICS_TOKEN", hide_env_values = true)]
        metrics_token: Option<String>,
        /// Open connections at most (kept below the open-files limit).
        #[arg(long, env = "MAVUNO_MAX_CONNECTIONS", default_value_t = 16_384)]
        max_connections: usize,
        /// Seconds a client has to finish a request's headers once it has begun them.
        #[arg(long, env = "MAVUNO_HEADER_TIMEOUT", default_value_t = 15)]
        header_timeout: u64,
        /// Addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed
        /// (comma-separated IPs); nobody else's are.
        #[arg(long, env = "MAVUNO_TRUSTED_PROXIES", value_delimiter = ',')]
        trusted_proxies: Vec<IpAddr>,
        /// Strict-Transport-Security max-age sent on answers that came over HTTPS (0: never sent).
        #[arg(long, env = "MAVUNO_HSTS_MAX_AGE", default_value_t = 31_536_000)]
        hsts_max_age: u64,
        /// Sign-ups allowed per address in 10 minutes (raise it for load tests from one machine).
        #[arg(long, env = "MAVUNO_SIGNUP_LIMIT", default_value_t = 20)]
        signup_limit: usize,
        #[command(flatten)]
        offsite: OffsiteArgs,
        #[command(flatten)]
        media: MediaArgs,
        /// Allow --demo on an address other people can reach. The demo's staff accounts
        /// (super admin, admin, field agent) then get passwords generated here, printed once.
        #[arg(long, env = "MAVUNO_PUBLIC_DEMO")]
        public_demo: bool,
    },
    /// Create an account of any role (e.g. the first super admin).
    CreateUser {
        #[arg(long, env = "MAVUNO_DATA_DIR", default_value = "./data")]
        data_dir: PathBuf,
        #[command(flatten)]
        database: DatabaseArgs,
        #[arg(long)]
        email: String,
        #[arg(long)]
        password: String,
        /// farmer, user, admin, super_admin or field_agent
        #[arg(long)]
        role: String,
        #[arg(long, default_value = "")]
        first_name: String,
        #[arg(long, default_value = "")]
        last_name: String,
    },
    /// A basic phone in the terminal: the USSD menu of a running server, through the
    /// same address a USSD gateway posts to (docs/ussd.md).
    Ussd {
        /// The number to dial from, e.g. +243991234567.
        #[arg(long)]
        phone: String,
        /// The language to start in when the number has chosen none: en, fr or sw.
        #[arg(long)]
        lang: Option<String>,
        /// The running server.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        server: String,
        /// The server's data dir, where it keeps its gateway secret when none is configured.
        #[arg(long, env = "MAVUNO_DATA_DIR", default_value = "./data")]
        data_dir: PathBuf,
        /// The server's gateway secret, when it was configured (MAVUNO_GATEWAY_TOKEN).
        #[arg(long, env = "MAVUNO_GATEWAY_TOKEN", hide_env_values = true)]
        gateway_token: Option<String>,
    },
    /// Bring a deployment back from the off-site copy into an empty data dir: the database
    /// (the latest, or as it was at --at), marked so that every phone takes a new snapshot
    /// and sends again what was lost, and the pictures (docs/operations.md, Restore).
    Restore {
        #[arg(long, env = "MAVUNO_DATA_DIR", default_value = "./data")]
        data_dir: PathBuf,
        /// Given (a PostgreSQL deployment), restore says which tools bring PostgreSQL back.
        #[command(flatten)]
        database: DatabaseArgs,
        /// A time (RFC 3339, e.g. 2026-11-28T09:30:00Z): the database as it was then.
        #[arg(long)]
        at: Option<String>,
        #[command(flatten)]
        offsite: OffsiteArgs,
    },
    /// Copy a stopped SQLite deployment into an empty PostgreSQL database, every table
    /// counted on both sides; phones go on syncing (docs/operations.md, PostgreSQL).
    MigrateToPostgres {
        #[arg(long, env = "MAVUNO_DATA_DIR", default_value = "./data")]
        data_dir: PathBuf,
        #[arg(long = "database-url", env = "MAVUNO_DATABASE_URL", hide_env_values = true)]
        database_url: String,
    },
    /// Write a consistent copy of the SQLite database while the server runs (on
    /// PostgreSQL, it says which tools back it up).
    Backup {
        #[arg(long, env = "MAVUNO_DATA_DIR", default_value = "./data")]
        data_dir: PathBuf,
        #[command(flatten)]
        database: DatabaseArgs,
        #[arg(long)]
        out: PathBuf,
    },
}

/// glibc raises its mmap threshold after a large block is freed, after which
/// every blocking thread's arena keeps its own copy of argon2's 19 MiB work
/// area (20 sign-ins in parallel left 380 MB resident). A fixed threshold
/// sends large blocks back to the system as soon as they are freed. glibc also
/// gives threads up to 8 arenas per core, each keeping freed memory of its own
/// (catalogue misses made in parallel); two are enough for our two cores.
#[allow(unsafe_code)]
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only adjusts allocator parameters; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 * 1024);
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

fn main() -> ExitCode {
    tune_allocator();
    match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime.block_on(run()),
        Err(err) => {
            eprintln!("mavuno: cannot start the runtime: {err}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> ExitCode {
    let cli = Cli::parse();
    let colour = std::io::IsTerminal::is_terminal(&std::io::stdout());
    // RUST_LOG narrows or widens the log (docs/operations.md); info by default.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let log = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    match cli.log_format {
        LogFormat::Text => log.with_ansi(colour).init(),
        LogFormat::Json => log.json().with_current_span(false).init(),
    }
    let result = match cli.command {
        Command::Serve {
            addr,
            data_dir,
            web_dir,
            demo,
            jwt_secret,
            smtp_url,
            public_url,
            mail_from,
            pawapay_token,
            pawapay_url,
            payments,
            at_username,
            at_api_key,
            at_url,
            sms_from,
            at_callback_token,
            gateway_token,
            metrics_token,
            max_connections,
            header_timeout,
            trusted_proxies,
            hsts_max_age,
            signup_limit,
            public_demo,
            offsite,
            media,
            database,
        } => {
            let offsite = match offsite.settings() {
                Ok(offsite) => offsite,
                Err(message) => return fail(message),
            };
            let media = match media.settings() {
                Ok(media) => media,
                Err(message) => return fail(message),
            };
            let web_dir = web_dir.or_else(|| Some(PathBuf::from("pwa/dist")).filter(|d| d.is_dir()));
            let pawapay = pawapay_token
                .map(|token| mavuno::platform::config::PawaPaySettings { url: pawapay_url, token: token.into() });
            // The simulator approves payments nobody made: never a production server's silent default.
            match (&pawapay, payments.as_deref(), demo) {
                (Some(_), Some(_), _) => {
                    return fail("--payments simulator and pawaPay settings together: choose one".to_owned());
                }
                (None, None, false) => {
                    return fail(
                        "no payment provider: set MAVUNO_PAWAPAY_TOKEN for real mobile money, or give \
                         --payments simulator to take payments with the simulator on purpose (no real money \
                         moves; docs/payments.md)"
                            .to_owned(),
                    );
                }
                _ => {}
            }
            if at_callback_token.as_ref().is_some_and(|token| token.len() < 32) {
                return fail("MAVUNO_AT_CALLBACK_TOKEN must be at least 32 characters".to_owned());
            }
            let africas_talking = at_username.zip(at_api_key).map(|(username, api_key)| {
                let callback_token = at_callback_token.map(Into::into);
                mavuno::platform::config::AfricasTalkingSettings {
                    url: at_url,
                    username,
                    api_key: api_key.into(),
                    from: sms_from,
                    callback_token,
                }
            });
            let config = Config {
                web_dir,
                jwt_secret: jwt_secret.map(Into::into),
                smtp_url: smtp_url.map(Into::into),
                public_url: public_url.map(|url| url.trim_end_matches('/').to_owned()),
                mail_from,
                pawapay,
                africas_talking,
                max_connections: max_connections.min(open_files_limit().saturating_sub(RESERVED_FILES)),
                header_timeout: Duration::from_secs(header_timeout.max(1)),
                trusted_proxies,
                hsts_max_age,
                signup_max: signup_limit,
                gateway_token: gateway_token.map(Into::into),
                metrics_token: metrics_token.map(Into::into),
                offsite,
                media,
                database_url: database.url().map(Into::into),
                database_read_url: database.read_url().map(Into::into),
                database_pool: database.pool(),
                database_ca: database.ca(),
                ..Config::new(data_dir)
            };
            let demo = match (demo, addr.ip().is_loopback(), public_demo) {
                (false, ..) => None,
                (true, true, _) => Some(demo::Exposure::Local),
                (true, false, true) => Some(demo::Exposure::Public),
                (true, false, false) => {
                    return fail(format!(
                        "refusing --demo on {addr}: its accounts have published passwords and would be open to \
                         everyone who can reach this address. Serve the demo on 127.0.0.1, or add --public-demo \
                         to give its staff accounts passwords of their own (printed once)."
                    ));
                }
            };
            // Links in emails, feeds and certificates name this address; a Host header is
            // only believed on a server nobody else reaches.
            if config.public_url.is_none() && !addr.ip().is_loopback() {
                return fail(format!(
                    "serving on {addr} needs MAVUNO_PUBLIC_URL (--public-url), the address people open MAVUNO at \
                     (e.g. https://mavuno.example or http://192.168.1.20:8080): links in emails, feeds and \
                     certificates are written with it, never with a request's Host header"
                ));
            }
            run_server(addr, config, demo).await
        }
        Command::CreateUser { data_dir, database, email, password, role, first_name, last_name } => {
            let config = Config {
                database_url: database.url().map(Into::into),
                database_ca: database.ca(),
                ..Config::new(data_dir)
            };
            cli::accounts::create_user(config, &email, &password, &role, first_name, last_name).await
        }
        Command::Backup { database, .. } | Command::Restore { database, .. } if database.url().is_some() => {
            Err(cli::database::ON_POSTGRES.to_owned())
        }
        Command::Backup { data_dir, out, .. } => cli::database::backup(&data_dir, &out),
        Command::MigrateToPostgres { data_dir, database_url } => {
            cli::database::migrate_to_postgres(&data_dir, &database_url)
        }
        Command::Restore { data_dir, at, offsite, .. } => match offsite.settings() {
            Ok(Some(settings)) => {
                mavuno::outbound::offsite::restore(&settings, &data_dir, at.as_deref()).await.map(|said| {
                    println!("{said}");
                })
            }
            Ok(None) => Err("restore needs the store: --offsite-url (MAVUNO_OFFSITE_URL) and its keys".to_owned()),
            Err(message) => Err(message),
        },
        Command::Ussd { phone, lang, server, data_dir, gateway_token } => {
            cli::phone::run(&server, &data_dir, gateway_token, &phone, lang.as_deref()).await
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(message),
    }
}

fn fail(message: String) -> ExitCode {
    eprintln!("mavuno: {message}");
    ExitCode::FAILURE
}

/// Files kept for the database, media and logs when capping connections.
const RESERVED_FILES: usize = 128;

/// Raises the soft open-files limit to the hard one (systemd and shells start
/// services at 1024) and answers what it is now.
#[allow(unsafe_code)]
fn open_files_limit() -> usize {
    #[cfg(unix)]
    // SAFETY: getrlimit/setrlimit only read and write the struct we pass.
    unsafe {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            if limit.rlim_cur < limit.rlim_max {
                let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit.rlim_cur = limit.rlim_max;
                }
            }
            return usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
        }
    }
    1024
}

async fn run_server(addr: SocketAddr, config: Config, demo: Option<demo::Exposure>) -> Result<(), String> {
    let app = Application::build(config, addr).await.map_err(|e| e.to_string())?;
    let state = app.state();
    if let Some(exposure) = demo {
        let loaded = [
            ("demo content", demo::seed(state).await),
            // Courses, news, the rate and prices came later: a demo database seeded before them gets them once too.
            ("demo courses", demo::courses::seed(state).await),
            ("demo news", demo::blogs::seed(state).await),
            ("demo exchange rate", demo::rates::seed(state).await),
            ("demo market prices", demo::prices::seed(state).await),
            ("demo cooperatives", demo::cooperatives::seed(state).await),
        ];
        for (what, seeded) in loaded {
            if seeded.map_err(|e| e.to_string())? {
                tracing::info!("{what} loaded");
            }
        }
        if exposure == demo::Exposure::Public {
            for (email, password) in demo::protect_staff(state).await.map_err(|e| e.to_string())? {
                println!("demo account {email} now has the password {password} (shown once)");
            }
        }
    }
    tracing::info!("MAVUNO listening on {}", app.origin());
    if state.payments.is_simulated() {
        tracing::warn!("payments go to the built-in simulator: no real money moves (docs/payments.md)");
    }
    tracing::info!(max_connections = state.config.max_connections, "accepting connections");
    app.run_until(shutdown_signal()).await.map_err(|e| e.to_string())?;
    tracing::info!("stopped");
    Ok(())
}

/// Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        tokio::signal::ctrl_c().await.ok();
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
