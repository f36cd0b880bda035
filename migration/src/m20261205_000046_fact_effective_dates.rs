//! Two times for every fact: the day it took effect (happened, or reached the authority) beside the moment it was
//! recorded. A carta's items, a project's acquisitions, contract proposals and assistance plan get `effective_on` (the
//! first day the version holds) and `ended_on` (the day a later version or a removal took its place), and
//! `dated_by` saying how the day was set when it was not given by a person; a checklist confirmation gets the days it
//! held (a later one ends it instead of deleting it), a group membership the days it began and ended; a project's documents are kept in versions (a document
//! received again is a new row, the earlier one marked superseded), so the dossier as filed stays readable as filed.
//!
//! Rows recorded before this migration take the best day known, and say so in `dated_by`:
//! - a fact's first version: the day the dossier it belongs to was filed (the carta's submission, the project's filing
//!   or, failing it, the bank's framing letter), else the day it was recorded (in Brasília), else none (known from the
//!   start);
//! - a later version: the day it was recorded; the version it replaced ends that day (a removal ends the version on
//!   the day it was recorded);
//! - a confirmation and a membership: the day they were recorded.

use crate::util::{VERSION_COLUMNS, add_columns, drop_columns, version_columns};
use sea_orm_migration::{prelude::*, sea_orm::DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables of facts kept in versions, each with the dossier its first version belongs to: `(table, the SQL of the
/// dossier's day for a row named `f`)`.
const VERSIONED: [(&str, &str); 4] = [
    (
        "fco_carta_item",
        "(SELECT c.submitted_on FROM fco_carta c WHERE c.id = f.carta_id)",
    ),
    (
        "feedstock_acquisition",
        "(SELECT COALESCE(p.filed_on, p.bank_framed_on) FROM social_fuel_project p WHERE p.id = f.project_id)",
    ),
    (
        "contract_proposal",
        "(SELECT COALESCE(p.filed_on, p.bank_framed_on) FROM social_fuel_project p WHERE p.id = f.project_id)",
    ),
    (
        "assistance_plan",
        "(SELECT COALESCE(p.filed_on, p.bank_framed_on) FROM social_fuel_project p WHERE p.id = f.project_id)",
    ),
];

/// The Brasília day of timestamp column `column` (UTC−3: the hour of daylight saving some years had is not worth a
/// day here; the value is the best known and marked so).
fn day_of(backend: DbBackend, column: &str) -> String {
    match backend {
        DbBackend::Postgres => format!("(({column}) AT TIME ZONE 'America/Sao_Paulo')::date"),
        _ => format!("date({column}, '-3 hours')"),
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let backend = manager.get_database_backend();
        for (table, dossier) in VERSIONED {
            add_columns(
                manager,
                table,
                [
                    ColumnDef::new("effective_on").date().null().to_owned(),
                    ColumnDef::new("ended_on").date().null().to_owned(),
                    ColumnDef::new("dated_by").string().null().to_owned(),
                ],
            )
            .await?;
            let recorded = day_of(backend, "f.recorded_at");
            // First versions: no row names them as the version they replaced.
            db.execute_unprepared(&format!(
                "UPDATE {table} SET effective_on = (SELECT COALESCE({dossier}, {recorded}) FROM {table} f
                                                    WHERE f.id = {table}.id),
                    dated_by = 'migration 46: the day the dossier was filed, else the day recorded'
                 WHERE NOT EXISTS (SELECT 1 FROM {table} o WHERE o.superseded_by = {table}.id)"
            ))
            .await?;
            db.execute_unprepared(&format!(
                "UPDATE {table} SET effective_on = (SELECT {recorded} FROM {table} f WHERE f.id = {table}.id),
                    dated_by = 'migration 46: the day recorded'
                 WHERE EXISTS (SELECT 1 FROM {table} o WHERE o.superseded_by = {table}.id)"
            ))
            .await?;
            let superseded = day_of(backend, "f.superseded_at");
            db.execute_unprepared(&format!(
                "UPDATE {table} SET ended_on = (SELECT COALESCE(n.effective_on, {superseded})
                                                FROM {table} f LEFT JOIN {table} n ON n.id = f.superseded_by
                                                WHERE f.id = {table}.id)
                 WHERE superseded_at IS NOT NULL"
            ))
            .await?;
        }
        add_columns(
            manager,
            "checklist_confirmation",
            [
                ColumnDef::new("effective_on").date().null().to_owned(),
                ColumnDef::new("ended_on").date().null().to_owned(),
            ],
        )
        .await?;
        let confirmed = day_of(backend, "confirmed_at");
        db.execute_unprepared(&format!("UPDATE checklist_confirmation SET effective_on = {confirmed}"))
            .await?;
        // One confirmation of a rule in force per financing; the ones it ended stay beside it.
        db.execute_unprepared("DROP INDEX uq_checklist_confirmation").await?;
        db.execute_unprepared(
            "CREATE UNIQUE INDEX uq_checklist_confirmation_in_force ON checklist_confirmation
             (programme, financing_id, rule_code) WHERE ended_on IS NULL",
        )
        .await?;
        add_columns(
            manager,
            "economic_group_membership",
            [
                ColumnDef::new("joined_on").date().null().to_owned(),
                ColumnDef::new("left_on").date().null().to_owned(),
            ],
        )
        .await?;
        let (joined, left) = (day_of(backend, "joined_at"), day_of(backend, "left_at"));
        db.execute_unprepared(&format!(
            "UPDATE economic_group_membership SET joined_on = {joined}, left_on = {left}"
        ))
        .await?;
        add_columns(manager, "project_document", version_columns()).await?;
        // One document of each kind in force per project; the versions it replaced stay beside it.
        db.execute_unprepared("DROP INDEX uq_project_document_project_id_kind")
            .await?;
        db.execute_unprepared(
            "CREATE UNIQUE INDEX uq_project_document_in_force ON project_document (project_id, kind)
             WHERE superseded_at IS NULL",
        )
        .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // Only the version in force of each document goes back (the table held one per kind).
        let db = manager.get_connection();
        db.execute_unprepared("DELETE FROM project_document WHERE superseded_at IS NOT NULL")
            .await?;
        db.execute_unprepared("DROP INDEX uq_project_document_in_force").await?;
        db.execute_unprepared(
            "CREATE UNIQUE INDEX uq_project_document_project_id_kind ON project_document (project_id, kind)",
        )
        .await?;
        drop_columns(manager, "project_document", &VERSION_COLUMNS).await?;
        drop_columns(manager, "economic_group_membership", &["left_on", "joined_on"]).await?;
        db.execute_unprepared("DELETE FROM checklist_confirmation WHERE ended_on IS NOT NULL")
            .await?;
        db.execute_unprepared("DROP INDEX uq_checklist_confirmation_in_force")
            .await?;
        db.execute_unprepared(
            "CREATE UNIQUE INDEX uq_checklist_confirmation ON checklist_confirmation (programme, financing_id, rule_code)",
        )
        .await?;
        drop_columns(manager, "checklist_confirmation", &["ended_on", "effective_on"]).await?;
        for (table, _) in VERSIONED {
            drop_columns(manager, table, &["dated_by", "ended_on", "effective_on"]).await?;
        }
        Ok(())
    }
}
