//! A meeting of the CPACR chamber of CDAE/MT, which gives opinions on cartas at or above the threshold.

use sea_orm::entity::prelude::*;

/// A chamber meeting row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "chamber_meeting")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// When the meeting starts; cartas must arrive 72 hours before (art. 2 §7).
    pub starts_at: DateTimeUtc,
    /// When the result report went to the banks (72 hours after the opinion, art. 3).
    pub results_sent_at: Option<DateTimeUtc>,
    /// Free notes.
    pub notes: Option<String>,
    /// When the CPACR gave its opinion on the meeting's cartas, from which art. 3's 72 hours count ("após a obtenção
    /// de parecer"); unknown when not recorded (the meeting's start is read instead).
    pub opinion_at: Option<DateTimeUtc>,
    /// The reference of the CPACR's opinion or of the meeting's minutes.
    pub opinion_reference: Option<String>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
