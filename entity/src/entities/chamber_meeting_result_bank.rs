//! Which banks received a chamber meeting's result report (CDAE/MT 2019, art. 3: "às Instituições financeiras que
//! apresentaram propostas").

use sea_orm::entity::prelude::*;

/// One bank that received one meeting's result report.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "chamber_meeting_result_bank")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The meeting.
    pub meeting_id: i64,
    /// The bank.
    pub bank_id: i64,
    /// When it was recorded.
    pub recorded_at: DateTimeUtc,
    /// Who recorded it.
    pub recorded_by: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
