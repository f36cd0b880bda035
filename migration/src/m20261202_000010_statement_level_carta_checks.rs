//! PostgreSQL: every reference of `fco_carta` is checked once per statement, each distinct value looked up once.
//!
//! - The statement-level check of migration 8 now reads the distinct values of each column before the anti-join: a
//!   report's cartas name one bank, a few municipalities and fewer parties than cartas, and the check probed the
//!   parent's key once per carta for each reference.
//! - `chamber_meeting_id` and `resubmission_of` join it. The ingestion leaves both empty, but as foreign keys they
//!   still queued and ran a trigger for every carta inserted (about 3 µs a carta on PostgreSQL 15). Empty values are
//!   skipped, as a foreign key skips them; deleting or re-keying a chamber meeting or a carta that a carta names is
//!   refused by the same guards as migration 8's parents, with the constraint names and SQLSTATE of the foreign keys.
//!
//! SQLite keeps its foreign keys.

use crate::m20261202_000008_set_based_carta_references::{CHECK_FUNCTION, REFERENCES};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The references moved from foreign keys to the statement-level check: (column, parent table, parent key).
const MOVED: [(&str, &str, &str); 2] = [
    ("chamber_meeting_id", "chamber_meeting", "id"),
    ("resubmission_of", "fco_carta", "id"),
];

/// Migration 8's check, and the same with `SELECT DISTINCT` over the statement's non-empty new values.
const DISTINCT_CHECK: (&str, &str) = (
    "'SELECT n.%1$I::text FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM %2$I p WHERE p.%3$I = n.%1$I) LIMIT 1'",
    "'SELECT d.v::text FROM (SELECT DISTINCT n.%1$I AS v FROM new_rows n WHERE n.%1$I IS NOT NULL) d
              WHERE NOT EXISTS (SELECT 1 FROM %2$I p WHERE p.%3$I = d.v) LIMIT 1'",
);

/// The check function over `references`, per statement and distinct (`up`) or as migration 8 wrote it.
pub(crate) async fn define(db: &impl ConnectionTrait, up: bool) -> Result<(), DbErr> {
    let mut references: Vec<(&str, &str, &str)> = REFERENCES.iter().map(|(c, p, k, _)| (*c, *p, *k)).collect();
    if up {
        references.extend(MOVED);
    }
    let references = references
        .iter()
        .map(|(column, parent, key)| format!("('{column}', '{parent}', '{key}')"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut function = CHECK_FUNCTION.replace("{references}", &references);
    if up {
        if !function.contains(DISTINCT_CHECK.0) {
            return Err(DbErr::Migration(
                "migration 8's check is not the one this step rewrites".into(),
            ));
        }
        function = function.replace(DISTINCT_CHECK.0, DISTINCT_CHECK.1);
    }
    db.execute_unprepared(&function).await?;
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != sea_orm::DbBackend::Postgres {
            return Ok(());
        }
        let db = manager.get_connection();
        define(db, true).await?;
        for (column, parent, key) in MOVED {
            db.execute_unprepared(&format!(
                "ALTER TABLE fco_carta DROP CONSTRAINT fk_fco_carta_{column};
                 CREATE TRIGGER {parent}_fco_carta_{column}_guard_delete AFTER DELETE ON {parent}
                 REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
                 EXECUTE FUNCTION fco_carta_parent_guard('{column}', '{key}');
                 CREATE TRIGGER {parent}_fco_carta_{column}_guard_update AFTER UPDATE OF {key} ON {parent}
                 FOR EACH ROW WHEN (OLD.{key} IS DISTINCT FROM NEW.{key})
                 EXECUTE FUNCTION fco_carta_parent_guard('{column}', '{key}')"
            ))
            .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != sea_orm::DbBackend::Postgres {
            return Ok(());
        }
        let db = manager.get_connection();
        for (column, parent, key) in MOVED {
            db.execute_unprepared(&format!(
                "DROP TRIGGER {parent}_fco_carta_{column}_guard_delete ON {parent};
                 DROP TRIGGER {parent}_fco_carta_{column}_guard_update ON {parent};
                 ALTER TABLE fco_carta ADD CONSTRAINT fk_fco_carta_{column} FOREIGN KEY ({column})
                     REFERENCES {parent} ({key}) ON DELETE RESTRICT"
            ))
            .await?;
        }
        define(db, false).await
    }
}
