//! Faults (issue 15, item 6), on a private PostgreSQL cluster this test starts itself (`initdb` as the `postgres`
//! user, its own port and socket directory), never the shared server the other tests use: PostgreSQL stopped under
//! load, then started again.

use crate::helpers::{Backend, start};
use serde_json::{Value, json};
use std::{
    path::PathBuf,
    process::Command,
    time::{Duration, Instant},
};

/// A PostgreSQL cluster of this test's own, stopped and removed when dropped.
struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
}

impl Cluster {
    /// Whether this machine can start one: PostgreSQL's binaries, and root to run them as `postgres`.
    fn binaries() -> Result<PathBuf, String> {
        let root = std::fs::read_dir("/usr/lib/postgresql").map_err(|e| format!("no /usr/lib/postgresql: {e}"))?;
        let mut bins: Vec<PathBuf> = root
            .filter_map(Result::ok)
            .map(|d| d.path().join("bin"))
            .filter(|b| b.join("initdb").exists())
            .collect();
        bins.sort();
        bins.pop()
            .ok_or_else(|| "no initdb under /usr/lib/postgresql".to_owned())
    }

    fn as_postgres(&self, program: &str, args: &[&str]) -> std::process::Output {
        Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(self.bin.join(program))
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
    }

    fn init() -> Self {
        let bin = Self::binaries().unwrap_or_else(|e| panic!("{e}"));
        let dir = std::env::temp_dir().join(format!("fomento-fault-pg-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).expect("the cluster's directory");
        let chown = Command::new("chown")
            .arg("postgres:postgres")
            .arg(&dir)
            .status()
            .expect("chown");
        assert!(chown.success(), "chown of {}", dir.display());
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let cluster = Self { dir, bin, port };
        let dir = cluster.dir.display().to_string();
        let out = cluster.as_postgres("initdb", &["-D", &dir, "-A", "trust", "-U", "postgres", "--no-sync"]);
        assert!(out.status.success(), "initdb: {}", String::from_utf8_lossy(&out.stderr));
        cluster.start();
        cluster
    }

    fn start(&self) {
        let dir = self.dir.display().to_string();
        let options = format!(
            "-p {} -k {dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60",
            self.port
        );
        let log = format!("{dir}/log");
        let out = self.as_postgres("pg_ctl", &["-D", &dir, "-o", &options, "-l", &log, "-w", "start"]);
        assert!(
            out.status.success(),
            "pg_ctl start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn stop(&self) {
        let dir = self.dir.display().to_string();
        let out = self.as_postgres("pg_ctl", &["-D", &dir, "-m", "fast", "-w", "stop"]);
        assert!(
            out.status.success(),
            "pg_ctl stop: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let dir = self.dir.display().to_string();
        let _ = self.as_postgres("pg_ctl", &["-D", &dir, "-m", "immediate", "-w", "stop"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether the fault tests can run here; when PostgreSQL is asked for and they cannot, that is a failure.
fn cluster_or_skip() -> Option<Cluster> {
    let asked = std::env::var("FOMENTO_TEST_POSTGRES_URL").is_ok();
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    match (Cluster::binaries(), root) {
        (Ok(_), true) => Some(Cluster::init()),
        (why, root) if asked => panic!(
            "FOMENTO_TEST_POSTGRES_URL is set but the fault tests cannot start their own cluster ({}; root: {root})",
            why.err().unwrap_or_default()
        ),
        _ => {
            eprintln!(
                "\n*** PostgreSQL FAULT TESTS NOT RUN: no PostgreSQL binaries or not root; nothing was tested. ***\n"
            );
            None
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_stopped_under_load_fails_fast_and_the_service_recovers_by_itself() {
    let Some(cluster) = cluster_or_skip() else {
        return;
    };
    let cluster = std::sync::Arc::new(cluster);
    let (app, running) = start(cluster.url(), Backend::Postgres, true, |_| {}).await;
    let query = json!({ "query": "{ fcoCartas(first: 5) { totalCount nodes { number } } }" });
    // Load: eight clients asking in a loop, each answer kept with when it was asked and how long it took.
    let stop_load = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut clients = Vec::new();
    for _ in 0..8 {
        let (client, url, query, stop) = (
            app.client.clone(),
            format!("{}/graphql", app.base),
            query.clone(),
            stop_load.clone(),
        );
        clients.push(tokio::spawn(async move {
            let mut seen: Vec<(Instant, Duration, u16, String)> = Vec::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let asked = Instant::now();
                let r = client
                    .post(&url)
                    .json(&query)
                    .timeout(Duration::from_secs(10))
                    .send()
                    .await;
                let (status, code) = match r {
                    Ok(r) => {
                        let status = r.status().as_u16();
                        let body: Value = r.json().await.unwrap_or_default();
                        let code = body["errors"][0]["extensions"]["code"]
                            .as_str()
                            .unwrap_or("OK")
                            .to_owned();
                        (status, code)
                    }
                    Err(e) => (0, e.to_string()),
                };
                seen.push((asked, asked.elapsed(), status, code));
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            seen
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let stopped = Instant::now();
    let c = cluster.clone();
    tokio::task::spawn_blocking(move || c.stop())
        .await
        .expect("pg_ctl stop");
    let stop_took = stopped.elapsed();
    tokio::time::sleep(Duration::from_millis(1500)).await;

    // While it is down: `/ready` and the graph answer within a second, with a clear 503.
    let asked = Instant::now();
    let ready = app
        .get("/ready")
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("/ready answers");
    assert_eq!(ready.status().as_u16(), 503);
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "/ready took {:?}",
        asked.elapsed()
    );
    let asked = Instant::now();
    let r = app
        .post("/graphql")
        .header("accept-language", "en")
        .json(&query)
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("the graph answers");
    let took = asked.elapsed();
    assert_eq!(r.status().as_u16(), 503);
    assert_eq!(r.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"));
    let body: Value = r.json().await.expect("json");
    assert_eq!(
        body["errors"][0]["extensions"]["code"], "DATABASE_UNAVAILABLE",
        "{body}"
    );
    assert!(took < Duration::from_secs(1), "the graph took {took:?}");

    // Started again: the service recovers by itself.
    let c = cluster.clone();
    tokio::task::spawn_blocking(move || c.start())
        .await
        .expect("pg_ctl start");
    let restarted = Instant::now();
    let mut ready_again = None;
    while restarted.elapsed() < Duration::from_secs(15) {
        let r = app.get("/ready").send().await.expect("/ready answers");
        if r.status().as_u16() == 200 {
            ready_again = Some(restarted.elapsed());
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ready_again = ready_again.expect("ready again within 15 s of PostgreSQL's start");
    let d = app.data("{ fcoCartas(first: 5) { totalCount } }", json!({})).await;
    assert!(d["fcoCartas"]["totalCount"].as_i64().is_some_and(|n| n > 0), "{d}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop_load.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut seen = Vec::new();
    for c in clients {
        seen.extend(c.await.expect("a client"));
    }
    // Every request asked from 1.5 s after the stop began until the restart was answered within a second.
    let down_from = stopped + stop_took + Duration::from_millis(1500);
    let slow: Vec<_> = seen
        .iter()
        .filter(|(asked, ..)| *asked >= down_from && *asked < restarted)
        .filter(|(_, took, ..)| *took >= Duration::from_secs(1))
        .collect();
    let during = seen
        .iter()
        .filter(|(asked, ..)| *asked >= down_from && *asked < restarted)
        .count();
    assert!(
        during > 0,
        "the load ran while PostgreSQL was down: {:?}",
        seen.iter()
            .map(|(a, t, s, c)| (a.saturating_duration_since(stopped), *t, *s, c))
            .collect::<Vec<_>>()
    );
    assert!(slow.is_empty(), "requests slower than a second while down: {slow:?}");
    let refused = seen
        .iter()
        .filter(|(asked, _, status, _)| *asked >= down_from && *asked < restarted && *status != 503)
        .count();
    assert_eq!(refused, 0, "every request while down is a 503");
    let after = seen
        .iter()
        .filter(|(asked, ..)| *asked >= restarted + ready_again + Duration::from_millis(100))
        .collect::<Vec<_>>();
    assert!(
        after.iter().all(|(_, _, status, _)| *status == 200),
        "answers after recovery: {after:?}"
    );
    eprintln!(
        "fault test: pg_ctl stop took {stop_took:?}; {during} requests while down, none slower than 1 s; ready again {ready_again:?} after the restart"
    );
    running.stop().await;
}
