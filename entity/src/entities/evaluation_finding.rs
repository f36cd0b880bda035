//! A finding of MDA's external evaluation of a project (IN MDA 2/2005, art. 11).

use sea_orm::entity::prelude::*;

/// Whether the evaluation found one criterion of the seal met.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "evaluation_finding")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The project.
    pub project_id: i64,
    /// The criterion, by its rule code (`SF-SHARE-MIN`).
    pub criterion: String,
    /// Whether it was found met.
    pub conforming: bool,
    /// What the evaluation says about it.
    pub note: Option<String>,
    /// Who evaluated (the external evaluator).
    pub evaluator: String,
    /// The evaluation report's reference.
    pub report_reference: Option<String>,
    /// When it was found.
    pub found_on: Date,
    /// When it was recorded.
    pub recorded_at: DateTimeUtc,
    /// Who recorded it.
    pub recorded_by: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
