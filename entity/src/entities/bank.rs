//! A financial institution (agente financeiro): BNDES and accredited banks for social fuel; Banco do Brasil,
//! Sicredi and Desenvolve MT for FCO in Mato Grosso.

use sea_orm::entity::prelude::*;

/// Banco do Brasil's code: the bank that reports to the CPACR every 60 days (CDAE/MT 2019, art. 2 §1).
pub const BANCO_DO_BRASIL: &str = "BB";

/// A bank row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bank")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Short stable code used by bank scripts (`BB`, `SICREDI`).
    #[sea_orm(unique)]
    pub code: String,
    /// Display name.
    pub name: String,
    /// Whether the bank finances social-fuel projects.
    pub serves_social_fuel: bool,
    /// Whether the bank operates FCO Rural in Mato Grosso.
    pub serves_fco: bool,
    /// Whether the bank has the MDA technical-cooperation agreement (IN MDA nº 2/2005, art. 7).
    pub mda_cooperation_agreement: bool,
}

/// No declared relations: related rows are loaded by DataLoaders.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

impl Entity {
    /// The id of the bank with this code (`BB`), or 0 when there is none.
    pub async fn find_by_code(db: &impl ConnectionTrait, code: &str) -> i64 {
        Self::find()
            .filter(Column::Code.eq(code))
            .one(db)
            .await
            .ok()
            .flatten()
            .map(|b| b.id)
            .unwrap_or(0)
    }
}
