//! Bringing the job's flags in step with a judgement, in one transaction: raising, changing and resolving through
//! the one flag writer ([`crate::flags::write`]).

use super::{
    Key, Result, SOURCE, Synced,
    judgement::{Judgement, Open, fingerprint_hash},
    reads::open_flags,
};
use crate::flags::write::{self as flags, Writer};
use chrono::{DateTime, NaiveDate, Utc};
use entity::{compliance_flag, rules::FxMap};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, QueryFilter, QueryOrder, TransactionSession, TransactionTrait,
};
use std::collections::HashMap;

/// A transaction for bringing the job's flags in step; on PostgreSQL behind the job's advisory lock, so that two
/// workers judging at once are one after the other: the second waits and then finds the first's flags.
pub(super) async fn begin_locked<D: TransactionTrait>(db: &D) -> Result<D::Transaction> {
    let txn = crate::txn::write(db).await?;
    if txn.get_database_backend() == DbBackend::Postgres {
        txn.execute_unprepared("SELECT pg_advisory_xact_lock(hashtext('fomento:flag-deadlines'))")
            .await?;
    }
    Ok(txn)
}

/// The latest resolution by a person of each identity.
pub(super) async fn by_person(txn: &impl ConnectionTrait) -> Result<HashMap<Key, compliance_flag::Model>> {
    use compliance_flag::Column as C;
    let mut by_person = HashMap::new();
    for f in compliance_flag::Entity::find()
        .filter(C::Source.eq(SOURCE))
        .filter(C::ResolvedAt.is_not_null())
        .filter(C::ResolvedBy.ne(SOURCE))
        .order_by_asc(C::Id)
        .all(txn)
        .await?
    {
        if let Some(kind) = f.subject() {
            by_person.insert((kind, f.subject_id, f.rule_code.clone(), f.occurrence.clone()), f);
        }
    }
    Ok(by_person)
}

/// Brings the job's flags in step with `judgement`: raises what is wanted and not open (unless a person resolved it
/// and its facts did not change), updates open flags whose facts changed, resolves open flags no longer wanted.
pub async fn sync(
    db: &(impl ConnectionTrait + TransactionTrait),
    judgement: Judgement,
    as_of: NaiveDate,
    now: DateTime<Utc>,
) -> Result<Synced> {
    let txn = begin_locked(db).await?;
    // Read again in the transaction: the judgement's were read before it, without the lock.
    let open = open_flags(&txn).await?;
    let by_person = by_person(&txn).await?;
    let synced = settle(&txn, judgement, Some(open), by_person, as_of, now, Vec::new()).await?;
    txn.commit().await?;
    Ok(synced)
}

/// [`sync`] within its transaction, given the persons' resolutions read in it and the open flags read in it
/// (`fresh`), or none when the judgement's were (behind the lock, [`run`]); `written`: the ids of the new flags
/// written already in this transaction (the pass's, [`run`]).
pub(super) async fn settle(
    txn: &impl ConnectionTrait,
    judgement: Judgement,
    fresh: Option<FxMap<Key, Open>>,
    by_person: HashMap<Key, compliance_flag::Model>,
    as_of: NaiveDate,
    now: DateTime<Utc>,
    written: Vec<i64>,
) -> Result<Synced> {
    let Judgement {
        wanted,
        explanations,
        judged,
        open: judged_open,
        ..
    } = judgement;
    let mut out = Synced {
        judged,
        ..Synced::default()
    };
    let (open, seen) = match fresh {
        Some(fresh) => (fresh, Some(judged_open)),
        None => (judged_open, None),
    };
    // Whether an open flag is called for as it stands, as the judgement found it. (One changed since by another pass,
    // behind the lock after the judgement read it, is left as that pass left it: the next pass judges it again.)
    let still = |key: &Key, f: &Open| match &seen {
        None => f.still,
        Some(seen) => seen.get(key).is_some_and(|s| s.still),
    };
    if let Some(seen) = &seen {
        // A flag found called for as it stood, and resolved since by a person with the same facts, stays resolved (one
        // resolved since by another pass is left so: the next pass judges it again).
        out.held += seen
            .iter()
            .filter(|(key, s)| s.still && !open.contains_key(*key))
            .filter(|(key, s)| {
                by_person
                    .get(*key)
                    .is_some_and(|f| f.fingerprint.as_deref().map(fingerprint_hash) == s.fingerprint)
            })
            .count() as u32;
    }
    // First the open flags no longer called for (while the wanted ones can still be looked up)...
    for (key, f) in &open {
        if wanted.contains_key(key) || still(key, f) {
            continue;
        }
        // The reason is stored as a catalogue message and its values (migration 60), rendered when read.
        let (why, args) = match explanations.get(key) {
            Some(s) => (
                "flag-resolved-said",
                serde_json::json!({ "on": as_of.to_string(), "said": crate::l10n::explanation_json(s) }),
            ),
            None => ("flag-resolved-gone", serde_json::json!({ "on": as_of.to_string() })),
        };
        flags::resolve(txn, f.id, SOURCE, why, &args, now).await?;
        out.resolved.push(f.id);
    }
    // ...then the wanted ones, consumed as they are written: new flags go a statement's worth at a time, so the pass
    // never holds a second copy of every flag.
    let mut new_flags = Writer::new(SOURCE, now);
    drop(explanations);
    for (key, w) in wanted {
        if let Some(f) = open.get(&key) {
            if !f.same(w.severity, w.due_on, w.fingerprint.as_deref()) {
                flags::change(txn, f.id, w).await?;
                out.changed.push(f.id);
            }
            continue;
        }
        if by_person
            .get(&key)
            .is_some_and(|f| f.fingerprint.is_some() && f.fingerprint == w.fingerprint)
        {
            out.held += 1;
            continue;
        }
        new_flags.add(txn, super::new_flag(key, w)).await?;
    }
    out.raised = written;
    out.raised.extend(new_flags.flush(txn).await?);
    out.raised.sort_unstable();
    Ok(out)
}
