//! A day kept as data in the non-business calendar (`calendar_day`): closed beyond weekends and national holidays (a
//! state or municipal holiday, a declared closure), or open on a *ponto facultativo*; for one authority (`FEDERAL`,
//! `MATO_GROSSO`, `BANKING`) or for `ALL`. Deadlines ending on a closed day move to the next business day (Lei
//! 9.784/1999, art. 66 §1).

use crate::rules::calendar::{Authority, Calendar, CalendarDay};
use sea_orm::entity::prelude::*;

/// A calendar row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "calendar_day")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The day.
    pub day: Date,
    /// The authority whose office days it concerns, or `ALL`.
    pub authority: String,
    /// Open on a ponto facultativo (true) or closed (false).
    pub open: bool,
    /// Why.
    pub reason: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// As the calendar reads it.
    pub fn calendar_day(&self) -> CalendarDay {
        CalendarDay {
            day: self.day,
            authority: Authority::parse(&self.authority),
            open: self.open,
            reason: self.reason.clone(),
        }
    }
}

impl Entity {
    /// The legal calendar: national holidays, pontos facultativos and every stored day, for the federal offices by
    /// default (a rule takes its authority's view with [`Calendar::of`]).
    pub async fn calendar(db: &impl ConnectionTrait) -> Result<Calendar, DbErr> {
        let days = Self::find().all(db).await?;
        Ok(Calendar::national().with_days(days.iter().map(Model::calendar_day)))
    }
}
