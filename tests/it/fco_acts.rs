//! FCO acts of issue 42 at their boundaries, on each backend: the conditions put before contracting (art. 6 §7, 7 §6,
//! 8 §2, 10 sole §), the amendments art. 15 exempts, the CPACR's opinion and the banks that received its result (art.
//! 3), and the day a lapsed approval expired (art. 3 sole §).
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::helpers::{TestApp, on_each_backend};
use sea_orm::EntityTrait;
use serde_json::{Value, json};

async fn seed_bb(app: &TestApp) -> Value {
    crate::lifecycle_support::seed_bank(app, "BB").await;
    app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone()
}

/// A carta of `activity` and `amount`, submitted on 2026-08-03 and approved by the bank on 2026-08-05 (below R$ 1 M).
async fn bank_approved(app: &TestApp, bank: &Value, number: &str, activity: &str, amount: &str, extra: Value) -> Value {
    let mut input = json!({ "number": number, "bankId": bank, "borrowerDocument": "529.982.247-25",
        "borrowerName": "Carla Produtora", "line": "RURAL", "activity": activity, "financedAmount": amount,
        "municipalityCode": 5107909 });
    if let (Some(i), Some(e)) = (input.as_object_mut(), extra.as_object()) {
        i.extend(e.clone());
    }
    let id = app
        .data(
            "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
            json!({ "i": input }),
        )
        .await["createFcoCarta"]["id"]
        .clone();
    app.data(
        "mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-03\") { id } }",
        json!({ "id": id }),
    )
    .await;
    let d = app
        .data(
            "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: false, on: \"2026-08-05\") { stage } }",
            json!({ "id": id }),
        )
        .await;
    assert_eq!(d["decideFcoCarta"]["stage"], "APPROVED", "{d}");
    id
}

/// The error's code, rule code, legal basis and explanation.
async fn refusal(app: &TestApp, query: &str, vars: Value) -> [String; 4] {
    let (_, body) = app.gql(query, vars).await;
    let e = &body["errors"][0]["extensions"];
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    [
        s(&e["code"]),
        s(&e["ruleCode"]),
        s(&e["legalBasis"]),
        s(&e["explanation"]),
    ]
}

const CONTRACT: &str = "mutation K($id: ID!, $on: Date) { contractFcoCarta(id: $id, on: $on) { stage } }";

#[tokio::test]
async fn contracting_waits_for_the_conditions_the_text_puts_before_it_on_the_contracts_own_day() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        // Art. 8 §2: a swine project is contracted only once the property's INDEA/MT registration is presented.
        let swine = bank_approved(&app, &bb, "SUI-1", "SWINE", "400000.00", json!({})).await;
        let [code, rule, basis, why] = refusal(&app, CONTRACT, json!({ "id": swine, "on": "2026-08-10" })).await;
        assert_eq!((code.as_str(), rule.as_str()), ("RULE_VIOLATION", "FCO-GTA"), "{why}");
        assert!(basis.contains("art. 8º, § 2º"), "cited in Portuguese: {basis}");
        assert!(why.contains("INDEA/MT"), "{why}");
        // Confirmed effective the 11th: the contract on the 10th is still refused, on the 11th it passes.
        let confirm = "mutation C($id: ID!, $d: Date) { confirmChecklistItem(financingId: $id, ruleCode: \"FCO-GTA\",
            confirmedBy: \"Analista do BB\", note: \"cadastro INDEA/MT apresentado\", on: $d) { status } }";
        app.data(confirm, json!({ "id": swine, "d": "2026-08-11" })).await;
        let [_, rule, _, why] = refusal(&app, CONTRACT, json!({ "id": swine, "on": "2026-08-10" })).await;
        assert_eq!(rule, "FCO-GTA", "judged on the contract's own day: {why}");
        let k = app.data(CONTRACT, json!({ "id": swine, "on": "2026-08-11" })).await;
        assert_eq!(k["contractFcoCarta"]["stage"], "CONTRACTED");
        // Art. 6 §7: genetic improvement (a sire bought) only with the insemination information in the carta.
        let sire = json!({ "kind": "SIRE", "description": "touro nelore PO", "headCount": 1, "ageMonths": 36,
            "registration": "PO", "investmentClass": "SEMI_FIXED", "value": "30000.00" });
        let mut beef = Vec::new();
        for (number, ai) in [("BOV-1", Value::Null), ("BOV-2", json!(false))] {
            let id = bank_approved(&app, &bb, number, "BEEF_CATTLE", "300000.00", json!({ "artificialInsemination": ai })).await;
            app.data(
                "mutation A($i: AddFcoCartaItemInput!) { addFcoCartaItem(input: $i) { item { itemId } } }",
                json!({ "i": { "cartaId": id, "item": sire, "reason": "touro do projeto", "effectiveOn": "2026-08-05" } }),
            )
            .await;
            beef.push(id);
        }
        let [code, rule, basis, why] = refusal(&app, CONTRACT, json!({ "id": beef[0], "on": "2026-08-10" })).await;
        assert_eq!((code.as_str(), rule.as_str()), ("RULE_VIOLATION", "FCO-IA-INFO"), "{why}");
        assert!(basis.contains("art. 6º, § 7º"), "{basis}");
        let k = app.data(CONTRACT, json!({ "id": beef[1], "on": "2026-08-10" })).await;
        assert_eq!(k["contractFcoCarta"]["stage"], "CONTRACTED", "the information stated (natural service)");
        // No override: the text says "fica condicionada".
        let (_, body) = app
            .gql(
                "mutation K($id: ID!) { contractFcoCarta(id: $id, on: \"2026-08-10\", overrideReason: \"x\") { stage } }",
                json!({ "id": beef[0] }),
            )
            .await;
        assert!(body["errors"][0]["message"].is_string(), "no overrideReason argument: {body}");
    })
    .await;
}

const AMEND: &str = "mutation A($id: ID!, $k: AmendmentKind!, $n: Decimal) { amendFcoCarta(id: $id, kind: $k,
    description: \"ajuste\", newAmount: $n, on: \"2026-08-20\") { stage history { event note } } }";

#[tokio::test]
async fn an_amendment_is_exempt_up_to_the_chamber_threshold_and_a_swap_that_lowers_the_value_is_exempt() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let mut cartas = Vec::new();
        for n in ["EME-1", "EME-2", "EME-3"] {
            cartas.push(bank_approved(&app, &bb, n, "GRAINS", "950000.00", json!({})).await);
        }
        // +5.26 % of a bank-approved R$ 950,000.00: R$ 999,999.99 stays the bank's, exempt.
        let a = app
            .data(
                AMEND,
                json!({ "id": cartas[0], "k": "VALUE_INCREASE", "n": "999999.99" }),
            )
            .await;
        assert_eq!(a["amendFcoCarta"]["stage"], "APPROVED", "{a}");
        // R$ 1,000,000.00 is the chamber's (art. 2 §3): the approval is reopened.
        let a = app
            .data(
                AMEND,
                json!({ "id": cartas[1], "k": "VALUE_INCREASE", "n": "1000000.00" }),
            )
            .await;
        assert_eq!(a["amendFcoCarta"]["stage"], "SUBMITTED", "{a}");
        let note = a["amendFcoCarta"]["history"]
            .as_array()
            .and_then(|h| h.last())
            .map(|e| e["note"].to_string());
        assert!(note.as_deref().is_some_and(|n| n.contains("art. 2 §3")), "{note:?}");
        // A swap that lowers the value is exempt (art. 15 b and c).
        let a = app
            .data(AMEND, json!({ "id": cartas[2], "k": "ITEM_SWAP", "n": "900000.00" }))
            .await;
        assert_eq!(a["amendFcoCarta"]["stage"], "APPROVED", "{a}");
        let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { amount compliance { ruleCode status } } } }";
        let n = app.data(q, json!({ "id": cartas[2] })).await["node"].clone();
        assert_eq!(n["amount"], "900000.00", "{n}");
        let amendment = n["compliance"]
            .as_array()
            .and_then(|l| l.iter().find(|o| o["ruleCode"] == "FCO-AMENDMENT").cloned());
        assert_eq!(amendment.map(|o| o["status"].clone()), Some(json!("MET")));
    })
    .await;
}

/// An amendment that leaves out what its kind needs, or states what belongs to another kind, is refused naming the
/// field, and nothing of it is recorded: a change of value without its new value (it had reopened a contracted carta
/// with the value "?"), `propertiesListed` on anything but a change of municipality.
#[tokio::test]
async fn an_amendment_missing_its_new_value_or_stating_another_kinds_fact_is_refused_naming_the_field() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let id = bank_approved(&app, &bb, "AMV-1", "GRAINS", "500000.00", json!({})).await;
        let amend = "mutation A($id: ID!, $k: AmendmentKind!, $l: Boolean) { amendFcoCarta(id: $id, kind: $k,
            description: \"x\", on: \"2026-08-20\", propertiesListed: $l) { stage } }";
        for (kind, listed, field) in [
            ("VALUE_REDUCTION", Value::Null, "newAmount"),
            ("VALUE_INCREASE", Value::Null, "newAmount"),
            ("ITEM_SWAP", json!(true), "propertiesListed"),
        ] {
            let (message, code) = app
                .error_in(None, amend, json!({ "id": id, "k": kind, "l": listed }))
                .await;
            assert_eq!(code, "BAD_USER_INPUT", "{kind}: {message}");
            assert!(
                message.contains(field) && (message.contains("precisa") || message.contains("só cabe")),
                "{kind}: {message}"
            );
            let (en, _) = app
                .error_in(Some("en"), amend, json!({ "id": id, "k": kind, "l": listed }))
                .await;
            assert!(en.contains(field) && en != message, "{kind}: {en}");
        }
        let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { stage amount amendments { kind } } } }";
        let n = app.data(q, json!({ "id": id })).await["node"].clone();
        assert_eq!(
            (n["stage"].clone(), n["amount"].clone()),
            (json!("APPROVED"), json!("500000.00")),
            "{n}"
        );
        assert_eq!(n["amendments"], json!([]), "nothing recorded: {n}");
    })
    .await;
}

/// Art. 15 d: a change of municipality whose properties are listed in the carta stays approved; one whose properties
/// are not listed, or that does not say, reopens the approval; the amendment keeps what was stated and FCO-AMENDMENT
/// agrees with how each was handled.
#[tokio::test]
async fn a_change_of_municipality_is_exempt_only_when_the_carta_lists_its_properties() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let amend = "mutation A($id: ID!, $l: Boolean) { amendFcoCarta(id: $id, kind: MUNICIPALITY_CHANGE,
            description: \"imóvel em Sorriso\", on: \"2026-08-20\", propertiesListed: $l) {
            stage amendments { propertiesListed requiresNewApproval } compliance { ruleCode status explanation } } }";
        let mut seen = Vec::new();
        for (n, listed) in [("MUN-1", json!(true)), ("MUN-2", json!(false)), ("MUN-3", Value::Null)] {
            let id = bank_approved(&app, &bb, n, "GRAINS", "500000.00", json!({})).await;
            let a = app.data(amend, json!({ "id": id, "l": listed })).await["amendFcoCarta"].clone();
            let rule = a["compliance"]
                .as_array()
                .and_then(|l| l.iter().find(|o| o["ruleCode"] == "FCO-AMENDMENT").cloned())
                .unwrap_or_default();
            assert_eq!(rule["status"], "MET", "{n}: {a}");
            seen.push((
                a["stage"].clone(),
                a["amendments"][0]["propertiesListed"].clone(),
                a["amendments"][0]["requiresNewApproval"].clone(),
            ));
        }
        assert_eq!(
            seen,
            vec![
                (json!("APPROVED"), json!(true), json!(false)),
                (json!("SUBMITTED"), json!(false), json!(true)),
                (json!("SUBMITTED"), Value::Null, json!(true)),
            ]
        );
    })
    .await;
}

#[tokio::test]
async fn the_result_report_counts_its_72_hours_from_the_recorded_opinion_and_names_the_banks() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let carta = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "PAR-1", "bankId": bb, "borrowerDocument": "529.982.247-25", "borrowerName": "Carla Produtora",
                    "line": "RURAL", "activity": "GRAINS", "financedAmount": "2000000.00", "municipalityCode": 5107909 } }),
            )
            .await["createFcoCarta"]["id"]
            .clone();
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-03\") { id } }", json!({ "id": carta }))
            .await;
        let m = app
            .data(
                "mutation M($i: ScheduleChamberMeetingInput!) { scheduleChamberMeeting(input: $i) { meeting { id } } }",
                json!({ "i": { "startsAt": "2026-08-10T09:00:00-04:00" } }),
            )
            .await["scheduleChamberMeeting"]["meeting"]["id"]
            .clone();
        app.data(
            "mutation P($i: PlaceFcoCartaOnAgendaInput!) { placeFcoCartaOnAgenda(input: $i) { carta { id } } }",
            json!({ "i": { "cartaId": carta, "meetingId": m, "receivedAt": "2026-08-07T08:00:00-04:00" } }),
        )
        .await;
        app.data(
            "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true, on: \"2026-08-10\") { stage } }",
            json!({ "id": carta }),
        )
        .await;
        let opinion = "mutation O($i: RecordChamberOpinionInput!) { recordChamberOpinion(input: $i) {
            meeting { opinionAt opinionReference } } }";
        let (_, body) = app
            .gql(opinion, json!({ "i": { "meetingId": m, "givenAt": "2026-08-10T08:59:59-04:00", "reference": "Ata 8/2026" } }))
            .await;
        assert_eq!(body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT", "before the meeting: {body}");
        let o = app
            .data(opinion, json!({ "i": { "meetingId": m, "givenAt": "2026-08-10T14:00:00-04:00", "reference": "Ata 8/2026" } }))
            .await;
        assert_eq!(o["recordChamberOpinion"]["meeting"]["opinionReference"], "Ata 8/2026");
        let sent = "mutation R($i: RecordChamberResultsSentInput!) { recordChamberResultsSent(input: $i) {
            meeting { resultsSentAt resultsSentTo { code } } } }";
        let result = |at: &'static str| {
            let (app, carta, m, bb) = (&app, carta.clone(), m.clone(), bb.clone());
            async move {
                let r = app.data(sent, json!({ "i": { "meetingId": m, "sentAt": at, "bankIds": [bb] } })).await;
                assert_eq!(r["recordChamberResultsSent"]["meeting"]["resultsSentTo"], json!([{ "code": "BB" }]), "{r}");
                let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { deadlines(asOf: \"2026-08-20\") { ruleCode status countingNote } } } }";
                let d = app.data(q, json!({ "id": carta })).await["node"]["deadlines"].clone();
                d.as_array()
                    .and_then(|l| l.iter().find(|x| x["ruleCode"] == "FCO-72H-RESULT").cloned())
                    .expect("FCO-72H-RESULT")
            }
        };
        // 72 hours from the opinion (14:00 on the 10th), not from the meeting's start (09:00).
        let on_time = result("2026-08-13T14:00:00-04:00").await;
        assert_eq!(on_time["status"], "MET", "{on_time}");
        assert!(on_time["countingNote"].as_str().is_some_and(|n| n.contains("Ata 8/2026")), "{on_time}");
        let late = result("2026-08-13T14:00:01-04:00").await;
        assert_eq!(late["status"], "OVERDUE", "{late}");
        // Sent before the opinion: refused.
        let (_, body) = app
            .gql(sent, json!({ "i": { "meetingId": m, "sentAt": "2026-08-10T13:00:00-04:00" } }))
            .await;
        assert_eq!(body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT", "{body}");
    })
    .await;
}

/// Runs `expire-approvals` as of `as_of`.
async fn expire(app: &TestApp, slot: &str, as_of: &str) -> Option<String> {
    let spec = jobs::registry::find("expire-approvals").expect("registered");
    let as_of = chrono::NaiveDate::parse_from_str(as_of, "%Y-%m-%d").expect("a date");
    fomento_api::runtime::run_job_as_of(&app.runtime, spec, slot, Some(as_of))
        .await
        .expect("the job runs")
        .map(|r| r.message.render(service::messages::Lang::En))
}

#[tokio::test]
async fn a_lapsed_approval_reads_expired_from_the_day_it_lapsed_not_the_day_the_job_ran() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let id = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "VAL-9", "bankId": bb, "borrowerDocument": "529.982.247-25", "borrowerName": "Carla Produtora",
                    "line": "RURAL", "activity": "GRAINS", "financedAmount": "2000000.00", "municipalityCode": 5107909 } }),
            )
            .await["createFcoCarta"]["id"]
            .clone();
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-03-02\") { id } }", json!({ "id": id }))
            .await;
        app.data(
            "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true, on: \"2026-03-02\") { stage } }",
            json!({ "id": id }),
        )
        .await;
        // The 120 days end on 30 June; the job runs on 15 July.
        let m = expire(&app, "test:1", "2026-07-15").await.expect("ours");
        assert!(m.contains("1 expired"), "{m}");
        let c = entity::fco_carta::Entity::find()
            .one(&app.db)
            .await
            .expect("read")
            .expect("the carta");
        let day = |d: &str| d.parse::<chrono::NaiveDate>().expect("day");
        assert_eq!(c.expired_on, Some(day("2026-07-01")), "the day it lapsed, not the job's");
        let c = entity::fco_carta::JudgedCarta::from(c);
        assert_eq!(c.known_on(&[], &[], day("2026-06-30")).stage, entity::vocab::FcoCartaStage::Approved);
        assert_eq!(c.known_on(&[], &[], day("2026-07-01")).stage, entity::vocab::FcoCartaStage::Expired);
        let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { stage history { event occurredOn } } } }";
        let n = app.data(q, json!({ "id": id })).await["node"].clone();
        assert_eq!(n["stage"], "EXPIRED");
        let last = n["history"].as_array().and_then(|h| h.last().cloned()).expect("history");
        assert_eq!(last["occurredOn"], "2026-07-01", "{last}");
    })
    .await;
}

/// One rule's outcome on carta `id` as of `as_of` (as the record stands, or at `known_at`).
async fn rule_on(app: &TestApp, id: &Value, code: &str, as_of: &str, known_at: Option<&str>) -> Value {
    let q = "query Q($id: ID!, $d: Date!, $k: DateTime) { node(id: $id) { ... on FcoCarta {
        compliance(asOf: $d, knownAt: $k) { ruleCode status explanation } } } }";
    let n = app.data(q, json!({ "id": id, "d": as_of, "k": known_at })).await;
    n["node"]["compliance"]
        .as_array()
        .and_then(|l| l.iter().find(|o| o["ruleCode"] == code).cloned())
        .unwrap_or_else(|| panic!("{code}: {n}"))
}

const UPDATE: &str = "mutation U($i: UpdateFcoCartaInput!) { updateFcoCarta(input: $i) { carta {
    statedOn existingSires artificialInsemination professionalName termMonths history { event occurredOn note recordedAt } } } }";

/// `updateFcoCarta` (issue 42): the facts a carta states at its creation are corrected as dated versions, never
/// overwritten; the rules read them `asOf` a day (the contract's own day too), and `knownAt` before the correction
/// reads what was stated then. A bank corrects its own cartas, until the contract (the reading of arts. 6 §7, 7 §6 and
/// 15: a contracted financing changes by amendment).
#[tokio::test]
async fn the_facts_a_carta_states_are_corrected_as_dated_versions_read_as_of_their_day() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        crate::lifecycle_support::seed_bank(&app, "SICREDI").await;
        let id = bank_approved(&app, &bb, "VER-1", "BEEF_CATTLE", "300000.00", json!({ "existingSires": 1 })).await;
        let sire = json!({ "kind": "SIRE", "description": "touro nelore PO", "headCount": 1, "ageMonths": 36,
            "registration": "PO_RGD", "investmentClass": "SEMI_FIXED", "value": "30000.00" });
        let dams = json!({ "kind": "DAM", "description": "matrizes nelore", "headCount": 30, "ageMonths": 24,
            "investmentClass": "SEMI_FIXED", "value": "60000.00" });
        for item in [sire, dams] {
            app.data(
                "mutation A($i: AddFcoCartaItemInput!) { addFcoCartaItem(input: $i) { item { itemId } } }",
                json!({ "i": { "cartaId": id, "item": item, "reason": "rebanho do projeto", "effectiveOn": "2026-08-05" } }),
            )
            .await;
        }
        let before = app
            .data("query Q($id: ID!) { node(id: $id) { ... on FcoCarta { history { recordedAt } } } }", json!({ "id": id }))
            .await["node"]["history"]
            .as_array()
            .and_then(|h| h.last().cloned())
            .expect("history")["recordedAt"]
            .clone();
        assert_eq!(rule_on(&app, &id, "FCO-IA-INFO", "2026-08-10", None).await["status"], "PENDING");
        // `knownAt` is given to the second: the correction is recorded in a later one.
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;

        // Bad input, each naming its field; another bank's key does not see the carta.
        let input = |extra: Value| {
            let mut i = json!({ "cartaId": id, "reason": "informação do projeto técnico" });
            if let (Some(i), Some(e)) = (i.as_object_mut(), extra.as_object()) {
                i.extend(e.clone());
            }
            json!({ "i": i })
        };
        for (extra, field, code) in [
            (json!({ "artificialInsemination": true, "reason": " " }), "input.reason", "BAD_USER_INPUT"),
            (json!({ "artificialInsemination": true, "effectiveOn": "2099-01-01" }), "input.effectiveOn", "BAD_USER_INPUT"),
            (json!({ "existingSires": -1 }), "input.existingSires", "BAD_USER_INPUT"),
            (json!({ "termMonths": 601 }), "input.termMonths", "BAD_USER_INPUT"),
            (json!({ "existingSires": 1 }), "input", "BAD_USER_INPUT"),
        ] {
            let (message, got) = app.error(UPDATE, input(extra.clone())).await;
            assert_eq!((got.as_str(), message.starts_with(field)), (code, true), "{extra}: {message}");
        }
        let [code, rule, basis, why] = refusal(&app, UPDATE, input(json!({ "specialDemand": true }))).await;
        assert_eq!((code.as_str(), rule.as_str()), ("RULE_VIOLATION", "FCO-SPECIAL-DEMAND"), "{why}");
        assert!(basis.contains("art. 14"), "{basis}");
        let other = app.key_of("bank", Some("SICREDI")).await;
        let r = crate::helpers::client_with(&other)
            .post(format!("{}/graphql", app.base))
            .json(&json!({ "query": UPDATE, "variables": input(json!({ "artificialInsemination": true })) }))
            .send()
            .await
            .expect("answer")
            .json::<Value>()
            .await
            .expect("json");
        assert_eq!(r["errors"][0]["extensions"]["code"], "NOT_FOUND", "{r}");

        // The bank's own key states the insemination information from the 12th: a new version, the old one kept.
        let own = app.key_of("bank", Some("BB")).await;
        let r = crate::helpers::client_with(&own)
            .post(format!("{}/graphql", app.base))
            .json(&json!({ "query": UPDATE, "variables": input(json!({ "artificialInsemination": true, "existingSires": 2,
                "professionalName": "Dra. Ana Souza", "effectiveOn": "2026-08-12" })) }))
            .send()
            .await
            .expect("answer")
            .json::<Value>()
            .await
            .expect("json");
        let c = &r["data"]["updateFcoCarta"]["carta"];
        assert_eq!(
            (c["statedOn"].as_str(), c["artificialInsemination"].as_bool(), c["existingSires"].as_i64()),
            (Some("2026-08-12"), Some(true), Some(2)),
            "{r}"
        );
        let last = c["history"].as_array().and_then(|h| h.last().cloned()).expect("history");
        assert_eq!((last["event"].as_str(), last["occurredOn"].as_str()), (Some("STATEMENT"), Some("2026-08-12")), "{last}");
        let note = last["note"].as_str().unwrap_or_default();
        assert!(
            note.contains("`artificialInsemination` não informado → sim") && note.contains("`existingSires` 1 → 2"),
            "{note}"
        );
        let stored = entity::fco_carta_statement::Entity::find().all(&app.db).await.expect("versions");
        assert_eq!(
            stored.iter().map(|v| (v.artificial_insemination, v.existing_sires, v.effective_on)).collect::<Vec<_>>(),
            vec![(None, Some(1), None)],
            "the version replaced, from the creation"
        );

        // Asked before the 12th, the rules read the old statement; from the 12th, the new one.
        let ia = rule_on(&app, &id, "FCO-IA-INFO", "2026-08-11", None).await;
        assert_eq!(ia["status"], "PENDING", "{ia}");
        let ia = rule_on(&app, &id, "FCO-IA-INFO", "2026-08-12", None).await;
        assert_eq!(ia["status"], "MET", "{ia}");
        let sires = rule_on(&app, &id, "FCO-SIRE-RATIO", "2026-08-11", None).await;
        assert!(sires["explanation"].as_str().is_some_and(|e| e.contains("30 matrizes e 2 reprodutores")), "1 own + 1 bought: {sires}");
        let sires = rule_on(&app, &id, "FCO-SIRE-RATIO", "2026-08-12", None).await;
        assert!(sires["explanation"].as_str().is_some_and(|e| e.contains("30 matrizes e 3 reprodutores")), "2 own + 1 bought: {sires}");
        // As the record stood before the correction, the 12th still had no information.
        let then = rule_on(&app, &id, "FCO-IA-INFO", "2026-08-12", before.as_str()).await;
        assert_eq!(then["status"], "PENDING", "knownAt before the correction: {then}");

        // The contract is judged on its own day: refused on the 11th, contracted on the 12th; then closed to corrections.
        let [_, rule, _, why] = refusal(&app, CONTRACT, json!({ "id": id, "on": "2026-08-11" })).await;
        assert_eq!(rule, "FCO-IA-INFO", "{why}");
        let k = app.data(CONTRACT, json!({ "id": id, "on": "2026-08-12" })).await;
        assert_eq!(k["contractFcoCarta"]["stage"], "CONTRACTED");
        let [code, rule, basis, why] = refusal(&app, UPDATE, input(json!({ "termMonths": 96 }))).await;
        assert_eq!((code.as_str(), rule.as_str()), ("RULE_VIOLATION", "FCO-AMENDMENT"), "{why}");
        assert!(basis.contains("art. 15") && why.contains("amendFcoCarta"), "{basis} {why}");
    })
    .await;
}

/// FCO-CEILING (art. 2 §4) `asOf` a day before an approval lapsed counts it (it was committed that day), in the one
/// reading the carta's compliance, the decision's guard and the flag pass share; from the day it lapsed it does not.
#[tokio::test]
async fn an_approval_that_lapsed_later_counts_toward_the_ceiling_on_the_days_before_it_lapsed() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let carta = |number: &str, amount: &str| {
            json!({ "i": { "number": number, "bankId": bb, "borrowerDocument": "529.982.247-25", "borrowerName": "Carla Produtora",
                "line": "RURAL", "activity": "GRAINS", "financedAmount": amount, "municipalityCode": 5107909 } })
        };
        let create = "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }";
        let first = app.data(create, carta("TETO-1", "10000000.00")).await["createFcoCarta"]["id"].clone();
        let second = app.data(create, carta("TETO-2", "6000000.00")).await["createFcoCarta"]["id"].clone();
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-03-02\") { id } }", json!({ "id": first })).await;
        app.data(
            "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true, on: \"2026-03-02\") { stage } }",
            json!({ "id": first }),
        )
        .await;
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-06-01\") { id } }", json!({ "id": second })).await;
        // The 120 days end on 30 June; the job runs on 15 July and dates the lapse 1 July.
        let m = expire(&app, "test:ceiling", "2026-07-15").await.expect("ours");
        assert!(m.contains("1 expired"), "{m}");

        let c = rule_on(&app, &second, "FCO-CEILING", "2026-06-30", None).await;
        assert!(
            c["status"] == "VIOLATED" && c["explanation"].as_str().is_some_and(|e| e.contains("16.000.000,00") || e.contains("16,000,000.00")),
            "10 M committed until it lapsed + 6 M: {c}"
        );
        let c = rule_on(&app, &second, "FCO-CEILING", "2026-07-01", None).await;
        assert_eq!(c["status"], "MET", "lapsed: {c}");
        let now = chrono::Utc::now().to_rfc3339();
        let c = rule_on(&app, &second, "FCO-CEILING", "2026-06-30", Some(&now)).await;
        assert_eq!(c["status"], "VIOLATED", "the same at an instant (knownAt): {c}");

        // The decision's guard reads the same: refused on 30 June, accepted from 1 July.
        let decide = "mutation D($id: ID!, $on: Date) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true, on: $on) { stage } }";
        let [code, rule, _, why] = refusal(&app, decide, json!({ "id": second, "on": "2026-06-30" })).await;
        assert_eq!((code.as_str(), rule.as_str()), ("RULE_VIOLATION", "FCO-CEILING"), "{why}");

        // The flag pass on 30 June raises the group's ceiling; its reading is the carta's.
        let spec = jobs::registry::find("flag-deadlines").expect("registered");
        let day = chrono::NaiveDate::from_ymd_opt(2026, 6, 30).expect("day");
        fomento_api::runtime::run_job_as_of(&app.runtime, spec, "test:flags", Some(day))
            .await
            .expect("the job runs")
            .expect("ours");
        let flags = app
            .data(
                "{ complianceFlags(filter: { ruleCodes: [\"FCO-CEILING\"], source: \"job:flag-deadlines\" }, first: 10) { nodes { open message } } }",
                json!({}),
            )
            .await["complianceFlags"]["nodes"]
            .clone();
        assert!(flags.as_array().is_some_and(|f| f.len() == 1 && f[0]["open"] == true), "{flags}");
        let k = app.data(decide, json!({ "id": second, "on": "2026-07-01" })).await;
        assert_eq!(k["decideFcoCarta"]["stage"], "APPROVED");
    })
    .await;
}

/// Art. 3 sole §: an unfavourable carta is resubmitted *reformulated*. The original lists one building; the
/// resubmission starts with no items: it cannot be submitted (no project stated) and FCO-RESUBMIT reads it PENDING
/// while a draft; the same building reworded is refused as unchanged; the building at a lower value is reformulated,
/// submitted, and FCO-RESUBMIT is MET naming what changed.
#[tokio::test]
async fn a_resubmission_with_no_items_or_the_same_ones_is_not_reformulated() {
    on_each_backend(false, |app| async move {
        let bb = seed_bb(&app).await;
        let id = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "REF-1", "bankId": bb, "borrowerDocument": "529.982.247-25",
                    "borrowerName": "Carla Produtora", "line": "RURAL", "activity": "GRAINS", "financedAmount": "400000.00",
                    "municipalityCode": 5107909 } }),
            )
            .await["createFcoCarta"]["id"]
            .clone();
        let add = "mutation I($i: AddFcoCartaItemInput!) { addFcoCartaItem(input: $i) { item { itemId } } }";
        let building = |carta: &Value, description: &str, value: &str, on: &str| {
            json!({ "i": { "cartaId": carta, "item": { "kind": "BUILDING", "description": description, "quantity": "1",
                "investmentClass": "FIXED", "value": value }, "effectiveOn": on } })
        };
        app.data(add, building(&id, "barracão", "400000.00", "2026-08-01")).await;
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-03\") { id } }", json!({ "id": id }))
            .await;
        app.data(
            "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: UNFAVOURABLE, byChamber: false, on: \"2026-08-05\") { stage } }",
            json!({ "id": id }),
        )
        .await;
        let again = app
            .data("mutation R($id: ID!) { resubmitFcoCarta(id: $id, number: \"REF-1B\") { id } }", json!({ "id": id }))
            .await["resubmitFcoCarta"]["id"]
            .clone();
        let submit = "mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-10\") { stage } }";
        // No items: not a reformulation, and the draft waits for one.
        let (_, body) = app.gql_in(Some("en"), submit, json!({ "id": again })).await;
        let e = &body["errors"][0]["extensions"];
        assert_eq!((e["code"].as_str(), e["ruleCode"].as_str()), (Some("RULE_VIOLATION"), Some("FCO-RESUBMIT")), "{body}");
        assert!(e["explanation"].as_str().is_some_and(|x| x.contains("no items")), "{body}");
        let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { compliance { ruleCode status explanation } } } }";
        let resubmit_rule = |n: &Value| {
            n["node"]["compliance"]
                .as_array()
                .and_then(|l| l.iter().find(|o| o["ruleCode"] == "FCO-RESUBMIT").cloned())
                .unwrap_or_default()
        };
        let draft = resubmit_rule(&app.data(q, json!({ "id": again })).await);
        assert_eq!(draft["status"], "PENDING", "{draft}");
        // The same building, reworded: unchanged.
        let item = app.data(add, building(&again, "barracão de máquinas", "400000.00", "2026-08-09")).await["addFcoCartaItem"]["item"]
            ["itemId"]
            .clone();
        let (_, body) = app.gql_in(Some("en"), submit, json!({ "id": again })).await;
        let e = &body["errors"][0]["extensions"];
        assert_eq!(e["ruleCode"], "FCO-RESUBMIT", "{body}");
        assert!(e["explanation"].as_str().is_some_and(|x| x.contains("the same value")), "{body}");
        // At a lower value it is reformulated.
        app.data(
            "mutation U($i: UpdateFcoCartaItemInput!) { updateFcoCartaItem(input: $i) { item { itemId } } }",
            json!({ "i": { "itemId": item, "item": { "kind": "BUILDING", "description": "barracão de máquinas",
                "quantity": "1", "investmentClass": "FIXED", "value": "350000.00" }, "effectiveOn": "2026-08-09" } }),
        )
        .await;
        assert_eq!(app.data(submit, json!({ "id": again })).await["submitFcoCarta"]["stage"], "SUBMITTED");
        let met = resubmit_rule(&app.data(q, json!({ "id": again })).await);
        assert_eq!(met["status"], "MET", "{met}");
    })
    .await;
}
