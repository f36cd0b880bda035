//! The jobs in this process: the ingestion's runtime (context, wake-up after uploads), the scheduler over the job
//! registry, `fomento jobs list`, and `fomento ingest`'s progress bar.

use chrono::Utc;
use jobs::{
    report::ingest::{self, UploadContext},
    runs,
};
use std::sync::Arc;
use tokio::sync::Notify;
use tracing::Instrument;

/// The jobs' runtime in this process, shared by the HTTP layer and the scheduler: the ingestion's context, its wake-up,
/// the running jobs' lock and the schedules.
#[derive(Clone, Debug)]
pub struct JobsRuntime {
    /// The job's context.
    pub ctx: UploadContext,
    /// Wakes the background worker after an upload.
    pub wake: Arc<Notify>,
    /// Held (shared) by every job run in this process; taken whole on shutdown, to wait for them.
    pub running: Arc<tokio::sync::RwLock<()>>,
    /// When each job runs (the registry's defaults, or `--schedule` overrides).
    pub schedules: Arc<jobs::registry::Schedules>,
    /// How long raw uploaded files are kept (`--retain-raw-files`).
    pub retain_raw_files: service::files::Retention,
}

/// One run of `job` in `slot`: once per slot across every process sharing the database (the `job_run` row's unique
/// key), recorded with how it ended.
pub async fn run_job(
    runtime: &JobsRuntime,
    job: &jobs::registry::JobSpec,
    slot: &str,
) -> Result<Option<runs::JobReport>, String> {
    run_job_as_of(runtime, job, slot, None).await
}

/// [`run_job`], judging as of `as_of` (for `fomento jobs run flag-deadlines --as-of DATE`).
pub async fn run_job_as_of(
    runtime: &JobsRuntime,
    job: &jobs::registry::JobSpec,
    slot: &str,
    as_of: Option<chrono::NaiveDate>,
) -> Result<Option<runs::JobReport>, String> {
    let now = Utc::now();
    let db = &runtime.ctx.db;
    let Some(run) = runs::start(db, job.name, slot, &runtime.ctx.worker, now)
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(None);
    };
    let _running = runtime.running.read().await;
    let ctx = jobs::registry::JobContext {
        uploads: runtime.ctx.clone(),
        as_of,
        retain_raw_files: runtime.retain_raw_files,
    };
    // Each run is a trace of its own: its log lines carry its trace id, and what it sends out (a webhook) carries it.
    let span = tracing::info_span!("job", trace_id = tracing::field::Empty, job = job.name, slot);
    let trace = crate::telemetry::trace_context(&span, None);
    let started = std::time::Instant::now();
    let outcome = service::trace::within(trace, async {
        let outcome = job.run_once(&ctx, now).await.map_err(|e| e.to_string());
        // One line for a run that did something or failed (an idle run every minute would be noise).
        match &outcome {
            Ok(r) if r.processed > 0 || r.failed > 0 => tracing::info!(
                processed = r.processed,
                failed = r.failed,
                seconds = started.elapsed().as_secs_f64(),
                "{}",
                r.message.render(service::messages::Lang::En)
            ),
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "job failed"),
        }
        outcome
    })
    .instrument(span)
    .await;
    crate::metrics::job_run(job.name, outcome.is_ok(), started.elapsed());
    let _ = runs::finish(db, run, &outcome, Utc::now()).await;
    outcome.map(Some)
}

/// One run of the ingestion in `slot` (after an upload, or `fomento ingest`).
pub async fn scheduled_ingest(runtime: &JobsRuntime, slot: &str) -> Result<Option<runs::JobReport>, String> {
    let job = jobs::registry::find(ingest::JOB).ok_or("the ingestion job is not registered")?;
    run_job(runtime, job, slot).await
}

/// One run of the import job in `slot` (after an upload, or `fomento import`).
pub async fn scheduled_import(runtime: &JobsRuntime, slot: &str) -> Result<Option<runs::JobReport>, String> {
    let job = jobs::registry::find(jobs::import::JOB).ok_or("the import job is not registered")?;
    run_job(runtime, job, slot).await
}

/// Starts the scheduler with every job of the registry on its schedule, and the ingestion woken by uploads; returns
/// the scheduler to keep it alive.
pub async fn start_jobs(
    runtime: JobsRuntime,
) -> Result<tokio_cron_scheduler::JobScheduler, tokio_cron_scheduler::JobSchedulerError> {
    let sched = tokio_cron_scheduler::JobScheduler::new().await?;
    for job in jobs::registry::JOBS {
        let runtime = runtime.clone();
        let schedule = runtime.schedules.of(job);
        sched
            .add(tokio_cron_scheduler::Job::new_async_tz(
                schedule.cron.as_str(),
                schedule.zone,
                move |_, _| {
                    let runtime = runtime.clone();
                    Box::pin(async move {
                        // The run writes its own line (`run_job`).
                        let slot = runs::minute_slot(Utc::now());
                        let _ = run_job(&runtime, job, &slot).await;
                    })
                },
            )?)
            .await?;
    }
    sched.start().await?;
    let wake = runtime.wake.clone();
    tokio::spawn(async move {
        loop {
            wake.notified().await;
            let slot = format!("upload:{}", Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
            // Each run writes its own line, failures included (`run_job`).
            let _ = scheduled_ingest(&runtime, &slot).await;
            let _ = scheduled_import(&runtime, &slot).await;
        }
    });
    Ok(sched)
}

/// `fomento jobs list`: each job's name, schedule, time zone, last run (when and how it ended) and next run, times on
/// Brasília's clock, and what it does.
pub async fn jobs_table(
    db: &sea_orm::DatabaseConnection,
    schedules: &jobs::registry::Schedules,
    now: chrono::DateTime<Utc>,
    lang: service::messages::Lang,
) -> Result<String, sea_orm::DbErr> {
    use entity::domain::Authority;
    let word = |id: &str| service::l10n::text(id, &[], lang);
    let w = jobs::registry::JOBS.iter().map(|j| j.name.len()).max().unwrap_or(3);
    let mut out = format!(
        "{:<w$} {:<14} {:<18} {:<36} {:<26}\n",
        word("cli-jobs-job"),
        word("cli-jobs-schedule"),
        word("cli-jobs-zone"),
        word("cli-jobs-last"),
        word("cli-jobs-next")
    );
    for j in jobs::registry::JOBS {
        let last = runs::last(db, j.name).await?.map_or_else(
            || word("cli-jobs-never"),
            |r| format!("{} {}", Authority::Mda.show(r.started_at), r.status),
        );
        let schedule = schedules.of(j);
        let next = schedule
            .next_run(now)
            .map_or_else(|| "-".to_owned(), |t| Authority::Mda.show(t));
        out.push_str(&format!(
            "{:<w$} {:<14} {:<18} {:<36} {:<26}\n{:w$} {}\n",
            j.name,
            schedule.cron,
            schedule.zone.name(),
            last,
            next,
            "",
            service::l10n::render(&format!("cli-job-{}", j.name), [], lang).unwrap_or_else(|| j.about.to_owned())
        ));
    }
    Ok(out)
}

/// Waits for the jobs running in this process to finish (a job holds its claim until it commits or fails), at most
/// `limit`; true when none is left running.
pub async fn wait_for_running_jobs(runtime: &JobsRuntime, limit: std::time::Duration) -> bool {
    tokio::time::timeout(limit, runtime.running.write()).await.is_ok()
}

/// One line of `fomento ingest`'s progress bar: a bar and a percentage when the sheet says how many rows it has, the
/// rows read and the rate.
pub fn progress_line(rows: u64, expected: u64, elapsed: std::time::Duration, lang: service::messages::Lang) -> String {
    const WIDTH: u64 = 30;
    let thousands = |n: u64| service::l10n::number(rust_decimal::Decimal::from(n), lang);
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { (rows as f64 / secs) as u64 } else { 0 };
    let rate = service::l10n::text("cli-per-second", &[("rate", thousands(rate))], lang);
    // Unknown, or a sheet whose dimension said less than it holds: no bar rather than a wrong one.
    if expected == 0 || rows > expected {
        return progress_text(lang, None, &thousands(rows), "", &rate);
    }
    let filled = rows * WIDTH / expected;
    let bar = format!(
        "[{}{}] {:>3}",
        "#".repeat(filled as usize),
        "-".repeat((WIDTH - filled) as usize),
        rows * 100 / expected
    );
    progress_text(lang, Some(&bar), &thousands(rows), &thousands(expected), &rate)
}

/// The words of a progress line in `lang` around its values (the bar and percentage, when known, the rows read, of
/// how many, and the rate): [`progress_line`]'s, and the terminal bar's template.
fn progress_text(lang: service::messages::Lang, bar: Option<&str>, rows: &str, total: &str, rate: &str) -> String {
    let own = |v: &str| v.to_owned();
    match bar {
        Some(bar) => service::l10n::text(
            "cli-progress",
            &[
                ("bar", own(bar)),
                ("rows", own(rows)),
                ("total", own(total)),
                ("rate", own(rate)),
            ],
            lang,
        ),
        None => service::l10n::text(
            "cli-progress-unknown",
            &[("rows", own(rows)), ("rate", own(rate))],
            lang,
        ),
    }
}

/// Draws the progress of the report being read on standard error until aborted: an `indicatif` bar redrawn in
/// place on a terminal, a [`progress_line`] every ten seconds otherwise (a log file gets no control codes).
pub fn show_progress(
    progress: Arc<jobs::report::read::Progress>,
    lang: service::messages::Lang,
) -> tokio::task::JoinHandle<()> {
    use std::io::IsTerminal;
    tokio::spawn(async move {
        let started = std::time::Instant::now();
        if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
            let known = progress_text(
                lang,
                Some("[{bar:30}] {percent:>3}"),
                "{human_pos}",
                "{human_len}",
                "{per_sec}",
            );
            let known = indicatif::ProgressStyle::with_template(&known)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("#>-");
            let unknown = progress_text(lang, None, "{human_pos}", "", "{per_sec}");
            let unknown = indicatif::ProgressStyle::with_template(&unknown)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner());
            loop {
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                let (rows, expected) = progress.get();
                // Unknown, or a sheet whose dimension said less than it holds: no bar rather than a wrong one.
                if expected == 0 || rows > expected {
                    bar.set_style(unknown.clone());
                    bar.unset_length();
                } else {
                    bar.set_style(known.clone());
                    bar.set_length(expected);
                }
                bar.set_position(rows);
            }
        } else {
            let mut printed = std::time::Instant::now();
            loop {
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                if printed.elapsed() >= std::time::Duration::from_secs(10) {
                    let (rows, expected) = progress.get();
                    eprintln!("{}", progress_line(rows, expected, started.elapsed(), lang));
                    printed = std::time::Instant::now();
                }
            }
        }
    })
}

/// Forwards PostgreSQL's notifications to this process: flag events (`LISTEN fomento_flags`) to its bus, so that a
/// `flagRaised` subscriber hears of flags raised by any process sharing the database, and revoked keys
/// (`LISTEN fomento_key_revoked`) to its key cache and open subscriptions. Stops when dropped.
#[derive(Debug)]
pub struct Notifications(tokio::task::JoinHandle<()>);

impl Drop for Notifications {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts the listener on PostgreSQL (none on SQLite, where every flag is raised and every key revoked in this
/// process) and waits, at most five seconds, until it listens.
pub async fn listen_for_notifications(db: &sea_orm::DatabaseConnection) -> Option<Notifications> {
    if sea_orm::ConnectionTrait::get_database_backend(db) != sea_orm::DbBackend::Postgres {
        return None;
    }
    let pool = db.get_postgres_connection_pool().clone();
    let (ready, listening) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let mut ready = Some(ready);
        let mut wait = std::time::Duration::from_millis(200);
        loop {
            match sqlx::postgres::PgListener::connect_with(&pool).await {
                Ok(mut listener) => match listener
                    .listen_all([service::events::CHANNEL, service::keys::REVOKED_CHANNEL])
                    .await
                {
                    Ok(()) => {
                        // A revocation announced while nobody listened would be missed: look every key up afresh.
                        service::keys::forget_all();
                        if let Some(r) = ready.take() {
                            let _ = r.send(());
                        }
                        wait = std::time::Duration::from_millis(200);
                        loop {
                            match listener.recv().await {
                                Ok(n) if n.channel() == service::keys::REVOKED_CHANNEL => {
                                    service::keys::deliver_revoked(n.payload())
                                }
                                Ok(n) => service::events::deliver(n.payload()),
                                Err(e) => {
                                    tracing::warn!(error = %e, "notifications interrupted; listening again");
                                    break;
                                }
                            }
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "cannot LISTEN for notifications"),
                },
                Err(e) => tracing::warn!(error = %e, "cannot connect to listen for notifications"),
            }
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(std::time::Duration::from_secs(30));
        }
    });
    if tokio::time::timeout(std::time::Duration::from_secs(5), listening)
        .await
        .is_err()
    {
        tracing::warn!(
            "not yet listening for notifications; live flags and revocations from other processes may arrive late"
        );
    }
    Some(Notifications(task))
}
