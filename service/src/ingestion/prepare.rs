//! The preparing side of applying a report, on a thread of its own: each batch of parsed rows becomes the statements'
//! values and the rows' own findings (by the rules of `entity::rules::fco::listed`), keeping what the report has
//! shown so far (each carta's latest row, the repeated ones).

use super::{ReportRow, bulk, statements::PARTY_COLS};
use chrono::{Datelike, NaiveDate};
use entity::rules::{
    self, Explanation, FxSet,
    fco::listed::{self, ListedRow},
};
use sea_orm::{DbErr, Statement, Value};
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasher;

/// A finding of the report on one of its cartas, by number: a catalogue message (`report-flag-…`, in
/// `explanations.ftl`) and its values, stored as `message_id` and `message_args` and rendered when read in the
/// reader's language.
pub(super) struct Flag {
    pub(super) number: String,
    pub(super) code: rules::RuleCode,
    pub(super) what: Explanation,
}

pub(super) fn flag(number: &str, code: rules::RuleCode, what: Explanation) -> Flag {
    Flag {
        number: number.to_owned(),
        code,
        what,
    }
}

pub(super) fn month_bounds(reference_month: &str) -> Option<(NaiveDate, NaiveDate)> {
    let first = NaiveDate::parse_from_str(&format!("{reference_month}-01"), "%Y-%m-%d").ok()?;
    let last = first.checked_add_months(chrono::Months::new(1))?.pred_opt()?;
    Some((NaiveDate::from_ymd_opt(first.year(), 1, 1)?, last))
}

/// A batch ready for the database, prepared on a thread of its own: its rows as statement values, the findings of its
/// rows, and the rows whose check needs the database.
pub(super) struct Prepared {
    /// One party per document of the batch: inserted when the database does not know it yet.
    pub(super) parties: Parties,
    /// Looks up which of the batch's cartas the database knows (see [`carta_lookup`] and [`known_cartas`]).
    pub(super) carta_lookup: Vec<(Statement, u64)>,
    /// The batch's cartas (the last row of each), by number, with their party's document: inserted when new, updated
    /// when known. Their values follow [`CARTA_COLS`] without the party's id, which the applier puts first.
    pub(super) cartas: Vec<(String, String, Vec<Value>)>,
    /// Findings on the rows themselves (dates outside the declared period, the 120-day validity).
    pub(super) flags: Vec<Flag>,
    /// Rows at or above the chamber threshold: `(number, row, threshold)`.
    pub(super) chamber: Vec<(String, ListedRow, rust_decimal::Decimal)>,
}

/// A batch's parties, one per document, as [`Applier::party_ids`] takes them.
pub(super) enum Parties {
    /// PostgreSQL: the statement that looks the known ones up, inserts the others and answers with every id.
    Resolve(Vec<(Statement, u64)>),
    /// SQLite: the rows, by document (looked up, the others inserted, those looked up in turn).
    Rows(Vec<(String, Vec<Value>)>),
}

/// The bodies of the statements the preparer builds, for one report.
pub(super) struct PreparedSql {
    /// [`party_resolve`] (PostgreSQL).
    pub(super) party_resolve: String,
    /// [`carta_lookup`] for the report's bank.
    pub(super) carta_lookup: String,
}

/// Turns the reader's batches into statements, keeping what the report has shown so far.
pub(super) struct Preparer {
    pub(super) backend: sea_orm::DbBackend,
    /// The statements' bodies, written once per report.
    pub(super) sql: PreparedSql,
    pub(super) reference_month: String,
    pub(super) params: rules::params::Params,
    pub(super) cal: rules::calendar::Calendar,
    /// 1 January of the declared year and the declared month's last day.
    pub(super) bounds: Option<(NaiveDate, NaiveDate)>,
    /// Each carta number seen, with the sheet row of its latest occurrence: a later row of the same carta wins.
    pub(super) last_row: HashMap<String, u32>,
    /// `(number, earlier row, later row)` for each repeated carta.
    pub(super) duplicates: Vec<(String, u32, u32)>,
    /// FCO-VALIDITY-120D's expiry by approval date (the calendar is walked once per date).
    pub(super) validity: HashMap<NaiveDate, Option<rules::calendar::Deadline>>,
    /// The header of the sheet's column of the day the project was presented, as the findings name it.
    pub(super) presented_on_column: &'static str,
    /// The hashed numbers of the cartas that may be in the database: the bank's before this report
    /// ([`super::apply::numbers_before`]) and those the earlier batches wrote. A batch looks up only its numbers found
    /// here (a list mostly declares cartas new to the database); a hash shared by chance costs a lookup, nothing more.
    pub(super) may_exist: FxSet<u64>,
}

/// A carta number's hash in [`Preparer::may_exist`].
pub(super) fn number_hash(set: &FxSet<u64>, number: &str) -> u64 {
    set.hasher().hash_one(number)
}

impl Preparer {
    fn expiry(&mut self, approved: NaiveDate) -> Option<&rules::calendar::Deadline> {
        let (params, cal) = (&self.params, &self.cal);
        self.validity
            .entry(approved)
            .or_insert_with(|| rules::fco::validity_end(approved, params, cal).ok())
            .as_ref()
    }

    /// The row's own findings, by the rules of `entity::rules::fco::listed`: dates outside the declared period, the
    /// 120-day validity; and whether it needs the chamber check.
    fn check(&mut self, row: &ReportRow, prepared: &mut Prepared) {
        let listed_row = ListedRow {
            row: row.row,
            financed: row.financed,
            approved_on: row.approved_on,
            presented_on: row.presented_on,
            contracted_on: row.contracted_on,
        };
        if let Some((year_start, month_end)) = self.bounds {
            for what in listed::outside_period(&listed_row, year_start, month_end, &self.reference_month) {
                prepared
                    .flags
                    .push(flag(&row.carta_number, rules::code::FCO_MONTHLY_LIST, what));
            }
        }
        let chamber = rules::fco::needs_chamber(row.financed, &self.params, row.approved_on);
        if let Ok((true, threshold)) = chamber {
            prepared.chamber.push((row.carta_number.clone(), listed_row, threshold));
        }
        // Art. 3 sole §: a CDAE approval gives 120 days to present the project to the bank (the contract may come
        // later); a carta the bank decided below the threshold has no such clock.
        let column = self.presented_on_column;
        if let Ok((true, _)) = chamber
            && let Some(validity) = self.expiry(row.approved_on)
            && let Some(what) = listed::presented_late(&listed_row, validity, column)
        {
            prepared
                .flags
                .push(flag(&row.carta_number, rules::code::FCO_VALIDITY_120D, what));
        }
    }

    /// One batch: its findings, and its statements (the last row of each carta in the batch is the one written).
    pub(super) fn prepare(&mut self, batch: Vec<ReportRow>) -> Result<Prepared, DbErr> {
        use sea_orm::ActiveEnum;
        let mut prepared = Prepared {
            parties: Parties::Rows(Vec::new()),
            carta_lookup: Vec::new(),
            cartas: Vec::new(),
            flags: Vec::new(),
            chamber: Vec::new(),
        };
        for row in &batch {
            self.check(row, &mut prepared);
        }
        let mut winner: HashMap<&str, usize> = HashMap::with_capacity(batch.len());
        for (k, row) in batch.iter().enumerate() {
            winner.insert(row.carta_number.as_str(), k);
            if let Some(prev) = self.last_row.insert(row.carta_number.clone(), row.row) {
                self.duplicates.push((row.carta_number.clone(), prev, row.row));
            }
        }
        let applied: Vec<&ReportRow> = batch
            .iter()
            .enumerate()
            .filter(|(k, row)| winner.get(row.carta_number.as_str()) == Some(k))
            .map(|(_, row)| row)
            .collect();

        let mut documents = HashSet::with_capacity(applied.len());
        let parties: Vec<(String, Vec<Value>)> = applied
            .iter()
            .filter(|row| documents.insert(row.document.as_str()))
            .map(|row| {
                let values = vec![
                    row.document.as_str().into(),
                    row.document.kind().as_str().into(),
                    row.document.cnpj_root().map(String::from).into(),
                    row.borrower.as_str().into(),
                ];
                (row.document.as_str().to_owned(), values)
            })
            .collect();
        prepared.parties = if self.backend == sea_orm::DbBackend::Postgres {
            let rows = parties.into_iter().map(|(_, values)| values).collect();
            Parties::Resolve(bulk::statements(
                self.backend,
                &PARTY_COLS,
                rows,
                &self.sql.party_resolve,
            )?)
        } else {
            Parties::Rows(parties)
        };
        let numbers = applied
            .iter()
            .filter(|row| {
                let hash = number_hash(&self.may_exist, &row.carta_number);
                !self.may_exist.insert(hash)
            })
            .map(|row| vec![row.carta_number.as_str().into()])
            .collect();
        prepared.carta_lookup = bulk::statements(
            self.backend,
            &[bulk::col("number", "text")],
            numbers,
            &self.sql.carta_lookup,
        )?;

        prepared.cartas = applied
            .iter()
            .map(|row| {
                let values = vec![
                    row.carta_number.as_str().into(),
                    row.line.to_value().into(),
                    row.activity.to_value().into(),
                    row.financed.cents().into(),
                    row.municipality.into(),
                    row.approved_on.into(),
                    row.contracted_on.into(),
                    row.contracted
                        .or(row.contracted_on.map(|_| row.financed))
                        .map(|m| m.cents())
                        .into(),
                    row.term_months.into(),
                    row.grace_months.into(),
                    row.presented_on.into(),
                    row.borrower.as_str().into(),
                ];
                (row.carta_number.clone(), row.document.as_str().to_owned(), values)
            })
            .collect();

        Ok(prepared)
    }
}
