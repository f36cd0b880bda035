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
    /// The day the party joined the group; none: from the start.
    pub joined_on: Option<Date>,
    /// The day it left (no longer a member from that day); none: still a member.
    pub left_on: Option<Date>,
}

impl Model {
    /// Whether the party was a member on `day`: joined by then and not yet left (the days the membership took
    /// effect, not the moments it was recorded).
    pub fn known_on(&self, day: Date) -> bool {
        self.joined_on.is_none_or(|d| d <= day) && self.left_on.is_none_or(|d| d > day)
    }
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
