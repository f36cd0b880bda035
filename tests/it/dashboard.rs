//! The compliance dashboard (issue 14, items 4 and 6): `complianceDashboard` computed on demand and built by the
//! `build-dashboards` job, the same numbers in the flag list, the graph, the exports and `/dashboard` as a real
//! headless browser renders it.

use crate::helpers::{TestApp, on_each_backend};
use serde_json::{Value, json};

const DASHBOARD: &str = "query D($d: Date, $p: Programme) { complianceDashboard(asOf: $d, programme: $p) {
    asOf builtAt figures { decisionsOverdue evaluationsOverdue evaluationsDueSoon approvalsExpired approvalsExpiring
      contractedCount contractedAmount openFlags openViolations }
    tables { name columns rows } } }";

async fn dashboard(app: &TestApp, programme: Option<&str>) -> Value {
    app.data(DASHBOARD, json!({ "p": programme })).await["complianceDashboard"].clone()
}

/// Open flags of the flag job on one rule and severity, counted through the graph.
async fn open_flags(app: &TestApp, rule: &str, severity: &str) -> usize {
    app.data(
        "query F($r: String!, $s: FlagSeverity!) { complianceFlags(first: 100, filter: { ruleCodes: [$r], severities: [$s], open: true, source: \"job:flag-deadlines\" }) { nodes { number } } }",
        json!({ "r": rule, "s": severity }),
    )
    .await["complianceFlags"]["nodes"]
        .as_array()
        .map_or(0, Vec::len)
}

fn table<'a>(d: &'a Value, name: &str) -> &'a Value {
    d["tables"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == name))
        .unwrap_or_else(|| panic!("no table {name}: {d}"))
}

#[tokio::test]
async fn the_dashboard_agrees_with_the_flags_the_graph_and_the_exports_and_is_built_by_its_job() {
    on_each_backend(true, |app| async move {
        let on_demand = dashboard(&app, None).await;
        assert!(on_demand["builtAt"].is_null(), "not built yet: computed on demand");
        let f = &on_demand["figures"];
        assert_eq!(
            f["decisionsOverdue"].as_u64(),
            Some(open_flags(&app, "SF-DECISION-30D", "VIOLATION").await as u64)
        );
        assert!(
            f["decisionsOverdue"].as_u64() > Some(0),
            "the demo has overdue MDA decisions: {f}"
        );
        assert_eq!(
            f["approvalsExpired"].as_u64(),
            Some(open_flags(&app, "FCO-VALIDITY-120D", "VIOLATION").await as u64)
        );
        assert_eq!(
            f["approvalsExpiring"].as_u64(),
            Some(open_flags(&app, "FCO-VALIDITY-120D", "WARNING").await as u64)
        );
        let evaluations = open_flags(&app, "SF-EXTERNAL-EVAL-6M", "VIOLATION").await
            + open_flags(&app, "SF-EXTENSION-12M", "VIOLATION").await;
        assert_eq!(f["evaluationsOverdue"].as_u64(), Some(evaluations as u64));
        let contracted = app
            .data(
                "{ fcoCartas(first: 1, filter: { stages: [CONTRACTED] }) { totalCount } }",
                json!({}),
            )
            .await["fcoCartas"]["totalCount"]
            .as_u64();
        assert_eq!(f["contractedCount"].as_u64(), contracted);

        // The contracted amount by bank adds up to the key figure, in the graph and in the export.
        let by_bank = table(&on_demand, "fco_contracted_by_bank");
        let sum: rust_decimal::Decimal = by_bank["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                r[2].as_str()
                    .unwrap_or("0")
                    .parse::<rust_decimal::Decimal>()
                    .expect("amount")
            })
            .sum();
        let key: rust_decimal::Decimal = f["contractedAmount"]
            .as_str()
            .expect("amount")
            .parse()
            .expect("decimal");
        assert_eq!(sum, key);
        let csv = app
            .get("/exports/dashboard-fco_contracted_by_bank.csv")
            .send()
            .await
            .expect("GET");
        assert_eq!(csv.status().as_u16(), 200);
        let text = csv.text().await.expect("text");
        let exported: i64 = text
            .lines()
            .skip(1)
            .map(|l| {
                l.rsplit(',')
                    .next()
                    .unwrap_or("0")
                    .replace('.', "")
                    .parse::<i64>()
                    .expect("centavos")
            })
            .sum();
        assert_eq!(rust_decimal::Decimal::new(exported, 2), key, "{text}");
        let xlsx = app
            .get("/exports/dashboard-fco_contracted_by_bank.xlsx")
            .send()
            .await
            .expect("GET");
        assert_eq!(xlsx.status().as_u16(), 200);

        // One programme's tables only (the deadline and flag tables always).
        let sf = dashboard(&app, Some("SOCIAL_FUEL")).await;
        let names: Vec<&str> = sf["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert!(
            names.iter().all(|n| !n.starts_with("fco_")) && names.contains(&"sf_family_share_by_region"),
            "{names:?}"
        );

        // The job builds it: the same figures, now with when it was built; a rerun replaces it.
        let spec = jobs::registry::find("build-dashboards").expect("registered");
        let said = fomento_api::runtime::run_job(&app.ingestion, spec, "test:build")
            .await
            .expect("the job runs")
            .expect("the slot")
            .message;
        assert!(said.contains("dashboard as of"), "{said}");
        let built = dashboard(&app, None).await;
        assert!(built["builtAt"].is_string(), "{built}");
        assert_eq!(built["figures"], on_demand["figures"]);
        fomento_api::runtime::run_job(&app.ingestion, spec, "test:build-again")
            .await
            .expect("rerun");
        let snapshots = {
            use sea_orm::{EntityTrait, PaginatorTrait};
            entity::dashboard_snapshot::Entity::find()
                .count(&app.db)
                .await
                .expect("count")
        };
        assert_eq!(snapshots, 1, "one build per day");

        // Another day is computed on demand and says so.
        let earlier = app.data(DASHBOARD, json!({ "d": "2025-06-30" })).await["complianceDashboard"].clone();
        assert!(earlier["builtAt"].is_null());
        assert!(earlier["figures"]["contractedCount"].as_u64() <= f["contractedCount"].as_u64());
    })
    .await;
}

/// The analysts' page in a real browser: Debian's chromium, headless, renders `/dashboard`; the figures it shows are
/// `complianceDashboard`'s, the charts are there, and a screenshot is kept (`target/tmp/dashboard.png`).
#[tokio::test]
async fn the_dashboard_page_renders_in_a_headless_browser_with_the_graphs_figures() {
    let Some(browser) = ["chromium", "chromium-browser", "google-chrome"].into_iter().find(|b| {
        std::process::Command::new(b)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }) else {
        let required = std::env::var("FOMENTO_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
        eprintln!("\n*** BROWSER NOT TESTED: chromium is not installed (`.ci/run` installs it). ***\n");
        assert!(!required, "FOMENTO_REQUIRE_BROWSER=1 and no chromium");
        return;
    };
    on_each_backend(true, |app| async move {
        let d = dashboard(&app, None).await;
        let url = format!("{}/dashboard", app.base);
        let run = |args: Vec<String>| {
            let browser = browser.to_owned();
            tokio::task::spawn_blocking(move || {
                std::process::Command::new(browser)
                    .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
                    .args(args)
                    .output()
                    .expect("the browser runs")
            })
        };
        let dom = run(vec!["--dump-dom".into(), url.clone()]).await.expect("join");
        assert!(dom.status.success(), "{}", String::from_utf8_lossy(&dom.stderr));
        let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
        let shown = |id: &str| -> String {
            let start = dom
                .find(&format!("id=\"{id}\">"))
                .unwrap_or_else(|| panic!("no #{id} in the page"))
                + id.len()
                + 6;
            dom[start..].split('<').next().unwrap_or("").to_owned()
        };
        let f = &d["figures"];
        for (id, field) in [
            ("decisions-overdue", "decisionsOverdue"),
            ("evaluations-overdue", "evaluationsOverdue"),
            ("approvals-expiring", "approvalsExpiring"),
            ("approvals-expired", "approvalsExpired"),
            ("open-flags", "openFlags"),
        ] {
            assert_eq!(
                shown(id),
                f[field].to_string(),
                "#{id} against complianceDashboard.{field}"
            );
        }
        assert_eq!(shown("as-of"), d["asOf"].as_str().unwrap_or(""));
        for chart in [
            "chart-deadlines",
            "chart-contracted-by-bank",
            "chart-family-share",
            "chart-open-flags",
        ] {
            assert!(dom.contains(&format!("<svg id=\"{chart}\"")), "chart {chart} drawn");
        }
        assert!(dom.matches("class=\"bar\"").count() >= 4, "bars drawn");
        assert!(
            dom.contains("href=\"/exports/cartas.xlsx\"")
                && dom.contains("href=\"/exports/dashboard-fco_contracted_by_bank.csv\"")
        );
        assert!(dom.contains("/graphql?query="), "flags link to GraphiQL");
        let shot = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dashboard-{:?}.png", app.backend));
        let out = run(vec![
            "--window-size=1280,1600".into(),
            format!("--screenshot={}", shot.display()),
            url,
        ])
        .await
        .expect("join");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
        assert!(size > 10_000, "a screenshot of the page at {}", shot.display());
        eprintln!("dashboard screenshot: {}", shot.display());
    })
    .await;
}
