//! The technical-assistance plan of a social-fuel project (IN MDA nº 2/2005, art. 6). Whether it is "compatible with the
//! acquisitions" is a human judgement: who confirmed it, and when, is kept.

use sea_orm::entity::prelude::*;

/// A technical-assistance plan row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "assistance_plan")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The project (one plan in force per project; corrected versions are kept).
    pub project_id: i64,
    /// Staff with CVs and roles.
    pub staff_description: Option<String>,
    /// Whether the assistance is outsourced.
    pub outsourced: bool,
    /// Reference of the outsourcing contract, when outsourced.
    pub outsourcing_contract: Option<String>,
    /// Coverage: states, municipalities, communities, settlements.
    pub coverage_area: Option<String>,
    /// Number of farmers assisted.
    pub farmers_assisted: Option<i32>,
    /// Methodology and activities.
    pub methodology: Option<String>,
    /// Who confirmed that the plan is compatible with the acquisitions.
    pub confirmed_by: Option<String>,
    /// When that was confirmed.
    pub confirmed_at: Option<DateTimeUtc>,
    /// When this version was recorded (none: from before versions, known from the start).
    pub recorded_at: Option<DateTimeUtc>,
    /// Who recorded it.
    pub recorded_by: Option<String>,
    /// When it was corrected (none: current).
    pub superseded_at: Option<DateTimeUtc>,
    /// The version that corrected it.
    pub superseded_by: Option<i64>,
    /// Why it was re-recorded after MDA's decision.
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
