//! The rules over HTTP: compliance and deadlines on the demo data, parameter versions, checklist confirmations.

use crate::helpers::on_each_backend;
use serde_json::{Value, json};
use std::collections::HashSet;

const AS_OF: &str = "2026-12-02";

fn statuses(nodes: &Value, field: &str) -> HashSet<String> {
    nodes
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|n| n[field].as_array().cloned().unwrap_or_default())
        .filter_map(|o| o["status"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn the_demo_shows_every_outcome_and_deadline_status_with_its_legal_basis() {
    on_each_backend(true, |app| async move {
        let q = "query C($d: Date) { socialFuelProjects(first: 40) { nodes { stage
            compliance(asOf: $d) { ruleCode status legalBasis explanation } deadlines(asOf: $d) { ruleCode status dueDate countingNote } } }
          fcoCartas(first: 60) { nodes { stage compliance(asOf: $d) { ruleCode status legalBasis explanation } deadlines(asOf: $d) { ruleCode status dueAt dueDate } } } }";
        let data = app.data(q, json!({ "d": AS_OF })).await;
        let sf = &data["socialFuelProjects"]["nodes"];
        let fco = &data["fcoCartas"]["nodes"];
        for (nodes, what) in [(sf, "projects"), (fco, "cartas")] {
            let all: HashSet<String> = statuses(nodes, "compliance");
            assert_eq!(all, HashSet::from(["MET", "VIOLATED", "PENDING", "NOT_APPLICABLE"].map(String::from)), "{what}");
            let dl: HashSet<String> = statuses(nodes, "deadlines");
            assert!(dl.contains("OVERDUE") && dl.contains("MET") && dl.contains("NOT_STARTED"), "{what}: {dl:?}");
            for n in nodes.as_array().expect("nodes") {
                for o in n["compliance"].as_array().expect("outcomes") {
                    assert!(o["legalBasis"].as_str().is_some_and(|b| b.starts_with("IN ")), "{o}");
                    assert!(!o["explanation"].as_str().unwrap_or("").is_empty(), "{o}");
                }
            }
        }
        // Some projects were decided late or are still waiting past 30 days; the note says how it counted.
        let late = sf
            .as_array()
            .expect("nodes")
            .iter()
            .flat_map(|n| n["deadlines"].as_array().cloned().unwrap_or_default())
            .find(|d| d["ruleCode"] == "SF-DECISION-30D" && d["status"] == "OVERDUE")
            .expect("a late decision in the demo");
        assert!(late["countingNote"].as_str().is_some_and(|n| n.contains("art. 66") && (n.contains("days late") || n.contains("overdue by"))), "{late}");
        // Looking back: on a date before its due date, a filed project's decision deadline was still running.
        let back = app.data("{ socialFuelProjects(first: 1, filter: { stages: [FILED] }) { nodes { deadlines(asOf: \"2001-01-01\") { ruleCode status } } } }", json!({})).await;
        assert_eq!(back["socialFuelProjects"]["nodes"][0]["deadlines"][0]["status"], "PENDING", "in 2001 the 30 days had not run out");
    })
    .await;
}

#[tokio::test]
async fn a_new_minimum_share_version_applies_from_its_date_and_not_before() {
    on_each_backend(true, |app| async move {
        let q = "{ socialFuelProjects(first: 40, filter: { ufs: [MT], stages: [OPERATING, SEAL_REQUESTED, FINANCING_APPROVED, CONFORMING] }) { nodes { id submittedOn compliance(asOf: \"2026-12-02\") { ruleCode status explanation } } } }";
        let data = app.data(q, json!({})).await;
        let nodes = data["socialFuelProjects"]["nodes"].as_array().expect("nodes").clone();
        let share = |n: &Value| n["compliance"].as_array().and_then(|c| c.iter().find(|o| o["ruleCode"] == "SF-SHARE-MIN").cloned()).expect("share");
        let target = nodes.iter().find(|n| share(n)["status"] == "MET").expect("a Centre-West project meeting the share").clone();
        let filed = target["submittedOn"].as_str().expect("filed").to_owned();
        let next_day = (chrono::NaiveDate::parse_from_str(&filed, "%Y-%m-%d").expect("date") + chrono::Duration::days(1)).to_string();
        let add = "mutation A($from: Date!) { addRuleParameterVersion(key: \"SF-SHARE-MIN.CENTRE_WEST\", value: \"99.99\", unit: \"PERCENT\", effectiveFrom: $from, legalSource: \"test instrument, art. 1\") { key value effectiveFrom } }";
        let added = app.data(add, json!({ "from": next_day })).await;
        assert_eq!(added["addRuleParameterVersion"]["value"], "99.99");
        let one = "query O($id: ID!) { node(id: $id) { ... on SocialFuelProject { compliance(asOf: \"2026-12-02\") { ruleCode status explanation } } } }";
        let after_next_day = app.data(one, json!({ "id": target["id"] })).await;
        let o = after_next_day["node"]["compliance"].as_array().and_then(|c| c.iter().find(|o| o["ruleCode"] == "SF-SHARE-MIN").cloned()).expect("share");
        assert_eq!(o["status"], "MET", "a version starting the day after filing does not apply: {o}");
        app.data(add, json!({ "from": filed })).await;
        let on_filing = app.data(one, json!({ "id": target["id"] })).await;
        let o = on_filing["node"]["compliance"].as_array().and_then(|c| c.iter().find(|o| o["ruleCode"] == "SF-SHARE-MIN").cloned()).expect("share");
        assert_eq!(o["status"], "VIOLATED", "a version in force on the filing date applies: {o}");
        assert!(o["explanation"].as_str().is_some_and(|e| e.contains("99.99 %") && e.contains("test instrument")), "{o}");

        let versions = app.data("{ ruleParameters(rule: \"SF-SHARE-MIN.CENTRE_WEST\") { value effectiveFrom legalSource } }", json!({})).await;
        assert_eq!(versions["ruleParameters"].as_array().map(Vec::len), Some(3), "the baseline and two new versions");
    })
    .await;
}

#[tokio::test]
async fn bad_parameter_versions_are_refused_with_the_reason() {
    on_each_backend(false, |app| async move {
        let add = "mutation A($k: String!, $v: Decimal!, $u: String!, $s: String!) { addRuleParameterVersion(key: $k, value: $v, unit: $u, effectiveFrom: \"2027-01-01\", legalSource: $s) { key } }";
        let cases = [
            (json!({ "k": "NO-SUCH.KEY", "v": "1", "u": "DAYS", "s": "x" }), "NO-SUCH.KEY is not a rule parameter"),
            (json!({ "k": "FCO-CEILING.AMOUNT", "v": "1", "u": "DAYS", "s": "x" }), "is in BRL, not DAYS"),
            (json!({ "k": "FCO-CEILING.AMOUNT", "v": "-5", "u": "BRL", "s": "x" }), "is not a non-negative decimal"),
            (json!({ "k": "FCO-CEILING.AMOUNT", "v": "5", "u": "BRL", "s": " " }), "legalSource"),
        ];
        for (vars, fragment) in cases {
            let (message, code) = app.error(add, vars.clone()).await;
            assert_eq!(code, "BAD_USER_INPUT", "{vars}: {message}");
            assert!(message.contains(fragment), "{vars}: {message:?}");
        }
    })
    .await;
}

#[tokio::test]
async fn the_baseline_parameters_are_the_seeds_values_and_every_rule_is_listed() {
    on_each_backend(false, |app| async move {
        let data = app
            .data(
                "{ rules { code legalBasis kind } ruleParameters { key value unit effectiveFrom legalSource } }",
                json!({}),
            )
            .await;
        assert_eq!(data["rules"].as_array().map(Vec::len), Some(entity::rules::RULES.len()));
        let stored: HashSet<(String, String)> = data["ruleParameters"]
            .as_array()
            .expect("params")
            .iter()
            .map(|p| {
                (
                    p["key"].as_str().unwrap_or("").to_owned(),
                    p["value"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect();
        let baseline: HashSet<(String, String)> = entity::rules::params::Params::baseline()
            .all()
            .iter()
            .map(|v| (v.key.clone(), v.value.to_string()))
            .collect();
        assert_eq!(
            stored, baseline,
            "the migration ships exactly the rule layer's baseline"
        );
    })
    .await;
}

#[tokio::test]
async fn a_confirmed_checklist_item_shows_who_confirmed_it() {
    on_each_backend(true, |app| async move {
        let data = app.data("{ socialFuelProjects(first: 1, filter: { stages: [FILED] }) { nodes { id } } }", json!({})).await;
        let id = data["socialFuelProjects"]["nodes"][0]["id"].clone();
        let confirm = "mutation C($id: ID!, $r: String!) { confirmChecklistItem(financingId: $id, ruleCode: $r, confirmedBy: \"Ana Analista (MDA)\", note: \"plano compatível\") { status } }";
        let done = app.data(confirm, json!({ "id": id, "r": "SF-ASSISTANCE-PLAN" })).await;
        assert_eq!(done["confirmChecklistItem"]["status"], "MET");
        let q = "query O($id: ID!) { node(id: $id) { ... on SocialFuelProject { compliance { ruleCode status explanation } } } }";
        let c = app.data(q, json!({ "id": id })).await;
        let item = c["node"]["compliance"].as_array().and_then(|c| c.iter().find(|o| o["ruleCode"] == "SF-ASSISTANCE-PLAN").cloned()).expect("item");
        assert_eq!(item["status"], "MET");
        assert!(item["explanation"].as_str().is_some_and(|e| e.contains("Ana Analista (MDA)") && e.contains("plano compatível")), "{item}");
        let (message, code) = app.error(confirm, json!({ "id": id, "r": "SF-SHARE-MIN" })).await;
        assert_eq!((code.as_str(), message.contains("not a checklist rule")), ("BAD_USER_INPUT", true), "{message}");
    })
    .await;
}
