//! The list of Fomento's scheduled jobs. A job is a name, a default schedule (a cron expression with seconds, read in
//! a time zone) and a single step `run_once(ctx, now)`. The scheduler, `fomento worker`, `fomento jobs list` and
//! `fomento jobs run NAME` all read this list: a new job is a module and one entry here.

use crate::{
    dashboards, expire, flag_deadlines, import,
    report::ingest::{self, IngestError, UploadContext},
    runs::JobReport,
    webhooks,
};
use chrono::{DateTime, Utc};
use service::messages::{Message, code};

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

/// The name of the job that purges raw files past their retention.
pub const PURGE_JOB: &str = "purge-raw-files";

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
    JobSpec {
        name: expire::JOB,
        schedule: "0 30 5 * * *",
        zone: chrono_tz::America::Sao_Paulo,
        about: "expires the CDAE approvals whose 120 days lapsed with no presentation to the bank recorded (FCO-VALIDITY-120D), with a history row, before the day's flags",
    },
    JobSpec {
        name: flag_deadlines::JOB,
        schedule: "0 0 6 * * *",
        zone: chrono_tz::America::Sao_Paulo,
        about: "judges every deadline and rule outcome and keeps the compliance flags in step (raised, changed, resolved)",
    },
    JobSpec {
        name: dashboards::JOB,
        schedule: "0 30 6 * * *",
        zone: chrono_tz::America::Sao_Paulo,
        about: "builds the compliance dashboard as of the day (after the day's flags), kept for complianceDashboard and /dashboard",
    },
    JobSpec {
        name: PURGE_JOB,
        schedule: "0 0 3 * * *",
        zone: chrono_tz::America::Sao_Paulo,
        about: "purges the raw uploaded files past their retention (--retain-raw-files, 5 years by default); reports and imports keep their rows and outcome",
    },
    JobSpec {
        name: webhooks::JOB,
        schedule: "15 * * * * *",
        zone: chrono_tz::America::Sao_Paulo,
        about: "sends the webhook deliveries that are due, signed; a refused one is tried again with backoff, 10 attempts",
    },
];

/// When a job runs: a cron expression with seconds, read in a time zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// `sec min hour day month weekday`.
    pub cron: String,
    /// The zone it is read in.
    pub zone: chrono_tz::Tz,
}

impl Schedule {
    /// The next time it fires after `after`, in UTC.
    pub fn next_run(&self, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let cron = parser().parse(&self.cron).ok()?;
        cron.find_next_occurrence(&after.with_timezone(&self.zone), false)
            .ok()
            .map(|t| t.with_timezone(&Utc))
    }
}

/// Every job's schedule: the registry's defaults, each replaceable at start-up (`--schedule NAME=CRON[@ZONE]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedules(std::collections::BTreeMap<&'static str, Schedule>);

impl Default for Schedules {
    fn default() -> Self {
        Self(
            JOBS.iter()
                .map(|j| {
                    (
                        j.name,
                        Schedule {
                            cron: j.schedule.to_owned(),
                            zone: j.zone,
                        },
                    )
                })
                .collect(),
        )
    }
}

impl Schedules {
    /// The defaults with `overrides` applied, each `NAME=CRON` or `NAME=CRON@ZONE` (an IANA zone; the job's own zone
    /// when absent). An unknown job, a cron expression that does not parse or an unknown zone is an error naming it.
    pub fn with_overrides(overrides: &[String]) -> Result<Self, String> {
        let mut out = Self::default();
        for o in overrides.iter().map(|o| o.trim()).filter(|o| !o.is_empty()) {
            let (name, rest) = o
                .split_once('=')
                .ok_or_else(|| format!("schedule {o:?}: write NAME=CRON or NAME=CRON@ZONE"))?;
            let name = name.trim();
            let job = find(name).ok_or_else(|| format!("schedule {o:?}: {}", unknown(name)))?;
            let (cron, zone) = match rest.rsplit_once('@') {
                Some((cron, zone)) => (
                    cron.trim(),
                    zone.trim()
                        .parse::<chrono_tz::Tz>()
                        .map_err(|_| format!("schedule {o:?}: {:?} is not an IANA time zone", zone.trim()))?,
                ),
                None => (rest.trim(), job.zone),
            };
            parser()
                .parse(cron)
                .map_err(|e| format!("schedule {o:?}: {cron:?} is not a cron expression with seconds: {e}"))?;
            out.0.insert(
                job.name,
                Schedule {
                    cron: cron.to_owned(),
                    zone,
                },
            );
        }
        Ok(out)
    }

    /// The schedule of `job`.
    pub fn of(&self, job: &JobSpec) -> Schedule {
        self.0.get(job.name).cloned().unwrap_or_else(|| Schedule {
            cron: job.schedule.to_owned(),
            zone: job.zone,
        })
    }
}

/// The job of this name.
pub fn find(name: &str) -> Option<&'static JobSpec> {
    JOBS.iter().find(|j| j.name == name)
}

/// What the jobs need to run.
#[derive(Debug, Clone)]
pub struct JobContext {
    /// What the jobs that read uploaded files need (database, file store, worker name, lease, limits).
    pub uploads: UploadContext,
    /// The day to judge as of, for the jobs that judge (`flag-deadlines`, `expire-approvals`); today in Brasília when
    /// absent.
    pub as_of: Option<chrono::NaiveDate>,
    /// How long raw uploaded files are kept (`--retain-raw-files`), for `purge-raw-files`.
    pub retain_raw_files: service::files::Retention,
}

impl JobContext {
    /// The database every job works on.
    pub fn db(&self) -> &sea_orm::DatabaseConnection {
        &self.uploads.db
    }

    /// This worker's name (host and process), as a run and a claim record it.
    pub fn worker(&self) -> &str {
        &self.uploads.worker
    }

    /// Where raw uploaded files are kept.
    pub fn store(&self) -> &crate::store::FileStore {
        &self.uploads.store
    }
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
    /// A use case failed.
    #[error("{0}")]
    Service(#[from] service::ServiceError),
    /// The database failed.
    #[error("database: {0}")]
    Db(#[from] sea_orm::DbErr),
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
            ingest::JOB => Ok(ingest::run_once(&ctx.uploads, now).await?),
            import::JOB => Ok(import::run_once(&ctx.uploads, now).await?),
            flag_deadlines::JOB => Ok(flag_deadlines::run_once(ctx.db(), now, ctx.as_of).await?.0),
            expire::JOB => Ok(expire::run_once(ctx.db(), now, ctx.as_of).await?.0),
            webhooks::JOB => Ok(webhooks::run_once(ctx.db(), ctx.worker(), now).await?),
            dashboards::JOB => Ok(dashboards::run_once(ctx.db(), now, ctx.as_of).await?),
            PURGE_JOB => {
                let today = ctx
                    .as_of
                    .unwrap_or_else(|| entity::domain::Authority::Mda.local(now).date_naive());
                let before = ctx.retain_raw_files.keeps_from(today);
                let p = service::files::purge(ctx.db(), ctx.store(), &service::Caller::System, before, now).await?;
                Ok(JobReport {
                    processed: p.files as u32,
                    failed: 0,
                    message: Message::new(code::JOB_PURGE_DONE)
                        .arg("before", before)
                        .arg("files", p.files)
                        .arg("reports", p.reports)
                        .arg("imports", p.imports)
                        .arg("kept", p.kept_for_later),
                })
            }
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
    fn a_schedule_is_replaced_at_start_up_and_bad_ones_are_named() {
        let t = DateTime::parse_from_rfc3339("2026-12-03T10:15:30Z")
            .expect("t")
            .with_timezone(&Utc);
        let s = Schedules::with_overrides(&[
            "ingest=0 0 6 * * *@America/Cuiaba".into(),
            "import = 0 */5 * * * *".into(),
        ])
        .expect("overrides");
        let ingest = s.of(find("ingest").expect("ingest"));
        assert_eq!(ingest.zone, chrono_tz::America::Cuiaba);
        // 06:00 in Cuiabá (UTC−4) is 10:00 UTC: already past on the 3rd, so the 4th.
        assert_eq!(
            ingest.next_run(t).map(|n| n.to_rfc3339()),
            Some("2026-12-04T10:00:00+00:00".into())
        );
        let import = s.of(find("import").expect("import"));
        assert_eq!(
            (import.cron.as_str(), import.zone),
            ("0 */5 * * * *", chrono_tz::America::Sao_Paulo)
        );
        assert_eq!(Schedules::with_overrides(&[]).expect("none"), Schedules::default());
        for (bad, says) in [
            ("nope=0 * * * * *", "unknown job"),
            ("ingest=every minute", "not a cron expression"),
            ("ingest=0 * * * * *@Mars/Olympus", "not an IANA time zone"),
            ("ingest", "NAME=CRON"),
        ] {
            let e = Schedules::with_overrides(&[bad.into()]).expect_err(bad);
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

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
