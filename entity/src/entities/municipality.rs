//! A Brazilian municipality by IBGE code; its UF and region follow from the code.

use crate::domain::IbgeCode;
use sea_orm::entity::prelude::*;

/// A municipality row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "municipality")]
pub struct Model {
    /// The 7-digit IBGE code.
    #[sea_orm(primary_key, auto_increment = false)]
    pub ibge_code: i32,
    /// Official name.
    pub name: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// The code as a domain value (UF, region).
    pub fn code(&self) -> Option<IbgeCode> {
        u32::try_from(self.ibge_code).ok().and_then(|c| IbgeCode::new(c).ok())
    }
}
