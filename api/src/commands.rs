//! The `fomento` command's subcommands: each connects what it needs and calls the service layer or the runtime;
//! `main.rs` only parses the command line and calls [`run`].
//!
//! Size: one function per subcommand, each a few lines of connecting and printing, kept in one place so that they read
//! alike.

use crate::{
    config::{
        BankReportsAction, Cli, Command, FilesAction, ImportKind, JobsAction, KeysAction, RulesAction, WebhooksAction,
    },
    startup::{Application, Settings, connect, jobs_runtime, migrate, migrate_up},
};

use service::messages::Lang;

/// The language of what the command prints for a person: Portuguese, or English with `FOMENTO_LANG=en` (a flag
/// `--lang` would be taken by `webhooks add --lang`, the receiver's language).
pub fn output_lang() -> Lang {
    std::env::var("FOMENTO_LANG")
        .ok()
        .and_then(|t| Lang::from_tag(&t))
        .unwrap_or_default()
}

/// A text of the command's output (`cli.ftl`) in `lang`, with its values.
pub fn text(lang: Lang, id: &str, values: &[(&str, String)]) -> String {
    service::l10n::text(id, values, lang)
}

/// [`text`] with its values by name: `say!(lang, "cli-storing", file = f, bytes = n)`.
macro_rules! say {
    ($lang:expr, $id:literal $(, $k:ident = $v:expr)* $(,)?) => {
        crate::commands::text($lang, $id, &[$((stringify!($k), $v.to_string())),*])
    };
}

/// One receiver, for `fomento webhooks add` and `list`.
fn webhook_line(w: &entity::webhook::Model, lang: Lang) -> String {
    let any = || say!(lang, "cli-any");
    let line = say!(
        lang,
        "cli-webhook-line",
        url = w.url,
        programme = w.programme.clone().unwrap_or_else(any),
        bank = w.bank_id.map_or_else(any, |b| format!("#{b}")),
        events = if w.events.is_empty() {
            say!(lang, "cli-all")
        } else {
            w.events.clone()
        },
        lang = w.lang.as_deref().unwrap_or("pt-BR"),
    );
    match w.removed_at {
        Some(_) => format!("{line} {}", say!(lang, "cli-webhook-removed-mark")),
        None => line,
    }
}

/// A service error in `lang`, naming its field first.
pub(crate) fn in_lang(e: &service::ServiceError, lang: Lang) -> String {
    match e.field() {
        Some(f) => format!("{f}: {}", e.render(lang)),
        None => e.render(lang),
    }
}

/// A service error as the command's error, in `lang`.
fn refused(lang: Lang) -> impl Fn(service::ServiceError) -> anyhow::Error + Copy {
    move |e| anyhow::anyhow!(in_lang(&e, lang))
}

/// A file that cannot be read, in `lang`.
fn unreadable(lang: Lang, file: &std::path::Path) -> impl FnOnce(std::io::Error) -> anyhow::Error {
    let file = file.display().to_string();
    move |e| anyhow::anyhow!(say!(lang, "cli-cannot-read", file = file, reason = e))
}

/// The database of `cli`, connected and migrated.
async fn database(cli: &Cli) -> anyhow::Result<service::Db> {
    let (db, _) = connect(&cli.database_url).await?;
    migrate_up(&db).await?;
    Ok(db)
}

/// The database of `cli`, connected and migrated, and the ingestion runtime over it.
async fn database_and_runtime(cli: &Cli) -> anyhow::Result<(service::Db, crate::runtime::JobsRuntime)> {
    let db = database(cli).await?;
    let lease = chrono::Duration::seconds(i64::from(cli.lease_seconds));
    let mut ing = jobs_runtime(
        db.clone(),
        &cli.file_store,
        lease,
        cli.report_attempts,
        cli.max_upload_bytes,
    )?;
    ing.schedules = std::sync::Arc::new(schedules(cli)?);
    ing.retain_raw_files = cli.retain_raw_files;
    Ok((db, ing))
}

/// The job schedules of `cli`: the registry's, with `--schedule` overrides.
fn schedules(cli: &Cli) -> anyhow::Result<jobs::registry::Schedules> {
    jobs::registry::Schedules::with_overrides(&cli.schedules).map_err(|e| anyhow::anyhow!(e))
}

/// `fomento import acquisitions|carta-items|meeting-agenda FILE --project|--carta|--meeting ID`: stores the file,
/// applies it now through the import job, and prints how it ended with every row error. Fails (exit status 1) when
/// the import is not `APPLIED`.
async fn import_facts(
    cli: &Cli,
    kind: service::imports::Kind,
    file: &std::path::Path,
    target: &str,
    year: Option<i32>,
    reason: Option<String>,
    lang: Lang,
) -> anyhow::Result<()> {
    use crate::graphql::ids::NodeKind;
    let refuse = refused(lang);
    let bytes = std::fs::read(file).map_err(unreadable(lang, file))?;
    let node = match kind {
        service::imports::Kind::Acquisitions => NodeKind::SocialFuelProject,
        service::imports::Kind::CartaItems => NodeKind::FcoCarta,
        service::imports::Kind::MeetingAgenda => NodeKind::ChamberMeeting,
    };
    let Some(id) = target
        .trim()
        .parse::<i64>()
        .ok()
        .or_else(|| crate::graphql::ids::decode_as(target, node))
    else {
        anyhow::bail!(
            "{}",
            say!(
                lang,
                "cli-import-not-an-id",
                option = kind.target_name(),
                value = format!("{target:?}"),
                target = kind.target_name()
            )
        );
    };
    let (db, ing) = database_and_runtime(cli).await?;
    let act = service::lifecycle::Act::by(operator());
    let t = service::imports::Target { kind, id, year, reason };
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (r, received) = service::imports::receive(&db, &ing.ctx.store, &act, &t, &name, bytes)
        .await
        .map_err(refuse)?;
    if received == service::intake::Received::Known {
        eprintln!(
            "{}",
            say!(lang, "cli-import-known", id = r.id, target = kind.target_name())
        );
    }
    let slot = format!("manual:{}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
    crate::runtime::scheduled_import(&ing, &slot)
        .await
        .map_err(|e| anyhow::anyhow!(e))?;
    let r = service::imports::get(&db, r.id).await.map_err(refuse)?;
    println!(
        "{}",
        say!(
            lang,
            "cli-import-done",
            id = r.id,
            kind = kind.slug(),
            target = kind.target_name(),
            target_id = id,
            status = r.status,
            rows = r.rows_read.unwrap_or(0),
            applied = r.rows_applied.unwrap_or(0)
        )
    );
    if let Some(c) = &r.file_error_code {
        println!(
            "  {}",
            service::messages::Message::stored(c, r.file_error_args.as_deref()).render(lang)
        );
    }
    for e in service::imports::errors(&db, r.id).await.map_err(refuse)? {
        println!(
            "  {}",
            row_error(
                lang,
                e.row_number,
                e.column_name.as_deref(),
                &service::messages::Message::stored(&e.message_code, e.message_args.as_deref()).render(lang),
                e.value.as_deref()
            )
        );
    }
    if r.status != "APPLIED" {
        anyhow::bail!("{}", say!(lang, "cli-import-not-applied", id = r.id, status = r.status));
    }
    Ok(())
}

/// A row error as the command prints it: its row, column, message and the value found.
fn row_error(lang: Lang, row: impl ToString, column: Option<&str>, message: &str, value: Option<&str>) -> String {
    let column = column.unwrap_or("-");
    match value.filter(|v| !v.is_empty()) {
        Some(v) => say!(
            lang,
            "cli-row-error-value",
            row = row.to_string(),
            column = column,
            message = message,
            value = v
        ),
        None => say!(
            lang,
            "cli-row-error",
            row = row.to_string(),
            column = column,
            message = message
        ),
    }
}

/// The person at the command line: `SUDO_USER`, `USER` or `LOGNAME`, else `operator`.
pub fn operator() -> service::Caller {
    let user = ["SUDO_USER", "USER", "LOGNAME"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|u| !u.trim().is_empty()))
        .unwrap_or_else(|| "operator".into());
    service::Caller::Operator(user)
}

/// What the audit log records of a command that changes something (`None` for a command that only reads, and for
/// those whose use case records itself: keys, files purge): the command line, a webhook's secret masked.
fn audited_action(cli: &Cli) -> Option<String> {
    match cli.command.as_ref()? {
        Command::Import { .. }
        | Command::Ingest { .. }
        | Command::Rules { .. }
        | Command::Webhooks {
            action: crate::config::WebhooksAction::Add { .. } | crate::config::WebhooksAction::Remove { .. },
        }
        | Command::BankReports {
            action: BankReportsAction::Retry { .. },
        }
        | Command::Jobs {
            action: JobsAction::Run { .. },
        }
        | Command::Migrate { .. }
        | Command::Export { .. } => {
            let what = match cli.command.as_ref()? {
                // The receiver's secret never goes to the log.
                Command::Webhooks {
                    action: crate::config::WebhooksAction::Add { url, .. },
                } => format!("webhooks add {url}"),
                other => format!("{other:?}"),
            };
            Some(format!("cli {what}").chars().take(200).collect())
        }
        _ => None,
    }
}

/// A line of the audit log as `fomento audit` prints it. Every value is escaped (`service::audit::printable`): a
/// line break or a control character in a token's subject or a path cannot forge a line.
pub fn audit_line(l: entity::audit_log::Model) -> String {
    let p = |s: Option<String>| service::audit::printable(&s.unwrap_or_default()).into_owned();
    format!(
        "{:>6}  {}  {}  {}  {}  {}{}  {}",
        l.id,
        l.at.format("%Y-%m-%d %H:%M:%S"),
        p(Some(l.outcome)),
        p(Some(l.actor)),
        p(Some(l.action)),
        p(l.target),
        l.detail.map(|d| format!(" ({})", p(Some(d)))).unwrap_or_default(),
        p(l.remote)
    )
}

/// The `fomento` command: the command line and the configuration file read, the logs started, the command run.
pub async fn main() -> anyhow::Result<()> {
    let cli = Cli::load();
    let _telemetry = crate::telemetry::init(&cli.log, cli.log_format, cli.otlp_endpoint.as_deref())?;
    if let Err(e) = run(cli).await {
        // In the output's language (`erro: …`), not Rust's `Error: …` with the error's debug form.
        eprintln!("{}", say!(output_lang(), "cli-error", message = format!("{e:#}")));
        std::process::exit(1);
    }
    Ok(())
}

/// Runs the command `cli` names (`serve` when none), and records in the audit log a command that changes something,
/// with its outcome.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let audited = audited_action(&cli);
    let url = cli.database_url.clone();
    // On the heap: every subcommand's state in one future is too large for a 2 MiB thread's stack (a test's).
    let outcome = Box::pin(dispatch(cli)).await;
    if let Some(action) = audited
        && let Ok((db, _)) = connect(&url).await
    {
        let code = outcome.as_ref().err().map(|_| "ERROR");
        service::audit::record(&db, &operator(), &action, None, code, &Default::default()).await;
    }
    outcome
}

async fn dispatch(mut cli: Cli) -> anyhow::Result<()> {
    let lease = chrono::Duration::seconds(i64::from(cli.lease_seconds));
    let lang = output_lang();
    let refuse = refused(lang);
    match cli.command.take().unwrap_or(Command::Serve) {
        Command::Serve => {
            let args = cli.serve;
            let mut settings = Settings::new(cli.database_url, args.listen);
            settings.demo = args.demo;
            settings.open_dashboard = args.open_dashboard;
            settings.rate_limit = args.rate_limit;
            settings.request_timeout = std::time::Duration::from_secs(args.request_timeout);
            settings.max_in_flight = args.max_in_flight;
            settings.graph_running = args.graph_running;
            settings.cors_origins = args.cors_origins;
            settings.trusted_proxies = args.trusted_proxies;
            settings.metrics_listen = args.metrics_listen;
            settings.introspection = !args.no_introspection;
            settings.plain_reads = !args.no_plain_reads;
            settings.oidc = match (args.oidc_issuer, args.oidc_client_id, args.oidc_redirect_url) {
                (Some(issuer), Some(client_id), Some(redirect_url)) => Some(service::oidc::OidcSettings {
                    issuer,
                    client_id,
                    client_secret: args.oidc_client_secret.unwrap_or_default(),
                    redirect_url,
                    role_claim: args.jwt_role_claim.clone(),
                    bank_claim: args.jwt_bank_claim.clone(),
                    leeway: args.jwt_leeway,
                }),
                (None, None, None) => None,
                _ => anyhow::bail!("{}", say!(lang, "cli-oidc-together")),
            };
            settings.tokens = args.jwks.map(|jwks| service::tokens::TokenSettings {
                jwks,
                issuer: args.jwt_issuer,
                audience: args.jwt_audience,
                leeway: args.jwt_leeway,
                role_claim: args.jwt_role_claim,
                bank_claim: args.jwt_bank_claim,
            });
            settings.file_store = cli.file_store;
            settings.lease = lease;
            settings.report_attempts = cli.report_attempts;
            settings.max_upload_bytes = cli.max_upload_bytes;
            // The scheduled jobs and the ingestion of uploads, unless left to the worker (`--no-jobs`).
            settings.run_jobs = !args.no_jobs;
            settings.schedules = cli.schedules;
            settings.retain_raw_files = cli.retain_raw_files;
            let app = Application::build(settings).await?;
            if args.no_jobs {
                tracing::info!("no scheduled jobs in this server (--no-jobs): `fomento worker` runs them");
            }
            tracing::info!("serving GraphQL at http://{}:{}/graphql", args.listen.ip(), app.port());
            app.run_until_stopped().await?;
        }
        Command::Worker => {
            let (db, ing) = database_and_runtime(&cli).await?;
            let _metrics = match cli.serve.metrics_listen {
                Some(addr) => Some(crate::startup::serve_metrics(addr, db).await?),
                None => None,
            };
            let mut scheduler = crate::runtime::start_jobs(ing.clone()).await?;
            let names: Vec<&str> = jobs::registry::JOBS.iter().map(|j| j.name).collect();
            tracing::info!("worker running the jobs {names:?}; Ctrl-C or SIGTERM to stop");
            crate::startup::shutdown_signal().await;
            tracing::info!("stopping: no new job starts; waiting for the running ones");
            let _ = tokio::time::timeout(std::time::Duration::from_secs(2), scheduler.shutdown()).await;
            if !crate::runtime::wait_for_running_jobs(&ing, lease.to_std().unwrap_or_default()).await {
                tracing::warn!("a job was still running after the lease; its claim passes to another worker after it");
            }
            tracing::info!("worker stopped");
        }
        Command::Jobs {
            action: JobsAction::Run { job, as_of },
        } => {
            let Some(spec) = jobs::registry::find(&job) else {
                let names: Vec<&str> = jobs::registry::JOBS.iter().map(|j| j.name).collect();
                anyhow::bail!("{}", say!(lang, "cli-unknown-job", job = job, jobs = names.join(", ")));
            };
            let (db, ing) = database_and_runtime(&cli).await?;
            let slot = format!("manual:{}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
            // On SQLite a flag's news goes to this process's own bus only: a running server's subscribers miss it.
            let mut news = service::events::bus().subscribe();
            match crate::runtime::run_job_as_of(&ing, spec, &slot, as_of).await {
                Ok(Some(r)) => {
                    println!("{}", r.message.render(lang));
                    let mut heard = 0;
                    while news.try_recv().is_ok() {
                        heard += 1;
                    }
                    if heard > 0 && sea_orm::ConnectionTrait::get_database_backend(&db) == sea_orm::DbBackend::Sqlite {
                        let note = service::messages::Message::new(service::messages::code::FLAGS_NOT_ANNOUNCED)
                            .arg("count", heard);
                        eprintln!("{}", note.render(lang));
                    }
                }
                Ok(None) => println!("{}", say!(lang, "cli-slot-taken", slot = slot)),
                Err(e) => anyhow::bail!("{}", say!(lang, "cli-job-failed", job = job, reason = e)),
            }
        }
        Command::Jobs {
            action: JobsAction::List,
        } => {
            let db = database(&cli).await?;
            print!(
                "{}",
                crate::runtime::jobs_table(&db, &schedules(&cli)?, chrono::Utc::now(), lang).await?
            );
        }
        Command::Ingest { file, bank, month }
        | Command::Import {
            kind: ImportKind::BankReport { file, bank, month },
        } => {
            let bytes = std::fs::read(&file).map_err(unreadable(lang, &file))?;
            let (db, ing) = database_and_runtime(&cli).await?;
            let b = service::intake::bank_by_code(&db, &bank).await.map_err(refuse)?;
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            eprintln!(
                "{}",
                say!(lang, "cli-storing", file = file.display(), bytes = bytes.len())
            );
            let (r, received) =
                crate::http::reports::receive(&db, &operator(), &ing.ctx.store, &b, &month, &name, bytes).await?;
            let how = match received {
                crate::http::reports::Received::New => "new",
                crate::http::reports::Received::Known => "known",
                crate::http::reports::Received::Requeued => "requeued",
            };
            eprintln!(
                "{}",
                say!(lang, "cli-report-received", id = r.id, how = how, sha256 = r.sha256)
            );
            let started = std::time::Instant::now();
            let slot = format!("manual:{}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
            let bar = crate::runtime::show_progress(ing.ctx.progress.clone(), lang);
            let done = crate::runtime::scheduled_ingest(&ing, &slot).await;
            bar.abort();
            if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                eprintln!();
            }
            done.map_err(|e| anyhow::anyhow!(e))?;
            let r = service::reports::report(&db, &operator(), r.id)
                .await
                .map_err(refuse)?
                .ok_or_else(|| anyhow::anyhow!(say!(lang, "cli-report-vanished", id = r.id)))?;
            let seconds = format!("{:.1}", started.elapsed().as_secs_f64());
            println!(
                "{}",
                say!(
                    lang,
                    "cli-report-done",
                    id = r.id,
                    status = r.status,
                    rows = r.row_count.unwrap_or(0),
                    errors = r.error_count.unwrap_or(0),
                    seconds = if lang == Lang::PtBr {
                        seconds.replace('.', ",")
                    } else {
                        seconds
                    }
                )
            );
            if let Some(e) = r.file_error {
                println!("  {e}");
            }
            for e in service::reports::row_errors(&db, r.id, Some(50))
                .await
                .map_err(refuse)?
            {
                println!(
                    "  {}",
                    row_error(
                        lang,
                        e.row_number,
                        e.column_name.as_deref(),
                        &e.message,
                        e.value.as_deref()
                    )
                );
            }
        }
        Command::BankReports {
            action: BankReportsAction::Retry { number },
        } => {
            let (db, ing) = database_and_runtime(&cli).await?;
            let Some(r) = service::reports::report(&db, &operator(), number)
                .await
                .map_err(refuse)?
            else {
                anyhow::bail!("{}", say!(lang, "cli-no-report", number = number));
            };
            if !service::queue::requeue::<entity::bank_report::Entity>(&db, r.id).await? {
                anyhow::bail!(
                    "{}",
                    say!(lang, "cli-report-not-failed", number = number, status = r.status)
                );
            }
            println!(
                "{}",
                say!(
                    lang,
                    "cli-report-requeued",
                    number = number,
                    reason = r.last_error.unwrap_or_default()
                )
            );
            let slot = format!("manual:{}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
            crate::runtime::scheduled_ingest(&ing, &slot)
                .await
                .map_err(|e| anyhow::anyhow!(e))?;
            let r = service::reports::report(&db, &operator(), number)
                .await
                .map_err(refuse)?
                .ok_or_else(|| anyhow::anyhow!(say!(lang, "cli-report-vanished", id = number)))?;
            println!(
                "{}",
                say!(
                    lang,
                    "cli-report-after-attempt",
                    number = number,
                    status = r.status,
                    attempt = r.attempts
                )
            );
        }
        Command::Export {
            name,
            format,
            out,
            filter,
            semicolon,
            bom,
            as_of,
        } => {
            let db = database(&cli).await?;
            let export = crate::export_request::build(&db, &operator(), &name, filter.as_deref(), as_of, None)
                .await
                .map_err(|e| anyhow::anyhow!(e.to_string()))?;
            let caller = operator();
            let rows = match format.as_str() {
                "csv" => {
                    let file = std::fs::File::create(&out).map_err(|e| {
                        anyhow::anyhow!(say!(lang, "cli-cannot-write", file = out.display(), reason = e))
                    })?;
                    let mut w = std::io::BufWriter::new(file);
                    let style = service::exports::CsvStyle {
                        separator: if semicolon {
                            service::exports::Separator::Semicolon
                        } else {
                            service::exports::Separator::Comma
                        },
                        bom,
                        // Files for scripts: column codes and stored values, as before.
                        wording: service::exports::Wording::Codes,
                    };
                    let n = service::exports::write_csv(&db, &caller, &export, style, &mut w)
                        .await
                        .map_err(refuse)?;
                    std::io::Write::flush(&mut w)?;
                    n
                }
                "xlsx" => {
                    service::exports::write_xlsx(&db, &caller, &export, &out, None, service::exports::Wording::Codes)
                        .await
                        .map_err(refuse)?
                }
                other => anyhow::bail!("{}", say!(lang, "cli-export-format", format = other)),
            };
            println!(
                "{}",
                say!(lang, "cli-export-done", rows = rows, name = name, file = out.display())
            );
        }
        Command::Webhooks { action } => {
            let db = database(&cli).await?;
            let system = operator();
            match action {
                WebhooksAction::Add {
                    url,
                    secret,
                    programme,
                    bank,
                    events,
                    lang: receiver_lang,
                } => {
                    let w = service::webhooks::NewWebhook {
                        url,
                        secret,
                        programme,
                        bank_code: bank,
                        events,
                        lang: receiver_lang,
                    };
                    let w = service::webhooks::add(&db, &system, chrono::Utc::now(), w)
                        .await
                        .map_err(refuse)?;
                    println!(
                        "{}",
                        say!(lang, "cli-webhook-added", id = w.id, line = webhook_line(&w, lang))
                    );
                }
                WebhooksAction::List => {
                    for w in service::webhooks::list(&db).await.map_err(refuse)? {
                        println!("{:>4}  {}", w.id, webhook_line(&w, lang));
                    }
                }
                WebhooksAction::Remove { number } => {
                    let w = service::webhooks::remove(&db, &system, chrono::Utc::now(), number)
                        .await
                        .map_err(refuse)?;
                    println!("{}", say!(lang, "cli-webhook-removed", id = w.id, url = w.url));
                }
            }
        }
        Command::Audit { limit } => {
            let db = database(&cli).await?;
            for l in service::audit::list(&db, &operator(), None, limit)
                .await
                .map_err(refuse)?
            {
                println!("{}", audit_line(l));
            }
        }
        Command::Files {
            action: FilesAction::Purge { before },
        } => {
            let (db, ing) = database_and_runtime(&cli).await?;
            let p = service::files::purge(&db, &ing.ctx.store, &operator(), before, chrono::Utc::now())
                .await
                .map_err(refuse)?;
            println!(
                "{}",
                say!(
                    lang,
                    "cli-purged",
                    before = before,
                    files = p.files,
                    reports = p.reports,
                    imports = p.imports,
                    kept = p.kept_for_later
                )
            );
        }
        Command::Keys { action } => {
            let db = database(&cli).await?;
            let system = operator();
            match action {
                KeysAction::Create { role, bank, name, rate } => {
                    let k =
                        service::keys::create(&db, &system, &role, bank.as_deref(), &name, rate, chrono::Utc::now())
                            .await
                            .map_err(refuse)?;
                    println!(
                        "{}",
                        say!(lang, "cli-key-created", id = k.key.id, line = key_line(&k.key, lang))
                    );
                    println!("{}", k.secret);
                }
                KeysAction::List => {
                    for k in service::keys::list(&db, &system).await.map_err(refuse)? {
                        println!("{:>4}  {}", k.id, key_line(&k, lang));
                    }
                }
                KeysAction::Revoke { key } => {
                    let k = service::keys::revoke(&db, &system, &key, chrono::Utc::now())
                        .await
                        .map_err(refuse)?;
                    println!(
                        "{}",
                        say!(lang, "cli-key-revoked", id = k.id, line = key_line(&k, lang))
                    );
                }
            }
        }
        Command::Migrate { action } => {
            let (db, _) = connect(&cli.database_url).await?;
            for line in migrate(&db, action).await? {
                println!("{line}");
            }
        }
        Command::Rules {
            action: RulesAction::Import { file },
        }
        | Command::Import {
            kind: ImportKind::RuleParameters { file },
        } => {
            let text = std::fs::read_to_string(&file).map_err(unreadable(lang, &file))?;
            let db = database(&cli).await?;
            match crate::rules_import::import(&db, &text).await {
                Ok(n) => println!(
                    "{}",
                    say!(lang, "cli-parameters-added", count = n, file = file.display())
                ),
                Err(problems) => {
                    for p in &problems {
                        eprintln!("{}: {p}", file.display());
                    }
                    anyhow::bail!("{}", say!(lang, "cli-nothing-imported", count = problems.len()));
                }
            }
        }
        Command::Import {
            kind:
                ImportKind::SemiArid {
                    file,
                    effective_from,
                    source,
                },
        } => {
            let text = std::fs::read_to_string(&file).map_err(unreadable(lang, &file))?;
            let db = database(&cli).await?;
            let done = service::semi_arid::import(&db, &text, effective_from, &source)
                .await
                .map_err(refuse)?;
            let count = done.municipalities;
            let line = match done.effective_to {
                Some(to) => say!(
                    lang,
                    "cli-semi-arid-to",
                    count = count,
                    source = source,
                    from = done.effective_from,
                    to = to
                ),
                None => say!(
                    lang,
                    "cli-semi-arid",
                    count = count,
                    source = source,
                    from = done.effective_from
                ),
            };
            let closed = if done.closed.is_empty() {
                String::new()
            } else {
                say!(lang, "cli-semi-arid-closed", closed = done.closed.join(", "))
            };
            println!("{line}{closed}");
        }
        Command::Import {
            kind:
                ImportKind::Acquisitions {
                    file,
                    project,
                    year,
                    reason,
                },
        } => {
            import_facts(
                &cli,
                service::imports::Kind::Acquisitions,
                &file,
                &project,
                Some(year),
                reason,
                lang,
            )
            .await?
        }
        Command::Import {
            kind: ImportKind::CartaItems { file, carta, reason },
        } => {
            import_facts(
                &cli,
                service::imports::Kind::CartaItems,
                &file,
                &carta,
                None,
                reason,
                lang,
            )
            .await?
        }
        Command::Import {
            kind: ImportKind::MeetingAgenda { file, meeting },
        } => {
            import_facts(
                &cli,
                service::imports::Kind::MeetingAgenda,
                &file,
                &meeting,
                None,
                None,
                lang,
            )
            .await?
        }
        Command::Schema => print!("{}", crate::graphql::sdl()),
    }
    Ok(())
}

/// A key in a listing: prefix, role, bank, name, state.
fn key_line(k: &entity::api_key::Model, lang: Lang) -> String {
    say!(
        lang,
        "cli-key-line",
        prefix = k.prefix,
        role = k.role,
        bank = k
            .bank_id
            .map(|b| say!(lang, "cli-key-bank", bank = b))
            .unwrap_or_default(),
        name = format!("{:?}", k.name),
        rate = k.rate_per_second.map(|r| format!("  {r}/s")).unwrap_or_default(),
        state = k.revoked_at.map_or_else(
            || say!(lang, "cli-key-active"),
            |t| say!(lang, "cli-key-revoked-at", at = t)
        ),
    )
}
