//! A carta a bank report declared (provenance): which cartas a bank listed in a month.

use sea_orm::entity::prelude::*;

/// A (report, carta) pair.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bank_report_carta")]
pub struct Model {
    /// The report.
    #[sea_orm(primary_key, auto_increment = false)]
    pub report_id: i64,
    /// A carta it declared.
    #[sea_orm(primary_key, auto_increment = false)]
    pub carta_id: i64,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
