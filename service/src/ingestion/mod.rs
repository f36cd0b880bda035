//! The ingestion of a bank's monthly list (CDAE/MT 2019, art. 2 §5) as a use case: the ingestion job reads the sheet
//! and parses its rows ([`ReportRow`], or [`RowError`]s); this applies them to the report's bank in one transaction
//! ([`apply`], then [`Applied::finish`]), or records why the report is refused ([`reject`]). The rows' own findings
//! come from the rules in `entity::rules::fco::listed`, the group ceiling from [`crate::ceiling`], and every flag is
//! written by the one flag writer ([`crate::flags::write`]).
//!
//! The writes are set-based (each batch of 5,000 rows is a few statements, [`bulk`]): see `docs/decisions.md`.

mod apply;
mod bulk;
mod prepare;
mod statements;

pub use apply::{Applied, Ingested};

use crate::messages::Message;
use chrono::{DateTime, NaiveDate, Utc};
use entity::{
    bank_report, bank_report_error,
    domain::{Document, Money},
    municipality,
    vocab::{FcoActivity, FcoLine},
};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ConnectionTrait, DbErr, EntityTrait, IntoActiveModel, QuerySelect};

/// A row of a bank's list that parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRow {
    /// The sheet's row number (1-based).
    pub row: u32,
    /// The bank's carta number.
    pub carta_number: String,
    /// The borrower's name.
    pub borrower: String,
    /// CPF or CNPJ.
    pub document: Document,
    /// IBGE code of the municipality.
    pub municipality: i32,
    /// Programme line.
    pub line: FcoLine,
    /// Activity.
    pub activity: FcoActivity,
    /// Financed value.
    pub financed: Money,
    /// Contracted value.
    pub contracted: Option<Money>,
    /// Approval date.
    pub approved_on: NaiveDate,
    /// Contracting date.
    pub contracted_on: Option<NaiveDate>,
    /// The day the project was presented to the bank.
    pub presented_on: Option<NaiveDate>,
    /// Term in months.
    pub term_months: Option<i32>,
    /// Grace in months.
    pub grace_months: Option<i32>,
}

/// A problem on a row of a sheet (a bank's list or an import).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// The sheet's row number (1-based).
    pub row: u32,
    /// The column's header as found in the file.
    pub column: Option<String>,
    /// The offending value, as text.
    pub value: Option<String>,
    /// What is wrong.
    pub message: Message,
    /// The rule code, when a rule is broken.
    pub rule_code: Option<String>,
}

/// Every municipality's IBGE code and name, for the reader to recognise a municipality written by name.
pub async fn municipality_names(db: &impl ConnectionTrait) -> Result<Vec<(i32, String)>, DbErr> {
    municipality::Entity::find()
        .select_only()
        .column(municipality::Column::IbgeCode)
        .column(municipality::Column::Name)
        .into_tuple()
        .all(db)
        .await
}

/// Applies `report`'s parsed rows, in the batches `rows` sends until it closes, inside `txn` (the report's claim
/// held): parties and cartas written, the rows' own findings (dates outside the declared period, FCO-VALIDITY-120D,
/// FCO-CHAMBER-THRESHOLD) raised. The reading's verdict decides what follows: [`Applied::finish`] for a whole
/// reading, or the transaction rolled back and [`reject`]. `presented_on_column` is the header the findings name for
/// the day the project was presented.
pub async fn apply<'a>(
    txn: &crate::txn::Bulk,
    report: &'a bank_report::Model,
    rows: tokio::sync::mpsc::Receiver<Vec<ReportRow>>,
    presented_on_column: &'static str,
    now: DateTime<Utc>,
) -> Result<Applied<'a>, DbErr> {
    apply::run(txn, report, rows, presented_on_column, now).await
}

/// Records `report` as `REJECTED` inside `txn` (the report's claim held), by `worker`: its `rows` read, its row
/// errors, or why the file as a whole could not be read. Nothing of it was applied.
pub async fn reject(
    txn: &impl ConnectionTrait,
    report: &bank_report::Model,
    rows: usize,
    file_error: Option<&Message>,
    errors: &[RowError],
    worker: &str,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    for chunk in errors.chunks(1000) {
        bank_report_error::Entity::insert_many(chunk.iter().map(|e| bank_report_error::ActiveModel {
            report_id: Set(report.id),
            row_number: Set(e.row as i32),
            column_name: Set(e.column.clone()),
            value: Set(e.value.clone()),
            message: Set(e.message.to_string()),
            message_code: Set(Some(e.message.code.clone())),
            message_args: Set(Some(e.message.args_json())),
            rule_code: Set(e.rule_code.clone()),
            ..Default::default()
        }))
        .exec_without_returning(txn)
        .await?;
    }
    let mut a = report.clone().into_active_model();
    a.status = Set("REJECTED".into());
    a.row_count = Set(Some(rows as i32));
    a.error_count = Set(Some(errors.len().max(usize::from(file_error.is_some())) as i32));
    a.file_error = Set(file_error.map(Message::to_string));
    a.file_error_code = Set(file_error.map(|m| m.code.clone()));
    a.file_error_args = Set(file_error.map(Message::args_json));
    a.processed_at = Set(Some(now));
    a.lease_until = Set(None);
    a.claimed_by = Set(Some(worker.to_owned()));
    a.update(txn).await?;
    Ok(())
}
