//! The `fomento` command: parse the configuration, then serve, run jobs, ingest, migrate or print the schema.

use clap::Parser;
use fomento_api::{
    config::{BankReportsAction, Cli, Command, JobsAction, RulesAction},
    startup::{Application, Settings, connect, ingestion, migrate, migrate_up},
};

/// The database of `cli`, connected and migrated.
async fn database(cli: &Cli) -> anyhow::Result<sea_orm::DatabaseConnection> {
    let (db, _) = connect(&cli.database_url).await?;
    migrate_up(&db).await?;
    Ok(db)
}

/// The database of `cli`, connected and migrated, and the ingestion runtime over it.
async fn database_and_ingestion(
    cli: &Cli,
) -> anyhow::Result<(sea_orm::DatabaseConnection, fomento_api::runtime::Ingestion)> {
    let db = database(cli).await?;
    let lease = chrono::Duration::seconds(i64::from(cli.lease_seconds));
    let ing = ingestion(
        db.clone(),
        &cli.file_store,
        lease,
        cli.report_attempts,
        cli.max_upload_bytes,
    )?;
    Ok((db, ing))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut cli = Cli::parse();
    fomento_api::telemetry::init(&cli.log, cli.log_format)?;
    let lease = chrono::Duration::seconds(i64::from(cli.lease_seconds));
    match cli.command.take().unwrap_or(Command::Serve) {
        Command::Serve => {
            let args = cli.serve;
            let mut settings = Settings::new(cli.database_url, args.listen);
            settings.demo = args.demo;
            settings.file_store = cli.file_store;
            settings.lease = lease;
            settings.report_attempts = cli.report_attempts;
            settings.max_upload_bytes = cli.max_upload_bytes;
            settings.run_jobs = true;
            let app = Application::build(settings).await?;
            tracing::info!("serving GraphQL at http://{}:{}/graphql", args.listen.ip(), app.port());
            app.run_until_stopped().await?;
        }
        Command::Worker => {
            let (_, ing) = database_and_ingestion(&cli).await?;
            let mut scheduler = fomento_api::runtime::start_jobs(ing.clone()).await?;
            let names: Vec<&str> = jobs::registry::JOBS.iter().map(|j| j.name).collect();
            tracing::info!("worker running the jobs {names:?}; Ctrl-C or SIGTERM to stop");
            fomento_api::startup::shutdown_signal().await;
            tracing::info!("stopping: no new job starts; waiting for the running ones");
            let _ = tokio::time::timeout(std::time::Duration::from_secs(2), scheduler.shutdown()).await;
            if !fomento_api::runtime::wait_for_running_jobs(&ing, lease.to_std().unwrap_or_default()).await {
                tracing::warn!("a job was still running after the lease; its claim passes to another worker after it");
            }
            tracing::info!("worker stopped");
        }
        Command::Jobs {
            action: JobsAction::Run { job },
        } => {
            let Some(spec) = jobs::registry::find(&job) else {
                let names: Vec<&str> = jobs::registry::JOBS.iter().map(|j| j.name).collect();
                anyhow::bail!("unknown job {job:?}; the jobs are: {}", names.join(", "));
            };
            let (_, ing) = database_and_ingestion(&cli).await?;
            let slot = format!("manual:{}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
            match fomento_api::runtime::run_job(&ing, spec, &slot).await {
                Ok(Some(r)) => println!("{}", r.message),
                Ok(None) => println!("another process holds slot {slot}"),
                Err(e) => anyhow::bail!("{job} failed: {e}"),
            }
        }
        Command::Jobs {
            action: JobsAction::List,
        } => {
            let db = database(&cli).await?;
            print!("{}", fomento_api::runtime::jobs_table(&db, chrono::Utc::now()).await?);
        }
        Command::Ingest { file, bank, month } => {
            let bytes = std::fs::read(&file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
            let (db, ing) = database_and_ingestion(&cli).await?;
            use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
            let b = entity::bank::Entity::find()
                .filter(entity::bank::Column::Code.eq(bank.to_uppercase()))
                .one(&db)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no bank with code {bank:?}"))?;
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            eprintln!("storing {} ({} bytes)…", file.display(), bytes.len());
            let (r, received) =
                fomento_api::http::reports::receive(&db, &ing.ctx.store, &b, &month, &name, bytes).await?;
            eprintln!(
                "report {} {} ({}); ingesting…",
                r.id,
                match received {
                    fomento_api::http::reports::Received::New => "received",
                    fomento_api::http::reports::Received::Known => "already received",
                    fomento_api::http::reports::Received::Requeued => "already received, had FAILED: queued again",
                },
                r.sha256
            );
            let started = std::time::Instant::now();
            let slot = format!("manual:{}", chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
            let bar = fomento_api::runtime::show_progress(ing.ctx.progress.clone());
            let done = fomento_api::runtime::scheduled_ingest(&ing, &slot).await;
            bar.abort();
            if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                eprintln!();
            }
            done.map_err(|e| anyhow::anyhow!(e))?;
            let r = entity::bank_report::Entity::find_by_id(r.id)
                .one(&db)
                .await?
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
            for e in entity::bank_report_error::Entity::find()
                .filter(entity::bank_report_error::Column::ReportId.eq(r.id))
                .all(&db)
                .await?
                .iter()
                .take(50)
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
            use sea_orm::EntityTrait;
            let (db, ing) = database_and_ingestion(&cli).await?;
            let Some(r) = entity::bank_report::Entity::find_by_id(number).one(&db).await? else {
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
            fomento_api::runtime::scheduled_ingest(&ing, &slot)
                .await
                .map_err(|e| anyhow::anyhow!(e))?;
            let r = entity::bank_report::Entity::find_by_id(number)
                .one(&db)
                .await?
                .ok_or_else(|| anyhow::anyhow!("report vanished"))?;
            println!("bank report {number}: {} after attempt {}", r.status, r.attempts);
        }
        Command::Migrate { action } => {
            let (db, _) = connect(&cli.database_url).await?;
            for line in migrate(&db, action).await? {
                println!("{line}");
            }
        }
        Command::Rules {
            action: RulesAction::Import { file },
        } => {
            let text =
                std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
            let db = database(&cli).await?;
            match fomento_api::rules_import::import(&db, &text).await {
                Ok(n) => println!("{n} parameter versions added from {}", file.display()),
                Err(problems) => {
                    for p in &problems {
                        eprintln!("{}: {p}", file.display());
                    }
                    anyhow::bail!("nothing imported: {} problem(s)", problems.len());
                }
            }
        }
        Command::Schema => print!("{}", fomento_api::graphql::sdl()),
    }
    Ok(())
}
