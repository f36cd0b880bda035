//! A contract proposal with family farmers, through a farmers' representation (IN MDA nº 2/2005, art. 5).

use super::vocab::RepresentationKind;
use sea_orm::entity::prelude::*;

/// A contract proposal row: the representation and the six terms of art. 5 sole §.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "contract_proposal")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The project.
    pub project_id: i64,
    /// The kind of representation.
    pub representation_kind: RepresentationKind,
    /// The representation's name.
    pub representation_name: String,
    /// Contract term, in months.
    pub term_months: Option<i32>,
    /// Purchase price as written in the proposal.
    pub purchase_price: Option<String>,
    /// Price-adjustment criteria.
    pub price_adjustment: Option<String>,
    /// Delivery conditions.
    pub delivery_conditions: Option<String>,
    /// Safeguards for each party.
    pub safeguards: Option<String>,
    /// Whether the representation is identified and agreed.
    pub representation_agreed: bool,
    /// When this version was recorded (none: from before versions, known from the start).
    pub recorded_at: Option<DateTimeUtc>,
    /// Who recorded it.
    pub recorded_by: Option<String>,
    /// When it was corrected or removed (none: current).
    pub superseded_at: Option<DateTimeUtc>,
    /// The version that corrected it (none when it was removed or is current).
    pub superseded_by: Option<i64>,
    /// Why it was corrected or removed, or recorded after MDA's decision.
    pub change_reason: Option<String>,
    /// The first day this version holds (the fact happened, or took this form); none: from the start.
    pub effective_on: Option<Date>,
    /// The day a later version or a removal took its place (the version holds until the day before); none: still
    /// holds.
    pub ended_on: Option<Date>,
    /// How `effective_on` was set when no person gave it (migration 46's best day known); none: given.
    pub dated_by: Option<String>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
