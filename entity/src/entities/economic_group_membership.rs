//! A party's membership of an economic group, as recorded: when it joined and when it left.

use sea_orm::entity::prelude::*;

/// A membership.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "economic_group_membership")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The group.
    pub group_id: i64,
    /// The member.
    pub party_id: i64,
    /// When the joining was recorded (none: before the history was kept, known from the start).
    pub joined_at: Option<DateTimeUtc>,
    /// Who recorded it.
    pub recorded_by: String,
    /// When the leaving was recorded (none: still a member).
    pub left_at: Option<DateTimeUtc>,
    /// Who recorded the leaving.
    pub left_recorded_by: Option<String>,
}

impl Model {
    /// Whether this membership was the one known on `day` (Brasília).
    pub fn known_on(&self, day: Date) -> bool {
        crate::domain::known_on(self.joined_at, self.left_at, day)
    }
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
