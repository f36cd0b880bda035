//! Art. 14 of the CDAE/MT instruction (issue 16, points 8 and 10): special demands the instruction does not
//! prioritise are analysed, exceptionally, by the CPACR and CDAE, whatever their amount. Whether a carta is one is a
//! fact the bank states when it files it.

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
            [ColumnDef::new("special_demand")
                .boolean()
                .not_null()
                .default(false)
                .to_owned()],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "fco_carta", &["special_demand"]).await
    }
}
