//! The typed lists' default order (latest submission first, then creation order: `ORDER BY submitted_on DESC NULLS
//! LAST, id`) read from an index, so a page of `fcoCartas` or `socialFuelProjects` reads its rows in order and stops
//! at the page's end instead of sorting every carta (issue 17). PostgreSQL's index names the null order; SQLite puts
//! nulls last in a descending index already.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const INDEXES: [(&str, &str, &str); 2] = [
    ("idx_fco_carta_submitted_on_id", "fco_carta", "submitted_on"),
    ("idx_social_fuel_project_filed_on_id", "social_fuel_project", "filed_on"),
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let nulls = match manager.get_database_backend() {
            sea_orm::DbBackend::Postgres => " NULLS LAST",
            _ => "",
        };
        let db = manager.get_connection();
        for (name, table, column) in INDEXES {
            db.execute_unprepared(&format!(
                "CREATE INDEX IF NOT EXISTS {name} ON {table} ({column} DESC{nulls}, id)"
            ))
            .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        for (name, _, _) in INDEXES {
            db.execute_unprepared(&format!("DROP INDEX IF EXISTS {name}")).await?;
        }
        Ok(())
    }
}
