//! One data row of a bank report and its outcome.

use sea_orm::entity::prelude::*;

/// A row outcome.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bank_report_row")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The report.
    pub report_id: i64,
    /// Row number in the sheet, as the bank sees it (1-based).
    pub row_number: i32,
    /// The carta number on the row.
    pub carta_number: Option<String>,
    /// The carta the row was applied to.
    pub carta_id: Option<i64>,
    /// `APPLIED` or `ERROR`.
    pub outcome: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
