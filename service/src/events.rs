//! Flag events, for the `flagRaised` subscription: whichever process raised, changed or resolved a flag, every
//! serving process hears of it. On PostgreSQL the news goes through `NOTIFY` on [`CHANNEL`] (each serving process
//! `LISTEN`s and forwards it to its own [`bus`]); on SQLite, a database of one process, straight to the bus.

use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement};
use std::sync::OnceLock;
use tokio::sync::broadcast;

/// The PostgreSQL channel of flag events.
pub const CHANNEL: &str = "fomento_flags";

pub use crate::flags::event::{FlagChange, FlagEvent};

/// This process's bus of flag events.
pub fn bus() -> &'static broadcast::Sender<FlagEvent> {
    static BUS: OnceLock<broadcast::Sender<FlagEvent>> = OnceLock::new();
    BUS.get_or_init(|| broadcast::channel(4096).0)
}

/// How many events one `NOTIFY` carries (its payload stays far below PostgreSQL's 8,000 bytes).
const PER_NOTIFY: usize = 200;

/// Tells every process of these events, after their transaction committed.
///
/// Webhook receivers that hear of flags raised and resolved get a delivery queued.
pub async fn announce(db: &impl ConnectionTrait, events: &[FlagEvent]) -> Result<(), DbErr> {
    if events.is_empty() {
        return Ok(());
    }
    crate::webhooks::enqueue_flags(db, events).await?;
    if db.get_database_backend() != DbBackend::Postgres {
        for e in events {
            let _ = bus().send(*e);
        }
        return Ok(());
    }
    // One statement, not a round trip per payload: each payload its own notification, in order, all delivered when
    // the statement commits.
    let payloads = events
        .chunks(PER_NOTIFY)
        .map(|chunk| serde_json::to_string(chunk).map(|p| sea_orm::Value::String(Some(p))))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| DbErr::Custom(e.to_string()))?;
    db.execute_raw(Statement::from_sql_and_values(
        DbBackend::Postgres,
        "SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS n(p, i) ORDER BY i",
        [
            CHANNEL.into(),
            sea_orm::Value::Array(sea_orm::sea_query::ArrayType::String, Some(Box::new(payloads))),
        ],
    ))
    .await?;
    Ok(())
}

/// Forwards a `NOTIFY` payload to this process's bus; a payload that is not ours is ignored.
pub fn deliver(payload: &str) {
    if let Ok(events) = serde_json::from_str::<Vec<FlagEvent>>(payload) {
        for e in events {
            let _ = bus().send(e);
        }
    }
}

/// The events of flags raised and of flags whose facts changed and resolved, from one pass.
pub fn of_pass(raised: &[i64], changed: &[i64], resolved: &[i64]) -> Vec<FlagEvent> {
    [
        (raised, FlagChange::Raised),
        (changed, FlagChange::Changed),
        (resolved, FlagChange::Resolved),
    ]
    .into_iter()
    .flat_map(|(ids, change)| ids.iter().map(move |&id| FlagEvent { id, change }))
    .collect()
}
