//! The dashboards the `build-dashboards` job builds: one per day it is as of, its figures and tables as JSON.

use sea_orm_migration::{prelude::*, schema::big_pk_auto};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("dashboard_snapshot")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(ColumnDef::new("as_of").date().not_null().unique_key())
                    .col(ColumnDef::new("built_at").timestamp_with_time_zone().not_null())
                    .col(ColumnDef::new("body").text().not_null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("dashboard_snapshot").if_exists().to_owned())
            .await
    }
}
