//! GraphQL over HTTP: methods, media types, status codes, error codes, GraphiQL, health and readiness.

use crate::helpers::{content_type, on_each_backend};
use serde_json::{Value, json};

const QUERY: &str = "{ banks(first: 1) { totalCount } }";

#[tokio::test]
async fn response_media_type_follows_the_accept_header() {
    on_each_backend(false, |app| async move {
        // reqwest always sends an Accept header; a missing one is covered by the unit test of `negotiate`.
        let cases: [(Option<&str>, u16, &str); 5] = [
            (Some("application/json"), 200, "application/json"),
            (
                Some("application/graphql-response+json"),
                200,
                "application/graphql-response+json",
            ),
            (
                Some("application/graphql-response+json, application/json;q=0.9"),
                200,
                "application/graphql-response+json",
            ),
            (Some("*/*"), 200, "application/json"),
            (Some("text/html"), 406, ""),
        ];
        for (accept, status, media) in cases {
            let mut req = app.post("/graphql").json(&json!({ "query": QUERY }));
            if let Some(a) = accept {
                req = req.header("accept", a);
            }
            let resp = req.send().await.expect("answer");
            assert_eq!(resp.status().as_u16(), status, "Accept {accept:?}");
            if !media.is_empty() {
                assert_eq!(content_type(&resp), media, "Accept {accept:?}");
                let body: Value = resp.json().await.expect("json");
                assert_eq!(body["data"]["banks"]["totalCount"], 0, "Accept {accept:?}");
            }
        }
    })
    .await;
}

#[tokio::test]
async fn request_errors_get_400_under_graphql_response_json_and_200_under_json() {
    on_each_backend(false, |app| async move {
        let cases = [
            (
                "{ banks(first: 1) { totalCount ",
                "GRAPHQL_PARSE_FAILED",
                "unclosed selection",
            ),
            ("{ noSuchField }", "GRAPHQL_VALIDATION_FAILED", "unknown field"),
            (
                "query Q($n: Int!) { banks(first: $n) { totalCount } }",
                "BAD_USER_INPUT",
                "missing required variable",
            ),
        ];
        for (query, code, why) in cases {
            for (accept, status) in [("application/graphql-response+json", 400), ("application/json", 200)] {
                let resp = app
                    .post("/graphql")
                    .header("accept", accept)
                    .json(&json!({ "query": query }))
                    .send()
                    .await
                    .expect("answer");
                assert_eq!(resp.status().as_u16(), status, "{why} under {accept}");
                let body: Value = resp.json().await.expect("json");
                assert!(
                    body.get("data").is_none(),
                    "{why}: a request error has no data entry: {body}"
                );
                assert_eq!(body["errors"][0]["extensions"]["code"], code, "{why}: {body}");
            }
        }
    })
    .await;
}

#[tokio::test]
async fn malformed_http_requests_are_refused_with_a_reason() {
    on_each_backend(false, |app| async move {
        let resp = app
            .post("/graphql")
            .header("content-type", "text/plain")
            .body(QUERY)
            .send()
            .await
            .expect("answer");
        assert_eq!(resp.status().as_u16(), 415, "a body that is not application/json");

        let resp = app
            .post("/graphql")
            .header("content-type", "application/json")
            .body("{not json")
            .send()
            .await
            .expect("answer");
        assert_eq!(resp.status().as_u16(), 400);
        let body: Value = resp.json().await.expect("json");
        assert!(
            body["errors"][0]["message"]
                .as_str()
                .unwrap_or("")
                .contains("não é JSON (linha 1, coluna 2)"),
            "{body}"
        );

        let resp = app
            .post("/graphql")
            .json(&json!({ "query": 42 }))
            .send()
            .await
            .expect("answer");
        assert_eq!(resp.status().as_u16(), 400, "query must be a string");

        let resp = app
            .post("/graphql")
            .json(&json!({ "query": QUERY, "variables": [1] }))
            .send()
            .await
            .expect("answer");
        assert_eq!(resp.status().as_u16(), 400, "variables must be an object");
    })
    .await;
}

#[tokio::test]
async fn get_runs_queries_but_refuses_mutations_with_405() {
    on_each_backend(false, |app| async move {
        let resp = app
            .get("/graphql")
            .query(&[
                ("query", "query Q($n: Int) { banks(first: $n) { totalCount } }"),
                ("variables", r#"{"n": 2}"#),
            ])
            .header("accept", "application/graphql-response+json")
            .send()
            .await
            .expect("answer");
        assert_eq!(resp.status().as_u16(), 200);
        let body: Value = resp.json().await.expect("json");
        assert_eq!(body["data"]["banks"]["totalCount"], 0, "{body}");

        let resp = app
            .get("/graphql")
            .query(&[("query", "mutation { x }")])
            .send()
            .await
            .expect("answer");
        assert_eq!(resp.status().as_u16(), 405);
        assert_eq!(resp.headers().get("allow").and_then(|v| v.to_str().ok()), Some("POST"));

        let resp = app
            .get("/graphql")
            .header("accept", "application/json")
            .send()
            .await
            .expect("answer");
        assert_eq!(resp.status().as_u16(), 400, "GET without a query");
    })
    .await;
}

#[tokio::test]
async fn a_browser_gets_graphiql_and_probes_get_health_and_readiness() {
    on_each_backend(false, |app| async move {
        let resp = app
            .get("/graphql")
            .header("accept", "text/html,application/xhtml+xml")
            .send()
            .await
            .expect("answer");
        assert_eq!(resp.status().as_u16(), 200);
        assert_eq!(content_type(&resp), "text/html");
        let page = resp.text().await.unwrap_or_default();
        assert!(page.contains("GraphiQL"));
        // Every script and stylesheet the page loads is served by Fomento itself (no CDN: a browser without internet
        // access still gets GraphiQL).
        let assets: Vec<&str> = page
            .split(['"', '\''])
            .filter(|p| p.starts_with("/graphiql/"))
            .collect();
        assert_eq!(assets.len(), 4, "{page}");
        assert!(!page.contains("https://"), "no asset from elsewhere: {page}");
        for path in assets {
            let resp = app.get(path).send().await.expect("answer");
            assert_eq!(resp.status().as_u16(), 200, "{path}");
            let body = resp.bytes().await.expect("bytes");
            assert!(body.len() > 1000, "{path}: {} bytes", body.len());
        }
        let js = app
            .get("/graphiql/graphiql.min.js")
            .send()
            .await
            .expect("answer")
            .text()
            .await
            .unwrap_or_default();
        assert!(
            js.contains("GraphiQL"),
            "decoded for a client (reqwest here) that did not ask for gzip"
        );

        let health: Value = app
            .get("/health")
            .send()
            .await
            .expect("answer")
            .json()
            .await
            .expect("json");
        assert_eq!(health["status"], "up");
        let resp = app.get("/ready").send().await.expect("answer");
        assert_eq!(resp.status().as_u16(), 200);
        let ready: Value = resp.json().await.expect("json");
        assert_eq!(ready["status"], "ready");
    })
    .await;
}

#[tokio::test]
async fn readiness_fails_when_a_migration_is_not_applied() {
    on_each_backend(false, |app| async move {
        fomento_api::startup::migrate(&app.db, fomento_api::config::MigrateAction::Down { steps: 1 })
            .await
            .expect("roll back the last migration");
        let resp = app.get("/ready").send().await.expect("answer");
        assert_eq!(resp.status().as_u16(), 503);
        let body: Value = resp.json().await.expect("json");
        assert_eq!(body["reason"], "1 migrations pending", "{body}");
    })
    .await;
}

/// Every plain field of a carta, its connection, edge and page info, and its bank, borrower and municipality.
const PLAIN_CARTA: &str = "__typename id programme number amount status stage line activity submittedOn decidedOn \
    contractedOn receivedByCouncilAt decision decidedBy approvedOn contractedAmount termMonths graceMonths \
    existingSires artificialInsemination presentedOn specialDemand professionalName \
    bank { __typename id code name programmes mdaCooperationAgreement } \
    party { __typename id document documentKind cnpjRoot name } \
    municipality { __typename id ibgeCode name uf region }";

/// Every plain field of a social-fuel project, with its relations.
const PLAIN_PROJECT: &str = "__typename id programme title amount status stage submittedOn decidedOn contractedOn \
    bankFramedOn analysedByBank decision decisionLetter scheduledImplementationEnd scheduleDelayAccepted \
    industrialStartOn externalEvaluationOn evaluationResult sealRequestedOn extensionRequestedOn \
    extensionGrantedOn extensionJustification extensionRefusedOn extensionDecisionReason evaluationFinding \
    justificationsAcceptedOn justificationsReason unframedOn unframingReason \
    bank { name } party { document name documentKind } municipality { name uf region }";

/// Every field of a financing's judged outcomes and deadlines, on two days.
const JUDGED: &str = "compliance(asOf: \"2021-03-01\") { __typename ruleCode status legalBasis explanation } \
    deadlines(asOf: \"2021-03-01\") { __typename ruleCode dueDate dueAt status legalBasis countingNote } \
    c: compliance { ruleCode status explanation } d: deadlines { ruleCode dueDate dueAt status countingNote }";

#[tokio::test]
async fn plain_selections_answer_as_the_executor_does() {
    on_each_backend(true, |app| async move {
        // A second server on the same database that resolves every field through the executor.
        let (slow, running) =
            crate::helpers::start(app.url.clone(), app.backend, false, |s| s.plain_reads = false).await;
        let page = format!(
            "__typename totalCount pageInfo {{ __typename hasPreviousPage hasNextPage startCursor endCursor }} \
             edges {{ __typename cursor node {{ {PLAIN_CARTA} }} }} nodes {{ id amount }}"
        );
        let queries = [
            format!("{{ fcoCartas(first: 100) {{ {page} }} }}"),
            format!("{{ fcoCartas(last: 7, orderBy: {{ field: AMOUNT, direction: ASC }}) {{ {page} }} }}"),
            "{ fcoCartas(first: 3) { edges { node { x: amount y: amount z: id } } } }".to_owned(),
            // Not plain: the executor answers, whole.
            "{ fcoCartas(first: 5) { edges { node { number compliance { ruleCode status } } } } }".to_owned(),
            "{ fcoCartas(first: 5) { edges { node { ... on FcoCarta { number } amount } } } }".to_owned(),
            "{ fcoCartas(first: 5) { edges { node { number amount @include(if: false) } } } }".to_owned(),
            "{ fcoCartas(first: 5) { edges { node { bank { name } bank { code } } } } }".to_owned(),
            "{ fcoCartas(first: 5, filter: { stages: [CONTRACTED] }) { totalCount nodes { number amount stage } } }"
                .to_owned(),
            format!(
                "{{ socialFuelProjects(first: 100) {{ totalCount edges {{ cursor node {{ {PLAIN_PROJECT} }} }} }} }}"
            ),
            "{ socialFuelProjects(first: 4) { nodes { title deadlines { ruleCode status } } } }".to_owned(),
            // Judged outcomes, every field of each (the texts too), on two days.
            format!("{{ fcoCartas(first: 40) {{ nodes {{ number {JUDGED} }} }} }}"),
            format!("{{ socialFuelProjects(first: 40) {{ nodes {{ title {JUDGED} }} }} }}"),
            "{ financings(first: 30) { nodes { ... on FcoCarta { compliance(asOf: \"2024-06-03\") { ruleCode status } deadlines(asOf: \"2024-06-03\") { ruleCode dueDate dueAt status } } ... on SocialFuelProject { compliance { ruleCode status legalBasis } deadlines { ruleCode status } } } } }".to_owned(),
        ];
        // As the admin, an analyst (a person's CPF and name masked) and MDA (masking that depends on the person's
        // programmes, read from the database).
        let mut keys = vec![("admin", app.key.clone())];
        for role in ["analyst", "mda"] {
            keys.push((role, app.key_of(role, None).await));
        }
        let mut masked = 0;
        for (role, key) in &keys {
            let client = crate::helpers::client_with(key);
            for q in &queries {
                let ask = |base: String| {
                    let client = client.clone();
                    async move {
                        let resp = client
                            .post(format!("{base}/graphql"))
                            .json(&json!({ "query": q }))
                            .send()
                            .await
                            .expect("an answer");
                        resp.text().await.expect("a body")
                    }
                };
                let (fast, executor) = (ask(app.base.clone()).await, ask(slow.base.clone()).await);
                // Byte for byte: the same values, and the keys in the same (the selection's) order.
                assert_eq!(fast, executor, "{role}: {q}");
                let fast: Value = serde_json::from_str(&fast).expect("json");
                assert!(fast.get("errors").is_none(), "{role} {q}: {fast}");
                let list = fast["data"].as_object().and_then(|d| d.values().next()).cloned();
                assert!(list.is_some_and(|l| l.is_object()), "{role} {q}: {fast}");
                masked += fast.to_string().matches("***.").count();
            }
        }
        assert!(
            masked > 0,
            "some borrower's CPF is masked for the analyst (the demo has persons)"
        );
        running.stop().await;
    })
    .await;
}

/// The keys of an answer's object, in the order they were written.
fn keys(v: &Value) -> Vec<&str> {
    v.as_object().expect("an object").keys().map(String::as_str).collect()
}

#[tokio::test]
async fn answers_keep_the_order_of_the_selection_on_every_path() {
    on_each_backend(true, |app| async move {
        let nodes = "nodes { number amount bank { name code } id }";
        // Read at once (plain fields only), through the executor (a fragment), and completed after an error.
        let cases = [
            (format!("{{ z: banks(first: 1) {{ totalCount }} fcoCartas(first: 2) {{ {nodes} }} a: banks(first: 1) {{ totalCount }} }}"), vec!["z", "fcoCartas", "a"]),
            (format!("{{ z: banks(first: 1) {{ totalCount }} ... on Query {{ fcoCartas(first: 2) {{ {nodes} }} }} a: banks(first: 1) {{ totalCount }} }}"), vec!["z", "fcoCartas", "a"]),
            (format!("{{ z: banks(first: 1) {{ totalCount }} x: node(id: \"zz\") {{ id }} fcoCartas(first: 2) {{ {nodes} }} a: banks(first: 1) {{ totalCount }} }}"), vec!["z", "x", "fcoCartas", "a"]),
        ];
        // A field that needs nothing (`__typename`) after one that reads the database.
        let (_, body) = app.gql("{ z: fcoCartas(first: 1) { totalCount } t: __typename }", Value::Null).await;
        assert_eq!(keys(&body["data"]), ["z", "t"], "{body}");
        for (query, root) in cases {
            let (status, body) = app.gql(&query, Value::Null).await;
            assert_eq!(status, 200, "{query}: {body}");
            assert_eq!(keys(&body["data"]), root, "{query}: {body}");
            let first = &body["data"]["fcoCartas"]["nodes"][0];
            assert_eq!(keys(first), ["number", "amount", "bank", "id"], "{query}: {body}");
            assert_eq!(keys(&first["bank"]), ["name", "code"], "{query}: {body}");
        }
    })
    .await;
}
