//! `fomento-bench`: times the ingestion of a bank's monthly report against its two floors, in one run.
//!
//! For each size it generates a workbook in the bank format, then runs each phase in a child process (so each
//! phase's peak memory is its own):
//! - (a) calamine's bare parse of the file (cell by cell, every cell visited);
//! - (b) a bare bulk insert of the same rows into a plain table of the same database (multi-row INSERTs, one
//!   transaction);
//! - (c) Fomento's full ingest: store the file, then the job's step (read, check every row, apply, flag).
//!
//! It prints c/(a+b), rows per second and peak memory, on SQLite and, with `--postgres URL`, on PostgreSQL. With
//! `--repeat N` each phase runs N times (a fresh database each time) and the medians are printed, with the largest
//! peak. Run it in release mode: `cargo run --release -p fomento-bench -- --rows 100000,1000000 --postgres URL`.

mod phases;

use anyhow::{Context, bail};
use chrono::Utc;
use phases::peak_kib;
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
use sea_orm::{ConnectionTrait, Database, DbBackend, Statement, TransactionTrait};
use std::{path::PathBuf, time::Instant};

const MT: [&str; 10] = [
    "Sorriso",
    "Sinop",
    "Cuiabá",
    "Rondonópolis",
    "Primavera do Leste",
    "Nova Mutum",
    "Lucas do Rio Verde",
    "Campo Verde",
    "Sapezal",
    "Diamantino",
];
const ACTIVITIES: [&str; 5] = [
    "Piscicultura",
    "Bovinocultura de corte",
    "Grãos",
    "Máquinas e equipamentos",
    "Recuperação de pastagens",
];

/// One generated row, as the floors and the file share it.
struct Row {
    number: String,
    borrower: String,
    document: String,
    municipality: &'static str,
    activity: &'static str,
    amount: f64,
    approved: (u16, u8, u8),
    contracted: String,
    term: f64,
    grace: f64,
}

fn row(i: usize) -> Row {
    // 1 borrower in 5 has two cartas.
    let who = i - i / 5;
    let doc = entity::domain::document::cpf_with_check_digits(&format!("{:09}", 100_000_000 + who))
        .map(|c| c.to_string())
        .unwrap_or_default();
    Row {
        number: format!("MT-2019-{i:07}"),
        borrower: format!("Produtor {who} Agropecuária"),
        document: doc,
        municipality: MT[i % MT.len()],
        activity: ACTIVITIES[i % ACTIVITIES.len()],
        amount: 50_000.0 + (i % 9000) as f64 * 100.0 + 0.25,
        approved: (2019, 4, 1 + (i % 28) as u8),
        contracted: format!("{:02}/05/2019", 1 + i % 28),
        term: 120.0,
        grace: 24.0,
    }
}

fn generate(path: &PathBuf, n: usize) -> anyhow::Result<()> {
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet_with_constant_memory()?;
    let date = Format::new().set_num_format("dd/mm/yyyy");
    ws.write_string(
        0,
        0,
        "Banco do Brasil S.A. — Relação mensal de cartas-consultas — FCO Rural/MT",
    )?;
    ws.write_string(1, 0, "Mês de referência: maio/2019")?;
    let headers = jobs::report::columns::BANK_SHEET.map(jobs::report::columns::header);
    for (j, h) in headers.iter().enumerate() {
        ws.write_string(2, j as u16, *h)?;
    }
    for i in 0..n {
        let r = row(i);
        let y = 3 + i as u32;
        ws.write_string(y, 0, &r.number)?;
        ws.write_string(y, 1, &r.borrower)?;
        ws.write_string(y, 2, &r.document)?;
        ws.write_string(y, 3, r.municipality)?;
        ws.write_string(y, 4, "MT")?;
        ws.write_string(y, 5, "FCO Rural")?;
        ws.write_string(y, 6, r.activity)?;
        ws.write_string(y, 7, "Investimento")?;
        ws.write_number(y, 8, r.amount)?;
        ws.write_datetime_with_format(
            y,
            9,
            ExcelDateTime::from_ymd(r.approved.0, r.approved.1, r.approved.2)?,
            &date,
        )?;
        ws.write_string(y, 10, &r.contracted)?;
        ws.write_number(y, 11, r.term)?;
        ws.write_number(y, 12, r.grace)?;
    }
    wb.save(path)?;
    Ok(())
}

fn phase_parse(file: &str) -> anyhow::Result<f64> {
    use calamine::{Reader, Xlsx};
    let started = Instant::now();
    let bytes = std::fs::read(file)?;
    let mut xlsx = Xlsx::new(std::io::Cursor::new(bytes))?;
    let name = xlsx.sheet_names().first().cloned().context("no sheet")?;
    let mut reader = xlsx.worksheet_cells_reader(&name)?;
    let mut cells = 0u64;
    while let Some(c) = reader.next_cell()? {
        if !matches!(c.get_value(), calamine::DataRef::Empty) {
            cells += 1;
        }
    }
    std::hint::black_box(cells);
    Ok(started.elapsed().as_secs_f64())
}

async fn phase_insert(url: &str, n: usize) -> anyhow::Result<f64> {
    // Connected as Fomento connects (on SQLite: WAL journal, foreign keys on), so the floor and the ingest write to
    // the same kind of database.
    let (db, _) = fomento_api::startup::connect(url).await?;
    let backend = db.get_database_backend();
    db.execute_unprepared("DROP TABLE IF EXISTS bench_floor").await?;
    db.execute_unprepared(
        "CREATE TABLE bench_floor (number TEXT, borrower TEXT, document TEXT, municipality INTEGER, uf TEXT, line TEXT,
         activity TEXT, purpose TEXT, amount BIGINT, approved DATE, contracted DATE, term INTEGER, grace INTEGER)",
    )
    .await?;
    let rows: Vec<Row> = (0..n).map(row).collect();
    let started = Instant::now();
    let txn = db.begin().await?;
    let per = 1000;
    for chunk in rows.chunks(per) {
        let mut sql = String::from(
            "INSERT INTO bench_floor (number, borrower, document, municipality, uf, line, activity, purpose, amount, approved, contracted, term, grace) VALUES ",
        );
        let mut values: Vec<sea_orm::Value> = Vec::with_capacity(chunk.len() * 13);
        for (k, r) in chunk.iter().enumerate() {
            if k > 0 {
                sql.push(',');
            }
            let base = k * 13;
            let ph: Vec<String> = (1..=13)
                .map(|j| {
                    if backend == DbBackend::Postgres {
                        format!("${}", base + j)
                    } else {
                        "?".into()
                    }
                })
                .collect();
            sql.push_str(&format!("({})", ph.join(",")));
            let approved = chrono::NaiveDate::from_ymd_opt(
                i32::from(r.approved.0),
                u32::from(r.approved.1),
                u32::from(r.approved.2),
            )
            .unwrap_or_default();
            let contracted = chrono::NaiveDate::parse_from_str(&r.contracted, "%d/%m/%Y").unwrap_or_default();
            values.extend([
                r.number.clone().into(),
                r.borrower.clone().into(),
                r.document.clone().into(),
                5107925i32.into(),
                "MT".into(),
                "FCO_RURAL".into(),
                r.activity.into(),
                "INVESTMENT".into(),
                ((r.amount * 100.0).round() as i64).into(),
                approved.into(),
                contracted.into(),
                (r.term as i32).into(),
                (r.grace as i32).into(),
            ]);
        }
        txn.execute_raw(Statement::from_sql_and_values(backend, sql, values))
            .await?;
    }
    txn.commit().await?;
    let secs = started.elapsed().as_secs_f64();
    db.execute_unprepared("DROP TABLE bench_floor").await?;
    Ok(secs)
}

/// Ingests `file` as the May 2019 list of the bank of `code` (`BB`, Banco do Brasil, by default), created in the
/// database at `url`, which may already hold other banks' lists.
async fn phase_ingest(url: &str, file: &str, store: &str, code: Option<&str>) -> anyhow::Result<f64> {
    let (db, _) = fomento_api::startup::connect(url).await?;
    fomento_api::startup::migrate_up(&db).await?;
    use sea_orm::{ActiveModelTrait, ActiveValue::Set};
    let (code, name) = match code {
        None | Some("BB") => ("BB", "Banco do Brasil".to_owned()),
        Some(other) => (other, format!("Banco {other}")),
    };
    let bank = entity::bank::ActiveModel {
        code: Set(code.into()),
        name: Set(name),
        serves_social_fuel: Set(true),
        serves_fco: Set(true),
        mda_cooperation_agreement: Set(true),
        ..Default::default()
    }
    .insert(&db)
    .await?;
    let ing = fomento_api::startup::jobs_runtime(
        db.clone(),
        store,
        chrono::Duration::minutes(30),
        jobs::report::ingest::DEFAULT_ATTEMPTS,
        service::store::DEFAULT_MAX_UPLOAD_BYTES,
    )?;
    let bytes = std::fs::read(file)?;
    let started = Instant::now();
    let (r, _) = fomento_api::http::reports::receive(
        &db,
        &service::Caller::System,
        &ing.ctx.store,
        &bank,
        "2019-05",
        "bench.xlsx",
        bytes,
    )
    .await?;
    let report = jobs::report::ingest::run_once(&ing.ctx, Utc::now()).await?;
    let secs = started.elapsed().as_secs_f64();
    let done = entity::bank_report::Entity::find_by_id(r.id)
        .one(&db)
        .await?
        .context("report")?;
    use sea_orm::EntityTrait;
    if done.status != "INGESTED" {
        bail!(
            "the report ended {} ({}): {:?}",
            done.status,
            report.message,
            done.file_error
        );
    }
    Ok(secs)
}

fn child(args: &[String]) -> anyhow::Result<(f64, u64)> {
    let (secs, kib) = phases::child(args)?;
    Ok((secs.parse().context("seconds")?, kib))
}

async fn fresh_postgres(admin: &str, name: &str) -> anyhow::Result<String> {
    let db = Database::connect(admin).await?;
    db.execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
        .await?;
    db.execute_unprepared(&format!("CREATE DATABASE \"{name}\"")).await?;
    // Each phase starts from a checkpoint, so it does not pay for writing out what an earlier phase left dirty.
    db.execute_unprepared("CHECKPOINT").await?;
    let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(admin);
    Ok(format!("{base}/{name}"))
}

async fn drop_postgres(admin: &str, name: &str) {
    if let Ok(db) = Database::connect(admin).await {
        let _ = db
            .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
            .await;
    }
}

/// One run of the three phases for `n` rows on one backend: (seconds, peak KiB) of parse, insert and ingest.
async fn once(
    n: usize,
    label: &str,
    url: &str,
    admin: Option<&str>,
    sqlite_path: &std::path::Path,
    file: &str,
    dir: &std::path::Path,
) -> anyhow::Result<[(f64, u64); 3]> {
    let parse = child(&["parse".into(), file.into()])?;
    let fresh = |phase: &'static str| async move {
        match admin {
            Some(admin) => fresh_postgres(admin, &format!("fomento_bench_{phase}_{n}")).await,
            None => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", sqlite_path.display()));
                }
                Ok(url.to_string())
            }
        }
    };
    let u = fresh("insert").await?;
    let insert = child(&["insert".into(), u, n.to_string()])?;
    let u = fresh("ingest").await?;
    let store = dir.join(format!("store-{label}-{n}"));
    let _ = std::fs::remove_dir_all(&store);
    let ingest = child(&["ingest".into(), u, file.into(), store.display().to_string()])?;
    if let Some(admin) = admin {
        drop_postgres(admin, &format!("fomento_bench_insert_{n}")).await;
        drop_postgres(admin, &format!("fomento_bench_ingest_{n}")).await;
    }
    Ok([parse, insert, ingest])
}

/// The allocator of the `fomento` binary, so the phases measure what it runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("phase") {
        let secs = match args.get(1).map(String::as_str) {
            Some("parse") => phase_parse(&args[2])?,
            Some("insert") => phase_insert(&args[2], args[3].parse()?).await?,
            Some("ingest") => phase_ingest(&args[2], &args[3], &args[4], args.get(5).map(String::as_str)).await?,
            Some("generate") => {
                let started = Instant::now();
                generate(&PathBuf::from(&args[2]), args[3].parse()?)?;
                started.elapsed().as_secs_f64()
            }
            other => bail!("unknown phase {other:?}"),
        };
        println!("{secs} {}", peak_kib());
        return Ok(());
    }
    let mut sizes = vec![100_000usize];
    let mut repeat = 1usize;
    let mut postgres = None;
    let mut dir = std::env::temp_dir().join("fomento-bench");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--rows" => {
                sizes = it
                    .next()
                    .context("--rows N[,N]")?
                    .split(',')
                    .map(|s| s.trim().replace('_', "").parse())
                    .collect::<Result<_, _>>()?
            }
            "--postgres" => postgres = Some(it.next().context("--postgres URL")?.clone()),
            "--dir" => dir = PathBuf::from(it.next().context("--dir DIR")?),
            "--repeat" => repeat = it.next().context("--repeat N")?.parse::<usize>()?.max(1),
            other => {
                bail!("unknown argument {other}; use --rows 100000,1000000 [--postgres URL] [--dir DIR] [--repeat N]")
            }
        }
    }
    std::fs::create_dir_all(&dir)?;
    if repeat > 1 {
        println!("each phase {repeat} times, a fresh database each time: medians, largest peak");
    }
    println!("backend     rows   parse a (s)  insert b (s)  ingest c (s)  c/(a+b)  rows/s (c)  peak MiB a/b/c");
    for n in sizes {
        let file = dir.join(format!("bank-report-{n}.xlsx"));
        if !file.exists() {
            let t = Instant::now();
            generate(&file, n)?;
            eprintln!(
                "generated {} ({} MiB) in {:.1} s",
                file.display(),
                std::fs::metadata(&file)?.len() / (1 << 20),
                t.elapsed().as_secs_f64()
            );
        }
        let file_s = file.display().to_string();
        let mut backends: Vec<(&str, String, Option<String>)> = Vec::new();
        let sqlite_path = dir.join(format!("bench-{n}.db"));
        backends.push(("SQLite", format!("sqlite://{}?mode=rwc", sqlite_path.display()), None));
        if let Some(admin) = &postgres {
            backends.push(("PostgreSQL", String::new(), Some(admin.clone())));
        }
        for (label, url, admin) in backends {
            let mut runs: Vec<[(f64, u64); 3]> = Vec::with_capacity(repeat);
            for _ in 0..repeat {
                runs.push(once(n, label, &url, admin.as_deref(), &sqlite_path, &file_s, &dir).await?);
            }
            let median = |k: usize| {
                let mut secs: Vec<f64> = runs.iter().map(|r| r[k].0).collect();
                secs.sort_by(f64::total_cmp);
                let peak = runs.iter().map(|r| r[k].1).max().unwrap_or_default();
                (secs[secs.len() / 2], peak)
            };
            let ((a, ma), (b, mb), (c, mc)) = (median(0), median(1), median(2));
            println!(
                "{label:<10} {n:>8} {a:>12.2} {b:>13.2} {c:>13.2} {:>8.2} {:>11.0}  {}/{}/{}",
                c / (a + b),
                n as f64 / c,
                ma / 1024,
                mb / 1024,
                mc / 1024
            );
        }
    }
    Ok(())
}
