//! The applying side of a report, inside its transaction: the [`Applier`] runs each batch the preparer
//! ([`super::prepare`]) made ready, and raises the findings through the one flag writer; [`Applied::finish`] ends
//! a whole report.

use super::{
    ReportRow, bulk,
    prepare::{Flag, Parties, Prepared, PreparedSql, Preparer, flag, month_bounds, number_hash},
    statements::{
        CartaWrites, DECLARED_COLS, KEY_SEPARATOR, PARTY_COLS, PARTY_INSERT, carta_lookup, declared_insert, joined,
        party_resolve, with_party_ids,
    },
};
use crate::flags::write::{NewFlag, Writer};
use crate::txn::Bulk;
use chrono::{DateTime, Utc};
use entity::{
    bank_report, bank_report_row, fco_carta,
    rules::{self, Explanation, FxSet, fco::listed},
};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    Statement, Value, sea_query::Expr,
};
use std::collections::{HashMap, HashSet};

/// A row's outcome in `bank_report_row` when a later row of the same carta overtook it (the later row is applied).
const DUPLICATE: &str = "DUPLICATE";
/// Cartas looked up at a time by number.
const LOOKUP_CHUNK: usize = 5000;
/// Rows per INSERT statement (under both backends' limits on bound parameters).
const CHUNK: usize = 1000;

/// Runs lookup statements that each answer with one row holding [`joined`] keys, and collects the keys.
async fn lookup(txn: &Bulk, statements: Vec<(Statement, u64)>) -> Result<Vec<String>, DbErr> {
    let mut keys = Vec::new();
    for (s, _) in statements {
        if let Some(row) = txn.query_one_raw(s).await?
            && let Some(text) = row.try_get_by_index::<Option<String>>(0)?
        {
            keys.extend(text.split(KEY_SEPARATOR).map(String::from));
        }
    }
    Ok(keys)
}

/// Which of the batch's cartas the database knows, by number, each with whether it has a favourable opinion of the
/// CPACR chamber: runs the batch's [`carta_lookup`].
async fn known_cartas(txn: &Bulk, statements: Vec<(Statement, u64)>) -> Result<HashMap<String, bool>, DbErr> {
    Ok(lookup(txn, statements)
        .await?
        .into_iter()
        .map(|key| (key[1..].to_owned(), key.starts_with('1')))
        .collect())
}

/// The applying side of one report: runs each prepared batch inside the report's transaction.
struct Applier<'a> {
    report: &'a bank_report::Model,
    params: rules::params::Params,
    now: DateTime<Utc>,
    /// For cartas at or above the chamber threshold: whether, before this report, the carta existed (`Some`) with a
    /// favourable chamber opinion (`Some(true)`).
    chamber_before: HashMap<String, Option<bool>>,
    /// How the report's cartas are written.
    cartas: std::sync::Arc<CartaWrites>,
    /// The provenance insert: which known cartas the report declared again (a new carta records its report itself).
    declared_insert: String,
    /// The report's flags, raised through the one flag writer.
    flags: Writer,
}

/// `id:document` pairs, as the party lookups answer them.
fn party_keys(keys: Vec<String>) -> Result<HashMap<String, i64>, DbErr> {
    keys.into_iter()
        .map(|key| {
            let (id, document) = key
                .split_once(':')
                .ok_or_else(|| DbErr::Custom(format!("party lookup: {key}")))?;
            let id = id.parse().map_err(|_| DbErr::Custom(format!("party lookup: {key}")))?;
            Ok((document.to_owned(), id))
        })
        .collect()
}

impl Applier<'_> {
    /// The ids of the batch's parties, by document: the known ones looked up, the others inserted. PostgreSQL does both
    /// in one statement that answers with every id (aggregated into one row); SQLite looks the known ones up, inserts
    /// the others and looks them up in turn.
    async fn party_ids(&self, txn: &Bulk, parties: Parties) -> Result<HashMap<String, i64>, DbErr> {
        let parties = match parties {
            Parties::Resolve(statements) => return party_keys(lookup(txn, statements).await?),
            Parties::Rows(parties) => parties,
        };
        let backend = txn.get_database_backend();
        let find = |documents: Vec<Vec<Value>>| {
            let body = format!(
                "SELECT {} FROM s JOIN party p ON p.document = s.document",
                joined(backend, "p.id || ':' || p.document")
            );
            bulk::statements(backend, &[bulk::col("document", "text")], documents, &body)
        };
        let documents = parties
            .iter()
            .map(|(document, _)| vec![document.as_str().into()])
            .collect();
        let mut ids = party_keys(lookup(txn, find(documents)?).await?)?;
        let (new_documents, new): (Vec<_>, Vec<_>) = parties
            .into_iter()
            .filter(|(document, _)| !ids.contains_key(document))
            .map(|(document, values)| (vec![Value::from(document)], values))
            .unzip();
        for (s, _) in bulk::statements(backend, &PARTY_COLS, new, PARTY_INSERT)? {
            txn.execute_raw(s).await?;
        }
        ids.extend(party_keys(lookup(txn, find(new_documents)?).await?)?);
        Ok(ids)
    }

    /// Runs one prepared batch: resolves its parties (the known ones looked up, the others inserted), finds which of its
    /// cartas are known, checks the chamber threshold against the cartas as they were before this report, inserts the
    /// new cartas, updates the known ones, and records the findings.
    async fn apply(&mut self, txn: &Bulk, batch: Prepared) -> Result<(), DbErr> {
        let Prepared {
            parties,
            carta_lookup,
            cartas: rows,
            mut flags,
            chamber,
        } = batch;
        let backend = txn.get_database_backend();
        let parties = self.party_ids(txn, parties).await?;
        // The carta writes need the parties' ids. They are built, as if every carta were new, on another thread
        // while the database looks the cartas up; they are built again only when some carta is known.
        let build = {
            let (cartas, now) = (self.cartas.clone(), self.now);
            tokio::task::spawn_blocking(move || {
                let rows = with_party_ids(rows, &parties)?;
                let all_new = cartas.writes(rows.clone(), &HashMap::new(), now)?;
                Ok::<_, DbErr>((rows, all_new))
            })
        };
        let cartas = known_cartas(txn, carta_lookup).await?;
        for (number, row, threshold) in &chamber {
            let before = *self
                .chamber_before
                .entry(number.clone())
                .or_insert_with(|| cartas.get(number).copied());
            if let Some(what) = listed::chamber_unheard(row, *threshold, before) {
                flags.push(flag(number, rules::code::FCO_CHAMBER_THRESHOLD, what));
            }
        }
        let (rows, all_new) = build.await.map_err(|e| DbErr::Custom(e.to_string()))??;
        // Provenance: a new carta records the report that created it; the known ones are recorded by number after
        // they are written.
        let numbers: Vec<Vec<Value>> = rows
            .iter()
            .filter(|(n, _)| cartas.contains_key(n))
            .map(|(n, _)| vec![Value::from(n.clone())])
            .collect();
        let writes = if cartas.is_empty() {
            all_new
        } else {
            self.cartas.writes(rows, &cartas, self.now)?
        };
        for (w, expected) in writes {
            let written = w.run(txn).await?;
            if let Some(expected) = expected
                && written != expected
            {
                return Err(DbErr::Custom(format!("{written} of {expected} cartas written")));
            }
        }
        for (s, _) in bulk::statements(backend, &DECLARED_COLS, numbers, &self.declared_insert)? {
            txn.execute_raw(s).await?;
        }
        self.raise(txn, flags).await
    }

    /// Raises the report's findings on the cartas they name, through the one flag writer.
    async fn raise(&mut self, txn: &Bulk, flags: Vec<Flag>) -> Result<(), DbErr> {
        let ids = carta_ids(txn, self.report.bank_id, flags.iter().map(|f| f.number.as_str())).await?;
        for f in flags {
            if let Some(id) = ids.get(&f.number) {
                self.flags.add(txn, NewFlag::on_carta(*id, f.code, f.what)).await?;
            }
        }
        Ok(())
    }

    /// After the last batch: rows overtaken by a later batch become duplicates, each repeated carta is flagged once
    /// per repetition, and the groups over the ceiling are flagged; the ids of every flag the report raised.
    async fn finish(mut self, txn: &Bulk, prep: Preparer) -> Result<Vec<i64>, DbErr> {
        let r = self.report;
        for chunk in prep.duplicates.chunks(CHUNK) {
            bank_report_row::Entity::insert_many(chunk.iter().map(|(number, overtaken, _)| {
                bank_report_row::ActiveModel {
                    report_id: Set(r.id),
                    row_number: Set(*overtaken as i32),
                    carta_number: Set(Some(number.clone())),
                    outcome: Set(DUPLICATE.into()),
                }
            }))
            .exec_without_returning(txn)
            .await?;
        }
        let flags: Vec<Flag> = prep
            .duplicates
            .iter()
            .map(|(number, a, b)| {
                let last = prep.last_row.get(number).copied().unwrap_or(*b);
                let what = Explanation::message("report-flag-duplicate")
                    .arg("carta", number)
                    .arg("first", a)
                    .arg("second", b)
                    .arg("report", r.id)
                    .arg("applied", last);
                flag(number, rules::code::FCO_MONTHLY_LIST, what)
            })
            .collect();
        self.raise(txn, flags).await?;
        let on = month_bounds(&r.reference_month)
            .map(|(_, end)| end)
            .unwrap_or_else(|| self.now.date_naive());
        let listed = |number: &str| prep.last_row.contains_key(number);
        for f in crate::ceiling::report_flags(txn, r.bank_id, listed, &self.params, on).await? {
            self.flags.add(txn, f).await?;
        }
        self.flags.flush(txn).await
    }
}

/// The ids of these cartas of a bank, by number.
async fn carta_ids<'a>(
    txn: &impl ConnectionTrait,
    bank_id: i64,
    numbers: impl Iterator<Item = &'a str>,
) -> Result<HashMap<String, i64>, DbErr> {
    let numbers: Vec<String> = numbers.map(String::from).collect::<HashSet<_>>().into_iter().collect();
    let mut ids = HashMap::with_capacity(numbers.len());
    for chunk in numbers.chunks(LOOKUP_CHUNK) {
        let found: Vec<(i64, String)> = fco_carta::Entity::find()
            .select_only()
            .column(fco_carta::Column::Id)
            .column(fco_carta::Column::Number)
            .filter(fco_carta::Column::BankId.eq(bank_id))
            .filter(text_in(txn, "number", fco_carta::Column::Number, chunk))
            .into_tuple()
            .all(txn)
            .await?;
        ids.extend(found.into_iter().map(|(id, n)| (n, id)));
    }
    Ok(ids)
}

/// `column IN (values)`; on PostgreSQL `column = ANY($1)` with one array parameter, which plans cheaply and keeps its
/// index even inside the long transaction where the statistics still say the tables are empty.
fn text_in(
    txn: &impl ConnectionTrait,
    name: &str,
    column: impl ColumnTrait,
    values: &[String],
) -> sea_orm::sea_query::SimpleExpr {
    if txn.get_database_backend() == sea_orm::DbBackend::Postgres {
        let array = sea_orm::Value::Array(
            sea_orm::sea_query::ArrayType::String,
            Some(Box::new(
                values.iter().map(|v| sea_orm::Value::String(Some(v.clone()))).collect(),
            )),
        );
        Expr::cust_with_values(format!("\"{name}\" = ANY($1)"), [array])
    } else {
        column.is_in(values.iter().cloned())
    }
}

/// Carta numbers read at a time by [`numbers_before`].
const NUMBERS_PAGE: u64 = 50_000;

/// The hashed numbers of bank `bank`'s cartas, as the report's transaction finds them before its first batch
/// ([`Preparer::may_exist`]): read a page at a time in number order, along the index of the bank's numbers.
pub(super) async fn numbers_before(txn: &impl ConnectionTrait, bank: i64) -> Result<FxSet<u64>, DbErr> {
    let mut set = FxSet::default();
    let mut after: Option<String> = None;
    loop {
        let mut page = fco_carta::Entity::find()
            .select_only()
            .column(fco_carta::Column::Number)
            .filter(fco_carta::Column::BankId.eq(bank))
            .order_by_asc(fco_carta::Column::Number)
            .limit(NUMBERS_PAGE);
        if let Some(after) = after.take() {
            page = page.filter(fco_carta::Column::Number.gt(after));
        }
        let numbers: Vec<String> = page.into_tuple().all(txn).await?;
        for number in &numbers {
            set.insert(number_hash(&set, number));
        }
        if (numbers.len() as u64) < NUMBERS_PAGE {
            return Ok(set);
        }
        after = numbers.into_iter().next_back();
    }
}

/// A report's rows applied inside its transaction, every batch run: what is left to do once the reading is known to be
/// whole ([`Applied::finish`]); dropped (with the transaction rolled back) when it is not.
pub struct Applied<'a> {
    applier: Applier<'a>,
    preparer: Preparer,
}

/// Applies the batches of parsed rows `rows` sends to `report` inside `txn`, until `rows` closes: a thread prepares
/// each batch's statements and the rows' own findings while this task runs the previous batch's.
pub(super) async fn run<'a>(
    txn: &Bulk,
    report: &'a bank_report::Model,
    mut rows: tokio::sync::mpsc::Receiver<Vec<ReportRow>>,
    presented_on_column: &'static str,
    now: DateTime<Utc>,
) -> Result<Applied<'a>, DbErr> {
    let backend = txn.get_database_backend();
    if backend == sea_orm::DbBackend::Postgres {
        // The tables grow inside this one transaction, where the planner's statistics still say they are small:
        // keep it on the indexes, or every lookup of a batch becomes a scan of everything inserted so far.
        txn.execute_unprepared("SET LOCAL enable_seqscan = off").await?;
    }
    let params = entity::rule_parameter::Entity::params(txn).await?;
    let preparer = Preparer {
        backend,
        sql: PreparedSql {
            party_resolve: party_resolve(),
            carta_lookup: carta_lookup(backend, report.bank_id),
        },
        reference_month: report.reference_month.clone(),
        params: params.clone(),
        cal: entity::non_business_day::Entity::calendar(txn).await?,
        bounds: month_bounds(&report.reference_month),
        last_row: HashMap::new(),
        duplicates: Vec::new(),
        validity: HashMap::new(),
        presented_on_column,
        may_exist: numbers_before(txn, report.bank_id).await?,
    };
    let mut applier = Applier {
        report,
        params,
        now,
        chamber_before: HashMap::new(),
        cartas: std::sync::Arc::new(CartaWrites::new(backend, report, now)),
        declared_insert: declared_insert(report.bank_id, report.id),
        flags: Writer::new(crate::flags::write::report_source(report.id), now),
    };
    let (prepared_tx, mut prepared_rx) = tokio::sync::mpsc::channel::<Result<Prepared, DbErr>>(2);
    let preparer = tokio::task::spawn_blocking(move || {
        let mut preparer = preparer;
        while let Some(batch) = rows.blocking_recv() {
            if prepared_tx.blocking_send(preparer.prepare(batch)).is_err() {
                break;
            }
        }
        preparer
    });
    while let Some(batch) = prepared_rx.recv().await {
        applier.apply(txn, batch?).await?;
    }
    let preparer = preparer.await.map_err(|e| DbErr::Custom(e.to_string()))?;
    Ok(Applied { applier, preparer })
}

impl Applied<'_> {
    /// After a whole reading: rows overtaken by a later one recorded, repeated cartas and the groups over the ceiling
    /// flagged, an earlier list of the same bank and month superseded (its flags resolved by this one), and the report
    /// `INGESTED` with its `rows`, by `worker`. What the report raised and resolved is announced after the commit
    /// ([`Ingested::announce`]).
    pub async fn finish(self, txn: &Bulk, rows: usize, worker: &str) -> Result<Ingested, DbErr> {
        use sea_orm::{ActiveModelTrait, IntoActiveModel};
        let Applied { applier, preparer } = self;
        let (r, now) = (applier.report, applier.now);
        let raised = applier.finish(txn, preparer).await?;
        // An earlier declaration of the same bank and month is superseded, and stays queryable; the flags it raised
        // are resolved by this one.
        let superseded: Vec<i64> = bank_report::Entity::find()
            .filter(bank_report::Column::BankId.eq(r.bank_id))
            .filter(bank_report::Column::ReferenceMonth.eq(r.reference_month.clone()))
            .filter(bank_report::Column::Status.eq("INGESTED"))
            .filter(bank_report::Column::Id.ne(r.id))
            .select_only()
            .column(bank_report::Column::Id)
            .into_tuple()
            .all(txn)
            .await?;
        let mut resolved = Vec::new();
        for old in &superseded {
            resolved.extend(crate::flags::write::resolve_superseded(txn, *old, r.id, now).await?);
        }
        if !superseded.is_empty() {
            bank_report::Entity::update_many()
                .col_expr(bank_report::Column::Status, Expr::value("SUPERSEDED"))
                .col_expr(bank_report::Column::SupersededBy, Expr::value(r.id))
                .filter(bank_report::Column::Id.is_in(superseded))
                .exec(txn)
                .await?;
        }
        let mut a = r.clone().into_active_model();
        a.status = Set("INGESTED".into());
        a.row_count = Set(Some(rows as i32));
        a.error_count = Set(Some(0));
        a.processed_at = Set(Some(now));
        a.lease_until = Set(None);
        a.claimed_by = Set(Some(worker.to_owned()));
        a.update(txn).await?;
        Ok(Ingested { raised, resolved })
    }
}

/// What an ingested report changed in the flags, to announce once its transaction is committed.
#[derive(Debug, Default)]
pub struct Ingested {
    raised: Vec<i64>,
    resolved: Vec<i64>,
}

impl Ingested {
    /// Announces the flags the report raised and resolved (events, webhooks), after the commit.
    pub async fn announce(&self, db: &sea_orm::DatabaseConnection) -> Result<(), DbErr> {
        crate::flags::write::announce(db, &self.raised, &[], &self.resolved).await
    }
}
