//! One data row of a bank report and its outcome.

use sea_orm::entity::prelude::*;

/// A row outcome.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bank_report_row")]
pub struct Model {
    /// The report.
    #[sea_orm(primary_key, auto_increment = false)]
    pub report_id: i64,
    /// Row number in the sheet, as the bank sees it (1-based).
    #[sea_orm(primary_key, auto_increment = false)]
    pub row_number: i32,
    /// The carta number on the row; with the report's bank it names the carta (`fco_carta.bank_id`, `number`).
    pub carta_number: Option<String>,
    /// `APPLIED`, or `DUPLICATE` for a row whose carta a later row of the same report declares again.
    pub outcome: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
