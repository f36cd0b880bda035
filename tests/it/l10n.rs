//! Portuguese first: what people read is Portuguese by default and English with `Accept-Language: en` (issue 43).

use crate::helpers::{TestApp, on_each_backend};
use serde_json::{Value, json};

const PT: Option<&str> = None;
const EN: Option<&str> = Some("en");

/// The BB bank's ID and a grains carta of `amount` at it, a draft.
async fn draft(app: &TestApp, number: &str, amount: &str) -> Value {
    crate::lifecycle_support::seed_bank(app, "BB").await;
    let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
    app.data(
        "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
        json!({ "i": { "number": number, "bankId": bank, "borrowerDocument": "529.982.247-25",
            "borrowerName": "Carla Produtora", "line": "RURAL", "activity": "GRAINS", "financedAmount": amount,
            "municipalityCode": 5107909 } }),
    )
    .await["createFcoCarta"]["id"]
        .clone()
}

const DECIDE: &str = "mutation D($id: ID!, $chamber: Boolean!) { decideFcoCarta(id: $id, decision: FAVOURABLE, \
    byChamber: $chamber, on: \"2026-08-10\") { stage } }";

#[tokio::test]
async fn lookups_that_find_nothing_and_bad_ids_answer_in_portuguese_by_default_and_in_english_on_request() {
    on_each_backend(false, |app| async move {
        let cases = [
            (
                "{ node(id: \"zz\") { id } }",
                "BAD_USER_INPUT",
                "id: \"zz\" não é um ID válido",
                "id: \"zz\" is not an ID",
            ),
            (
                // `Bank:999`, well formed, of no bank.
                "{ bank(id: \"QmFuazo5OTk\") { name } }",
                "NOT_FOUND",
                "não há banco com o ID \"QmFuazo5OTk\"",
                "no bank with ID \"QmFuazo5OTk\"",
            ),
            (
                "{ bank(id: \"x\") { name } }",
                "BAD_USER_INPUT",
                "id: \"x\" não é um ID de banco",
                "id: \"x\" is not a bank ID",
            ),
            (
                "{ municipality(ibgeCode: 9999999) { name } }",
                "NOT_FOUND",
                "nenhum município tem o código IBGE 9999999",
                "no municipality with IBGE code 9999999",
            ),
        ];
        for (query, code, pt, en) in cases {
            for (lang, text) in [(PT, pt), (EN, en)] {
                let (message, got) = app.error_in(lang, query, json!({})).await;
                assert_eq!((got.as_str(), message.as_str()), (code, text), "{query} in {lang:?}");
            }
        }
    })
    .await;
}

#[tokio::test]
async fn a_refused_act_names_its_rule_and_why_in_portuguese_by_default_and_in_english_on_request() {
    on_each_backend(false, |app| async move {
        let carta = draft(&app, "L10N-1", "2000000.00").await;
        // A draft is not decided: the stage it is in and the one the act needs.
        let vars = json!({ "id": carta, "chamber": true });
        let (pt, code) = app.error_in(PT, DECIDE, vars.clone()).await;
        assert_eq!(code, "RULE_VIOLATION");
        assert!(
            pt.starts_with("FCO-CHAMBER-THRESHOLD: a carta está «")
                && pt.contains("exige que esteja «submetida» (SUBMITTED)"),
            "{pt}"
        );
        let (en, _) = app.error_in(EN, DECIDE, vars).await;
        assert!(
            en.starts_with("FCO-CHAMBER-THRESHOLD: the carta is «") && en.contains("needs it «submetida» (SUBMITTED)"),
            "{en}"
        );
        // Submitted, R$ 2 M is the chamber's to decide, not the bank's: the amounts written as each language writes
        // them.
        app.data(
            "mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-03\") { id } }",
            json!({ "id": carta }),
        )
        .await;
        // Decided before it was submitted: both days written as each language writes them.
        let early = "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true, \
            on: \"2026-08-01\") { stage } }";
        let (pt, _) = app.error_in(PT, early, json!({ "id": carta })).await;
        assert_eq!(
            pt,
            "FCO-CHAMBER-THRESHOLD: 01/08/2026 é anterior à submissão (03/08/2026) (IN CDAE/MT 2019, art. 2, §3)"
        );
        let (en, _) = app.error_in(EN, early, json!({ "id": carta })).await;
        assert_eq!(
            en,
            "FCO-CHAMBER-THRESHOLD: 2026-08-01 is before the submission (2026-08-03) (IN CDAE/MT 2019, art. 2, §3)"
        );
        let vars = json!({ "id": carta, "chamber": false });
        let (_, body) = app.gql_in(PT, DECIDE, vars.clone()).await;
        let e = &body["errors"][0];
        assert_eq!(e["extensions"]["ruleCode"], "FCO-CHAMBER-THRESHOLD", "{body}");
        assert_eq!(
            e["extensions"]["explanation"],
            "R$ 2.000.000,00 é igual ou superior a R$ 1.000.000,00: o parecer é da câmara CPACR, não do banco"
        );
        let (en, _) = app.error_in(EN, DECIDE, vars).await;
        assert!(
            en.contains("R$ 2,000,000.00 is at or above R$ 1,000,000.00: the CPACR chamber must give its opinion"),
            "{en}"
        );
    })
    .await;
}

#[tokio::test]
async fn rule_titles_are_portuguese_by_default_and_english_on_request() {
    on_each_backend(false, |app| async move {
        let q = "{ rules { code title } }";
        let title = |body: &Value, code: &str| {
            body["data"]["rules"]
                .as_array()
                .and_then(|r| r.iter().find(|r| r["code"] == code))
                .map(|r| r["title"].as_str().unwrap_or_default().to_owned())
                .unwrap_or_default()
        };
        let (_, pt) = app.gql_in(PT, q, json!({})).await;
        let (_, en) = app.gql_in(EN, q, json!({})).await;
        assert_eq!(
            title(&pt, "FCO-CEILING"),
            "No máximo R$ 15 milhões por tomador, contando todo o grupo econômico."
        );
        assert_eq!(
            title(&en, "FCO-CEILING"),
            "At most R$ 15 million per borrower, counting the whole economic group."
        );
        let all = pt["data"]["rules"].as_array().map_or(0, Vec::len);
        assert!(all > 50, "{pt}");
    })
    .await;
}

#[tokio::test]
async fn financings_are_filtered_by_their_decision_and_contract_dates() {
    on_each_backend(false, |app| async move {
        let carta = draft(&app, "L10N-2", "500000.00").await;
        app.data(
            "mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-03\") { id } }",
            json!({ "id": carta }),
        )
        .await;
        app.data(DECIDE, json!({ "id": carta, "chamber": false })).await;
        let q = "query F($f: FinancingFilter) { financings(filter: $f) { totalCount } }";
        let count = async |f: Value| app.data(q, json!({ "f": f })).await["financings"]["totalCount"].clone();
        assert_eq!(
            count(json!({ "decidedFrom": "2026-08-01", "decidedTo": "2026-08-31" })).await,
            1
        );
        assert_eq!(count(json!({ "decidedFrom": "2026-09-01" })).await, 0);
        // Approved, not contracted: no contract date falls in any range.
        assert_eq!(
            count(json!({ "contractedFrom": "2026-01-01", "contractedTo": "2026-12-31" })).await,
            0
        );
        let (message, code) = app
            .error_in(
                PT,
                q,
                json!({ "f": { "contractedFrom": "2026-11-30", "contractedTo": "2026-11-01" } }),
            )
            .await;
        assert_eq!(code, "BAD_USER_INPUT");
        assert!(message.starts_with("filter.contractedFrom"), "{message}");
    })
    .await;
}

/// Issue 42's guard refusals are catalogue messages: Portuguese by default, English on request, with their values
/// written as each language writes them (a resubmission of a carta with no unfavourable opinion; an amendment dated
/// before the approval it amends).
#[tokio::test]
async fn a_guard_refusal_of_issue_42_is_portuguese_by_default_and_english_on_request() {
    on_each_backend(false, |app| async move {
        let carta = draft(&app, "L10N-42", "500000.00").await;
        let resubmit = "mutation R($id: ID!) { resubmitFcoCarta(id: $id, number: \"L10N-42B\") { id } }";
        let (pt, code) = app.error_in(PT, resubmit, json!({ "id": carta })).await;
        assert_eq!(code, "RULE_VIOLATION");
        assert!(
            pt.starts_with("FCO-RESUBMIT: só uma carta com parecer desfavorável pode ser reapresentada; esta está «")
                && pt.contains("(DRAFT)"),
            "{pt}"
        );
        let (en, _) = app.error_in(EN, resubmit, json!({ "id": carta })).await;
        assert!(
            en.starts_with("FCO-RESUBMIT: only a carta with an unfavourable opinion may be resubmitted; this one is «")
                && en.contains("(DRAFT)"),
            "{en}"
        );
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-08-03\") { id } }", json!({ "id": carta }))
            .await;
        app.data(
            "mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: false, on: \"2026-08-05\") { stage } }",
            json!({ "id": carta }),
        )
        .await;
        let amend = "mutation A($id: ID!) { amendFcoCarta(id: $id, kind: VALUE_REDUCTION, description: \"ajuste\",
            newAmount: \"400000.00\", on: \"2026-08-04\") { id } }";
        let (pt, _) = app.error_in(PT, amend, json!({ "id": carta })).await;
        assert!(
            pt.contains("uma alteração em 04/08/2026 é anterior à aprovação da carta que ela altera (05/08/2026)"),
            "{pt}"
        );
        let (en, _) = app.error_in(EN, amend, json!({ "id": carta })).await;
        assert!(
            en.contains("an amendment on 2026-08-04 is before the approval of the carta it amends (2026-08-05)"),
            "{en}"
        );
    })
    .await;
}
