//! Report intake: a bank's monthly report is stored raw (by its SHA-256) and recorded `RECEIVED`, whichever door it
//! came through (REST upload, GraphQL multipart upload, `fomento ingest`); the ingestion job takes it from there.

use crate::{
    ServiceError,
    messages::{Message, code},
    store::FileStore,
};
use chrono::Utc;
use entity::{bank, bank_report};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};

/// A bank by its code (`BB`), in any case.
pub async fn bank_by_code(db: &DatabaseConnection, code_given: &str) -> Result<bank::Model, ServiceError> {
    bank::Entity::find()
        .filter(bank::Column::Code.eq(code_given.trim().to_uppercase()))
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::NotFound {
            field: "bank",
            message: Message::new(code::BANK_UNKNOWN).arg("code", format!("{code_given:?}")),
        })
}

/// Checks `YYYY-MM`.
pub fn parse_month(month: &str) -> Result<String, ServiceError> {
    let m = month.trim();
    let ok = m.len() == 7
        && chrono::NaiveDate::parse_from_str(&format!("{m}-01"), "%Y-%m-%d")
            .is_ok_and(|d| (2000..=2100).contains(&chrono::Datelike::year(&d)));
    if ok {
        Ok(m.to_owned())
    } else {
        Err(ServiceError::BadInput {
            field: "month",
            message: Message::new(code::MONTH_INVALID).arg("value", format!("{month:?}")),
        })
    }
}

/// A bank's monthly list (art. 2 §5 of IN CDAE/MT 2019) is of a month that has begun (`today`'s or earlier) and in which
/// the instrument that asks for it was in force (from March 2019: it took effect on 20 March 2019, art. 19).
pub fn check_report_month(month: &str, today: chrono::NaiveDate) -> Result<(), ServiceError> {
    use chrono::Datelike;
    let bad = |message: Message| ServiceError::BadInput {
        field: "month",
        message,
    };
    let first = chrono::NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d")
        .map_err(|_| bad(Message::new(code::MONTH_INVALID).arg("value", format!("{month:?}"))))?;
    let current = today.with_day(1).unwrap_or(today);
    if first > current {
        return Err(bad(Message::new(code::MONTH_IN_FUTURE)
            .arg("month", month)
            .arg("current", current.format("%Y-%m"))));
    }
    let since = entity::rules::cdae_2019().in_force_from;
    if first < since.with_day(1).unwrap_or(since) {
        return Err(bad(Message::new(code::MONTH_BEFORE_INSTRUMENT)
            .arg("month", month)
            .arg("since", since)));
    }
    Ok(())
}

/// What an upload did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received {
    /// A new report, `RECEIVED`.
    New,
    /// The same bytes for the same bank and month were received before: that report, as it is.
    Known,
    /// The same bytes as a report whose ingestion had `FAILED`: that report, queued again for a new set of attempts.
    Requeued,
}

impl Received {
    /// Whether the upload recorded a new report.
    pub fn is_new(self) -> bool {
        self == Received::New
    }
}

/// Stores the bytes, then records the report as `RECEIVED`; the same bytes for the same bank and month return the
/// report already recorded, queued again when its ingestion had failed.
pub async fn receive(
    db: &DatabaseConnection,
    caller: &crate::Caller,
    store: &FileStore,
    bank: &bank::Model,
    month: &str,
    file_name: &str,
    bytes: Vec<u8>,
) -> Result<(bank_report::Model, Received), ServiceError> {
    crate::access::authorize(caller, crate::access::Operation::BankData)?;
    // Another bank's name answers as a bank that does not exist.
    crate::access::within(caller, bank.id, "bank", || {
        Message::new(code::BANK_UNKNOWN).arg("code", format!("{:?}", bank.code))
    })?;
    let month = parse_month(month)?;
    check_report_month(&month, crate::Clock::System.today())?;
    if !bank.serves_fco {
        return Err(ServiceError::BadInput {
            field: "bank",
            message: Message::new(code::BANK_NOT_FCO).arg("code", &bank.code),
        });
    }
    let size = bytes.len() as i64;
    let sha = store.put(bytes).await?;
    let find = || {
        bank_report::Entity::find()
            .filter(bank_report::Column::BankId.eq(bank.id))
            .filter(bank_report::Column::ReferenceMonth.eq(month.clone()))
            .filter(bank_report::Column::Sha256.eq(sha.clone()))
    };
    if let Some(r) = find().one(db).await? {
        if r.status == "FAILED" && crate::queue::requeue::<bank_report::Entity>(db, r.id).await? {
            let r = bank_report::Entity::find_by_id(r.id).one(db).await?.unwrap_or(r);
            return Ok((r, Received::Requeued));
        }
        return Ok((r, Received::Known));
    }
    let r = bank_report::ActiveModel {
        bank_id: Set(bank.id),
        reference_month: Set(month.clone()),
        sha256: Set(sha.clone()),
        file_name: Set(file_name.chars().take(255).collect()),
        byte_size: Set(size),
        status: Set("RECEIVED".into()),
        received_at: Set(Utc::now()),
        ..Default::default()
    }
    .insert(db)
    .await;
    match r {
        Ok(r) => Ok((r, Received::New)),
        // Two identical uploads at once: the other one won; answer with it.
        Err(e) if e.to_string().to_lowercase().contains("unique") || e.to_string().contains("duplicate key") => {
            let r = find()
                .one(db)
                .await?
                .ok_or_else(|| ServiceError::Internal(e.to_string()))?;
            Ok((r, Received::Known))
        }
        Err(e) => Err(e.into()),
    }
}
