//! A delimitation of the semi-arid an operator loaded (`fomento import semi-arid`): its instrument and dates.

use sea_orm::entity::prelude::*;

/// One loaded delimitation.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "semi_arid_delimitation")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The instrument that delimited it.
    #[sea_orm(unique)]
    pub source: String,
    /// First day in force.
    pub effective_from: Date,
    /// Last day in force: the day before the next later delimitation, if any.
    pub effective_to: Option<Date>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
