//! Rule-parameter versions can be withdrawn or corrected, never silently changed: a withdrawn version keeps its row
//! with when and why; a corrected one also names the version that replaced it. The rules read only versions in force.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "rule_parameter",
            [
                ColumnDef::new("withdrawn_at")
                    .timestamp_with_time_zone()
                    .null()
                    .to_owned(),
                ColumnDef::new("withdrawal_reason").text().null().to_owned(),
                ColumnDef::new("replaced_by").big_integer().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(
            manager,
            "rule_parameter",
            &["replaced_by", "withdrawal_reason", "withdrawn_at"],
        )
        .await
    }
}
