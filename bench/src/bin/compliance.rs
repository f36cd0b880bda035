//! `fomento-bench-compliance`: times the `build-dashboards` and `flag-deadlines` jobs over a large database against
//! their floors, measured in the same run:
//! - dashboards: `service::dashboard::compute` against hand-written `GROUP BY` statements producing the same tables
//!   (contracted by bank, month, activity, line and municipality; the chamber's share; the groups' ceiling; projects
//!   by stage and region; the family-farm cost by region; open flags by rule and severity);
//! - flags: `service::deadline_flags::run` (judge everything, raise every flag) against one scan of the same columns
//!   (the 25 of `fco_carta`'s 30 that the rules read, and the projects') plus an insert of the same number of flag
//!   rows, in one transaction; then a second pass, every flag open (the pass as it runs day to day), against the same
//!   floor. Beside it, the stricter floor this bench used until 2026-12-05 (ten columns), with the ratios to it.
//!
//! Each phase runs in a child process, so its peak memory is its own. SQLite always; PostgreSQL with `--postgres URL`.
//! `cargo run --release -p fomento-bench --bin fomento-bench-compliance -- --cartas 1000000 --projects 10000
//! --postgres postgres://postgres@127.0.0.1:5432/test`
//!
//! Size: the benchmark's seeding, its floors and its phases, which must measure the same data alike.

#[path = "../phases.rs"]
mod phases;

use anyhow::bail;
use chrono::NaiveDate;
use phases::{child, peak_kib};
use sea_orm::{ConnectionTrait, Database, DbBackend, Statement, TransactionTrait, Value};
use std::time::Instant;

const TOWNS: [i32; 6] = [5107925, 5107909, 5103403, 5107602, 5106224, 5105259];
const ACTIVITIES: [&str; 5] = ["GRAINS", "BEEF_CATTLE", "MACHINERY", "FISH_FARMING", "INFRASTRUCTURE"];
const LINES: [&str; 3] = ["FCO_RURAL", "PRONAF", "FCO_VERDE"];
const PLANTS: [i32; 4] = [5103403, 2611606, 3550308, 4314902];

fn as_of() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 12, 3).unwrap_or_default()
}

fn day(n: i64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2024, 1, 1).unwrap_or_default() + chrono::Duration::days(n)
}

/// Inserts `rows` into `table(columns)`, 500 rows per statement, in one transaction.
async fn insert(
    db: &sea_orm::DatabaseConnection,
    table: &str,
    columns: &[&str],
    rows: Vec<Vec<Value>>,
) -> anyhow::Result<()> {
    let backend = db.get_database_backend();
    let txn = db.begin().await?;
    for chunk in rows.chunks(500) {
        let mut sql = format!("INSERT INTO {table} ({}) VALUES ", columns.join(","));
        let mut values = Vec::with_capacity(chunk.len() * columns.len());
        for (k, r) in chunk.iter().enumerate() {
            if k > 0 {
                sql.push(',');
            }
            let ph: Vec<String> = (1..=columns.len())
                .map(|j| match backend {
                    DbBackend::Postgres => format!("${}", k * columns.len() + j),
                    _ => "?".into(),
                })
                .collect();
            sql.push_str(&format!("({})", ph.join(",")));
            values.extend(r.iter().cloned());
        }
        txn.execute_raw(Statement::from_sql_and_values(backend, sql, values))
            .await?;
    }
    txn.commit().await?;
    Ok(())
}

/// A migrated database with `cartas` cartas and `projects` projects (seconds to seed).
async fn seed(url: &str, cartas: usize, projects: usize) -> anyhow::Result<f64> {
    let started = Instant::now();
    let (db, _) = fomento_api::startup::connect(url).await?;
    fomento_api::startup::migrate_up(&db).await?;
    let now = chrono::Utc::now();
    insert(
        &db,
        "bank",
        &[
            "code",
            "name",
            "serves_social_fuel",
            "serves_fco",
            "mda_cooperation_agreement",
        ],
        ["BB", "SICREDI", "BASA", "BNB", "DESENVOLVE_MT"]
            .iter()
            .map(|c| vec![(*c).into(), (*c).into(), true.into(), true.into(), false.into()])
            .collect(),
    )
    .await?;
    let parties = cartas / 5 + projects + 1;
    let groups = (parties / 250).max(1);
    insert(
        &db,
        "economic_group",
        &["name", "kind"],
        (0..groups)
            .map(|g| vec![format!("Grupo {g}").into(), "GROUP".into()])
            .collect(),
    )
    .await?;
    insert(
        &db,
        "party",
        &["document", "document_kind", "name", "economic_group_id"],
        (0..parties)
            .map(|p| {
                let group: Option<i64> = (p % 5 == 0).then_some((p / 5 % groups) as i64 + 1);
                vec![
                    format!("{:011}", 10_000_000_000u64 + p as u64).into(),
                    "CPF".into(),
                    format!("Parte {p}").into(),
                    group.into(),
                ]
            })
            .collect(),
    )
    .await?;
    insert(
        &db,
        "economic_group_membership",
        &["group_id", "party_id", "recorded_by"],
        (0..parties)
            .filter(|p| p % 5 == 0)
            .map(|p| {
                vec![
                    ((p / 5 % groups) as i64 + 1).into(),
                    (p as i64 + 1).into(),
                    "bench".into(),
                ]
            })
            .collect(),
    )
    .await?;
    let stages = [
        ("DRAFT", "DRAFT"),
        ("SUBMITTED", "IN_ANALYSIS"),
        ("APPROVED", "APPROVED"),
        ("UNFAVOURABLE", "DENIED"),
        ("CONTRACTED", "ACTIVE"),
        ("CONTRACTED", "ACTIVE"),
        ("EXPIRED", "ENDED"),
    ];
    let rows = (0..cartas)
        .map(|i| {
            let (stage, status) = stages[i % stages.len()];
            let amount = 5_000_000_i64 + (i as i64 * 7919 % 200_000_000);
            let submitted = day((i % 1000) as i64);
            let decided = (stage != "DRAFT" && stage != "SUBMITTED").then_some(submitted + chrono::Duration::days(20));
            let approved = matches!(stage, "APPROVED" | "CONTRACTED" | "EXPIRED")
                .then_some(submitted + chrono::Duration::days(20));
            let contracted = (stage == "CONTRACTED").then_some(submitted + chrono::Duration::days(60));
            let by = decided.map(|_| if amount >= 100_000_000 { "CHAMBER" } else { "BANK" });
            vec![
                format!("B-{i}").into(),
                ((i % 5) as i64 + 1).into(),
                ((i / 5) as i64 + 1).into(),
                LINES[i % LINES.len()].into(),
                ACTIVITIES[i % ACTIVITIES.len()].into(),
                amount.into(),
                TOWNS[i % TOWNS.len()].into(),
                stage.into(),
                status.into(),
                Some(submitted).into(),
                decided
                    .map(|_| {
                        if stage == "UNFAVOURABLE" {
                            "UNFAVOURABLE"
                        } else {
                            "FAVOURABLE"
                        }
                    })
                    .into(),
                by.into(),
                decided.into(),
                approved.into(),
                contracted.into(),
                now.into(),
            ]
        })
        .collect();
    insert(
        &db,
        "fco_carta",
        &[
            "number",
            "bank_id",
            "party_id",
            "line",
            "activity",
            "financed_amount",
            "municipality_code",
            "stage",
            "status",
            "submitted_on",
            "decision",
            "decided_by",
            "decided_on",
            "approved_on",
            "contracted_on",
            "created_at",
        ],
        rows,
    )
    .await?;
    let p_stages = [
        ("FILED", "IN_ANALYSIS"),
        ("CONFORMING", "APPROVED"),
        ("OPERATING", "ACTIVE"),
        ("EXTERNAL_EVALUATION", "ACTIVE"),
        ("SEAL_ELIGIBLE", "ACTIVE"),
    ];
    let first_project_party = (cartas / 5 + 1) as i64;
    let rows = (0..projects)
        .map(|i| {
            let (stage, status) = p_stages[i % p_stages.len()];
            let filed = day((i % 900) as i64);
            let decided = (stage != "FILED").then_some(filed + chrono::Duration::days(25));
            let start = matches!(stage, "OPERATING" | "EXTERNAL_EVALUATION" | "SEAL_ELIGIBLE")
                .then_some(filed + chrono::Duration::days(200));
            let eval = (stage == "SEAL_ELIGIBLE").then_some(filed + chrono::Duration::days(350));
            vec![
                format!("Usina {i}").into(),
                ((i % 5) as i64 + 1).into(),
                (first_project_party + i as i64).into(),
                PLANTS[i % PLANTS.len()].into(),
                100_000_000_i64.into(),
                stage.into(),
                status.into(),
                Some(filed - chrono::Duration::days(5)).into(),
                false.into(),
                Some(filed).into(),
                decided.map(|_| "FAVOURABLE").into(),
                decided.into(),
                false.into(),
                start.into(),
                eval.into(),
                eval.map(|_| "FAVOURABLE").into(),
                now.into(),
            ]
        })
        .collect();
    insert(
        &db,
        "social_fuel_project",
        &[
            "title",
            "bank_id",
            "party_id",
            "plant_municipality_code",
            "requested_amount",
            "stage",
            "status",
            "bank_framed_on",
            "analysed_by_bank",
            "filed_on",
            "decision",
            "decided_on",
            "schedule_delay_accepted",
            "industrial_start_on",
            "external_evaluation_on",
            "evaluation_result",
            "created_at",
        ],
        rows,
    )
    .await?;
    let rows = (0..projects)
        .flat_map(|i| {
            [("FAMILY_FARMER", 60_000i64), ("OTHER_THIRD_PARTY", 40_000)].map(|(kind, kg)| {
                vec![
                    (i as i64 + 1).into(),
                    2026i32.into(),
                    kind.into(),
                    "SOYBEAN".into(),
                    (kg * 1000).into(),
                    (kg * 150 + (i as i64 % 97) * 1000).into(),
                ]
            })
        })
        .collect();
    insert(
        &db,
        "feedstock_acquisition",
        &["project_id", "year", "supplier_kind", "crop", "quantity_kg", "cost"],
        rows,
    )
    .await?;
    // The database's upkeep after a million inserts done now, not while the phases are timed: PostgreSQL's vacuum
    // (which autovacuum would start during the first phases) and statistics, and a checkpoint; SQLite's WAL folded
    // into the database.
    if db.get_database_backend() == DbBackend::Postgres {
        db.execute_unprepared("VACUUM ANALYZE").await?;
        db.execute_unprepared("CHECKPOINT").await?;
    } else {
        db.execute_unprepared("PRAGMA wal_checkpoint(TRUNCATE)").await?;
    }
    Ok(started.elapsed().as_secs_f64())
}

/// The dashboard's tables by hand-written `GROUP BY` statements.
async fn dashboard_floor(url: &str) -> anyhow::Result<f64> {
    let (db, _) = fomento_api::startup::connect(url).await?;
    let backend = db.get_database_backend();
    let month = match backend {
        DbBackend::Postgres => "to_char(contracted_on, 'YYYY-MM')",
        _ => "substr(contracted_on, 1, 7)",
    };
    let p = |n: usize| match backend {
        DbBackend::Postgres => format!("${n}"),
        _ => "?".to_owned(),
    };
    let started = Instant::now();
    let mut rows = 0usize;
    let by = |key: &str| {
        format!(
            "SELECT {key}, COUNT(*), SUM(financed_amount) FROM fco_carta WHERE contracted_on <= {} GROUP BY {key}",
            p(1)
        )
    };
    let statements = [
        by("bank_id"),
        by(month),
        by("activity"),
        by("line"),
        by("municipality_code"),
        format!(
            "SELECT decided_by, COUNT(*), SUM(financed_amount) FROM fco_carta WHERE approved_on <= {} GROUP BY decided_by",
            p(1)
        ),
        "SELECT p.economic_group_id, SUM(c.financed_amount) FROM fco_carta c JOIN party p ON p.id = c.party_id \
         WHERE c.stage IN ('APPROVED', 'CONTRACTED') AND p.economic_group_id IS NOT NULL GROUP BY p.economic_group_id \
         ORDER BY 2 DESC LIMIT 20"
            .into(),
        "SELECT stage, plant_municipality_code / 1000000, COUNT(*) FROM social_fuel_project GROUP BY 1, 2".into(),
        "SELECT p.plant_municipality_code / 1000000, \
           SUM(CASE WHEN a.supplier_kind IN ('FAMILY_FARMER', 'FAMILY_FARM_COOPERATIVE') THEN a.cost ELSE 0 END), SUM(a.cost) \
         FROM feedstock_acquisition a JOIN social_fuel_project p ON p.id = a.project_id \
         WHERE a.superseded_at IS NULL GROUP BY 1"
            .into(),
        "SELECT rule_code, severity, COUNT(*) FROM compliance_flag WHERE resolved_at IS NULL GROUP BY 1, 2".into(),
        format!(
            "SELECT id, approved_on FROM fco_carta WHERE stage = 'APPROVED' AND approved_on <= {}",
            p(1)
        ),
    ];
    for sql in statements {
        let values: Vec<Value> = if sql.contains('$') || sql.contains('?') {
            vec![as_of().into()]
        } else {
            Vec::new()
        };
        rows += db
            .query_all_raw(Statement::from_sql_and_values(backend, sql, values))
            .await?
            .len();
    }
    std::hint::black_box(rows);
    Ok(started.elapsed().as_secs_f64())
}

async fn dashboard(url: &str) -> anyhow::Result<f64> {
    let (db, _) = fomento_api::startup::connect(url).await?;
    let started = Instant::now();
    let d = service::dashboard::compute(&db, as_of()).await?;
    std::hint::black_box(d.tables.len());
    Ok(started.elapsed().as_secs_f64())
}

/// Every table of the dashboard, a row a line (for checking that a change to the dashboard leaves its answer be:
/// `phase dashboard-tables URL | md5sum` before and after).
async fn dashboard_tables(url: &str) -> anyhow::Result<String> {
    let (db, _) = fomento_api::startup::connect(url).await?;
    let d = service::dashboard::compute(&db, as_of()).await?;
    let mut out = String::new();
    for t in &d.tables {
        out.push_str(&format!("{} {:?}\n", t.name, t.columns));
        for r in &t.rows {
            out.push_str(&format!("  {r:?}\n"));
        }
    }
    Ok(out)
}

async fn flags(url: &str) -> anyhow::Result<(f64, usize)> {
    let (db, _) = fomento_api::startup::connect(url).await?;
    let started = Instant::now();
    let s = service::deadline_flags::run(&db, as_of(), chrono::Utc::now()).await?;
    Ok((started.elapsed().as_secs_f64(), s.raised.len()))
}

/// The flag pass in its three parts, each timed: judging, bringing `compliance_flag` in step, announcing (for
/// finding where the time goes; the full run times [`flags`]). The parts run one after the other, as `run` runs them
/// on SQLite; on PostgreSQL `run` writes the new flags while the judging goes on, so only [`flags`] times that.
async fn flags_parts(url: &str) -> anyhow::Result<String> {
    let (db, _) = fomento_api::startup::connect(url).await?;
    let now = chrono::Utc::now();
    let started = Instant::now();
    let cpu = cpu_secs();
    let j = service::deadline_flags::judge(&db, as_of()).await?;
    let judged = started.elapsed().as_secs_f64();
    let judged_cpu = cpu_secs() - cpu;
    let judged_kib = peak_kib();
    let wanted = j.wanted.len();
    let s = service::deadline_flags::sync(&db, j, as_of(), now).await?;
    let synced = started.elapsed().as_secs_f64() - judged;
    let synced_cpu = cpu_secs() - cpu - judged_cpu;
    let events = service::events::of_pass(&s.raised, &s.changed, &s.resolved);
    service::events::announce(&db, &events).await?;
    let announced = started.elapsed().as_secs_f64() - judged - synced;
    Ok(format!(
        "judge {judged:.3} (cpu {judged_cpu:.2}, peak {} MiB) sync {synced:.3} (cpu {synced_cpu:.2}) announce \
         {announced:.3} wanted {wanted} raised {}",
        judged_kib / 1024,
        s.raised.len()
    ))
}

/// The CPU seconds this process has used (user and system, every thread), from `/proc/self/stat` (clock ticks of
/// 1/100 s): beside a phase's wall time, whether it waited on the database or worked.
pub fn cpu_secs() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // The fields after the command name, which is in parentheses and may hold spaces.
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            let ticks = |i: usize| f.get(i)?.parse::<u64>().ok();
            Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
        })
        .unwrap_or(f64::NAN)
}

/// The columns of `fco_carta` the judgement reads: every column a rule or the pass reads (`fco_carta::JUDGED`: all but
/// the status, the creation time, the creating report and the borrower's filed name). The floor is one scan of
/// these.
const JUDGED_COLUMNS: &str = "id, number, bank_id, party_id, line, activity, financed_amount, municipality_code, stage, \
     submitted_on, received_by_council_at, chamber_meeting_id, decision, decided_by, decided_on, approved_on, \
     contracted_on, contracted_amount, term_months, grace_months, resubmission_of, professional_name, existing_sires, \
     artificial_insemination, presented_on, special_demand";

/// A stricter floor's ten columns (the pass's own reads of stage, dates, amount, borrower and meeting): the floor this
/// bench measured against until 2026-12-05, still printed beside the issue's.
const NARROW_COLUMNS: &str = "id, party_id, bank_id, stage, financed_amount, submitted_on, decided_by, approved_on, \
     contracted_on, chamber_meeting_id";

/// One scan of `columns` of every carta and of the projects' columns the judgement reads, and an insert of `n` flag
/// rows, in one transaction.
async fn flags_floor(url: &str, n: usize, columns: &str) -> anyhow::Result<f64> {
    let (db, _) = fomento_api::startup::connect(url).await?;
    let backend = db.get_database_backend();
    db.execute_unprepared("DROP TABLE IF EXISTS bench_flag").await?;
    db.execute_unprepared(
        "CREATE TABLE bench_flag (programme TEXT, financing_id BIGINT, rule_code TEXT, legal_basis TEXT, message TEXT,
         source TEXT, severity TEXT, due_on DATE, subject_kind TEXT, subject_id BIGINT, occurrence TEXT, fingerprint TEXT)",
    )
    .await?;
    let page_sql = format!(
        "SELECT {columns} FROM fco_carta WHERE id > {} ORDER BY id LIMIT 20000",
        if backend == DbBackend::Postgres { "$1" } else { "?" }
    );
    let started = Instant::now();
    // The cartas in pages of 20,000 by id, as the pass reads them: read in one statement, the driver held every row
    // at once (1.4 GiB on SQLite), and the time went to the kernel's zeroing of that memory, 3 to 8 s from one run
    // to the next.
    let mut scanned = 0usize;
    let mut after = 0i64;
    loop {
        let page = db
            .query_all_raw(Statement::from_sql_and_values(
                backend,
                page_sql.as_str(),
                [after.into()],
            ))
            .await?;
        let Some(last) = page.last() else { break };
        after = last.try_get_by_index(0)?;
        scanned += page.len();
    }
    let scanned = scanned
        + db.query_all_raw(Statement::from_string(
            backend,
            "SELECT id, stage, filed_on, decided_on, industrial_start_on, external_evaluation_on, evaluation_result, \
                 seal_requested_on, extension_granted_on, plant_municipality_code FROM social_fuel_project",
        ))
        .await?
        .len();
    std::hint::black_box(scanned);
    let rows: Vec<Vec<Value>> = (0..n)
        .map(|i| {
            vec![
                "FCO_RURAL".into(),
                (i as i64).into(),
                "FCO-VALIDITY-120D".into(),
                "IN CDAE/MT 2019, art. 3, sole §".into(),
                "Lei 9.784/1999, art. 66: 120 days from 2024-01-21 end on 2024-05-20. Not done; overdue.".into(),
                "job:flag-deadlines".into(),
                "VIOLATION".into(),
                Some(as_of()).into(),
                "FINANCING".into(),
                (i as i64).into(),
                "".into(),
                "VIOLATION|2024-05-20".into(),
            ]
        })
        .collect();
    insert(
        &db,
        "bench_flag",
        &[
            "programme",
            "financing_id",
            "rule_code",
            "legal_basis",
            "message",
            "source",
            "severity",
            "due_on",
            "subject_kind",
            "subject_id",
            "occurrence",
            "fingerprint",
        ],
        rows,
    )
    .await?;
    let secs = started.elapsed().as_secs_f64();
    db.execute_unprepared("DROP TABLE bench_flag").await?;
    Ok(secs)
}

fn secs(v: &str) -> f64 {
    v.split_whitespace()
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(f64::NAN)
}

/// The allocator of the `fomento` binary, so the phases measure what it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("phase") {
        let out = match args.get(1).map(String::as_str) {
            Some("seed") => format!("{:.3}", seed(&args[2], args[3].parse()?, args[4].parse()?).await?),
            Some("dashboard-floor") => format!("{:.3}", dashboard_floor(&args[2]).await?),
            Some("dashboard") => format!("{:.3}", dashboard(&args[2]).await?),
            Some("dashboard-tables") => dashboard_tables(&args[2]).await?,
            Some("flags") => {
                let (s, n) = flags(&args[2]).await?;
                format!("{s:.3} {n}")
            }
            Some("flags-parts") => flags_parts(&args[2]).await?,
            Some("flags-floor") => format!("{:.3}", flags_floor(&args[2], args[3].parse()?, JUDGED_COLUMNS).await?),
            Some("flags-floor-narrow") => {
                format!("{:.3}", flags_floor(&args[2], args[3].parse()?, NARROW_COLUMNS).await?)
            }
            other => bail!("unknown phase {other:?}"),
        };
        println!("{out} {}", peak_kib());
        return Ok(());
    }
    let get = |name: &str, default: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
            .unwrap_or_else(|| default.to_owned())
    };
    let cartas = get("--cartas", "100000");
    let projects = get("--projects", "10000");
    let postgres = args
        .iter()
        .position(|a| a == "--postgres")
        .and_then(|i| args.get(i + 1).cloned());
    let dir = std::env::temp_dir().join("fomento-bench-compliance");
    std::fs::create_dir_all(&dir)?;
    println!("{cartas} cartas, {projects} projects, as of {}", as_of());
    println!("backend     phase              seconds   peak MiB   ratio to floor");
    let mut backends = vec![("sqlite".to_owned(), None)];
    if let Some(pg) = postgres {
        backends.push(("postgresql".to_owned(), Some(pg)));
    }
    for (label, admin) in backends {
        let url = match &admin {
            None => {
                let path = dir.join("bench.db");
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                }
                format!("sqlite://{}?mode=rwc", path.display())
            }
            Some(admin) => {
                let db = Database::connect(admin.as_str()).await?;
                db.execute_unprepared("DROP DATABASE IF EXISTS fomento_bench_compliance WITH (FORCE)")
                    .await?;
                db.execute_unprepared("CREATE DATABASE fomento_bench_compliance")
                    .await?;
                let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(admin);
                format!("{base}/fomento_bench_compliance")
            }
        };
        let (seeded, _) = child(&["seed".into(), url.clone(), cartas.clone(), projects.clone()])?;
        println!("{label:<11} seed               {:>7.1}", secs(&seeded));
        let (floor, floor_kib) = child(&["dashboard-floor".into(), url.clone()])?;
        let (dash, dash_kib) = child(&["dashboard".into(), url.clone()])?;
        println!(
            "{label:<11} dashboard floor    {:>7.2}   {:>8.1}",
            secs(&floor),
            floor_kib as f64 / 1024.0
        );
        println!(
            "{label:<11} dashboard          {:>7.2}   {:>8.1}   {:.1}x",
            secs(&dash),
            dash_kib as f64 / 1024.0,
            secs(&dash) / secs(&floor)
        );
        let (flagged, flags_kib) = child(&["flags".into(), url.clone()])?;
        let raised = flagged.split_whitespace().nth(1).unwrap_or("0").to_owned();
        let (ffloor, ffloor_kib) = child(&["flags-floor".into(), url.clone(), raised.clone()])?;
        let (narrow, narrow_kib) = child(&["flags-floor-narrow".into(), url.clone(), raised.clone()])?;
        println!(
            "{label:<11} flags floor        {:>7.2}   {:>8.1}   ({raised} flags; the 25 columns judged)",
            secs(&ffloor),
            ffloor_kib as f64 / 1024.0
        );
        println!(
            "{label:<11} flags floor, 10 col{:>7.2}   {:>8.1}",
            secs(&narrow),
            narrow_kib as f64 / 1024.0
        );
        println!(
            "{label:<11} flag-deadlines     {:>7.2}   {:>8.1}   {:.1}x   ({:.1}x the 10-column floor)",
            secs(&flagged),
            flags_kib as f64 / 1024.0,
            secs(&flagged) / secs(&ffloor),
            secs(&flagged) / secs(&narrow)
        );
        // The next day's pass as it runs day to day: every flag is open, so each flagged financing is judged with its texts
        // and compared with its flag; nothing is raised.
        let (again, again_kib) = child(&["flags".into(), url.clone()])?;
        println!(
            "{label:<11} flag-deadlines 2nd {:>7.2}   {:>8.1}   {:.1}x   ({:.1}x the 10-column floor; {} raised)",
            secs(&again),
            again_kib as f64 / 1024.0,
            secs(&again) / secs(&ffloor),
            secs(&again) / secs(&narrow),
            again.split_whitespace().nth(1).unwrap_or("?")
        );
        // Nothing is left behind: the seeded database was a third of a GiB in the temporary directory on SQLite, and
        // a million rows on the PostgreSQL server.
        match &admin {
            None => std::fs::remove_dir_all(&dir)?,
            Some(admin) => {
                Database::connect(admin.as_str())
                    .await?
                    .execute_unprepared("DROP DATABASE IF EXISTS fomento_bench_compliance WITH (FORCE)")
                    .await?;
            }
        }
    }
    Ok(())
}
