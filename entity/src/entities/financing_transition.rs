//! The append-only history of lifecycle transitions: what, when, by whom, from which stage.

use super::vocab::Programme;
use sea_orm::entity::prelude::*;

/// A transition row; rows are only ever inserted.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "financing_transition")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Programme of the financing.
    pub programme: Programme,
    /// Id of the project or carta.
    pub financing_id: i64,
    /// The stage before, if any (none on creation).
    pub from_stage: Option<String>,
    /// The stage after.
    pub to_stage: String,
    /// The event (`FILE`, `DECIDE`, ...).
    pub event: String,
    /// The legal date of the event.
    pub occurred_on: Date,
    /// When it was recorded.
    pub recorded_at: DateTimeUtc,
    /// Who recorded it.
    pub actor: String,
    /// A note as text: a person's, or Fomento's own before migration 61; none when the note is stored as `note_id`
    /// and `note_args`.
    pub note: Option<String>,
    /// The catalogue message of a note Fomento writes itself (`history-expired`), rendered when read.
    pub note_id: Option<String>,
    /// Its values, as JSON (as a flag's `message_args`).
    pub note_args: Option<String>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
