//! PostgreSQL: `TRUNCATE` of a table a carta names is refused, as a foreign key refuses it. Migrations 8 and 10
//! replaced `fco_carta`'s foreign keys to `bank`, `party`, `municipality` and `chamber_meeting` by statement-level
//! checks, whose delete guards do not see a `TRUNCATE`. A `BEFORE TRUNCATE` trigger on each now waits for the
//! transactions writing cartas (as the delete guard does) and refuses while any carta names a row of the table: SQLSTATE
//! 0A000 (`feature_not_supported`), as PostgreSQL refuses a table referenced by a foreign key, naming the constraint the
//! foreign key had.
//!
//! Unlike a foreign key, `TRUNCATE parent, fco_carta` in one command is refused too (the trigger fires before either
//! table is emptied), and so is `TRUNCATE parent CASCADE`: truncate `fco_carta` first. `fco_carta`'s reference to
//! itself (`resubmission_of`) needs no guard: truncating it removes the referring rows with it. SQLite has no
//! `TRUNCATE`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The guarded tables: (parent, the carta's column naming it).
const PARENTS: [(&str, &str); 4] = [
    ("bank", "bank_id"),
    ("party", "party_id"),
    ("municipality", "municipality_code"),
    ("chamber_meeting", "chamber_meeting_id"),
];

const GUARD_FUNCTION: &str = r#"
CREATE OR REPLACE FUNCTION fco_carta_parent_truncate_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    col text := TG_ARGV[0];
    named boolean;
BEGIN
    -- Wait for transactions writing cartas, then look with a fresh snapshot.
    LOCK TABLE fco_carta IN SHARE MODE;
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM fco_carta WHERE %I IS NOT NULL)', col) INTO named;
    IF named THEN
        RAISE EXCEPTION 'cannot truncate table "%" referenced in foreign key constraint "fk_fco_carta_%" on table "fco_carta"',
            TG_TABLE_NAME, col
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = format('Table "fco_carta" references "%s".', TG_TABLE_NAME),
                  HINT = 'Truncate table "fco_carta" first.',
                  TABLE = TG_TABLE_NAME, CONSTRAINT = 'fk_fco_carta_' || col;
    END IF;
    RETURN NULL;
END $$"#;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() != sea_orm::DbBackend::Postgres {
            return Ok(());
        }
        let db = manager.get_connection();
        db.execute_unprepared(GUARD_FUNCTION).await?;
        for (parent, column) in PARENTS {
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {parent}_fco_carta_{column}_guard_truncate BEFORE TRUNCATE ON {parent}
                 FOR EACH STATEMENT EXECUTE FUNCTION fco_carta_parent_truncate_guard('{column}')"
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
        for (parent, column) in PARENTS {
            db.execute_unprepared(&format!(
                "DROP TRIGGER {parent}_fco_carta_{column}_guard_truncate ON {parent}"
            ))
            .await?;
        }
        db.execute_unprepared("DROP FUNCTION fco_carta_parent_truncate_guard()")
            .await?;
        Ok(())
    }
}
