//! The `flag-deadlines` job (issue 14, item 1): driven with explicit `asOf` days across a deadline's boundary, it
//! raises a flag once, turns a warning into a violation, resolves what the facts cleared, respects a person's
//! resolution until the facts change, and is not duplicated by reruns or by two workers at once.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::{
    facts::{all_documents, new_project},
    helpers::{Backend, TestApp, on_each_backend},
};
use chrono::{Datelike, Duration, NaiveDate, Utc, Weekday};
use serde_json::{Value, json};

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("a date")
}

/// Runs the job as of `as_of` through the runtime (`fomento jobs run flag-deadlines --as-of`), once per call.
async fn run(app: &TestApp, as_of: NaiveDate) -> String {
    let spec = jobs::registry::find("flag-deadlines").expect("registered");
    let slot = format!("test:{}", uuid::Uuid::new_v4());
    fomento_api::runtime::run_job_as_of(&app.runtime, spec, &slot, Some(as_of))
        .await
        .expect("the job runs")
        .expect("the slot is ours")
        .message
        .render(service::messages::Lang::En)
}

const FLAGS: &str = "query F($f: ComplianceFlagFilter) { complianceFlags(filter: $f, first: 100) { nodes {
    id number ruleCode severity dueOn open resolvedBy resolution message source subjectKind occurrence
    subject { __typename ... on SocialFuelProject { id } ... on Bank { code } ... on EconomicGroup { name } } } } }";

/// The job's flags on one rule, newest first.
async fn flags(app: &TestApp, rule: &str) -> Vec<Value> {
    app.data(
        FLAGS,
        json!({ "f": { "ruleCodes": [rule], "source": "job:flag-deadlines" } }),
    )
    .await["complianceFlags"]["nodes"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The job's flags on carta `id` (on `rule` only, when given), through the carta's `flags` field.
async fn carta_flags(app: &TestApp, id: &Value, rule: Option<&str>) -> Vec<Value> {
    let q = "query C($id: ID!) { node(id: $id) { ... on FcoCarta { flags { id ruleCode severity dueOn open source message resolution resolvedBy } } } }";
    app.data(q, json!({ "id": id })).await["node"]["flags"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter(|f| f["source"] == "job:flag-deadlines" && rule.is_none_or(|r| f["ruleCode"] == r))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// The demo's approved carta submitted last, and the last day of its 120 days (FCO-VALIDITY-120D).
async fn latest_approval(app: &TestApp) -> (Value, NaiveDate) {
    let d = app
        .data(
            "{ fcoCartas(first: 1, filter: { stages: [APPROVED] }, orderBy: { field: SUBMITTED_ON, direction: DESC }) { nodes { id deadlines { ruleCode dueDate } } } }",
            json!({}),
        )
        .await;
    let carta = d["fcoCartas"]["nodes"][0].clone();
    let due = carta["deadlines"]
        .as_array()
        .and_then(|l| l.iter().find(|o| o["ruleCode"] == "FCO-VALIDITY-120D"))
        .and_then(|o| o["dueDate"].as_str())
        .map(day)
        .expect("the validity's end");
    (carta, due)
}

/// A filed, undecided project: its SF-DECISION-30D flag across the boundary, a holiday moving it, a person's
/// resolution holding until the facts change, and the decision clearing it.
#[tokio::test]
async fn an_undecided_project_is_warned_then_flagged_overdue_once_and_cleared_by_its_decision() {
    on_each_backend(false, |app| async move {
        let p = new_project(&app, Some("2015-03-03")).await;
        all_documents(&app, &p).await;
        app.data("mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2015-03-05\") { stage } }", json!({ "id": p }))
            .await;
        let due_of = |as_of: &'static str| {
            let (app, p) = (&app, p.clone());
            async move {
                let q = "query Q($id: ID!, $d: Date!) { node(id: $id) { ... on SocialFuelProject { deadlines(asOf: $d) { ruleCode dueDate } } } }";
                let d = app.data(q, json!({ "id": p, "d": as_of })).await;
                let due = d["node"]["deadlines"]
                    .as_array()
                    .and_then(|l| l.iter().find(|o| o["ruleCode"] == "SF-DECISION-30D"))
                    .map(|o| o["dueDate"].as_str().unwrap_or("").to_owned())
                    .expect("the decision deadline");
                day(&due)
            }
        };
        // Filed on Thursday 5 March 2026: 30 days end on Saturday 4 April, after Good Friday; the next business day.
        let due = due_of("2015-03-20").await;
        assert_eq!(due, day("2015-04-06"), "moved past the weekend to Monday");
        assert_ne!(due.weekday(), Weekday::Sat);

        // Eleven days before: outside the 10-day window, nothing.
        run(&app, due - Duration::days(11)).await;
        assert!(flags(&app, "SF-DECISION-30D").await.is_empty(), "outside the window");
        // Ten days before: a warning, due that day.
        run(&app, due - Duration::days(10)).await;
        let warned = flags(&app, "SF-DECISION-30D").await;
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert_eq!(warned[0]["severity"], "WARNING");
        assert_eq!(warned[0]["dueOn"], due.to_string());
        assert_eq!(warned[0]["subject"]["id"], p);
        assert_eq!(warned[0]["subjectKind"], "FINANCING");
        // The day it falls due: still a warning, the same flag.
        run(&app, due).await;
        let same = flags(&app, "SF-DECISION-30D").await;
        assert_eq!((same.len(), &same[0]["number"], &same[0]["severity"]), (1, &warned[0]["number"], &json!("WARNING")));
        // The day after: the same flag, now a violation; a rerun changes nothing.
        run(&app, due + Duration::days(1)).await;
        let again = run(&app, due + Duration::days(1)).await;
        assert!(again.contains("0 flags raised, 0 changed, 0 resolved"), "{again}");
        let overdue = flags(&app, "SF-DECISION-30D").await;
        assert_eq!(overdue.len(), 1, "not duplicated: {overdue:?}");
        assert_eq!((&overdue[0]["number"], &overdue[0]["severity"], overdue[0]["open"].as_bool()), (&warned[0]["number"], &json!("VIOLATION"), Some(true)));
        // Stored as its message id and values, it reads in Portuguese by default and in English on request.
        let message = overdue[0]["message"].as_str().unwrap_or_default();
        assert!(message.contains("vencido há") && message.contains("Lei 9.784/1999, art. 66"), "{message}");
        assert!(!message.contains("overdue") && !message.contains(" days"), "no English left: {message}");
        let (_, english) = app
            .gql_in(Some("en"), FLAGS, json!({ "f": { "ruleCodes": ["SF-DECISION-30D"], "source": "job:flag-deadlines" } }))
            .await;
        let english = english["data"]["complianceFlags"]["nodes"][0]["message"].as_str().unwrap_or_default().to_owned();
        assert!(english.contains("Not done; overdue by 1 day on"), "{english}");

        // An MDA analyst resolves it by hand: it stays resolved on the next runs while the facts are the same.
        let resolve = "mutation R($i: ResolveComplianceFlagInput!) { resolveComplianceFlag(input: $i) { flag { open resolvedBy resolution } } }";
        let r = app
            .data(resolve, json!({ "i": { "id": overdue[0]["id"], "resolvedBy": "Ana Analista (MDA)", "reason": "decisão assinada, aguardando registro" } }))
            .await;
        assert_eq!(r["resolveComplianceFlag"]["flag"]["open"], false);
        assert_eq!(r["resolveComplianceFlag"]["flag"]["resolvedBy"], "Ana Analista (MDA)");
        let (message, code) = app
            .error(resolve, json!({ "i": { "id": overdue[0]["id"], "resolvedBy": "Ana", "reason": "de novo" } }))
            .await;
        assert_eq!(code, "BAD_USER_INPUT", "{message}");
        let (_, code) = app.error(resolve, json!({ "i": { "id": overdue[0]["id"], "resolvedBy": "Ana", "reason": "  " } })).await;
        assert_eq!(code, "BAD_USER_INPUT", "a reason is required");
        let held = run(&app, due + Duration::days(2)).await;
        assert!(held.contains("1 held by a person's resolution"), "{held}");
        assert!(flags(&app, "SF-DECISION-30D").await.iter().all(|f| f["open"] == false));

        // The facts change: a closure declared on the due day moves the deadline a business day later. The person's
        // resolution was about the old deadline, so the job raises a new flag on the new one.
        app.data("mutation { addNonBusinessDay(day: \"2015-04-06\", reason: \"Ponto facultativo (teste)\") { day } }", json!({}))
            .await;
        let moved = due_of("2015-03-20").await;
        assert_eq!(moved, day("2015-04-07"));
        run(&app, moved).await;
        let list = flags(&app, "SF-DECISION-30D").await;
        let open: Vec<&Value> = list.iter().filter(|f| f["open"] == true).collect();
        assert_eq!(open.len(), 1, "{list:?}");
        assert_eq!((&open[0]["severity"], &open[0]["dueOn"]), (&json!("WARNING"), &json!("2015-04-07")), "due today after the closure");

        // MDA decides, late: the job resolves the flag, saying why.
        app.data(
            "mutation M($id: ID!) { decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: \"2015-04-09\", letter: \"Ofício 1/2015\", overrideReason: \"sem propostas registradas neste teste\") { id } }",
            json!({ "id": p }),
        )
        .await;
        run(&app, day("2015-04-09")).await;
        let after = flags(&app, "SF-DECISION-30D").await;
        assert!(after.iter().all(|f| f["open"] == false), "{after:?}");
        let by_job = after.iter().find(|f| f["resolvedBy"] == "job:flag-deadlines").expect("resolved by the job");
        // The reason is rendered when read (issue 43): Portuguese by default.
        assert!(
            by_job["resolution"].as_str().is_some_and(|r| r.starts_with("deixou de valer em 09/04/2015: ")),
            "{by_job}"
        );
    })
    .await;
}

/// Two workers judging at once on one database leave one flag per subject and rule (on PostgreSQL both succeed,
/// the second waiting for the first; SQLite serialises writers and may refuse the second, which reruns safely).
#[tokio::test]
async fn two_workers_at_once_do_not_duplicate_flags() {
    on_each_backend(true, |app| async move {
        let as_of = Utc::now().date_naive();
        let (a, b) = tokio::join!(
            service::deadline_flags::run(&app.db, as_of, Utc::now()),
            service::deadline_flags::run(&app.db, as_of, Utc::now()),
        );
        if app.backend == Backend::Postgres {
            assert!(a.is_ok() && b.is_ok(), "{a:?} {b:?}");
        } else {
            assert!(a.is_ok() || b.is_ok(), "{a:?} {b:?}");
        }
        let all = app
            .data("{ complianceFlags(first: 100, filter: { source: \"job:flag-deadlines\", open: true }) { nodes { ruleCode subjectKind occurrence subject { __typename ... on SocialFuelProject { id } ... on FcoCarta { id } ... on Bank { id } ... on ChamberMeeting { id } ... on EconomicGroup { id } } } } }", json!({}))
            .await;
        let nodes = all["complianceFlags"]["nodes"].as_array().cloned().unwrap_or_default();
        assert!(!nodes.is_empty(), "the demo has overdue deadlines");
        let mut keys: Vec<String> = nodes.iter().map(|n| format!("{}|{}|{}", n["ruleCode"], n["occurrence"], n["subject"])).collect();
        let total = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), total, "one open flag per subject, rule and occurrence");
    })
    .await;
}

/// On the demo data, today: the overdue MDA decisions, the banks' missing monthly lists (one flag per month) and the
/// flags on banks, meetings and groups answer with their subject.
#[tokio::test]
async fn the_demo_has_flags_on_projects_cartas_and_banks_with_their_subjects() {
    on_each_backend(true, |app| async move {
        // `serve --demo` judged the demo once on start; the job as of today finds nothing new.
        let today = service::Clock::System.today();
        let again = run(&app, today).await;
        assert!(again.contains("0 flags raised"), "{again}");
        let decisions = flags(&app, "SF-DECISION-30D").await;
        assert!(
            decisions
                .iter()
                .any(|f| f["severity"] == "VIOLATION" && f["subject"]["__typename"] == "SocialFuelProject"),
            "{decisions:?}"
        );
        let lists = flags(&app, "FCO-MONTHLY-LIST").await;
        for f in &lists {
            assert_eq!(f["subjectKind"], "BANK", "{f}");
            assert_eq!(f["subject"]["__typename"], "Bank", "{f}");
            assert!(f["occurrence"].as_str().is_some_and(|o| o.len() == 7), "a month: {f}");
        }
        let mut per_bank_month: Vec<String> = lists
            .iter()
            .map(|f| format!("{}|{}", f["subject"]["code"], f["occurrence"]))
            .collect();
        let n = per_bank_month.len();
        per_bank_month.sort();
        per_bank_month.dedup();
        assert_eq!(per_bank_month.len(), n, "one flag per bank and month");
        // The same list through the bank filter: a bank's own flags include its monthly lists.
        if let Some(f) = lists.first() {
            let bank = app
                .data(
                    "query B($c: String!) { bankByCode(code: $c) { id } }",
                    json!({ "c": f["subject"]["code"] }),
                )
                .await["bankByCode"]["id"]
                .clone();
            let mine = app
                .data(
                    FLAGS,
                    json!({ "f": { "bankIds": [bank], "ruleCodes": ["FCO-MONTHLY-LIST"] } }),
                )
                .await;
            assert!(
                !mine["complianceFlags"]["nodes"].as_array().is_none_or(Vec::is_empty),
                "{mine}"
            );
        }
    })
    .await;
}

/// A front-end subscribed to `flagRaised` over graphql-transport-ws hears of a flag raised through another database
/// connection, as another process would raise it (on PostgreSQL through LISTEN/NOTIFY).
#[tokio::test]
async fn a_subscriber_hears_of_a_flag_raised_by_another_connection() {
    use futures::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};
    on_each_backend(false, |app| async move {
        let p = new_project(&app, Some("2015-03-03")).await;
        all_documents(&app, &p).await;
        app.data("mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2015-03-05\") { stage } }", json!({ "id": p }))
            .await;
        let mut request = format!("{}/graphql/ws", app.base.replace("http://", "ws://")).into_client_request().expect("request");
        request
            .headers_mut()
            .insert("Sec-WebSocket-Protocol", "graphql-transport-ws".parse().expect("header"));
        let (mut ws, response) = tokio_tungstenite::connect_async(request).await.expect("websocket");
        assert_eq!(
            response.headers().get("sec-websocket-protocol").and_then(|v| v.to_str().ok()),
            Some("graphql-transport-ws")
        );
        ws.send(Message::text(json!({ "type": "connection_init", "payload": { "authorization": format!("Bearer {}", app.key) } }).to_string())).await.expect("init");
        let ack = ws.next().await.expect("ack").expect("frame");
        assert!(ack.to_text().is_ok_and(|t| t.contains("connection_ack")), "{ack:?}");
        let subscribe = json!({ "id": "1", "type": "subscribe", "payload": { "query":
            "subscription { flagRaised(filter: { ruleCodes: [\"SF-DECISION-30D\"] }) { ruleCode severity dueOn subject { __typename } } }" } });
        ws.send(Message::text(subscribe.to_string())).await.expect("subscribe");
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;

        let other = sea_orm::Database::connect(app.url.as_str()).await.expect("another connection");
        service::deadline_flags::run(&other, day("2015-04-07"), Utc::now()).await.expect("the job on the other connection");
        let _ = other.close().await;

        let event = loop {
            let m = tokio::time::timeout(std::time::Duration::from_secs(15), ws.next())
                .await
                .expect("a flag within 15 s")
                .expect("open")
                .expect("a frame");
            if let Message::Text(t) = m {
                break serde_json::from_str::<Value>(&t).expect("json");
            }
        };
        assert_eq!(event["type"], "next", "{event}");
        let flag = &event["payload"]["data"]["flagRaised"];
        assert_eq!((&flag["ruleCode"], &flag["severity"], &flag["dueOn"]), (&json!("SF-DECISION-30D"), &json!("VIOLATION"), &json!("2015-04-06")), "{event}");
        assert_eq!(flag["subject"]["__typename"], "SocialFuelProject");
        let _ = ws.close(None).await;
    })
    .await;
}

/// A pass's many events reach the process's bus, every one and in order: on PostgreSQL through the database (each
/// notification carries 200 events; one statement sends them all), heard by the server's `LISTEN`.
#[tokio::test]
async fn a_passs_many_events_reach_the_bus_in_order() {
    on_each_backend(false, |app| async move {
        use service::events::{FlagChange, FlagEvent};
        let mut heard = service::events::bus().subscribe();
        // Ids no flag has (the bus is shared by the tests running beside this one, whose flags have positive ids).
        let base = -1_000_000 * i64::from(app.backend == Backend::Postgres) - 1_000_000;
        let events: Vec<FlagEvent> = (0..450)
            .map(|i| FlagEvent {
                id: base - i,
                change: if i % 3 == 0 {
                    FlagChange::Resolved
                } else {
                    FlagChange::Raised
                },
            })
            .collect();
        service::events::announce(&app.db, &events).await.expect("announced");
        let mut got: Vec<FlagEvent> = Vec::new();
        while got.len() < events.len() {
            match tokio::time::timeout(std::time::Duration::from_secs(15), heard.recv()).await {
                Ok(Ok(e)) if e.id <= base && e.id > base - 450 && !got.contains(&e) => got.push(e),
                Ok(Ok(_)) => {}
                Ok(Err(e)) => panic!("the bus: {e}"),
                Err(_) => panic!("heard {} of {} events within 15 s", got.len(), events.len()),
            }
        }
        assert_eq!(got, events, "every event, in order");
    })
    .await;
}

/// An approved carta's 120 days (FCO-VALIDITY-120D) across the boundary, with its 15-day window: nothing sixteen days
/// before, a warning from fifteen days before to the last day, a violation the day after; contracting clears it.
#[tokio::test]
async fn an_approval_is_warned_within_fifteen_days_then_expired_and_cleared_by_its_contract() {
    on_each_backend(true, |app| async move {
        let (carta, due) = latest_approval(&app).await;
        // The demo was judged today at start; judge the days around the boundary.
        run(&app, due - Duration::days(16)).await;
        assert!(
            carta_flags(&app, &carta["id"], Some("FCO-VALIDITY-120D"))
                .await
                .iter()
                .all(|f| f["open"] == false),
            "outside the window"
        );
        run(&app, due - Duration::days(15)).await;
        let warned = carta_flags(&app, &carta["id"], Some("FCO-VALIDITY-120D")).await;
        let open: Vec<&Value> = warned.iter().filter(|f| f["open"] == true).collect();
        assert_eq!(open.len(), 1, "{warned:?}");
        assert_eq!(
            (&open[0]["severity"], &open[0]["dueOn"]),
            (&json!("WARNING"), &json!(due.to_string()))
        );
        // The pass judges quietly and writes aloud: the flag says how the 120 days were counted.
        let message = open[0]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("120 dias") && message.contains(&due.format("%d/%m/%Y").to_string()),
            "{message}"
        );
        run(&app, due).await;
        let last_day = carta_flags(&app, &carta["id"], Some("FCO-VALIDITY-120D")).await;
        assert_eq!(
            last_day
                .iter()
                .filter(|f| f["open"] == true && f["severity"] == "WARNING")
                .count(),
            1,
            "{last_day:?}"
        );
        run(&app, due + Duration::days(1)).await;
        let expired = carta_flags(&app, &carta["id"], Some("FCO-VALIDITY-120D")).await;
        assert_eq!(
            expired
                .iter()
                .filter(|f| f["open"] == true && f["severity"] == "VIOLATION")
                .count(),
            1,
            "{expired:?}"
        );
        assert_eq!(
            expired.iter().filter(|f| f["open"] == true).count(),
            1,
            "the same flag, not a second one"
        );
        // The contract signed today, within the 120 days (no act is recorded ahead of its day): the next pass,
        // after the last day, resolves the flag.
        app.data(
            "mutation K($id: ID!) { contractFcoCarta(id: $id) { id } }",
            json!({ "id": carta["id"] }),
        )
        .await;
        run(&app, due + Duration::days(2)).await;
        let after = carta_flags(&app, &carta["id"], Some("FCO-VALIDITY-120D")).await;
        assert!(after.iter().all(|f| f["open"] == false), "{after:?}");
        // Resolved with the deadline's own account (a carta with an open flag is judged aloud).
        assert!(
            after.iter().any(|f| f["resolution"]
                .as_str()
                .is_some_and(|r| r.contains("dentro dos 120 dias"))),
            "{after:?}"
        );
    })
    .await;
}

/// A person's resolution of a carta's flag holds while the flag's facts stay the same, and a new flag is raised when
/// they change. (On PostgreSQL the pass writes each batch's new carta flags while it judges the next: this one it must
/// leave to the comparison at the end, which holds it.)
#[tokio::test]
async fn a_persons_resolution_of_a_cartas_flag_holds_until_its_facts_change() {
    on_each_backend(true, |app| async move {
        let (carta, due) = latest_approval(&app).await;
        let validity = || carta_flags(&app, &carta["id"], Some("FCO-VALIDITY-120D"));
        run(&app, due - Duration::days(15)).await;
        let warned: Vec<Value> = validity().await.into_iter().filter(|f| f["open"] == true).collect();
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert_eq!(warned[0]["severity"], "WARNING");
        let resolve = "mutation R($i: ResolveComplianceFlagInput!) { resolveComplianceFlag(input: $i) { flag { open } } }";
        app.data(resolve, json!({ "i": { "id": warned[0]["id"], "resolvedBy": "Secretaria da CDAE", "reason": "contrato em assinatura" } }))
            .await;
        // Still a warning due the same day: held, not raised again.
        let held = run(&app, due - Duration::days(10)).await;
        assert!(held.contains("held by a person's resolution"), "{held}");
        let after = validity().await;
        assert_eq!(after.len(), 1, "no second flag: {after:?}");
        assert_eq!((&after[0]["open"], &after[0]["resolvedBy"]), (&json!(false), &json!("Secretaria da CDAE")));
        // Past its 120 days the facts changed (a violation): a new flag, the person's resolution kept in history.
        run(&app, due + Duration::days(1)).await;
        let changed = validity().await;
        let open: Vec<&Value> = changed.iter().filter(|f| f["open"] == true).collect();
        assert_eq!(open.len(), 1, "{changed:?}");
        assert_eq!(open[0]["severity"], "VIOLATION");
        assert!(changed.iter().any(|f| f["id"] == warned[0]["id"] && f["resolvedBy"] == "Secretaria da CDAE"), "{changed:?}");
    })
    .await;
}

/// Closed cartas (drafts, unfavourable and expired ones) raise nothing, and the pass does not read them, save those
/// with an open flag: an approval flagged past its 120 days and then marked expired has its flag resolved by the next
/// pass, with the carta's account; a carta left as a draft is never flagged.
#[tokio::test]
async fn an_expired_cartas_open_flag_is_resolved_though_closed_cartas_are_passed_over() {
    on_each_backend(true, |app| async move {
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let create = |number: &str| {
            json!({ "i": { "number": number, "bankId": bank, "borrowerDocument": "529.982.247-25",
                "borrowerName": "João Silva", "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "1000000.00",
                "municipalityCode": 5107909 } })
        };
        let new = "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }";
        let step = |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ id stage }} }}");
        let carta = app.data(new, create("FLAG-EXPIRED-1")).await["createFcoCarta"]["id"].clone();
        let draft = app.data(new, create("FLAG-DRAFT-1")).await["createFcoCarta"]["id"].clone();
        app.data(&step("submitFcoCarta", ", on: \"2026-03-02\""), json!({ "id": carta })).await;
        // Approved by the chamber on 2 March 2026: its 120 days end on 30 June (no chamber meeting recorded).
        app.data(
            &step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: true, on: \"2026-03-02\""),
            json!({ "id": carta }),
        )
        .await;
        run(&app, day("2026-07-01")).await;
        let open = carta_flags(&app, &carta, None).await;
        assert_eq!(
            open.iter()
                .filter(|f| f["open"] == true && f["ruleCode"] == "FCO-VALIDITY-120D" && f["severity"] == "VIOLATION")
                .count(),
            1,
            "{open:?}"
        );
        let expired = app.data(&step("expireFcoCarta", ", on: \"2026-07-01\""), json!({ "id": carta })).await;
        assert_eq!(expired["expireFcoCarta"]["stage"], "EXPIRED");
        run(&app, day("2026-07-02")).await;
        let after = carta_flags(&app, &carta, None).await;
        assert!(!after.is_empty() && after.iter().all(|f| f["open"] == false), "{after:?}");
        assert!(
            after.iter().any(|f| f["ruleCode"] == "FCO-VALIDITY-120D"
                && f["resolution"].as_str().is_some_and(|r| r.contains("the carta is Expired on 2026-07-02"))),
            "{after:?}"
        );
        // Read no more once its flags are resolved, it stays without a flag; so does the draft.
        run(&app, day("2026-07-03")).await;
        assert!(carta_flags(&app, &carta, None).await.iter().all(|f| f["open"] == false));
        assert!(carta_flags(&app, &draft, None).await.is_empty());
    })
    .await;
}

/// A group's open FCO-CEILING flag that its cartas no longer call for is resolved with the account of the group's
/// first closed carta (the pass reads the group's closed cartas, narrow, to find it: here on both backends with rows;
/// the demo's group also has a closed carta its batches read, so this does not tell which of the two spoke).
#[tokio::test]
async fn a_groups_open_flag_is_resolved_with_the_account_of_its_first_closed_carta() {
    on_each_backend(true, |app| async move {
        use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
        let member = entity::party::Entity::find()
            .filter(entity::party::Column::EconomicGroupId.is_not_null())
            .one(&app.db)
            .await
            .expect("read")
            .expect("the demo has a group member");
        let group = member.economic_group_id.expect("a group");
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        // A draft of the member's: closed, without a meeting or any act.
        app.data(
            "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
            json!({ "i": { "number": "GROUP-DRAFT-1", "bankId": bank, "borrowerDocument": member.document,
                "borrowerName": member.name, "line": "RURAL", "activity": "GRAINS", "financedAmount": "1000.00",
                "municipalityCode": 5107909 } }),
        )
        .await;
        let flag = entity::compliance_flag::ActiveModel {
            programme: Set(entity::vocab::Programme::FcoRural),
            rule_code: Set("FCO-CEILING".into()),
            legal_basis: Set("IN CDAE/MT 2019".into()),
            message: Set("over the ceiling".into()),
            source: Set("job:flag-deadlines".into()),
            raised_at: Set(Utc::now()),
            severity: Set("VIOLATION".into()),
            subject_kind: Set("GROUP".into()),
            subject_id: Set(group),
            occurrence: Set(String::new()),
            fingerprint: Set(Some("VIOLATION|test".into())),
            ..Default::default()
        }
        .insert(&app.db)
        .await
        .expect("a flag");
        let today = service::Clock::System.today();
        run(&app, today).await;
        let after = entity::compliance_flag::Entity::find_by_id(flag.id)
            .one(&app.db)
            .await
            .expect("read")
            .expect("the flag");
        assert!(after.resolved_at.is_some(), "{after:?}");
        // Stored as a message id and values (migration 60): English on request, Portuguese by default.
        assert_eq!(after.resolution.as_deref(), Some(""), "{after:?}");
        let why = service::l10n::flag_resolution(&after, service::messages::Lang::En).unwrap_or_default();
        assert!(
            why.starts_with(&format!("no longer called for on {today}: the carta is ")),
            "{why}"
        );
        let pt = service::l10n::flag_resolution(&after, service::messages::Lang::PtBr).unwrap_or_default();
        assert!(
            pt.starts_with(&format!("deixou de valer em {}: ", today.format("%d/%m/%Y"))),
            "{pt}"
        );
    })
    .await;
}

/// Of a group's closed cartas, the first (least id) says why the group's flag is resolved, whether the pass reads it
/// in its batches (a closed carta with an open flag of its own, or with an act dated after the day) or looks it up
/// for the group (one the batches pass over): in group A the carta passed over comes first, in group B a draft whose
/// submission is dated the next day.
#[tokio::test]
async fn a_groups_resolved_flag_names_its_first_closed_carta_whichever_way_it_was_read() {
    on_each_backend(false, |app| async move {
        use entity::{compliance_flag, fco_carta, vocab};
        use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
        app.data("mutation { createBank(input: { code: \"SICOOB\", name: \"Sicoob\", programmes: [FCO_RURAL] }) { bank { id } } }", json!({}))
            .await;
        let bank = app.data("{ bankByCode(code: \"SICOOB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let carta = |number: &'static str, n: u32| {
            let (app, bank) = (&app, bank.clone());
            async move {
                app.data(
                    "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                    json!({ "i": { "number": number, "bankId": bank, "borrowerDocument": crate::reports::cpf(n),
                        "borrowerName": format!("Tomador {n}"), "line": "RURAL", "activity": "GRAINS",
                        "financedAmount": "1000.00", "municipalityCode": 5107909 } }),
                )
                .await;
                fco_carta::Entity::find()
                    .filter(fco_carta::Column::Number.eq(number))
                    .one(&app.db)
                    .await
                    .expect("read")
                    .expect("the carta")
            }
        };
        // Created in this order: each group's first carta has the lesser id.
        let passed_over_first = carta("GROUP-A-1", 71).await;
        let flagged_second = carta("GROUP-A-2", 71).await;
        let submitted_later = carta("GROUP-B-1", 72).await;
        let passed_over_second = carta("GROUP-B-2", 72).await;
        for c in [&passed_over_first, &passed_over_second] {
            let mut expired: fco_carta::ActiveModel = c.clone().into();
            expired.stage = Set(vocab::FcoCartaStage::Expired);
            expired.status = Set(vocab::FinancingStatus::Ended);
            expired.update(&app.db).await.expect("expired");
        }
        let today = service::Clock::System.today();
        let mut later: fco_carta::ActiveModel = submitted_later.clone().into();
        later.submitted_on = Set(Some(today + Duration::days(1)));
        later.update(&app.db).await.expect("submitted the next day");
        let mut groups = Vec::new();
        for (name, n, party) in [("Grupo A", 71, passed_over_first.party_id), ("Grupo B", 72, submitted_later.party_id)] {
            let g = app
                .data(
                    "mutation G($i: CreateEconomicGroupInput!) { createEconomicGroup(input: $i) { group { name } } }",
                    json!({ "i": { "name": name, "kind": "GROUP", "memberDocuments": [crate::reports::cpf(n)] } }),
                )
                .await;
            assert_eq!(g["createEconomicGroup"]["group"]["name"], name);
            let party = entity::party::Entity::find_by_id(party)
                .one(&app.db)
                .await
                .expect("read")
                .expect("the borrower");
            groups.push(party.economic_group_id.expect("in the group"));
        }
        let open = |kind: &'static str, id: i64, rule: &'static str| compliance_flag::ActiveModel {
            programme: Set(vocab::Programme::FcoRural),
            rule_code: Set(rule.into()),
            legal_basis: Set("test".into()),
            message: Set("open".into()),
            source: Set("job:flag-deadlines".into()),
            raised_at: Set(Utc::now()),
            severity: Set("VIOLATION".into()),
            subject_kind: Set(kind.into()),
            subject_id: Set(id),
            occurrence: Set(String::new()),
            fingerprint: Set(Some("VIOLATION|test".into())),
            ..Default::default()
        };
        open("FINANCING", flagged_second.id, "FCO-VALIDITY-120D").insert(&app.db).await.expect("a carta's flag");
        let mut group_flags = Vec::new();
        for g in &groups {
            group_flags.push(open("GROUP", *g, "FCO-CEILING").insert(&app.db).await.expect("a group's flag").id);
        }
        run(&app, today).await;
        let mut why = Vec::new();
        for id in group_flags {
            let f = compliance_flag::Entity::find_by_id(id).one(&app.db).await.expect("read").expect("the flag");
            assert!(f.resolved_at.is_some(), "{f:?}");
            why.push(service::l10n::flag_resolution(&f, service::messages::Lang::En).unwrap_or_default());
        }
        assert_eq!(
            why,
            [
                format!("no longer called for on {today}: the carta is Expired on {today}"),
                format!("no longer called for on {today}: the carta is Draft on {today}"),
            ],
            "group A's first closed carta is passed over by the batches, group B's is read in them"
        );
    })
    .await;
}

/// Subscriptions take the key in `connection_init`: without one the connection is refused there; a bank's key hears
/// only of its own bank's flags (the administrator's subscription hears the same flag).
#[tokio::test]
async fn a_subscription_needs_a_key_and_a_bank_hears_only_its_own_flags() {
    use futures::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};
    on_each_backend(false, |app| async move {
        let p = crate::facts::new_project(&app, Some("2015-03-03")).await;
        crate::facts::all_documents(&app, &p).await;
        app.data("mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2015-03-05\") { stage } }", json!({ "id": p }))
            .await;
        app.data("mutation { createBank(input: { code: \"SICOOB\", name: \"Sicoob\", programmes: [FCO_RURAL] }) { bank { id } } }", json!({}))
            .await;
        let sicoob = app.key_of("bank", Some("SICOOB")).await;
        let connect = |key: Option<String>| {
            let url = format!("{}/graphql/ws", app.base.replace("http://", "ws://"));
            async move {
                let mut request = url.into_client_request().expect("request");
                request
                    .headers_mut()
                    .insert("Sec-WebSocket-Protocol", "graphql-transport-ws".parse().expect("header"));
                let (mut ws, _) = tokio_tungstenite::connect_async(request).await.expect("websocket");
                let payload = key.map_or(json!({}), |k| json!({ "authorization": format!("Bearer {k}") }));
                ws.send(Message::text(json!({ "type": "connection_init", "payload": payload }).to_string()))
                    .await
                    .expect("init");
                let answer = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next()).await.expect("an answer");
                (ws, answer)
            }
        };
        // Without a key: no acknowledgement, the connection is closed.
        let (_, refused) = connect(None).await;
        let acked = |a: &Option<Result<Message, _>>| {
            a.as_ref().and_then(|m| m.as_ref().ok()).and_then(|m| m.to_text().ok()).is_some_and(|t| t.contains("connection_ack"))
        };
        assert!(!acked(&refused), "refused without a key: {refused:?}");
        let subscribe = json!({ "id": "1", "type": "subscribe", "payload": { "query":
            "subscription { flagRaised(filter: { ruleCodes: [\"SF-DECISION-30D\"] }) { ruleCode } }" } })
        .to_string();
        let (mut admin, ack) = connect(Some(app.key.clone())).await;
        assert!(acked(&ack));
        let (mut bank, ack) = connect(Some(sicoob)).await;
        assert!(acked(&ack));
        for ws in [&mut admin, &mut bank] {
            ws.send(Message::text(subscribe.clone())).await.expect("subscribe");
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        service::deadline_flags::run(&app.db, day("2015-04-07"), Utc::now()).await.expect("the job");
        async fn heard(ws: &mut (impl futures::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin), secs: u64) -> bool {
            matches!(
                tokio::time::timeout(std::time::Duration::from_secs(secs), ws.next()).await,
                Ok(Some(Ok(Message::Text(t)))) if t.contains("flagRaised")
            )
        }
        assert!(heard(&mut admin, 15).await, "the administrator hears of BB's project's flag");
        assert!(!heard(&mut bank, 3).await, "Sicoob does not");
    })
    .await;
}

/// Issue 42, item 4: a deadline of IN MDA nº 2/2005 falling after its revocation (24 May 2021) raises no flag today and
/// says why; one due on 24 May 2021 itself still does.
#[tokio::test]
async fn deadlines_of_the_revoked_instrument_falling_after_its_revocation_raise_no_flag() {
    on_each_backend(false, |app| async move {
        let mut projects = Vec::new();
        // Filed on Friday 23 April 2021: 30 days end on Sunday 23 May, moved to Monday 24 May, the last day in force;
        // filed on Monday 26 April: due on 26 May, after the revocation.
        let first = new_project(&app, Some("2021-04-01")).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let second = app
            .data(
                "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
                json!({ "i": { "title": "Usina 2", "bankId": bb, "producerDocument": "11.222.333/0001-81", "plantMunicipalityCode": 5103403,
                    "requestedAmount": "2000000.00", "bankFramedOn": "2021-04-01" } }),
            )
            .await["createSocialFuelProject"]["id"]
            .clone();
        for (filed, p) in [("2021-04-23", first), ("2021-04-26", second)] {
            crate::facts::documents_received(&app, &p, "2021-04-20").await;
            app.data("mutation F($id: ID!, $on: Date!) { fileSocialFuelProject(id: $id, on: $on) { stage } }", json!({ "id": p, "on": filed }))
                .await;
            projects.push(p);
        }
        let today = Utc::now().date_naive();
        run(&app, today).await;
        let open: Vec<Value> = flags(&app, "SF-DECISION-30D").await.into_iter().filter(|f| f["open"] == true).collect();
        assert_eq!(open.len(), 1, "only the deadline due while the instrument was in force: {open:?}");
        assert_eq!((&open[0]["dueOn"], &open[0]["subject"]["id"]), (&json!("2021-05-24"), &projects[0]), "{open:?}");
        let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { deadlines { ruleCode status dueDate countingNote } } } }";
        let d = app.data(q, json!({ "id": projects[1] })).await;
        let decision = d["node"]["deadlines"]
            .as_array()
            .and_then(|l| l.iter().find(|o| o["ruleCode"] == "SF-DECISION-30D").cloned())
            .expect("the decision deadline");
        assert_eq!((decision["status"].as_str(), decision["dueDate"].as_str()), (Some("NOT_APPLICABLE"), Some("2021-05-26")), "{decision}");
        assert!(
            decision["countingNote"].as_str().is_some_and(|n| n.contains("Portaria n° 142, de 24/05/2021") && n.contains("não se aplica")),
            "{decision}"
        );
        let (_, english) = app.gql_in(Some("en"), q, json!({ "id": projects[1] })).await;
        let note = english["data"]["node"]["deadlines"]
            .as_array()
            .and_then(|l| l.iter().find(|o| o["ruleCode"] == "SF-DECISION-30D"))
            .and_then(|d| d["countingNote"].as_str())
            .unwrap_or_default()
            .to_owned();
        assert!(note.contains("is not applicable"), "{note}");
    })
    .await;
}
