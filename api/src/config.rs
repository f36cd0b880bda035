//! Command-line, environment and file configuration. Every flag also reads an environment variable, and every
//! option of the command itself (not a subcommand's) a key of the TOML file named by `--config` (`FOMENTO_CONFIG`):
//! the key is the flag's long name (`rate-limit = 100`). A flag wins over its variable, the variable over the file,
//! the file over the default. The file's values become the options' defaults ([`with_file`]), so each setting is
//! defined once, here, and the file is checked by the same parsers as the flags, at start-up.
//!
//! Size: every setting with its flag, variable, file key, default and help text; its length is data.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::{
    ffi::OsString,
    net::SocketAddr,
    path::{Path, PathBuf},
};

/// Requests per second a key may make by default (bursts of twice that).
pub const DEFAULT_RATE_LIMIT: u32 = 50;

/// The longest a request may take by default, in seconds.
pub const DEFAULT_REQUEST_TIMEOUT_SECONDS: u64 = 30;
/// The most requests served at once by default: far above what 200 clients keep in flight (200), so none of theirs
/// is refused, and low enough that a flood is refused at once rather than queued for seconds.
pub const DEFAULT_MAX_IN_FLIGHT: u32 = 1024;
/// The most GraphQL requests worked on at once by default: enough to keep the database's connections (10 on
/// PostgreSQL) and both cores busy while some wait on the database.
pub const DEFAULT_GRAPH_RUNNING: u32 = 16;

/// Fomento: one GraphQL graph over social-fuel projects (IN MDA nº 2/2005) and FCO Rural cartas (CDAE/MT 2019).
#[derive(Debug, Parser)]
#[command(name = "fomento", version, about)]
pub struct Cli {
    /// Database URL: a SQLite file (created and migrated on first start) or PostgreSQL
    /// (`postgres://user@host:5432/db`).
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://fomento.db?mode=rwc",
        global = true
    )]
    pub database_url: String,

    /// Log filter, in `tracing_subscriber::EnvFilter` syntax (`info`, `fomento_api=debug,sea_orm=warn`).
    #[arg(
        long,
        env = "FOMENTO_LOG",
        default_value = "info,sqlx=warn,sea_orm=warn,sea_orm_migration=warn,tokio_cron_scheduler=warn",
        global = true
    )]
    pub log: String,

    /// Log lines as `text` (coloured only on a terminal) or `json` (one object per line).
    #[arg(long, env = "FOMENTO_LOG_FORMAT", value_enum, default_value_t = crate::telemetry::LogFormat::Text, global = true)]
    pub log_format: crate::telemetry::LogFormat,

    /// Export traces over OTLP/HTTP to this collector (`http://otel-collector:4318`); none: no traces exported. Needs
    /// a build with the `otlp` feature (the release image has it). A request's W3C `traceparent` is honoured either
    /// way, and its trace id is in the log lines written while it is served.
    #[arg(long, env = "OTEL_EXPORTER_OTLP_ENDPOINT", global = true)]
    pub otlp_endpoint: Option<String>,

    /// Options of the server (also accepted before or after `serve`).
    #[command(flatten)]
    pub serve: ServeArgs,

    /// Where raw uploaded files are kept: a local directory (created if missing), or an S3-compatible bucket as
    /// `s3://bucket/prefix?endpoint=…&region=…` (credentials from `AWS_*` variables or the URL's options).
    #[arg(long, env = "FOMENTO_FILE_STORE", default_value = "file-store", global = true)]
    pub file_store: String,

    /// How long a worker's claim on a report holds before another worker may take it over, in seconds.
    #[arg(long, env = "FOMENTO_LEASE_SECONDS", default_value_t = 300, global = true)]
    pub lease_seconds: u32,

    /// Attempts a bank report's ingestion gets when it fails with an error that can pass (a lost connection, a lock
    /// timeout, ...), 30 s apart and doubling, before the report ends `FAILED`.
    #[arg(long, env = "FOMENTO_REPORT_ATTEMPTS", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20), global = true)]
    pub report_attempts: u32,

    /// The largest upload accepted, in bytes: HTTP bodies (`413` names the limit past it) and the files the ingestion
    /// reads.
    #[arg(long, env = "FOMENTO_MAX_UPLOAD_BYTES", default_value_t = service::store::DEFAULT_MAX_UPLOAD_BYTES, global = true)]
    pub max_upload_bytes: usize,

    /// Replaces a job's schedule: `NAME=CRON` or `NAME=CRON@ZONE` (a cron expression with seconds, an IANA zone;
    /// `fomento jobs list` shows the jobs and their defaults). Repeat it for several jobs; the variable takes them
    /// separated by `;`.
    #[arg(long = "schedule", env = "FOMENTO_SCHEDULES", value_delimiter = ';', global = true)]
    pub schedules: Vec<String>,

    /// How long raw uploaded files (banks' sheets, imports) are kept before the `purge-raw-files` job deletes them
    /// from the store: `5y`, `18m`, `90d`. Reports and imports keep their rows and outcome.
    #[arg(long, env = "FOMENTO_RETAIN_RAW_FILES", default_value = "5y", global = true)]
    pub retain_raw_files: service::files::Retention,

    /// A TOML file of settings: each key is an option's long name (`listen = "0.0.0.0:8080"`, `rate-limit = 100`,
    /// `cors-origin = ["https://painel.example.gov.br"]`, `no-introspection = true`). Flags and environment
    /// variables win over it; an unknown key or a value its option refuses stops the start.
    #[arg(long, env = "FOMENTO_CONFIG", global = true)]
    pub config: Option<PathBuf>,

    /// What to do; `serve` when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP server (the default): migrate the database, then serve `/graphql`, `/health` and `/ready`.
    Serve,
    /// Manage the database schema.
    Migrate {
        /// The migration action.
        #[command(subcommand)]
        action: MigrateAction,
    },
    /// Print the GraphQL schema (SDL); `schema.graphql` is this output.
    Schema,
    /// Run the scheduled jobs without the HTTP server, until Ctrl-C or SIGTERM (a running job finishes first).
    Worker,
    /// Run a job once, now.
    Jobs {
        /// The job action.
        #[command(subcommand)]
        action: JobsAction,
    },
    /// Store a bank's monthly report from a file and ingest it now (for operators).
    Ingest {
        /// The spreadsheet (xlsx, xls, ods or CSV).
        file: std::path::PathBuf,
        /// The bank's code (`BB`).
        #[arg(long)]
        bank: String,
        /// The month reported, `YYYY-MM`.
        #[arg(long)]
        month: String,
    },
    /// Operate on banks' monthly reports.
    BankReports {
        /// The action.
        #[command(subcommand)]
        action: BankReportsAction,
    },
    /// Manage rule parameters.
    Rules {
        /// The rules action.
        #[command(subcommand)]
        action: RulesAction,
    },
    /// Import a file of facts: one verb for every kind (`fomento ingest` and `fomento rules import` are its aliases).
    Import {
        /// What the file holds.
        #[command(subcommand)]
        kind: ImportKind,
    },
    /// Export the flag list, the financings, the cartas or a dashboard table (`dashboard-NAME`) as CSV or XLSX (as
    /// `GET /exports/NAME.csv|.xlsx`).
    Export {
        /// `flags`, `financings` or `cartas`.
        name: String,
        /// `csv` or `xlsx`.
        #[arg(long, default_value = "csv")]
        format: String,
        /// The file to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// The graph's filter as JSON (`ComplianceFlagFilter` for flags, `FinancingFilter` otherwise).
        #[arg(long)]
        filter: Option<String>,
        /// CSV for Brazilian Excel: `;` between fields, `,` before the centavos.
        #[arg(long)]
        semicolon: bool,
        /// CSV with a byte-order mark.
        #[arg(long)]
        bom: bool,
        /// For a dashboard table (`dashboard-fco_contracted_by_bank`): the day; today in Brasília by default.
        #[arg(long = "as-of")]
        as_of: Option<chrono::NaiveDate>,
    },
    /// Manage webhook receivers (flags raised and resolved, reports ingested, rejected or failed).
    Webhooks {
        /// The webhooks action.
        #[command(subcommand)]
        action: WebhooksAction,
    },
    /// Raw uploaded files.
    Files {
        /// The files action.
        #[command(subcommand)]
        action: FilesAction,
    },
    /// The audit log's latest lines, newest first.
    Audit {
        /// How many lines.
        #[arg(long, default_value_t = 50)]
        limit: u64,
    },
    /// API keys: create (printed once), list, revoke.
    Keys {
        /// The keys action.
        #[command(subcommand)]
        action: KeysAction,
    },
}

/// What to do with raw uploaded files.
#[derive(Debug, Subcommand)]
pub enum FilesAction {
    /// Delete from the store the raw files of reports and imports received before a day (in Brasília) that have
    /// ended; a file a later upload still needs stays. Recorded in the audit log.
    Purge {
        /// The first day whose files are kept (`YYYY-MM-DD`).
        #[arg(long)]
        before: chrono::NaiveDate,
    },
}

/// What to do with API keys.
#[derive(Debug, Subcommand)]
pub enum KeysAction {
    /// Create a key; it is printed once, alone on the last line, and stored only as its SHA-256.
    Create {
        /// `bank`, `mda`, `council`, `analyst` or `admin`.
        #[arg(long)]
        role: String,
        /// The bank a `bank` key acts for (its code: `BB`, `SICREDI`, …).
        #[arg(long)]
        bank: Option<String>,
        /// Who or what holds it.
        #[arg(long, default_value = "")]
        name: String,
        /// Requests per second it may make (bursts of twice that), instead of the server's `--rate-limit`: for a
        /// load test or an integration that needs more.
        #[arg(long)]
        rate: Option<u32>,
    },
    /// List the keys (never the keys themselves: their first characters).
    List,
    /// Revoke a key, by its number or its first characters (`fmt_1a2b3c4d`).
    Revoke {
        /// The key's number or prefix.
        key: String,
    },
}

/// Webhook actions.
#[derive(Debug, Subcommand)]
pub enum WebhooksAction {
    /// Register a receiver: each event it hears of is POSTed to URL as JSON, signed with HMAC-SHA256 under the secret
    /// (`X-Fomento-Signature: sha256=<hex>`).
    Add {
        /// Where deliveries go (`https://…`).
        url: String,
        /// The signature's key (at least 16 characters).
        #[arg(long)]
        secret: String,
        /// Only this programme's events (`SOCIAL_FUEL`, `FCO_RURAL`).
        #[arg(long)]
        programme: Option<String>,
        /// Only this bank's events (its code, `BB`).
        #[arg(long)]
        bank: Option<String>,
        /// Only these events, comma-separated: flag.raised, flag.resolved, report.ingested, report.rejected,
        /// report.failed (all when absent).
        #[arg(long, value_delimiter = ',')]
        events: Vec<String>,
        /// The language of the texts it is sent (flag messages): `pt-BR` (the default) or `en`.
        #[arg(long)]
        lang: Option<String>,
    },
    /// List the receivers.
    List,
    /// Remove a receiver (its deliveries stay listed).
    Remove {
        /// The webhook's number.
        number: i64,
    },
}

/// What an imported file holds.
#[derive(Debug, Subcommand)]
pub enum ImportKind {
    /// A bank's monthly report (as `fomento ingest`): stored, then ingested now.
    BankReport {
        /// The spreadsheet (xlsx, xls, ods or CSV).
        file: std::path::PathBuf,
        /// The bank's code (`BB`).
        #[arg(long)]
        bank: String,
        /// The month reported, `YYYY-MM`.
        #[arg(long)]
        month: String,
    },
    /// New rule-parameter versions from a CSV file, all or nothing (as `fomento rules import`).
    RuleParameters {
        /// The CSV file.
        file: std::path::PathBuf,
    },
    /// Another delimitation of the semi-arid (the 2005 list, say) from a CSV whose first column is the IBGE code, all
    /// or nothing: in force from `--effective-from` until the next later delimitation.
    SemiArid {
        /// The CSV file.
        file: std::path::PathBuf,
        /// Its first day in force (YYYY-MM-DD).
        #[arg(long)]
        effective_from: chrono::NaiveDate,
        /// The instrument that delimited it.
        #[arg(long, default_value = "Portaria MI nº 89/2005")]
        source: String,
    },
    /// A social-fuel project's feedstock acquisitions of one year (replaces the year's list), applied now.
    Acquisitions {
        /// The spreadsheet, filled from `/imports/acquisitions/template.xlsx`.
        file: std::path::PathBuf,
        /// The project's number or global ID.
        #[arg(long)]
        project: String,
        /// The acquisition year.
        #[arg(long)]
        year: i32,
        /// Why, once MDA has decided on the framing.
        #[arg(long)]
        reason: Option<String>,
    },
    /// An FCO carta's items (replaces the carta's list), applied now.
    CartaItems {
        /// The spreadsheet, filled from `/imports/carta-items/template.xlsx`.
        file: std::path::PathBuf,
        /// The carta's number in Fomento or global ID.
        #[arg(long)]
        carta: String,
        /// Why, once the chamber or the bank has decided on the carta.
        #[arg(long)]
        reason: Option<String>,
    },
    /// The cartas a chamber meeting received, with when each reached SEDEC, applied now.
    MeetingAgenda {
        /// The spreadsheet, filled from `/imports/meeting-agenda/template.xlsx`.
        file: std::path::PathBuf,
        /// The meeting's number or global ID.
        #[arg(long)]
        meeting: String,
    },
}

/// Job actions.
#[derive(Debug, Subcommand)]
pub enum JobsAction {
    /// Run a job once, now.
    Run {
        /// The job's name (`fomento jobs list` shows them).
        job: String,
        /// For `flag-deadlines` and `expire-approvals`: judge as of this day (`2026-12-03`) instead of today in
        /// Brasília.
        #[arg(long = "as-of")]
        as_of: Option<chrono::NaiveDate>,
    },
    /// List the jobs: schedule, time zone, last run and next run.
    List,
}

/// Bank-report actions.
#[derive(Debug, Subcommand)]
pub enum BankReportsAction {
    /// Queue a `FAILED` report again for a new set of attempts, and ingest it now.
    Retry {
        /// The report's number (as in `bankReport { number }` and the upload's answer).
        number: i64,
    },
}

/// Rule-parameter actions.
#[derive(Debug, Subcommand)]
pub enum RulesAction {
    /// Add parameter versions from a CSV file (header: key,value,unit,effective_from,effective_to,legal_source);
    /// all rows are checked first and nothing is written if any is wrong.
    Import {
        /// The CSV file.
        file: std::path::PathBuf,
    },
}

/// Options of `fomento serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, env = "FOMENTO_LISTEN", default_value = "127.0.0.1:8080", global = true)]
    pub listen: SocketAddr,

    /// Also serve `/metrics` (Prometheus) on this address, without a key, for a scraper on a private network
    /// (`0.0.0.0:9464`); `fomento worker` serves its job metrics there too. On the main address `/metrics` takes an
    /// `admin` or `metrics` key.
    #[arg(long, env = "FOMENTO_METRICS_LISTEN", global = true)]
    pub metrics_listen: Option<SocketAddr>,

    /// Run no scheduled jobs in this server, and do not ingest uploads here: leave both to `fomento worker` (with
    /// several servers and a worker on one database). By default a server runs them too (each job once per slot
    /// across all processes).
    #[arg(long, env = "FOMENTO_NO_JOBS", global = true)]
    pub no_jobs: bool,

    /// Load the deterministic demo dataset when the database is empty (and create one API key per role, printed
    /// once).
    #[arg(long, env = "FOMENTO_DEMO", global = true)]
    pub demo: bool,

    /// Open `/dashboard` (the aggregate figures, no personal data) to callers without a key.
    #[arg(long, env = "FOMENTO_OPEN_DASHBOARD", global = true)]
    pub open_dashboard: bool,

    /// Requests per second a key may make (bursts of twice that) unless it has a rate of its own (`keys create
    /// --rate`); past it, `429 RATE_LIMITED` with `Retry-After`. 0 turns the limit off.
    #[arg(long, env = "FOMENTO_RATE_LIMIT", default_value_t = DEFAULT_RATE_LIMIT, global = true)]
    pub rate_limit: u32,

    /// The longest a request may take, in seconds; past it, `503 REQUEST_TIMEOUT` (subscriptions are not bounded).
    #[arg(long, env = "FOMENTO_REQUEST_TIMEOUT", default_value_t = DEFAULT_REQUEST_TIMEOUT_SECONDS, value_parser = clap::value_parser!(u64).range(1..=3600), global = true)]
    pub request_timeout: u64,

    /// The most requests served at once (the subscriptions' sockets and the probes not counted); past it, a fast
    /// `503 OVERLOADED` with `Retry-After: 1` instead of a queue that would outlast the clients' patience.
    #[arg(long, env = "FOMENTO_MAX_IN_FLIGHT", default_value_t = DEFAULT_MAX_IN_FLIGHT, value_parser = clap::value_parser!(u32).range(1..), global = true)]
    pub max_in_flight: u32,

    /// The most GraphQL requests worked on at once; the others admitted wait their turn, first come first served
    /// (within `--request-timeout`).
    #[arg(long, env = "FOMENTO_GRAPH_RUNNING", default_value_t = DEFAULT_GRAPH_RUNNING, value_parser = clap::value_parser!(u32).range(1..), global = true)]
    pub graph_running: u32,

    /// An origin browsers may call Fomento from (`https://painel.example.gov.br`), or `*` for any; repeat it for
    /// several (the variable takes them separated by `,`). None: same origin only.
    #[arg(
        long = "cors-origin",
        env = "FOMENTO_CORS_ORIGINS",
        value_delimiter = ',',
        global = true
    )]
    pub cors_origins: Vec<String>,

    /// Refuse introspection (`__schema`, `__type`): for production, where clients are generated from
    /// `schema.graphql` instead.
    #[arg(long, env = "FOMENTO_NO_INTROSPECTION", global = true)]
    pub no_introspection: bool,

    /// Resolve every field through async-graphql's executor, one future per field, even where a selection's values
    /// are all in memory (by default those are read at once, with the same answer). A switch to rule the fast path
    /// out when diagnosing an answer.
    #[arg(long, env = "FOMENTO_NO_PLAIN_READS", global = true)]
    pub no_plain_reads: bool,

    /// A reverse proxy (an address, or a network as `10.0.0.0/8`) whose `X-Forwarded-For` and `X-Forwarded-Proto`
    /// are believed: the client is then the right-most forwarded address that is not itself a trusted proxy. Repeat it
    /// for several (the variable takes them separated by `,`). None: the headers are ignored and the peer's address
    /// is the client's (in the audit log).
    #[arg(
        long = "trusted-proxy",
        env = "FOMENTO_TRUSTED_PROXY",
        value_delimiter = ',',
        global = true
    )]
    pub trusted_proxies: Vec<crate::http::forwarded::TrustedProxy>,

    /// Accept JWTs from an identity provider whose keys are at this JWKS file or `https://` URL (besides API keys).
    #[arg(long, env = "FOMENTO_JWKS", global = true)]
    pub jwks: Option<String>,

    /// The issuer (`iss`) tokens must name.
    #[arg(long, env = "FOMENTO_JWT_ISSUER", global = true)]
    pub jwt_issuer: Option<String>,

    /// The audience (`aud`) tokens must name.
    #[arg(long, env = "FOMENTO_JWT_AUDIENCE", global = true)]
    pub jwt_audience: Option<String>,

    /// The clock skew allowed on a token's `exp` and `nbf`, in seconds.
    #[arg(long, env = "FOMENTO_JWT_LEEWAY", default_value_t = 60, global = true)]
    pub jwt_leeway: u64,

    /// The claim holding the role (a role name, or a list of them: the first known one counts).
    #[arg(long, env = "FOMENTO_JWT_ROLE_CLAIM", default_value = "fomento_role", global = true)]
    pub jwt_role_claim: String,

    /// The claim holding a `bank` role's bank code.
    #[arg(long, env = "FOMENTO_JWT_BANK_CLAIM", default_value = "fomento_bank", global = true)]
    pub jwt_bank_claim: String,

    /// Let browsers sign in through this OpenID Connect provider (its issuer URL; the endpoints come from its discovery
    /// document). The role and bank come from `--jwt-role-claim` and `--jwt-bank-claim` of its ID token.
    #[arg(long, env = "FOMENTO_OIDC_ISSUER", global = true)]
    pub oidc_issuer: Option<String>,

    /// Fomento's client id at the provider (also the ID token's audience).
    #[arg(long, env = "FOMENTO_OIDC_CLIENT_ID", global = true)]
    pub oidc_client_id: Option<String>,

    /// Fomento's client secret at the provider (prefer the variable to the flag).
    #[arg(long, env = "FOMENTO_OIDC_CLIENT_SECRET", global = true, hide_env_values = true)]
    pub oidc_client_secret: Option<String>,

    /// Where the provider sends browsers back: this server's `/sign-in/callback` as the browser reaches it.
    #[arg(long, env = "FOMENTO_OIDC_REDIRECT_URL", global = true)]
    pub oidc_redirect_url: Option<String>,
}

/// Migration actions.
#[derive(Debug, Subcommand)]
pub enum MigrateAction {
    /// Apply all pending migrations.
    Up,
    /// Roll back migrations.
    Down {
        /// How many to roll back.
        #[arg(long, default_value_t = 1)]
        steps: u32,
    },
    /// List migrations and whether each is applied.
    Status,
    /// Drop everything and apply all migrations again (destroys data).
    Fresh,
}

/// Why a configuration file was refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read, or is not TOML.
    #[error("{}", .0.render(service::messages::Lang::PtBr))]
    Unreadable(service::messages::Message),
    /// A key that is no option of the command.
    #[error("{}", .0.render(service::messages::Lang::PtBr))]
    UnknownKey(service::messages::Message),
    /// A value the option refuses.
    #[error("{}", .0.render(service::messages::Lang::PtBr))]
    BadValue(service::messages::Message),
}

impl ConfigError {
    /// The message, for rendering in another language.
    pub fn message(&self) -> &service::messages::Message {
        match self {
            Self::Unreadable(m) | Self::UnknownKey(m) | Self::BadValue(m) => m,
        }
    }
}

/// What a start-up failed on: the command line (clap's own error, printed and exited as clap does) or the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The command line.
    #[error(transparent)]
    Args(#[from] clap::Error),
    /// The configuration file.
    #[error(transparent)]
    File(#[from] ConfigError),
}

impl Cli {
    /// Parses the command line with the file of `--config` or `FOMENTO_CONFIG` beneath it; exits with clap's message
    /// on a wrong command line (or `--help`), and with the file's problem, in Portuguese then English, on a wrong
    /// file.
    pub fn load() -> Self {
        match Self::try_load_from(std::env::args_os(), std::env::var_os("FOMENTO_CONFIG")) {
            Ok(cli) => cli,
            Err(LoadError::Args(e)) => e.exit(),
            Err(LoadError::File(e)) => {
                eprintln!("erro: {e}");
                eprintln!("error: {}", e.message().render(service::messages::Lang::En));
                std::process::exit(2);
            }
        }
    }

    /// [`Cli::load`] over these arguments and this value of `FOMENTO_CONFIG`, returning the errors.
    pub fn try_load_from<I, T>(args: I, config_variable: Option<OsString>) -> Result<Self, LoadError>
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString> + Clone,
    {
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let command = match config_path(&args).or(config_variable.map(PathBuf::from)) {
            Some(path) => with_file(Self::command(), &path)?,
            None => Self::command(),
        };
        let matches = command.try_get_matches_from(args)?;
        Ok(Self::from_arg_matches(&matches)?)
    }
}

/// The file named on the command line (`--config FILE` or `--config=FILE`, before any `--`).
fn config_path(args: &[OsString]) -> Option<PathBuf> {
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        let a = a.to_string_lossy();
        if a == "--" {
            return None;
        }
        if a == "--config" {
            return it.next().map(PathBuf::from);
        }
        if let Some(v) = a.strip_prefix("--config=") {
            return Some(PathBuf::from(v));
        }
    }
    None
}

/// `command` with the settings of the TOML file at `path` as its options' defaults (below flags and variables). Every
/// key must be an option of the command itself (not of a subcommand, nor `config`, `help` or `version`), and every
/// value one its option's parser accepts.
pub fn with_file(command: clap::Command, path: &Path) -> Result<clap::Command, ConfigError> {
    use service::messages::{Message, code};
    let file = path.display().to_string();
    let unreadable = |reason: String| {
        ConfigError::Unreadable(
            Message::new(code::CONFIG_UNREADABLE)
                .arg("file", &file)
                .arg("reason", reason),
        )
    };
    let text = std::fs::read_to_string(path).map_err(|e| unreadable(e.to_string()))?;
    let doc: toml_edit::DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        // Where (the first line) and what (the last), without the excerpt drawn between them.
        let said = e.to_string();
        let mut lines = said.lines().map(str::trim).filter(|l| !l.is_empty());
        let (at, what) = (lines.next().unwrap_or_default(), lines.next_back().unwrap_or_default());
        unreadable(format!("{at}: {what}"))
    })?;
    let mut command = command;
    for (key, item) in doc.as_table().iter() {
        let unknown = || {
            ConfigError::UnknownKey(
                Message::new(code::CONFIG_UNKNOWN_KEY)
                    .arg("file", &file)
                    .arg("key", key),
            )
        };
        let Some(arg) = command
            .get_arguments()
            .find(|a| a.get_long() == Some(key) && !matches!(key, "config" | "help" | "version"))
        else {
            return Err(unknown());
        };
        let bad = |value: &str, reason: &str| {
            ConfigError::BadValue(
                Message::new(code::CONFIG_BAD_VALUE)
                    .arg("file", &file)
                    .arg("key", key)
                    .arg("value", value)
                    .arg("reason", reason),
            )
        };
        let shown = item.to_string();
        let shown = shown.trim();
        let wrong = |expected: &str| {
            ConfigError::BadValue(
                Message::new(code::CONFIG_WRONG_KIND)
                    .arg("file", &file)
                    .arg("key", key)
                    .arg("value", shown)
                    .arg("expected", expected),
            )
        };
        let flag = matches!(arg.get_action(), clap::ArgAction::SetTrue);
        let many = matches!(arg.get_action(), clap::ArgAction::Append);
        let values: Vec<String> = match item.as_value() {
            Some(toml_edit::Value::Array(list)) if many => list
                .iter()
                .map(|v| scalar(v).ok_or_else(|| wrong("list")))
                .collect::<Result<_, _>>()?,
            Some(toml_edit::Value::Array(_)) => return Err(wrong("one")),
            Some(v @ toml_edit::Value::Boolean(_)) if flag => vec![scalar(v).unwrap_or_default()],
            Some(_) if flag => return Err(wrong("switch")),
            Some(v) => vec![scalar(v).ok_or_else(|| wrong("scalar"))?],
            None => return Err(wrong("scalar")),
        };
        if !flag {
            // Each value through the option's own parser, as the command line would give it.
            let probe = clap::Command::new("fomento").no_binary_name(true).arg(arg.clone());
            for v in &values {
                if let Err(e) = probe.clone().try_get_matches_from([format!("--{key}={v}")]) {
                    return Err(bad(shown, &reason(&e)));
                }
            }
        }
        let id = arg.get_id().clone();
        let hidden = arg.is_hide_env_values_set();
        command = command.mut_arg(id, |a| {
            let a = a.default_values(values.clone());
            // A secret's value is not shown in `--help`.
            if hidden { a.hide_default_value(true) } else { a }
        });
    }
    Ok(command)
}

/// A TOML value as an option's text; none for a list or a table.
fn scalar(v: &toml_edit::Value) -> Option<String> {
    match v {
        toml_edit::Value::String(s) => Some(s.value().clone()),
        toml_edit::Value::Integer(n) => Some(n.value().to_string()),
        toml_edit::Value::Float(x) => Some(x.value().to_string()),
        toml_edit::Value::Boolean(b) => Some(b.value().to_string()),
        toml_edit::Value::Datetime(d) => Some(d.value().to_string()),
        toml_edit::Value::Array(_) | toml_edit::Value::InlineTable(_) => None,
    }
}

/// What a parser said of a value, without clap's framing (`error: invalid value … for '--x'`).
fn reason(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    if let Some(source) = std::error::Error::source(e) {
        return source.to_string();
    }
    if let Some(ContextValue::Strings(valid)) = e.get(ContextKind::ValidValue) {
        return format!("[{}]", valid.join(", "));
    }
    e.kind().to_string()
}
