//! PostgreSQL: `fco_carta`'s index on `status` holds only the statuses a carta reaches outside the banks' monthly lists
//! (draft, in analysis, denied, ended). Approved and active cartas are the bulk of the table: a filter on them reads
//! most rows, so no plan would use the index for them, yet every carta a monthly report inserts paid for an entry. A
//! filter on a rare status still finds its rows through the index: PostgreSQL proves that `status = 'DENIED'` (or an
//! `IN` list of rare statuses) implies the index's condition, also through the `financing` view.
//!
//! SQLite keeps the full index: it uses a partial index only when the query repeats the index's condition, and its
//! inserts are cheap.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEX: &str = "idx_fco_carta_status";

/// The statuses most cartas hold: those a bank's monthly list writes (`FcoCartaStage::status` of approved and
/// contracted cartas).
const COMMON: &str = "'APPROVED', 'ACTIVE'";

/// The index again, with `filter` (PostgreSQL only).
async fn recreate(manager: &SchemaManager<'_>, filter: &str) -> Result<(), DbErr> {
    if manager.get_database_backend() != sea_orm::DbBackend::Postgres {
        return Ok(());
    }
    manager
        .get_connection()
        .execute_unprepared(&format!(
            "DROP INDEX \"{INDEX}\"; CREATE INDEX \"{INDEX}\" ON \"fco_carta\" (\"status\"){filter};"
        ))
        .await?;
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        recreate(manager, &format!(" WHERE \"status\" NOT IN ({COMMON})")).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        recreate(manager, "").await
    }
}
