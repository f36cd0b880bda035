//! Compliance flags carry a severity (`INFO`, `WARNING`, `VIOLATION`) and, for a deadline, the day it falls due, so
//! that the flag list can be filtered by both. The ingestion's cross-checks are violations.

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
                    .table("compliance_flag")
                    .add_column(ColumnDef::new("severity").string().not_null().default("VIOLATION"))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table("compliance_flag")
                    .add_column(ColumnDef::new("due_on").date().null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in ["due_on", "severity"] {
            manager
                .alter_table(Table::alter().table("compliance_flag").drop_column(column).to_owned())
                .await?;
        }
        Ok(())
    }
}
