//! The open flags' index by source keeps the reports' flags only (`report:N`, resolved when the report is
//! superseded). The job's flags share one source (`job:flag-deadlines`): every one was an entry under one key,
//! maintained on each insert and resolution (on PostgreSQL, about a tenth of the cost of writing the 70,914 flags of
//! a first pass over 1M cartas) and read by no statement the index served better than the primary key; the planner,
//! misled by it before statistics were gathered, read every open flag for each range of ids the pass reads.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("DROP INDEX IF EXISTS idx_compliance_flag_source_open")
            .await?;
        db.execute_unprepared(
            "CREATE INDEX IF NOT EXISTS idx_compliance_flag_report_open ON compliance_flag (source)
             WHERE resolved_at IS NULL AND source LIKE 'report:%'",
        )
        .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("DROP INDEX IF EXISTS idx_compliance_flag_report_open")
            .await?;
        db.execute_unprepared(
            "CREATE INDEX IF NOT EXISTS idx_compliance_flag_source_open ON compliance_flag (source)
             WHERE resolved_at IS NULL",
        )
        .await?;
        Ok(())
    }
}
