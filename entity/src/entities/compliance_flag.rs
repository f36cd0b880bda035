//! A compliance finding on a project or carta, raised by a job or an ingestion, with its rule and legal basis.

use super::vocab::Programme;
use sea_orm::entity::prelude::*;

/// A compliance flag row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "compliance_flag")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Programme of the flagged financing.
    pub programme: Programme,
    /// Id of the project or carta.
    pub financing_id: i64,
    /// The rule code (`SF-EXTERNAL-EVAL-6M`).
    pub rule_code: String,
    /// The legal basis (`IN MDA 2005, art. 11`).
    pub legal_basis: String,
    /// What was found, with the numbers used.
    pub message: String,
    /// What raised it (`job:deadlines`, `report:42`).
    pub source: String,
    /// When it was raised.
    pub raised_at: DateTimeUtc,
    /// When it was resolved, if it was.
    pub resolved_at: Option<DateTimeUtc>,
    /// `INFO`, `WARNING` (due within the look-ahead window) or `VIOLATION` (overdue or violated).
    pub severity: String,
    /// For a deadline, the day it falls due.
    pub due_on: Option<Date>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
