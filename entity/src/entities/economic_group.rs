//! An economic group, cooperative or association: the FCO R$ 15 M ceiling counts the whole group (CDAE/MT 2019,
//! art. 4).

use sea_orm::entity::prelude::*;

/// An economic group row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "economic_group")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Display name.
    pub name: String,
    /// `GROUP`, `COOPERATIVE` or `ASSOCIATION`.
    pub kind: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
