//! A change to an approved carta (CDAE/MT 2019, art. 15).

use super::vocab::AmendmentKind;
use crate::domain::Money;
use sea_orm::entity::prelude::*;

/// An amendment row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "fco_carta_amendment")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The carta.
    pub carta_id: i64,
    /// What changes.
    pub kind: AmendmentKind,
    /// When it was requested.
    pub requested_on: Date,
    /// Financed value before, in centavos.
    pub old_amount: Option<Money>,
    /// Financed value after, in centavos.
    pub new_amount: Option<Money>,
    /// What was asked.
    pub description: String,
    /// Whether the change needs a new approval (FCO-AMENDMENT).
    pub requires_new_approval: bool,
    /// When it was recorded (set by the database on insert, migration 55; none: from before, known from the start).
    pub recorded_at: Option<DateTimeUtc>,
    /// For a change of municipality (art. 15 d): whether the properties of the municipality the financing moves to
    /// are among those the carta listed; none when not stated (migration 58).
    pub properties_listed: Option<bool>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
