//! The `flag-deadlines` use case: judge every deadline and rule outcome as of a day, in one pass over the data, and
//! keep `compliance_flag` in step with what the facts call for.
//!
//! - **Identity**: one open flag per (subject, rule, source, occurrence). The subject is the financing, the bank (its
//!   monthly list, whose month is the occurrence; Banco do Brasil's 60-day report), the chamber meeting (its result
//!   within 72 h) or the economic group (its ceiling, listing its cartas). A partial unique index enforces it.
//! - **Severity**: `VIOLATION` when a deadline passed without its act or a rule is violated; `WARNING` when a deadline
//!   falls due within its look-ahead window (`<RULE>.WARNING_DAYS`, a versioned parameter read on the day judged).
//! - **Resolution**: a flag the facts no longer call for is resolved, with why (the deadline's or the rule's own
//!   account). A person's resolution holds while the facts behind the flag (its fingerprint) stay the same; when they
//!   change, a new flag is raised.
//! - **Once**: the whole comparison runs in one transaction, behind an advisory lock on PostgreSQL, so a rerun or a
//!   second worker changes nothing that the first already did.

mod banks;
mod cartas;
mod ceiling;
mod judgement;
mod pass;
mod reads;
mod write;

pub use judgement::Judgement;
pub use write::sync;

use crate::{
    ServiceError,
    flags::write::{Finding, NewFlag, Writer},
};
use chrono::{DateTime, NaiveDate, Utc};
use entity::compliance_flag::SubjectKind;
// The sets and maps keyed by flag identities and ids are looked up several times for every carta a pass judges:
// hashed by Fx rather than SipHash (with SipHash, a fifth of the judging thread's time on the day-to-day pass).
use entity::rules::FxSet;
use sea_orm::{ConnectionTrait, DbBackend};
use std::borrow::Cow;
use std::sync::Arc;

type Result<T> = std::result::Result<T, ServiceError>;

/// What the job writes as the flags' source and as the resolver of the flags it clears.
pub const SOURCE: &str = "job:flag-deadlines";

/// How many projects are judged per batch of statements, and how many carta ids the dashboard's pass spans per batch
/// on SQLite (a batch's facts are a few MiB; fewer, larger batches spend less on round trips).
const BATCH: u64 = 2000;

/// How many carta ids the deadlines-only pass (the dashboard's) spans per statement on PostgreSQL: it reads no other
/// fact, and its candidates are found by an index scan whose fixed cost per statement a larger batch spreads.
/// SQLite, whose rows cost more memory in the driver and which gained nothing, spans [`BATCH`].
const DEADLINE_BATCH: u64 = 20_000;

/// A flag's identity: subject, its id, rule, occurrence (the source is the job's).
pub type Key = (SubjectKind, i64, String, String);

/// The flag of identity `key` saying `finding`.
fn new_flag((kind, id, rule, occurrence): Key, finding: Finding) -> NewFlag {
    NewFlag {
        subject: (kind, id),
        rule_code: Cow::Owned(rule),
        occurrence,
        finding,
    }
}

/// What a pass judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Every rule and deadline: the flag job.
    Everything,
    /// The deadlines only (what is overdue or due within its window), which read the financing's own row and its
    /// chamber meeting: the dashboard. The accounts of flags no longer called for are not kept.
    Deadlines,
}

/// Judges every project, carta, bank and chamber meeting as of `as_of`, a batch of financings at a time.
pub async fn judge(db: &crate::Db, as_of: NaiveDate) -> Result<Judgement> {
    judge_within(db, as_of, Reach::Everything).await
}

/// Judges what `reach` says as of `as_of`.
pub async fn judge_within(db: &crate::Db, as_of: NaiveDate, reach: Reach) -> Result<Judgement> {
    pass::judge_pass(db, as_of, reach, None, None).await
}

/// What one pass changed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Synced {
    /// Flags raised.
    pub raised: Vec<i64>,
    /// Open flags whose severity, due day or facts changed (a warning turned violation).
    pub changed: Vec<i64>,
    /// Flags resolved because the facts no longer call for them.
    pub resolved: Vec<i64>,
    /// Flags a person resolved whose facts have not changed, left resolved.
    pub held: u32,
    /// Subjects judged.
    pub judged: u32,
}

/// Judges everything as of `as_of` and brings the job's flags in step, in one transaction. `db` is a pool: the
/// judging reads on connections of its own.
///
/// On PostgreSQL the transaction opens first, behind the job's advisory lock, and the new flags of the cartas are
/// written on it while the judging goes on (so the database's writing of them into the flag table and its indexes
/// is not a wait at the end); the rest is compared at the end. On
/// SQLite, whose one writer would keep every other writer (a bank's upload) waiting through the whole judging, the
/// pass judges first and then writes, as [`sync`] does.
pub async fn run(db: &crate::Db, as_of: NaiveDate, now: DateTime<Utc>) -> Result<Synced> {
    let synced = if ConnectionTrait::get_database_backend(db) == DbBackend::Postgres {
        // Shared with the task writing the new flags (its work, encoding the rows, beside this task's reading).
        let txn = Arc::new(write::begin_locked(db).await?);
        // The open flags and the persons' resolutions are read beside the group commitments (`judge_pass`); the
        // judgement keeps the open flags for the comparison at the end, and the resolutions are kept here: on the pool,
        // once the lock is held, they read what a statement in the transaction would (what is committed when it starts;
        // the transaction has written nothing yet), in parts at once.
        let (read, mut kept) = tokio::sync::oneshot::channel();
        let open_read: pass::OpenRead<'_> = Box::pin(async {
            let (open, by_person) = futures::try_join!(reads::open_flags_at_once(db), write::by_person(db))?;
            let keys = by_person.keys().cloned().collect();
            let _ = read.send(by_person);
            Ok((open, keys))
        });
        let (to, mut new) = tokio::sync::mpsc::channel::<Vec<(Key, Finding)>>(4);
        let outflow = cartas::Outflow {
            by_person: FxSet::default(),
            to,
        };
        let judging = pass::judge_pass(db, as_of, Reach::Everything, Some(open_read), Some(outflow));
        let writing = crate::Task::spawn({
            let txn = txn.clone();
            async move {
                let mut flags = Writer::new(SOURCE, now);
                while let Some(batch) = new.recv().await {
                    for (key, w) in batch {
                        flags.add(&*txn, new_flag(key, w)).await?;
                    }
                }
                Ok::<_, ServiceError>(flags.flush(&*txn).await?)
            }
        });
        let (judgement, written) =
            futures::try_join!(judging, async { writing.finish("writing the new flags").await? })?;
        let by_person = kept
            .try_recv()
            .map_err(|_| ServiceError::Internal("the open flags were not read".into()))?;
        let txn = Arc::into_inner(txn)
            .ok_or_else(|| ServiceError::Internal("the flags' transaction is still in use".into()))?;
        let synced = write::settle(&txn, judgement, None, by_person, as_of, now, written).await?;
        txn.commit().await?;
        synced
    } else {
        let judgement = judge(db, as_of).await?;
        sync(db, judgement, as_of, now).await?
    };
    crate::flags::write::announce(db, &synced.raised, &synced.changed, &synced.resolved).await?;
    Ok(synced)
}
