//! The `fomento` command's subcommands: each connects what it needs and calls the service layer or the runtime;
//! `main.rs` only parses the command line and calls [`run`].
//!
//! Size: one function per subcommand, each a few lines of connecting and printing, kept in one place so that they read
//! alike.

use crate::{
    config::{
        BankReportsAction, Cli, Command, FilesAction, ImportKind, JobsAction, KeysAction, RulesAction, WebhooksAction,
    },
    startup::{Application, Settings, connect, ingestion, migrate, migrate_up},
};

/// A service error for the operator, in English.
/// One receiver, for `fomento webhooks add` and `list`.
fn webhook_line(w: &entity::webhook::Model) -> String {
    format!(
        "{} programme={} bank={} events={} lang={}{}",
        w.url,
        w.programme.as_deref().unwrap_or("any"),
        w.bank_id.map_or_else(|| "any".to_owned(), |b| format!("#{b}")),
        if w.events.is_empty() { "all" } else { &w.events },
        w.lang.as_deref().unwrap_or("pt-BR"),
        if w.removed_at.is_some() { " (removed)" } else { "" }
    )
}

fn english(e: service::ServiceError) -> anyhow::Error {
    anyhow::anyhow!(in_english(&e))
}

/// A service error in English, naming its field first.
pub(crate) fn in_english(e: &service::ServiceError) -> String {
    match e.field() {
        Some(f) => format!("{f}: {}", e.render(service::messages::Lang::En)),
        None => e.render(service::messages::Lang::En),
    }
}

/// The database of `cli`, connected and migrated.
async fn database(cli: &Cli) -> anyhow::Result<service::Db> {
    let (db, _) = connect(&cli.database_url).await?;
    migrate_up(&db).await?;
    Ok(db)
}

/// The database of `cli`, connected and migrated, and the ingestion runtime over it.
async fn database_and_ingestion(cli: &Cli) -> anyhow::Result<(service::Db, crate::runtime::Ingestion)> {
    let db = database(cli).await?;
    let lease = chrono::Duration::seconds(i64::from(cli.lease_seconds));
    let mut ing = ingestion(
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
) -> anyhow::Result<()> {
    use crate::graphql::ids::NodeKind;
    let bytes = std::fs::read(file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
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
            "--{}: {target:?} is neither a number nor {} ID",
            kind.target_name(),
            node.noun()
        );
    };
    let (db, ing) = database_and_ingestion(cli).await?;
    let act = service::lifecycle::Act::by(operator());
    let t = service::imports::Target { kind, id, year, reason };
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (r, received) = service::imports::receive(&db, &ing.ctx.store, &act, &t, &name, bytes)
        .await
        .map_err(english)?;
    if received == service::intake::Received::Known {
        eprintln!(
            "import {}: these bytes were already received for this {}",
            r.id,
            kind.target_name()
        );
    }
    let slot = format!("manual:{}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
    crate::runtime::scheduled_import(&ing, &slot)
        .await
        .map_err(|e| anyhow::anyhow!(e))?;
    let r = service::imports::get(&db, r.id).await.map_err(english)?;
    println!(
        "import {} ({} for {} {}): {} — {} rows read, {} applied",
        r.id,
        kind.slug(),
        kind.target_name(),
        id,
        r.status,
        r.rows_read.unwrap_or(0),
        r.rows_applied.unwrap_or(0)
    );
    let en = service::messages::Lang::En;
    if let Some(c) = &r.file_error_code {
        println!(
            "  {}",
            service::messages::Message::stored(c, r.file_error_args.as_deref()).render(en)
        );
    }
    for e in service::imports::errors(&db, r.id).await.map_err(english)? {
        println!(
            "  row {}, {}: {}{}",
            e.row_number,
            e.column_name.as_deref().unwrap_or("-"),
            service::messages::Message::stored(&e.message_code, e.message_args.as_deref()).render(en),
            e.value.map(|v| format!(" ({v})")).unwrap_or_default()
        );
    }
    if r.status != "APPLIED" {
        anyhow::bail!("import {} is {}: nothing was applied", r.id, r.status);
    }
    Ok(())
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
    run(cli).await
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
                _ => anyhow::bail!("--oidc-issuer, --oidc-client-id and --oidc-redirect-url go together"),
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
            let (db, ing) = database_and_ingestion(&cli).await?;
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
                anyhow::bail!("unknown job {job:?}; the jobs are: {}", names.join(", "));
            };
            let (db, ing) = database_and_ingestion(&cli).await?;
            let slot = format!("manual:{}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
            // On SQLite a flag's news goes to this process's own bus only: a running server's subscribers miss it.
            let mut news = service::events::bus().subscribe();
            match crate::runtime::run_job_as_of(&ing, spec, &slot, as_of).await {
                Ok(Some(r)) => {
                    println!("{}", r.message);
                    let mut heard = 0;
                    while news.try_recv().is_ok() {
                        heard += 1;
                    }
                    if heard > 0 && sea_orm::ConnectionTrait::get_database_backend(&db) == sea_orm::DbBackend::Sqlite {
                        let note = service::messages::Message::new(service::messages::code::FLAGS_NOT_ANNOUNCED)
                            .arg("count", heard);
                        eprintln!("{}", note.render(service::messages::Lang::En));
                    }
                }
                Ok(None) => println!("another process holds slot {slot}"),
                Err(e) => anyhow::bail!("{job} failed: {e}"),
            }
        }
        Command::Jobs {
            action: JobsAction::List,
        } => {
            let db = database(&cli).await?;
            print!(
                "{}",
                crate::runtime::jobs_table(&db, &schedules(&cli)?, chrono::Utc::now()).await?
            );
        }
        Command::Ingest { file, bank, month }
        | Command::Import {
            kind: ImportKind::BankReport { file, bank, month },
        } => {
            let bytes = std::fs::read(&file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
            let (db, ing) = database_and_ingestion(&cli).await?;
            let b = service::intake::bank_by_code(&db, &bank).await.map_err(english)?;
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            eprintln!("storing {} ({} bytes)…", file.display(), bytes.len());
            let (r, received) =
                crate::http::reports::receive(&db, &operator(), &ing.ctx.store, &b, &month, &name, bytes).await?;
            eprintln!(
                "report {} {} ({}); ingesting…",
                r.id,
                match received {
                    crate::http::reports::Received::New => "received",
                    crate::http::reports::Received::Known => "already received",
                    crate::http::reports::Received::Requeued => "already received, had FAILED: queued again",
                },
                r.sha256
            );
            let started = std::time::Instant::now();
            let slot = format!("manual:{}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
            let bar = crate::runtime::show_progress(ing.ctx.progress.clone());
            let done = crate::runtime::scheduled_ingest(&ing, &slot).await;
            bar.abort();
            if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                eprintln!();
            }
            done.map_err(|e| anyhow::anyhow!(e))?;
            let r = service::reports::report(&db, &operator(), r.id)
                .await
                .map_err(english)?
                .ok_or_else(|| anyhow::anyhow!("report vanished"))?;
            println!(
                "report {}: {} — {} rows, {} errors in {:.1} s",
                r.id,
                r.status,
                r.row_count.unwrap_or(0),
                r.error_count.unwrap_or(0),
                started.elapsed().as_secs_f64()
            );
            if let Some(e) = r.file_error {
                println!("  {e}");
            }
            for e in service::reports::row_errors(&db, r.id, Some(50))
                .await
                .map_err(english)?
            {
                println!(
                    "  row {}, {}: {} ({})",
                    e.row_number,
                    e.column_name.as_deref().unwrap_or("-"),
                    e.message,
                    e.value.as_deref().unwrap_or("")
                );
            }
        }
        Command::BankReports {
            action: BankReportsAction::Retry { number },
        } => {
            let (db, ing) = database_and_ingestion(&cli).await?;
            let Some(r) = service::reports::report(&db, &operator(), number)
                .await
                .map_err(english)?
            else {
                anyhow::bail!("no bank report {number}");
            };
            if !service::intake::requeue(&db, r.id).await? {
                anyhow::bail!("bank report {number} is {}, not FAILED: nothing to retry", r.status);
            }
            println!(
                "bank report {number} queued again (it was FAILED: {})",
                r.last_error.unwrap_or_default()
            );
            let slot = format!("manual:{}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
            crate::runtime::scheduled_ingest(&ing, &slot)
                .await
                .map_err(|e| anyhow::anyhow!(e))?;
            let r = service::reports::report(&db, &operator(), number)
                .await
                .map_err(english)?
                .ok_or_else(|| anyhow::anyhow!("report vanished"))?;
            println!("bank report {number}: {} after attempt {}", r.status, r.attempts);
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
            let export = crate::exports::build(&db, &operator(), &name, filter.as_deref(), as_of, None)
                .await
                .map_err(|e| anyhow::anyhow!(e.to_string()))?;
            let caller = operator();
            let rows = match format.as_str() {
                "csv" => {
                    let file = std::fs::File::create(&out)
                        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
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
                        .map_err(english)?;
                    std::io::Write::flush(&mut w)?;
                    n
                }
                "xlsx" => {
                    service::exports::write_xlsx(&db, &caller, &export, &out, None, service::exports::Wording::Codes)
                        .await
                        .map_err(english)?
                }
                other => anyhow::bail!("--format {other:?}: write csv or xlsx"),
            };
            println!("{rows} rows of {name} written to {}", out.display());
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
                    lang,
                } => {
                    let w = service::webhooks::NewWebhook {
                        url,
                        secret,
                        programme,
                        bank_code: bank,
                        events,
                        lang,
                    };
                    let w = service::webhooks::add(&db, &system, chrono::Utc::now(), w)
                        .await
                        .map_err(english)?;
                    println!("webhook {} added: {}", w.id, webhook_line(&w));
                }
                WebhooksAction::List => {
                    for w in service::webhooks::list(&db).await.map_err(english)? {
                        println!("{:>4}  {}", w.id, webhook_line(&w));
                    }
                }
                WebhooksAction::Remove { number } => {
                    let w = service::webhooks::remove(&db, &system, chrono::Utc::now(), number)
                        .await
                        .map_err(english)?;
                    println!("webhook {} removed: {}", w.id, w.url);
                }
            }
        }
        Command::Audit { limit } => {
            let db = database(&cli).await?;
            for l in service::audit::list(&db, &operator(), None, limit)
                .await
                .map_err(english)?
            {
                println!("{}", audit_line(l));
            }
        }
        Command::Files {
            action: FilesAction::Purge { before },
        } => {
            let (db, ing) = database_and_ingestion(&cli).await?;
            let p = service::files::purge(&db, &ing.ctx.store, &operator(), before, chrono::Utc::now())
                .await
                .map_err(english)?;
            println!(
                "raw files received before {before} purged: {} files ({} reports, {} imports); {} kept for a later upload",
                p.files, p.reports, p.imports, p.kept_for_later
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
                            .map_err(english)?;
                    println!("key {} created: {}; it is shown only now:", k.key.id, key_line(&k.key));
                    println!("{}", k.secret);
                }
                KeysAction::List => {
                    for k in service::keys::list(&db, &system).await.map_err(english)? {
                        println!("{:>4}  {}", k.id, key_line(&k));
                    }
                }
                KeysAction::Revoke { key } => {
                    let k = service::keys::revoke(&db, &system, &key, chrono::Utc::now())
                        .await
                        .map_err(english)?;
                    println!("key {} revoked: {}", k.id, key_line(&k));
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
            let text =
                std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
            let db = database(&cli).await?;
            match crate::rules_import::import(&db, &text).await {
                Ok(n) => println!("{n} parameter versions added from {}", file.display()),
                Err(problems) => {
                    for p in &problems {
                        eprintln!("{}: {p}", file.display());
                    }
                    anyhow::bail!("nothing imported: {} problem(s)", problems.len());
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
            let text =
                std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
            let db = database(&cli).await?;
            let done = service::semi_arid::import(&db, &text, effective_from, &source)
                .await
                .map_err(english)?;
            println!(
                "{} municipalities of the semi-arid by {source}, in force from {}{}{}",
                done.municipalities,
                done.effective_from,
                done.effective_to.map(|t| format!(" to {t}")).unwrap_or_default(),
                if done.closed.is_empty() {
                    String::new()
                } else {
                    format!("; closed the day before: {}", done.closed.join(", "))
                }
            );
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
            )
            .await?
        }
        Command::Import {
            kind: ImportKind::CartaItems { file, carta, reason },
        } => import_facts(&cli, service::imports::Kind::CartaItems, &file, &carta, None, reason).await?,
        Command::Import {
            kind: ImportKind::MeetingAgenda { file, meeting },
        } => import_facts(&cli, service::imports::Kind::MeetingAgenda, &file, &meeting, None, None).await?,
        Command::Schema => print!("{}", crate::graphql::sdl()),
    }
    Ok(())
}

/// A key in a listing: prefix, role, bank, name, state.
fn key_line(k: &entity::api_key::Model) -> String {
    format!(
        "{}…  {}{}  {:?}{}  {}",
        k.prefix,
        k.role,
        k.bank_id.map(|b| format!(" (bank {b})")).unwrap_or_default(),
        k.name,
        k.rate_per_second.map(|r| format!("  {r}/s")).unwrap_or_default(),
        k.revoked_at
            .map_or_else(|| "active".to_owned(), |t| format!("revoked {t}"))
    )
}
