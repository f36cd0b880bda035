//! Compliance flags carry a severity (`INFO`, `WARNING`, `VIOLATION`) and, for a deadline, the day it falls due, so
//! that the flag list can be filtered by both. The ingestion's cross-checks are violations.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "compliance_flag",
            [
                ColumnDef::new("severity")
                    .string()
                    .not_null()
                    .default("VIOLATION")
                    .to_owned(),
                ColumnDef::new("due_on").date().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "compliance_flag", &["due_on", "severity"]).await
    }
}
