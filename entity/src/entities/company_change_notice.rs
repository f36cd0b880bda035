//! A change the company reported (IN MDA nº 2/2005, art. 12).

use super::vocab::CompanyChangeKind;
use sea_orm::entity::prelude::*;

/// A change notice row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "company_change_notice")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The project.
    pub project_id: i64,
    /// What changed.
    pub kind: CompanyChangeKind,
    /// When it was reported.
    pub notified_on: Date,
    /// What the company said.
    pub description: String,
    /// The supporting documents.
    pub documents: Option<String>,
    /// When it was recorded (set by the database on insert, migration 55; none: from before, known from the start).
    pub recorded_at: Option<DateTimeUtc>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
