//! Which banks attended a chamber meeting: an absent bank's proposals are not considered (art. 2 §6).

use sea_orm::entity::prelude::*;

/// One bank at one meeting.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "chamber_attendance")]
pub struct Model {
    /// The meeting.
    #[sea_orm(primary_key, auto_increment = false)]
    pub meeting_id: i64,
    /// The bank.
    #[sea_orm(primary_key, auto_increment = false)]
    pub bank_id: i64,
    /// Whether the bank was present.
    pub present: bool,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
