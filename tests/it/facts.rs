//! Recording the facts the rules read through the graph (issue 13): a carta's items, edited freely until the
//! decision, corrected by new versions with a reason after it.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::{
    helpers::{TestApp, on_each_backend},
    reports::{cpf, seed_bb},
};
use serde_json::{Value, json};

pub(crate) fn status<'a>(compliance: &'a Value, code: &str) -> &'a Value {
    compliance
        .as_array()
        .and_then(|l| l.iter().find(|o| o["ruleCode"] == code))
        .map(|o| &o["status"])
        .unwrap_or(&Value::Null)
}

/// A project of a Cuiabá plant (Centre-West: a 10 % minimum share) through BB, framed by the bank on `framed_on`.
pub(crate) async fn new_project(app: &TestApp, framed_on: Option<&str>) -> Value {
    seed_bb(app).await;
    let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
    app.data(
        "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
        json!({ "i": { "title": "Usina de Cuiabá", "bankId": bb, "producerDocument": "11.222.333/0001-81",
            "producerName": "Biodiesel S.A.", "plantMunicipalityCode": 5103403, "requestedAmount": "2000000.00",
            "bankFramedOn": framed_on } }),
    )
    .await["createSocialFuelProject"]["id"]
        .clone()
}

/// Records the six annex-I documents of a project (art. 8), received on 2 March 2015.
pub(crate) async fn all_documents(app: &TestApp, project: &Value) {
    documents_received(app, project, "2015-03-02").await;
}

/// Records the six annex-I documents of a project (art. 8), received on `on`.
pub(crate) async fn documents_received(app: &TestApp, project: &Value, on: &str) {
    for kind in [
        "REQUEST_LETTER",
        "BANK_FRAMING_LETTER",
        "SOCIAL_FUEL_PROJECT",
        "FARMER_CONTRACT",
        "CNPJ_REGISTRATION",
        "GOOD_STANDING_DECLARATION",
    ] {
        app.data(
            "mutation D($id: ID!, $k: ProjectDocumentKind!, $on: Date!) { addProjectDocument(projectId: $id, kind: $k, receivedOn: $on) { kind } }",
            json!({ "id": project, "k": kind, "on": on }),
        )
        .await;
    }
}

const PAYLOAD: &str =
    "carta { compliance { ruleCode status explanation } items { itemId kind headCount registration } }
    item { itemId version { recordedBy supersededAt changeReason } }";

async fn add(app: &TestApp, carta: &Value, item: Value, reason: Option<&str>) -> Value {
    let q = format!("mutation A($i: AddFcoCartaItemInput!) {{ addFcoCartaItem(input: $i) {{ {PAYLOAD} }} }}");
    app.data(&q, json!({ "i": { "cartaId": carta, "item": item, "reason": reason } }))
        .await["addFcoCartaItem"]
        .clone()
}

fn update_q() -> String {
    format!("mutation U($i: UpdateFcoCartaItemInput!) {{ updateFcoCartaItem(input: $i) {{ {PAYLOAD} }} }}")
}

fn remove_q() -> String {
    format!("mutation R($i: RemoveFcoCartaItemInput!) {{ removeFcoCartaItem(input: $i) {{ {PAYLOAD} }} }}")
}

fn dams(n: i32) -> Value {
    json!({ "kind": "DAM", "description": "matrizes nelore", "headCount": n, "ageMonths": 30,
        "investmentClass": "SEMI_FIXED", "value": "90000.00" })
}

fn sire(registration: Option<&str>) -> Value {
    json!({ "kind": "SIRE", "description": "touro nelore", "headCount": 1, "ageMonths": 36,
        "registration": registration, "investmentClass": "SEMI_FIXED", "value": "15000.00" })
}

#[tokio::test]
async fn a_cartas_items_recorded_through_the_graph_move_its_livestock_rules_across_their_boundaries() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let created = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "ITENS-1", "bankId": bb, "borrowerDocument": cpf(71), "borrowerName": "Maria Pecuarista",
                    "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "500000.00", "municipalityCode": 5107909 } }),
            )
            .await;
        let carta = created["createFcoCarta"]["id"].clone();

        // 30 dams and one registered sire: 1 sire per 30 dams is met.
        let p = add(&app, &carta, dams(30), None).await;
        let dam_id = p["item"]["itemId"].clone();
        let by = p["item"]["version"]["recordedBy"].as_str().unwrap_or("");
        assert!(by.starts_with("tests (admin key "), "the key that recorded it: {by}");
        let p = add(&app, &carta, sire(Some("PO_RGD")), None).await;
        let sire_id = p["item"]["itemId"].clone();
        let c = &p["carta"]["compliance"];
        assert_eq!(
            (status(c, "FCO-SIRE-RATIO"), status(c, "FCO-SIRE-PEDIGREE")),
            (&json!("MET"), &json!("MET")),
            "{c}"
        );

        // Before the decision a change is a new version too (no reason needed), from the day the item held: 31 dams
        // break the ratio.
        let p = app.data(&update_q(), json!({ "i": { "itemId": dam_id, "item": dams(31) } })).await["updateFcoCartaItem"].clone();
        assert_eq!(status(&p["carta"]["compliance"], "FCO-SIRE-RATIO"), "VIOLATED");
        assert_ne!(p["item"]["itemId"], dam_id, "a new version; nothing is overwritten");
        let dam_id = p["item"]["itemId"].clone();
        assert_eq!(p["carta"]["items"].as_array().map(Vec::len), Some(2));

        // Removing the sire: no sire at all for 31 dams; the pedigree rule no longer applies.
        let p = app.data(&remove_q(), json!({ "i": { "itemId": sire_id } })).await["removeFcoCartaItem"].clone();
        let c = &p["carta"]["compliance"];
        assert_eq!(
            (status(c, "FCO-SIRE-RATIO"), status(c, "FCO-SIRE-PEDIGREE")),
            (&json!("VIOLATED"), &json!("NOT_APPLICABLE")),
            "{c}"
        );
        assert!(p["item"].is_null());
        let p = add(&app, &carta, sire(None), None).await;
        let sire_id = p["item"]["itemId"].clone();
        assert_eq!(status(&p["carta"]["compliance"], "FCO-SIRE-PEDIGREE"), "VIOLATED", "an unregistered sire");
        let p = app.data(&update_q(), json!({ "i": { "itemId": dam_id, "item": dams(30) } })).await["updateFcoCartaItem"].clone();
        assert_eq!(
            status(&p["carta"]["compliance"], "FCO-SIRE-RATIO"),
            "VIOLATED",
            "art. 6 I c counts sires of item a's standards: an unregistered one counts for nothing"
        );
        let dam_id = p["item"]["itemId"].clone();

        // Bad items are refused, naming the field.
        let (message, code) = app
            .error(
                "mutation A($i: AddFcoCartaItemInput!) { addFcoCartaItem(input: $i) { item { itemId } } }",
                json!({ "i": { "cartaId": carta, "item": { "kind": "DAM", "description": "sem cabeças", "investmentClass": "SEMI_FIXED", "value": "1.00" } } }),
            )
            .await;
        assert_eq!((code.as_str(), message.starts_with("input.headCount")), ("BAD_USER_INPUT", true), "{message}");

        // After the bank's decision (over the unregistered sire, saying why) a change needs a reason, and is a new
        // version; the old one stays.
        let decide = "decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: false, overrideReason: \"registro em andamento\")";
        for step in ["submitFcoCarta(id: $id)", decide] {
            app.data(&format!("mutation M($id: ID!) {{ {step} {{ id }} }}"), json!({ "id": carta })).await;
        }
        let (message, code) = app
            .error(&update_q(), json!({ "i": { "itemId": sire_id, "item": sire(Some("CEIP")) } }))
            .await;
        assert_eq!((code.as_str(), message.starts_with("input.reason")), ("BAD_USER_INPUT", true), "{message}");
        let p = app
            .data(
                &update_q(),
                json!({ "i": { "itemId": sire_id, "item": sire(Some("CEIP")), "reason": "registro CEIP apresentado" } }),
            )
            .await["updateFcoCartaItem"]
            .clone();
        assert_ne!(p["item"]["itemId"], sire_id, "a new version");
        assert_eq!(p["item"]["version"]["changeReason"], "registro CEIP apresentado");
        assert_eq!(status(&p["carta"]["compliance"], "FCO-SIRE-PEDIGREE"), "MET");
        assert_eq!(status(&p["carta"]["compliance"], "FCO-SIRE-RATIO"), "MET", "the CEIP sire counts");
        let all = app
            .data(
                "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { items(includeSuperseded: true) { itemId registration version { supersededAt supersededBy changeReason } } } } }",
                json!({ "id": carta }),
            )
            .await;
        let all = all["node"]["items"].as_array().cloned().unwrap_or_default();
        let old = all.iter().find(|i| i["itemId"] == sire_id).expect("the old version is kept");
        assert_eq!(old["version"]["supersededBy"], p["item"]["itemId"]);
        assert!(old["version"]["supersededAt"].is_string() && old["registration"].is_null(), "{old}");
        // The old version can no longer be changed: the one in force can.
        let (message, _) = app
            .error(&update_q(), json!({ "i": { "itemId": sire_id, "item": sire(None), "reason": "x" } }))
            .await;
        assert!(message.contains("already corrected"), "{message}");

        // Removing after the decision keeps the item, marked removed, with the reason.
        let (message, _) = app.error(&remove_q(), json!({ "i": { "itemId": dam_id } })).await;
        assert!(message.starts_with("input.reason"), "{message}");
        let p = app
            .data(&remove_q(), json!({ "i": { "itemId": dam_id, "reason": "matrizes retiradas do projeto" } }))
            .await["removeFcoCartaItem"]
            .clone();
        assert_eq!(p["carta"]["items"].as_array().map(Vec::len), Some(1), "{p}");
        assert_eq!(status(&p["carta"]["compliance"], "FCO-SIRE-RATIO"), "NOT_APPLICABLE", "no dams any more");
        let all = app
            .data(
                "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { items(includeSuperseded: true) { itemId version { supersededAt changeReason } } } } }",
                json!({ "id": carta }),
            )
            .await;
        let removed = all["node"]["items"]
            .as_array()
            .and_then(|l| l.iter().find(|i| i["itemId"] == dam_id).cloned())
            .expect("kept");
        assert_eq!(removed["version"]["changeReason"], "matrizes retiradas do projeto");
    })
    .await;
}

/// Economic groups recorded through the graph: two borrowers' approved cartas, each under the R$ 15 M ceiling alone,
/// pass it once the two are grouped, and are under it again when one leaves.
#[tokio::test]
async fn grouping_two_borrowers_through_the_graph_moves_fco_ceiling_across_its_boundary() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let create = "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }";
        let step = |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ id }} }}");
        let (ana, beto) = (cpf(91), cpf(92));
        let mut cartas = Vec::new();
        for (number, document, name, amount) in [
            ("GRUPO-1", &ana, "Ana Produtora", "9000000.00"),
            ("GRUPO-2", &beto, "Beto Produtor", "6000000.01"),
        ] {
            let id = app
                .data(create, json!({ "i": { "number": number, "bankId": bb, "borrowerDocument": document, "borrowerName": name,
                    "line": "RURAL", "activity": "GRAINS", "financedAmount": amount, "municipalityCode": 5107909 } }))
                .await["createFcoCarta"]["id"]
                .clone();
            app.data(&step("submitFcoCarta", ", on: \"2026-08-03\""), json!({ "id": id })).await;
            app.data(&step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: true, on: \"2026-08-10\""), json!({ "id": id }))
                .await;
            cartas.push(id);
        }
        // Judged today (the default), and as of 1 September, before any group was recorded.
        let ceiling_on = |id: Value, as_of: Option<String>| {
            let app = &app;
            async move {
                let q = "query Q($id: ID!, $d: Date) { node(id: $id) { ... on FcoCarta { compliance(asOf: $d) { ruleCode status explanation } } } }";
                let d = app.data(q, json!({ "id": id, "d": as_of })).await;
                status(&d["node"]["compliance"], "FCO-CEILING").clone()
            }
        };
        let ceiling = |id: Value| ceiling_on(id, None);
        assert_eq!(ceiling(cartas[0].clone()).await, "MET", "R$ 9 M alone");
        assert_eq!(ceiling(cartas[1].clone()).await, "MET", "R$ 6 M alone");

        let g = app
            .data(
                "mutation G($i: CreateEconomicGroupInput!) { createEconomicGroup(input: $i) { group { id name kind members { document } } } }",
                json!({ "i": { "name": "Grupo Ana e Beto", "kind": "GROUP", "memberDocuments": [ana] } }),
            )
            .await["createEconomicGroup"]["group"]
            .clone();
        assert_eq!(g["kind"], "GROUP");
        assert_eq!(ceiling(cartas[0].clone()).await, "MET", "a group of one is the borrower alone");
        let joined = app
            .data(
                "mutation A($i: AddEconomicGroupMembersInput!) { addEconomicGroupMembers(input: $i) { group { members { document } } } }",
                json!({ "i": { "groupId": g["id"], "memberDocuments": [beto] } }),
            )
            .await;
        assert_eq!(joined["addEconomicGroupMembers"]["group"]["members"].as_array().map(Vec::len), Some(2));
        assert_eq!(ceiling(cartas[0].clone()).await, "VIOLATED", "R$ 15.000.000,01 together");
        assert_eq!(ceiling(cartas[1].clone()).await, "VIOLATED");
        assert_eq!(
            ceiling_on(cartas[0].clone(), Some("2026-09-01".into())).await,
            "MET",
            "on 1 September Fomento did not know the group yet"
        );

        // A party belongs to one group at most; an unknown document is named.
        let (message, code) = app
            .error(
                "mutation G($i: CreateEconomicGroupInput!) { createEconomicGroup(input: $i) { group { id } } }",
                json!({ "i": { "name": "Outro", "kind": "COOPERATIVE", "memberDocuments": [ana] } }),
            )
            .await;
        assert_eq!((code.as_str(), message.contains("already belongs to Grupo Ana e Beto")), ("BAD_USER_INPUT", true), "{message}");
        let (message, code) = app
            .error(
                "mutation A($i: AddEconomicGroupMembersInput!) { addEconomicGroupMembers(input: $i) { group { id } } }",
                json!({ "i": { "groupId": g["id"], "memberDocuments": [cpf(93)] } }),
            )
            .await;
        assert_eq!((code.as_str(), message.starts_with("input.memberDocuments")), ("NOT_FOUND", true), "{message}");

        app.data(
            "mutation R($i: RemoveEconomicGroupMemberInput!) { removeEconomicGroupMember(input: $i) { group { id } } }",
            json!({ "i": { "groupId": g["id"], "memberDocument": beto } }),
        )
        .await;
        assert_eq!(ceiling(cartas[0].clone()).await, "MET", "Beto left the group");
        let today = service::clock::Clock::System.today().to_string();
        assert_eq!(ceiling_on(cartas[0].clone(), Some(today)).await, "MET", "as known at the end of today");
    })
    .await;
}

/// A project created without its bank's framing letter can be filed once the letter is recorded (SF-BANK-FIRST).
#[tokio::test]
async fn a_bank_framing_letter_recorded_after_creation_lets_the_project_be_filed() {
    on_each_backend(false, |app| async move {
        let p = new_project(&app, None).await;
        all_documents(&app, &p).await;
        let file = "mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2015-03-05\") { stage } }";
        let (_, code) = app.error(file, json!({ "id": p })).await;
        assert_eq!(code, "RULE_VIOLATION", "no framing letter yet");
        let framed = app
            .data(
                "mutation B($i: RecordBankFramingInput!) { recordBankFraming(input: $i) { project { bankFramedOn history { event note } } } }",
                json!({ "i": { "projectId": p, "on": "2015-03-03" } }),
            )
            .await;
        let project = &framed["recordBankFraming"]["project"];
        assert_eq!(project["bankFramedOn"], "2015-03-03");
        assert!(project["history"].as_array().is_some_and(|h| h.iter().any(|e| e["event"] == "BANK_FRAMING")), "{project}");
        assert_eq!(app.data(file, json!({ "id": p })).await["fileSocialFuelProject"]["stage"], "FILED");
        // Once filed, changing the letter needs a reason.
        let (message, code) = app
            .error(
                "mutation B($i: RecordBankFramingInput!) { recordBankFraming(input: $i) { project { id } } }",
                json!({ "i": { "projectId": p, "on": "2015-03-04" } }),
            )
            .await;
        assert_eq!((code.as_str(), message.starts_with("input.reason")), ("BAD_USER_INPUT", true), "{message}");
    })
    .await;
}

/// SF-SHARE-MIN from acquisitions recorded through the graph: a Centre-West plant needs 10 % of the year's cost
/// from family farming; edited freely before MDA's decision, corrected by a new version with a reason after it.
#[tokio::test]
async fn acquisitions_recorded_through_the_graph_move_the_family_share_across_its_minimum() {
    on_each_backend(false, |app| async move {
        let p = new_project(&app, Some("2015-03-02")).await;
        // Filed while IN MDA nº 2/2005 was in force (a draft looked at today would not be judged by it).
        all_documents(&app, &p).await;
        app.data("mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2015-03-05\") { stage } }", json!({ "id": p })).await;
        let fields = "project { compliance { ruleCode status explanation } acquisitions { acquisitionId } }
            acquisition { acquisitionId cost version { recordedBy supersededBy changeReason } }";
        let add = format!("mutation A($i: AddFeedstockAcquisitionInput!) {{ addFeedstockAcquisition(input: $i) {{ {fields} }} }}");
        let update =
            format!("mutation U($i: UpdateFeedstockAcquisitionInput!) {{ updateFeedstockAcquisition(input: $i) {{ {fields} }} }}");
        let acquisition = |kind: &str, cost: &str| json!({ "year": 2015, "supplierKind": kind, "crop": "soja", "quantityKg": "50000", "cost": cost });

        let none = app.data("query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { compliance { ruleCode status } } } }", json!({ "id": p })).await;
        assert_eq!(status(&none["node"]["compliance"], "SF-SHARE-MIN"), "PENDING", "no acquisitions yet");
        app.data(&add, json!({ "i": { "projectId": p, "acquisition": acquisition("OTHER_THIRD_PARTY", "90000.00") } })).await;
        let d = app
            .data(&add, json!({ "i": { "projectId": p, "acquisition": acquisition("FAMILY_FARMER", "10000.00") } }))
            .await["addFeedstockAcquisition"]
            .clone();
        let family = d["acquisition"]["acquisitionId"].clone();
        assert_eq!(status(&d["project"]["compliance"], "SF-SHARE-MIN"), "MET", "10 % exactly: {}", d["project"]["compliance"]);
        let d = app
            .data(&update, json!({ "i": { "acquisitionId": family, "acquisition": acquisition("FAMILY_FARMER", "9999.99") } }))
            .await["updateFeedstockAcquisition"]
            .clone();
        assert_eq!(status(&d["project"]["compliance"], "SF-SHARE-MIN"), "VIOLATED", "one centavo short");
        assert_ne!(d["acquisition"]["acquisitionId"], family, "a new version before MDA's decision too");
        let family = d["acquisition"]["acquisitionId"].clone();

        // A perennial contract states its area, coefficient and source together.
        let (message, code) = app
            .error(
                "mutation A($i: AddFeedstockAcquisitionInput!) { addFeedstockAcquisition(input: $i) { acquisition { acquisitionId } } }",
                json!({ "i": { "projectId": p, "acquisition": { "year": 2015, "supplierKind": "FAMILY_FARMER", "crop": "dendê",
                    "quantityKg": "1000", "cost": "1.00", "perennialAreaHa": "10" } } }),
            )
            .await;
        assert_eq!((code.as_str(), message.starts_with("input.productivityKgPerHa")), ("BAD_USER_INPUT", true), "{message}");

        // MDA decides; a correction then needs a reason and is a new version.
        app.data(
            "mutation M($id: ID!) { decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: \"2015-03-20\", letter: \"Ofício 7/MDA\", overrideReason: \"sem propostas registradas neste teste\") { stage } }",
            json!({ "id": p }),
        )
        .await;
        let (message, code) = app
            .error(&update, json!({ "i": { "acquisitionId": family, "acquisition": acquisition("FAMILY_FARMER", "10000.00") } }))
            .await;
        assert_eq!((code.as_str(), message.starts_with("input.reason")), ("BAD_USER_INPUT", true), "{message}");
        let d = app
            .data(
                &update,
                json!({ "i": { "acquisitionId": family, "acquisition": acquisition("FAMILY_FARMER", "10000.00"),
                    "reason": "nota fiscal corrigida" } }),
            )
            .await["updateFeedstockAcquisition"]
            .clone();
        assert_ne!(d["acquisition"]["acquisitionId"], family, "a new version");
        assert_eq!(status(&d["project"]["compliance"], "SF-SHARE-MIN"), "MET");
        let all = app
            .data(
                "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { acquisitions(includeSuperseded: true) { acquisitionId cost version { supersededBy changeReason } } } } }",
                json!({ "id": p }),
            )
            .await;
        let all = all["node"]["acquisitions"].as_array().cloned().unwrap_or_default();
        assert_eq!(all.len(), 4, "two in force and the two corrected: {all:?}");
        let old = all.iter().find(|a| a["acquisitionId"] == family).expect("kept");
        assert_eq!((old["cost"].as_str(), &old["version"]["supersededBy"]), (Some("9999.99"), &d["acquisition"]["acquisitionId"]));
        assert_eq!(old["version"]["changeReason"], "nota fiscal corrigida");
        // Judged as of a day before any of them was recorded, the share has nothing to read.
        let before = app
            .data(
                "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { compliance(asOf: \"2015-06-01\") { ruleCode status } } } }",
                json!({ "id": p }),
            )
            .await;
        assert_eq!(status(&before["node"]["compliance"], "SF-SHARE-MIN"), "PENDING");
    })
    .await;
}

/// A chamber meeting recorded through the graph: the 72 hours before it (FCO-72H-BEFORE), the bank's attendance
/// (FCO-ATTENDANCE) and the 72 hours for its result (FCO-72H-RESULT), each moved across its boundary.
#[tokio::test]
async fn a_chamber_meeting_recorded_through_the_graph_moves_the_chambers_rules_across_their_boundaries() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let carta = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "CAMARA-1", "bankId": bb, "borrowerDocument": cpf(95), "borrowerName": "Carla Produtora",
                    "line": "RURAL", "activity": "GRAINS", "financedAmount": "2000000.00", "municipalityCode": 5107909 } }),
            )
            .await["createFcoCarta"]["id"]
            .clone();
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-03\") { id } }", json!({ "id": carta })).await;
        // Monday 10 August 2026, 09:00 in Cuiabá: cartas are due at SEDEC by Friday 7 August, 09:00.
        let meeting = app
            .data(
                "mutation M($i: ScheduleChamberMeetingInput!) { scheduleChamberMeeting(input: $i) { meeting { id startsAt } } }",
                json!({ "i": { "startsAt": "2026-08-10T09:00:00-04:00" } }),
            )
            .await["scheduleChamberMeeting"]["meeting"]
            .clone();
        assert_eq!(meeting["startsAt"], "2026-08-10T09:00:00-04:00");
        let judged = |asof: &'static str| {
            let (app, carta) = (&app, carta.clone());
            async move {
                let q = "query Q($id: ID!, $d: Date!) { node(id: $id) { ... on FcoCarta { chamberMeeting { id }
                    compliance(asOf: $d) { ruleCode status } deadlines(asOf: $d) { ruleCode status } } } }";
                app.data(q, json!({ "id": carta, "d": asof })).await["node"].clone()
            }
        };
        let place = "mutation P($i: PlaceFcoCartaOnAgendaInput!) { placeFcoCartaOnAgenda(input: $i) { carta { receivedByCouncilAt } meeting { cartas { id } } } }";
        let placed = app
            .data(place, json!({ "i": { "cartaId": carta, "meetingId": meeting["id"], "receivedAt": "2026-08-07T08:59:00-04:00" } }))
            .await;
        assert_eq!(placed["placeFcoCartaOnAgenda"]["meeting"]["cartas"][0]["id"], carta);
        let n = judged("2026-08-20").await;
        assert_eq!(n["chamberMeeting"]["id"], meeting["id"]);
        assert_eq!(status(&n["deadlines"], "FCO-72H-BEFORE"), "MET", "{}", n["deadlines"]);
        assert_eq!(status(&n["compliance"], "FCO-ATTENDANCE"), "PENDING", "attendance not recorded yet");
        app.data(place, json!({ "i": { "cartaId": carta, "meetingId": meeting["id"], "receivedAt": "2026-08-07T09:01:00-04:00" } }))
            .await;
        assert_eq!(status(&judged("2026-08-20").await["deadlines"], "FCO-72H-BEFORE"), "OVERDUE", "two minutes late");

        let attend = "mutation A($i: RecordChamberAttendanceInput!) { recordChamberAttendance(input: $i) { meeting { attendance { bank { code } present } } } }";
        let a = app.data(attend, json!({ "i": { "meetingId": meeting["id"], "absentBankIds": [bb] } })).await;
        assert_eq!(a["recordChamberAttendance"]["meeting"]["attendance"][0]["present"], false);
        assert_eq!(status(&judged("2026-08-20").await["compliance"], "FCO-ATTENDANCE"), "VIOLATED", "an absent bank");
        app.data(attend, json!({ "i": { "meetingId": meeting["id"], "presentBankIds": [bb] } })).await;
        assert_eq!(status(&judged("2026-08-20").await["compliance"], "FCO-ATTENDANCE"), "MET");

        // The chamber decides at the meeting, over the late arrival saying why; its result is due at the banks within
        // 72 hours (Thursday 13, 09:00).
        app.data(
            "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true, on: \"2026-08-10\", overrideReason: \"protocolo dois minutos depois\") { id } }",
            json!({ "id": carta }),
        )
        .await;
        assert_eq!(status(&judged("2026-08-12").await["deadlines"], "FCO-72H-RESULT"), "PENDING");
        assert_eq!(status(&judged("2026-08-20").await["deadlines"], "FCO-72H-RESULT"), "OVERDUE", "nothing sent");
        let sent = "mutation R($i: RecordChamberResultsSentInput!) { recordChamberResultsSent(input: $i) { meeting { resultsSentAt } } }";
        app.data(sent, json!({ "i": { "meetingId": meeting["id"], "sentAt": "2026-08-13T09:00:00-04:00" } })).await;
        assert_eq!(status(&judged("2026-08-20").await["deadlines"], "FCO-72H-RESULT"), "MET", "sent at the 72nd hour");
        app.data(sent, json!({ "i": { "meetingId": meeting["id"], "sentAt": "2026-08-13T09:01:00-04:00" } })).await;
        assert_eq!(status(&judged("2026-08-20").await["deadlines"], "FCO-72H-RESULT"), "OVERDUE");

        // A decided carta no longer goes on an agenda.
        let (_, code) = app
            .error(place, json!({ "i": { "cartaId": carta, "meetingId": meeting["id"], "receivedAt": "2026-08-07T08:00:00-04:00" } }))
            .await;
        assert_eq!(code, "RULE_VIOLATION");
    })
    .await;
}

/// A project's contract proposals, technical-assistance plan and change notices recorded through the graph move
/// SF-REPRESENTATION, SF-CONTRACT-TERMS, SF-ASSISTANCE-PLAN and SF-CHANGES across their boundaries.
#[tokio::test]
async fn proposals_plan_and_notices_recorded_through_the_graph_move_their_rules() {
    on_each_backend(false, |app| async move {
        let p = new_project(&app, Some("2015-03-02")).await;
        all_documents(&app, &p).await;
        app.data("mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2015-03-05\") { stage } }", json!({ "id": p })).await;
        let compliance = |p: Value| {
            let app = &app;
            async move {
                let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { compliance { ruleCode status explanation } } } }";
                app.data(q, json!({ "id": p })).await["node"]["compliance"].clone()
            }
        };
        let c = compliance(p.clone()).await;
        assert_eq!(
            (status(&c, "SF-REPRESENTATION"), status(&c, "SF-CONTRACT-TERMS"), status(&c, "SF-ASSISTANCE-PLAN"), status(&c, "SF-CHANGES")),
            (&json!("VIOLATED"), &json!("VIOLATED"), &json!("VIOLATED"), &json!("NOT_APPLICABLE")),
            "a filed project with nothing recorded (art. 2 makes the plan a minimum criterion): {c}"
        );

        // A proposal whose representation has agreed but without safeguards: representation met, terms not.
        let proposal = |safeguards: Option<&str>| json!({ "representationKind": "CONTAG", "representationName": "STR de Cuiabá",
            "representationAgreed": true, "termMonths": 36, "purchasePrice": "preço mínimo + 5 %",
            "priceAdjustment": "IPCA", "deliveryConditions": "na usina", "safeguards": safeguards });
        let fields = "project { compliance { ruleCode status explanation } } proposal { proposalId version { supersededBy } }";
        let d = app
            .data(
                &format!("mutation A($i: AddContractProposalInput!) {{ addContractProposal(input: $i) {{ {fields} }} }}"),
                json!({ "i": { "projectId": p, "proposal": proposal(None) } }),
            )
            .await["addContractProposal"]
            .clone();
        let c = &d["project"]["compliance"];
        assert_eq!((status(c, "SF-REPRESENTATION"), status(c, "SF-CONTRACT-TERMS")), (&json!("MET"), &json!("VIOLATED")), "{c}");
        let id = d["proposal"]["proposalId"].clone();
        let d = app
            .data(
                &format!("mutation U($i: UpdateContractProposalInput!) {{ updateContractProposal(input: $i) {{ {fields} }} }}"),
                json!({ "i": { "proposalId": id, "proposal": proposal(Some("multa de 10 %")) } }),
            )
            .await["updateContractProposal"]
            .clone();
        assert_eq!(status(&d["project"]["compliance"], "SF-CONTRACT-TERMS"), "MET");
        let id = d["proposal"]["proposalId"].clone();

        // The plan: a missing content violates the rule; complete, it waits for a person's confirmation.
        let plan = |methodology: Option<&str>| json!({ "staffDescription": "2 agrônomos, 4 técnicos", "coverageArea": "Cuiabá e Várzea Grande",
            "farmersAssisted": 120, "methodology": methodology });
        let record = "mutation P($i: RecordAssistancePlanInput!) { recordAssistancePlan(input: $i) { plan { missing }
            project { compliance { ruleCode status explanation } history { event } } } }";
        let d = app.data(record, json!({ "i": { "projectId": p, "plan": plan(None) } })).await["recordAssistancePlan"].clone();
        assert_eq!(d["plan"]["missing"], json!(["a metodologia e as atividades (V)"]), "Portuguese by default");
        let read = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { assistancePlan { missing } } } }";
        let (_, en) = app.gql_in(Some("en"), read, json!({ "id": p })).await;
        assert_eq!(en["data"]["node"]["assistancePlan"]["missing"], json!(["the methodology and activities (V)"]), "{en}");
        assert_eq!(status(&d["project"]["compliance"], "SF-ASSISTANCE-PLAN"), "VIOLATED");
        let d = app
            .data(record, json!({ "i": { "projectId": p, "plan": plan(Some("dias de campo mensais")) } }))
            .await["recordAssistancePlan"]
            .clone();
        assert_eq!(status(&d["project"]["compliance"], "SF-ASSISTANCE-PLAN"), "PENDING", "complete, not yet confirmed");
        app.data(
            "mutation C($id: ID!) { confirmChecklistItem(financingId: $id, ruleCode: \"SF-ASSISTANCE-PLAN\", confirmedBy: \"Ana (MDA)\") { status } }",
            json!({ "id": p }),
        )
        .await;
        assert_eq!(status(&compliance(p.clone()).await, "SF-ASSISTANCE-PLAN"), "MET");

        // A change notice.
        let d = app
            .data(
                "mutation N($i: AddCompanyChangeNoticeInput!) { addCompanyChangeNotice(input: $i) { notice { kind notifiedOn } project { compliance { ruleCode status } } } }",
                json!({ "i": { "projectId": p, "kind": "CORPORATE_NAME", "notifiedOn": "2015-04-01", "description": "nova razão social" } }),
            )
            .await["addCompanyChangeNotice"]
            .clone();
        assert_eq!(d["notice"]["kind"], "CORPORATE_NAME");
        assert_eq!(status(&d["project"]["compliance"], "SF-CHANGES"), "MET");

        // After MDA's decision a proposal's correction needs a reason and keeps the old version.
        app.data(
            "mutation M($id: ID!) { decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: \"2015-03-20\", letter: \"Ofício 7/MDA\", overrideReason: \"sem propostas registradas neste teste\") { stage } }",
            json!({ "id": p }),
        )
        .await;
        // So does the plan's: a new version, kept with its reason, whose compatibility needs confirming again.
        let (message, _) = app.error(record, json!({ "i": { "projectId": p, "plan": plan(Some("visitas semanais")) } })).await;
        assert!(message.starts_with("input.reason"), "{message}");
        let d = app
            .data(
                "mutation P($i: RecordAssistancePlanInput!) { recordAssistancePlan(input: $i) { plan { methodology version { changeReason } }
                    project { compliance { ruleCode status } } } }",
                json!({ "i": { "projectId": p, "plan": plan(Some("visitas semanais")), "reason": "plano revisto pela empresa" } }),
            )
            .await["recordAssistancePlan"]
            .clone();
        assert_eq!(d["plan"]["version"]["changeReason"], "plano revisto pela empresa");
        assert_eq!(status(&d["project"]["compliance"], "SF-ASSISTANCE-PLAN"), "PENDING", "to be confirmed again");
        let shown = app
            .data("query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { assistancePlan { methodology } } } }", json!({ "id": p }))
            .await;
        assert_eq!(shown["node"]["assistancePlan"]["methodology"], "visitas semanais", "the version in force");
        let (message, code) = app
            .error(
                "mutation U($i: UpdateContractProposalInput!) { updateContractProposal(input: $i) { proposal { proposalId } } }",
                json!({ "i": { "proposalId": id, "proposal": proposal(Some("multa de 20 %")) } }),
            )
            .await;
        assert_eq!((code.as_str(), message.starts_with("input.reason")), ("BAD_USER_INPUT", true), "{message}");
        let d = app
            .data(
                &format!("mutation U($i: UpdateContractProposalInput!) {{ updateContractProposal(input: $i) {{ {fields} }} }}"),
                json!({ "i": { "proposalId": id, "proposal": proposal(Some("multa de 20 %")), "reason": "aditivo assinado" } }),
            )
            .await["updateContractProposal"]
            .clone();
        assert_ne!(d["proposal"]["proposalId"], id);
        let all = app
            .data(
                "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { contractProposals(includeSuperseded: true) { proposalId safeguards version { supersededBy changeReason } } } } }",
                json!({ "id": p }),
            )
            .await;
        let old = all["node"]["contractProposals"]
            .as_array()
            .and_then(|l| l.iter().find(|c| c["proposalId"] == id).cloned())
            .expect("kept");
        assert_eq!((old["safeguards"].as_str(), old["version"]["changeReason"].as_str()), (Some("multa de 10 %"), Some("aditivo assinado")));
    })
    .await;
}

/// The implementation schedule recorded through the graph moves SF-EXTERNAL-EVAL-6M, which counts six months from
/// the scheduled end while industrial operation has not started.
#[tokio::test]
async fn an_accepted_schedule_delay_moves_the_external_evaluation_deadline() {
    on_each_backend(false, |app| async move {
        let p = new_project(&app, Some("2015-03-02")).await;
        let schedule = "mutation S($i: RecordProjectScheduleInput!) { recordProjectSchedule(input: $i) {
            project { scheduledImplementationEnd scheduleDelayAccepted history { event note }
                deadlines(asOf: \"2016-01-05\") { ruleCode dueDate status } } } }";
        let d = app
            .data(schedule, json!({ "i": { "projectId": p, "scheduledEnd": "2015-06-30" } }))
            .await["recordProjectSchedule"]["project"]
            .clone();
        let eval = |d: &Value| {
            d["deadlines"]
                .as_array()
                .and_then(|l| l.iter().find(|x| x["ruleCode"] == "SF-EXTERNAL-EVAL-6M").cloned())
                .unwrap_or_default()
        };
        assert_eq!((eval(&d)["dueDate"].as_str(), eval(&d)["status"].as_str()), (Some("2015-12-30"), Some("OVERDUE")), "{d}");
        // Moving the end needs a reason.
        let (message, code) = app.error(schedule, json!({ "i": { "projectId": p, "scheduledEnd": "2015-09-30", "delayAccepted": true } })).await;
        assert_eq!((code.as_str(), message.starts_with("input.reason")), ("BAD_USER_INPUT", true), "{message}");
        // MDA accepts the delay once the bank has (art. 10 §2).
        app.data(
            "mutation A($i: RecordScheduleDelayBankAcceptanceInput!) { recordScheduleDelayBankAcceptance(input: $i) { project { delayBankAcceptedOn } } }",
            json!({ "i": { "projectId": p, "acceptedBy": "Gerência regional", "acceptedOn": "2015-06-20" } }),
        )
        .await;
        let d = app
            .data(
                schedule,
                json!({ "i": { "projectId": p, "scheduledEnd": "2015-09-30", "delayAccepted": true, "delayAcceptedOn": "2015-06-25",
                    "reason": "chuvas atrasaram a obra" } }),
            )
            .await["recordProjectSchedule"]["project"]
            .clone();
        assert_eq!(d["scheduleDelayAccepted"], true);
        assert_eq!((eval(&d)["dueDate"].as_str(), eval(&d)["status"].as_str()), (Some("2016-03-30"), Some("PENDING")), "{d}");
        let notes: Vec<&str> = d["history"].as_array().expect("history").iter().filter_map(|h| h["note"].as_str()).collect();
        assert!(notes.iter().any(|n| n.contains("30/06/2015 → 30/09/2015") && n.contains(": chuvas atrasaram a obra")), "{notes:?}");
    })
    .await;
}

/// A bank registered through the graph on a database without demo data: an FCO bank then owes the monthly list and
/// may upload it; a bank outside FCO may not.
#[tokio::test]
async fn a_bank_registered_through_the_graph_can_send_its_monthly_list() {
    on_each_backend(false, |app| async move {
        let create = "mutation B($i: CreateBankInput!) { createBank(input: $i) { bank { id code programmes mdaCooperationAgreement
            deadlines(asOf: \"2026-12-20\") { ruleCode } } } }";
        let b = app
            .data(create, json!({ "i": { "code": "sicoob", "name": "Sicoob", "programmes": ["FCO_RURAL"] } }))
            .await["createBank"]["bank"]
            .clone();
        assert_eq!((b["code"].as_str(), b["programmes"][0].as_str()), (Some("SICOOB"), Some("FCO_RURAL")));
        assert!(b["deadlines"].as_array().is_some_and(|d| d.iter().any(|x| x["ruleCode"] == "FCO-MONTHLY-LIST")), "{b}");
        let (status, body) = crate::reports::upload(
            &app,
            "SICOOB",
            "2019-05",
            "lista.xlsx",
            crate::reports::workbook(&[crate::reports::good_row("S-1", cpf(5), 10.0)]),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        // The code is taken; a bank that leaves FCO no longer owes or sends the list.
        let (message, code) = app.error(create, json!({ "i": { "code": "SICOOB", "name": "Outro", "programmes": [] } })).await;
        assert_eq!((code.as_str(), message.starts_with("input.code")), ("BAD_USER_INPUT", true), "{message}");
        let u = app
            .data(
                "mutation U($i: UpdateBankInput!) { updateBank(input: $i) { bank { programmes mdaCooperationAgreement deadlines { ruleCode } } } }",
                json!({ "i": { "bankId": b["id"], "programmes": ["SOCIAL_FUEL"], "mdaCooperationAgreement": true } }),
            )
            .await["updateBank"]["bank"]
            .clone();
        assert_eq!((u["programmes"][0].as_str(), u["mdaCooperationAgreement"].as_bool()), (Some("SOCIAL_FUEL"), Some(true)));
        assert_eq!(u["deadlines"], json!([]));
        let (status, body) = crate::reports::upload(
            &app,
            "SICOOB",
            "2019-06",
            "lista.xlsx",
            crate::reports::workbook(&[crate::reports::good_row("S-2", cpf(6), 10.0)]),
        )
        .await;
        assert_eq!(
            (status, body["error"]["code"].as_str(), body["error"]["field"].as_str()),
            (400, Some("BAD_USER_INPUT"), Some("bank")),
            "a bank outside FCO does not send the list: {body}"
        );
    })
    .await;
}

/// Finding the party and the financings a person means by name, accents and case ignored.
#[tokio::test]
async fn parties_and_financings_are_found_by_part_of_a_name_ignoring_accents_and_case() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        for (number, document, name) in [
            ("NOME-1", cpf(41), "João da Conceição"),
            ("NOME-2", cpf(42), "JOANA DARC"),
            ("NOME-3", cpf(43), "Maria Jojoba"),
        ] {
            app.data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": number, "bankId": bb, "borrowerDocument": document, "borrowerName": name,
                    "line": "RURAL", "activity": "GRAINS", "financedAmount": "100000.00", "municipalityCode": 5107909 } }),
            )
            .await;
        }
        let names = |d: &Value| -> Vec<String> {
            d["parties"].as_array().map(|l| l.iter().filter_map(|p| p["name"].as_str().map(String::from)).collect()).unwrap_or_default()
        };
        let q = "query P($s: String!) { parties(search: $s) { name } }";
        assert_eq!(names(&app.data(q, json!({ "s": "joao" })).await), ["João da Conceição"]);
        assert_eq!(names(&app.data(q, json!({ "s": "CONCEICAO" })).await), ["João da Conceição"]);
        assert_eq!(names(&app.data(q, json!({ "s": "jo" })).await), ["JOANA DARC", "João da Conceição", "Maria Jojoba"]);
        assert_eq!(names(&app.data(q, json!({ "s": "joão  da" })).await), ["João da Conceição"]);
        let (message, code) = app.error(q, json!({ "s": "j" })).await;
        assert_eq!((code.as_str(), message.starts_with("search")), ("BAD_USER_INPUT", true), "{message}");

        let f = "query F($n: String!) { fcoCartas(filter: { borrowerName: $n }) { totalCount nodes { number } } }";
        let d = app.data(f, json!({ "n": "conceicao" })).await;
        assert_eq!((d["fcoCartas"]["totalCount"].as_i64(), d["fcoCartas"]["nodes"][0]["number"].as_str()), (Some(1), Some("NOME-1")));
        let d = app.data("query F($n: String!) { financings(filter: { borrowerName: $n }) { totalCount } }", json!({ "n": "ninguém" })).await;
        assert_eq!(d["financings"]["totalCount"], 0);
    })
    .await;
}

/// Issue 42's partial FCO readings, replayed through the graph as the text warrants: 200 sows and 15 boars by AI on a
/// family farmer's carta break art. 8 §5 (2 boars at most); semen bought for beef cattle is genetic improvement (art. 6
/// I b, §7); a sow of no stated age is not shown to be 6 to 40 months old (art. 8 §3 III); an installation of 5 years'
/// life is semi-fixed (art. 17 III b); a machine entered as an operating cost in fish farming is misclassified (art.
/// 16 authorises the fish stock, not the machine); operating costs predominating are classed, not refused (art. 17 I);
/// the swine project's INDEA/MT registration conditions its contract (art. 8 §2).
#[tokio::test]
async fn the_fco_readings_of_issue_42_answer_as_the_text_warrants_through_the_graph() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let mut n = 0;
        let mut carta = |line: &'static str, activity: &'static str, ai: Option<bool>, term: Option<i32>, grace: Option<i32>| {
            n += 1;
            let (app, bb) = (&app, bb.clone());
            async move {
                app.data(
                    "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                    json!({ "i": { "number": format!("LEITURA-{n}"), "bankId": bb, "borrowerDocument": cpf(80 + n), "borrowerName": "Produtora",
                        "line": line, "activity": activity, "financedAmount": "500000.00", "municipalityCode": 5107909,
                        "artificialInsemination": ai, "termMonths": term, "graceMonths": grace } }),
                )
                .await["createFcoCarta"]["id"]
                .clone()
            }
        };
        let item = |kind: &str, heads: Option<i32>, age: Option<i32>, life: Option<i32>, class: &str| {
            json!({ "kind": kind, "description": kind.to_lowercase(), "headCount": heads, "quantity": if heads.is_none() { Some("1") } else { None },
                "ageMonths": age, "usefulLifeYears": life, "investmentClass": class, "value": "1000.00" })
        };
        let q_add = "mutation A($i: AddFcoCartaItemInput!) { addFcoCartaItem(input: $i) { carta { compliance(asOf: \"2030-01-01\") { ruleCode status explanation } } } }";
        let add = |c: &Value, it: Value| {
            let (app, c) = (&app, c.clone());
            async move { app.data(q_add, json!({ "i": { "cartaId": c, "item": it } })).await["addFcoCartaItem"]["carta"]["compliance"].clone() }
        };
        let explanation = |c: &Value, code: &str| -> String {
            c.as_array()
                .and_then(|l| l.iter().find(|o| o["ruleCode"] == code))
                .and_then(|o| o["explanation"].as_str())
                .unwrap_or("")
                .to_owned()
        };

        // Art. 8 §5: 200 sows by AI allow 2 boars, not 15.
        let swine = carta("PRONAF", "SWINE", Some(true), None, None).await;
        add(&swine, item("SOW", Some(200), Some(12), None, "SEMI_FIXED")).await;
        let c = add(&swine, item("BOAR", Some(15), None, None, "SEMI_FIXED")).await;
        assert_eq!(status(&c, "FCO-BOAR-RATIO"), "VIOLATED", "{}", explanation(&c, "FCO-BOAR-RATIO"));
        let gta = explanation(&c, "FCO-GTA");
        assert!(gta.contains("cadastro da propriedade no INDEA/MT antes da contratação do projeto"), "{gta}");

        // Art. 6 I b, §7: semen is genetic improvement, which waits for the insemination information.
        let beef = carta("RURAL", "BEEF_CATTLE", None, None, None).await;
        let c = add(&beef, item("GENETIC_INPUT", None, None, None, "SEMI_FIXED")).await;
        assert_eq!(status(&c, "FCO-IA-INFO"), "PENDING", "{}", explanation(&c, "FCO-IA-INFO"));
        assert_eq!(status(&c, "FCO-CLASSIFY"), "MET", "{}", explanation(&c, "FCO-CLASSIFY"));

        // Art. 8 §3 III: a sow of no stated age.
        let retention = carta("RURAL", "SOW_RETENTION", None, Some(36), Some(24)).await;
        let c = add(&retention, item("SOW", Some(50), Some(20), None, "OPERATING")).await;
        assert_eq!(status(&c, "FCO-SWINE-RETENTION"), "MET", "{}", explanation(&c, "FCO-SWINE-RETENTION"));
        let c = add(&retention, item("SOW", Some(10), None, None, "OPERATING")).await;
        assert_eq!(status(&c, "FCO-SWINE-RETENTION"), "PENDING", "{}", explanation(&c, "FCO-SWINE-RETENTION"));

        // Art. 17 III b and art. 16: an installation of 5 years is semi-fixed; fish farming's machine is no operating
        // cost; operating costs predominating are classed as operating credit, not refused.
        let fish = carta("RURAL", "FISH_FARMING", None, None, None).await;
        let c = add(&fish, item("BUILDING", None, None, Some(5), "SEMI_FIXED")).await;
        assert_eq!(status(&c, "FCO-CLASSIFY"), "MET", "{}", explanation(&c, "FCO-CLASSIFY"));
        add(&fish, item("OPERATING_EXPENSE", None, None, None, "OPERATING")).await;
        let c = add(&fish, item("OPERATING_EXPENSE", None, None, None, "OPERATING")).await;
        assert_eq!(status(&c, "FCO-PREDOMINANCE"), "MET");
        assert!(explanation(&c, "FCO-PREDOMINANCE").starts_with("crédito de custeio"), "{}", explanation(&c, "FCO-PREDOMINANCE"));
        let c = add(&fish, item("MACHINE", None, None, Some(10), "OPERATING")).await;
        assert_eq!(status(&c, "FCO-CLASSIFY"), "VIOLATED", "{}", explanation(&c, "FCO-CLASSIFY"));
    })
    .await;
}

/// The other rules that read a carta's items, each driven across its boundary by items recorded through the graph:
/// FCO-BOAR-RATIO (a family farmer's boar per 20 sows), FCO-WEANED-2000 and FCO-PANTANAL (2,000 head), FCO-USED-MACHINE
/// (48 months of use) and FCO-CLASSIFY (a building is fixed investment).
#[tokio::test]
async fn the_item_rules_move_across_their_boundaries_through_the_graph() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let mut n = 0;
        let mut carta = |line: &'static str, activity: &'static str, term: Option<i32>, grace: Option<i32>| {
            n += 1;
            let (app, bb) = (&app, bb.clone());
            async move {
                app.data(
                    "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                    json!({ "i": { "number": format!("REGRA-{n}"), "bankId": bb, "borrowerDocument": cpf(60 + n), "borrowerName": "Produtor",
                        "line": line, "activity": activity, "financedAmount": "500000.00", "municipalityCode": 5107909,
                        "termMonths": term, "graceMonths": grace } }),
                )
                .await["createFcoCarta"]["id"]
                .clone()
            }
        };
        let item = |kind: &str, heads: Option<i32>, year: Option<i32>, class: &str| {
            json!({ "kind": kind, "description": kind.to_lowercase(), "headCount": heads, "quantity": if heads.is_none() { Some("1") } else { None },
                "manufactureYear": year, "investmentClass": class, "value": "1000.00" })
        };
        let judged = |payload: &Value, code: &str| -> String {
            let c = &payload["carta"]["compliance"];
            status(c, code).as_str().unwrap_or("").to_owned()
        };
        let q_update = "mutation U($i: UpdateFcoCartaItemInput!) { updateFcoCartaItem(input: $i) { carta { compliance(asOf: \"2030-01-01\") { ruleCode status } } } }";
        let q_add = "mutation A($i: AddFcoCartaItemInput!) { addFcoCartaItem(input: $i) { item { itemId } carta { compliance(asOf: \"2030-01-01\") { ruleCode status } } } }";
        let add = |c: &Value, it: Value| {
            let (app, c) = (&app, c.clone());
            async move { app.data(q_add, json!({ "i": { "cartaId": c, "item": it } })).await["addFcoCartaItem"].clone() }
        };
        let update = |id: &Value, it: Value| {
            let (app, id) = (&app, id.clone());
            async move { app.data(q_update, json!({ "i": { "itemId": id, "item": it } })).await["updateFcoCartaItem"].clone() }
        };

        // A family farmer's boars: at most 1 per 20 sows (natural service, art. 8 §5).
        let swine = carta("PRONAF", "SWINE", None, None).await;
        add(&swine, item("BOAR", Some(1), None, "SEMI_FIXED")).await;
        let sows = add(&swine, item("SOW", Some(20), None, "SEMI_FIXED")).await;
        assert_eq!(judged(&sows, "FCO-BOAR-RATIO"), "MET");
        let fewer = update(&sows["item"]["itemId"], item("SOW", Some(19), None, "SEMI_FIXED")).await;
        assert_eq!(judged(&fewer, "FCO-BOAR-RATIO"), "VIOLATED", "1 boar for 19 sows");
        // The paragraph is family farmers': another borrower's boars are not limited by it.
        let rural = carta("RURAL", "SWINE", None, None).await;
        add(&rural, item("BOAR", Some(1), None, "SEMI_FIXED")).await;
        let sows = add(&rural, item("SOW", Some(19), None, "SEMI_FIXED")).await;
        assert_eq!(judged(&sows, "FCO-BOAR-RATIO"), "NOT_APPLICABLE");

        // At most 2,000 weaned head for early finishing.
        let weaned = carta("RURAL", "WEANED_CATTLE_FINISHING", None, None).await;
        let calves = add(&weaned, item("WEANED_CALF", Some(2000), None, "OPERATING")).await;
        assert_eq!(judged(&calves, "FCO-WEANED-2000"), "MET");
        let more = update(&calves["item"]["itemId"], item("WEANED_CALF", Some(2001), None, "OPERATING")).await;
        assert_eq!(judged(&more, "FCO-WEANED-2000"), "VIOLATED");

        // Pantanal dam retention: at most 2,000 dams (within 96 months' term and 48 of grace).
        let pantanal = carta("RURAL", "PANTANAL_DAM_RETENTION", Some(96), Some(48)).await;
        let dams = add(&pantanal, item("DAM", Some(2000), None, "SEMI_FIXED")).await;
        assert_eq!(judged(&dams, "FCO-PANTANAL"), "MET");
        let more = update(&dams["item"]["itemId"], item("DAM", Some(2001), None, "SEMI_FIXED")).await;
        assert_eq!(judged(&more, "FCO-PANTANAL"), "VIOLATED");

        // A used machine: at most 48 months of use at the financing (not contracted: the submission's day, 3 Aug 2026),
        // counted from 1 January of its year: 2023 gives 43 months, 2022 gives 55.
        let machinery = carta("RURAL", "MACHINERY", None, None).await;
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-03\") { id } }", json!({ "id": machinery }))
            .await;
        let used = add(&machinery, item("USED_MACHINE", None, Some(2023), "SEMI_FIXED")).await;
        assert_eq!(judged(&used, "FCO-USED-MACHINE"), "MET");
        let older = update(&used["item"]["itemId"], item("USED_MACHINE", None, Some(2022), "SEMI_FIXED")).await;
        assert_eq!(judged(&older, "FCO-USED-MACHINE"), "VIOLATED");

        // A building is fixed investment.
        let building = add(&machinery, item("BUILDING", None, None, "SEMI_FIXED")).await;
        assert_eq!(judged(&building, "FCO-CLASSIFY"), "VIOLATED");
        let fixed = update(&building["item"]["itemId"], item("BUILDING", None, None, "FIXED")).await;
        assert_eq!(judged(&fixed, "FCO-CLASSIFY"), "MET");
    })
    .await;
}

/// Banco do Brasil's 60-day report recorded through the graph starts FCO-BB-60D's clock; other banks do not send it.
#[tokio::test]
async fn banco_do_brasils_60_day_report_recorded_through_the_graph_starts_its_clock() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let q = "query Q($id: ID!, $d: Date!) { node(id: $id) { ... on Bank { deadlines(asOf: $d) { ruleCode dueDate status } } } }";
        let bb60 = |d: &'static str| {
            let (app, bb) = (&app, bb.clone());
            async move {
                let r = app.data(q, json!({ "id": bb, "d": d })).await;
                r["node"]["deadlines"]
                    .as_array()
                    .and_then(|l| l.iter().find(|x| x["ruleCode"] == "FCO-BB-60D").cloned())
                    .unwrap_or_default()
            }
        };
        let none = bb60("2026-11-15").await;
        assert_eq!((none["dueDate"].as_str(), none["status"].as_str()), (Some("2019-05-20"), Some("OVERDUE")), "no report since the instruction: {none}");
        let record = "mutation R($i: RecordBbPeriodicReportInput!) { recordBbPeriodicReport(input: $i) { bank { code } } }";
        app.data(record, json!({ "i": { "bankId": bb, "receivedOn": "2026-10-01", "periodFrom": "2026-08-01",
            "periodTo": "2026-09-30", "reference": "Ofício BB 123/2026" } }))
            .await;
        let pending = bb60("2026-11-15").await;
        assert_eq!((pending["dueDate"].as_str(), pending["status"].as_str()), (Some("2026-11-30"), Some("PENDING")), "{pending}");
        assert_eq!(bb60("2026-12-05").await["status"], "OVERDUE");

        let sicoob = app
            .data("mutation { createBank(input: { code: \"SICOOB\", name: \"Sicoob\", programmes: [FCO_RURAL] }) { bank { id } } }", json!({}))
            .await["createBank"]["bank"]["id"]
            .clone();
        let (message, code) = app.error(record, json!({ "i": { "bankId": sicoob, "receivedOn": "2026-10-01" } })).await;
        assert_eq!((code.as_str(), message.starts_with("input.bankId")), ("BAD_USER_INPUT", true), "{message}");
    })
    .await;
}

/// MDA's external evaluation records its findings through the graph (art. 11): conformity cannot be concluded over
/// a finding of non-conformity; once the finding is corrected it can, and the project becomes seal-eligible.
#[tokio::test]
async fn the_external_evaluations_findings_decide_what_its_conclusion_may_be() {
    on_each_backend(false, |app| async move {
        let p = new_project(&app, Some("2026-03-02")).await;
        all_documents(&app, &p).await;
        for mutation in [
            "fileSocialFuelProject(id: $id, on: \"2026-03-05\")",
            "decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: \"2026-03-20\", letter: \"Ofício 7/MDA\")",
            "approveSocialFuelFinancing(id: $id, on: \"2026-04-01\")",
            "startIndustrialOperation(id: $id, on: \"2026-06-01\")",
        ] {
            app.data(&format!("mutation M($id: ID!) {{ {mutation} {{ stage }} }}"), json!({ "id": p })).await;
        }
        let record = "mutation R($i: RecordEvaluationFindingsInput!) { recordEvaluationFindings(input: $i) {
            project { stage evaluationFindings { criterion conforming note evaluator reportReference foundOn recordedBy } } } }";
        let findings = |share_ok: bool| {
            json!({ "i": { "projectId": p, "evaluator": "Fundação Avaliadora", "reportReference": "RA-2026-17", "foundOn": "2026-11-20",
                "findings": [
                    { "criterion": "SF-SHARE-MIN", "conforming": share_ok, "note": if share_ok { "notas conferidas" } else { "8 % da agricultura familiar" } },
                    { "criterion": "SF-ASSISTANCE-PLAN", "conforming": true }
                ] } })
        };
        // Not under evaluation yet: refused by the rule.
        let (_, code) = app.error(record, findings(false)).await;
        assert_eq!(code, "RULE_VIOLATION");
        app.data("mutation M($id: ID!) { startExternalEvaluation(id: $id, on: \"2026-11-02\") { stage } }", json!({ "id": p })).await;
        let d = app.data(record, findings(false)).await["recordEvaluationFindings"]["project"].clone();
        assert_eq!(d["evaluationFindings"].as_array().map(Vec::len), Some(2), "{d}");
        assert_eq!(
            (&d["evaluationFindings"][0]["criterion"], &d["evaluationFindings"][0]["conforming"], &d["evaluationFindings"][0]["foundOn"]),
            (&json!("SF-SHARE-MIN"), &json!(false), &json!("2026-11-20"))
        );
        let conclude = "mutation C($id: ID!) { concludeExternalEvaluation(id: $id, result: FAVOURABLE, on: \"2026-11-25\") { stage } }";
        let (message, code) = app.error(conclude, json!({ "id": p })).await;
        assert_eq!(code, "RULE_VIOLATION");
        assert!(message.contains("SF-SHARE-MIN"), "names the criterion found unmet: {message}");
        // A criterion that is not one of the seal's, or named twice, is refused naming the field.
        let (message, code) = app
            .error(record, json!({ "i": { "projectId": p, "evaluator": "X", "findings": [{ "criterion": "FCO-CEILING", "conforming": true }] } }))
            .await;
        assert_eq!((code.as_str(), message.starts_with("input.findings.criterion")), ("BAD_USER_INPUT", true), "{message}");
        // The corrected finding replaces the first; conformity can now be concluded.
        let d = app.data(record, findings(true)).await["recordEvaluationFindings"]["project"].clone();
        assert_eq!(d["evaluationFindings"].as_array().map(Vec::len), Some(2), "replaced, not added: {d}");
        let c = app.data(conclude, json!({ "id": p })).await;
        assert_eq!(c["concludeExternalEvaluation"]["stage"], "SEAL_ELIGIBLE");
    })
    .await;
}

/// SF-SCHEDULE (art. 10): once industrial operation starts, the criteria must hold; acquisitions recorded through the
/// graph move it across the share's minimum.
#[tokio::test]
async fn acquisitions_recorded_after_industrial_start_move_sf_schedule() {
    on_each_backend(false, |app| async move {
        let p = new_project(&app, Some("2015-03-02")).await;
        all_documents(&app, &p).await;
        let schedule = |p: Value| {
            let app = &app;
            async move {
                let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { compliance { ruleCode status explanation } } } }";
                let d = app.data(q, json!({ "id": p })).await;
                status(&d["node"]["compliance"], "SF-SCHEDULE").clone()
            }
        };
        for mutation in [
            "fileSocialFuelProject(id: $id, on: \"2015-03-05\")",
            "decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: \"2015-03-20\", letter: \"Ofício 7/MDA\", overrideReason: \"sem propostas registradas neste teste\")",
            "approveSocialFuelFinancing(id: $id, on: \"2015-04-01\")",
        ] {
            app.data(&format!("mutation M($id: ID!) {{ {mutation} {{ stage }} }}"), json!({ "id": p })).await;
        }
        assert_eq!(schedule(p.clone()).await, "PENDING", "not operating yet");
        app.data("mutation M($id: ID!) { startIndustrialOperation(id: $id, on: \"2015-06-01\") { stage } }", json!({ "id": p }))
            .await;
        let add = "mutation A($i: AddFeedstockAcquisitionInput!) { addFeedstockAcquisition(input: $i) { acquisition { acquisitionId } } }";
        let acquisition = |kind: &str, cost: &str| json!({ "year": 2026, "supplierKind": kind, "crop": "soja", "quantityKg": "50000", "cost": cost });
        app.data(add, json!({ "i": { "projectId": p, "acquisition": acquisition("OTHER_THIRD_PARTY", "90000.00"), "reason": "safra 2026" } }))
            .await;
        let family = app
            .data(add, json!({ "i": { "projectId": p, "acquisition": acquisition("FAMILY_FARMER", "9999.99"), "reason": "safra 2026" } }))
            .await["addFeedstockAcquisition"]["acquisition"]["acquisitionId"]
            .clone();
        assert_eq!(schedule(p.clone()).await, "VIOLATED", "operating one centavo short of the minimum");
        app.data(
            "mutation U($i: UpdateFeedstockAcquisitionInput!) { updateFeedstockAcquisition(input: $i) { acquisition { acquisitionId } } }",
            json!({ "i": { "acquisitionId": family, "acquisition": acquisition("FAMILY_FARMER", "10000.00"), "reason": "nota fiscal corrigida" } }),
        )
        .await;
        assert_eq!(schedule(p.clone()).await, "PENDING", "the schedule is not presented (art. 10 caput)");
        app.data(
            "mutation S($i: RecordProjectScheduleInput!) { recordProjectSchedule(input: $i) { project { schedulePresentedOn } } }",
            json!({ "i": { "projectId": p, "scheduledEnd": "2015-12-31", "presentedOn": "2015-04-10" } }),
        )
        .await;
        assert_eq!(schedule(p.clone()).await, "MET");
    })
    .await;
}

/// The semi-arid is SUDENE's official delimitation in force on the project's reference date (issue 16, point 7): a
/// plant in Minas Gerais's semi-arid needs 50 %, not the Southeast's 30 %; a town of Espírito Santo joined only in
/// the 2021 delimitation; before the 2017 one the nearest later delimitation is used, and the explanation says so.
#[tokio::test]
async fn a_semi_arid_plant_outside_the_northeast_needs_half_its_feedstock_from_family_farms() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        // A project filed on `filed`: its reference date, whose delimitation and minimum govern it.
        let project = |town: i64, framed: &'static str, filed: &'static str| {
            let (app, bb) = (&app, bb.clone());
            async move {
                let p = app
                    .data(
                        "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
                        json!({ "i": { "title": "Usina", "bankId": bb, "producerDocument": "11.222.333/0001-81",
                            "producerName": "Biodiesel S.A.", "plantMunicipalityCode": town,
                            "requestedAmount": "2000000.00", "bankFramedOn": framed } }),
                    )
                    .await["createSocialFuelProject"]["id"]
                    .clone();
                for kind in ["REQUEST_LETTER", "BANK_FRAMING_LETTER", "SOCIAL_FUEL_PROJECT", "FARMER_CONTRACT",
                    "CNPJ_REGISTRATION", "GOOD_STANDING_DECLARATION"] {
                    app.data(
                        "mutation D($id: ID!, $k: ProjectDocumentKind!, $on: Date!) { addProjectDocument(projectId: $id, kind: $k, receivedOn: $on) { kind } }",
                        json!({ "id": p, "k": kind, "on": framed }),
                    )
                    .await;
                }
                app.data(
                    "mutation F($id: ID!, $on: Date!) { fileSocialFuelProject(id: $id, on: $on) { stage } }",
                    json!({ "id": p, "on": filed }),
                )
                .await;
                p
            }
        };
        let add = "mutation A($i: AddFeedstockAcquisitionInput!) { addFeedstockAcquisition(input: $i) { acquisition { acquisitionId } } }";
        let buy = |p: &Value, year: i32, kind: &str, cost: &str| {
            json!({ "i": { "projectId": p, "acquisition": { "year": year, "supplierKind": kind, "crop": "soja",
                "quantityKg": "50000", "cost": cost } } })
        };
        let share_min = |p: Value| {
            let app = &app;
            async move {
                // In English: the assertions match its sentences.
                let d = app
                    .gql_in(
                        Some("en"),
                        "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { compliance { ruleCode status explanation } } } }",
                        json!({ "id": p }),
                    )
                    .await
                    .1["data"]
                    .clone();
                let o = d["node"]["compliance"]
                    .as_array()
                    .and_then(|a| a.iter().find(|o| o["ruleCode"] == "SF-SHARE-MIN"))
                    .cloned()
                    .expect("SF-SHARE-MIN");
                (o["status"].as_str().unwrap_or("").to_owned(), o["explanation"].as_str().unwrap_or("").to_owned())
            }
        };
        // Almenara (MG), in both delimitations, filed in 2018 under the 2017 one: 30 % is short of the semi-arid's
        // 50 %; 50 % meets it.
        let mg = project(3101706, "2018-03-02", "2018-03-05").await;
        app.data(add, buy(&mg, 2018, "OTHER_THIRD_PARTY", "70000.00")).await;
        app.data(add, buy(&mg, 2018, "FAMILY_FARMER", "30000.00")).await;
        let (status, why) = share_min(mg.clone()).await;
        assert_eq!(status, "VIOLATED", "{why}");
        assert!(why.contains("minimum of 50") && why.contains("Resoluções Condel/SUDENE nº 107 e 115/2017"), "{why}");
        app.data(add, buy(&mg, 2018, "FAMILY_FARMER", "40000.00")).await;
        let (status, why) = share_min(mg.clone()).await;
        assert_eq!(status, "MET", "70,000 of 140,000 = 50 %: {why}");

        // 3200805 (ES) joined the semi-arid only in the 2021 delimitation (in force from 2021-12-30): a project filed
        // while IN MDA nº 2/2005 was in force is in the Southeast, at 30 %; by the time the new list took effect the
        // instrument had been revoked, so no social-fuel project is judged by it.
        for (filed, expected) in [("2021-05-24", "MET"), ("2021-12-30", "NOT_APPLICABLE")] {
            let es = project(3200805, "2021-05-03", filed).await;
            app.data(add, buy(&es, 2021, "OTHER_THIRD_PARTY", "70000.00")).await;
            app.data(add, buy(&es, 2021, "FAMILY_FARMER", "30000.00")).await;
            let (status, why) = share_min(es).await;
            assert_eq!(status, expected, "filed {filed}: {why}");
            if expected == "MET" {
                assert!(
                    why.contains("minimum of 30") && why.contains("not in the semi-arid by Resoluções Condel/SUDENE nº 107 e 115/2017"),
                    "{why}"
                );
            } else {
                assert!(why.contains("Portaria n° 142, de 24/05/2021"), "{why}");
            }
        }

        // Before 2017-11-23 the 2005 delimitation is not available: the 2017 one is used, and said to be.
        let early = project(3101706, "2010-05-03", "2010-06-01").await;
        app.data(add, buy(&early, 2010, "OTHER_THIRD_PARTY", "50000.00")).await;
        app.data(add, buy(&early, 2010, "FAMILY_FARMER", "50000.00")).await;
        let (status, why) = share_min(early).await;
        assert_eq!(status, "MET", "{why}");
        assert!(why.contains("nearest later delimitation") && why.contains("Portaria MI nº 89/2005"), "{why}");

        // Both delimitations shipped whole: 1,262 and 1,477 municipalities, the same codes as the reference files.
        use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
        for (source, file, expected) in [
            ("Resoluções Condel/SUDENE nº 107 e 115/2017", "semiarido_2017.csv", 1262),
            ("Resolução Condel/SUDENE nº 150/2021 (e nº 176/2024)", "semiarido_2021.csv", 1477),
        ] {
            let mut codes: Vec<i32> = entity::semi_arid_membership::Entity::find()
                .filter(entity::semi_arid_membership::Column::Source.eq(source))
                .all(&app.db)
                .await
                .expect("read")
                .into_iter()
                .map(|m| m.ibge_code)
                .collect();
            codes.sort_unstable();
            assert_eq!(codes.len(), expected, "{source}");
            let reference = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data").join(file);
            match std::fs::read_to_string(&reference) {
                Ok(text) => {
                    let mut want: Vec<i32> = text.lines().skip(1).filter_map(|l| l.split(',').next()?.parse().ok()).collect();
                    want.sort_unstable();
                    assert_eq!(codes, want, "{source} against {}", reference.display());
                }
                Err(_) => eprintln!("*** {} absent: the shipped {source} was not checked against it ***", reference.display()),
            }
        }
    })
    .await;
}

/// `fomento import semi-arid FILE --effective-from DATE` (issue 16, point 7): a line that is no municipality loads
/// nothing and is named; a delimitation loaded from 2005 judges a project filed in 2010 instead of the nearest later
/// list, a municipality outside it reading as outside (Almenara, MG: the Southeast's 30 %), and ends the day before
/// the 2017 list, which still judges 2018.
#[tokio::test]
async fn an_operator_loads_an_earlier_semi_arid_delimitation_all_or_nothing() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let project = |framed: &'static str, filed: &'static str| {
            let (app, bb) = (&app, bb.clone());
            async move {
                let p = app
                    .data(
                        "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
                        json!({ "i": { "title": "Usina", "bankId": bb, "producerDocument": "11.222.333/0001-81", "producerName": "B",
                            "plantMunicipalityCode": 3101706, "requestedAmount": "2000000.00", "bankFramedOn": framed } }),
                    )
                    .await["createSocialFuelProject"]["id"]
                    .clone();
                documents_received(app, &p, framed).await;
                app.data("mutation F($id: ID!, $on: Date!) { fileSocialFuelProject(id: $id, on: $on) { stage } }", json!({ "id": p, "on": filed })).await;
                let add = "mutation A($i: AddFeedstockAcquisitionInput!) { addFeedstockAcquisition(input: $i) { acquisition { acquisitionId } } }";
                let year: i32 = filed[..4].parse().expect("year");
                for (kind, cost) in [("OTHER_THIRD_PARTY", "70000.00"), ("FAMILY_FARMER", "30000.00")] {
                    app.data(add, json!({ "i": { "projectId": p, "acquisition": { "year": year, "supplierKind": kind, "crop": "soja", "quantityKg": "50000", "cost": cost } } })).await;
                }
                p
            }
        };
        let share = |p: Value| {
            let app = &app;
            async move {
                let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { compliance { ruleCode status explanation } } } }";
                let d = app.gql_in(Some("en"), q, json!({ "id": p })).await.1["data"].clone();
                let o = d["node"]["compliance"].as_array().and_then(|a| a.iter().find(|o| o["ruleCode"] == "SF-SHARE-MIN").cloned()).expect("share");
                (o["status"].as_str().unwrap_or("").to_owned(), o["explanation"].as_str().unwrap_or("").to_owned())
            }
        };
        let early = project("2010-05-03", "2010-06-01").await;
        let later = project("2018-03-02", "2018-03-05").await;
        // Before the import: the nearest later list (2017) has Almenara in the semi-arid, so 30 % is short of 50 %.
        let (status, why) = share(early.clone()).await;
        assert_eq!(status, "VIOLATED", "{why}");
        assert!(why.contains("nearest later delimitation"), "{why}");

        let dir = std::env::temp_dir().join(format!("fomento-semiarid-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = |name: &str, body: &str| {
            let path = dir.join(name);
            std::fs::write(&path, body).expect("csv");
            path.display().to_string()
        };
        let run = |path: String| {
            let args = ["fomento", "--database-url", &app.url, "import", "semi-arid", &path, "--effective-from", "2005-03-10"]
                .map(String::from);
            async move {
                use clap::Parser;
                fomento_api::commands::run(fomento_api::config::Cli::try_parse_from(args).expect("args")).await
            }
        };
        use sea_orm::EntityTrait;
        let before = entity::semi_arid_membership::Entity::find().all(&app.db).await.expect("rows").len();
        let bad = run(file("bad.csv", "ibge_code,name,uf\n2611101,Petrolina,PE\n9999999,Nenhum,XX\nabc,?,?\n")).await;
        let message = bad.expect_err("a bad line loads nothing").to_string();
        assert!(message.contains("3 (9999999)") && message.contains("4 (abc)"), "{message}");
        assert_eq!(entity::semi_arid_membership::Entity::find().all(&app.db).await.expect("rows").len(), before, "nothing loaded");

        run(file("2005.csv", "ibge_code,name,uf\n2611101,Petrolina,PE\n2927408,Salvador,BA\n")).await.expect("loaded");
        let (status, why) = share(early).await;
        assert_eq!(status, "MET", "Almenara outside the 2005 list: the Southeast's 30 %: {why}");
        assert!(why.contains("not in the semi-arid by Portaria MI nº 89/2005 (in force on 2010-06-01)"), "{why}");
        let (status, why) = share(later).await;
        assert_eq!(status, "VIOLATED", "the 2017 list still judges 2018: {why}");
        assert!(why.contains("Resoluções Condel/SUDENE nº 107 e 115/2017"), "{why}");
        // Loaded once.
        let again = run(file("2005b.csv", "ibge_code\n2611101\n")).await;
        // In the command line's language, Portuguese unless FOMENTO_LANG=en (issue 43).
        assert!(again.expect_err("twice").to_string().contains("já foi carregada"));
        // A later list closes the one still open (2021's) the day before it starts.
        let later_list = ["fomento", "--database-url", &app.url, "import", "semi-arid", &file("2030.csv", "2611101\n"),
            "--effective-from", "2030-01-01", "--source", "Resolução 2030"].map(String::from);
        {
            use clap::Parser;
            fomento_api::commands::run(fomento_api::config::Cli::try_parse_from(later_list).expect("args")).await.expect("loaded");
        }
        use sea_orm::{ColumnTrait, QueryFilter};
        let closed = entity::semi_arid_membership::Entity::find()
            .filter(entity::semi_arid_membership::Column::Source.eq("Resolução Condel/SUDENE nº 150/2021 (e nº 176/2024)"))
            .all(&app.db)
            .await
            .expect("rows");
        assert!(!closed.is_empty() && closed.iter().all(|m| m.effective_to.map(|d| d.to_string()).as_deref() == Some("2029-12-31")));
        let early_list = entity::semi_arid_delimitation::Entity::find().all(&app.db).await.expect("loaded lists");
        let to = |source: &str| early_list.iter().find(|d| d.source == source).map(|d| d.effective_to.map(|t| t.to_string()));
        assert_eq!(to("Portaria MI nº 89/2005"), Some(Some("2017-11-22".into())));
        assert_eq!(to("Resolução 2030"), Some(None));
        // The lists written for the imports are not left behind in the temporary directory.
        std::fs::remove_dir_all(&dir).expect("the lists' directory removed");
    })
    .await;
}
