//! Failed ingestions: a report counts the attempts made to ingest it and keeps the last error, so that a report whose
//! ingestion fails is retried a bounded number of times and then ends `FAILED`, instead of being claimed for ever.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // SQLite takes one column per ALTER TABLE.
        manager
            .alter_table(
                Table::alter()
                    .table("bank_report")
                    .add_column(ColumnDef::new("attempts").integer().not_null().default(0))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table("bank_report")
                    .add_column(ColumnDef::new("last_error").text().null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in ["last_error", "attempts"] {
            manager
                .alter_table(Table::alter().table("bank_report").drop_column(column).to_owned())
                .await?;
        }
        Ok(())
    }
}
