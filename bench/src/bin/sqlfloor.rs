//! The bare SQL floor of the load benchmark (`bench/load.sh`) on SQLite, where there is no pgbench: `clients` tasks
//! each running one prepared statement in a tight loop for `seconds`, through a pool of `pool` connections (sqlx, as
//! Fomento reaches its database; `rusqlite` would link a second SQLite). Prints statements per second.
//!
//! Usage: `fomento-bench-sqlfloor URL SQL [--clients 50] [--pool 4] [--seconds 10]`.

use anyhow::{Context, bail};
use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(url), Some(sql)) = (args.first().cloned(), args.get(1).cloned()) else {
        bail!("usage: fomento-bench-sqlfloor URL SQL [--clients N] [--pool N] [--seconds S]");
    };
    let get = |name: &str, default: &str| -> anyhow::Result<u64> {
        let v = args
            .iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
            .unwrap_or_else(|| default.to_owned());
        v.parse().with_context(|| format!("{name} {v}"))
    };
    let (clients, pool, seconds) = (get("--clients", "50")?, get("--pool", "4")?, get("--seconds", "10")?);
    // Audited: the operator's own floor statement, run as given.
    let sql = sqlx::SqlSafeStr::into_sql_str(sqlx::AssertSqlSafe(sql));
    let done = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    // The same loop over either backend's pool (sqlx's pools are typed by backend).
    macro_rules! drive {
        ($options:ty) => {{
            let pool = <$options>::new()
                .max_connections(u32::try_from(pool)?)
                .connect(&url)
                .await?;
            let tasks: Vec<_> = (0..clients)
                .map(|_| {
                    let (pool, sql, done) = (pool.clone(), sql.clone(), done.clone());
                    tokio::spawn(async move {
                        while Instant::now() < deadline {
                            let rows = sqlx::query(sql.clone()).fetch_all(&pool).await?;
                            std::hint::black_box(rows.len());
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                        anyhow::Ok(())
                    })
                })
                .collect();
            for t in tasks {
                t.await??;
            }
        }};
    }
    if url.starts_with("sqlite:") {
        drive!(sqlx::sqlite::SqlitePoolOptions);
    } else {
        drive!(sqlx::postgres::PgPoolOptions);
    }
    let n = done.load(Ordering::Relaxed);
    println!("{:.1}", n as f64 / started.elapsed().as_secs_f64());
    Ok(())
}
