//! Failed ingestions: a report counts the attempts made to ingest it and keeps the last error, so that a report whose
//! ingestion fails is retried a bounded number of times and then ends `FAILED`, instead of being claimed for ever.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "bank_report",
            [
                ColumnDef::new("attempts").integer().not_null().default(0).to_owned(),
                ColumnDef::new("last_error").text().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "bank_report", &["last_error", "attempts"]).await
    }
}
