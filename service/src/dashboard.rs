//! The compliance dashboard as of a day: key figures and tables for MDA, the CDAE chamber and data analysts. The
//! `build-dashboards` job materialises it (`dashboard_snapshot`, with when it was built), so reading it is one
//! statement; for a day the job did not build it is computed on demand and says so (`built_at: None`). The same
//! tables feed the graph (`complianceDashboard`), the exports (`/exports/dashboard-{table}.csv`) and `/dashboard`.
//!
//! Computed as the database can: the FCO tables and the flag tables are grouping statements (each as known at the end
//! of the day); projects are read a page at a time with their acquisitions; what is overdue or due within its window
//! is [`crate::deadline_flags::judge_within`] over the deadlines alone (they read a financing's own row), so the
//! figures are the flag job's; reports and groups are one statement each.
//!
//! Size: each table of the dashboard is one grouping statement with its row type, built and read together.

use crate::{ServiceError, cell::Cell, compliance::Preloaded, deadline_flags, parameters};
use chrono::{DateTime, Datelike, Months, NaiveDate, Utc};
use entity::{
    Versioned, bank, bank_report,
    compliance_flag::SubjectKind,
    dashboard_snapshot,
    domain::{IbgeCode, brasilia_date},
    economic_group,
    rules::{self, social_fuel},
    vocab::{Decision, Programme},
};
use rust_decimal::Decimal;
use sea_orm::{
    ActiveEnum, ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, QueryFilter,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};

type Result<T> = std::result::Result<T, ServiceError>;

/// The programme a table or a row belongs to, as the dashboard keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TableProgramme {
    /// The social-fuel programme.
    SocialFuel,
    /// FCO Rural.
    FcoRural,
}

impl From<Programme> for TableProgramme {
    fn from(p: Programme) -> Self {
        match p {
            Programme::SocialFuel => Self::SocialFuel,
            Programme::FcoRural => Self::FcoRural,
        }
    }
}

impl TableProgramme {
    /// Of the stored spelling (`SOCIAL_FUEL`, `FCO_RURAL`).
    fn parse(s: &str) -> Option<Self> {
        Programme::try_from_value(&s.to_owned()).ok().map(Into::into)
    }
}

/// One table of the dashboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Its name (`fco_contracted_by_bank`), also its export's (`/exports/dashboard-fco_contracted_by_bank.csv`) and
    /// the key of its title (`table.{name}` in [`crate::labels`]).
    pub name: String,
    /// The values its title names (`from`, `to`).
    #[serde(default)]
    pub title_args: Vec<(String, String)>,
    /// The column codes (`rule_code`), the keys of their headers (`column.{code}`).
    pub columns: Vec<String>,
    /// The rows.
    pub rows: Vec<Vec<Cell>>,
    /// The programme of the whole table; `None` when its rows are of both ([`Self::row_programmes`]).
    #[serde(default)]
    pub programme: Option<TableProgramme>,
    /// For a table of both programmes (deadlines, flags): each row's, in the rows' order.
    #[serde(default)]
    pub row_programmes: Vec<TableProgramme>,
}

impl Table {
    /// A table of rows without a programme of their own (the audit log).
    pub fn plain(name: &str, columns: &[&str], rows: Vec<Vec<Cell>>) -> Self {
        table(name, None, columns, rows)
    }

    /// Its title in `lang`.
    pub fn title(&self, lang: crate::messages::Lang) -> String {
        let args: Vec<(&str, String)> = self.title_args.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        crate::labels::with(&format!("table.{}", self.name), &args, lang)
    }

    /// Only the rows of `programme`.
    fn keep(&mut self, programme: TableProgramme) {
        if self.row_programmes.len() == self.rows.len() && !self.row_programmes.is_empty() {
            let mut of = std::mem::take(&mut self.row_programmes).into_iter();
            self.rows.retain(|_| of.next() == Some(programme));
            self.row_programmes = vec![programme; self.rows.len()];
        }
    }
}

/// The open flags of one programme on the day.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenFlags {
    /// Flags open on the day.
    pub flags: u64,
    /// Of them, violations.
    pub violations: u64,
}

/// The key figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figures {
    /// MDA framing decisions overdue (SF-DECISION-30D).
    pub decisions_overdue: u64,
    /// MDA framing decisions due within their window.
    pub decisions_due_soon: u64,
    /// External evaluations overdue (SF-EXTERNAL-EVAL-6M, SF-EXTENSION-12M).
    pub evaluations_overdue: u64,
    /// External evaluations due within their window.
    pub evaluations_due_soon: u64,
    /// Approved cartas whose 120 days ran out without a contract (FCO-VALIDITY-120D).
    pub approvals_expired: u64,
    /// Approved cartas whose 120 days end within the window.
    pub approvals_expiring: u64,
    /// Cartas contracted up to the day.
    pub contracted_count: u64,
    /// Their amount, in centavos.
    pub contracted_cents: i64,
    /// Flags open on the day (of the dashboard's programme, when it has one).
    pub open_flags: u64,
    /// Of them, violations.
    pub open_violations: u64,
    /// The open flags of each programme.
    #[serde(default)]
    pub open_social_fuel: OpenFlags,
    /// The open flags of FCO Rural.
    #[serde(default)]
    pub open_fco: OpenFlags,
}

/// The version of [`Dashboard`]'s stored shape: a build kept in an older shape is computed again when read.
const VERSION: u32 = 2;

/// The dashboard as of a day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dashboard {
    /// The shape it was kept in ([`VERSION`]).
    #[serde(default)]
    pub version: u32,
    /// The day.
    pub as_of: NaiveDate,
    /// When the job built it; `None` when computed on demand.
    pub built_at: Option<DateTime<Utc>>,
    /// The programme it is narrowed to ([`Self::of_programme`]); `None` for both.
    #[serde(default)]
    pub programme: Option<TableProgramme>,
    /// The key figures.
    pub figures: Figures,
    /// The tables.
    pub tables: Vec<Table>,
}

impl Dashboard {
    /// The table of this name.
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }

    /// Only the figures, tables and rows of a programme: the other programme's tables go, the deadline and flag
    /// tables keep the programme's rows, and the open flags are the programme's (the other programme's figures are
    /// read as absent through [`Self::programme`]).
    pub fn of_programme(mut self, programme: Option<Programme>) -> Self {
        let Some(p) = programme.map(TableProgramme::from) else {
            return self;
        };
        self.programme = Some(p);
        self.tables.retain(|t| t.programme.is_none_or(|tp| tp == p));
        for t in &mut self.tables {
            t.keep(p);
        }
        let open = match p {
            TableProgramme::SocialFuel => &self.figures.open_social_fuel,
            TableProgramme::FcoRural => &self.figures.open_fco,
        };
        (self.figures.open_flags, self.figures.open_violations) = (open.flags, open.violations);
        self
    }

    /// Whether a figure of `programme` belongs to the dashboard (always, unless it is narrowed to the other).
    pub fn shows(&self, programme: TableProgramme) -> bool {
        self.programme.is_none_or(|p| p == programme)
    }
}

fn table(name: &str, programme: Option<TableProgramme>, columns: &[&str], rows: Vec<Vec<Cell>>) -> Table {
    Table {
        name: name.to_owned(),
        title_args: Vec::new(),
        columns: columns.iter().map(|c| (*c).to_owned()).collect(),
        rows,
        programme,
        row_programmes: Vec::new(),
    }
}

/// A social-fuel table.
fn sf_table(name: &str, columns: &[&str], rows: Vec<Vec<Cell>>) -> Table {
    table(name, Some(TableProgramme::SocialFuel), columns, rows)
}

/// An FCO table.
fn fco_table(name: &str, columns: &[&str], rows: Vec<Vec<Cell>>) -> Table {
    table(name, Some(TableProgramme::FcoRural), columns, rows)
}

/// A table of both programmes, each row with its own.
fn by_row(name: &str, columns: &[&str], rows: Vec<(TableProgramme, Vec<Cell>)>) -> Table {
    let (row_programmes, rows) = rows.into_iter().unzip();
    Table {
        row_programmes,
        ..table(name, None, columns, rows)
    }
}

fn text(s: impl Into<String>) -> Cell {
    Cell::Text(s.into())
}

fn pct(v: Decimal) -> Cell {
    Cell::Percent(v.round_dp(2))
}

/// Count and amount by a key.
#[derive(Default)]
struct Sum(BTreeMap<String, (i64, i64)>);

impl Sum {
    /// Rows of `(key, count, amount)` from a grouping statement (`$n` placeholders), the key read by `key`.
    async fn of(
        db: &impl ConnectionTrait,
        sql: &str,
        values: Vec<sea_orm::Value>,
        key: impl Fn(&sea_orm::QueryResult) -> std::result::Result<String, sea_orm::DbErr>,
    ) -> Result<Self> {
        let mut out = Self::default();
        for r in query(db, sql, values).await? {
            let e = out.0.entry(key(&r)?).or_default();
            e.0 += r.try_get_by_index::<i64>(1)?;
            e.1 += r.try_get_by_index::<Option<i64>>(2)?.unwrap_or(0);
        }
        Ok(out)
    }
    fn rows(self) -> Vec<Vec<Cell>> {
        self.0
            .into_iter()
            .map(|(k, (n, c))| vec![text(k), Cell::Int(n), Cell::Money(c)])
            .collect()
    }
}

/// The cartas contracted by the end of `as_of` in their approval cycle of the day ([`cartas_on`]), counted and summed
/// by bank (its code, from `bank_code`), month, activity, programme line and municipality. On PostgreSQL one scan
/// feeds the five groupings (`GROUPING SETS`, by day rather than month, the months added up here): five statements
/// scanning the cartas side by side cost the database two to three times the work on two cores. On SQLite, which has
/// no grouping sets, five statements side by side, each on its own pooled connection.
async fn contracted_sums(
    db: &impl ConnectionTrait,
    as_of: NaiveDate,
    bank_code: &impl Fn(i64) -> String,
) -> Result<[Sum; 5]> {
    let day = || vec![sea_orm::Value::from(as_of)];
    if db.get_database_backend() == DbBackend::Postgres {
        let mut sums: [Sum; 5] = Default::default();
        let sql = format!(
            "SELECT GROUPING(bank_id, contracted_on, activity, line, municipality_code), \
               bank_id, contracted_on, activity, line, municipality_code, COUNT(*), CAST(SUM(financed_amount) AS BIGINT) \
             FROM {} WHERE contracted_on <= $1 \
             GROUP BY GROUPING SETS ((bank_id), (contracted_on), (activity), (line), (municipality_code))",
            cartas_on()
        );
        let rows = query(db, &sql, day()).await?;
        for r in rows {
            // GROUPING's bit for a column is 0 in the rows grouped by it, the first column's the highest.
            let mask: i32 = r.try_get_by_index(0)?;
            let Some(set) = (0..5usize).find(|i| mask & (1 << (4 - i)) == 0) else {
                continue;
            };
            let key = match set {
                0 => bank_code(r.try_get_by_index(1)?),
                1 => r.try_get_by_index::<NaiveDate>(2)?.format("%Y-%m").to_string(),
                2 => r.try_get_by_index(3)?,
                3 => r.try_get_by_index(4)?,
                _ => r.try_get_by_index::<i32>(5)?.to_string(),
            };
            let e = sums[set].0.entry(key).or_default();
            e.0 += r.try_get_by_index::<i64>(6)?;
            e.1 += r.try_get_by_index::<Option<i64>>(7)?.unwrap_or(0);
        }
        return Ok(sums);
    }
    // Grouped over a compound table, SQLite scans the cartas once and sorts (as `NOT INDEXED` made it do): cheaper
    // than walking the bank's or the municipality's index to group in order.
    let contracted = |key: &str| {
        format!(
            "SELECT {key}, COUNT(*), CAST(SUM(financed_amount) AS BIGINT) FROM {} \
             WHERE contracted_on <= $1 GROUP BY {key}",
            cartas_on()
        )
    };
    let [bank_sql, month_sql, activity_sql, line_sql, town_sql] = [
        "bank_id",
        "substr(contracted_on, 1, 7)",
        "activity",
        "line",
        "municipality_code",
    ]
    .map(contracted);
    let (by_bank, by_month, by_activity, by_line, by_town) = futures::try_join!(
        Sum::of(db, &bank_sql, day(), |r| Ok(bank_code(r.try_get_by_index(0)?))),
        Sum::of(db, &month_sql, day(), |r| r.try_get_by_index(0)),
        Sum::of(db, &activity_sql, day(), |r| r.try_get_by_index(0)),
        Sum::of(db, &line_sql, day(), |r| r.try_get_by_index(0)),
        Sum::of(db, &town_sql, day(), |r| {
            Ok(r.try_get_by_index::<i32>(0)?.to_string())
        }),
    )?;
    Ok([by_bank, by_month, by_activity, by_line, by_town])
}

/// The cartas as known on the day `$1` in their approval cycle of that day, as a derived table `c` with
/// `fco_carta`'s columns (`entity::fco_carta_cycle::in_force_sql`): a carta an amendment reopened after the day is
/// grouped as its earlier cycle stood.
fn cartas_on() -> String {
    format!("({}) c", entity::fco_carta_cycle::in_force_sql("$1"))
}

/// Runs a statement written with `$n` placeholders on either backend.
async fn query(db: &impl ConnectionTrait, sql: &str, values: Vec<sea_orm::Value>) -> Result<Vec<sea_orm::QueryResult>> {
    let backend = db.get_database_backend();
    Ok(db
        .query_all_raw(sea_orm::Statement::from_sql_and_values(
            backend,
            crate::numbered(backend, sql),
            values,
        ))
        .await?)
}

/// How many projects or cartas are read per statement.
const PAGE: u64 = 2000;

/// Computes the dashboard as of `as_of`.
pub async fn compute(db: &crate::Db, as_of: NaiveDate) -> Result<Dashboard> {
    // What is overdue or due within its window, as the flag job judges it: judged by a task of its own, beside the
    // grouping statements below. The judging is mostly this process's work (reading and judging the cartas), the
    // grouping mostly the database's, so each goes on while the other waits.
    let judging = crate::Task::spawn({
        let db = db.clone();
        async move { deadline_flags::judge_within(&db, as_of, deadline_flags::Reach::Deadlines).await }
    });
    let params = parameters::params(db).await?;
    let calendar = parameters::calendar(db).await?;
    let mut figures = Figures::default();
    let mut tables = Vec::new();

    // Social fuel: stage and region, the family-farm share against the minimum, seals.
    let mut by_stage: BTreeMap<(String, String), i64> = BTreeMap::new();
    let mut region_share: BTreeMap<String, (Decimal, Decimal, i64, Option<Decimal>)> = BTreeMap::new();
    let mut buckets = [0i64; 10];
    let (mut eligible, mut requested) = (0i64, 0i64);
    let mut after = 0i64;
    loop {
        let projects = crate::facts::projects_after(db, after, PAGE).await?;
        let Some(last) = projects.last() else { break };
        after = last.id;
        let facts = Preloaded::projects(db, &projects).await?;
        for p in &projects {
            let p = p.as_known_on(as_of);
            if brasilia_date(p.created_at) > as_of {
                continue;
            }
            let code = u32::try_from(p.plant_municipality_code)
                .ok()
                .and_then(|c| IbgeCode::new(c).ok());
            let region = code.map_or("?".to_owned(), |c| c.region().name_pt().to_owned());
            *by_stage.entry((p.stage.to_value(), region.clone())).or_default() += 1;
            if p.evaluation_result == Some(Decision::Favourable) && p.external_evaluation_on.is_some() {
                eligible += 1;
            }
            if p.seal_requested_on.is_some() {
                requested += 1;
            }
            // The latest year's acquisitions known on the day.
            let acq: Vec<_> = crate::compliance::FactSource::acquisitions(&facts, p.id)
                .await?
                .into_iter()
                .filter(|a| a.year <= as_of.year() && a.known_on(as_of))
                .collect();
            let Some(year) = acq.iter().map(|a| a.year).max() else {
                continue;
            };
            let terms: Vec<social_fuel::Term> = acq.iter().filter(|a| a.year == year).map(Into::into).collect();
            let Some(share) = social_fuel::share(&terms, entity::rules::Texts::Skipped) else {
                continue;
            };
            let reference = p.filed_on.unwrap_or(as_of);
            let rows = crate::compliance::FactSource::semi_arid(&facts, p.plant_municipality_code).await?;
            let (semi_arid, _) = social_fuel::semi_arid_on(&rows, reference);
            let minimum = code.and_then(|c| params.value(social_fuel::share_key(c, semi_arid), reference).ok());
            let region = if semi_arid { "Semiárido".to_owned() } else { region };
            let e = region_share
                .entry(region)
                .or_insert((Decimal::ZERO, Decimal::ZERO, 0, None));
            e.0 += share.family;
            e.1 += share.total;
            e.2 += 1;
            e.3 = e.3.or(minimum);
            let bucket = (share.percent / Decimal::TEN).floor();
            let i = usize::try_from(rust_decimal::prelude::ToPrimitive::to_u64(&bucket).unwrap_or(0)).unwrap_or(0);
            buckets[i.min(9)] += 1;
        }
    }
    tables.push(sf_table(
        "sf_projects_by_stage_region",
        &["stage", "region", "projects"],
        by_stage
            .into_iter()
            .map(|((s, r), n)| vec![text(s), text(r), Cell::Int(n)])
            .collect(),
    ));
    tables.push(sf_table(
        "sf_family_share_by_region",
        &[
            "region",
            "projects",
            "family_cost",
            "total_cost",
            "share_percent",
            "minimum_percent",
        ],
        region_share
            .into_iter()
            .map(|(r, (family, total, n, min))| {
                let share = if total.is_zero() {
                    Decimal::ZERO
                } else {
                    family * Decimal::ONE_HUNDRED / total
                };
                vec![
                    text(r),
                    Cell::Int(n),
                    money(family),
                    money(total),
                    pct(share),
                    min.map_or(Cell::Empty, pct),
                ]
            })
            .collect(),
    ));
    tables.push(sf_table(
        "sf_family_share_distribution",
        &["from_percent", "to_percent", "projects"],
        buckets
            .iter()
            .enumerate()
            .map(|(i, n)| vec![Cell::Int(i as i64 * 10), Cell::Int(i as i64 * 10 + 10), Cell::Int(*n)])
            .collect(),
    ));
    tables.push(sf_table(
        "sf_seals",
        &["eligible", "requested"],
        vec![vec![Cell::Int(eligible), Cell::Int(requested)]],
    ));
    // The judgement's two tables go here and after the chamber's share, once it is in.
    let deadlines_at = tables.len();

    // FCO: contracted by bank, month, activity, line and municipality; the chamber's share; the groups' ceiling.
    // Grouped by the database, each as known at the end of the day: a contract or decision dated later is not yet.
    let banks: HashMap<i64, bank::Model> = bank::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|b| (b.id, b))
        .collect();
    let day = || vec![sea_orm::Value::from(as_of)];
    // The contracted sums and who decided, side by side on their own pooled connections (on SQLite too: they only read).
    let bank_code = |id: i64| banks.get(&id).map_or_else(|| id.to_string(), |b| b.code.clone());
    // Who decided the cartas approved by the day ("?" when not recorded, or decided after it).
    let decided_sql = format!(
        "SELECT CASE WHEN decided_on <= $1 THEN decided_by END, COUNT(*), CAST(SUM(financed_amount) AS BIGINT) \
         FROM {} WHERE approved_on <= $1 GROUP BY CASE WHEN decided_on <= $1 THEN decided_by END",
        cartas_on()
    );
    let (contracted, decided) = futures::try_join!(
        contracted_sums(db, as_of, &bank_code),
        Sum::of(db, &decided_sql, day(), |r| Ok(r
            .try_get_by_index::<Option<String>>(0)?
            .unwrap_or_else(|| "?".into())),),
    )?;
    let [by_bank, by_month, by_activity, by_line, by_town] = contracted;
    for (n, cents) in by_bank.0.values() {
        figures.contracted_count += *n as u64;
        figures.contracted_cents += cents;
    }
    let towns: HashMap<i32, String> = crate::facts::municipalities(
        db,
        &by_town.0.keys().filter_map(|k| k.parse().ok()).collect::<Vec<i32>>(),
    )
    .await?
    .into_iter()
    .map(|(k, m)| (k, m.name))
    .collect();
    fn with(first: &'static str) -> [&'static str; 3] {
        [first, "count", "amount"]
    }
    tables.push(fco_table("fco_contracted_by_bank", &with("bank"), by_bank.rows()));
    tables.push(fco_table("fco_contracted_by_month", &with("month"), by_month.rows()));
    tables.push(fco_table(
        "fco_contracted_by_activity",
        &with("activity"),
        by_activity.rows(),
    ));
    tables.push(fco_table("fco_contracted_by_line", &with("line"), by_line.rows()));
    tables.push(fco_table(
        "fco_contracted_by_municipality",
        &["ibge_code", "municipality", "count", "amount"],
        by_town
            .0
            .into_iter()
            .map(|(k, (n, c))| {
                let name = k
                    .parse()
                    .ok()
                    .and_then(|code: i32| towns.get(&code).cloned())
                    .unwrap_or_default();
                vec![text(k), text(name), Cell::Int(n), Cell::Money(c)]
            })
            .collect(),
    ));
    let total_decided: i64 = decided.0.values().map(|v| v.1).sum();
    tables.push(fco_table(
        "fco_chamber_share",
        &["decided_by", "count", "amount", "share_of_amount_percent"],
        decided
            .0
            .into_iter()
            .map(|(k, (n, c))| {
                let share = if total_decided == 0 {
                    Decimal::ZERO
                } else {
                    Decimal::from(c) * Decimal::ONE_HUNDRED / Decimal::from(total_decided)
                };
                vec![text(k), Cell::Int(n), Cell::Money(c), pct(share)]
            })
            .collect(),
    ));
    let expiring_at = tables.len();
    tables.push(ceiling_table(db, &params, as_of).await?);
    tables.extend(reporting_tables(db, &calendar, as_of, &banks).await?);

    // Flags: open at the end of the day by rule and severity; resolved by then, and their mean time to resolve.
    let end = entity::domain::brasilia_day_end(as_of);
    let mut open: BTreeMap<(String, String, TableProgramme), i64> = BTreeMap::new();
    for r in query(
        db,
        "SELECT rule_code, severity, programme, COUNT(*) FROM compliance_flag \
         WHERE raised_at < $1 AND (resolved_at IS NULL OR resolved_at >= $1) GROUP BY rule_code, severity, programme",
        vec![end.into()],
    )
    .await?
    {
        let (rule, severity, programme, n): (String, String, String, i64) = (
            r.try_get_by_index(0)?,
            r.try_get_by_index(1)?,
            r.try_get_by_index(2)?,
            r.try_get_by_index(3)?,
        );
        let Some(programme) = TableProgramme::parse(&programme) else {
            continue;
        };
        let of = match programme {
            TableProgramme::SocialFuel => &mut figures.open_social_fuel,
            TableProgramme::FcoRural => &mut figures.open_fco,
        };
        let violations = if severity == "VIOLATION" { n as u64 } else { 0 };
        of.flags += n as u64;
        of.violations += violations;
        figures.open_flags += n as u64;
        figures.open_violations += violations;
        open.insert((rule, severity, programme), n);
    }
    // Whole minutes from raised to resolved, summed.
    let minutes = match db.get_database_backend() {
        DbBackend::Postgres => "CAST(FLOOR(EXTRACT(EPOCH FROM (resolved_at - raised_at)) / 60) AS BIGINT)",
        _ => "CAST(ROUND((julianday(resolved_at) - julianday(raised_at)) * 86400) AS INTEGER) / 60",
    };
    let mut resolve: BTreeMap<(String, TableProgramme), (i64, i64)> = BTreeMap::new();
    for r in query(
        db,
        &format!(
            "SELECT rule_code, programme, COUNT(*), CAST(SUM({minutes}) AS BIGINT) FROM compliance_flag \
             WHERE raised_at < $1 AND resolved_at < $1 GROUP BY rule_code, programme"
        ),
        vec![end.into()],
    )
    .await?
    {
        let Some(programme) = TableProgramme::parse(&r.try_get_by_index::<String>(1)?) else {
            continue;
        };
        resolve.insert(
            (r.try_get_by_index(0)?, programme),
            (
                r.try_get_by_index(2)?,
                r.try_get_by_index::<Option<i64>>(3)?.unwrap_or(0),
            ),
        );
    }
    tables.push(by_row(
        "flags_open_by_rule_severity",
        &["rule_code", "severity", "open"],
        open.into_iter()
            .map(|((r, s, p), n)| (p, vec![text(r), text(s), Cell::Int(n)]))
            .collect(),
    ));
    tables.push(by_row(
        "flags_time_to_resolve",
        &["rule_code", "resolved", "mean_hours"],
        resolve
            .into_iter()
            .map(|((r, p), (n, minutes))| {
                let hours = Decimal::from(minutes) / Decimal::from(60 * n.max(1));
                (p, vec![text(r), Cell::Int(n), Cell::Decimal(hours.round_dp(2))])
            })
            .collect(),
    ));
    let judgement = judging.finish("the dashboard's deadlines").await??;
    let (deadlines, expiring) = judged(&judgement, as_of, &mut figures);
    tables.insert(expiring_at, expiring);
    tables.insert(deadlines_at, deadlines);
    Ok(Dashboard {
        version: VERSION,
        as_of,
        built_at: None,
        programme: None,
        figures,
        tables,
    })
}

/// The deadlines overdue and due within their window, by rule and severity, and the approvals expiring, from the
/// deadlines' judgement; their counts go into `figures`.
fn judged(judgement: &deadline_flags::Judgement, as_of: NaiveDate, figures: &mut Figures) -> (Table, Table) {
    let mut deadlines: BTreeMap<(String, &'static str), (u64, TableProgramme)> = BTreeMap::new();
    let mut expiring: Vec<(i64, NaiveDate, &'static str)> = Vec::new();
    for ((kind, id, rule, _), w) in &judgement.wanted {
        if rules::rule(rule).is_some_and(|r| r.kind == rules::RuleKind::Deadline) || rule.starts_with("FCO-MONTHLY") {
            deadlines
                .entry((rule.clone(), w.severity))
                .or_insert((0, w.programme.into()))
                .0 += 1;
        }
        let violation = w.severity == "VIOLATION";
        match rule.as_str() {
            "SF-DECISION-30D" if violation => figures.decisions_overdue += 1,
            "SF-DECISION-30D" => figures.decisions_due_soon += 1,
            "SF-EXTERNAL-EVAL-6M" | "SF-EXTENSION-12M" if violation => figures.evaluations_overdue += 1,
            "SF-EXTERNAL-EVAL-6M" | "SF-EXTENSION-12M" => figures.evaluations_due_soon += 1,
            "FCO-VALIDITY-120D" => {
                if violation {
                    figures.approvals_expired += 1;
                } else {
                    figures.approvals_expiring += 1;
                }
                if *kind == SubjectKind::Financing {
                    expiring.push((*id, w.due_on.unwrap_or(as_of), w.severity));
                }
            }
            _ => {}
        }
    }
    expiring.sort_by_key(|e| (e.1, e.0));
    (
        by_row(
            "deadlines",
            &["rule_code", "severity", "count"],
            deadlines
                .into_iter()
                .map(|((r, s), (n, p))| (p, vec![text(r), text(s), Cell::Int(n as i64)]))
                .collect(),
        ),
        fco_table(
            "fco_approvals_expiring",
            &["carta", "validity_ends", "severity"],
            expiring
                .iter()
                .map(|(id, due, s)| {
                    vec![
                        text(judgement.numbers.get(id).cloned().unwrap_or_default()),
                        Cell::Date(*due),
                        text(*s),
                    ]
                })
                .collect(),
        ),
    )
}

fn money(reais: Decimal) -> Cell {
    Cell::Money(rust_decimal::prelude::ToPrimitive::to_i64(&(reais * Decimal::ONE_HUNDRED).round()).unwrap_or(0))
}

/// The 20 economic groups with the most approved and contracted, against the ceiling.
async fn ceiling_table(db: &impl ConnectionTrait, params: &rules::params::Params, as_of: NaiveDate) -> Result<Table> {
    // A carta is committed on the day as `fco_carta::Model::known_on` says: in its approval cycle of the day
    // (`cartas_on`), its stage there when no act of it is dated later; otherwise the stage its acts up to the day give
    // (approved or contracted by then).
    let later = "COALESCE(c.submitted_on > $1, FALSE) OR COALESCE(c.decided_on > $1, FALSE) \
        OR COALESCE(c.approved_on > $1, FALSE) OR COALESCE(c.contracted_on > $1, FALSE) \
        OR COALESCE(c.received_by_council_at >= $2, FALSE)";
    let sql = format!(
        "SELECT p.economic_group_id, CAST(SUM(c.financed_amount) AS BIGINT) FROM {cartas} \
         JOIN party p ON p.id = c.party_id \
         WHERE p.economic_group_id IS NOT NULL AND CASE WHEN {later} \
           THEN COALESCE(c.contracted_on <= $1, FALSE) OR COALESCE(c.approved_on <= $1, FALSE) \
           ELSE c.stage IN ('APPROVED', 'CONTRACTED') END \
         GROUP BY p.economic_group_id",
        cartas = cartas_on()
    );
    let mut by_group: HashMap<i64, i64> = HashMap::new();
    for r in query(
        db,
        &sql,
        vec![as_of.into(), entity::domain::brasilia_day_end(as_of).into()],
    )
    .await?
    {
        by_group.insert(
            r.try_get_by_index(0)?,
            r.try_get_by_index::<Option<i64>>(1)?.unwrap_or(0),
        );
    }
    let names: HashMap<i64, String> = economic_group::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|g| (g.id, g.name))
        .collect();
    let ceiling = entity::rules::fco::ceiling_amount(params, as_of)
        .ok()
        .and_then(|v| rust_decimal::prelude::ToPrimitive::to_i64(&(v * Decimal::ONE_HUNDRED)))
        .unwrap_or(0);
    let mut top: Vec<(i64, i64)> = by_group.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    top.truncate(20);
    Ok(fco_table(
        "fco_ceiling_top20",
        &["group", "committed", "ceiling", "use_percent"],
        top.into_iter()
            .map(|(g, c)| {
                let share = if ceiling == 0 {
                    Decimal::ZERO
                } else {
                    Decimal::from(c) * Decimal::ONE_HUNDRED / Decimal::from(ceiling)
                };
                vec![
                    text(names.get(&g).cloned().unwrap_or_default()),
                    Cell::Money(c),
                    Cell::Money(ceiling),
                    pct(share),
                ]
            })
            .collect(),
    ))
}

/// Each FCO bank's monthly list for the twelve months before the day's: on time, late, missing or not yet due; and
/// the cartas on one month's list that the next month's list dropped.
async fn reporting_tables(
    db: &impl ConnectionTrait,
    calendar: &rules::calendar::Calendar,
    as_of: NaiveDate,
    banks: &HashMap<i64, bank::Model>,
) -> Result<Vec<Table>> {
    let first = as_of.with_day(1).unwrap_or(as_of);
    let months: Vec<NaiveDate> = (1..=12u32)
        .rev()
        .filter_map(|b| first.checked_sub_months(Months::new(b)))
        .collect();
    let reports = bank_report::Entity::find()
        .filter(bank_report::Column::Status.ne("REJECTED"))
        .all(db)
        .await?;
    let mut fco: Vec<&bank::Model> = banks.values().filter(|b| b.serves_fco).collect();
    fco.sort_by(|a, b| a.code.cmp(&b.code));
    let mut punctuality = Vec::new();
    for b in &fco {
        for m in &months {
            let month = m.format("%Y-%m").to_string();
            let next_end = m
                .checked_add_months(Months::new(2))
                .and_then(|d| d.pred_opt())
                .unwrap_or(*m);
            let due = calendar
                .of(entity::rules::calendar::Authority::Banking)
                .add_days(next_end, 0, entity::rules::Texts::Written)
                .due;
            let received = reports
                .iter()
                .filter(|r| r.bank_id == b.id && r.reference_month == month)
                .map(|r| brasilia_date(r.received_at))
                .filter(|d| *d <= as_of)
                .min();
            let status = match received {
                Some(d) if d <= due => "ON_TIME",
                Some(_) => "LATE",
                None if due < as_of => "MISSING",
                None => "NOT_YET_DUE",
            };
            punctuality.push(vec![
                text(b.code.clone()),
                text(month),
                Cell::Date(due),
                received.map_or(Cell::Empty, Cell::Date),
                text(status),
            ]);
        }
    }
    // Dropped cartas: the ingested (not superseded) list of each bank and month.
    let current: Vec<&bank_report::Model> = reports.iter().filter(|r| r.status == "INGESTED").collect();
    let ids: Vec<i64> = current.iter().map(|r| r.id).collect();
    let mut listed: HashMap<i64, HashSet<i64>> = HashMap::new();
    for (report, carta) in crate::reports::declared_pairs(db, &ids).await? {
        listed.entry(report).or_default().insert(carta);
    }
    let of = |bank: i64, month: &str| current.iter().find(|r| r.bank_id == bank && r.reference_month == month);
    let mut dropped = Vec::new();
    for b in &fco {
        for pair in months.windows(2) {
            let (prev, cur) = (pair[0].format("%Y-%m").to_string(), pair[1].format("%Y-%m").to_string());
            if let (Some(p), Some(c)) = (of(b.id, &prev), of(b.id, &cur)) {
                let empty = HashSet::new();
                let (p, c) = (listed.get(&p.id).unwrap_or(&empty), listed.get(&c.id).unwrap_or(&empty));
                dropped.push(vec![
                    text(b.code.clone()),
                    text(cur),
                    Cell::Int(p.difference(c).count() as i64),
                ]);
            }
        }
    }
    let window = |m: Option<&NaiveDate>| m.map(|m| m.format("%m/%Y").to_string()).unwrap_or_default();
    Ok(vec![
        Table {
            title_args: vec![
                ("from".into(), window(months.first())),
                ("to".into(), window(months.last())),
            ],
            ..fco_table(
                "fco_reporting_punctuality",
                &["bank", "month", "due", "received", "status"],
                punctuality,
            )
        },
        fco_table("fco_cartas_dropped", &["bank", "month", "dropped"], dropped),
    ])
}

/// Builds the dashboard as of `as_of` and keeps it (replacing an earlier build of the same day).
pub async fn build(db: &crate::Db, as_of: NaiveDate, now: DateTime<Utc>) -> Result<Dashboard> {
    let mut d = compute(db, as_of).await?;
    d.built_at = Some(now);
    let body = serde_json::to_string(&d).map_err(|e| ServiceError::Internal(e.to_string()))?;
    let txn = crate::txn::write(db).await?;
    dashboard_snapshot::Entity::delete_many()
        .filter(dashboard_snapshot::Column::AsOf.eq(as_of))
        .exec(&txn)
        .await?;
    dashboard_snapshot::ActiveModel {
        as_of: Set(as_of),
        built_at: Set(now),
        body: Set(body),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(d)
}

/// The dashboard as of `as_of`: the job's build of that day if there is one, else computed now (`built_at: None`).
pub async fn get(db: &crate::Db, as_of: NaiveDate) -> Result<Dashboard> {
    if let Some(s) = dashboard_snapshot::Entity::find()
        .filter(dashboard_snapshot::Column::AsOf.eq(as_of))
        .one(db)
        .await?
        && let Ok(d) = serde_json::from_str::<Dashboard>(&s.body)
        && d.version == VERSION
    {
        return Ok(d);
    }
    compute(db, as_of).await
}
