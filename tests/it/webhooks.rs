//! Webhooks (issue 14, item 3): flags raised and resolved and a bank's report ending `REJECTED` are delivered to the
//! receivers that hear of them, signed with HMAC-SHA256; a receiver that was down gets every delivery once it is
//! back; one that never comes back ends `FAILED` after ten attempts.

use crate::{
    facts::{all_documents, new_project},
    helpers::{TestApp, on_each_backend},
    reports::{C, cpf, good_row, upload, workbook},
};
use axum::{Router, body::Bytes, extract::State, http::HeaderMap, routing::post};
use chrono::{Duration, NaiveDate, Utc};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

const SECRET: &str = "segredo-do-receptor-2026";

/// What a receiver got: its headers of interest and the body.
#[derive(Debug, Clone)]
struct Got {
    signature: String,
    event: String,
    delivery: String,
    body: Vec<u8>,
}

type Log = Arc<Mutex<Vec<Got>>>;

async fn receive(State(log): State<Log>, headers: HeaderMap, body: Bytes) -> &'static str {
    let h = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    log.lock().expect("log").push(Got {
        signature: h("x-fomento-signature"),
        event: h("x-fomento-event"),
        delivery: h("x-fomento-delivery"),
        body: body.to_vec(),
    });
    "ok"
}

/// A port nothing listens on (yet).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a port")
}

/// Starts the receiver on `port`, logging what it gets.
async fn start_receiver(port: u16, log: Log) -> tokio::task::JoinHandle<()> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("the receiver binds");
    let app = Router::new().route("/hook", post(receive)).with_state(log);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    })
}

async fn deliver(app: &TestApp, now: chrono::DateTime<Utc>) -> String {
    jobs::webhooks::run_once(&app.db, "test-worker", now)
        .await
        .expect("the job runs")
        .message
        .render(service::messages::Lang::En)
}

async fn deliveries(app: &TestApp, webhook: i64) -> Vec<Value> {
    let q = "query D($w: Int) { webhookDeliveries(first: 100, filter: { webhookNumber: $w }) { nodes {
        number event status attempts lastStatus lastError nextAttemptAt payload } } }";
    app.data(q, json!({ "w": webhook })).await["webhookDeliveries"]["nodes"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn add(url: String, programme: Option<&str>, events: &[&str]) -> service::webhooks::NewWebhook {
    service::webhooks::NewWebhook {
        url,
        secret: SECRET.into(),
        programme: programme.map(String::from),
        bank_code: None,
        events: events.iter().map(|e| (*e).to_owned()).collect(),
        lang: None,
    }
}

#[tokio::test]
async fn a_receiver_that_was_down_gets_every_delivery_once_signed_and_a_dead_one_fails_after_ten_attempts() {
    on_each_backend(false, |app| async move {
        let system = service::Caller::System;
        let port = free_port();
        let hook = service::webhooks::add(&app.db, &system, Utc::now(), add(format!("http://127.0.0.1:{port}/hook"), None, &["flag.raised", "flag.resolved", "report.rejected"]))
            .await
            .expect("a webhook");
        let fco_only = service::webhooks::add(&app.db, &system, Utc::now(), add(format!("http://127.0.0.1:{}/hook", free_port()), Some("FCO_RURAL"), &[]))
            .await
            .expect("an FCO webhook");
        let bad = service::webhooks::add(&app.db, &system, Utc::now(), add("ftp://x".into(), None, &["flag.sent"])).await;
        assert!(bad.is_err(), "a URL that is not http(s) is refused");
        let bad = service::webhooks::add(&app.db, &system, Utc::now(), add(format!("http://127.0.0.1:{port}/hook"), None, &["flag.sent"]))
            .await
            .expect_err("an unknown event");
        assert!(bad.render(service::messages::Lang::En).contains("flag.raised"), "{bad:?}");

        // A filed project whose decision is overdue on 7 April 2026: the job raises flags.
        let p = new_project(&app, Some("2015-03-03")).await;
        all_documents(&app, &p).await;
        app.data("mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2015-03-05\") { stage } }", json!({ "id": p }))
            .await;
        let day = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("day");
        let synced = service::deadline_flags::run(&app.db, day("2015-04-07"), Utc::now()).await.expect("flags");
        assert!(!synced.raised.is_empty());
        let queued = deliveries(&app, hook.id).await;
        assert_eq!(queued.len(), synced.raised.len(), "one delivery per flag raised: {queued:?}");
        assert!(queued.iter().all(|d| d["status"] == "PENDING" && d["event"] == "flag.raised"));
        // The FCO-only receiver hears of FCO flags only.
        for d in deliveries(&app, fco_only.id).await {
            let body: Value = serde_json::from_str(d["payload"].as_str().unwrap_or("{}")).expect("json");
            assert_eq!(body["flag"]["programme"], "FCO_RURAL", "{body}");
        }

        // The receiver is down: every delivery waits for another attempt, none is lost.
        let now = Utc::now();
        let said = deliver(&app, now).await;
        assert!(said.contains("0 webhook deliveries delivered"), "{said}");
        let waiting = deliveries(&app, hook.id).await;
        assert!(waiting.iter().all(|d| d["status"] == "RETRYING" && d["attempts"] == 1 && !d["nextAttemptAt"].is_null()), "{waiting:?}");
        assert!(waiting[0]["lastError"].as_str().is_some_and(|e| e.contains("could not be reached")), "{:?}", waiting[0]);
        // Not before the backoff.
        let early = deliver(&app, now + Duration::minutes(1)).await;
        assert!(early.contains("0 webhook deliveries delivered, 0 to be tried again"), "{early}");

        // MDA decides: the decision flag resolves, a second event for the same flag.
        app.data(
            "mutation M($id: ID!) { decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: \"2015-04-09\", letter: \"Ofício 1/2015\", overrideReason: \"sem propostas registradas neste teste\") { id } }",
            json!({ "id": p }),
        )
        .await;
        let resolved = service::deadline_flags::run(&app.db, day("2015-04-09"), Utc::now()).await.expect("flags");
        assert!(!resolved.resolved.is_empty());

        // The receiver comes back: after the backoff, every delivery arrives once, signed.
        let log: Log = Arc::default();
        let server = start_receiver(port, log.clone()).await;
        let back = deliver(&app, now + Duration::minutes(4)).await;
        let expected = synced.raised.len() + resolved.resolved.len();
        assert!(back.contains(&format!("{expected} webhook deliveries delivered")), "{back}");
        let got = log.lock().expect("log").clone();
        assert_eq!(got.len(), expected, "{got:?}");
        for g in &got {
            assert_eq!(g.signature, service::webhooks::signature(SECRET, &g.body), "signed with the receiver's secret");
            let body: Value = serde_json::from_slice(&g.body).expect("json body");
            assert_eq!(body["event"], g.event);
        }
        let mut numbers: Vec<&str> = got.iter().map(|g| g.delivery.as_str()).collect();
        numbers.sort_unstable();
        numbers.dedup();
        assert_eq!(numbers.len(), expected, "each delivery once");
        assert!(got.iter().any(|g| g.event == "flag.resolved"));
        assert!(deliveries(&app, hook.id).await.iter().all(|d| d["status"] == "DELIVERED" && d["lastStatus"] == 200));
        // Later runs send nothing again.
        deliver(&app, now + Duration::days(2)).await;
        assert_eq!(log.lock().expect("log").len(), expected);

        // A rejected report is delivered too.
        let mut row = good_row("BAD-1", cpf(21), 1000.0);
        row[8] = C::T("não é valor");
        let (status, _) = upload(&app, "BB", "2026-03", "marco.xlsx", workbook(&[row])).await;
        assert_eq!(status, 201);
        jobs::report::ingest::run_once(&app.runtime.ctx, Utc::now()).await.expect("ingest");
        deliver(&app, now + Duration::days(2)).await;
        let last = log.lock().expect("log").last().cloned().expect("a delivery");
        assert_eq!(last.event, "report.rejected");
        let body: Value = serde_json::from_slice(&last.body).expect("json");
        assert_eq!((&body["report"]["status"], &body["report"]["bank"]), (&json!("REJECTED"), &json!("BB")), "{body}");
        server.abort();

        // The FCO-only receiver never comes up: ten attempts, then FAILED.
        let mut t = now;
        for _ in 0..12 {
            t += Duration::days(2);
            deliver(&app, t).await;
        }
        let dead = deliveries(&app, fco_only.id).await;
        assert!(!dead.is_empty());
        assert!(dead.iter().all(|d| d["status"] == "FAILED" && d["attempts"] == 10), "{dead:?}");
    })
    .await;
}

/// A receiver chooses the language of the flag messages it is sent (`lang`): Portuguese by default, English when it
/// asks; a language that is neither is refused. The flag is the same; only its message is written in each language.
#[tokio::test]
async fn a_receiver_gets_flag_messages_in_portuguese_by_default_and_in_english_when_it_asks() {
    on_each_backend(false, |app| async move {
        let system = service::Caller::System;
        let url = || format!("http://127.0.0.1:{}/hook", free_port());
        let portuguese = service::webhooks::add(&app.db, &system, Utc::now(), add(url(), None, &["flag.raised"]))
            .await
            .expect("a webhook");
        let english = service::webhooks::add(
            &app.db,
            &system,
            Utc::now(),
            service::webhooks::NewWebhook {
                lang: Some("en".into()),
                ..add(url(), None, &["flag.raised"])
            },
        )
        .await
        .expect("an English webhook");
        let bad = service::webhooks::add(
            &app.db,
            &system,
            Utc::now(),
            service::webhooks::NewWebhook {
                lang: Some("fr".into()),
                ..add(url(), None, &[])
            },
        )
        .await
        .expect_err("French is not offered");
        assert!(
            bad.render(service::messages::Lang::PtBr).contains("não é um idioma"),
            "{bad:?}"
        );

        let p = new_project(&app, Some("2015-03-03")).await;
        all_documents(&app, &p).await;
        app.data(
            "mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2015-03-05\") { stage } }",
            json!({ "id": p }),
        )
        .await;
        let day = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("day");
        service::deadline_flags::run(&app.db, day("2015-04-07"), Utc::now())
            .await
            .expect("flags");
        let message = |d: &Value| -> (String, String) {
            let body: Value = serde_json::from_str(d["payload"].as_str().unwrap_or("{}")).expect("json");
            (
                body["flag"]["ruleCode"].as_str().unwrap_or_default().to_owned(),
                body["flag"]["message"].as_str().unwrap_or_default().to_owned(),
            )
        };
        let pt: Vec<(String, String)> = deliveries(&app, portuguese.id).await.iter().map(message).collect();
        let en: Vec<(String, String)> = deliveries(&app, english.id).await.iter().map(message).collect();
        let decision = |l: &[(String, String)]| {
            l.iter()
                .find(|(r, _)| r == "SF-DECISION-30D")
                .map(|(_, m)| m.clone())
                .unwrap_or_default()
        };
        let (pt, en) = (decision(&pt), decision(&en));
        assert!(pt.contains("Não feito; vencido há 1 dia em 07/04/2015"), "{pt}");
        assert!(en.contains("Not done; overdue by 1 day on 2015-04-07"), "{en}");
    })
    .await;
}
