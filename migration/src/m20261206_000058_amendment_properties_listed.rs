//! The condition of art. 15(d) of the IN CDAE/MT 2019 gets a typed fact: a change of the municipality a carta's
//! financing benefits needs no new approval "desde que os demais imóveis estejam relacionados na carta consulta".
//! `fco_carta_amendment.properties_listed` records whether the properties of the municipality the financing moves to
//! are among those the carta listed (true), are not (false), or was not stated (none: amendments recorded before,
//! which FCO-AMENDMENT reads as the condition not shown).

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "fco_carta_amendment",
            [ColumnDef::new("properties_listed").boolean().null().to_owned()],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "fco_carta_amendment", &["properties_listed"]).await
    }
}
