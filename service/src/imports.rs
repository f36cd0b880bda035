//! Bulk imports of facts that arrive as spreadsheets, through the same path as the banks' monthly reports: the raw
//! file is stored by its SHA-256 and recorded `RECEIVED`, whichever door it came through (`POST /imports/{kind}`,
//! GraphQL multipart, `fomento import KIND FILE`); the import job reads it and applies every row in one transaction
//! through the same commands the mutations call (`APPLIED`), or applies nothing and keeps every row error
//! (`REJECTED`), or ends `FAILED` when it cannot run.
//!
//! A file states the whole list of its target: a project's acquisitions of one year, a carta's items. Importing it
//! replaces the list in force (removing what the file leaves out; after the decision that relies on them, by new
//! versions with the import's reason), so importing the same corrected file twice changes nothing the second time.
//! A meeting's agenda file places each carta it lists on the meeting (with the time it reached SEDEC); cartas already
//! there and not listed stay.

use crate::{
    ServiceError, acquisitions,
    chamber::{self, meeting},
    intake::Received,
    items,
    lifecycle::{Act, find_carta, find_project},
    messages::{Message, code},
    store::FileStore,
    versions,
};
use chrono::{DateTime, Utc};
use entity::{bank, fact_import, fact_import_error, fco_carta, fco_carta_item, feedstock_acquisition};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect, TransactionTrait,
};

type Result<T> = std::result::Result<T, ServiceError>;

/// What a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A social-fuel project's feedstock acquisitions of one year.
    Acquisitions,
    /// An FCO carta's items.
    CartaItems,
    /// The cartas a chamber meeting received, with when each reached SEDEC.
    MeetingAgenda,
}

impl Kind {
    /// Every kind, in the order the doors list them.
    pub const ALL: [Kind; 3] = [Kind::Acquisitions, Kind::CartaItems, Kind::MeetingAgenda];

    /// Its stored code (`ACQUISITIONS`), as GraphQL's enum spells it.
    pub fn code(self) -> &'static str {
        match self {
            Kind::Acquisitions => "ACQUISITIONS",
            Kind::CartaItems => "CARTA_ITEMS",
            Kind::MeetingAgenda => "MEETING_AGENDA",
        }
    }

    /// Its name in URLs and on the command line (`carta-items`).
    pub fn slug(self) -> &'static str {
        match self {
            Kind::Acquisitions => "acquisitions",
            Kind::CartaItems => "carta-items",
            Kind::MeetingAgenda => "meeting-agenda",
        }
    }

    /// The kind a stored code or a slug names.
    pub fn parse(s: &str) -> Result<Kind> {
        let s = s.trim();
        Kind::ALL
            .into_iter()
            .find(|k| k.slug().eq_ignore_ascii_case(s) || k.code().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                ServiceError::bad(
                    "kind",
                    Message::new(code::IMPORT_KIND_UNKNOWN)
                        .arg("value", format!("{s:?}"))
                        .arg("kinds", Kind::ALL.map(Kind::slug).join(", ")),
                )
            })
    }

    /// What the target is, for messages and the command line's flag.
    pub fn target_name(self) -> &'static str {
        match self {
            Kind::Acquisitions => "project",
            Kind::CartaItems => "carta",
            Kind::MeetingAgenda => "meeting",
        }
    }
}

/// What a file is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// What it holds.
    pub kind: Kind,
    /// The project, carta or meeting.
    pub id: i64,
    /// The year (acquisitions only).
    pub year: Option<i32>,
    /// The reason for the change, needed once the decision that relies on the facts was taken.
    pub reason: Option<String>,
}

/// Checks the target exists (and an acquisitions import names its year).
pub async fn check_target(db: &impl ConnectionTrait, act: &Act, t: &Target) -> Result<()> {
    match t.kind {
        Kind::Acquisitions => {
            find_project(db, "project", t.id).await?;
            let this_year = chrono::Datelike::year(&act.day(None));
            match t.year {
                None => return Err(ServiceError::bad("year", Message::new(code::IMPORT_YEAR_REQUIRED))),
                Some(y) if !(2005..=this_year + 1).contains(&y) => {
                    return Err(ServiceError::bad(
                        "year",
                        Message::new(code::ACQUISITION_YEAR_INVALID)
                            .arg("value", y)
                            .arg("last", this_year + 1),
                    ));
                }
                Some(_) => {}
            }
        }
        Kind::CartaItems => {
            find_carta(db, "carta", t.id).await?;
        }
        Kind::MeetingAgenda => {
            meeting(db, "meeting", t.id).await?;
        }
    }
    Ok(())
}

/// Stores the bytes, then records the import as `RECEIVED`; the same bytes for the same target return the import
/// already recorded, queued again when it had `FAILED`.
pub async fn receive(
    db: &DatabaseConnection,
    store: &FileStore,
    act: &Act,
    target: &Target,
    file_name: &str,
    bytes: Vec<u8>,
) -> Result<(fact_import::Model, Received)> {
    check_target(db, act, target).await?;
    let year = if target.kind == Kind::Acquisitions {
        target.year
    } else {
        None
    };
    let size = bytes.len() as i64;
    let sha = store.put(bytes).await?;
    let reason = target
        .reason
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_owned);
    // The same bytes (and reason) as the target's latest import are that import: waiting, being applied or applied,
    // it is answered as it is; `FAILED`, it is queued again. A `REJECTED` one is tried anew (what a command refused
    // may pass now), as is an older import since replaced by another file.
    if let Some(r) = latest(db, target.kind, target.id, year).await?
        && r.sha256 == sha
        && r.reason == reason
        && r.status != "REJECTED"
    {
        if r.status == "FAILED" && crate::queue::requeue::<fact_import::Entity>(db, r.id).await? {
            let r = get(db, r.id).await?;
            return Ok((r, Received::Requeued));
        }
        return Ok((r, Received::Known));
    }
    let r = fact_import::ActiveModel {
        kind: Set(target.kind.code().into()),
        target_id: Set(target.id),
        year: Set(year),
        reason: Set(reason),
        sha256: Set(sha),
        file_name: Set(file_name.chars().take(255).collect()),
        byte_size: Set(size),
        status: Set("RECEIVED".into()),
        attempts: Set(0),
        received_at: Set(act.clock.now()),
        received_by: Set(act.caller.actor()),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok((r, Received::New))
}

async fn latest(
    db: &DatabaseConnection,
    kind: Kind,
    target: i64,
    year: Option<i32>,
) -> Result<Option<fact_import::Model>> {
    let mut q = fact_import::Entity::find()
        .filter(fact_import::Column::Kind.eq(kind.code()))
        .filter(fact_import::Column::TargetId.eq(target));
    q = match year {
        Some(y) => q.filter(fact_import::Column::Year.eq(y)),
        None => q.filter(fact_import::Column::Year.is_null()),
    };
    Ok(q.order_by_desc(fact_import::Column::Id).one(db).await?)
}

/// The import `id`.
pub async fn get(db: &impl ConnectionTrait, id: i64) -> Result<fact_import::Model> {
    fact_import::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found("id", Message::new(code::IMPORT_UNKNOWN).arg("id", id)))
}

/// The imports of a kind (and target), newest first, at most `limit`.
pub async fn list(
    db: &DatabaseConnection,
    kind: Option<Kind>,
    target: Option<i64>,
    limit: u64,
) -> Result<Vec<fact_import::Model>> {
    let mut q = fact_import::Entity::find().order_by_desc(fact_import::Column::Id);
    if let Some(k) = kind {
        q = q.filter(fact_import::Column::Kind.eq(k.code()));
    }
    if let Some(t) = target {
        q = q.filter(fact_import::Column::TargetId.eq(t));
    }
    Ok(q.limit(limit).all(db).await?)
}

/// One keyset page of the imports of `kind` for `target` (either may be `None`: any), newest first (or oldest first,
/// as the keyset says). Imports are an operator's record: a caller who sees less than everything gets none.
pub async fn page(
    db: &DatabaseConnection,
    caller: &crate::Caller,
    kind: Option<Kind>,
    target: Option<i64>,
    keyset: crate::page::Keyset,
) -> Result<crate::page::Page<fact_import::Model>> {
    let mut q = fact_import::Entity::find();
    if !matches!(caller.scope(), crate::caller::Scope::All) {
        q = q.filter(fact_import::Column::Id.lt(0));
    }
    if let Some(k) = kind {
        q = q.filter(fact_import::Column::Kind.eq(k.code()));
    }
    if let Some(t) = target {
        q = q.filter(fact_import::Column::TargetId.eq(t));
    }
    crate::page::fetch(db, q, fact_import::Column::Id, |i| i.id, keyset).await
}

/// An import's row errors, by row.
pub async fn errors(db: &DatabaseConnection, id: i64) -> Result<Vec<fact_import_error::Model>> {
    Ok(fact_import_error::Entity::find()
        .filter(fact_import_error::Column::ImportId.eq(id))
        .order_by_asc(fact_import_error::Column::RowNumber)
        .order_by_asc(fact_import_error::Column::Id)
        .all(db)
        .await?)
}

/// A carta on a meeting's agenda file: the bank's code, the carta's number and when it reached SEDEC.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgendaEntry {
    /// The bank's code (`BB`).
    pub bank: String,
    /// The bank's carta number.
    pub number: String,
    /// When it reached SEDEC.
    pub received_at: DateTime<Utc>,
}

/// The rows of a file, as parsed, each with its sheet row number.
#[derive(Debug, Clone)]
pub enum Rows {
    /// Acquisitions (their year is the import's), with the day each took effect when the file gives it.
    Acquisitions(Vec<(u32, acquisitions::Acquisition, Option<chrono::NaiveDate>)>),
    /// Items, with the day each took effect when the file gives it.
    CartaItems(Vec<(u32, items::Item, Option<chrono::NaiveDate>)>),
    /// Agenda entries.
    MeetingAgenda(Vec<(u32, AgendaEntry)>),
}

impl Rows {
    /// How many rows.
    pub fn len(&self) -> usize {
        match self {
            Rows::Acquisitions(r) => r.len(),
            Rows::CartaItems(r) => r.len(),
            Rows::MeetingAgenda(r) => r.len(),
        }
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A problem a command found on a row: the row, the command's field (`input.quantityKg`, or `None` for the whole
/// row), what is wrong, and the rule when one refused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowProblem {
    /// The sheet's row number.
    pub row: u32,
    /// The field, as the command names it.
    pub field: Option<&'static str>,
    /// What is wrong.
    pub message: Message,
    /// The rule code, when a rule refused the row.
    pub rule_code: Option<String>,
}

fn problem(row: u32, e: ServiceError) -> std::result::Result<RowProblem, ServiceError> {
    match e {
        ServiceError::BadInput { field, message } | ServiceError::NotFound { field, message } => Ok(RowProblem {
            row,
            field: Some(field),
            message,
            rule_code: None,
        }),
        ServiceError::Rule(v) => Ok(RowProblem {
            row,
            field: None,
            message: Message::new(code::RULE_REFUSED)
                .arg("code", v.code)
                // Stored as the explanation's id and values, rendered in the reader's language.
                .explained(&v.explanation)
                .arg("basis", v.legal_basis),
            rule_code: Some(v.code.to_owned()),
        }),
        e @ (ServiceError::Internal(_)
        | ServiceError::Unavailable(_)
        | ServiceError::Unauthenticated(_)
        | ServiceError::Forbidden(_)) => Err(e),
    }
}

/// Applies the rows of `import` inside `txn` through the commands the mutations call, first removing the list in
/// force that the file replaces. Answers every row a command refused (the caller then rolls back, so nothing is
/// applied) or none; a database failure is an `Err`.
pub async fn apply(
    txn: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    import: &fact_import::Model,
    rows: Rows,
) -> Result<Vec<RowProblem>> {
    let reason = import.reason.as_deref();
    let mut problems = Vec::new();
    // A refusal of the whole file (no reason after the decision, say) is reported on row 0 and stops there.
    let whole = |e: ServiceError| problem(0, e).map(|p| vec![p]);
    match rows {
        Rows::Acquisitions(rows) => {
            let year = import.year.unwrap_or_default();
            let in_force = feedstock_acquisition::Entity::find()
                .filter(feedstock_acquisition::Column::ProjectId.eq(import.target_id))
                .filter(feedstock_acquisition::Column::Year.eq(year))
                .filter(feedstock_acquisition::Column::SupersededAt.is_null())
                .all(txn)
                .await?;
            // The list the file replaces ends on the earliest day the file gives (today when it gives none).
            let ends = rows.iter().filter_map(|r| r.2).min();
            for a in in_force {
                if let Err(e) =
                    versions::withdraw::<feedstock_acquisition::ActiveModel>(txn, act, a.id, reason, ends).await
                {
                    return whole(e);
                }
            }
            for (row, mut a, on) in rows {
                a.year = year;
                if let Err(e) =
                    versions::record::<feedstock_acquisition::ActiveModel>(txn, act, import.target_id, a, reason, on)
                        .await
                {
                    problems.push(problem(row, e)?);
                }
            }
        }
        Rows::CartaItems(rows) => {
            let in_force = fco_carta_item::Entity::find()
                .filter(fco_carta_item::Column::CartaId.eq(import.target_id))
                .filter(fco_carta_item::Column::SupersededAt.is_null())
                .all(txn)
                .await?;
            let ends = rows.iter().filter_map(|r| r.2).min();
            for i in in_force {
                if let Err(e) = versions::withdraw::<fco_carta_item::ActiveModel>(txn, act, i.id, reason, ends).await {
                    return whole(e);
                }
            }
            for (row, item, on) in rows {
                if let Err(e) =
                    versions::record::<fco_carta_item::ActiveModel>(txn, act, import.target_id, item, reason, on).await
                {
                    problems.push(problem(row, e)?);
                }
            }
        }
        Rows::MeetingAgenda(rows) => {
            for (row, entry) in rows {
                let found = async {
                    let b = bank::Entity::find()
                        .filter(bank::Column::Code.eq(entry.bank.trim().to_uppercase()))
                        .one(txn)
                        .await?;
                    let c = match b {
                        Some(b) => {
                            fco_carta::Entity::find()
                                .filter(fco_carta::Column::BankId.eq(b.id))
                                .filter(fco_carta::Column::Number.eq(entry.number.trim()))
                                .one(txn)
                                .await?
                        }
                        None => None,
                    };
                    c.ok_or_else(|| {
                        ServiceError::not_found(
                            "input.cartaId",
                            Message::new(code::CARTA_UNKNOWN_BY_NUMBER)
                                .arg("number", &entry.number)
                                .arg("bank", &entry.bank),
                        )
                    })
                };
                let placed = match found.await {
                    Ok(c) => chamber::place_on_agenda(txn, act, c.id, import.target_id, entry.received_at)
                        .await
                        .map(|_| ()),
                    Err(e) => Err(e),
                };
                if let Err(e) = placed {
                    problems.push(problem(row, e)?);
                }
            }
        }
    }
    Ok(problems)
}
