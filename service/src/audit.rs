//! The audit log: every mutation, upload, import, key operation, export and refused call, recorded append-only with
//! who, what, to what, when, from where and how it ended; read by the administrator (`fomento audit`,
//! `/exports/audit.csv`).

use crate::{
    Caller, ServiceError,
    access::{Operation, authorize},
};
use chrono::Utc;
use entity::audit_log;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

/// Where a request came from (the client's address), carried with it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Remote(pub Option<String>);

/// `OK`, `DENIED` (a refusal: `UNAUTHENTICATED`, `FORBIDDEN`) or `ERROR` (any other failure), from an error code.
pub fn outcome_of(code: Option<&str>) -> &'static str {
    match code {
        None => "OK",
        Some("UNAUTHENTICATED" | "FORBIDDEN") => "DENIED",
        Some(_) => "ERROR",
    }
}

/// Records one line. A line that cannot be written is logged as an error, and the request goes on.
pub async fn record(
    db: &impl ConnectionTrait,
    caller: &Caller,
    action: &str,
    target: Option<&str>,
    code: Option<&str>,
    remote: &Remote,
) {
    let line = audit_log::ActiveModel {
        at: Set(Utc::now()),
        actor: Set(caller.actor()),
        action: Set(action.chars().take(200).collect()),
        target: Set(target.map(|t| t.chars().take(200).collect())),
        outcome: Set(outcome_of(code).to_owned()),
        detail: Set(code.map(str::to_owned)),
        remote: Set(remote.0.clone()),
        ..Default::default()
    };
    if let Err(e) = line.insert(db).await {
        tracing::error!(error = %e, action, "the audit log could not be written");
    }
}

/// The latest `limit` lines before line `before` (none: the latest), newest first; for the administrator.
pub async fn list(
    db: &impl ConnectionTrait,
    caller: &Caller,
    before: Option<i64>,
    limit: u64,
) -> Result<Vec<audit_log::Model>, ServiceError> {
    authorize(caller, Operation::Administer)?;
    let mut q = audit_log::Entity::find();
    if let Some(b) = before {
        q = q.filter(audit_log::Column::Id.lt(b));
    }
    Ok(q.order_by_desc(audit_log::Column::Id).limit(limit).all(db).await?)
}
