//! A project's technical-assistance plan kept in versions, as its acquisitions and proposals are (migrations 18–20):
//! a plan re-recorded after MDA's decision is a new version, the old one kept. The table had one row per project (a
//! column-level UNIQUE); PostgreSQL drops that constraint in place, SQLite (which cannot) rebuilds the table.

use crate::util::{VERSION_COLUMNS, add_columns, drop_columns, fk, version_columns};
use sea_orm_migration::{prelude::*, schema::*, sea_orm::DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The plan table under `name`, its project column unique or not.
fn plan_table(name: &'static str, unique: bool) -> TableCreateStatement {
    let project = if unique {
        big_integer_uniq("project_id")
    } else {
        big_integer("project_id")
    };
    Table::create()
        .table(name)
        .col(big_pk_auto("id"))
        .col(project)
        .col(text_null("staff_description"))
        .col(boolean("outsourced"))
        .col(text_null("outsourcing_contract"))
        .col(text_null("coverage_area"))
        .col(integer_null("farmers_assisted"))
        .col(text_null("methodology"))
        .col(string_null("confirmed_by"))
        .col(timestamp_with_time_zone_null("confirmed_at"))
        .foreign_key(&mut fk(name, "project_id", "social_fuel_project"))
        .to_owned()
}

const COLUMNS: &str = concat!(
    "id, project_id, staff_description, outsourced, outsourcing_contract, coverage_area, ",
    "farmers_assisted, methodology, confirmed_by, confirmed_at"
);

/// SQLite: rebuilds the table as `plan_table(unique)`, in one batch on one connection (the pool's other connections
/// would not see the new table under its old name in time).
async fn rebuild_sqlite(manager: &SchemaManager<'_>, unique: bool) -> Result<(), DbErr> {
    let create = plan_table("assistance_plan_rebuilt", unique).to_string(SqliteQueryBuilder);
    manager
        .get_connection()
        .execute_unprepared(&format!(
            "{create}; INSERT INTO assistance_plan_rebuilt ({COLUMNS}) SELECT {COLUMNS} FROM assistance_plan; \
             DROP TABLE assistance_plan; ALTER TABLE assistance_plan_rebuilt RENAME TO assistance_plan;"
        ))
        .await
        .map(|_| ())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() == DbBackend::Sqlite {
            rebuild_sqlite(manager, false).await?;
        } else {
            manager
                .get_connection()
                .execute_unprepared(
                    "ALTER TABLE assistance_plan DROP CONSTRAINT IF EXISTS assistance_plan_project_id_key",
                )
                .await?;
        }
        add_columns(manager, "assistance_plan", version_columns()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("DELETE FROM assistance_plan WHERE superseded_at IS NOT NULL")
            .await?;
        drop_columns(manager, "assistance_plan", &VERSION_COLUMNS).await?;
        if manager.get_database_backend() == DbBackend::Sqlite {
            rebuild_sqlite(manager, true).await
        } else {
            db.execute_unprepared(
                "ALTER TABLE assistance_plan ADD CONSTRAINT assistance_plan_project_id_key UNIQUE (project_id)",
            )
            .await
            .map(|_| ())
        }
    }
}
