//! A checklist item confirmed by a person: rules that need a document or a human judgement (the assistance plan's
//! compatibility, the GTA, seed origin, ...).

use super::vocab::Programme;
use sea_orm::entity::prelude::*;

/// A confirmation row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "checklist_confirmation")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Programme of the financing.
    pub programme: Programme,
    /// Id of the project or carta.
    pub financing_id: i64,
    /// The rule confirmed.
    pub rule_code: String,
    /// Who confirmed.
    pub confirmed_by: String,
    /// When.
    pub confirmed_at: DateTimeUtc,
    /// What they saw.
    pub note: Option<String>,
    /// The day the confirmation was made (the rule counts as confirmed from it); none: the day of `confirmed_at`.
    pub effective_on: Option<Date>,
    /// The day a later confirmation, or a new version of what it judged (an assistance plan), took its place; none:
    /// still holds.
    pub ended_on: Option<Date>,
    /// When it was ended (migration 55; none: still holds, or ended before the moment was kept).
    pub ended_at: Option<DateTimeUtc>,
}

impl Model {
    /// Whether the confirmation held on `day`, in Brasília.
    pub fn known_on(&self, day: Date) -> bool {
        self.effective_on
            .unwrap_or_else(|| crate::domain::brasilia_date(self.confirmed_at))
            <= day
            && self.ended_on.is_none_or(|d| d > day)
    }
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
