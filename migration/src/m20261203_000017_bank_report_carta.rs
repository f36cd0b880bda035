//! Which cartas each bank report declared: one row per (report, carta), written set-based in the report's transaction.
//! It answers which cartas a bank listed in a month, which it dropped since the month before, and which report created
//! a carta. Like `fco_carta`'s references on PostgreSQL (migrations 8 and 10), its references are not foreign keys:
//! the ingestion writes a million of them at a time, and both ids come from rows the same transaction wrote.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("bank_report_carta")
                    .if_not_exists()
                    .col(ColumnDef::new("report_id").big_integer().not_null())
                    .col(ColumnDef::new("carta_id").big_integer().not_null())
                    .primary_key(Index::create().col("report_id").col("carta_id"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_bank_report_carta_carta_id")
                    .table("bank_report_carta")
                    .col("carta_id")
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("bank_report_carta").if_exists().to_owned())
            .await
    }
}
