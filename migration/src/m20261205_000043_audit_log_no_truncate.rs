//! PostgreSQL: `TRUNCATE audit_log` is refused, as UPDATE and DELETE are (migration 30): a statement-level trigger
//! does not fire on `TRUNCATE`, which needs a `BEFORE TRUNCATE` trigger of its own. SQLite has no `TRUNCATE`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != sea_orm::DbBackend::Postgres {
            return Ok(());
        }
        manager
            .get_connection()
            .execute_unprepared(
                "CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
                 FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != sea_orm::DbBackend::Postgres {
            return Ok(());
        }
        manager
            .get_connection()
            .execute_unprepared("DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log")
            .await?;
        Ok(())
    }
}
