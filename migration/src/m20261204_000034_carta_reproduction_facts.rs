//! Two facts of a carta the chamber's ratios need (issue 16, point 4): the sires the producer already has, shown in
//! the technical project (CDAE/MT art. 6 I c lets them stand for purchased ones), and whether the swine herd breeds by
//! artificial insemination (art. 8 §5: 1 boar per 100 sows instead of 20). Unknown until stated.

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
            [
                ColumnDef::new("existing_sires").integer().null().to_owned(),
                ColumnDef::new("artificial_insemination").boolean().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "fco_carta", &["artificial_insemination", "existing_sires"]).await
    }
}
