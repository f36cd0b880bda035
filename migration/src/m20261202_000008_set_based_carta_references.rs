//! On PostgreSQL, `fco_carta`'s references to its bank, its party and its municipality are checked once per statement
//! instead of once per row. A foreign key runs a trigger for every row written, each a locking lookup (measured by
//! `bench/pg-carta-costs.sh` on PostgreSQL 15, 100,000 cartas inserted in one statement: 1.8 s with the foreign keys,
//! 0.8 s without, 0.9 s with the statement-level check below); the monthly reports write a million cartas in one
//! transaction.
//!
//! What stays enforced, as a foreign key would:
//! - a carta inserted or updated must name an existing bank, party and municipality: an `AFTER INSERT` and an
//!   `AFTER UPDATE` trigger read the statement's new rows (a transition table) and look for one without its referenced
//!   row; the error is SQLSTATE 23503 (`foreign_key_violation`) naming the constraint the foreign key had;
//! - a bank, party or municipality still named by a carta cannot be deleted, nor its key changed: the delete trigger
//!   first waits for the transactions writing cartas (`LOCK TABLE fco_carta IN SHARE MODE`), so a carta committed
//!   meanwhile is seen by its check (READ COMMITTED, the isolation Fomento runs in).
//!
//! `TRUNCATE` of a parent is not guarded (a foreign key refuses it); Fomento never truncates. SQLite keeps its foreign
//! keys: each check there is a B-tree probe inside the same process, and its bulk path stays within the target.
//!
//! Both backends: `party`'s indexes on `cnpj_root` and `economic_group_id` become partial (`IS NOT NULL`); most
//! borrowers are people without a group, and every lookup by either column is an equality on a value.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The references checked per statement: (column, parent table, parent key, what the foreign key said on delete).
pub(crate) const REFERENCES: [(&str, &str, &str, &str); 3] = [
    ("bank_id", "bank", "id", " ON DELETE RESTRICT"),
    ("party_id", "party", "id", " ON DELETE RESTRICT"),
    ("municipality_code", "municipality", "ibge_code", ""),
];

const PARTIAL: [&str; 2] = ["cnpj_root", "economic_group_id"];

/// The check, over `{references}`: a `VALUES` list of (column, parent, key).
pub(crate) const CHECK_FUNCTION: &str = r#"
CREATE OR REPLACE FUNCTION fco_carta_references_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ref record;
    missing text;
BEGIN
    FOR ref IN SELECT * FROM (VALUES {references}) AS r(col, parent, key) LOOP
        -- Dynamic, so each statement is planned for its own number of rows.
        EXECUTE format(
            'SELECT n.%1$I::text FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM %2$I p WHERE p.%3$I = n.%1$I) LIMIT 1',
            ref.col, ref.parent, ref.key) INTO missing;
        IF missing IS NOT NULL THEN
            RAISE EXCEPTION 'insert or update on table "fco_carta" violates foreign key constraint "fk_fco_carta_%"',
                ref.col
                USING ERRCODE = 'foreign_key_violation',
                      DETAIL = format('Key (%s)=(%s) is not present in table "%s".', ref.col, missing, ref.parent),
                      TABLE = 'fco_carta', CONSTRAINT = 'fk_fco_carta_' || ref.col;
        END IF;
    END LOOP;
    RETURN NULL;
END $$"#;

const GUARD_FUNCTION: &str = r#"
CREATE OR REPLACE FUNCTION fco_carta_parent_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    col text := TG_ARGV[0];
    key text := TG_ARGV[1];
    still text;
BEGIN
    -- Wait for transactions writing cartas, then look with a fresh snapshot.
    LOCK TABLE fco_carta IN SHARE MODE;
    IF TG_OP = 'DELETE' THEN
        EXECUTE format(
            'SELECT o.%2$I::text FROM old_rows o WHERE EXISTS (SELECT 1 FROM fco_carta c WHERE c.%1$I = o.%2$I) LIMIT 1',
            col, key) INTO still;
    ELSE
        EXECUTE format('SELECT ($1).%2$I::text FROM fco_carta c WHERE c.%1$I = ($1).%2$I LIMIT 1', col, key)
            USING OLD INTO still;
    END IF;
    IF still IS NOT NULL THEN
        RAISE EXCEPTION 'update or delete on table "%" violates foreign key constraint "fk_fco_carta_%" on table "fco_carta"',
            TG_TABLE_NAME, col
            USING ERRCODE = 'foreign_key_violation',
                  DETAIL = format('Key (%s)=(%s) is still referenced from table "fco_carta".', key, still),
                  TABLE = TG_TABLE_NAME, CONSTRAINT = 'fk_fco_carta_' || col;
    END IF;
    RETURN NULL;
END $$"#;

/// One batch on one connection (spread over SQLite's pool, the create could meet a connection still seeing the index).
async fn partial_indexes(manager: &SchemaManager<'_>, partial: bool) -> Result<(), DbErr> {
    let sql: String = PARTIAL
        .iter()
        .map(|column| {
            let filter = if partial {
                format!(" WHERE \"{column}\" IS NOT NULL")
            } else {
                String::new()
            };
            format!(
                "DROP INDEX \"idx_party_{column}\"; CREATE INDEX \"idx_party_{column}\" ON \"party\" (\"{column}\"){filter};"
            )
        })
        .collect();
    manager.get_connection().execute_unprepared(&sql).await?;
    Ok(())
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        partial_indexes(manager, true).await?;
        if manager.get_database_backend() != sea_orm::DbBackend::Postgres {
            return Ok(());
        }
        let db = manager.get_connection();
        for (column, ..) in REFERENCES {
            db.execute_unprepared(&format!("ALTER TABLE fco_carta DROP CONSTRAINT fk_fco_carta_{column}"))
                .await?;
        }
        let references = REFERENCES
            .iter()
            .map(|(column, parent, key, _)| format!("('{column}', '{parent}', '{key}')"))
            .collect::<Vec<_>>()
            .join(", ");
        db.execute_unprepared(&CHECK_FUNCTION.replace("{references}", &references))
            .await?;
        db.execute_unprepared(GUARD_FUNCTION).await?;
        for event in ["INSERT", "UPDATE"] {
            db.execute_unprepared(&format!(
                "CREATE TRIGGER fco_carta_references_{event} AFTER {event} ON fco_carta
                 REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION fco_carta_references_check()"
            ))
            .await?;
        }
        for (column, parent, key, _) in REFERENCES {
            db.execute_unprepared(&format!(
                "CREATE TRIGGER {parent}_fco_carta_guard_delete AFTER DELETE ON {parent}
                 REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
                 EXECUTE FUNCTION fco_carta_parent_guard('{column}', '{key}');
                 CREATE TRIGGER {parent}_fco_carta_guard_update AFTER UPDATE OF {key} ON {parent}
                 FOR EACH ROW WHEN (OLD.{key} IS DISTINCT FROM NEW.{key})
                 EXECUTE FUNCTION fco_carta_parent_guard('{column}', '{key}')"
            ))
            .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        partial_indexes(manager, false).await?;
        if manager.get_database_backend() != sea_orm::DbBackend::Postgres {
            return Ok(());
        }
        let db = manager.get_connection();
        for (column, parent, key, on_delete) in REFERENCES {
            db.execute_unprepared(&format!(
                "DROP TRIGGER {parent}_fco_carta_guard_delete ON {parent};
                 DROP TRIGGER {parent}_fco_carta_guard_update ON {parent};
                 ALTER TABLE fco_carta ADD CONSTRAINT fk_fco_carta_{column} FOREIGN KEY ({column})
                     REFERENCES {parent} ({key}){on_delete}"
            ))
            .await?;
        }
        db.execute_unprepared(
            "DROP TRIGGER fco_carta_references_INSERT ON fco_carta;
             DROP TRIGGER fco_carta_references_UPDATE ON fco_carta;
             DROP FUNCTION fco_carta_references_check();
             DROP FUNCTION fco_carta_parent_guard();",
        )
        .await?;
        Ok(())
    }
}
