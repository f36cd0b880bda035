//! The annex-I checklist: which of the six required documents a social-fuel request carries (IN MDA nº 2/2005, art. 8).

use super::vocab::ProjectDocumentKind;
use sea_orm::entity::prelude::*;

/// A document received with a request.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "project_document")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The project.
    pub project_id: i64,
    /// Which of the six documents.
    pub kind: ProjectDocumentKind,
    /// When it was received.
    pub received_on: Date,
    /// Protocol or file reference.
    pub reference: Option<String>,
    /// When this version was recorded (none: before versions were kept).
    pub recorded_at: Option<DateTimeUtc>,
    /// Who recorded it.
    pub recorded_by: Option<String>,
    /// When a document of the same kind received again took its place (none: the version in force). The dossier as
    /// filed keeps it: a document counts as received from its `received_on` whatever came after.
    pub superseded_at: Option<DateTimeUtc>,
    /// The version that took its place.
    pub superseded_by: Option<i64>,
    /// Why it was received again, once the request was filed.
    pub change_reason: Option<String>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
