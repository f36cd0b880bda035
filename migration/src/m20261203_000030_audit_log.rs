//! The audit log: every mutation, upload, export, key operation and refused call, append-only (nothing updates or
//! deletes it; on PostgreSQL a trigger refuses both).

use sea_orm_migration::{prelude::*, schema::big_pk_auto};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("audit_log")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(ColumnDef::new("at").timestamp_with_time_zone().not_null())
                    .col(ColumnDef::new("actor").string().not_null())
                    .col(ColumnDef::new("action").string().not_null())
                    .col(ColumnDef::new("target").string().null())
                    .col(ColumnDef::new("outcome").string_len(16).not_null())
                    .col(ColumnDef::new("detail").string().null())
                    .col(ColumnDef::new("remote").string().null())
                    .to_owned(),
            )
            .await?;
        if manager.get_database_backend() == sea_orm::DbBackend::Postgres {
            manager
                .get_connection()
                .execute_unprepared(
                    "CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                     BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
                     CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
                     FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();",
                )
                .await?;
        } else {
            manager
                .get_connection()
                .execute_unprepared(
                    "CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
                     BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                     CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
                     BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;",
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("audit_log").if_exists().to_owned())
            .await?;
        if manager.get_database_backend() == sea_orm::DbBackend::Postgres {
            manager
                .get_connection()
                .execute_unprepared("DROP FUNCTION IF EXISTS audit_log_append_only()")
                .await?;
        }
        Ok(())
    }
}
