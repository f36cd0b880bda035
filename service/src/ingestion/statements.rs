//! The statements the ingestion runs, written once per report: parties and cartas by the batch, read from a common
//! table expression `s` of the batch's rows ([`super::bulk`]), and the lookups that answer with one row of joined keys.

use super::bulk::{self, Write};
use chrono::{DateTime, Utc};
use entity::{
    bank_report,
    vocab::{Decision, FcoCartaStage, Programme},
};
use sea_orm::{DbErr, Statement, Value};
use std::collections::HashMap;

/// Parties by document. The applier inserts only the documents it did not find, so a known party keeps its name and
/// the insert is a plain one (an `ON CONFLICT` clause made PostgreSQL probe the unique index a second time per row).
pub(super) const PARTY_COLS: [bulk::Col; 4] = [
    bulk::col("document", "text"),
    bulk::col("document_kind", "text"),
    bulk::col("cnpj_root", "text"),
    bulk::col("name", "text"),
];
pub(super) const PARTY_INSERT: &str = "INSERT INTO party (document, document_kind, cnpj_root, name)
    SELECT s.document, s.document_kind, s.cnpj_root, s.name FROM s";

/// A carta's values as the statements read them, its party's id first. Its bank, the chamber's decision (a bank lists
/// approved cartas), the decision's date (the approval's) and its stage (approved, or contracted when the row has a
/// contract date: [`listed`]) follow from the report or the row and are written in the SQL; the time it is recorded
/// is one value per statement.
pub(super) const CARTA_COLS: [bulk::Col; 13] = [
    bulk::col("party_id", "bigint"),
    bulk::col("number", "text"),
    bulk::col("line", "text"),
    bulk::col("activity", "text"),
    bulk::col("financed_amount", "bigint"),
    bulk::col("municipality_code", "integer"),
    bulk::col("approved_on", "date"),
    bulk::col("contracted_on", "date"),
    bulk::col("contracted_amount", "bigint"),
    bulk::col("term_months", "integer"),
    bulk::col("grace_months", "integer"),
    bulk::col("presented_on", "date"),
    bulk::col("borrower_name", "text"),
];

/// The stage of a carta a bank lists: contracted when the row has a contract date, else approved. Its status follows
/// from the stage.
pub(super) fn listed_stage(contracted: bool) -> FcoCartaStage {
    if contracted {
        FcoCartaStage::Contracted
    } else {
        FcoCartaStage::Approved
    }
}

/// The rows of `s`, named `r`, with the stage (and its status) of a carta a bank lists ([`listed_stage`]).
pub(super) fn listed() -> String {
    use sea_orm::ActiveEnum;
    let (approved, contracted) = (listed_stage(false), listed_stage(true));
    format!(
        "(SELECT s.*,
            CASE WHEN s.contracted_on IS NULL THEN '{}' ELSE '{}' END AS stage,
            CASE WHEN s.contracted_on IS NULL THEN '{}' ELSE '{}' END AS status
          FROM s) r",
        approved.to_value(),
        contracted.to_value(),
        approved.status().to_value(),
        contracted.status().to_value()
    )
}

/// A new carta of bank `bank` is inserted as approved or contracted; its `created_at` is the statement's constant, and
/// `created_by_report` records that `report` declared it (the provenance of the cartas a report creates: no row of
/// `bank_report_carta` is written for them, [`crate::reports::declared_by`]).
fn carta_insert(backend: sea_orm::DbBackend, bank: i64, report: i64) -> String {
    let favourable = sea_orm::ActiveEnum::to_value(&Decision::Favourable);
    let created_at = bulk::constant(backend, &CARTA_COLS, 0, "timestamptz");
    format!(
        "INSERT INTO fco_carta (number, bank_id, party_id, line, activity, financed_amount, municipality_code, stage,
            status, decision, decided_on, approved_on, contracted_on, contracted_amount, term_months, grace_months,
            presented_on, borrower_name, created_at, created_by_report)
        SELECT r.number, {bank}, r.party_id, r.line, r.activity, r.financed_amount, r.municipality_code, r.stage,
            r.status, '{favourable}', r.approved_on, r.approved_on, r.contracted_on, r.contracted_amount, r.term_months,
            r.grace_months, r.presented_on, r.borrower_name, {created_at}, {report}
        FROM {}",
        listed()
    )
}

/// A known carta of bank `bank` takes the row's values and moves to the row's stage unless it is already further on
/// (contracted) or was refused; a contract always applies. (Every `SET` expression reads the carta as it was, on both
/// backends.)
fn carta_update(bank: i64) -> String {
    format!(
        "UPDATE fco_carta SET
            party_id = r.party_id,
            financed_amount = r.financed_amount,
            approved_on = r.approved_on,
            contracted_on = r.contracted_on,
            contracted_amount = r.contracted_amount,
            term_months = COALESCE(r.term_months, fco_carta.term_months),
            grace_months = COALESCE(r.grace_months, fco_carta.grace_months),
            presented_on = COALESCE(r.presented_on, fco_carta.presented_on),
            borrower_name = r.borrower_name,
            stage = CASE WHEN fco_carta.stage IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'EXPIRED')
                           OR r.stage = 'CONTRACTED' THEN r.stage ELSE fco_carta.stage END,
            status = CASE WHEN fco_carta.stage IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'EXPIRED')
                            OR r.stage = 'CONTRACTED' THEN r.status ELSE fco_carta.status END,
            expired_on = CASE WHEN (fco_carta.stage IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'EXPIRED')
                                    OR r.stage = 'CONTRACTED') AND r.stage <> 'EXPIRED'
                              THEN NULL ELSE fco_carta.expired_on END
        FROM {}
        WHERE fco_carta.bank_id = {bank} AND fco_carta.number = r.number",
        listed()
    )
}

/// The stage changes this report's rows cause to known cartas of bank `bank` (approved → contracted, submitted →
/// approved, ...), as history rows of the carta's lifecycle (`CONTRACT` or `DECIDE`) by `bank report N`. It reads the
/// same rows as [`carta_update`], runs just before it, and writes a row where the update will change the stage (the
/// same condition); the instant it is recorded is the statement's constant.
fn carta_history(backend: sea_orm::DbBackend, bank: i64, report: &bank_report::Model) -> String {
    use sea_orm::ActiveEnum;
    let contracted = FcoCartaStage::Contracted.to_value();
    let recorded_at = bulk::constant(backend, &CARTA_COLS, 0, "timestamptz");
    format!(
        "INSERT INTO financing_transition (programme, financing_id, from_stage, to_stage, event, occurred_on,
            recorded_at, actor, note, note_id, note_args)
        SELECT '{programme}', fco_carta.id, fco_carta.stage, r.stage,
            CASE WHEN r.stage = '{contracted}' THEN 'CONTRACT' ELSE 'DECIDE' END,
            COALESCE(r.contracted_on, r.approved_on), {recorded_at}, 'bank report {id}',
            NULL, 'history-declared-in-list', '{note_args}'
        FROM {listed} JOIN fco_carta ON fco_carta.bank_id = {bank} AND fco_carta.number = r.number
        WHERE (fco_carta.stage IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'EXPIRED') OR r.stage = '{contracted}')
          AND fco_carta.stage <> r.stage",
        programme = Programme::FcoRural.to_value(),
        id = report.id,
        // The note as a catalogue message and its values (migration 61); the month is `YYYY-MM`, checked on upload.
        note_args = serde_json::json!({ "month": report.reference_month })
            .to_string()
            .replace('\'', "''"),
        listed = listed()
    )
}

/// The known cartas a batch declared again, by number, recorded as the report's (provenance); a carta repeated across
/// batches is recorded once.
pub(super) const DECLARED_COLS: [bulk::Col; 1] = [bulk::col("number", "text")];

pub(super) fn declared_insert(bank: i64, report: i64) -> String {
    format!(
        "INSERT INTO bank_report_carta (report_id, carta_id)
        SELECT {report}, fco_carta.id FROM s JOIN fco_carta ON fco_carta.bank_id = {bank} AND fco_carta.number = s.number
        WHERE true
        ON CONFLICT DO NOTHING"
    )
}

/// Separates the keys a lookup returns in its one row: documents are digits and letters, and a carta number holding a
/// control character is a row error (`rows::parse_row`).
pub(super) const KEY_SEPARATOR: char = '\u{1f}';

/// `expr`'s values over the rows, joined by [`KEY_SEPARATOR`], as one text: a lookup answers with one row, not one
/// row per key (sqlx hands SQLite's rows one by one to another thread).
pub(super) fn joined(backend: sea_orm::DbBackend, expr: &str) -> String {
    match backend {
        sea_orm::DbBackend::Postgres => format!("string_agg({expr}, chr(31))"),
        _ => format!("group_concat({expr}, char(31))"),
    }
}

/// PostgreSQL's statement resolving a batch's parties: it looks the known ones up, inserts the others and answers with
/// every `id:document` (aggregated into one row).
pub(super) fn party_resolve() -> String {
    format!(
        ", known AS (SELECT p.id, p.document FROM s JOIN party p ON p.document = s.document),
        ins AS ({PARTY_INSERT} WHERE NOT EXISTS (SELECT 1 FROM known k WHERE k.document = s.document)
            RETURNING id, document)
        SELECT {} FROM (SELECT id, document FROM known UNION ALL SELECT id, document FROM ins) x",
        joined(sea_orm::DbBackend::Postgres, "x.id || ':' || x.document")
    )
}

/// The carta lookup over `s(number)`: which numbers name cartas of bank `bank` the database knows, answering with one
/// row: each known number prefixed with `1` when it has a favourable opinion of the CPACR chamber, else `0`.
pub(super) fn carta_lookup(backend: sea_orm::DbBackend, bank: i64) -> String {
    let favourable = "CASE WHEN c.decided_by = 'CHAMBER' AND c.decision = 'FAVOURABLE' THEN '1' ELSE '0' END";
    format!(
        "SELECT {} FROM s JOIN fco_carta c ON c.bank_id = {bank} AND c.number = s.number",
        joined(backend, &format!("{favourable} || c.number")),
    )
}

/// A batch's cartas (by number, with their party's document and their values) as statement rows by number: each
/// carta's party id, from `parties`, goes first.
pub(super) fn with_party_ids(
    rows: Vec<(String, String, Vec<Value>)>,
    parties: &HashMap<String, i64>,
) -> Result<Vec<(String, Vec<Value>)>, DbErr> {
    rows.into_iter()
        .map(|(number, document, values)| {
            let party = parties
                .get(&document)
                .copied()
                .ok_or_else(|| DbErr::Custom(format!("carta {number}: no party with document {document}")))?;
            Ok((number, std::iter::once(Value::from(party)).chain(values).collect()))
        })
        .collect()
}

/// How a report writes its cartas, written once per report: the statements over a batch's rows (see [`carta_insert`],
/// [`carta_update`], [`carta_history`]), and on PostgreSQL what a new carta's row takes after its own values when it is
/// copied in.
pub(super) struct CartaWrites {
    pub(super) backend: sea_orm::DbBackend,
    pub(super) insert: String,
    pub(super) update: String,
    pub(super) history: String,
    /// PostgreSQL: the columns a new carta is copied into (the [`CARTA_COLS`], then [`COPY_TAIL`]'s).
    copy_columns: String,
    /// PostgreSQL: the values that end each copied row and are the same for every carta of the report (its bank, the
    /// favourable decision, the instant it is recorded, the report), in `COPY`'s text format.
    copy_constants: String,
}

/// The columns of a copied new carta after its own values and its stage, status and decision date: those the report
/// gives every carta.
const COPY_TAIL: [&str; 4] = ["bank_id", "decision", "created_at", "created_by_report"];

impl CartaWrites {
    pub(super) fn new(backend: sea_orm::DbBackend, report: &bank_report::Model, now: DateTime<Utc>) -> Self {
        let names: Vec<&str> = CARTA_COLS.iter().map(|c| c.name).collect();
        let favourable = sea_orm::ActiveEnum::to_value(&Decision::Favourable);
        Self {
            backend,
            insert: carta_insert(backend, report.bank_id, report.id),
            update: carta_update(report.bank_id),
            history: carta_history(backend, report.bank_id, report),
            copy_columns: format!(
                "{}, stage, status, decided_on, {}",
                names.join(", "),
                COPY_TAIL.join(", ")
            ),
            copy_constants: format!(
                "\t{}\t{favourable}\t{}\t{}\n",
                report.bank_id,
                now.to_rfc3339(),
                report.id
            ),
        }
    }

    /// The writes of a batch's cartas, recorded at `now`: the new ones inserted (copied in, on PostgreSQL), then, for
    /// the ones the database knows (`known`), the history of their stage changes and their updates. Each comes with
    /// the rows it must write (`None`: any number, for the history).
    pub(super) fn writes(
        &self,
        rows: Vec<(String, Vec<Value>)>,
        known: &HashMap<String, bool>,
        now: DateTime<Utc>,
    ) -> Result<Vec<(Write, Option<u64>)>, DbErr> {
        let backend = self.backend;
        let (updated, inserted): (Vec<_>, Vec<_>) =
            rows.into_iter().partition(|(number, _)| known.contains_key(number));
        let values = |rows: Vec<(String, Vec<Value>)>| rows.into_iter().map(|(_, values)| values).collect::<Vec<_>>();
        let statements = |s: Vec<(Statement, u64)>, checked: bool| {
            s.into_iter()
                .map(move |(s, n)| (Write::Statement(s), checked.then_some(n)))
        };
        let updated = values(updated);
        let inserted = values(inserted);
        let mut writes: Vec<(Write, Option<u64>)> = Vec::new();
        if backend == sea_orm::DbBackend::Postgres {
            if !inserted.is_empty() {
                writes.push((self.copy(&inserted)?, Some(inserted.len() as u64)));
            }
        } else {
            writes.extend(statements(
                bulk::statements_with(backend, &CARTA_COLS, inserted, &[Value::from(now)], &self.insert)?,
                true,
            ));
        }
        writes.extend(statements(
            bulk::statements_with(
                backend,
                &CARTA_COLS,
                updated.clone(),
                &[Value::from(now)],
                &self.history,
            )?,
            false,
        ));
        writes.extend(statements(
            bulk::statements(backend, &CARTA_COLS, updated, &self.update)?,
            true,
        ));
        Ok(writes)
    }

    /// New cartas copied in (PostgreSQL): each row's own values ([`CARTA_COLS`]), its stage and status
    /// ([`listed_stage`]), its decision date (the approval's), then the report's constants.
    fn copy(&self, rows: &[Vec<Value>]) -> Result<Write, DbErr> {
        use sea_orm::ActiveEnum;
        let approved_on = CARTA_COLS.iter().position(|c| c.name == "approved_on");
        let contracted_on = CARTA_COLS.iter().position(|c| c.name == "contracted_on");
        let (Some(approved_on), Some(contracted_on)) = (approved_on, contracted_on) else {
            return Err(DbErr::Custom("carta columns: no approval or contract date".into()));
        };
        let mut data = String::with_capacity(rows.len() * 200);
        for row in rows {
            for (j, v) in row.iter().enumerate() {
                if j > 0 {
                    data.push('\t');
                }
                bulk::push_value(&mut data, v, bulk::Spelling::CopyField)?;
            }
            let stage = listed_stage(!matches!(row[contracted_on], Value::ChronoDate(None)));
            data.push('\t');
            data.push_str(&stage.to_value());
            data.push('\t');
            data.push_str(&stage.status().to_value());
            data.push('\t');
            bulk::push_value(&mut data, &row[approved_on], bulk::Spelling::CopyField)?;
            data.push_str(&self.copy_constants);
        }
        Ok(Write::Copy {
            table: "fco_carta",
            columns: self.copy_columns.clone(),
            data,
        })
    }
}
