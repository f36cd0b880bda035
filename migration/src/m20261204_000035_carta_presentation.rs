//! The act the 120 days of a CDAE approval wait for (issue 16, point 2): art. 3 sole § gives an approved carta 120
//! days to *present the project to the bank*, not to contract. Unknown until stated (by the graph or the bank's list).

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "fco_carta",
            [ColumnDef::new("presented_on").date().null().to_owned()],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "fco_carta", &["presented_on"]).await
    }
}
