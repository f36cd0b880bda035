//! A key's own request rate (for load tests and integrations that need more than the server's default), and when a
//! raw uploaded file was purged from the store at the end of its retention (`fomento files purge`): the report or
//! import stays, with its rows and outcome; only the file is gone.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "api_key",
            [ColumnDef::new("rate_per_second").integer().null().to_owned()],
        )
        .await?;
        for table in ["bank_report", "fact_import"] {
            add_columns(
                manager,
                table,
                [ColumnDef::new("raw_purged_at")
                    .timestamp_with_time_zone()
                    .null()
                    .to_owned()],
            )
            .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in ["fact_import", "bank_report"] {
            drop_columns(manager, table, &["raw_purged_at"]).await?;
        }
        drop_columns(manager, "api_key", &["rate_per_second"]).await
    }
}
