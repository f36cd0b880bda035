//! A day without office hours beyond weekends and national holidays (state holiday, declared closure): deadlines
//! ending on it move to the next business day (Lei 9.784/1999, art. 66 §1).

use crate::rules::calendar::Calendar;
use sea_orm::entity::prelude::*;

/// A non-business day row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "non_business_day")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The day.
    #[sea_orm(unique)]
    pub day: Date,
    /// Why there are no office hours.
    pub reason: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

impl Entity {
    /// The legal calendar: national holidays plus every stored closure.
    pub async fn calendar(db: &impl ConnectionTrait) -> Result<Calendar, DbErr> {
        let days = Self::find().all(db).await?;
        Ok(Calendar::national().with_closures(days.into_iter().map(|d| (d.day, d.reason))))
    }
}
