//! Banco do Brasil's report to the CPACR every 60 days (CDAE/MT 2019, art. 2 §1).

use sea_orm::entity::prelude::*;

/// A 60-day report received from a bank.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bank_periodic_report")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The bank (Banco do Brasil).
    pub bank_id: i64,
    /// When the CPACR received it.
    pub received_on: Date,
    /// First day of the period it covers.
    pub period_from: Option<Date>,
    /// Last day of the period it covers.
    pub period_to: Option<Date>,
    /// Protocol or letter reference.
    pub reference: Option<String>,
    /// When it was recorded.
    pub recorded_at: DateTimeUtc,
    /// Who recorded it.
    pub recorded_by: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
