//! Membership of a municipality in the official semi-arid delimitation, as a dated list: the delimitation is
//! revised by SUDENE, and the 50 % social-fuel share applies to the semi-arid (IN MDA nº 2/2005, art. 3).

use sea_orm::entity::prelude::*;

/// One period during which a municipality belonged to the semi-arid.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "semi_arid_membership")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The municipality.
    pub ibge_code: i32,
    /// First day of membership.
    pub effective_from: Date,
    /// Last day of membership, if it ended.
    pub effective_to: Option<Date>,
    /// The instrument that delimited it.
    pub source: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
