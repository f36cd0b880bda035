//! Which cartas each bank report declared: one row per (report, carta), written set-based in the report's transaction.
//! It answers which cartas a bank listed in a month and which it dropped since the month before. The report that
//! created a carta is on the carta (`fco_carta.created_by_report`, written by its insert at no extra cost), so the pairs
//! need no second index by carta. Like `fco_carta`'s references on PostgreSQL (migrations 8 and 10), its references are not foreign keys:
//! the ingestion writes a million of them at a time, and both ids come from rows the same transaction wrote.

use crate::util::{add_columns, drop_columns};
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
        add_columns(
            manager,
            "fco_carta",
            [ColumnDef::new("created_by_report").big_integer().null().to_owned()],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "fco_carta", &["created_by_report"]).await?;
        manager
            .drop_table(Table::drop().table("bank_report_carta").if_exists().to_owned())
            .await
    }
}
