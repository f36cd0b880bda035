//! A data row of a bank report that was not applied: a later row of the same report declared its carta again (the last
//! row of a carta wins). An applied row leaves no row here: the carta holds its values, and the raw file stays in the
//! store. (Reports ingested before 2026-12-03 also have a row, `APPLIED`, for each applied row.)

use sea_orm::entity::prelude::*;

/// A row that was not applied.
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
    /// `DUPLICATE`: a later row of the same report declares its carta again. (`APPLIED` only in reports ingested
    /// before 2026-12-03.)
    pub outcome: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
