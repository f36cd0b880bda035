//! Operable in production (issue 47): `/metrics` for an `admin` or `metrics` key (or on a listener of its own), with
//! counters and histograms that move with the work done, labelled by route template, operation and outcome; a
//! caller's W3C `traceparent` honoured, its trace id in the log lines, and a job run's trace sent on to webhooks.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::{
    helpers::{TestApp, client_with, on_each_backend, on_each_backend_with},
    reports::{cpf, good_row, seed_bb, upload, workbook},
};
use prometheus_parse::{Sample, Scrape, Value};
use serde_json::json;
use std::{
    io::Write,
    sync::{Arc, Mutex, OnceLock},
};

/// Scrapes `/metrics` with `client` and parses the exposition with a Prometheus text-format parser.
async fn scrape_with(client: &reqwest::Client, url: &str) -> Scrape {
    let resp = client.get(url).send().await.expect("the server answers");
    assert_eq!(resp.status(), 200);
    let ct = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    assert!(ct.starts_with("text/plain; version=0.0.4"), "{ct}");
    let text = resp.text().await.expect("a body");
    Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).expect("the Prometheus text format")
}

async fn scrape(app: &TestApp) -> Scrape {
    scrape_with(&app.client, &format!("{}/metrics", app.base)).await
}

/// The samples of `metric` whose labels include every pair of `labels`.
fn samples<'a>(s: &'a Scrape, metric: &str, labels: &[(&str, &str)]) -> Vec<&'a Sample> {
    s.samples
        .iter()
        .filter(|x| x.metric == metric && labels.iter().all(|(k, v)| x.labels.get(k) == Some(*v)))
        .collect()
}

/// The sum of the counter or gauge values of `metric` with `labels`.
fn total(s: &Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    samples(s, metric, labels)
        .iter()
        .map(|x| match x.value {
            Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => v,
            _ => 0.0,
        })
        .sum()
}

/// The number of observations of the histogram `metric` with `labels` (its `+Inf` bucket).
fn observations(s: &Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    samples(s, metric, labels)
        .iter()
        .map(|x| match &x.value {
            Value::Histogram(buckets) => {
                // Buckets are cumulative: each holds at least the one below it.
                assert!(buckets.windows(2).all(|w| w[0].count <= w[1].count), "{buckets:?}");
                buckets
                    .iter()
                    .find(|b| b.less_than.is_infinite())
                    .map_or(0.0, |b| b.count)
            }
            _ => 0.0,
        })
        .sum()
}

#[tokio::test]
async fn metrics_are_read_with_an_admin_or_metrics_key_only_and_that_key_reads_nothing_else() {
    on_each_backend(false, |app| async move {
        let url = format!("{}/metrics", app.base);
        let anonymous = reqwest::Client::new().get(&url).send().await.expect("answers");
        assert_eq!(anonymous.status(), 401);
        let analyst = client_with(&app.key_of("analyst", None).await);
        let refused = analyst.get(&url).send().await.expect("answers");
        assert_eq!(refused.status(), 403);
        let body: serde_json::Value = refused.json().await.expect("json");
        assert_eq!(body["error"]["code"], "FORBIDDEN", "{body}");

        let scraper = client_with(&app.key_of("metrics", None).await);
        let s = scrape_with(&scraper, &url).await;
        assert!(!s.samples.is_empty());
        // The administrator reads them too.
        scrape(&app).await;
        // The scraper's key reads nothing of the graph.
        let resp = scraper
            .post(format!("{}/graphql", app.base))
            .json(&json!({ "query": "{ banks { nodes { code } } }" }))
            .send()
            .await
            .expect("answers");
        let body: serde_json::Value = resp.json().await.expect("json");
        assert_eq!(body["errors"][0]["extensions"]["code"], "FORBIDDEN", "{body}");
    })
    .await;
}

#[tokio::test]
async fn a_listener_of_its_own_serves_the_metrics_without_a_key() {
    on_each_backend_with(
        false,
        |s| s.metrics_listen = Some("127.0.0.1:0".parse().expect("address")),
        |app| async move {
            let port = app.metrics_port.expect("the metrics listener is bound");
            let s = scrape_with(&reqwest::Client::new(), &format!("http://127.0.0.1:{port}/metrics")).await;
            assert!(total(&s, "db_client_connections_max", &[]) >= 1.0);
            // Nothing else is served there.
            let other = reqwest::Client::new()
                .post(format!("http://127.0.0.1:{port}/graphql"))
                .send()
                .await
                .expect("answers");
            assert_eq!(other.status(), 404);
        },
    )
    .await;
}

#[tokio::test]
async fn after_queries_an_error_and_an_upload_the_counters_and_histograms_have_moved_with_their_labels() {
    on_each_backend(false, |app| async move {
        // Operation names of this run alone: the recorder is the process's, shared by the tests running beside.
        let tag = uuid::Uuid::new_v4().simple().to_string();
        let ok_name = format!("Probe_{tag}");
        let bad_name = format!("Broken_{tag}");
        let before = scrape(&app).await;
        let graph = [("route", "/graphql"), ("method", "POST"), ("status", "200")];
        let served_before = observations(&before, "http_server_request_duration_seconds", &graph);
        let rows_before = total(&before, "fomento_ingestion_rows_total", &[("outcome", "ingested")]);
        let runs_before = total(
            &before,
            "fomento_job_runs_total",
            &[("job", jobs::report::ingest::JOB), ("outcome", "succeeded")],
        );

        for _ in 0..3 {
            app.data(
                &format!("query {ok_name} {{ banks {{ nodes {{ code }} }} }}"),
                json!({}),
            )
            .await;
        }
        let (_, code) = app
            .error(&format!("query {bad_name} {{ noSuchField }}"), json!({}))
            .await;
        assert_eq!(code, "GRAPHQL_VALIDATION_FAILED");
        // An id in the path is counted under the route's template.
        let missing = app
            .get("/bank-reports/987654/errors.xlsx")
            .send()
            .await
            .expect("answers");
        assert_eq!(missing.status(), 404);
        // An upload of two rows, ingested by the job.
        seed_bb(&app).await;
        let rows = vec![
            good_row("OPS-1", cpf(4701), 1000.0),
            good_row("OPS-2", cpf(4702), 2000.0),
        ];
        let (status, body) = upload(&app, "BB", "2026-02", "fev.xlsx", workbook(&rows)).await;
        assert_eq!(status, 201, "{body}");
        fomento_api::runtime::scheduled_ingest(&app.runtime, &format!("test:{tag}"))
            .await
            .expect("the ingestion runs");

        let after = scrape(&app).await;
        assert!(observations(&after, "http_server_request_duration_seconds", &graph) >= served_before + 3.0);
        assert_eq!(
            total(
                &after,
                "graphql_server_operations_total",
                &[("operation_name", &ok_name), ("operation_type", "query")]
            ),
            3.0
        );
        assert_eq!(
            total(&after, "graphql_server_errors_total", &[("operation_name", &ok_name)]),
            0.0
        );
        assert_eq!(
            total(
                &after,
                "graphql_server_errors_total",
                &[
                    ("operation_name", &bad_name),
                    ("operation_type", "query"),
                    ("code", "GRAPHQL_VALIDATION_FAILED")
                ]
            ),
            1.0
        );
        let template = [
            ("route", "/bank-reports/:id/errors.xlsx"),
            ("method", "GET"),
            ("status", "404"),
        ];
        let routes: Vec<String> = samples(&after, "http_server_request_duration_seconds", &[])
            .iter()
            .map(|x| x.labels.to_string())
            .collect();
        assert!(
            observations(&after, "http_server_request_duration_seconds", &template) >= 1.0,
            "{routes:?}"
        );
        let upload_route = [("route", "/bank-reports"), ("method", "POST"), ("status", "201")];
        assert!(observations(&after, "http_server_request_duration_seconds", &upload_route) >= 1.0);
        assert!(
            after
                .samples
                .iter()
                .filter_map(|x| x.labels.get("route"))
                .all(|r| !r.contains("987654")),
            "no id in a route label"
        );
        assert!(total(&after, "fomento_ingestion_rows_total", &[("outcome", "ingested")]) >= rows_before + 2.0);
        assert!(total(&after, "fomento_ingestion_bytes_total", &[("outcome", "ingested")]) > 0.0);
        assert!(
            total(
                &after,
                "fomento_job_runs_total",
                &[("job", jobs::report::ingest::JOB), ("outcome", "succeeded")]
            ) >= runs_before + 1.0
        );
        assert!(
            observations(
                &after,
                "fomento_job_duration_seconds",
                &[("job", jobs::report::ingest::JOB)]
            ) >= 1.0
        );
        // The pool, read at the scrape.
        assert!(total(&after, "db_client_connections_max", &[]) >= 1.0);
        assert_eq!(
            samples(&after, "db_client_connections", &[("state", "in_use")]).len(),
            1
        );
        // Every metric is described.
        for name in [
            "http_server_request_duration_seconds",
            "graphql_server_operations_total",
            "fomento_flags_open",
        ] {
            assert!(after.docs.contains_key(name), "{name} has a HELP line");
        }
    })
    .await;
}

#[tokio::test]
async fn a_refusal_past_the_rate_counts_and_the_open_flags_are_counted_by_rule() {
    on_each_backend(true, |app| async move {
        let tag = uuid::Uuid::new_v4().simple().to_string();
        // The demo has open flags; the gauge says how many by rule and severity, as the graph does.
        let s = scrape(&app).await;
        let open = total(&s, "fomento_flags_open", &[]);
        let listed = app
            .data("{ complianceFlags(filter: { open: true }) { totalCount } }", json!({}))
            .await["complianceFlags"]["totalCount"]
            .as_f64()
            .unwrap_or(-1.0);
        assert_eq!(open, listed);
        assert!(
            samples(&s, "fomento_flags_open", &[])
                .iter()
                .all(|x| x.labels.get("rule").is_some() && x.labels.get("severity").is_some())
        );
        // A key allowed one request a second, in bursts of two: the third at once is refused and counted.
        let key = service::keys::create(
            &app.db,
            &service::Caller::System,
            "analyst",
            None,
            &tag,
            Some(1),
            chrono::Utc::now(),
        )
        .await
        .expect("a key")
        .secret;
        let before = total(
            &scrape(&app).await,
            "fomento_http_refusals_total",
            &[("reason", "rate_limited")],
        );
        let limited = client_with(&key);
        let mut refused = 0;
        for _ in 0..4 {
            let r = limited
                .get(format!("{}/health", app.base))
                .send()
                .await
                .expect("answers");
            let r2 = limited
                .post(format!("{}/graphql", app.base))
                .json(&json!({ "query": "{ banks { nodes { code } } }" }))
                .send()
                .await
                .expect("answers");
            refused += u32::from(r.status() == 429) + u32::from(r2.status() == 429);
        }
        assert!(refused >= 1);
        let after = total(
            &scrape(&app).await,
            "fomento_http_refusals_total",
            &[("reason", "rate_limited")],
        );
        assert!(
            after >= before + f64::from(refused),
            "{before} then {after}, {refused} refused"
        );
    })
    .await;
}

/// The log lines of this test binary, as JSON objects, from the real subscriber (`fomento_api::telemetry`).
fn log_lines() -> Vec<serde_json::Value> {
    let text = String::from_utf8_lossy(&captured().lock().expect("log").clone()).into_owned();
    text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

fn captured() -> &'static Arc<Mutex<Vec<u8>>> {
    static LOG: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOG.get_or_init(|| {
        let log: Arc<Mutex<Vec<u8>>> = Arc::default();
        let sink = log.clone();
        let telemetry = fomento_api::telemetry::init_with_writer(
            "warn,fomento_api=info,jobs=info",
            fomento_api::telemetry::LogFormat::Json,
            None,
            move || Sink(sink.clone()),
            false,
        )
        .expect("the subscriber is installed once");
        std::mem::forget(telemetry);
        log
    })
}

struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The trace ids of the spans a JSON log line was written in.
fn trace_ids(line: &serde_json::Value) -> Vec<String> {
    line["spans"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["trace_id"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn a_callers_traceparent_is_in_the_log_lines_each_refusal_ingestion_and_job_run_writes_one_line_and_webhooks_carry_the_causes_trace()
 {
    captured();
    on_each_backend(false, |app| async move {
        // A caller's trace: the line of a refusal written while serving it carries the caller's trace id.
        let trace = format!("{:032x}", uuid::Uuid::new_v4().as_u128());
        let traceparent = format!("00-{trace}-00f067aa0ba902b7-01");
        let key = service::keys::create(
            &app.db,
            &service::Caller::System,
            "analyst",
            None,
            "traced",
            Some(1),
            chrono::Utc::now(),
        )
        .await
        .expect("a key")
        .secret;
        let client = client_with(&key);
        let mut statuses = Vec::new();
        for _ in 0..4 {
            let r = client
                .get(format!("{}/health", app.base))
                .header("traceparent", &traceparent)
                .send()
                .await
                .expect("answers");
            statuses.push(r.status().as_u16());
        }
        assert!(statuses.contains(&429), "{statuses:?}");
        let lines = log_lines();
        let refusal = lines
            .iter()
            .find(|l| trace_ids(l).contains(&trace))
            .unwrap_or_else(|| panic!("a line with trace {trace}"));
        assert_eq!(refusal["level"], "WARN", "{refusal}");
        assert_eq!(refusal["fields"]["rate"], 1, "{refusal}");
        // A malformed traceparent starts a trace of its own rather than failing the request.
        let r = app
            .get("/health")
            .header("traceparent", "00-zz-00f067aa0ba902b7-01")
            .send()
            .await
            .expect("answers");
        assert_eq!(r.status(), 200);

        // A webhook delivery carries the trace of the work that caused its event: here the ingestion's run, whose
        // lines name the same trace (not the later run of `deliver-webhooks` that sends it).
        let seen: Arc<Mutex<Vec<String>>> = Arc::default();
        let got = seen.clone();
        let receiver = axum::Router::new().route(
            "/hook",
            axum::routing::post(move |headers: axum::http::HeaderMap| {
                let got = got.clone();
                async move {
                    let tp = headers
                        .get("traceparent")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("")
                        .to_owned();
                    got.lock().expect("seen").push(tp);
                    "ok"
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let port = listener.local_addr().expect("address").port();
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, receiver).await;
        });
        service::webhooks::add(
            &app.db,
            &service::Caller::System,
            chrono::Utc::now(),
            service::webhooks::NewWebhook {
                url: format!("http://127.0.0.1:{port}/hook"),
                secret: "segredo-do-receptor-2026".into(),
                events: vec!["report.ingested".into()],
                ..Default::default()
            },
        )
        .await
        .expect("a webhook");
        seed_bb(&app).await;
        // A carta of R$ 1.5 M that never went to the chamber: ingested, and flagged.
        let rows = vec![good_row("TRC-1", cpf(4801), 1_500_000.0)];
        let (status, body) = upload(&app, "BB", "2026-03", "mar.xlsx", workbook(&rows)).await;
        assert_eq!(status, 201, "{body}");
        fomento_api::runtime::scheduled_ingest(&app.runtime, "test:traced")
            .await
            .expect("the ingestion runs");
        let deliver = jobs::registry::find(jobs::webhooks::JOB).expect("the webhook job");
        fomento_api::runtime::run_job(&app.runtime, deliver, &format!("test:{}", uuid::Uuid::new_v4()))
            .await
            .expect("the deliveries are sent");
        let sent = seen.lock().expect("seen").clone();
        assert_eq!(sent.len(), 1, "{sent:?}");
        let tp = service::trace::TraceContext::parse(&sent[0]).expect("a valid traceparent");
        let lines = log_lines();
        let traced: Vec<&serde_json::Value> = lines
            .iter()
            .filter(|l| trace_ids(l).contains(&tp.trace_id_hex()))
            .collect();
        assert!(!traced.is_empty(), "a line with trace {}", tp.trace_id_hex());
        assert!(
            traced.iter().all(|l| l["spans"][0]["job"] == jobs::report::ingest::JOB),
            "{traced:?}"
        );
        assert_ne!(tp.trace_id_hex(), trace, "the run is a trace of its own");
        // The ingestion wrote one line for the report, with what an operator looks for, and its run one line.
        let report = body["number"].as_i64().expect("the report's number");
        let ingested: Vec<&&serde_json::Value> = traced
            .iter()
            .filter(|l| l["fields"]["report"] == report && l["fields"]["status"] == "INGESTED")
            .collect();
        assert_eq!(ingested.len(), 1, "{traced:?}");
        let line = &ingested[0]["fields"];
        assert_eq!((line["rows"].as_i64(), line["errors"].as_i64()), (Some(1), Some(0)), "{line}");
        assert!(line["bytes"].as_i64().is_some_and(|b| b > 0) && line["seconds"].is_number(), "{line}");
        let run_lines: Vec<&&serde_json::Value> = traced
            .iter()
            .filter(|l| l["fields"]["processed"].is_number())
            .collect();
        assert_eq!(run_lines.len(), 1, "{traced:?}");
        assert_eq!(run_lines[0]["fields"]["processed"], 1);
        assert!(run_lines[0]["fields"]["seconds"].is_number());
        assert_eq!(run_lines[0]["spans"][0]["slot"], "test:traced");

        // A person's act over the graph, with the caller's trace: the flag it resolves is delivered in that trace.
        service::webhooks::add(
            &app.db,
            &service::Caller::System,
            chrono::Utc::now(),
            service::webhooks::NewWebhook {
                url: format!("http://127.0.0.1:{port}/hook"),
                secret: "segredo-do-receptor-2026".into(),
                events: vec!["flag.resolved".into()],
                ..Default::default()
            },
        )
        .await
        .expect("a webhook");
        let flag = app
            .data("{ complianceFlags(filter: { open: true }, first: 1) { nodes { id } } }", json!({}))
            .await["complianceFlags"]["nodes"][0]["id"]
            .clone();
        assert!(flag.is_string(), "an open flag: {flag}");
        let act = format!("{:032x}", uuid::Uuid::new_v4().as_u128());
        let resp = app
            .post("/graphql")
            .header("traceparent", format!("00-{act}-0af7651916cd43dd-01"))
            .json(&json!({
                "query": "mutation R($input: ResolveComplianceFlagInput!) { resolveComplianceFlag(input: $input) { flag { id } } }",
                "variables": { "input": { "id": flag, "resolvedBy": "Ana (MDA)", "reason": "justificativa aceita" } }
            }))
            .send()
            .await
            .expect("answers");
        let answer: serde_json::Value = resp.json().await.expect("json");
        assert!(answer["errors"].is_null(), "{answer}");
        seen.lock().expect("seen").clear();
        fomento_api::runtime::run_job(&app.runtime, deliver, &format!("test:{}", uuid::Uuid::new_v4()))
            .await
            .expect("the deliveries are sent");
        let sent = seen.lock().expect("seen").clone();
        assert_eq!(sent.len(), 1, "{sent:?}");
        let tp = service::trace::TraceContext::parse(&sent[0]).expect("a valid traceparent");
        assert_eq!(tp.trace_id_hex(), act, "the delivery goes on in the trace of the request that resolved the flag");
        server.abort();
    })
    .await;
}

/// One span as an OTLP receiver got it.
#[derive(Debug, Clone)]
struct Exported {
    trace: String,
    id: String,
    parent: String,
    name: String,
    attributes: Vec<(String, String)>,
}

/// The fields of a protobuf message: number and value (a varint, or the bytes of a length-delimited field).
fn protobuf_fields(mut b: &[u8]) -> Vec<(u64, Result<u64, &[u8]>)> {
    fn varint(b: &mut &[u8]) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let (&byte, rest) = b.split_first()?;
            *b = rest;
            n |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Some(n);
            }
        }
        None
    }
    let mut out = Vec::new();
    while let Some(key) = varint(&mut b) {
        let value = match key & 7 {
            0 => Ok(varint(&mut b).expect("a varint")),
            1 => {
                let (v, rest) = b.split_at(8);
                b = rest;
                Ok(u64::from_le_bytes(v.try_into().expect("8 bytes")))
            }
            2 => {
                let len = usize::try_from(varint(&mut b).expect("a length")).expect("a length");
                let (v, rest) = b.split_at(len);
                b = rest;
                Err(v)
            }
            5 => {
                let (v, rest) = b.split_at(4);
                b = rest;
                Ok(u64::from(u32::from_le_bytes(v.try_into().expect("4 bytes"))))
            }
            other => panic!("wire type {other}"),
        };
        out.push((key >> 3, value));
    }
    out
}

/// The spans of an OTLP/HTTP export (`ExportTraceServiceRequest`: resource spans, scope spans, spans).
fn exported_spans(body: &[u8]) -> Vec<Exported> {
    let bytes = |fields: &[(u64, Result<u64, &[u8]>)], n: u64| -> Vec<Vec<u8>> {
        fields
            .iter()
            .filter(|(k, _)| *k == n)
            .filter_map(|(_, v)| v.err().map(<[u8]>::to_vec))
            .collect()
    };
    let mut out = Vec::new();
    for resource in bytes(&protobuf_fields(body), 1) {
        for scope in bytes(&protobuf_fields(&resource), 2) {
            for span in bytes(&protobuf_fields(&scope), 2) {
                let f = protobuf_fields(&span);
                let one = |n| bytes(&f, n).into_iter().next().unwrap_or_default();
                let attributes = bytes(&f, 9)
                    .iter()
                    .map(|kv| {
                        let kv = protobuf_fields(kv);
                        let key = String::from_utf8_lossy(&bytes(&kv, 1).concat()).into_owned();
                        let value = bytes(&kv, 2)
                            .first()
                            .map(|v| {
                                protobuf_fields(v)
                                    .iter()
                                    .map(|(_, x)| match x {
                                        Ok(n) => n.to_string(),
                                        Err(s) => String::from_utf8_lossy(s).into_owned(),
                                    })
                                    .collect::<String>()
                            })
                            .unwrap_or_default();
                        (key, value)
                    })
                    .collect();
                out.push(Exported {
                    trace: hex::encode(one(1)),
                    id: hex::encode(one(2)),
                    parent: hex::encode(one(4)),
                    name: String::from_utf8_lossy(&one(5)).into_owned(),
                    attributes,
                });
            }
        }
    }
    out
}

/// An OTLP/HTTP receiver in this process: the spans posted to `/v1/traces`.
async fn otlp_receiver() -> (u16, Arc<Mutex<Vec<Exported>>>) {
    let got: Arc<Mutex<Vec<Exported>>> = Arc::default();
    let spans = got.clone();
    let app = axum::Router::new().route(
        "/v1/traces",
        axum::routing::post(move |body: axum::body::Bytes| {
            let spans = spans.clone();
            async move {
                spans.lock().expect("spans").extend(exported_spans(&body));
                ([("content-type", "application/x-protobuf")], Vec::<u8>::new())
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let port = listener.local_addr().expect("address").port();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (port, got)
}

/// The server's spans exported over OTLP (a `fomento serve` process built with the `otlp` feature, as the image is,
/// exporting to a receiver in this test): one trace per request, holding the request's span, the GraphQL operation's
/// under it and SQL statements' under that; a caller's `traceparent` continued; no statement outside a request (the
/// migrations and the demo's load at start-up) exported as a trace of its own. A process of its own: the exporter is
/// the process's subscriber, as in production.
#[tokio::test]
async fn each_request_is_one_trace_exported_over_otlp_with_its_http_graphql_and_sql_spans() {
    use crate::helpers::{Backend, fresh_database};
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some((url, cleanup)) = fresh_database(backend).await else {
            continue;
        };
        let (receiver, got) = otlp_receiver().await;
        let port = crate::processes::free_port();
        let store = std::env::temp_dir().join(format!("fomento-otlp-store-{}", uuid::Uuid::new_v4().simple()));
        let mut command = crate::processes::fomento();
        command.args([
            "serve",
            "--demo",
            "--no-jobs",
            "--rate-limit",
            "0",
            "--database-url",
            &url,
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--file-store",
            &store.display().to_string(),
            "--otlp-endpoint",
            &format!("http://127.0.0.1:{receiver}"),
        ]);
        let mut server = crate::processes::Process::start("otlp-server", command);
        crate::processes::answers(&format!("http://127.0.0.1:{port}/ready"), &mut server).await;
        let (db, _) = fomento_api::startup::connect(&url).await.expect("the database");
        let key = service::keys::create(
            &db,
            &service::Caller::System,
            "admin",
            None,
            "otlp",
            None,
            chrono::Utc::now(),
        )
        .await
        .expect("a key")
        .secret;
        let app = TestApp {
            base: format!("http://127.0.0.1:{port}"),
            client: client_with(&key),
            statements: Default::default(),
            db: db.clone(),
            backend,
            runtime: fomento_api::startup::jobs_runtime(
                db.clone(),
                &store.display().to_string(),
                chrono::Duration::minutes(5),
                3,
                service::store::DEFAULT_MAX_UPLOAD_BYTES,
            )
            .expect("the store"),
            url: url.clone(),
            key,
            metrics_port: None,
        };
        {
            let caller = format!("{:032x}", uuid::Uuid::new_v4().as_u128());
            let query = "query Cartas { fcoCartas(first: 3) { nodes { number bank { code } } } }";
            for traceparent in [None, None, Some(format!("00-{caller}-00f067aa0ba902b7-01"))] {
                let mut request = app.post("/graphql").json(&json!({ "query": query }));
                if let Some(tp) = traceparent {
                    request = request.header("traceparent", tp);
                }
                let body: serde_json::Value = request.send().await.expect("answers").json().await.expect("json");
                assert!(body["errors"].is_null(), "{body}");
                assert!(
                    body["data"]["fcoCartas"]["nodes"][0]["bank"]["code"].is_string(),
                    "{body}"
                );
            }
            // The batch leaves within the exporter's delay (5 s).
            let started = std::time::Instant::now();
            let spans = loop {
                let spans = got.lock().expect("spans").clone();
                let requests = spans
                    .iter()
                    .filter(|s| {
                        s.name == "request" && s.attributes.iter().any(|(k, v)| k == "route" && v == "/graphql")
                    })
                    .count();
                if requests >= 3 {
                    break spans;
                }
                assert!(started.elapsed() < std::time::Duration::from_secs(30), "{spans:#?}");
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            };
            let requests: Vec<&Exported> = spans
                .iter()
                .filter(|s| s.name == "request" && s.attributes.iter().any(|(k, v)| k == "route" && v == "/graphql"))
                .collect();
            let traces: std::collections::HashSet<&str> = requests.iter().map(|r| r.trace.as_str()).collect();
            assert_eq!(traces.len(), 3, "one trace per request: {requests:#?}");
            let by_id: std::collections::HashMap<&str, &Exported> = spans.iter().map(|s| (s.id.as_str(), s)).collect();
            let under = |s: &Exported, ancestor: &str| {
                let mut at = s;
                while let Some(parent) = by_id.get(at.parent.as_str()) {
                    if parent.id == ancestor {
                        return true;
                    }
                    at = parent;
                }
                false
            };
            for r in &requests {
                let in_trace: Vec<&Exported> = spans.iter().filter(|s| s.trace == r.trace).collect();
                // Named for the operation, as OpenTelemetry's GraphQL conventions have it.
                let graphql: Vec<&&Exported> = in_trace.iter().filter(|s| s.name == "query Cartas").collect();
                assert_eq!(graphql.len(), 1, "{in_trace:#?}");
                assert_eq!(graphql[0].parent, r.id, "the operation is the request's child");
                assert!(
                    graphql[0]
                        .attributes
                        .iter()
                        .any(|(k, v)| k == "graphql.operation.name" && v == "Cartas")
                        && graphql[0]
                            .attributes
                            .iter()
                            .any(|(k, v)| k == "graphql.operation.type" && v == "query"),
                    "{:?}",
                    graphql[0]
                );
                let sql: Vec<&&Exported> = in_trace
                    .iter()
                    .filter(|s| s.name.starts_with("sea_orm.") && under(s, &graphql[0].id))
                    .collect();
                assert!(
                    sql.iter()
                        .any(|s| s.attributes.iter().any(|(k, v)| k == "db.operation" && v == "SELECT")),
                    "the cartas read under the operation: {in_trace:#?}"
                );
            }
            let continued = requests
                .iter()
                .find(|r| r.trace == caller)
                .expect("the caller's trace goes on");
            assert_eq!(continued.parent, "00f067aa0ba902b7");
            // No statement is a trace of its own (the migrations at start-up, the background tasks).
            assert!(
                spans
                    .iter()
                    .filter(|s| s.name.starts_with("sea_orm."))
                    .all(|s| !s.parent.is_empty()),
                "{spans:#?}"
            );
        }
        drop(server);
        let _ = db.close().await;
        let _ = std::fs::remove_dir_all(&store);
        cleanup.run().await;
    }
}
