//! The door's limits (issue 15, item 5): requests per second per key, the request time limit, CORS, introspection
//! switched off, and automatic persisted queries.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::helpers::{Backend, TestApp, client_with, on_each_backend, on_each_backend_with};
use sea_orm::{ConnectionTrait, TransactionTrait};
use serde_json::{Value, json};
use sha2::Digest;

/// POSTs `body` to `/graphql` with `key`; the status, the `Retry-After` header and the body.
async fn post(app: &TestApp, key: &str, body: Value) -> (u16, Option<String>, Value) {
    let resp = client_with(key)
        .post(format!("{}/graphql", app.base))
        .header("accept", "application/graphql-response+json")
        .header("accept-language", "en")
        .json(&body)
        .send()
        .await
        .expect("the server answers");
    let status = resp.status().as_u16();
    let retry = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    (status, retry, resp.json().await.expect("JSON"))
}

/// Another session's transaction holding the table `addNonBusinessDay` writes (a lock on PostgreSQL, the write lock
/// on SQLite), until it is rolled back.
async fn hold_calendar(app: &TestApp) -> sea_orm::DatabaseTransaction {
    let txn = app.db.begin().await.expect("a transaction");
    match app.backend {
        Backend::Postgres => txn
            .execute_unprepared("LOCK TABLE calendar_day IN ACCESS EXCLUSIVE MODE")
            .await
            .expect("lock"),
        Backend::Sqlite => txn
            .execute_unprepared("DELETE FROM calendar_day WHERE day = '1900-01-01'")
            .await
            .expect("the write lock"),
    };
    txn
}

/// A mutation that waits on the calendar while [`hold_calendar`]'s transaction holds it.
const HELD: &str = "mutation { addNonBusinessDay(day: \"2026-12-24\", reason: \"véspera\") { day } }";

/// Sends a GraphQL request with the admin key from a task of its own; its answer's body.
fn spawn_query(app: &TestApp, query: &'static str) -> tokio::task::JoinHandle<Value> {
    let (base, key) = (app.base.clone(), app.key.clone());
    tokio::spawn(async move {
        reqwest::Client::new()
            .post(format!("{base}/graphql"))
            .bearer_auth(key)
            .json(&json!({ "query": query }))
            .send()
            .await
            .expect("answer")
            .json::<Value>()
            .await
            .expect("JSON")
    })
}

fn code(body: &Value) -> &str {
    body["errors"][0]["extensions"]["code"].as_str().unwrap_or("OK")
}

#[tokio::test]
async fn a_key_past_its_rate_is_refused_for_a_moment_and_other_keys_are_not() {
    on_each_backend(false, |app| async move {
        // Two requests per second, bursts of four.
        let slow = service::keys::create(
            &app.db,
            &service::Caller::System,
            "analyst",
            None,
            "slow integration",
            Some(2),
            chrono::Utc::now(),
        )
        .await
        .expect("a key")
        .secret;
        let query = json!({ "query": "{ banks(first: 1) { totalCount } }" });
        let mut refused = None;
        for i in 0..12 {
            let (status, retry, body) = post(&app, &slow, query.clone()).await;
            if status == 429 {
                refused = Some((i, retry, body));
                break;
            }
            assert_eq!((status, code(&body)), (200, "OK"), "request {i}: {body}");
        }
        let (i, retry, body) = refused.expect("the 12th request at most is past a burst of 4");
        assert!(i >= 4, "a burst of four passes first; refused at {i}");
        assert_eq!(code(&body), "RATE_LIMITED", "{body}");
        assert_eq!(retry.as_deref(), Some("1"));
        assert!(
            body["errors"][0]["message"]
                .as_str()
                .unwrap_or("")
                .contains("2 requests per second"),
            "the message names the rate: {body}"
        );
        // Another key is not held back by this one.
        let (status, _, body) = post(&app, &app.key, query.clone()).await;
        assert_eq!((status, code(&body)), (200, "OK"), "{body}");
        // After the wait the header names, the key works again.
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
        let (status, _, body) = post(&app, &slow, query).await;
        assert_eq!((status, code(&body)), (200, "OK"), "{body}");
        // The same limit holds on the REST doors, in their shape.
        let mut statuses = Vec::new();
        for _ in 0..8 {
            let r = client_with(&slow)
                .get(format!("{}/exports/flags.csv", app.base))
                .send()
                .await
                .expect("answer");
            statuses.push(r.status().as_u16());
            if r.status().as_u16() == 429 {
                let body: Value = r.json().await.expect("JSON");
                assert_eq!(body["error"]["code"], "RATE_LIMITED", "{body}");
                break;
            }
        }
        assert!(statuses.contains(&429), "{statuses:?}");
    })
    .await;
}

#[tokio::test]
async fn a_request_past_the_time_limit_is_stopped_with_a_clear_503() {
    on_each_backend_with(
        false,
        |s| s.request_timeout = std::time::Duration::from_secs(1),
        |app| async move {
            // Another session holds the table the mutation writes, for longer than the limit.
            let txn = hold_calendar(&app).await;
            let started = std::time::Instant::now();
            let (status, retry, body) = post(
                &app,
                &app.key,
                json!({ "query": "mutation { addNonBusinessDay(day: \"2026-12-24\", reason: \"véspera\") { day } }" }),
            )
            .await;
            let took = started.elapsed();
            txn.rollback().await.expect("rollback");
            assert_eq!((status, code(&body)), (503, "REQUEST_TIMEOUT"), "{body}");
            assert!(retry.is_some(), "a Retry-After");
            assert!(
                body["errors"][0]["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("limit of 1 s"),
                "{body}"
            );
            assert!(
                took < std::time::Duration::from_secs(4),
                "stopped near the limit, took {took:?}"
            );
            // Nothing of the stopped request was kept; sent again, it is done.
            let (status, _, body) = post(
                &app,
                &app.key,
                json!({ "query": "mutation { addNonBusinessDay(day: \"2026-12-24\", reason: \"véspera\") { day } }" }),
            )
            .await;
            assert_eq!((status, code(&body)), (200, "OK"), "{body}");
            assert_eq!(body["data"]["addNonBusinessDay"]["day"], "2026-12-24");
        },
    )
    .await;
}

/// Mutations that read and then write, sent at once while another session writes: each waits its turn and is done.
/// (On SQLite a transaction that read first and then asked to write while another connection wrote failed at once
/// with "database is locked", answered `INTERNAL`; writes now begin `IMMEDIATE`.)
#[tokio::test]
async fn mutations_sent_at_once_while_another_session_writes_each_wait_their_turn() {
    on_each_backend_with(
        false,
        |_| {},
        |app| async move {
            let txn = hold_calendar(&app).await;
            let days: Vec<String> = (4..16).map(|d| format!("2027-01-{d:02}")).collect();
            let sent: Vec<_> = days
                .iter()
                .map(|day| {
                    let (base, key) = (app.base.clone(), app.key.clone());
                    let body = json!({ "query": format!("mutation {{ addNonBusinessDay(day: \"{day}\", reason: \"recesso\") {{ day }} }}") });
                    tokio::spawn(async move {
                        let resp = client_with(&key)
                            .post(format!("{base}/graphql"))
                            .json(&body)
                            .send()
                            .await
                            .expect("the server answers");
                        (resp.status().as_u16(), (), resp.json::<Value>().await.expect("JSON"))
                    })
                })
                .collect();
            tokio::time::sleep(std::time::Duration::from_millis(600)).await;
            txn.rollback().await.expect("rollback");
            for (day, answer) in days.iter().zip(sent) {
                let (status, _, body) = answer.await.expect("the request");
                assert_eq!((status, code(&body)), (200, "OK"), "{day}: {body}");
                assert_eq!(body["data"]["addNonBusinessDay"]["day"], day.as_str());
            }
            let kept = app
                .data("{ nonBusinessDays { day } }", json!({}))
                .await["nonBusinessDays"]
                .as_array()
                .expect("days")
                .iter()
                .filter(|d| d["day"].as_str().is_some_and(|d| d.starts_with("2027-01-")))
                .count();
            assert_eq!(kept, days.len(), "every day recorded once");
        },
    )
    .await;
}

#[tokio::test]
async fn cors_answers_the_origins_named_and_no_other() {
    on_each_backend_with(
        false,
        |s| s.cors_origins = vec!["https://painel.example.gov.br".into()],
        |app| async move {
            let preflight = |origin: &'static str| {
                reqwest::Client::new()
                    .request(reqwest::Method::OPTIONS, format!("{}/graphql", app.base))
                    .header("origin", origin)
                    .header("access-control-request-method", "POST")
                    .header("access-control-request-headers", "authorization, content-type")
                    .send()
            };
            let ok = preflight("https://painel.example.gov.br").await.expect("answer");
            assert_eq!(
                ok.headers()
                    .get("access-control-allow-origin")
                    .and_then(|v| v.to_str().ok()),
                Some("https://painel.example.gov.br")
            );
            let allowed = ok
                .headers()
                .get("access-control-allow-headers")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_ascii_lowercase();
            assert!(allowed.contains("authorization"), "{allowed}");
            let other = preflight("https://elsewhere.example.com").await.expect("answer");
            assert!(other.headers().get("access-control-allow-origin").is_none());
            // A real request from the named origin carries the header too.
            let r = client_with(&app.key)
                .post(format!("{}/graphql", app.base))
                .header("origin", "https://painel.example.gov.br")
                .json(&json!({ "query": "{ banks(first: 1) { totalCount } }" }))
                .send()
                .await
                .expect("answer");
            assert_eq!(r.status().as_u16(), 200);
            assert!(r.headers().contains_key("access-control-allow-origin"));
        },
    )
    .await;
}

#[tokio::test]
async fn introspection_can_be_switched_off() {
    let introspect = json!({ "query": "{ __schema { queryType { name } } }" });
    on_each_backend(false, |app| async move {
        let (status, _, body) = post(
            &app,
            &app.key,
            json!({ "query": "{ __schema { queryType { name } } }" }),
        )
        .await;
        assert_eq!(
            (status, body["data"]["__schema"]["queryType"]["name"].as_str()),
            (200, Some("Query")),
            "{body}"
        );
    })
    .await;
    on_each_backend_with(
        false,
        |s| s.introspection = false,
        move |app| {
            let introspect = introspect.clone();
            async move {
                let (_, _, body) = post(&app, &app.key, introspect).await;
                assert!(body["data"].is_null(), "{body}");
                assert_eq!(code(&body), "INTROSPECTION_DISABLED", "{body}");
                assert!(
                    body["errors"][0]["message"]
                        .as_str()
                        .unwrap_or("")
                        .contains("schema.graphql"),
                    "{body}"
                );
                // Hidden in a fragment, it is refused all the same; `__typename` is not introspection.
                let (_, _, body) = post(
                    &app,
                    &app.key,
                    json!({ "query": "query { ...F } fragment F on Query { __type(name: \"Bank\") { name } }" }),
                )
                .await;
                assert_eq!(code(&body), "INTROSPECTION_DISABLED", "{body}");
                let (_, _, body) = post(&app, &app.key, json!({ "query": "{ __typename }" })).await;
                assert_eq!(body["data"]["__typename"], "Query", "{body}");
                let (status, _, body) =
                    post(&app, &app.key, json!({ "query": "{ banks(first: 1) { totalCount } }" })).await;
                assert_eq!((status, code(&body)), (200, "OK"), "other queries answer: {body}");
            }
        },
    )
    .await;
}

#[tokio::test]
async fn persisted_queries_run_by_their_hash_once_registered() {
    on_each_backend(true, |app| async move {
        // A query no other test sends, so this process cannot know it yet.
        let query = format!(
            "query Persisted{} {{ banks(first: 2) {{ totalCount }} }}",
            uuid::Uuid::new_v4().simple()
        );
        let hash = hex::encode(sha2::Sha256::digest(query.as_bytes()));
        let ext = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } });
        // Unknown: the answer Apollo's clients expect, in a 200.
        let (status, _, body) = post(&app, &app.key, json!({ "extensions": ext })).await;
        assert_eq!((status, code(&body)), (200, "PERSISTED_QUERY_NOT_FOUND"), "{body}");
        assert_eq!(body["errors"][0]["message"], "PersistedQueryNotFound");
        // Registered with its query, then run by the hash alone, over POST and GET.
        let (_, _, body) = post(&app, &app.key, json!({ "query": query, "extensions": ext })).await;
        let total = body["data"]["banks"]["totalCount"].clone();
        assert!(total.as_i64().is_some_and(|n| n > 0), "{body}");
        let (_, _, body) = post(&app, &app.key, json!({ "extensions": ext })).await;
        assert_eq!(body["data"]["banks"]["totalCount"], total, "{body}");
        let r = client_with(&app.key)
            .get(format!("{}/graphql", app.base))
            .query(&[("extensions", ext.to_string())])
            .header("accept", "application/json")
            .send()
            .await
            .expect("answer");
        let body: Value = r.json().await.expect("JSON");
        assert_eq!(body["data"]["banks"]["totalCount"], total, "{body}");
        // A hash that is not the query's is refused, not stored.
        let wrong = json!({ "persistedQuery": { "version": 1, "sha256Hash": "0".repeat(64) } });
        let (status, _, body) = post(&app, &app.key, json!({ "query": query, "extensions": wrong })).await;
        assert_eq!((status, code(&body)), (400, "PERSISTED_QUERY_HASH_MISMATCH"), "{body}");
        // A persisted query passes through the same guard: a bank key cannot run an administrator's query by hash.
        let bank = app.key_of("bank", Some("SICREDI")).await;
        let admin_only = "{ webhookDeliveries(first: 1) { totalCount } }";
        let h = hex::encode(sha2::Sha256::digest(admin_only.as_bytes()));
        let e = json!({ "persistedQuery": { "version": 1, "sha256Hash": h } });
        let (_, _, body) = post(&app, &app.key, json!({ "query": admin_only, "extensions": e })).await;
        assert_eq!(code(&body), "OK", "{body}");
        let (_, _, body) = post(&app, &bank, json!({ "extensions": e })).await;
        assert_eq!(code(&body), "FORBIDDEN", "{body}");
    })
    .await;
}

/// Past the admission limit a request is refused at once with `503 OVERLOADED` and `Retry-After`, not queued; the
/// request being served is not disturbed, and once it is done the next is served.
#[tokio::test]
async fn a_request_past_the_admission_limit_is_refused_at_once_with_503() {
    on_each_backend_with(
        false,
        |s| s.max_in_flight = 1,
        |app| async move {
            // The one request admitted waits on a table another session holds.
            let txn = hold_calendar(&app).await;
            let held = spawn_query(&app, HELD);
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            let started = std::time::Instant::now();
            let (status, retry, body) =
                post(&app, &app.key, json!({ "query": "{ banks(first: 1) { totalCount } }" })).await;
            let took = started.elapsed();
            assert_eq!((status, code(&body)), (503, "OVERLOADED"), "{body}");
            assert_eq!(retry.as_deref(), Some("1"), "Retry-After");
            assert!(
                body["errors"][0]["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("limit of 1 requests served at once"),
                "{body}"
            );
            assert!(
                took < std::time::Duration::from_secs(1),
                "refused at once, took {took:?}"
            );
            txn.rollback().await.expect("rollback");
            let first = held.await.expect("the held request");
            assert_eq!(first["data"]["addNonBusinessDay"]["day"], "2026-12-24", "{first}");
            let (status, _, body) =
                post(&app, &app.key, json!({ "query": "{ banks(first: 1) { totalCount } }" })).await;
            assert_eq!((status, code(&body)), (200, "OK"), "{body}");
        },
    )
    .await;
}

/// Past `--graph-running` a GraphQL request waits its turn, first come first served, rather than being refused or
/// sharing the processor with every other; the other endpoints do not wait for the graph.
#[tokio::test]
async fn graphql_requests_past_the_running_limit_wait_their_turn() {
    on_each_backend_with(
        false,
        |s| s.graph_running = 1,
        |app| async move {
            // The one query worked on waits on a table another session holds.
            let txn = hold_calendar(&app).await;
            let held = spawn_query(&app, HELD);
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            let waiting = spawn_query(&app, "{ banks(first: 1) { totalCount } }");
            tokio::time::sleep(std::time::Duration::from_millis(700)).await;
            assert!(
                !waiting.is_finished(),
                "the second query waits for the first one's turn"
            );
            let template = app.get("/bank-reports/template.xlsx").send().await.expect("answer");
            assert_eq!(template.status().as_u16(), 200, "another endpoint is served meanwhile");
            txn.rollback().await.expect("rollback");
            let first = held.await.expect("the held request");
            assert_eq!(first["data"]["addNonBusinessDay"]["day"], "2026-12-24", "{first}");
            let second = waiting.await.expect("the waiting request");
            assert_eq!(second["data"]["banks"]["totalCount"], 0, "served in its turn: {second}");
        },
    )
    .await;
}

/// `{ banks { nodes { ...F<levels> } } }` where each fragment spreads the one before twice: F30 stands for a billion
/// copies of `F0`. Before fragments were measured once, F28 held a core for 26 s before being refused.
fn fragment_bomb(levels: usize, operation: &str) -> String {
    let mut q = operation.replace("SPREAD", &format!("...F{levels}"));
    q.push_str(" fragment F0 on Bank { id code }");
    for i in 1..=levels {
        q.push_str(&format!(" fragment F{i} on Bank {{ ...F{} ...F{} }}", i - 1, i - 1));
    }
    q
}

/// What an error says about its place in the text: none, or a line and column counted from 1.
fn placed_from_one(error: &Value) -> bool {
    error.get("locations").is_none_or(|l| {
        l.as_array().is_some_and(|l| {
            l.iter()
                .all(|p| p["line"].as_u64() >= Some(1) && p["column"].as_u64() >= Some(1))
        })
    })
}

/// Fragments are costed without being spread: doubling fragments are refused at once as too costly, on a query
/// (which runs without the per-field extensions), a mutation and a subscription alike; a query with fragments within
/// the limits answers as before.
#[tokio::test]
async fn fragment_bombs_are_refused_at_once_as_too_costly_on_every_path() {
    use futures::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    on_each_backend(false, |app| async move {
        let limit = std::time::Duration::from_secs(2);
        for levels in [30, 60] {
            for operation in [
                "{ banks { nodes { SPREAD } } }",
                "mutation { addNonBusinessDay(day: \"2026-12-24\", reason: \"x\") { day bank { SPREAD } } }",
            ] {
                let started = std::time::Instant::now();
                let (status, _, body) = post(&app, &app.key, json!({ "query": fragment_bomb(levels, operation) })).await;
                let took = started.elapsed();
                assert_eq!((status, code(&body)), (400, "QUERY_TOO_COSTLY"), "F{levels} {operation}: {body}");
                assert!(body.get("data").is_none(), "nothing ran: {body}");
                assert!(body["errors"][0].get("locations").is_none(), "about no one place: {body}");
                assert!(took < limit, "F{levels} {operation}: refused after {took:?}");
            }
        }
        // Nothing of the refused mutation was done.
        let days = app.data("{ nonBusinessDays { day } }", json!({})).await;
        let days = days["nonBusinessDays"].as_array().cloned().unwrap_or_default();
        assert!(!days.iter().any(|d| d["day"] == "2026-12-24"), "{days:?}");

        // The same over the subscriptions' socket, which async-graphql parses itself.
        let mut ws = crate::sockets::connect(&app.base, &[]).await;
        tokio::time::timeout(
            limit,
            crate::sockets::init(&mut ws, json!({ "authorization": format!("Bearer {}", app.key) })),
        )
        .await
        .expect("an answer");
        let subscribe = json!({ "id": "1", "type": "subscribe", "payload": { "query":
            fragment_bomb(60, "subscription { flagRaised { ruleCode bank { SPREAD } } }") } });
        let started = std::time::Instant::now();
        ws.send(Message::text(subscribe.to_string())).await.expect("subscribe");
        let answer = tokio::time::timeout(limit, ws.next())
            .await
            .expect("an answer in time")
            .expect("a message")
            .expect("a frame");
        let answer: Value = serde_json::from_str(answer.to_text().expect("text")).expect("JSON");
        // A request refused before it runs is the protocol's `error` message, carrying the errors.
        assert_eq!(answer["type"], "error", "{answer}");
        assert_eq!(answer["payload"][0]["extensions"]["code"], "QUERY_TOO_COSTLY", "{answer}");
        // The socket stays open, and the refused operation is not completed again: the next message is the pong.
        ws.send(Message::text(json!({ "type": "ping" }).to_string())).await.expect("ping");
        let pong = tokio::time::timeout(limit, ws.next()).await.expect("in time").expect("a message").expect("a frame");
        assert!(pong.to_text().is_ok_and(|t| t.contains("pong")), "{pong:?}");
        let unknown = json!({ "id": "2", "type": "subscribe", "payload": { "query": "subscription { nope }" } });
        ws.send(Message::text(unknown.to_string())).await.expect("subscribe");
        let answer = tokio::time::timeout(limit, ws.next()).await.expect("in time").expect("a message").expect("a frame");
        let answer: Value = serde_json::from_str(answer.to_text().expect("text")).expect("JSON");
        assert_eq!((answer["type"].as_str(), answer["id"].as_str()), (Some("error"), Some("2")), "{answer}");
        assert_eq!(answer["payload"][0]["extensions"]["code"], "GRAPHQL_VALIDATION_FAILED", "{answer}");
        assert!(started.elapsed() < limit, "{:?}", started.elapsed());

        // Fragments within the limits answer as the same query written out.
        app.data("mutation { createBank(input: { code: \"SICOOB\", name: \"Sicoob\", programmes: [FCO_RURAL] }) { bank { id } } }", json!({}))
            .await;
        let written = app
            .data("query B($n: Int) { banks(first: $n) { nodes { id code name } } }", json!({ "n": 5 }))
            .await;
        let with_fragments = app
            .data(
                "query B($n: Int) { banks(first: $n) { ...Page } } fragment Page on BankConnection { nodes { ...Ids name } } \
                 fragment Ids on Bank { id ... on Bank { code } }",
                json!({ "n": 5 }),
            )
            .await;
        assert_eq!(with_fragments, written);
        assert!(written["banks"]["nodes"].as_array().is_some_and(|n| !n.is_empty()), "{written}");
    })
    .await;
}

/// A fragment spread within itself is refused as a cycle, naming it and where it closes, before anything spreads it.
#[tokio::test]
async fn a_fragment_spread_within_itself_is_refused_naming_the_cycle() {
    on_each_backend(false, |app| async move {
        let query = "{ banks { nodes { ...A } } }\nfragment A on Bank { id ...B }\nfragment B on Bank { code ...A }";
        let started = std::time::Instant::now();
        let (status, _, body) = post(&app, &app.key, json!({ "query": query })).await;
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        assert_eq!((status, code(&body)), (400, "GRAPHQL_VALIDATION_FAILED"), "{body}");
        let message = body["errors"][0]["message"].as_str().unwrap_or("");
        assert!(message.contains("A → B → A"), "names the cycle: {message}");
        assert_eq!(
            body["errors"][0]["locations"],
            json!([{ "line": 3, "column": 27 }]),
            "{body}"
        );
    })
    .await;
}

/// While four fragment bombs are being sent over and over, the probes keep answering at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probes_answer_while_fragment_bombs_are_sent() {
    on_each_backend(false, |app| async move {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let bombs: Vec<_> = (0..4)
            .map(|_| {
                let (base, key, stop) = (app.base.clone(), app.key.clone(), stop.clone());
                tokio::spawn(async move {
                    let client = client_with(&key);
                    let body = json!({ "query": fragment_bomb(60, "{ banks { nodes { SPREAD } } }") });
                    let mut sent = 0;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        let r = client
                            .post(format!("{base}/graphql"))
                            .json(&body)
                            .send()
                            .await
                            .expect("answer");
                        let body: Value = r.json().await.expect("JSON");
                        assert_eq!(code(&body), "QUERY_TOO_COSTLY", "{body}");
                        sent += 1;
                    }
                    sent
                })
            })
            .collect();
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        let mut slowest = std::time::Duration::ZERO;
        for _ in 0..10 {
            for probe in ["/health", "/ready"] {
                let started = std::time::Instant::now();
                let r = app.get(probe).send().await.expect("answer");
                slowest = slowest.max(started.elapsed());
                assert_eq!(r.status().as_u16(), 200, "{probe}");
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for bomb in bombs {
            assert!(bomb.await.expect("the sender") > 0, "each sender was answered");
        }
        assert!(slowest < std::time::Duration::from_secs(2), "slowest probe {slowest:?}");
    })
    .await;
}

/// A refusal at the door (past the rate, past the admission limit) is made before the request's body is read, so
/// the server cannot keep the connection: it says `Connection: close`, and a keep-alive client sending requests
/// one after another gets an answer to each, never a connection closed under it.
#[tokio::test]
async fn a_refusal_at_the_door_says_the_connection_closes() {
    on_each_backend(false, |app| async move {
        let slow = service::keys::create(
            &app.db,
            &service::Caller::System,
            "analyst",
            None,
            "slow integration",
            Some(2),
            chrono::Utc::now(),
        )
        .await
        .expect("a key")
        .secret;
        let client = client_with(&slow);
        let mut refused = 0;
        for i in 0..40 {
            let r = client
                .post(format!("{}/graphql", app.base))
                .json(
                    &json!({ "query": format!("{{ banks(first: 1) {{ totalCount }} }} # {}", "x".repeat(4_000 + i)) }),
                )
                .send()
                .await
                .unwrap_or_else(|e| panic!("request {i} is answered, not cut: {e}"));
            let close = r
                .headers()
                .get("connection")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            if r.status().as_u16() == 429 {
                refused += 1;
                assert_eq!(close.as_deref(), Some("close"), "request {i}");
            } else {
                assert_eq!(r.status().as_u16(), 200, "request {i}");
            }
            let _ = r.bytes().await;
        }
        assert!(refused > 0, "past a rate of 2 per second");
    })
    .await;
}

/// GraphQL counts lines and columns from 1: a refusal that concerns no place in the text has no `locations`.
#[tokio::test]
async fn refusals_carry_no_location_at_line_zero() {
    on_each_backend(true, |app| async move {
        let bank = app.key_of("bank", Some("SICREDI")).await;
        for (key, query, expected) in [
            (
                &bank,
                "{ banks(first: 1) { totalCount } webhookDeliveries(first: 1) { totalCount } }",
                "FORBIDDEN",
            ),
            (
                &bank,
                "mutation { addNonBusinessDay(day: \"2026-12-24\", reason: \"x\") { day } }",
                "FORBIDDEN",
            ),
            (
                &app.key,
                "{ a: banks(first: 100) { nodes { cartas(first: 100) { nodes { number } } } } }",
                "QUERY_TOO_COSTLY",
            ),
        ] {
            let (_, _, body) = post(&app, key, json!({ "query": query })).await;
            let error = body["errors"]
                .as_array()
                .and_then(|e| e.iter().find(|e| e["extensions"]["code"] == expected))
                .unwrap_or_else(|| panic!("{expected} for {query}: {body}"));
            assert!(placed_from_one(error), "{query}: {body}");
            if expected == "FORBIDDEN" {
                // A refused root field names its place in the text, as any field error does.
                assert_eq!(error["locations"][0]["line"], 1, "{query}: {body}");
            }
        }
    })
    .await;
}

/// graphql-transport-ws's codes: a `connection_init` without a valid key is closed with `4403 Forbidden`, a
/// `subscribe` before the acknowledgement with `4401 Unauthorized`.
#[tokio::test]
async fn an_unauthenticated_websocket_is_closed_with_the_protocols_codes() {
    use futures::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};
    on_each_backend(false, |app| async move {
        let url = format!("{}/graphql/ws", app.base.replace("http://", "ws://"));
        let closed_with = |first: Value| {
            let url = url.clone();
            async move {
                let mut request = url.into_client_request().expect("request");
                request
                    .headers_mut()
                    .insert("Sec-WebSocket-Protocol", "graphql-transport-ws".parse().expect("header"));
                let (mut ws, _) = tokio_tungstenite::connect_async(request).await.expect("websocket");
                ws.send(Message::text(first.to_string())).await.expect("sent");
                loop {
                    match tokio::time::timeout(std::time::Duration::from_secs(10), ws.next()).await {
                        Ok(Some(Ok(Message::Close(frame)))) => return frame.map(|f| u16::from(f.code)),
                        Ok(Some(Ok(_))) => continue,
                        other => panic!("a close frame, not {other:?}"),
                    }
                }
            }
        };
        let no_key = json!({ "type": "connection_init", "payload": {} });
        assert_eq!(closed_with(no_key).await, Some(4403));
        let bad_key = json!({ "type": "connection_init", "payload": { "authorization": "Bearer fmt_not_a_key" } });
        assert_eq!(closed_with(bad_key).await, Some(4403));
        let early = json!({ "id": "1", "type": "subscribe", "payload": { "query": "subscription { flagRaised { ruleCode } }" } });
        assert_eq!(closed_with(early).await, Some(4401));
    })
    .await;
}

/// A name search is bounded: 60,000 characters is a clear `BAD_USER_INPUT` naming the argument and the limit, not
/// a database error.
#[tokio::test]
async fn a_name_search_past_its_length_is_refused_naming_the_limit() {
    on_each_backend(false, |app| async move {
        let q = "query P($s: String!) { parties(search: $s) { name } }";
        let (message, code) = app.error(q, json!({ "s": "a".repeat(60_000) })).await;
        assert_eq!(code, "BAD_USER_INPUT", "{message}");
        assert!(message.starts_with("search"), "names the argument: {message}");
        assert!(message.contains("200"), "names the limit: {message}");
        // At the limit the search runs.
        let (status, body) = app.gql(q, json!({ "s": "a".repeat(200) })).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["parties"], json!([]), "{body}");
    })
    .await;
}
