//! The `financing` view: social-fuel projects and FCO cartas as one list, so one query filters, orders and pages
//! over both programmes.

use super::vocab::{FinancingStatus, Programme};
use crate::domain::Money;
use sea_orm::entity::prelude::*;

/// A row of the `financing` view (read-only).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "financing")]
pub struct Model {
    /// Which programme.
    #[sea_orm(primary_key, auto_increment = false)]
    pub programme: Programme,
    /// Id of the project or carta.
    #[sea_orm(primary_key, auto_increment = false)]
    pub record_id: i64,
    /// The bank.
    pub bank_id: i64,
    /// The producer or borrower.
    pub party_id: i64,
    /// IBGE code of the plant or property.
    pub municipality_code: i32,
    /// Requested (social fuel) or financed (FCO) value.
    pub amount: Money,
    /// Cross-programme status.
    pub status: FinancingStatus,
    /// Filing or submission date.
    pub submitted_on: Option<Date>,
    /// Decision date.
    pub decided_on: Option<Date>,
    /// Financing approval (social fuel) or contracting (FCO) date.
    pub contracted_on: Option<Date>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
