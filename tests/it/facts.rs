//! Recording the facts the rules read through the graph (issue 13): a carta's items, edited freely until the
//! decision, corrected by new versions with a reason after it.

use crate::{
    helpers::{TestApp, on_each_backend},
    reports::{cpf, seed_bb},
};
use serde_json::{Value, json};

fn status<'a>(compliance: &'a Value, code: &str) -> &'a Value {
    compliance
        .as_array()
        .and_then(|l| l.iter().find(|o| o["ruleCode"] == code))
        .map(|o| &o["status"])
        .unwrap_or(&Value::Null)
}

const PAYLOAD: &str =
    "carta { compliance { ruleCode status explanation } items { itemId kind headCount registration } }
    item { itemId recordedBy supersededAt changeReason }";

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
        assert_eq!(p["item"]["recordedBy"], "anonymous");
        let p = add(&app, &carta, sire(Some("PO_RGD")), None).await;
        let sire_id = p["item"]["itemId"].clone();
        let c = &p["carta"]["compliance"];
        assert_eq!(
            (status(c, "FCO-SIRE-RATIO"), status(c, "FCO-SIRE-PEDIGREE")),
            (&json!("MET"), &json!("MET")),
            "{c}"
        );

        // Before the decision an item is changed in place: 31 dams break the ratio.
        let p = app.data(&update_q(), json!({ "i": { "itemId": dam_id, "item": dams(31) } })).await["updateFcoCartaItem"].clone();
        assert_eq!(status(&p["carta"]["compliance"], "FCO-SIRE-RATIO"), "VIOLATED");
        assert_eq!(p["item"]["itemId"], dam_id, "the same row, edited");
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
        assert_eq!(status(&p["carta"]["compliance"], "FCO-SIRE-RATIO"), "MET");

        // Bad items are refused, naming the field.
        let (message, code) = app
            .error(
                "mutation A($i: AddFcoCartaItemInput!) { addFcoCartaItem(input: $i) { item { itemId } } }",
                json!({ "i": { "cartaId": carta, "item": { "kind": "DAM", "description": "sem cabeças", "investmentClass": "SEMI_FIXED", "value": "1.00" } } }),
            )
            .await;
        assert_eq!((code.as_str(), message.starts_with("input.headCount")), ("BAD_USER_INPUT", true), "{message}");

        // After the bank's decision a change needs a reason, and is a new version; the old one stays.
        for step in ["submitFcoCarta(id: $id)", "decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: false)"] {
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
        assert_eq!(p["item"]["changeReason"], "registro CEIP apresentado");
        assert_eq!(status(&p["carta"]["compliance"], "FCO-SIRE-PEDIGREE"), "MET");
        let all = app
            .data(
                "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { items(includeSuperseded: true) { itemId registration supersededAt supersededBy changeReason } } } }",
                json!({ "id": carta }),
            )
            .await;
        let all = all["node"]["items"].as_array().cloned().unwrap_or_default();
        let old = all.iter().find(|i| i["itemId"] == sire_id).expect("the old version is kept");
        assert_eq!(old["supersededBy"], p["item"]["itemId"]);
        assert!(old["supersededAt"].is_string() && old["registration"].is_null(), "{old}");
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
                "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { items(includeSuperseded: true) { itemId supersededAt changeReason } } } }",
                json!({ "id": carta }),
            )
            .await;
        let removed = all["node"]["items"]
            .as_array()
            .and_then(|l| l.iter().find(|i| i["itemId"] == dam_id).cloned())
            .expect("kept");
        assert_eq!(removed["changeReason"], "matrizes retiradas do projeto");
    })
    .await;
}
