//! `bank_report_row` without foreign keys. It is an append-only record of what each sheet row of a report did, written
//! only by the ingestion, in the same transaction as its report's cartas; a million-row report paid two foreign-key
//! checks per row for it (measured on PostgreSQL 15: 9 µs a row with them, 3 µs without). Reports and cartas are
//! never deleted, and `tests/` checks every outcome names a carta of its report.

use crate::util::fk;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const FKS: [(&str, &str); 2] = [("report_id", "bank_report"), ("carta_id", "fco_carta")];

/// SQLite cannot drop a constraint: the table is rebuilt, with or without its foreign keys, in one batch of
/// statements on one connection (spread over the pool, the rename could meet a connection still seeing the old table).
async fn rebuild_on_sqlite(manager: &SchemaManager<'_>, with_fks: bool) -> Result<(), DbErr> {
    let fks = if with_fks {
        FKS.iter()
            .map(|(column, target)| {
                format!(
                    ", CONSTRAINT \"fk_bank_report_row_{column}\" FOREIGN KEY (\"{column}\") REFERENCES \"{target}\" (\"id\") ON DELETE RESTRICT"
                )
            })
            .collect::<String>()
    } else {
        String::new()
    };
    let sql = format!(
        r#"CREATE TABLE "bank_report_row_rebuilt" (
             "id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "report_id" integer NOT NULL,
             "row_number" integer NOT NULL, "carta_number" varchar NULL, "carta_id" integer NULL,
             "outcome" varchar NOT NULL{fks});
           INSERT INTO "bank_report_row_rebuilt" ("id", "report_id", "row_number", "carta_number", "carta_id", "outcome")
             SELECT "id", "report_id", "row_number", "carta_number", "carta_id", "outcome" FROM "bank_report_row";
           DROP TABLE "bank_report_row";
           ALTER TABLE "bank_report_row_rebuilt" RENAME TO "bank_report_row";
           CREATE INDEX "idx_bank_report_row_report_id_row_number" ON "bank_report_row" ("report_id", "row_number");"#
    );
    manager.get_connection().execute_unprepared(&sql).await?;
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() == sea_orm::DbBackend::Sqlite {
            return rebuild_on_sqlite(manager, false).await;
        }
        for (column, _) in FKS {
            manager
                .drop_foreign_key(
                    ForeignKey::drop()
                        .name(format!("fk_bank_report_row_{column}"))
                        .table("bank_report_row")
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() == sea_orm::DbBackend::Sqlite {
            return rebuild_on_sqlite(manager, true).await;
        }
        for (column, target) in FKS {
            manager
                .create_foreign_key(fk("bank_report_row", column, target).to_owned())
                .await?;
        }
        Ok(())
    }
}
