//! Bank-facing messages are stored as a catalogue code and its values, and rendered when read in the reader's language
//! (Portuguese by default, English on request). The rendered Portuguese text stays in `message`/`file_error`, so older
//! readers and rows written before this step keep working.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const COLUMNS: [(&str, &str); 4] = [
    ("bank_report_error", "message_code"),
    ("bank_report_error", "message_args"),
    ("bank_report", "file_error_code"),
    ("bank_report", "file_error_args"),
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // SQLite takes one column per ALTER TABLE.
        for (table, column) in COLUMNS {
            manager
                .alter_table(
                    Table::alter()
                        .table(table)
                        .add_column(ColumnDef::new(column).text().null())
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (table, column) in COLUMNS.iter().rev() {
            manager
                .alter_table(Table::alter().table(*table).drop_column(*column).to_owned())
                .await?;
        }
        Ok(())
    }
}
