//! A faithful timeline (issue 41): facts dated when they happened, nothing overwritten, and `asOf: D` answering as
//! things stood on D, whatever was recorded since. The walks an MDA analyst and the chamber's secretary made through
//! the graph, replayed, and a property: random acts on random financings never change an earlier day's answer.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::{
    facts::{documents_received, new_project},
    helpers::{TestApp, on_each_backend},
    reports::{cpf, seed_bb},
};
use serde_json::{Value, json};

/// The whole answer to a query, errors and all.
async fn gql(app: &TestApp, query: &str, variables: Value) -> Value {
    app.gql(query, variables).await.1
}

/// An act that must be accepted: its answer.
async fn act(app: &TestApp, query: &str, variables: Value) -> Value {
    let body = gql(app, query, variables.clone()).await;
    assert_eq!(code(&body), "OK", "{query} {variables}: {body}");
    body
}

/// The first error's code, or `OK`.
fn code(body: &Value) -> &str {
    body["errors"][0]["extensions"]["code"].as_str().unwrap_or("OK")
}

/// A rule's outcome as a test compares it: `(rule, status, explanation)`.
type Outcome = (String, String, String);

/// A project's compliance as of `day`, in the order given.
async fn compliance_on(app: &TestApp, id: &Value, day: &str) -> Vec<Outcome> {
    let q = "query Q($id: ID!, $d: Date!) { node(id: $id) {
        ... on SocialFuelProject { compliance(asOf: $d) { ruleCode status explanation } }
        ... on FcoCarta { compliance(asOf: $d) { ruleCode status explanation } } } }";
    let body = app.data(q, json!({ "id": id, "d": day })).await;
    body["node"]["compliance"]
        .as_array()
        .expect("compliance")
        .iter()
        .map(|o| {
            (
                o["ruleCode"].as_str().unwrap_or("").to_owned(),
                o["status"].as_str().unwrap_or("").to_owned(),
                o["explanation"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

fn outcome<'a>(list: &'a [Outcome], rule: &str) -> &'a Outcome {
    list.iter()
        .find(|o| o.0 == rule)
        .unwrap_or_else(|| panic!("{rule} in {list:?}"))
}

const ADD_ACQUISITION: &str = "mutation A($i: AddFeedstockAcquisitionInput!) { addFeedstockAcquisition(input: $i) {
    acquisition { acquisitionId version { effectiveOn endedOn } } } }";
const ADD_PROPOSAL: &str =
    "mutation P($i: AddContractProposalInput!) { addContractProposal(input: $i) { proposal { proposalId } } }";

fn proposal() -> Value {
    json!({ "representationKind": "CONTAG", "representationName": "STR de Cuiabá", "representationAgreed": true,
        "termMonths": 36, "purchasePrice": "preço mínimo + 5 %", "priceAdjustment": "IPCA",
        "deliveryConditions": "na usina", "safeguards": "multa de 10 %" })
}

fn acquisition(kind: &str, cost: &str) -> Value {
    json!({ "year": 2016, "supplierKind": kind, "crop": "soja", "quantityKg": "50000", "cost": cost })
}

/// Walk 3: a project decided on 2016-03-20 after its share and proposal checks passed, its facts typed today but dated
/// when they happened, reads on its day as it was decided; its history starts on the day it was created, not today.
#[tokio::test]
async fn a_2016_decision_reads_on_its_day_the_share_and_proposals_it_was_decided_on() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let p = app
            .data(
                "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
                json!({ "i": { "title": "Usina de Cuiabá", "bankId": bb, "producerDocument": "11.222.333/0001-81",
                    "producerName": "Biodiesel S.A.", "plantMunicipalityCode": 5103403, "requestedAmount": "2000000.00",
                    "bankFramedOn": "2016-01-10", "createdOn": "2016-01-05" } }),
            )
            .await["createSocialFuelProject"]["id"]
            .clone();
        documents_received(&app, &p, "2016-01-12").await;
        let added = app
            .data(
                ADD_ACQUISITION,
                json!({ "i": { "projectId": p, "acquisition": acquisition("FAMILY_FARMER", "20000.00"),
                "effectiveOn": "2016-01-20" } }),
            )
            .await;
        assert_eq!(
            added["addFeedstockAcquisition"]["acquisition"]["version"]["effectiveOn"], "2016-01-20",
            "{added}"
        );
        app.data(
            ADD_ACQUISITION,
            json!({ "i": { "projectId": p, "acquisition": acquisition("OTHER_THIRD_PARTY", "80000.00"),
            "effectiveOn": "2016-01-20" } }),
        )
        .await;
        app.data(
            ADD_PROPOSAL,
            json!({ "i": { "projectId": p, "proposal": proposal(), "effectiveOn": "2016-01-25" } }),
        )
        .await;
        app.data(
            "mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2016-02-01\") { stage } }",
            json!({ "id": p }),
        )
        .await;
        let decided = app
            .data(
                "mutation M($id: ID!) { decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: \"2016-03-20\",
                    letter: \"Ofício 12/MDA\", overrideReason: \"plano de assistência em análise\") { stage } }",
                json!({ "id": p }),
            )
            .await;
        assert_eq!(decided["decideSocialFuelProject"]["stage"], "CONFORMING", "{decided}");

        let on_the_day = compliance_on(&app, &p, "2016-03-20").await;
        let representation = outcome(&on_the_day, "SF-REPRESENTATION");
        assert_eq!(
            representation.1, "MET",
            "the proposal of January held: {representation:?}"
        );
        let share = outcome(&on_the_day, "SF-SHARE-MIN");
        assert_eq!(share.1, "MET", "the acquisitions of January held: {share:?}");
        // Before the facts happened, they were not there.
        let before = compliance_on(&app, &p, "2016-01-15").await;
        assert_eq!(outcome(&before, "SF-SHARE-MIN").1, "PENDING", "{before:?}");
        // The history's first row is the day the request was made.
        let history = app
            .data(
                "query H($id: ID!) { node(id: $id) { ... on SocialFuelProject { history { event occurredOn } } } }",
                json!({ "id": p }),
            )
            .await;
        assert_eq!(history["node"]["history"][0]["event"], "CREATE", "{history}");
        assert_eq!(history["node"]["history"][0]["occurredOn"], "2016-01-05", "{history}");
        // A fact cannot be dated after today.
        let late = gql(
            &app,
            ADD_PROPOSAL,
            json!({ "i": { "projectId": p, "proposal": proposal(), "effectiveOn": "2999-01-01", "reason": "x" } }),
        )
        .await;
        assert_eq!(code(&late), "BAD_USER_INPUT", "{late}");
        assert!(late.to_string().contains("input.effectiveOn"), "{late}");
    })
    .await;
}

/// Walk 2: a document received again after the filing is a new version with a reason and a history row; the dossier
/// as filed is still judged on the documents it had, today and as of its day.
#[tokio::test]
async fn a_document_received_again_leaves_the_filed_dossier_as_filed() {
    on_each_backend(false, |app| async move {
        let p = new_project(&app, Some("2016-01-10")).await;
        documents_received(&app, &p, "2016-01-12").await;
        app.data("mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2016-02-01\") { stage } }", json!({ "id": p }))
            .await;
        let again = "mutation D($id: ID!, $on: Date!, $reason: String) { addProjectDocument(projectId: $id,
            kind: GOOD_STANDING_DECLARATION, receivedOn: $on, reason: $reason) { receivedOn version { changeReason } } }";
        let refused = gql(&app, again, json!({ "id": p, "on": "2019-01-01" })).await;
        assert_eq!(code(&refused), "BAD_USER_INPUT", "{refused}");
        assert!(refused["errors"][0]["message"].as_str().unwrap_or("").starts_with("reason"), "{refused}");
        // Not slipped into the filing: no earlier than the filing day.
        let backdated = gql(&app, again, json!({ "id": p, "on": "2015-12-01", "reason": "certidão reemitida" }))
            .await;
        assert_eq!(code(&backdated), "BAD_USER_INPUT", "{backdated}");
        let ok = app.data(again, json!({ "id": p, "on": "2019-01-01", "reason": "certidão renovada" })).await;
        assert_eq!(ok["addProjectDocument"]["version"]["changeReason"], "certidão renovada", "{ok}");
        for day in ["2016-02-01", "2016-03-20", "2026-01-01"] {
            let judged = compliance_on(&app, &p, day).await;
            assert_eq!(outcome(&judged, "SF-DOCUMENTS").1, "MET", "{day}: {judged:?}");
        }
        let docs = app
            .data(
                "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { current: documents { kind receivedOn }
                    all: documents(includeSuperseded: true) { kind receivedOn version { supersededAt } }
                    history { event occurredOn note } } } }",
                json!({ "id": p }),
            )
            .await;
        let node = &docs["node"];
        assert_eq!(node["current"].as_array().map(Vec::len), Some(6), "{docs}");
        assert_eq!(node["all"].as_array().map(Vec::len), Some(7), "the filed declaration is kept: {docs}");
        let filed = node["all"]
            .as_array()
            .and_then(|l| {
                l.iter()
                    .find(|d| d["kind"] == "GOOD_STANDING_DECLARATION" && d["receivedOn"] == "2016-01-12")
            })
            .expect("the declaration as filed");
        assert!(filed["version"]["supersededAt"].is_string(), "{filed}");
        assert!(
            node["history"]
                .as_array()
                .is_some_and(|h| h.iter().any(|r| r["event"] == "DOCUMENT" && r["occurredOn"] == "2019-01-01")),
            "{docs}"
        );
    })
    .await;
}

/// Walk 4 (the agenda): a carta is on a meeting's agenda from the day SEDEC received it, never before it was
/// submitted.
#[tokio::test]
async fn no_carta_shows_agenda_facts_before_they_happened() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let carta = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "AGENDA-1", "bankId": bb, "borrowerDocument": cpf(96), "borrowerName": "Rita Produtora",
                    "line": "RURAL", "activity": "GRAINS", "financedAmount": "2000000.00", "municipalityCode": 5107909,
                    "createdOn": "2026-05-14" } }),
            )
            .await["createFcoCarta"]["id"]
            .clone();
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-05-21\") { id } }", json!({ "id": carta })).await;
        let meeting = app
            .data(
                "mutation M($i: ScheduleChamberMeetingInput!) { scheduleChamberMeeting(input: $i) { meeting { id } } }",
                json!({ "i": { "startsAt": "2026-06-08T09:00:00-04:00" } }),
            )
            .await["scheduleChamberMeeting"]["meeting"]["id"]
            .clone();
        app.data(
            "mutation P($i: PlaceFcoCartaOnAgendaInput!) { placeFcoCartaOnAgenda(input: $i) { carta { id } } }",
            json!({ "i": { "cartaId": carta, "meetingId": meeting, "receivedAt": "2026-06-01T10:00:00-04:00" } }),
        )
        .await;
        let deadline = |day: &'static str| {
            let (app, carta) = (&app, carta.clone());
            async move {
                let q = "query Q($id: ID!, $d: Date!) { node(id: $id) { ... on FcoCarta { deadlines(asOf: $d) { ruleCode status } } } }";
                let n = app.data(q, json!({ "id": carta, "d": day })).await;
                n["node"]["deadlines"]
                    .as_array()
                    .and_then(|l| l.iter().find(|d| d["ruleCode"] == "FCO-72H-BEFORE").cloned())
                    .expect("FCO-72H-BEFORE")
            }
        };
        for day in ["2019-06-01", "2026-05-25"] {
            let d = deadline(day).await;
            assert_eq!(d["status"], "NOT_STARTED", "{day}: not on an agenda yet: {d}");
        }
        assert_eq!(deadline("2026-06-02").await["status"], "MET");
    })
    .await;
}

/// A small deterministic generator (xorshift), so that a failing sequence can be replayed from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// One random act on a project on `day`, dated that day; `decided` says whether a reason is needed.
async fn random_act(app: &TestApp, rng: &mut Rng, p: &Value, day: &str, acquisitions: &mut Vec<Value>) {
    let kinds = ["FAMILY_FARMER", "OTHER_THIRD_PARTY", "FAMILY_FARM_COOPERATIVE"];
    let kind = kinds[rng.below(kinds.len() as u64) as usize];
    let cost = format!("{}.00", 1_000 + rng.below(90_000));
    match rng.below(6) {
        0 | 1 => {
            let body = act(
                    app,
                    ADD_ACQUISITION,
                    json!({ "i": { "projectId": p, "acquisition": acquisition(kind, &cost), "effectiveOn": day, "reason": "nota fiscal" } }),
                )
                .await;
            if let Some(id) = body["data"]["addFeedstockAcquisition"]["acquisition"]["acquisitionId"].as_i64() {
                acquisitions.push(json!(id));
            }
        }
        2 if !acquisitions.is_empty() => {
            let k = rng.below(acquisitions.len() as u64) as usize;
            let body = act(
                    app,
                    "mutation U($i: UpdateFeedstockAcquisitionInput!) { updateFeedstockAcquisition(input: $i) { acquisition { acquisitionId } } }",
                    json!({ "i": { "acquisitionId": acquisitions[k], "acquisition": acquisition(kind, &cost), "effectiveOn": day,
                        "reason": "nota corrigida" } }),
                )
                .await;
            if let Some(id) = body["data"]["updateFeedstockAcquisition"]["acquisition"]["acquisitionId"].as_i64() {
                acquisitions[k] = json!(id);
            }
        }
        3 if !acquisitions.is_empty() => {
            let k = rng.below(acquisitions.len() as u64) as usize;
            act(
                    app,
                    "mutation R($i: RemoveFeedstockAcquisitionInput!) { removeFeedstockAcquisition(input: $i) { project { id } } }",
                    json!({ "i": { "acquisitionId": acquisitions[k], "effectiveOn": day, "reason": "contrato desfeito" } }),
                )
                .await;
            acquisitions.remove(k);
        }
        4 => {
            act(app,
                ADD_PROPOSAL,
                json!({ "i": { "projectId": p, "proposal": proposal(), "effectiveOn": day, "reason": "nova proposta" } }),
            )
            .await;
        }
        _ => {
            let plan = json!({ "staffDescription": "2 agrônomos", "coverageArea": "Cuiabá", "farmersAssisted": 10 + rng.below(200),
                "methodology": if rng.below(2) == 0 { Value::Null } else { json!("visitas mensais") } });
            act(app,
                "mutation P($i: RecordAssistancePlanInput!) { recordAssistancePlan(input: $i) { plan { methodology } } }",
                json!({ "i": { "projectId": p, "plan": plan, "effectiveOn": day, "reason": "plano revisto" } }),
            )
            .await;
            if rng.below(2) == 0 {
                act(app,
                    "mutation C($id: ID!, $d: Date) { confirmChecklistItem(financingId: $id, ruleCode: \"SF-ASSISTANCE-PLAN\",
                        confirmedBy: \"Ana (MDA)\", on: $d) { status } }",
                    json!({ "id": p, "d": day }),
                )
                .await;
            }
        }
    }
}

/// One random act on a carta's items on `day`, dated that day (always with a reason, needed once it is decided).
async fn random_item_act(app: &TestApp, rng: &mut Rng, carta: &Value, day: &str, items: &mut Vec<Value>) {
    let item = if rng.below(2) == 0 {
        json!({ "kind": "DAM", "description": "matrizes nelore", "headCount": 1 + rng.below(40), "ageMonths": 30,
            "investmentClass": "SEMI_FIXED", "value": "90000.00" })
    } else {
        json!({ "kind": "SIRE", "description": "touro nelore", "headCount": 1, "ageMonths": 36,
            "registration": if rng.below(2) == 0 { json!("PO_RGD") } else { Value::Null },
            "investmentClass": "SEMI_FIXED", "value": "15000.00" })
    };
    match rng.below(4) {
        0 | 1 => {
            let body = act(
                app,
                "mutation A($i: AddFcoCartaItemInput!) { addFcoCartaItem(input: $i) { item { itemId } } }",
                json!({ "i": { "cartaId": carta, "item": item, "effectiveOn": day, "reason": "item novo" } }),
            )
            .await;
            items.push(body["data"]["addFcoCartaItem"]["item"]["itemId"].clone());
        }
        2 if !items.is_empty() => {
            let k = rng.below(items.len() as u64) as usize;
            let body = act(
                app,
                "mutation U($i: UpdateFcoCartaItemInput!) { updateFcoCartaItem(input: $i) { item { itemId } } }",
                json!({ "i": { "itemId": items[k], "item": item, "effectiveOn": day, "reason": "item corrigido" } }),
            )
            .await;
            items[k] = body["data"]["updateFcoCartaItem"]["item"]["itemId"].clone();
        }
        _ if !items.is_empty() => {
            let k = rng.below(items.len() as u64) as usize;
            act(
                app,
                "mutation R($i: RemoveFcoCartaItemInput!) { removeFcoCartaItem(input: $i) { carta { id } } }",
                json!({ "i": { "itemId": items[k], "effectiveOn": day, "reason": "item retirado" } }),
            )
            .await;
            items.remove(k);
        }
        _ => {}
    }
}

/// For random sequences of acts on random financings, each dated the day it is made, `compliance(asOf: D)` asked
/// after every later act equals the answer given on day D: nothing later changes the past. The seeds are printed; set
/// `FOMENTO_TIMELINE_SEED` to replay one.
#[tokio::test]
async fn nothing_done_later_changes_what_a_day_answered() {
    on_each_backend(false, |app| async move {
        let seeds: Vec<u64> = match std::env::var("FOMENTO_TIMELINE_SEED").ok().and_then(|s| s.parse().ok()) {
            Some(seed) => vec![seed],
            None => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64);
                vec![now | 1, now.rotate_left(17) | 1]
            }
        };
        let first = new_project(&app, Some("2015-12-01")).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let second = app
            .data(
                "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
                json!({ "i": { "title": "Usina de Rondonópolis", "bankId": bb, "producerDocument": "11.444.777/0001-61",
                    "producerName": "Óleos do Sul S.A.", "plantMunicipalityCode": 5107602, "requestedAmount": "3000000.00",
                    "bankFramedOn": "2015-12-01", "createdOn": "2015-11-20" } }),
            )
            .await["createSocialFuelProject"]["id"]
            .clone();
        let projects = [first, second];
        for p in &projects {
            documents_received(&app, p, "2015-12-02").await;
        }
        // A carta of beef cattle below R$ 1 M (the bank decides it), its acts four years after the projects' (CDAE/MT
        // 2019 took effect on 2019-03-20).
        let carta = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "PROP-1", "bankId": bb, "borrowerDocument": cpf(97), "borrowerName": "Lia Pecuarista",
                    "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "500000.00", "municipalityCode": 5107909,
                    "createdOn": "2019-12-20" } }),
            )
            .await["createFcoCarta"]["id"]
            .clone();
        let mut items = Vec::new();
        let mut answered: Vec<(Value, String, Vec<Outcome>)> = Vec::new();
        let mut acquisitions = [Vec::new(), Vec::new()];
        let (mut filed, mut decided) = ([false; 2], [false; 2]);
        let mut day = chrono::NaiveDate::from_ymd_opt(2016, 1, 4).expect("day");
        for (round, seed) in seeds.into_iter().enumerate() {
            let first_round = round == 0;
            eprintln!("timeline property: seed {seed} ({:?})", app.backend);
            let mut rng = Rng(seed);
            for step in 0..20 {
                let d = day.to_string();
                let k = rng.below(2) as usize;
                // Each project is filed, then decided, on a day of the sequence; the other days bring random facts.
                let stage = (step == 6 || step == 9, step == 12 || step == 15);
                let k = if stage.0 || stage.1 { usize::from(step >= 9 && step != 12) } else { k };
                let p = &projects[k];
                if stage.0 && !filed[k] {
                    act(
                        &app,
                        "mutation F($id: ID!, $d: Date) { fileSocialFuelProject(id: $id, on: $d) { stage } }",
                        json!({ "id": p, "d": d }),
                    )
                    .await;
                    filed[k] = true;
                } else if stage.1 && filed[k] && !decided[k] {
                    act(
                        &app,
                        "mutation M($id: ID!, $d: Date) { decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: $d,
                            letter: \"Ofício 3/MDA\", overrideReason: \"teste de propriedade\") { stage } }",
                        json!({ "id": p, "d": d }),
                    )
                    .await;
                    decided[k] = true;
                } else {
                    random_act(&app, &mut rng, p, &d, &mut acquisitions[k]).await;
                }
                let cd = (day + chrono::Duration::days(1461)).to_string();
                match step {
                    7 if first_round => {
                        act(&app, "mutation S($id: ID!, $d: Date) { submitFcoCarta(id: $id, on: $d) { id } }", json!({ "id": carta, "d": cd }))
                            .await;
                    }
                    13 if first_round => {
                        act(
                            &app,
                            "mutation D($id: ID!, $d: Date) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: false, on: $d,
                                overrideReason: \"teste de propriedade\") { id } }",
                            json!({ "id": carta, "d": cd }),
                        )
                        .await;
                    }
                    _ => random_item_act(&app, &mut rng, &carta, &cd, &mut items).await,
                }
                for p in &projects {
                    answered.push((p.clone(), d.clone(), compliance_on(&app, p, &d).await));
                }
                answered.push((carta.clone(), cd.clone(), compliance_on(&app, &carta, &cd).await));
                day += chrono::Duration::days(1 + rng.below(3) as i64);
            }
        }
        for (p, d, then) in &answered {
            let now = compliance_on(&app, p, d).await;
            assert_eq!(&now, then, "asOf {d} changed after later acts ({:?})", app.backend);
        }
        // The sequence did move the rules: the answers are not all the same.
        let distinct: std::collections::HashSet<String> = answered.iter().map(|(_, _, a)| format!("{a:?}")).collect();
        assert!(distinct.len() > 3, "the acts changed what the days answered: {}", distinct.len());
    })
    .await;
}

/// Sleeps past the current second: times are shown to the second, and an instant given to the second covers it.
async fn next_second() {
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
}

/// The instant now, to the second, as an auditor would copy it from a `recordedAt`.
fn instant_now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A financing's compliance, deadlines and history, as a front-end reads them (at instant `known_at` when given).
async fn record(app: &TestApp, id: &Value, known_at: Option<&str>) -> Value {
    let q = "query Q($id: ID!, $t: DateTime) { node(id: $id) {
        ... on SocialFuelProject { compliance(knownAt: $t) { ruleCode status explanation }
            deadlines(knownAt: $t) { ruleCode status dueDate dueAt countingNote } history(knownAt: $t) { event occurredOn recordedAt } }
        ... on FcoCarta { compliance(knownAt: $t) { ruleCode status explanation }
            deadlines(knownAt: $t) { ruleCode status dueDate dueAt countingNote } history(knownAt: $t) { event occurredOn recordedAt } } } }";
    app.data(q, json!({ "id": id, "t": known_at })).await["node"].clone()
}

/// Item 3 of issue 41, "where an auditor asks": `knownAt: T` answers as the record stood at instant T, whatever was
/// recorded since — a backdated confirmation, an amendment that reopened the approval (the carta row changed in
/// place), items added and corrected, a rule parameter corrected, acts recorded — while `asOf` answers with what is
/// known now. Each financing's answer at T, read again after everything that followed, is the answer given at T.
#[tokio::test]
async fn known_at_answers_what_the_record_held_at_that_instant() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let carta = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "KNOWN-1", "bankId": bb, "borrowerDocument": cpf(97), "borrowerName": "Rosa Auditada",
                    "line": "RURAL", "activity": "GRAINS", "financedAmount": "800000.00", "municipalityCode": 5107909,
                    "createdOn": "2026-05-14" } }),
            )
            .await["createFcoCarta"]["id"]
            .clone();
        // Before the carta was recorded there is nothing it knew.
        let before = gql(
            &app,
            "query Q($id: ID!, $t: DateTime) { node(id: $id) { ... on FcoCarta { compliance(knownAt: $t) { status } } } }",
            json!({ "id": carta, "t": "2026-01-01T00:00:00Z" }),
        )
        .await;
        assert_eq!(code(&before), "BAD_USER_INPUT", "{before}");
        assert!(before.to_string().contains("knownAt"), "{before}");
        act(&app, "mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-05-21\") { id } }", json!({ "id": carta })).await;
        act(
            &app,
            "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: false, on: \"2026-05-28\",
                overrideReason: \"análise do banco\") { id } }",
            json!({ "id": carta }),
        )
        .await;
        act(&app, "mutation K($id: ID!) { contractFcoCarta(id: $id, on: \"2026-06-15\") { id } }", json!({ "id": carta })).await;
        next_second().await;
        let t1 = instant_now();
        let at_t1 = record(&app, &carta, None).await;
        next_second().await;

        // What was recorded after T1: an amendment that needs a new approval (the row changes in place), a
        // confirmation backdated to before T1, an item.
        act(
            &app,
            "mutation A($id: ID!) { amendFcoCarta(id: $id, kind: VALUE_INCREASE, description: \"orçamento\",
                newAmount: \"960000.00\", on: \"2026-07-10\") { id } }",
            json!({ "id": carta }),
        )
        .await;
        act(
            &app,
            "mutation C($id: ID!) { confirmChecklistItem(financingId: $id, ruleCode: \"FCO-TEMPLATE\",
                confirmedBy: \"Ana (CDAE)\", on: \"2026-05-21\") { status } }",
            json!({ "id": carta }),
        )
        .await;
        let now = record(&app, &carta, None).await;
        assert_ne!(now["compliance"], at_t1["compliance"], "what was recorded since changes today's rules");
        assert_ne!(now["deadlines"], at_t1["deadlines"], "and deadlines");
        // The backdated confirmation holds on its day for `asOf`, which reads what is known now...
        let as_of = compliance_on(&app, &carta, "2026-06-01").await;
        assert_eq!(outcome(&as_of, "FCO-TEMPLATE").1, "MET", "{as_of:?}");
        // ...but the record at T1 did not have it, nor the amendment: the answer at T1, read again, is the one given.
        assert_eq!(record(&app, &carta, Some(&t1)).await, at_t1, "knownAt {t1}");
        let history = at_t1["history"].as_array().expect("history").len();
        assert!(history >= 4, "{at_t1}");
        assert!(now["history"].as_array().expect("history").len() > history, "{now}");

        // A project: the same for versions corrected after T (an acquisition) and a document received again.
        let p = app
            .data(
                "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
                json!({ "i": { "title": "Usina Auditada", "bankId": bb, "producerDocument": "11.222.333/0001-81",
                    "producerName": "Biodiesel S.A.", "plantMunicipalityCode": 5103403, "requestedAmount": "2000000.00",
                    "bankFramedOn": "2016-01-10", "createdOn": "2016-01-05" } }),
            )
            .await["createSocialFuelProject"]["id"]
            .clone();
        documents_received(&app, &p, "2016-01-12").await;
        let added = act(
            &app,
            ADD_ACQUISITION,
            json!({ "i": { "projectId": p, "acquisition": acquisition("FAMILY_FARMER", "20000.00"), "effectiveOn": "2016-01-20" } }),
        )
        .await;
        let acquisition_id = added["data"]["addFeedstockAcquisition"]["acquisition"]["acquisitionId"].clone();
        next_second().await;
        let t2 = instant_now();
        let p_at_t2 = record(&app, &p, None).await;
        let share_at_t2 = compliance_on(&app, &p, "2016-02-01").await;
        next_second().await;
        act(
            &app,
            "mutation X($i: UpdateFeedstockAcquisitionInput!) { updateFeedstockAcquisition(input: $i) { acquisition { acquisitionId } } }",
            json!({ "i": { "acquisitionId": acquisition_id, "acquisition": acquisition("OTHER_THIRD_PARTY", "20000.00"),
                "reason": "fornecedor lançado errado" } }),
        )
        .await;
        act(
            &app,
            "mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2016-02-01\") { stage } }",
            json!({ "id": p }),
        )
        .await;
        assert_ne!(record(&app, &p, None).await["compliance"], p_at_t2["compliance"]);
        assert_eq!(record(&app, &p, Some(&t2)).await, p_at_t2, "knownAt {t2}");
        // asOf the same day reads the correction (what is known now); knownAt T2 with that asOf reads what was known.
        let corrected = compliance_on(&app, &p, "2016-02-01").await;
        assert_ne!(outcome(&corrected, "SF-SHARE-MIN"), outcome(&share_at_t2, "SF-SHARE-MIN"), "{corrected:?}");
        let q = "query Q($id: ID!, $t: DateTime, $d: Date) { node(id: $id) { ... on SocialFuelProject {
            compliance(knownAt: $t, asOf: $d) { ruleCode status explanation } } } }";
        let then = app.data(q, json!({ "id": p, "t": t2, "d": "2016-02-01" })).await;
        let then_share = then["node"]["compliance"]
            .as_array()
            .and_then(|l| l.iter().find(|o| o["ruleCode"] == "SF-SHARE-MIN").cloned())
            .expect("SF-SHARE-MIN");
        assert_eq!(then_share["status"], outcome(&share_at_t2, "SF-SHARE-MIN").1.as_str(), "{then_share}");
        // An asOf after knownAt's day is refused, naming asOf.
        let later = gql(&app, q, json!({ "id": p, "t": "2026-01-01T12:00:00Z", "d": "2026-02-01" })).await;
        assert_eq!(code(&later), "BAD_USER_INPUT", "{later}");
        assert!(later.to_string().contains("asOf"), "{later}");
    })
    .await;
}
