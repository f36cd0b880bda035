//! Access control (issue 15, items 1 and 2): API keys at the door, roles checked in the service layer, and a bank's
//! key confined to its own bank, tried by ID, by filter, by `node(id:)`, through the exports and through uploads.

use crate::helpers::{TestApp, client_with, on_each_backend};
use fomento_api::graphql::ids::{NodeKind, encode};
use serde_json::{Value, json};

/// POSTs `query` with `key` (none: no credentials); the status and body.
async fn as_key(app: &TestApp, key: Option<&str>, query: &str, variables: Value) -> (u16, Value) {
    let client = key.map_or_else(reqwest::Client::new, client_with);
    let resp = client
        .post(format!("{}/graphql", app.base))
        .header("accept", "application/graphql-response+json")
        .header("accept-language", "en")
        .json(&json!({ "query": query, "variables": variables }))
        .send()
        .await
        .expect("the server answers");
    (resp.status().as_u16(), resp.json().await.expect("JSON"))
}

/// `GET /exports/{file}` with `key`: the status and the text.
async fn export(app: &TestApp, key: &str, file: &str) -> (u16, String) {
    let resp = client_with(key)
        .get(format!("{}/exports/{file}", app.base))
        .send()
        .await
        .expect("the server answers");
    (resp.status().as_u16(), resp.text().await.expect("text"))
}

/// The first error's code, or `OK` when there is none.
fn code(body: &Value) -> String {
    body["errors"][0]["extensions"]["code"]
        .as_str()
        .map_or_else(|| "OK".to_owned(), str::to_owned)
}

#[tokio::test]
async fn without_a_valid_key_only_the_probes_answer() {
    on_each_backend(false, |app| async move {
        let (status, body) = as_key(&app, None, "{ banks(first: 1) { totalCount } }", json!({})).await;
        assert_eq!((status, code(&body).as_str()), (401, "UNAUTHENTICATED"), "{body}");
        let (status, body) = as_key(&app, Some("fmt_0000"), "{ banks(first: 1) { totalCount } }", json!({})).await;
        assert_eq!(
            (status, code(&body).as_str()),
            (401, "UNAUTHENTICATED"),
            "a bad key: {body}"
        );
        let anonymous = reqwest::Client::new();
        for path in ["/exports/flags.csv", "/dashboard", "/bank-reports/1/errors.xlsx"] {
            let r = anonymous
                .get(format!("{}{path}", app.base))
                .send()
                .await
                .expect("answer");
            assert_eq!(r.status().as_u16(), 401, "{path}");
            assert!(r.headers().contains_key("www-authenticate"), "{path}");
        }
        for path in ["/health", "/ready"] {
            let r = anonymous
                .get(format!("{}{path}", app.base))
                .send()
                .await
                .expect("answer");
            assert_eq!(r.status().as_u16(), 200, "{path}");
        }
        // A revoked key is refused at once.
        let key = app.key_of("analyst", None).await;
        let (status, _) = as_key(&app, Some(&key), "{ banks(first: 1) { totalCount } }", json!({})).await;
        assert_eq!(status, 200);
        let prefix = &key[..12];
        service::keys::revoke(&app.db, &service::Caller::System, prefix, chrono::Utc::now())
            .await
            .expect("revoked");
        let (status, body) = as_key(&app, Some(&key), "{ banks(first: 1) { totalCount } }", json!({})).await;
        assert_eq!((status, code(&body).as_str()), (401, "UNAUTHENTICATED"), "{body}");
    })
    .await;
}

/// Each role against one mutation of each family (on an object that does not exist, so that an allowed call answers
/// `NOT_FOUND` and changes nothing), and the dashboards: allowed, or `FORBIDDEN` before the resolver runs.
#[tokio::test]
async fn each_role_may_do_its_own_work_and_is_forbidden_the_rest() {
    on_each_backend(true, |app| async move {
        let carta = encode(NodeKind::FcoCarta, 999_999);
        let project = encode(NodeKind::SocialFuelProject, 999_999);
        let flag = encode(NodeKind::ComplianceFlag, 999_999);
        let families = [
            ("social fuel", "mutation($id: ID!) { fileSocialFuelProject(id: $id) { id } }", json!({ "id": project })),
            ("chamber", "mutation($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true) { id } }", json!({ "id": carta })),
            ("bank data", "mutation($id: ID!) { submitFcoCarta(id: $id) { id } }", json!({ "id": carta })),
            ("administer", "mutation { withdrawRuleParameterVersion(versionId: 999999, reason: \"test\") { key } }", json!({})),
            ("resolve flag", "mutation($id: ID!) { resolveComplianceFlag(input: { id: $id, resolvedBy: \"x\", reason: \"y\" }) { flag { id } } }", json!({ "id": flag })),
            ("dashboards", "{ complianceDashboard { asOf } }", json!({})),
            ("read", "{ banks(first: 1) { totalCount } }", json!({})),
        ];
        // What each role may do, family by family (in the order above).
        let table = [
            ("admin", None, [true, true, true, true, true, true, true]),
            ("mda", None, [true, false, false, false, true, true, true]),
            ("council", None, [false, true, false, false, true, true, true]),
            ("analyst", None, [false, false, false, false, false, true, true]),
            ("bank", Some("SICREDI"), [false, false, true, false, false, false, true]),
        ];
        for (role, bank, allowed) in table {
            let key = app.key_of(role, bank).await;
            for ((family, query, vars), may) in families.iter().zip(allowed) {
                let (_, body) = as_key(&app, Some(&key), query, vars.clone()).await;
                let got = code(&body);
                if may {
                    assert!(matches!(got.as_str(), "OK" | "NOT_FOUND" | "BAD_USER_INPUT"), "{role} may {family}: {body}");
                } else {
                    assert_eq!(got, "FORBIDDEN", "{role} may not {family}: {body}");
                    assert!(body["errors"][0]["message"].as_str().is_some_and(|m| m.contains(role)), "{body}");
                }
            }
        }
    })
    .await;
}

/// A Sicredi key sees and touches Sicredi's cartas only: another bank's carta by ID, by filter, by `node(id:)`,
/// through the CSV export and through an upload in its name answers as if it did not exist.
#[tokio::test]
async fn a_banks_key_never_reaches_another_banks_data() {
    on_each_backend(true, |app| async move {
        let sicredi = app.key_of("bank", Some("SICREDI")).await;
        let all = app
            .data("{ fcoCartas(first: 100) { totalCount nodes { id bank { code } } } banks(first: 20) { nodes { id code } } }", json!({}))
            .await;
        let bank_id = |code: &str| {
            all["banks"]["nodes"]
                .as_array()
                .and_then(|b| b.iter().find(|b| b["code"] == code))
                .map(|b| b["id"].clone())
                .expect("bank")
        };
        let other = all["fcoCartas"]["nodes"]
            .as_array()
            .and_then(|n| n.iter().find(|c| c["bank"]["code"] != "SICREDI"))
            .map(|c| c["id"].clone())
            .expect("another bank's carta");
        // Its list holds only its own cartas; a filter on another bank finds nothing.
        let (_, mine) = as_key(&app, Some(&sicredi), "{ fcoCartas(first: 100) { totalCount nodes { bank { code } } } }", json!({})).await;
        let nodes = mine["data"]["fcoCartas"]["nodes"].as_array().expect("nodes").clone();
        assert!(!nodes.is_empty() && nodes.iter().all(|c| c["bank"]["code"] == "SICREDI"), "{mine}");
        let total = mine["data"]["fcoCartas"]["totalCount"].as_u64().expect("count");
        assert!(total < all["fcoCartas"]["totalCount"].as_u64().expect("all"), "fewer than everybody's");
        let (_, filtered) = as_key(
            &app,
            Some(&sicredi),
            "query($b: [ID!]) { financings(filter: { bankIds: $b }) { totalCount } }",
            json!({ "b": [bank_id("BB")] }),
        )
        .await;
        assert_eq!(filtered["data"]["financings"]["totalCount"], 0, "{filtered}");
        // By node, and by a mutation on it: as if it did not exist.
        let (_, node) = as_key(&app, Some(&sicredi), "query($id: ID!) { node(id: $id) { id } }", json!({ "id": other })).await;
        assert_eq!(code(&node), "NOT_FOUND", "{node}");
        let (_, submit) = as_key(&app, Some(&sicredi), "mutation($id: ID!) { submitFcoCarta(id: $id) { id } }", json!({ "id": other })).await;
        assert_eq!(code(&submit), "NOT_FOUND", "{submit}");
        // The export of cartas holds its own only.
        let (_, csv) = export(&app, &sicredi, "cartas.csv").await;
        assert_eq!(csv.lines().count() as u64, total + 1, "a header and its own cartas");
        // An upload in another bank's name: the bank does not exist for it; in its own, received.
        let upload = |bank: &'static str| {
            let form = reqwest::multipart::Form::new()
                .text("bank", bank)
                .text("month", "2026-10")
                .part("file", reqwest::multipart::Part::bytes(b"a;b\n".to_vec()).file_name("lista.csv"));
            client_with(&sicredi).post(format!("{}/bank-reports", app.base)).multipart(form).send()
        };
        assert_eq!(upload("BB").await.expect("answer").status().as_u16(), 404);
        assert_eq!(upload("SICREDI").await.expect("answer").status().as_u16(), 201);
        // Another bank's report, by its ID in the graph and through its error workbook: as if it did not exist.
        let (_, bb_report) = crate::reports::upload(&app, "BB", "2026-10", "outubro.csv", b"a;b\n".to_vec()).await;
        let (_, graph) = as_key(
            &app,
            Some(&sicredi),
            "query($id: ID!) { bankReport(id: $id) { status } }",
            json!({ "id": bb_report["id"] }),
        )
        .await;
        assert_eq!(code(&graph), "NOT_FOUND", "{graph}");
        let number = bb_report["number"].as_i64().expect("number");
        let workbook = client_with(&sicredi)
            .get(format!("{}/bank-reports/{number}/errors.xlsx", app.base))
            .send()
            .await
            .expect("answer");
        assert_eq!(workbook.status().as_u16(), 404, "another bank's error workbook");
        // The dashboards are not a bank's.
        let (_, dash) = as_key(&app, Some(&sicredi), "{ complianceDashboard { asOf } }", json!({})).await;
        assert_eq!(code(&dash), "FORBIDDEN");
    })
    .await;
}

/// The alias bomb of the acceptance report (30 aliases of a 100-item page with every rule's outcome and deadline)
/// is refused before it runs, naming the limit; one such page, the heaviest a front-end sends, runs.
#[tokio::test]
async fn a_query_too_costly_is_refused_before_it_runs() {
    on_each_backend(true, |app| async move {
        let page = "financings(first: 100) { totalCount nodes { ... on FcoCarta { amount bank { name } \
                    compliance { ruleCode status explanation } deadlines { ruleCode status } } } }";
        let one = format!("{{ {page} }}");
        let (status, body) = app.gql(&one, json!({})).await;
        assert_eq!((status, code(&body).as_str()), (200, "OK"), "one heavy page runs");
        let bomb = format!(
            "{{ {} }}",
            (0..30).map(|i| format!("a{i}: {page}")).collect::<Vec<_>>().join(" ")
        );
        let (_, body) = app.gql(&bomb, json!({})).await;
        assert_eq!(code(&body), "QUERY_TOO_COSTLY", "{body}");
        assert!(body["data"].is_null(), "nothing ran: {body}");
        assert!(body["errors"][0]["message"].as_str().is_some_and(|m| m.contains("10000")), "{body}");
        // A variable page size counts as its value.
        let (_, body) = app
            .gql(
                "query($n: Int) { a: financings(first: $n) { nodes { amount } } b: financings(first: $n) { nodes { amount } } }",
                json!({ "n": 100 }),
            )
            .await;
        assert_eq!(code(&body), "OK", "{body}");
        let huge = format!("{{ banks(first: 1) {{ totalCount }} }} #{}", "x".repeat(70_000));
        let (_, body) = app.gql(&huge, json!({})).await;
        assert_eq!(code(&body), "QUERY_TOO_LARGE", "{body}");
    })
    .await;
}

/// A borrower who is a person (CPF) is masked for an analyst and for MDA on an FCO carta, whole for the chamber and
/// the administrator: in the graph and in the CSV export alike; a company's CNPJ is shown to all.
#[tokio::test]
async fn a_persons_cpf_and_name_are_masked_for_who_may_not_see_them() {
    on_each_backend(true, |app| async move {
        let q = "{ fcoCartas(first: 100) { nodes { number party { document documentKind name } } } }";
        let whole = app.data(q, json!({})).await;
        let person = whole["fcoCartas"]["nodes"]
            .as_array()
            .and_then(|n| n.iter().find(|c| c["party"]["documentKind"] == "CPF"))
            .cloned()
            .expect("a carta of a person");
        let company = whole["fcoCartas"]["nodes"]
            .as_array()
            .and_then(|n| n.iter().find(|c| c["party"]["documentKind"] == "CNPJ"))
            .cloned()
            .expect("a carta of a company");
        let (cpf, name) = (
            person["party"]["document"].as_str().expect("cpf").to_owned(),
            person["party"]["name"].as_str().expect("name").to_owned(),
        );
        let digits: String = cpf.chars().filter(char::is_ascii_digit).collect();
        let masked = format!("***.{}.{}-**", &digits[3..6], &digits[6..9]);
        for (role, sees) in [("analyst", false), ("mda", false), ("council", true), ("admin", true)] {
            let key = app.key_of(role, None).await;
            let (_, body) = as_key(&app, Some(&key), q, json!({})).await;
            let nodes = body["data"]["fcoCartas"]["nodes"].as_array().expect("nodes").clone();
            let theirs = nodes
                .iter()
                .find(|c| c["number"] == person["number"])
                .expect("the carta");
            let company_theirs = nodes
                .iter()
                .find(|c| c["number"] == company["number"])
                .expect("the company's");
            assert_eq!(
                company_theirs["party"]["document"], company["party"]["document"],
                "{role}: a CNPJ is shown"
            );
            let (_, csv) = export(&app, &key, "cartas.csv").await;
            if sees {
                assert_eq!(theirs["party"]["document"], cpf.as_str(), "{role}");
                assert_eq!(theirs["party"]["name"], name.as_str(), "{role}");
                assert!(csv.contains(&name), "{role}: the name in the export");
            } else {
                assert_eq!(theirs["party"]["document"], masked.as_str(), "{role}");
                assert_ne!(theirs["party"]["name"], name.as_str(), "{role}");
                assert!(
                    !csv.contains(&name) && !csv.contains(&digits),
                    "{role}: nothing whole in the export"
                );
                assert!(csv.contains(&masked), "{role}: the masked CPF in the export");
            }
        }
    })
    .await;
}

/// The audit log records mutations (done, refused, failed), exports, key operations and calls without credentials,
/// with who, what and from where; only the administrator reads it; nothing may change or delete a line.
#[tokio::test]
async fn the_audit_log_records_who_did_what_and_is_append_only() {
    use sea_orm::ConnectionTrait;
    on_each_backend(false, |app| async move {
        let analyst = app.key_of("analyst", None).await;
        as_key(&app, None, "{ banks(first: 1) { totalCount } }", json!({})).await;
        let refused = "mutation { withdrawRuleParameterVersion(versionId: 999999, reason: \"x\") { key } }";
        as_key(&app, Some(&analyst), refused, json!({})).await;
        as_key(&app, Some(&app.key), refused, json!({})).await;
        app.data("mutation { createBank(input: { code: \"SICOOB\", name: \"Sicoob\", programmes: [FCO_RURAL] }) { bank { id } } }", json!({}))
            .await;
        assert_eq!(export(&app, &analyst, "cartas.csv").await.0, 200);
        assert_eq!(
            export(&app, &analyst, "audit.csv").await.0,
            403,
            "only the administrator reads the audit log"
        );
        let (_, csv) = export(&app, &app.key, "audit.csv").await;
        let line = |needle: &[&str]| csv.lines().any(|l| needle.iter().all(|n| l.contains(n)));
        assert!(line(&["anonymous", "POST /graphql", "DENIED", "UNAUTHENTICATED", "127.0.0.1"]), "{csv}");
        assert!(line(&["analyst key", "mutation withdrawRuleParameterVersion", "DENIED", "FORBIDDEN"]), "{csv}");
        assert!(line(&["tests (admin key", "mutation withdrawRuleParameterVersion", "ERROR", "NOT_FOUND"]), "{csv}");
        assert!(line(&["tests (admin key", "mutation createBank", ",OK,"]), "{csv}");
        assert!(line(&["analyst key", "export", "cartas.csv", ",OK,"]), "{csv}");
        assert!(line(&["system", "keys create", "(analyst)"]), "{csv}");
        // The same lines in the graph, newest first, paged by number.
        let d = app
            .data("{ auditLog(first: 3) { number actor action outcome code remote } }", json!({}))
            .await;
        let lines = d["auditLog"].as_array().expect("lines").clone();
        assert_eq!(lines.len(), 3, "{d}");
        assert!(lines[0]["number"].as_i64() > lines[1]["number"].as_i64(), "newest first: {d}");
        let before = lines[2]["number"].as_i64().expect("number");
        let d = app
            .data("query A($b: Int) { auditLog(first: 500, beforeNumber: $b) { number action } }", json!({ "b": before }))
            .await;
        let older = d["auditLog"].as_array().expect("lines");
        assert!(older.iter().all(|l| l["number"].as_i64() < Some(before)), "{d}");
        assert!(older.iter().any(|l| l["action"] == "mutation createBank"), "{d}");
        let mut refused = vec!["UPDATE audit_log SET outcome = 'OK'", "DELETE FROM audit_log"];
        if app.backend == crate::helpers::Backend::Postgres {
            // PostgreSQL's TRUNCATE fires no UPDATE or DELETE trigger: a trigger of its own refuses it.
            refused.extend(["TRUNCATE audit_log", "TRUNCATE TABLE audit_log RESTART IDENTITY CASCADE"]);
        }
        for sql in refused {
            assert!(app.db.execute_unprepared(sql).await.is_err(), "{sql} is refused");
        }
        let (_, after) = export(&app, &app.key, "audit.csv").await;
        assert!(after.lines().count() > csv.lines().count(), "the lines are all still there");
    })
    .await;
}

/// A bank's sheet quotes its borrowers: a report's row errors (in the graph) and its error workbook mask a person's
/// CPF and name for an analyst, and show them whole to the chamber and the administrator.
#[tokio::test]
async fn a_reports_errors_mask_the_persons_in_it_for_who_may_not_see_them() {
    use crate::reports::{C, cpf, good_row, upload, workbook};
    on_each_backend(true, |app| async move {
        let person = cpf(4242);
        let digits: String = person.chars().filter(char::is_ascii_digit).collect();
        let mut bad_amount = good_row("MASK-1", person.clone(), 0.0);
        bad_amount[1] = C::T("Maria da Silva Teste");
        bad_amount[8] = C::T("muito");
        // A CPF with wrong check digits: the offending value is a CPF all the same.
        let wrong = format!("{}{}", &digits[..9], if &digits[9..] == "00" { "11" } else { "00" });
        let mut bad_document = good_row("MASK-2", wrong.clone(), 150_000.0);
        bad_document[1] = C::T("Joana Pereira Teste");
        let (status, body) = upload(
            &app,
            "BB",
            "2019-05",
            "maio.xlsx",
            workbook(&[bad_amount, bad_document]),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now())
            .await
            .expect("ingest");
        let number = body["number"].as_i64().expect("number");
        let id = body["id"].clone();
        let q = "query R($id: ID!) { bankReport(id: $id) { status errors { row column value message } } }";
        for (role, sees) in [("analyst", false), ("council", true), ("admin", true)] {
            let key = app.key_of(role, None).await;
            let (_, body) = as_key(&app, Some(&key), q, json!({ "id": id })).await;
            let text = body.to_string();
            assert_eq!(body["data"]["bankReport"]["status"], "REJECTED", "{body}");
            let resp = client_with(&key)
                .get(format!("{}/bank-reports/{number}/errors.xlsx", app.base))
                .send()
                .await
                .expect("answer");
            assert_eq!(resp.status().as_u16(), 200, "{role}");
            let bytes = resp.bytes().await.expect("bytes").to_vec();
            let cells = jobs::report::read::read(&bytes, &Default::default()).expect("xlsx");
            let sheet: Vec<String> = cells.iter().flatten().map(|c| c.display()).collect();
            let whole_in_sheet = sheet.iter().any(|c| c.contains("Maria da Silva Teste"))
                && sheet
                    .iter()
                    .any(|c| c.chars().filter(char::is_ascii_digit).collect::<String>() == digits);
            if sees {
                assert!(
                    text.contains(&wrong),
                    "{role}: the offending CPF whole in the graph: {text}"
                );
                assert!(whole_in_sheet, "{role}: the sheet whole: {sheet:?}");
            } else {
                assert!(!text.contains(&wrong), "{role}: no whole CPF in the graph: {text}");
                assert!(text.contains("-**"), "{role}: the offending CPF masked: {text}");
                assert!(
                    !sheet
                        .iter()
                        .any(|c| c.contains("Maria da Silva Teste") || c.contains("Joana Pereira Teste")),
                    "{role}: no name whole in the sheet: {sheet:?}"
                );
                assert!(
                    sheet.iter().any(|c| c == "M. S. T."),
                    "{role}: the name as initials: {sheet:?}"
                );
                assert!(
                    !sheet.iter().any(|c| {
                        let d: String = c.chars().filter(char::is_ascii_digit).collect();
                        d == digits || d == wrong
                    }),
                    "{role}: no CPF whole in the sheet: {sheet:?}"
                );
                // The errors are still there to read: the row, the column, what is wrong.
                assert!(
                    sheet.iter().any(|c| c.contains("muito") || c.contains("valor")),
                    "{sheet:?}"
                );
            }
        }
    })
    .await;
}

/// A webhook receiver has no role: the CPFs a flag's message or resolution quotes reach it masked.
#[tokio::test]
async fn webhook_payloads_carry_no_whole_cpf() {
    use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
    on_each_backend(true, |app| async move {
        service::webhooks::add(
            &app.db,
            &service::Caller::System,
            chrono::Utc::now(),
            service::webhooks::NewWebhook {
                url: "http://127.0.0.1:9/hook".into(),
                secret: "a secret of sixteen+".into(),
                programme: None,
                bank_code: None,
                events: Vec::new(),
                lang: None,
            },
        )
        .await
        .expect("a receiver");
        let some = entity::compliance_flag::Entity::find()
            .one(&app.db)
            .await
            .expect("read")
            .expect("the demo has flags");
        let flag = entity::compliance_flag::ActiveModel {
            programme: Set(some.programme),
            financing_id: Set(some.financing_id),
            rule_code: Set("FCO-CEILING".into()),
            legal_basis: Set(some.legal_basis.clone()),
            message: Set("o grupo de 123.456.789-09 e 98765432100 passa do teto".into()),
            source: Set("test".into()),
            raised_at: Set(chrono::Utc::now()),
            subject_kind: Set(some.subject_kind.clone()),
            subject_id: Set(some.subject_id),
            occurrence: Set("webhook-test".into()),
            ..Default::default()
        }
        .insert(&app.db)
        .await
        .expect("a flag");
        let queued = service::webhooks::enqueue_flags(
            &app.db,
            &[service::events::FlagEvent {
                id: flag.id,
                change: service::events::FlagChange::Raised,
            }],
        )
        .await
        .expect("queued");
        assert_eq!(queued, 1);
        let delivery = entity::webhook_delivery::Entity::find()
            .filter(entity::webhook_delivery::Column::EventKey.eq(format!("flag.raised:{}", flag.id)))
            .one(&app.db)
            .await
            .expect("read")
            .expect("the delivery");
        assert!(
            !delivery.payload.contains("123.456.789-09") && !delivery.payload.contains("98765432100"),
            "{}",
            delivery.payload
        );
        assert!(delivery.payload.contains("***.456.789-**") && delivery.payload.contains("***.654.321-**"));
    })
    .await;
}
