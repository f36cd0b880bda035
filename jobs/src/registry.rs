//! The list of Fomento's scheduled jobs. A job is a name, a default schedule (a cron expression with seconds, read in
//! a time zone) and a single step `run_once(ctx, now)`. The scheduler, `fomento worker`, `fomento jobs list` and
//! `fomento jobs run NAME` all read this list: a new job is a module and one entry here.

use crate::{
    import,
    report::ingest::{self, IngestContext, IngestError},
    runs::JobReport,
};
use chrono::{DateTime, Utc};

/// A scheduled job.
#[derive(Debug, Clone, Copy)]
pub struct JobSpec {
    /// Its name, as in `job_run` and on the command line.
    pub name: &'static str,
    /// Its default schedule: a cron expression with seconds (`sec min hour day month weekday`).
    pub schedule: &'static str,
    /// The time zone the schedule is read in.
    pub zone: chrono_tz::Tz,
    /// What it does, in one line.
    pub about: &'static str,
}

/// Every job, in the order `fomento jobs list` shows them.
pub const JOBS: &[JobSpec] = &[
    JobSpec {
        name: ingest::JOB,
        schedule: "0 * * * * *",
        zone: chrono_tz::America::Sao_Paulo,
        about: "claims received banks' monthly reports (or ones whose lease expired) and ingests them; also right after each upload",
    },
    JobSpec {
        name: import::JOB,
        schedule: "30 * * * * *",
        zone: chrono_tz::America::Sao_Paulo,
        about: "claims received fact imports (acquisitions, carta items, meeting agendas) and applies them; also right after each upload",
    },
];

/// The job of this name.
pub fn find(name: &str) -> Option<&'static JobSpec> {
    JOBS.iter().find(|j| j.name == name)
}

/// What the jobs need to run.
#[derive(Debug, Clone)]
pub struct JobContext {
    /// The ingestion's context (database, file store, worker name, lease, limits).
    pub ingest: IngestContext,
}

/// Why a job's step failed.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// No job has this name.
    #[error("unknown job {0:?}; the jobs are: {1}")]
    Unknown(String, String),
    /// The ingestion failed.
    #[error(transparent)]
    Ingest(#[from] IngestError),
}

impl JobSpec {
    /// The next time the schedule fires after `after`, in UTC.
    pub fn next_run(&self, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let cron = parser().parse(self.schedule).ok()?;
        cron.find_next_occurrence(&after.with_timezone(&self.zone), false)
            .ok()
            .map(|t| t.with_timezone(&Utc))
    }

    /// Runs one step of this job, as of `now`.
    pub async fn run_once(&self, ctx: &JobContext, now: DateTime<Utc>) -> Result<JobReport, JobError> {
        match self.name {
            ingest::JOB => Ok(ingest::run_once(&ctx.ingest, now).await?),
            import::JOB => Ok(import::run_once(&ctx.ingest, now).await?),
            other => Err(unknown(other)),
        }
    }
}

/// Runs the job named `name` once.
pub async fn run_once(ctx: &JobContext, name: &str, now: DateTime<Utc>) -> Result<JobReport, JobError> {
    find(name).ok_or_else(|| unknown(name))?.run_once(ctx, now).await
}

fn unknown(name: &str) -> JobError {
    JobError::Unknown(
        name.to_owned(),
        JOBS.iter().map(|j| j.name).collect::<Vec<_>>().join(", "),
    )
}

/// Checks every schedule parses (at start-up, and in a test).
pub fn check_schedules() -> Result<(), String> {
    for j in JOBS {
        parser()
            .parse(j.schedule)
            .map_err(|e| format!("job {}: schedule {:?}: {e}", j.name, j.schedule))?;
    }
    Ok(())
}

/// Cron expressions with seconds, as the scheduler reads them.
fn parser() -> croner::parser::CronParser {
    croner::parser::CronParser::builder()
        .seconds(croner::parser::Seconds::Required)
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schedule_parses_and_the_ingestion_runs_every_minute() {
        check_schedules().expect("schedules");
        let ingest = find("ingest").expect("registered");
        let t = DateTime::parse_from_rfc3339("2026-12-03T10:15:30Z")
            .expect("t")
            .with_timezone(&Utc);
        assert_eq!(
            ingest.next_run(t).map(|n| n.to_rfc3339()),
            Some("2026-12-03T10:16:00+00:00".into())
        );
        assert!(find("nope").is_none());
    }
}
