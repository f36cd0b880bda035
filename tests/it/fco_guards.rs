//! The law's guards on FCO acts (issue 42): the chamber decides at its meeting and not for an absent bank (art. 2 §6),
//! a favourable decision over a rule the carta violates needs `overrideReason`, a bank records its own decision below
//! the threshold (art. 2 §3), and a refused act names the rule that forbids it.

use crate::helpers::{TestApp, client_with, on_each_backend};
use serde_json::{Value, json};

/// The bank BB, serving FCO, and its ID.
async fn seed_bb(app: &TestApp) -> Value {
    crate::lifecycle_support::seed_bank(app, "BB").await;
    app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone()
}

/// A submitted grains carta of `amount` at `bank`, numbered `number`, submitted on 2026-08-03.
async fn submitted(app: &TestApp, bank: &Value, number: &str, amount: &str, doc: &str) -> Value {
    let id = app
        .data(
            "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
            json!({ "i": { "number": number, "bankId": bank, "borrowerDocument": doc, "borrowerName": "Carla Produtora",
                "line": "RURAL", "activity": "GRAINS", "financedAmount": amount, "municipalityCode": 5107909 } }),
        )
        .await["createFcoCarta"]["id"]
        .clone();
    app.data(
        "mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-03\") { id } }",
        json!({ "id": id }),
    )
    .await;
    id
}

/// The error's code and rule code, and its explanation.
async fn refusal(app: &TestApp, query: &str, vars: Value) -> (String, String, String) {
    let (_, body) = app.gql(query, vars).await;
    let e = &body["errors"][0]["extensions"];
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    (s(&e["code"]), s(&e["ruleCode"]), s(&e["explanation"]))
}

const DECIDE: &str = "mutation D($id: ID!, $on: Date, $why: String) { decideFcoCarta(id: $id, decision: FAVOURABLE, \
    byChamber: true, on: $on, overrideReason: $why) { stage history { event note } } }";

/// The meeting of Monday 10 August 2026, 09:00 in Cuiabá, with `carta` on its agenda, received at SEDEC at `received`.
async fn on_agenda(app: &TestApp, cartas: &[&Value], received: &str) -> Value {
    let m = app
        .data(
            "mutation M($i: ScheduleChamberMeetingInput!) { scheduleChamberMeeting(input: $i) { meeting { id } } }",
            json!({ "i": { "startsAt": "2026-08-10T09:00:00-04:00" } }),
        )
        .await["scheduleChamberMeeting"]["meeting"]["id"]
        .clone();
    for c in cartas {
        app.data(
            "mutation P($i: PlaceFcoCartaOnAgendaInput!) { placeFcoCartaOnAgenda(input: $i) { carta { id } } }",
            json!({ "i": { "cartaId": c, "meetingId": m, "receivedAt": received } }),
        )
        .await;
    }
    m
}

#[tokio::test]
async fn the_chamber_does_not_consider_an_absent_banks_carta_nor_count_it_toward_the_ceiling() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let carta = submitted(&app, &bb, "AUS-1", "1500000.00", "529.982.247-25").await;
        let m = on_agenda(&app, &[&carta], "2026-08-07T08:00:00-04:00").await;
        let attend =
            "mutation A($i: RecordChamberAttendanceInput!) { recordChamberAttendance(input: $i) { meeting { id } } }";
        app.data(attend, json!({ "i": { "meetingId": m, "absentBankIds": [bb] } }))
            .await;
        let (code, rule, why) = refusal(&app, DECIDE, json!({ "id": carta, "on": "2026-08-10" })).await;
        assert_eq!(
            (code.as_str(), rule.as_str()),
            ("RULE_VIOLATION", "FCO-ATTENDANCE"),
            "{why}"
        );
        assert!(why.contains("art. 2 §6"), "{why}");
        // Not approved, so nothing of it counts toward the group's R$ 15 M: a R$ 15,000,000.00 carta of the same
        // borrower is approved at the ceiling exactly.
        let other = submitted(&app, &bb, "AUS-2", "15000000.00", "529.982.247-25").await;
        let d = app.data(DECIDE, json!({ "id": other, "on": "2026-08-10" })).await;
        assert_eq!(d["decideFcoCarta"]["stage"], "APPROVED");
        // Present, the bank's carta is considered, and now passes the ceiling by R$ 1.5 M.
        app.data(attend, json!({ "i": { "meetingId": m, "presentBankIds": [bb] } }))
            .await;
        let (_, rule, _) = refusal(&app, DECIDE, json!({ "id": carta, "on": "2026-08-10" })).await;
        assert_eq!(rule, "FCO-CEILING");
    })
    .await;
}

#[tokio::test]
async fn the_chamber_decides_on_its_meetings_day_and_over_a_violated_rule_only_saying_why() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let carta = submitted(&app, &bb, "DIA-1", "2000000.00", "529.982.247-25").await;
        // Two minutes late at SEDEC: FCO-72H-BEFORE is violated.
        on_agenda(&app, &[&carta], "2026-08-07T09:01:00-04:00").await;
        for (day, what) in [
            ("2026-08-12", "two days after the meeting"),
            ("2026-08-07", "before the meeting"),
        ] {
            let (code, rule, why) = refusal(&app, DECIDE, json!({ "id": carta, "on": day })).await;
            assert_eq!(
                (code.as_str(), rule.as_str()),
                ("RULE_VIOLATION", "FCO-CHAMBER-THRESHOLD"),
                "{what}: {why}"
            );
            assert!(why.contains("10/08/2026"), "Portuguese by default: {what}: {why}");
        }
        let (code, rule, why) = refusal(&app, DECIDE, json!({ "id": carta, "on": "2026-08-10" })).await;
        assert_eq!(
            (code.as_str(), rule.as_str()),
            ("RULE_VIOLATION", "FCO-72H-BEFORE"),
            "{why}"
        );
        assert!(why.contains("overrideReason"), "{why}");
        let (_, rule, _) = refusal(&app, DECIDE, json!({ "id": carta, "on": "2026-08-10", "why": "  " })).await;
        assert_eq!(rule, "FCO-72H-BEFORE", "a blank reason is no reason");
        let d = app
            .data(
                DECIDE,
                json!({ "id": carta, "on": "2026-08-10", "why": "atraso de dois minutos no protocolo da SEDEC" }),
            )
            .await["decideFcoCarta"]
            .clone();
        assert_eq!(d["stage"], "APPROVED");
        let decided = d["history"]
            .as_array()
            .and_then(|h| h.iter().find(|e| e["event"] == "DECIDE").cloned());
        assert_eq!(
            decided.and_then(|e| e["note"].as_str().map(str::to_owned)).as_deref(),
            Some("ato registrado apesar de FCO-72H-BEFORE: atraso de dois minutos no protocolo da SEDEC")
        );
        // The reason as written, the words around it in the reader's language.
        let q = "query H($id: ID!) { node(id: $id) { ... on FcoCarta { history { event note } } } }";
        let h = app.data_en(q, json!({ "id": carta })).await;
        let decided = h["node"]["history"]
            .as_array()
            .and_then(|h| h.iter().find(|e| e["event"] == "DECIDE").cloned());
        assert_eq!(
            decided.and_then(|e| e["note"].as_str().map(str::to_owned)).as_deref(),
            Some("override of FCO-72H-BEFORE: atraso de dois minutos no protocolo da SEDEC")
        );
        // In time, no override is needed.
        let timely = submitted(&app, &bb, "DIA-2", "2000000.00", "111.444.777-35").await;
        on_agenda(&app, &[&timely], "2026-08-07T09:00:00-04:00").await;
        let d = app.data(DECIDE, json!({ "id": timely, "on": "2026-08-10" })).await;
        assert_eq!(d["decideFcoCarta"]["stage"], "APPROVED");
    })
    .await;
}

#[tokio::test]
async fn a_bank_records_its_own_decision_below_the_threshold_and_nothing_more() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let key = app.key_of("bank", Some("BB")).await;
        let as_bank = |q: &'static str, vars: Value| {
            let (app, key) = (&app, key.clone());
            async move {
                let r = client_with(&key)
                    .post(format!("{}/graphql", app.base))
                    .header("accept", "application/json")
                    .json(&json!({ "query": q, "variables": vars }))
                    .send()
                    .await
                    .expect("answer");
                r.json::<Value>().await.expect("json")
            }
        };
        let by_bank = "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: false, on: \"2026-08-05\") { stage } }";
        let by_chamber = "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true, on: \"2026-08-05\") { stage } }";
        let code = |b: &Value| b["errors"][0]["extensions"]["code"].as_str().unwrap_or("OK").to_owned();
        let small = submitted(&app, &bb, "BCO-1", "999999.99", "529.982.247-25").await;
        let big = submitted(&app, &bb, "BCO-2", "1000000.00", "111.444.777-35").await;
        let b = as_bank(by_chamber, json!({ "id": small })).await;
        assert_eq!(code(&b), "FORBIDDEN", "a bank does not give the chamber's opinion: {b}");
        let b = as_bank(by_bank, json!({ "id": big })).await;
        assert_eq!(
            (code(&b).as_str(), b["errors"][0]["extensions"]["ruleCode"].as_str()),
            ("RULE_VIOLATION", Some("FCO-CHAMBER-THRESHOLD")),
            "R$ 1,000,000.00 is the chamber's: {b}"
        );
        let b = as_bank(by_bank, json!({ "id": small })).await;
        assert_eq!(b["data"]["decideFcoCarta"]["stage"], "APPROVED", "{b}");
        // Another bank's carta answers as one that does not exist.
        crate::lifecycle_support::seed_bank(&app, "SICREDI").await;
        let sicredi = app.data("{ bankByCode(code: \"SICREDI\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let theirs = submitted(&app, &sicredi, "SIC-1", "500000.00", "529.982.247-25").await;
        let b = as_bank(by_bank, json!({ "id": theirs })).await;
        assert_eq!(code(&b), "NOT_FOUND", "{b}");
    })
    .await;
}

#[tokio::test]
async fn an_act_out_of_turn_is_refused_by_the_rule_it_breaks() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let carta = submitted(&app, &bb, "VEZ-1", "2000000.00", "529.982.247-25").await;
        let submit = "mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-04\") { id } }";
        // A second submission is refused by the carta's state, not by a rule (issue 45).
        let (message, code) = app.error(submit, json!({ "id": carta })).await;
        assert!(
            code == "BAD_USER_INPUT" && message.starts_with("id:") && message.contains("was already submitted"),
            "a second submission: {code} {message}"
        );
        let contract = "mutation K($id: ID!) { contractFcoCarta(id: $id, on: \"2026-08-04\") { id } }";
        let (_, rule, why) = refusal(&app, contract, json!({ "id": carta })).await;
        assert_eq!(
            rule, "FCO-CHAMBER-THRESHOLD",
            "a contract before the chamber's opinion: {why}"
        );
    })
    .await;
}

/// Runs `expire-approvals` as of `as_of` in `slot`, through the runtime: its message, or `None` when the slot was
/// already taken.
async fn expire(app: &TestApp, slot: &str, as_of: &str) -> Option<String> {
    let spec = jobs::registry::find("expire-approvals").expect("registered");
    let as_of = chrono::NaiveDate::parse_from_str(as_of, "%Y-%m-%d").expect("a date");
    fomento_api::runtime::run_job_as_of(&app.runtime, spec, slot, Some(as_of))
        .await
        .expect("the job runs")
        .map(|r| r.message.render(service::messages::Lang::En))
}

#[tokio::test]
async fn lapsed_approvals_expire_once_and_stop_counting_toward_the_ceiling() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let decide = |by_chamber: bool| {
            format!(
                "mutation D($id: ID!) {{ decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: {by_chamber}, on: \"2026-03-02\") {{ stage }} }}"
            )
        };
        let mut cartas = Vec::new();
        for (number, amount, by_chamber) in
            [("VAL-1", "13600000.00", true), ("VAL-2", "1000000.00", true), ("VAL-3", "400000.00", false)]
        {
            let id = app
                .data(
                    "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                    json!({ "i": { "number": number, "bankId": bb, "borrowerDocument": "529.982.247-25", "borrowerName": "Carla Produtora",
                        "line": "RURAL", "activity": "GRAINS", "financedAmount": amount, "municipalityCode": 5107909 } }),
                )
                .await["createFcoCarta"]["id"]
                .clone();
            app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-03-02\") { id } }", json!({ "id": id }))
                .await;
            app.data(&decide(by_chamber), json!({ "id": id })).await;
            cartas.push(id);
        }
        // VAL-2 and VAL-3 were presented to the bank in time (VAL-3 the bank decided: its 120 days count from its own
        // approval, the reading made).
        for id in [&cartas[1], &cartas[2]] {
            app.data("mutation P($id: ID!) { presentFcoProject(id: $id, on: \"2026-06-30\") { id } }", json!({ "id": id }))
                .await;
        }
        let stage = |id: Value| {
            let app = &app;
            async move {
                let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { stage history { event occurredOn note } } } }";
                app.data(q, json!({ "id": id })).await["node"].clone()
            }
        };
        // Day 120 after 2 March 2026 is 30 June: still valid that day.
        let m = expire(&app, "test:1", "2026-06-30").await.expect("ours");
        assert!(m.contains("0 expired"), "{m}");
        assert_eq!(stage(cartas[0].clone()).await["stage"], "APPROVED");
        let m = expire(&app, "test:2", "2026-07-01").await.expect("ours");
        assert!(m.contains("1 expired"), "{m}");
        let n = stage(cartas[0].clone()).await;
        assert_eq!(n["stage"], "EXPIRED", "{n}");
        let last = n["history"].as_array().and_then(|h| h.last().cloned()).expect("history");
        assert_eq!((last["event"].as_str(), last["occurredOn"].as_str()), (Some("EXPIRE"), Some("2026-07-01")), "{last}");
        // The job's note is stored as a message and its values (migration 61): Portuguese by default, English on
        // request.
        assert!(
            last["note"].as_str().is_some_and(|x| x.starts_with(
                "FCO-VALIDITY-120D: os 120 dias para apresentar o projeto ao banco terminaram em 30/06/2026 ("
            ) && x.ends_with("e nenhuma apresentação está registrada.")),
            "{last}"
        );
        let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { history { event note } } } }";
        let en = app.data_en(q, json!({ "id": cartas[0] })).await;
        let note = en["node"]["history"].as_array().and_then(|h| h.last()).map(|e| e["note"].to_string());
        assert!(
            note.as_deref().is_some_and(|x| x.contains(
                "FCO-VALIDITY-120D: the 120 days to present the project to the bank ended on 2026-06-30 ("
            ) && x.contains("and no presentation is recorded.")),
            "{note:?}"
        );
        for (id, left) in [(&cartas[1], "APPROVED"), (&cartas[2], "APPROVED")] {
            assert_eq!(stage(id.clone()).await["stage"], left);
        }
        // A second pass changes nothing; the same slot runs once.
        let m = expire(&app, "test:3", "2026-07-02").await.expect("ours");
        assert!(m.contains("0 expired"), "{m}");
        assert_eq!(expire(&app, "test:3", "2026-07-02").await, None, "once per slot");
        let n = stage(cartas[0].clone()).await;
        assert_eq!(n["history"].as_array().map(|h| h.iter().filter(|e| e["event"] == "EXPIRE").count()), Some(1));
        // The lapsed R$ 13.6 M no longer counts: R$ 13.6 M more fits the group's R$ 15 M exactly, with the R$ 1.4 M
        // still committed.
        let more = submitted(&app, &bb, "VAL-4", "13600000.00", "529.982.247-25").await;
        let d = app.data(&decide(true).replace("2026-03-02", "2026-08-03"), json!({ "id": more })).await;
        assert_eq!(d["decideFcoCarta"]["stage"], "APPROVED");
    })
    .await;
}

/// A bank's own approval below R$ 1 M (art. 2 §3) that is never presented nor contracted: by the reading made, its 120
/// days count from the bank's approval (6 April to 4 August 2026). Until the job expires it, it counts toward the
/// group's R$ 15 M: a chamber carta of R$ 14,100,000.01 is refused on 4 August and, before the job ran, on 5 August;
/// once the job expired it (dated 5 August, with its history row), the same decision on 5 August passes, while on 4
/// August it is still refused and FCO-CEILING `asOf` 4 August still counts it.
#[tokio::test]
async fn a_bank_approval_never_presented_lapses_and_stops_counting_toward_the_ceiling() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let small = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "BAN-1", "bankId": bb, "borrowerDocument": "529.982.247-25", "borrowerName": "Carla Produtora",
                    "line": "RURAL", "activity": "GRAINS", "financedAmount": "900000.00", "municipalityCode": 5107909 } }),
            )
            .await["createFcoCarta"]["id"]
            .clone();
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-04-06\") { id } }", json!({ "id": small }))
            .await;
        app.data(
            "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: false, on: \"2026-04-06\") { stage } }",
            json!({ "id": small }),
        )
        .await;
        let big = submitted(&app, &bb, "BAN-2", "14100000.01", "529.982.247-25").await;
        let decide = |day: &str| {
            format!(
                "mutation D($id: ID!) {{ decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true, on: \"{day}\") {{ stage }} }}"
            )
        };
        for day in ["2026-08-04", "2026-08-05"] {
            let (code, rule, why) = refusal(&app, &decide(day), json!({ "id": big })).await;
            assert_eq!((code.as_str(), rule.as_str()), ("RULE_VIOLATION", "FCO-CEILING"), "{day}: {why}");
        }
        let m = expire(&app, "test:1", "2026-08-04").await.expect("ours");
        assert!(m.contains("0 expired"), "the last of its 120 days: {m}");
        let m = expire(&app, "test:2", "2026-08-05").await.expect("ours");
        assert!(m.contains("1 expired"), "{m}");
        let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { stage history { event occurredOn note } } } }";
        let n = app.data(q, json!({ "id": small })).await["node"].clone();
        assert_eq!(n["stage"], "EXPIRED", "{n}");
        let last = n["history"].as_array().and_then(|h| h.last().cloned()).expect("history");
        assert_eq!((last["event"].as_str(), last["occurredOn"].as_str()), (Some("EXPIRE"), Some("2026-08-05")), "{last}");
        assert!(
            last["note"].as_str().is_some_and(|x| x.contains("art. 2 §3") && x.contains("Aprovada pelo banco")),
            "{last}"
        );
        let en = app.data_en(q, json!({ "id": small })).await["node"].clone();
        let note = en["history"].as_array().and_then(|h| h.last()).map(|e| e["note"].to_string());
        assert!(note.as_deref().is_some_and(|x| x.contains("Approved by the bank below")), "{note:?}");
        // On its last valid day it still counted.
        let (_, rule, why) = refusal(&app, &decide("2026-08-04"), json!({ "id": big })).await;
        assert_eq!(rule, "FCO-CEILING", "{why}");
        let ceiling = |as_of: &'static str| {
            let (app, big) = (&app, big.clone());
            async move {
                let q = "query Q($id: ID!, $d: Date!) { node(id: $id) { ... on FcoCarta { compliance(asOf: $d) { ruleCode status } } } }";
                let n = app.data(q, json!({ "id": big, "d": as_of })).await;
                n["node"]["compliance"]
                    .as_array()
                    .and_then(|l| l.iter().find(|o| o["ruleCode"] == "FCO-CEILING").map(|o| o["status"].clone()))
                    .unwrap_or_default()
            }
        };
        assert_eq!(ceiling("2026-08-04").await, "VIOLATED");
        assert_eq!(ceiling("2026-08-05").await, "MET");
        let d = app.data(&decide("2026-08-05"), json!({ "id": big })).await;
        assert_eq!(d["decideFcoCarta"]["stage"], "APPROVED", "{d}");
    })
    .await;
}

#[tokio::test]
async fn the_cdae_instruction_judges_nothing_before_it_took_effect() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let mut judged = Vec::new();
        for (number, day) in [("ANT-1", "2019-03-19"), ("ANT-2", "2019-03-20")] {
            let id = app
                .data(
                    "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                    json!({ "i": { "number": number, "bankId": bb, "borrowerDocument": "529.982.247-25", "borrowerName": "Carla Produtora",
                        "line": "RURAL", "activity": "GRAINS", "financedAmount": "500000.00", "municipalityCode": 5107909, "createdOn": day } }),
                )
                .await["createFcoCarta"]["id"]
                .clone();
            app.data("mutation S($id: ID!, $d: Date) { submitFcoCarta(id: $id, on: $d) { id } }", json!({ "id": id, "d": day }))
                .await;
            let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { compliance(asOf: \"2019-04-01\") { ruleCode status explanation }
                deadlines(asOf: \"2019-04-01\") { ruleCode status } } } }";
            judged.push(app.data(q, json!({ "id": id })).await["node"].clone());
        }
        let status = |n: &Value, list: &str, code: &str| {
            n[list].as_array().and_then(|l| l.iter().find(|o| o["ruleCode"] == code).map(|o| o["status"].clone()))
        };
        // FCO-ATTENDANCE and FCO-RESUBMIT read no parameter: the day before, nothing applies, saying why.
        for code in ["FCO-ATTENDANCE", "FCO-RESUBMIT", "FCO-CHAMBER-THRESHOLD", "FCO-CEILING"] {
            assert_eq!(status(&judged[0], "compliance", code), Some(json!("NOT_APPLICABLE")), "{code}: {}", judged[0]);
        }
        assert!(judged[0]["compliance"][0]["explanation"].as_str().is_some_and(|e| e.contains("20/03/2019")), "{}", judged[0]);
        assert_eq!(status(&judged[0], "deadlines", "FCO-VALIDITY-120D"), Some(json!("NOT_APPLICABLE")));
        // From the day it took effect, they judge.
        assert_eq!(status(&judged[1], "compliance", "FCO-CHAMBER-THRESHOLD"), Some(json!("MET")), "{}", judged[1]);
        assert_eq!(status(&judged[1], "compliance", "FCO-RESUBMIT"), Some(json!("NOT_APPLICABLE")));
        assert_ne!(
            judged[1]["compliance"][1]["explanation"].as_str().map(|e| e.contains("entrou em vigor")),
            Some(true),
            "{}",
            judged[1]
        );
        // The monthly lists are owed from March 2019: on 15 April 2019, only March's (February's is not asked for).
        let q = "query D($id: ID!) { node(id: $id) { ... on Bank { deadlines(asOf: \"2019-04-15\") { ruleCode dueDate countingNote } } } }";
        let d = app.data(q, json!({ "id": bb })).await["node"]["deadlines"].clone();
        let lists: Vec<&Value> = d.as_array().map(|l| l.iter().filter(|x| x["ruleCode"] == "FCO-MONTHLY-LIST").collect()).unwrap_or_default();
        assert_eq!(lists.len(), 1, "{d}");
        assert!(lists[0]["countingNote"].as_str().is_some_and(|n| n.contains("2019-03")), "{d}");
    })
    .await;
}

#[tokio::test]
async fn a_special_demand_below_the_threshold_goes_on_the_chambers_agenda() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let mut ids = Vec::new();
        for (number, special) in [("ESP-1", true), ("ESP-2", false)] {
            let id = app
                .data(
                    "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                    json!({ "i": { "number": number, "bankId": bb, "borrowerDocument": "529.982.247-25", "borrowerName": "Carla Produtora",
                        "line": "RURAL", "activity": "GRAINS", "financedAmount": "300000.00", "municipalityCode": 5107909, "specialDemand": special } }),
                )
                .await["createFcoCarta"]["id"]
                .clone();
            app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-03\") { id } }", json!({ "id": id }))
                .await;
            ids.push(id);
        }
        let m = on_agenda(&app, &[&ids[0]], "2026-08-07T08:00:00-04:00").await;
        let place = "mutation P($i: PlaceFcoCartaOnAgendaInput!) { placeFcoCartaOnAgenda(input: $i) { carta { id } } }";
        let (_, rule, why) = refusal(&app, place, json!({ "i": { "cartaId": ids[1], "meetingId": m, "receivedAt": "2026-08-07T08:00:00-04:00" } })).await;
        assert_eq!(rule, "FCO-CHAMBER-THRESHOLD", "not a special demand: the bank's: {why}");
        let d = app.data(DECIDE, json!({ "id": ids[0], "on": "2026-08-10" })).await;
        assert_eq!(d["decideFcoCarta"]["stage"], "APPROVED", "the special demand, decided at the meeting");
    })
    .await;
}
