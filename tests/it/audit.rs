//! The audit log as evidence (issue 40, item 4): calls refused for want of a credential counted per address instead
//! of a line each, the client's address believed from a trusted proxy only, the object each mutation and upload acted
//! on, and the operation's true kind.

use crate::helpers::{TestApp, client_with, on_each_backend, on_each_backend_then_stopped, on_each_backend_with};
use entity::audit_log;
use fomento_api::{
    graphql::ids::{NodeKind, encode},
    startup::Settings,
};
use futures::StreamExt;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

/// The audit log's latest lines, newest first.
async fn lines(app: &TestApp) -> Vec<audit_log::Model> {
    service::audit::list(&app.db, &service::Caller::System, None, 500)
        .await
        .expect("the audit log")
}

/// POSTs `query` with `key` and extra `headers`.
async fn ask(app: &TestApp, key: Option<&str>, headers: &[(&str, &str)], query: &str, variables: Value) -> Value {
    let client = key.map_or_else(reqwest::Client::new, client_with);
    let mut req = client.post(format!("{}/graphql", app.base));
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let resp = req
        .json(&json!({ "query": query, "variables": variables }))
        .send()
        .await
        .expect("the server answers");
    resp.json().await.unwrap_or(Value::Null)
}

#[tokio::test]
async fn two_thousand_calls_without_credentials_write_two_lines_that_count_them_all() {
    on_each_backend_then_stopped(
        false,
        |_| {},
        |app| async move {
            let anonymous = reqwest::Client::new();
            let forged = "9".repeat(60_000);
            let statuses: Vec<u16> = futures::stream::iter(0..2000)
                .map(|i| {
                    let mut req = anonymous
                        .post(format!("{}/graphql", app.base))
                        .json(&json!({ "query": "{ banks(first: 1) { totalCount } }" }));
                    if i % 10 == 0 {
                        req = req.header("x-forwarded-for", forged.as_str());
                    }
                    async move { req.send().await.map_or(0, |r| r.status().as_u16()) }
                })
                .buffer_unordered(16)
                .collect()
                .await;
            assert!(statuses.iter().all(|s| *s == 401), "every call refused");
            let anonymous_lines: Vec<_> = lines(&app)
                .await
                .into_iter()
                .filter(|l| l.actor == "anonymous")
                .collect();
            assert_eq!(
                anonymous_lines.len(),
                1,
                "the window's first refusal alone: {anonymous_lines:?}"
            );
            let first = &anonymous_lines[0];
            assert_eq!(
                (
                    first.action.as_str(),
                    first.outcome.as_str(),
                    first.detail.as_deref(),
                    first.remote.as_deref()
                ),
                ("POST /graphql", "DENIED", Some("UNAUTHENTICATED"), Some("127.0.0.1")),
                "the forged header is neither stored nor believed"
            );
        },
        |db| async move {
            // As the server stopped, the window's count was written.
            let anonymous = audit_log::Entity::find()
                .filter(audit_log::Column::Actor.eq("anonymous"))
                .all(&db)
                .await
                .expect("lines");
            assert_eq!(anonymous.len(), 2, "{anonymous:?}");
            let summary = &anonymous[1];
            assert!(
                summary
                    .action
                    .starts_with("2000 chamadas recusadas sem credencial de 127.0.0.1 entre "),
                "{summary:?}"
            );
            assert_eq!(summary.remote.as_deref(), Some("127.0.0.1"));
            assert!(
                anonymous.iter().all(|l| l.action.len() < 200),
                "no line holds what a client sent at length"
            );
        },
    )
    .await;
}

/// The address recorded and the `Secure` cookie, for a client claiming `203.0.113.9` and HTTPS through forwarding
/// headers.
async fn what_is_believed(app: &TestApp, forwarded_for: &str) -> (Option<String>, bool) {
    let analyst = app.key_of("analyst", None).await;
    let mutation = "mutation { addNonBusinessDay(day: \"2026-12-24\", reason: \"x\") { day } }";
    ask(
        app,
        Some(&analyst),
        &[("x-forwarded-for", forwarded_for)],
        mutation,
        json!({}),
    )
    .await;
    let line = lines(app)
        .await
        .into_iter()
        .find(|l| l.action == "mutation addNonBusinessDay")
        .expect("the refusal is audited");
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client");
    let signed_in = browser
        .post(format!("{}/sign-in", app.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("x-forwarded-proto", "https")
        .body(format!("key={}&next=%2Fdashboard", app.key))
        .send()
        .await
        .expect("answer");
    let cookie = signed_in
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    assert!(cookie.starts_with("fomento_session="), "{cookie}");
    (line.remote, cookie.contains("; Secure"))
}

#[tokio::test]
async fn forwarding_headers_are_ignored_without_a_trusted_proxy() {
    on_each_backend(false, |app| async move {
        let (remote, secure) = what_is_believed(&app, "203.0.113.9").await;
        assert_eq!(
            remote.as_deref(),
            Some("127.0.0.1"),
            "the peer, not what the client claims"
        );
        assert!(!secure, "X-Forwarded-Proto from the client itself is not believed");
    })
    .await;
}

fn behind_a_local_proxy(s: &mut Settings) {
    s.trusted_proxies = vec!["127.0.0.0/8".parse().expect("a network")];
}

#[tokio::test]
async fn a_trusted_proxy_names_the_client_by_its_right_most_untrusted_address() {
    on_each_backend_with(false, behind_a_local_proxy, |app| async move {
        let (remote, secure) = what_is_believed(&app, "198.51.100.7, 203.0.113.9, 127.0.0.9").await;
        assert_eq!(
            remote.as_deref(),
            Some("203.0.113.9"),
            "the address the trusted proxies received"
        );
        assert!(secure, "the trusted proxy says the browser came over HTTPS");
        let (remote, _) = what_is_believed(&app, &"x".repeat(60_000)).await;
        assert_eq!(
            remote.as_deref(),
            Some("127.0.0.1"),
            "a header that is no address: the peer"
        );
    })
    .await;
}

#[tokio::test]
async fn the_audit_log_names_the_object_each_mutation_and_upload_acted_on() {
    on_each_backend(true, |app| async move {
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        // A carta created without asking for its ID back.
        let create = "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { number } }";
        app.data(create, json!({ "i": { "number": "AUDIT-1", "bankId": bb, "borrowerDocument": "529.982.247-25",
            "borrowerName": "João Silva", "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "1500000.00",
            "municipalityCode": 5107909 } }))
            .await;
        let carta = entity::fco_carta::Entity::find()
            .filter(entity::fco_carta::Column::Number.eq("AUDIT-1"))
            .one(&app.db)
            .await
            .expect("read")
            .expect("the carta");
        let carta = encode(NodeKind::FcoCarta, carta.id).to_string();
        app.data("mutation M($id: ID!) { submitFcoCarta(id: $id, on: \"2024-02-20\") { number } }", json!({ "id": carta }))
            .await;
        app.data(
            "mutation M($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true, on: \"2024-02-27\") { number } }",
            json!({ "id": carta }),
        )
        .await;
        // An ID written in the query, an ID inside `input`, and a number.
        let flag = encode(NodeKind::ComplianceFlag, 999_999).to_string();
        let project = encode(NodeKind::SocialFuelProject, 999_999).to_string();
        ask(&app, Some(&app.key), &[], &format!("mutation {{ fileSocialFuelProject(id: \"{project}\") {{ id }} }}"), json!({})).await;
        ask(&app, Some(&app.key), &[],
            "mutation F($id: ID!) { resolveComplianceFlag(input: { id: $id, resolvedBy: \"x\", reason: \"y\" }) { flag { id } } }",
            json!({ "id": flag })).await;
        ask(&app, Some(&app.key), &[], "mutation { withdrawRuleParameterVersion(versionId: 999999, reason: \"x\") { key } }", json!({}))
            .await;
        // Natural keys: a calendar day, a parameter.
        ask(&app, Some(&app.key), &[], "mutation { addNonBusinessDay(day: \"2031-03-04\", reason: \"Carnaval\") { day } }", json!({}))
            .await;
        ask(&app, Some(&app.key), &[],
            "mutation { addRuleParameterVersion(key: \"fco.ceiling\", value: \"1\", unit: \"BRL\", effectiveFrom: \"2031-01-01\", legalSource: \"x\") { key } }",
            json!({})).await;
        // An upload and a key.
        use crate::reports::{cpf, good_row, upload, workbook};
        let (status, report) = upload(&app, "BB", "2019-05", "maio.xlsx", workbook(&[good_row("AUD-1", cpf(7), 150_000.0)])).await;
        assert_eq!(status, 201, "{report}");
        app.key_of("analyst", None).await;
        let key = service::keys::list(&app.db, &service::Caller::System).await.expect("keys")[0].clone();

        let lines = lines(&app).await;
        let target = |action: &str| {
            lines
                .iter()
                .find(|l| l.action == action)
                .unwrap_or_else(|| panic!("{action} is audited: {lines:?}"))
                .target
                .clone()
                .unwrap_or_default()
        };
        assert_eq!(target("mutation createFcoCarta"), carta, "the new carta");
        assert_eq!(target("mutation submitFcoCarta"), carta);
        assert_eq!(target("mutation decideFcoCarta"), carta);
        assert_eq!(target("mutation fileSocialFuelProject"), project);
        assert_eq!(target("mutation resolveComplianceFlag"), flag);
        assert_eq!(target("mutation withdrawRuleParameterVersion"), "versionId 999999");
        assert_eq!(target("mutation addNonBusinessDay"), "day 2031-03-04");
        assert_eq!(target("mutation addRuleParameterVersion"), "key fco.ceiling");
        assert_eq!(target("upload bank-report"), report["id"].as_str().expect("the report's ID"));
        assert!(
            target("keys create").starts_with(&format!("key {} {}", key.id, key.prefix)),
            "{lines:?}"
        );
    })
    .await;
}

#[tokio::test]
async fn a_refused_query_is_recorded_as_a_query() {
    on_each_backend(false, |app| async move {
        let analyst = app.key_of("analyst", None).await;
        let body = ask(
            &app,
            Some(&analyst),
            &[],
            "{ auditLog(first: 1) { number } }",
            json!({}),
        )
        .await;
        assert_eq!(body["errors"][0]["extensions"]["code"], "FORBIDDEN", "{body}");
        let lines = lines(&app).await;
        let line = lines
            .iter()
            .find(|l| l.action.ends_with(" auditLog"))
            .expect("the refusal is audited");
        assert_eq!(
            (line.action.as_str(), line.outcome.as_str(), line.detail.as_deref()),
            ("query auditLog", "DENIED", Some("FORBIDDEN"))
        );
    })
    .await;
}
