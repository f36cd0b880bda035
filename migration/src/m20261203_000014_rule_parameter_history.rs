//! Rule-parameter versions can be withdrawn or corrected, never silently changed: a withdrawn version keeps its row
//! with when and why; a corrected one also names the version that replaced it. The rules read only versions in force.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const COLUMNS: [&str; 3] = ["withdrawn_at", "withdrawal_reason", "replaced_by"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // SQLite takes one column per ALTER TABLE.
        for def in [
            ColumnDef::new("withdrawn_at")
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new("withdrawal_reason").text().null().to_owned(),
            ColumnDef::new("replaced_by").big_integer().null().to_owned(),
        ] {
            manager
                .alter_table(Table::alter().table("rule_parameter").add_column(def).to_owned())
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in COLUMNS.iter().rev() {
            manager
                .alter_table(Table::alter().table("rule_parameter").drop_column(*column).to_owned())
                .await?;
        }
        Ok(())
    }
}
