//! Walks through both lifecycles over HTTP: every state is reached, every illegal jump is refused with the rule that
//! forbids it, and every step lands in the history.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::helpers::{TestApp, on_each_backend};
use serde_json::{Value, json};

async fn bank(app: &TestApp, code: &str) -> Value {
    app.data(
        "query B($c: String!) { bankByCode(code: $c) { id } }",
        json!({ "c": code }),
    )
    .await["bankByCode"]["id"]
        .clone()
}

/// Runs a mutation that must be refused, and checks the rule named.
async fn refused(app: &TestApp, mutation: &str, vars: Value, rule: &str) {
    let (_, body) = app.gql(mutation, vars.clone()).await;
    let e = &body["errors"][0];
    assert_eq!(e["extensions"]["code"], "RULE_VIOLATION", "{mutation} {vars}: {body}");
    assert_eq!(e["extensions"]["ruleCode"], rule, "{mutation} {vars}: {body}");
    assert!(
        e["extensions"]["legalBasis"]
            .as_str()
            .is_some_and(|b| b.starts_with("IN ")),
        "{body}"
    );
}

const SF_FIELDS: &str = "id stage status history { fromStage toStage event occurredOn actor }";

#[tokio::test]
async fn a_social_fuel_project_walks_every_stage_and_illegal_jumps_are_refused() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bndes = bank(&app, "BNDES").await;
        let create = format!("mutation C($i: NewSocialFuelProject!) {{ createSocialFuelProject(input: $i) {{ {SF_FIELDS} }} }}");
        let input = json!({ "title": "Usina de Petrolina", "bankId": bndes, "producerDocument": "11.222.333/0001-81",
            "producerName": "Biodiesel Cerrado S.A.", "plantMunicipalityCode": 2611101, "requestedAmount": "25000000.00" });
        let p = app.data(&create, json!({ "i": input })).await["createSocialFuelProject"].clone();
        assert_eq!(p["stage"], "DRAFT");
        let id = p["id"].clone();
        let step = |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ {SF_FIELDS} }} }}");

        // Filing needs the bank's framing first, then the six documents.
        // IN MDA nº 2/2005 judges acts of its time (in force until 2021-05-24): the guards are walked in 2015.
        refused(&app, &step("fileSocialFuelProject", ", on: \"2015-01-10\""), json!({ "id": id }), "SF-BANK-FIRST").await;
        refused(&app, &step("decideSocialFuelProject", ", decision: FAVOURABLE"), json!({ "id": id }), "SF-DECISION-30D").await;
        let framed = app.data("mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
            json!({ "i": { "title": "Usina de Petrolina II", "bankId": bndes, "producerDocument": "11.222.333/0001-81",
            "plantMunicipalityCode": 2611101, "requestedAmount": "1000.00", "bankFramedOn": "2015-01-05" } })).await;
        let id = framed["createSocialFuelProject"]["id"].clone();
        refused(&app, &step("fileSocialFuelProject", ", on: \"2015-01-10\""), json!({ "id": id }), "SF-DOCUMENTS").await;
        for kind in ["REQUEST_LETTER", "BANK_FRAMING_LETTER", "SOCIAL_FUEL_PROJECT", "FARMER_CONTRACT", "CNPJ_REGISTRATION", "GOOD_STANDING_DECLARATION"] {
            app.data("mutation D($id: ID!, $k: ProjectDocumentKind!) { addProjectDocument(projectId: $id, kind: $k, receivedOn: \"2026-01-08\") { kind } }", json!({ "id": id, "k": kind })).await;
        }
        let walk = [
            ("fileSocialFuelProject", ", on: \"2026-01-10\"", "FILED"),
            ("decideSocialFuelProject", ", decision: FAVOURABLE, on: \"2026-02-05\", letter: \"Ofício 1/2026\"", "CONFORMING"),
            ("approveSocialFuelFinancing", ", on: \"2026-03-02\", scheduledEnd: \"2027-03-02\"", "FINANCING_APPROVED"),
            ("startIndustrialOperation", ", on: \"2026-04-01\"", "OPERATING"),
            ("requestSocialFuelExtension", ", justification: \"safra atrasada\", purchasesHonoured: true, farmersAssisted: true, on: \"2026-09-01\"", "OPERATING"),
            ("decideSocialFuelExtension", ", granted: true, reason: \"seca comprovada\", on: \"2026-09-10\"", "OPERATING"),
            ("startExternalEvaluation", ", on: \"2026-10-01\"", "EXTERNAL_EVALUATION"),
            ("concludeExternalEvaluation", ", result: FAVOURABLE, on: \"2026-10-20\"", "SEAL_ELIGIBLE"),
            ("requestSocialFuelSeal", ", on: \"2026-11-03\"", "SEAL_REQUESTED"),
        ];
        for (name, extra, stage) in walk {
            let d = app.data(&step(name, extra), json!({ "id": id })).await;
            assert_eq!(d[name]["stage"], stage, "{name}");
        }
        // The extension is decided once only; a sealed project cannot be decided again, nor unframed (art. 11 II
        // unframes only after a non-conformity and the hearing of the company).
        refused(&app, &step("decideSocialFuelExtension", ", granted: false, reason: \"x\""), json!({ "id": id }), "SF-EXTENSION-12M").await;
        refused(&app, &step("decideSocialFuelProject", ", decision: FAVOURABLE"), json!({ "id": id }), "SF-DECISION-30D").await;
        refused(&app, &step("requestSocialFuelSeal", ""), json!({ "id": id }), "SF-SEAL-REQUEST-30D").await;
        refused(&app, &step("unframeSocialFuelProject", ", reason: \"compras não honradas\", on: \"2026-11-20\""), json!({ "id": id }), "SF-UNFRAMING").await;
        let d = app.data(&format!("query H($id: ID!) {{ node(id: $id) {{ ... on SocialFuelProject {{ {SF_FIELDS} extensionGrantedOn extensionDecisionReason }} }} }}"), json!({ "id": id })).await;
        let p = &d["node"];
        assert_eq!((p["extensionGrantedOn"].as_str(), p["extensionDecisionReason"].as_str()), (Some("2026-09-10"), Some("seca comprovada")));
        let events: Vec<&str> = p["history"].as_array().expect("history").iter().filter_map(|h| h["event"].as_str()).collect();
        assert_eq!(events, ["CREATE", "FILE", "DECIDE", "APPROVE_FINANCING", "START_OPERATION", "REQUEST_EXTENSION", "DECIDE_EXTENSION", "START_EVALUATION", "CONCLUDE_EVALUATION", "REQUEST_SEAL"]);
        assert_eq!(p["history"][1]["fromStage"], "DRAFT");
        assert_eq!(p["history"][1]["occurredOn"], "2026-01-10");

        // A second project: non-conforming, then an extension without its conditions.
        let other = app.data("mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
            json!({ "i": { "title": "Usina 3", "bankId": bndes, "producerDocument": "11.222.333/0001-81",
            "plantMunicipalityCode": 2611101, "requestedAmount": "1000.00", "bankFramedOn": "2015-01-05" } })).await;
        let id2 = other["createSocialFuelProject"]["id"].clone();
        for kind in ["REQUEST_LETTER", "BANK_FRAMING_LETTER", "SOCIAL_FUEL_PROJECT", "FARMER_CONTRACT", "CNPJ_REGISTRATION", "GOOD_STANDING_DECLARATION"] {
            app.data("mutation D($id: ID!, $k: ProjectDocumentKind!) { addProjectDocument(projectId: $id, kind: $k, receivedOn: \"2015-01-08\") { kind } }", json!({ "id": id2, "k": kind })).await;
        }
        app.data(&step("fileSocialFuelProject", ", on: \"2015-01-10\""), json!({ "id": id2 })).await;
        refused(&app, &step("requestSocialFuelExtension", ", justification: \"x\", purchasesHonoured: true, farmersAssisted: true"), json!({ "id": id2 }), "SF-EXTENSION-12M").await;
        // Art. 9 I–II: MDA decides by a letter; a decision without one is refused, and so is a non-conformity letter
        // that does not say what the analysis was based on (art. 9 II).
        refused(&app, &step("decideSocialFuelProject", ", decision: UNFAVOURABLE, on: \"2015-01-20\""), json!({ "id": id2 }), "SF-DECISION-LETTER").await;
        refused(&app, &step("decideSocialFuelProject", ", decision: UNFAVOURABLE, on: \"2015-01-20\", letter: \"Ofício 8/MDA\", grounds: \" \""), json!({ "id": id2 }), "SF-DECISION-LETTER").await;
        let d = app.data(&step("decideSocialFuelProject", ", decision: UNFAVOURABLE, on: \"2015-01-20\", letter: \"Ofício 8/MDA\", grounds: \"sem proposta de contrato com representação\", signatory: \"Secretário de Agricultura Familiar\""), json!({ "id": id2 })).await;
        assert_eq!(d["decideSocialFuelProject"]["stage"], "NON_CONFORMING");
        let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { decisionGrounds decisionSignatory compliance { ruleCode status explanation } } } }";
        let n = app.data(q, json!({ "id": id2 })).await["node"].clone();
        assert_eq!((n["decisionGrounds"].as_str(), n["decisionSignatory"].as_str()), (Some("sem proposta de contrato com representação"), Some("Secretário de Agricultura Familiar")));
        let letter = n["compliance"].as_array().and_then(|l| l.iter().find(|o| o["ruleCode"] == "SF-DECISION-LETTER").cloned()).expect("letter");
        assert!(letter["status"] == "MET" && letter["explanation"].as_str().is_some_and(|e| e.contains("com os fundamentos: sem proposta") && e.contains("art. 9 II")), "{letter}");
        refused(&app, &step("approveSocialFuelFinancing", ""), json!({ "id": id2 }), "SF-SCHEDULE").await;
    })
    .await;
}

/// SF-BANK-FIRST and SF-DECISION-LETTER refuse an act with the words their rules write in `compliance` (one check, one
/// text), in Portuguese by default and in English on request: a filing before the bank's framing, a decision with no
/// letter, a non-conformity letter with no grounds.
#[tokio::test]
async fn a_filing_or_a_decision_the_rules_forbid_is_refused_in_the_rules_own_words() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bndes = bank(&app, "BNDES").await;
        let create = "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }";
        let project = |framed: Option<&str>| json!({ "i": { "title": "Usina", "bankId": bndes, "producerDocument": "11.222.333/0001-81",
            "producerName": "Biodiesel Cerrado S.A.", "plantMunicipalityCode": 2611101, "requestedAmount": "1000.00", "bankFramedOn": framed } });
        let step = |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ id stage }} }}");
        let message = |body: &Value| body["errors"][0]["message"].as_str().unwrap_or_default().to_owned();

        let unframed = app.data(create, project(None)).await["createSocialFuelProject"]["id"].clone();
        let (_, body) = app.gql(&step("fileSocialFuelProject", ", on: \"2015-01-10\""), json!({ "id": unframed })).await;
        assert!(message(&body).contains("protocolado em 10/01/2015 sem o enquadramento pelo banco"), "{body}");
        let late = app.data(create, project(Some("2015-01-12"))).await["createSocialFuelProject"]["id"].clone();
        let (_, body) = app.gql_in(Some("en"), &step("fileSocialFuelProject", ", on: \"2015-01-10\""), json!({ "id": late })).await;
        assert!(message(&body).contains("before the bank's framing on"), "{body}");

        let filed = app.data(create, project(Some("2015-01-05"))).await["createSocialFuelProject"]["id"].clone();
        for kind in ["REQUEST_LETTER", "BANK_FRAMING_LETTER", "SOCIAL_FUEL_PROJECT", "FARMER_CONTRACT", "CNPJ_REGISTRATION", "GOOD_STANDING_DECLARATION"] {
            app.data("mutation D($id: ID!, $k: ProjectDocumentKind!) { addProjectDocument(projectId: $id, kind: $k, receivedOn: \"2015-01-08\") { kind } }", json!({ "id": filed, "k": kind })).await;
        }
        app.data(&step("fileSocialFuelProject", ", on: \"2015-01-10\""), json!({ "id": filed })).await;
        let (_, body) = app.gql(&step("decideSocialFuelProject", ", decision: FAVOURABLE, on: \"2015-01-20\""), json!({ "id": filed })).await;
        assert!(message(&body).contains("decidido em 20/01/2015 sem ofício registrado"), "{body}");
        let (_, body) = app.gql(&step("decideSocialFuelProject", ", decision: UNFAVOURABLE, on: \"2015-01-20\", letter: \"Ofício 8/MDA\""), json!({ "id": filed })).await;
        assert!(message(&body).contains("pelo ofício Ofício 8/MDA de não conformidade, que não indica fundamentos"), "{body}");
    })
    .await;
}

async fn seed_banks(app: &TestApp) {
    use sea_orm::{ActiveModelTrait, ActiveValue::Set};
    for (code, sf, fco) in [("BNDES", true, false), ("BB", true, true)] {
        entity::bank::ActiveModel {
            code: Set(code.into()),
            name: Set(code.into()),
            serves_social_fuel: Set(sf),
            serves_fco: Set(fco),
            mda_cooperation_agreement: Set(false),
            ..Default::default()
        }
        .insert(&app.db)
        .await
        .expect("bank");
    }
}

const FCO_FIELDS: &str = "id stage status amount approvedOn history { event fromStage toStage }";

/// `createFcoCarta` with the fields the lifecycle tests read.
fn fco_create() -> String {
    format!("mutation C($i: NewFcoCarta!) {{ createFcoCarta(input: $i) {{ {FCO_FIELDS} }} }}")
}

/// A beef-cattle carta of João Silva at bank `bb`, for `amount`.
fn fco_new(bb: &Value, number: &str, amount: &str) -> Value {
    json!({ "i": { "number": number, "bankId": bb, "borrowerDocument": "529.982.247-25", "borrowerName": "João Silva",
        "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": amount, "municipalityCode": 5107909 } })
}

/// `createSocialFuelProject` answering the project's ID.
const SF_CREATE: &str = "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }";

/// A project of Biodiesel S.A. in Cuiabá at `bank`, for `amount`, framed by the bank on `framed` (if at all).
fn sf_new(bank: &Value, amount: &str, framed: Option<&str>) -> Value {
    json!({ "i": { "title": "Usina", "bankId": bank, "producerDocument": "11.222.333/0001-81", "producerName": "Biodiesel S.A.",
        "plantMunicipalityCode": 5103403, "requestedAmount": amount, "bankFramedOn": framed } })
}

/// A transition `name` of carta `$id`, with `extra` arguments.
fn fco_step(name: &str, extra: &str) -> String {
    format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ {FCO_FIELDS} }} }}")
}

#[tokio::test]
async fn an_fco_carta_walks_every_stage_and_illegal_jumps_are_refused() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bb = bank(&app, "BB").await;
        let create = fco_create();
        let new = |number: &str, amount: &str| fco_new(&bb, number, amount);
        let step = fco_step;

        // R$ 1,000,000.00 goes to the chamber: the bank may not decide it.
        let big = app.data(&create, new("FCO-1", "1000000.00")).await["createFcoCarta"]["id"].clone();
        refused(&app, &step("contractFcoCarta", ""), json!({ "id": big }), "FCO-CHAMBER-THRESHOLD").await;
        app.data(&step("submitFcoCarta", ", on: \"2026-03-02\""), json!({ "id": big })).await;
        refused(&app, &step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: false, on: \"2026-03-10\""), json!({ "id": big }), "FCO-CHAMBER-THRESHOLD").await;
        let d = app.data(&step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: true, on: \"2026-03-02\""), json!({ "id": big })).await;
        assert_eq!(d["decideFcoCarta"]["stage"], "APPROVED");
        // Day 120 after 2 March 2026 is 30 June: the project must reach the bank by then (art. 3 sole §); expiring
        // before then is refused, and so is a contract after it while no presentation in time is recorded.
        refused(&app, &step("expireFcoCarta", ", on: \"2026-06-30\""), json!({ "id": big }), "FCO-VALIDITY-120D").await;
        refused(&app, &step("contractFcoCarta", ", on: \"2026-07-01\""), json!({ "id": big }), "FCO-VALIDITY-120D").await;
        refused(&app, &step("presentFcoProject", ", on: \"2026-07-01\""), json!({ "id": big }), "FCO-VALIDITY-120D").await;
        app.data(&step("presentFcoProject", ", on: \"2026-06-30\""), json!({ "id": big })).await;
        refused(&app, &step("expireFcoCarta", ", on: \"2026-07-09\""), json!({ "id": big }), "FCO-VALIDITY-120D").await;
        // Presented on day 120, contracted on day 130: lawful.
        let d = app.data(&step("contractFcoCarta", ", on: \"2026-07-10\""), json!({ "id": big })).await;
        assert_eq!(d["contractFcoCarta"]["stage"], "CONTRACTED");
        // A 10.00 % increase applies directly; increases since the approval add up (art. 15: 10 % of the approved
        // value), so a further 4.5 % (15 % of the approved R$ 1,000,000) reopens the approval.
        let amend = |kind: &str, amount: &str| format!("mutation A($id: ID!) {{ amendFcoCarta(id: $id, kind: {kind}, description: \"orçamento\", newAmount: \"{amount}\", on: \"2026-07-10\") {{ {FCO_FIELDS} }} }}");
        let d = app.data(&amend("VALUE_INCREASE", "1100000.00"), json!({ "id": big })).await;
        assert_eq!((d["amendFcoCarta"]["stage"].as_str(), d["amendFcoCarta"]["amount"].as_str()), (Some("CONTRACTED"), Some("1100000.00")));
        let d = app.data(&amend("VALUE_INCREASE", "1150000.00"), json!({ "id": big })).await;
        assert_eq!(d["amendFcoCarta"]["stage"], "SUBMITTED", "15 % of the approved value needs a new approval");
        let h = app
            .data("query H($id: ID!) { node(id: $id) { ... on FcoCarta { history { event note } compliance { ruleCode status explanation } } } }", json!({ "id": big }))
            .await;
        let reopen = h["node"]["history"].as_array().and_then(|e| e.last().cloned()).expect("history");
        // The amendment's note is stored as a message with its judgement (migration 61): Portuguese by default,
        // English on request.
        assert!(
            reopen["note"].as_str().unwrap_or("").starts_with("FCO-AMENDMENT: ")
                && reopen["note"].as_str().unwrap_or("").contains("R$ 1.150.000,00 é 15 % acima dos R$ 1.000.000,00 aprovados"),
            "{reopen}"
        );
        let h = app.data_en("query H($id: ID!) { node(id: $id) { ... on FcoCarta { history { event note } } } }", json!({ "id": big })).await;
        let reopen = h["node"]["history"].as_array().and_then(|e| e.last().cloned()).expect("history");
        assert!(
            reopen["note"].as_str().unwrap_or("").contains("FCO-AMENDMENT: ")
                && reopen["note"].as_str().unwrap_or("").contains("R$ 1,150,000.00 is 15 % over the approved R$ 1,000,000.00"),
            "{reopen}"
        );

        // Below the threshold the bank decides; unfavourable, resubmitted, approved, then expired.
        let small = app.data(&create, new("FCO-2", "999999.99")).await["createFcoCarta"]["id"].clone();
        app.data(&step("submitFcoCarta", ", on: \"2026-03-02\""), json!({ "id": small })).await;
        refused(&app, &step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: true"), json!({ "id": small }), "FCO-CHAMBER-THRESHOLD").await;
        refused(&app, "mutation R($id: ID!) { resubmitFcoCarta(id: $id, number: \"FCO-2B\") { id } }", json!({ "id": small }), "FCO-RESUBMIT").await;
        let d = app.data(&step("decideFcoCarta", ", decision: UNFAVOURABLE, byChamber: false, on: \"2026-03-05\""), json!({ "id": small })).await;
        assert_eq!(d["decideFcoCarta"]["status"], "DENIED");
        let again = app.data("mutation R($id: ID!) { resubmitFcoCarta(id: $id, number: \"FCO-2B\") { id stage resubmissionOf { id } } }", json!({ "id": small })).await;
        assert_eq!(again["resubmitFcoCarta"]["resubmissionOf"]["id"], small);
        let id = again["resubmitFcoCarta"]["id"].clone();
        // Once only, and reformulated: a second resubmission of FCO-2 is refused, and so is submitting it unchanged.
        refused(&app, "mutation R($id: ID!) { resubmitFcoCarta(id: $id, number: \"FCO-2C\") { id } }", json!({ "id": small }), "FCO-RESUBMIT").await;
        refused(&app, &step("submitFcoCarta", ", on: \"2026-03-09\""), json!({ "id": id }), "FCO-RESUBMIT").await;
        app.data(
            "mutation I($i: AddFcoCartaItemInput!) { addFcoCartaItem(input: $i) { item { itemId } } }",
            json!({ "i": { "cartaId": id, "item": { "kind": "BUILDING", "description": "curral reformulado", "quantity": "1", "investmentClass": "FIXED", "value": "50000.00" }, "effectiveOn": "2026-03-09" } }),
        )
        .await;
        app.data(&step("submitFcoCarta", ", on: \"2026-03-09\""), json!({ "id": id })).await;
        app.data(&step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: false, on: \"2026-03-09\""), json!({ "id": id })).await;
        // The bank decided it: by the reading made, its approval has the same 120 days, counted from the bank's
        // approval (9 March to 7 July), to present the project: not expired on the last day, not contracted after it
        // with no presentation, contracted after it once the presentation within them is recorded.
        refused(&app, &step("expireFcoCarta", ", on: \"2026-07-07\""), json!({ "id": id }), "FCO-VALIDITY-120D").await;
        refused(&app, &step("contractFcoCarta", ", on: \"2026-07-20\""), json!({ "id": id }), "FCO-VALIDITY-120D").await;
        app.data(&step("presentFcoProject", ", on: \"2026-07-01\""), json!({ "id": id })).await;
        let d = app.data(&step("contractFcoCarta", ", on: \"2026-07-20\""), json!({ "id": id })).await;
        let c = &d["contractFcoCarta"];
        assert_eq!(c["stage"].as_str(), Some("CONTRACTED"));
        let events: Vec<&str> = c["history"].as_array().expect("history").iter().filter_map(|h| h["event"].as_str()).collect();
        assert_eq!(events, ["RESUBMIT", "SUBMIT", "DECIDE", "PRESENT_PROJECT", "CONTRACT"]);

        // The R$ 15 M ceiling counts the borrower's approved and contracted cartas: R$ 1,000,000.01 approved, then
        // R$ 14,000,000.00 more would pass it by one centavo.
        let first = app.data(&create, new("FCO-4", "1000000.01")).await["createFcoCarta"]["id"].clone();
        app.data(&step("submitFcoCarta", ", on: \"2026-08-03\""), json!({ "id": first })).await;
        app.data(&step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: true, on: \"2026-08-10\""), json!({ "id": first })).await;
        let huge = app.data(&create, new("FCO-3", "14000000.00")).await["createFcoCarta"]["id"].clone();
        app.data(&step("submitFcoCarta", ", on: \"2026-08-03\""), json!({ "id": huge })).await;
        refused(&app, &step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: true, on: \"2026-08-10\""), json!({ "id": huge }), "FCO-CEILING").await;
    })
    .await;
}

/// Sanity checks staff expect (issue 16, point 9): no act dated after today, no carta or project of R$ 0,00, no
/// amendment before the approval it amends, no implementation scheduled to end before the financing is approved.
#[tokio::test]
async fn acts_in_the_future_nothing_financed_and_dates_out_of_order_are_refused() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bb = bank(&app, "BB").await;
        let create = fco_create();
        let new = |number: &str, amount: &str| fco_new(&bb, number, amount);
        let step = fco_step;
        // R$ 0,00 is no carta; one centavo is.
        let (message, code) = app.error(&create, new("ZERO", "0.00")).await;
        assert_eq!((code.as_str(), message.starts_with("input.financedAmount")), ("BAD_USER_INPUT", true), "{message}");
        assert!(message.contains("more than R$ 0,00"), "{message}");
        let carta = app.data(&create, new("CENTAVO", "0.01")).await["createFcoCarta"]["id"].clone();
        // Tomorrow is refused; today is not.
        let today = chrono::Utc::now().with_timezone(&chrono_tz::America::Sao_Paulo).date_naive();
        let tomorrow = today.succ_opt().expect("tomorrow");
        let (message, code) = app
            .error(&step("submitFcoCarta", &format!(", on: \"{tomorrow}\"")), json!({ "id": carta }))
            .await;
        assert_eq!(code, "BAD_USER_INPUT", "{message}");
        assert!(message.contains("after today"), "{message}");
        app.data(&step("submitFcoCarta", &format!(", on: \"{today}\"")), json!({ "id": carta })).await;
        let d = app
            .data(&step("decideFcoCarta", &format!(", decision: FAVOURABLE, byChamber: false, on: \"{today}\"")), json!({ "id": carta }))
            .await;
        assert_eq!(d["decideFcoCarta"]["stage"], "APPROVED");
        // An amendment dated before the approval it amends.
        let yesterday = today.pred_opt().expect("yesterday");
        refused(
            &app,
            &format!("mutation A($id: ID!) {{ amendFcoCarta(id: $id, kind: VALUE_REDUCTION, description: \"x\", newAmount: \"0.01\", on: \"{yesterday}\") {{ id }} }}"),
            json!({ "id": carta }),
            "FCO-AMENDMENT",
        )
        .await;

        // A project whose implementation would end before its financing is approved.
        let bndes = bank(&app, "BNDES").await;
        let p = app.data(SF_CREATE, sf_new(&bndes, "2000000.00", Some("2026-03-02"))).await["createSocialFuelProject"]["id"].clone();
        let (message, code) = app.error(SF_CREATE, sf_new(&bndes, "0.00", None)).await;
        assert_eq!((code.as_str(), message.starts_with("input.requestedAmount")), ("BAD_USER_INPUT", true), "{message}");
        crate::facts::all_documents(&app, &p).await;
        app.data("mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2026-03-05\") { stage } }", json!({ "id": p })).await;
        app.data("mutation M($id: ID!) { decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: \"2026-03-20\", letter: \"Ofício 7/MDA\") { stage } }", json!({ "id": p }))
            .await;
        refused(
            &app,
            "mutation A($id: ID!) { approveSocialFuelFinancing(id: $id, on: \"2026-04-01\", scheduledEnd: \"2026-03-31\") { stage } }",
            json!({ "id": p }),
            "SF-SCHEDULE",
        )
        .await;
        let d = app
            .data(
                "mutation A($id: ID!) { approveSocialFuelFinancing(id: $id, on: \"2026-04-01\", scheduledEnd: \"2026-04-01\") { stage } }",
                json!({ "id": p }),
            )
            .await;
        assert_eq!(d["approveSocialFuelFinancing"]["stage"], "FINANCING_APPROVED");
    })
    .await;
}

/// The facts the chamber's ratios read (art. 6 I c, art. 8 §5) are recorded with the carta and read back.
#[tokio::test]
async fn a_carta_states_its_own_sires_and_its_breeding_method() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bb = bank(&app, "BB").await;
        let mut input = fco_new(&bb, "RATIOS-1", "400000.00");
        input["i"]["activity"] = json!("SWINE");
        input["i"]["existingSires"] = json!(3);
        input["i"]["artificialInsemination"] = json!(true);
        let d = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { existingSires artificialInsemination
                    compliance { ruleCode status } } }",
                input,
            )
            .await;
        let c = &d["createFcoCarta"];
        assert_eq!(
            (c["existingSires"].as_i64(), c["artificialInsemination"].as_bool()),
            (Some(3), Some(true))
        );
        let sire = c["compliance"]
            .as_array()
            .and_then(|a| a.iter().find(|o| o["ruleCode"] == "FCO-SIRE-RATIO"))
            .expect("FCO-SIRE-RATIO");
        assert_eq!(sire["status"], "NOT_APPLICABLE", "a swine carta has no sire ratio");
        let plain = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { existingSires artificialInsemination } }",
                fco_new(&bb, "RATIOS-2", "400000.00"),
            )
            .await;
        assert!(
            plain["createFcoCarta"]["existingSires"].is_null()
                && plain["createFcoCarta"]["artificialInsemination"].is_null()
        );
    })
    .await;
}

/// Which banks take part in each programme is data kept per bank and checked on filing; a filed request is judged by
/// the documents it carried; an extension asked after the 12 months has nothing left to extend (issue 16, point 9).
#[tokio::test]
async fn banks_outside_a_programme_late_documents_and_late_extensions_are_refused() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        // BNDES takes part in social fuel, not in FCO.
        let bndes = bank(&app, "BNDES").await;
        let (message, code) = app.error(&fco_create(), fco_new(&bndes, "FNE-1", "400000.00")).await;
        assert_eq!((code.as_str(), message.starts_with("input.bankId")), ("BAD_USER_INPUT", true), "{message}");
        assert!(message.contains("does not pass FCO Rural on"), "{message}");
        app.data("mutation { createBank(input: { code: \"BNB\", name: \"Banco do Nordeste\", programmes: [FCO_RURAL] }) { bank { id } } }", json!({}))
            .await;
        let bnb = bank(&app, "BNB").await;
        let (message, code) = app.error(SF_CREATE, sf_new(&bnb, "2000000.00", Some("2026-03-02"))).await;
        assert_eq!(code, "BAD_USER_INPUT", "{message}");
        assert!(message.contains("social-fuel programme"), "{message}");

        // Five documents on time, the sixth after the filing: the filing is refused, for it lacks one.
        let p = app.data(SF_CREATE, sf_new(&bndes, "2000000.00", Some("2014-03-02"))).await["createSocialFuelProject"]["id"].clone();
        for (kind, on) in [
            ("REQUEST_LETTER", "2014-03-02"),
            ("BANK_FRAMING_LETTER", "2014-03-02"),
            ("SOCIAL_FUEL_PROJECT", "2014-03-02"),
            ("FARMER_CONTRACT", "2014-03-02"),
            ("CNPJ_REGISTRATION", "2014-03-02"),
            ("GOOD_STANDING_DECLARATION", "2014-03-09"),
        ] {
            app.data(
                "mutation D($id: ID!, $k: ProjectDocumentKind!, $on: Date!) { addProjectDocument(projectId: $id, kind: $k, receivedOn: $on) { kind } }",
                json!({ "id": p, "k": kind, "on": on }),
            )
            .await;
        }
        refused(&app, "mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2014-03-05\") { stage } }", json!({ "id": p }), "SF-DOCUMENTS").await;
        app.data("mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2014-03-09\") { stage } }", json!({ "id": p })).await;
        for step in [
            "decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: \"2014-03-20\", letter: \"Ofício 7/MDA\", overrideReason: \"sem propostas registradas neste teste\")",
            "approveSocialFuelFinancing(id: $id, on: \"2014-04-01\")",
            "startIndustrialOperation(id: $id, on: \"2014-04-01\")",
        ] {
            app.data(&format!("mutation S($id: ID!) {{ {step} {{ stage }} }}"), json!({ "id": p })).await;
        }
        let extension = |on: &str| {
            format!("mutation E($id: ID!) {{ requestSocialFuelExtension(id: $id, on: \"{on}\", justification: \"seca\", purchasesHonoured: true, farmersAssisted: true) {{ stage }} }}")
        };
        // 12 months from 1 April 2014 end on 1 April 2015: a day later is too late.
        refused(&app, &extension("2015-04-02"), json!({ "id": p }), "SF-EXTENSION-12M").await;
        let d = app.data(&extension("2015-04-01"), json!({ "id": p })).await;
        assert!(d["requestSocialFuelExtension"]["stage"].is_string(), "{d}");
    })
    .await;
}

/// Art. 11 §2's twelve months end, for a request of extension, on the day the extension's deadline says: the months
/// moved to the next business day. The guard counted plain calendar months, so a request on the Monday after twelve
/// months ending on a Saturday was refused while the deadline still ran.
#[tokio::test]
async fn an_extension_may_be_asked_until_the_business_day_its_deadline_names() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bndes = bank(&app, "BNDES").await;
        let p = app.data(SF_CREATE, sf_new(&bndes, "2000000.00", Some("2014-03-02"))).await["createSocialFuelProject"]["id"].clone();
        crate::facts::documents_received(&app, &p, "2014-03-02").await;
        for step in [
            "fileSocialFuelProject(id: $id, on: \"2014-03-09\")",
            "decideSocialFuelProject(id: $id, decision: FAVOURABLE, on: \"2014-03-20\", letter: \"Ofício 7/MDA\", overrideReason: \"sem propostas registradas neste teste\")",
            "approveSocialFuelFinancing(id: $id, on: \"2014-04-01\")",
            // Twelve months from Friday 4 April 2014 end on Saturday 4 April 2015; the next business day is Monday the 6th.
            "startIndustrialOperation(id: $id, on: \"2014-04-04\")",
        ] {
            app.data(&format!("mutation S($id: ID!) {{ {step} {{ stage }} }}"), json!({ "id": p })).await;
        }
        let extension = |on: &str| {
            format!("mutation E($id: ID!) {{ requestSocialFuelExtension(id: $id, on: \"{on}\", justification: \"seca\", purchasesHonoured: true, farmersAssisted: true) {{ stage }} }}")
        };
        refused(&app, &extension("2015-04-07"), json!({ "id": p }), "SF-EXTENSION-12M").await;
        let d = app.data(&extension("2015-04-06"), json!({ "id": p })).await;
        assert_eq!(d["requestSocialFuelExtension"]["stage"], "OPERATING", "{d}");
        app.data(
            "mutation G($id: ID!) { decideSocialFuelExtension(id: $id, granted: true, reason: \"seca comprovada\", on: \"2015-04-08\") { stage } }",
            json!({ "id": p }),
        )
        .await;
        let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { deadlines(asOf: \"2015-04-08\") { ruleCode dueDate } } } }";
        let n = app.data(q, json!({ "id": p })).await;
        let due = n["node"]["deadlines"].as_array().expect("deadlines").iter().find(|d| d["ruleCode"] == "SF-EXTENSION-12M").expect("SF-EXTENSION-12M")["dueDate"].clone();
        assert_eq!(due, "2015-04-06", "the deadline and the guard name the same last day: {n}");
    })
    .await;
}

/// IN MDA nº 2/2005 was revoked by Portaria n° 142, de 24/05/2021: a project filed that day is still judged by it,
/// one filed the day after gets `NOT_APPLICABLE` on every SF rule, saying why; a draft looked at today likewise.
#[tokio::test]
async fn a_project_filed_after_the_revocation_of_in_mda_2_2005_is_not_judged_by_it() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bndes = bank(&app, "BNDES").await;
        let mut projects = Vec::new();
        for filed in ["2021-05-23", "2021-05-24", "2021-05-25"] {
            let p = app.data(SF_CREATE, sf_new(&bndes, "2000000.00", Some("2021-05-03"))).await["createSocialFuelProject"]["id"].clone();
            crate::facts::documents_received(&app, &p, "2021-05-10").await;
            app.data("mutation F($id: ID!, $on: Date!) { fileSocialFuelProject(id: $id, on: $on) { stage } }", json!({ "id": p, "on": filed })).await;
            projects.push((filed, p));
        }
        let draft = app.data(SF_CREATE, sf_new(&bndes, "2000000.00", Some("2026-03-02"))).await["createSocialFuelProject"]["id"].clone();
        let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject {
            compliance(asOf: \"2021-06-01\") { ruleCode status legalBasis explanation }
            deadlines(asOf: \"2021-06-01\") { ruleCode status dueDate countingNote } } } }";
        for (filed, p) in &projects {
            // The English texts, on request (the Portuguese ones are the default: `l10n::`).
            let n = app.data_en(q, json!({ "id": p })).await["node"].clone();
            let all: Vec<&Value> = n["compliance"].as_array().expect("outcomes").iter().chain(n["deadlines"].as_array().expect("deadlines")).collect();
            let decision = n["deadlines"].as_array().expect("deadlines").iter().find(|d| d["ruleCode"] == "SF-DECISION-30D").expect("decision").clone();
            if *filed == "2021-05-25" {
                assert!(all.iter().all(|o| o["status"] == "NOT_APPLICABLE"), "filed the day after the revocation: {n}");
                let why = decision["countingNote"].as_str().expect("note");
                assert!(why.contains("Portaria n° 142, de 24/05/2021") && why.contains("2021-05-25") && why.contains("not modelled"), "{why}");
                assert!(n["compliance"].as_array().expect("outcomes").iter().all(|o| o["explanation"].as_str().is_some_and(|e| e.contains("revoked"))), "{n}");
            } else {
                // Still judged by it, but its 30 days end after the revocation: that deadline binds no one (issue 42).
                assert_eq!(decision["status"], "NOT_APPLICABLE", "filed {filed}: MDA's 30 days end after 2021-05-24: {decision}");
                assert!(decision["countingNote"].as_str().is_some_and(|n| n.contains("after IN MDA nº 2/2005 was revoked")), "{decision}");
                assert!(n["compliance"].as_array().expect("outcomes").iter().any(|o| o["status"] != "NOT_APPLICABLE"), "its rules still judge it: {n}");
            }
        }
        let today = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { compliance { ruleCode status explanation } } } }";
        let d = app.data(today, json!({ "id": draft })).await["node"].clone();
        assert!(d["compliance"].as_array().expect("outcomes").iter().all(|o| o["status"] == "NOT_APPLICABLE"), "a draft looked at today: {d}");
        assert!(d["compliance"][0]["explanation"].as_str().is_some_and(|e| e.starts_with("não protocolado")), "{d}");
        // The catalogue says which instrument each rule reads and until when.
        let rules = app.data("{ rules { code legalBasis instrument inForceFrom inForceUntil revokedBy } }", json!({})).await;
        for r in rules["rules"].as_array().expect("rules") {
            if r["code"].as_str().is_some_and(|c| c.starts_with("SF-")) {
                assert!(r["legalBasis"].as_str().is_some_and(|b| b.starts_with("IN MDA nº 2/2005")), "{r}");
                assert_eq!((r["inForceFrom"].as_str(), r["inForceUntil"].as_str()), (Some("2005-09-30"), Some("2021-05-24")), "{r}");
                assert!(r["revokedBy"].as_str().is_some_and(|b| b.contains("Portaria n° 142, de 24/05/2021")), "{r}");
            } else {
                assert_eq!((r["inForceFrom"].as_str(), &r["inForceUntil"]), (Some("2019-03-20"), &Value::Null), "{r}");
            }
        }
    })
    .await;
}

/// FCO-VALIDITY-120D waits for the project's presentation to the bank, counted from the CDAE's approval (art. 3 sole
/// §): presented on day 119 or 120 it is met whenever the contract comes; not presented by day 121 it is overdue; a
/// carta the bank decided has, by the reading made, the same 120 days counted from the bank's approval.
#[tokio::test]
async fn the_120_days_of_a_cdae_approval_wait_for_the_projects_presentation_to_the_bank() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bb = bank(&app, "BB").await;
        let step = fco_step;
        let approved = |number: &'static str, amount: &'static str, chamber: bool| {
            let (app, bb) = (&app, bb.clone());
            async move {
                let id = app.data(&fco_create(), fco_new(&bb, number, amount)).await["createFcoCarta"]["id"].clone();
                app.data(&step("submitFcoCarta", ", on: \"2026-03-02\""), json!({ "id": id })).await;
                let decide = format!(", decision: FAVOURABLE, byChamber: {chamber}, on: \"2026-03-02\"");
                app.data(&step("decideFcoCarta", &decide), json!({ "id": id })).await;
                id
            }
        };
        let (before, on_day, late, bank) = (
            approved("V-1", "1000000.00", true).await,
            approved("V-2", "1000000.00", true).await,
            approved("V-3", "1000000.00", true).await,
            approved("V-4", "999999.99", false).await,
        );
        app.data(&step("presentFcoProject", ", on: \"2026-06-29\""), json!({ "id": before })).await;
        app.data(&step("presentFcoProject", ", on: \"2026-06-30\""), json!({ "id": on_day })).await;
        app.data(&step("contractFcoCarta", ", on: \"2026-07-10\""), json!({ "id": on_day })).await;
        let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { presentedOn deadlines(asOf: \"2026-07-20\") { ruleCode status dueDate countingNote } } } }";
        let validity = |n: &Value| n["node"]["deadlines"].as_array().and_then(|d| d.iter().find(|d| d["ruleCode"] == "FCO-VALIDITY-120D").cloned()).expect("validity");
        let b = app.data(q, json!({ "id": before })).await;
        assert_eq!((b["node"]["presentedOn"].as_str(), validity(&b)["status"].as_str()), (Some("2026-06-29"), Some("MET")), "{b}");
        let o = validity(&app.data(q, json!({ "id": on_day })).await);
        assert_eq!((o["status"].as_str(), o["dueDate"].as_str()), (Some("MET"), Some("2026-06-30")), "presented on day 120, contracted on day 130: {o}");
        let l = validity(&app.data(q, json!({ "id": late })).await);
        assert_eq!(l["status"], "OVERDUE", "not presented by day 120: {l}");
        let k = validity(&app.data(q, json!({ "id": bank })).await);
        assert_eq!(k["status"], "OVERDUE", "decided by the bank, its 120 days count from its approval: {k}");
        assert!(k["countingNote"].as_str().is_some_and(|n| n.contains("art. 2 §3")), "{k}");
        // The late one may only expire now; the presented ones not.
        refused(&app, &step("expireFcoCarta", ", on: \"2026-07-20\""), json!({ "id": before }), "FCO-VALIDITY-120D").await;
        let e = app.data(&step("expireFcoCarta", ", on: \"2026-07-01\""), json!({ "id": late })).await;
        assert_eq!(e["expireFcoCarta"]["stage"], "EXPIRED");
    })
    .await;
}

/// Art. 11 II: a non-conformity found by the evaluation opens a hearing; MDA unframes the project only if it does not
/// accept the company's justifications, and may accept them instead (the framing kept, the seal's 30 days from then).
/// Art. 11 §2: the extension "poderá" be kept: the company asks, MDA grants or refuses it.
#[tokio::test]
async fn a_non_conformity_is_heard_before_unframing_and_mda_decides_the_extension() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bndes = bank(&app, "BNDES").await;
        let step = |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ {SF_FIELDS} }} }}");
        let evaluated = |title: &'static str| {
            let (app, bndes) = (&app, bndes.clone());
            async move {
                let mut input = sf_new(&bndes, "2000000.00", Some("2015-01-05"));
                input["i"]["title"] = json!(title);
                let id = app.data(SF_CREATE, input).await["createSocialFuelProject"]["id"].clone();
                crate::facts::documents_received(app, &id, "2015-01-08").await;
                for (name, extra) in [
                    ("fileSocialFuelProject", ", on: \"2015-01-10\""),
                    ("decideSocialFuelProject", ", decision: FAVOURABLE, on: \"2015-02-05\", letter: \"Ofício 1/2015\", overrideReason: \"sem propostas registradas neste teste\""),
                    ("approveSocialFuelFinancing", ", on: \"2015-03-02\""),
                    ("startIndustrialOperation", ", on: \"2015-04-01\""),
                    ("requestSocialFuelExtension", ", justification: \"safra atrasada\", purchasesHonoured: true, farmersAssisted: true, on: \"2015-09-01\""),
                ] {
                    app.data(&step(name, extra), json!({ "id": id })).await;
                }
                id
            }
        };
        let deadline = |id: Value, code: &'static str| {
            let app = &app;
            async move {
                let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { deadlines(asOf: \"2015-11-30\") { ruleCode status dueDate countingNote }
                    compliance(asOf: \"2015-11-30\") { ruleCode status explanation } } } }";
                // In English, on request.
                let n = app.data_en(q, json!({ "id": id })).await["node"].clone();
                n["deadlines"].as_array().into_iter().chain(n["compliance"].as_array()).flatten().find(|d| d["ruleCode"] == code).cloned().expect("rule")
            }
        };
        let heard = evaluated("Usina A").await;
        // Asked, not decided: the evaluation's 6 months are not moved.
        let ext = deadline(heard.clone(), "SF-EXTENSION-12M").await;
        assert_eq!(ext["status"], "NOT_STARTED", "{ext}");
        assert!(ext["countingNote"].as_str().is_some_and(|n| n.contains("MDA has not decided")), "{ext}");
        assert_eq!(deadline(heard.clone(), "SF-EXTERNAL-EVAL-6M").await["status"], "OVERDUE", "6 months from 1 April 2015 ended on 1 October");
        refused(&app, &step("decideSocialFuelExtension", ", granted: true, reason: \"  \", on: \"2015-09-10\""), json!({ "id": heard }), "SF-EXTENSION-12M").await;
        refused(&app, &step("decideSocialFuelExtension", ", granted: true, reason: \"ok\", on: \"2015-08-31\""), json!({ "id": heard }), "SF-EXTENSION-12M").await;
        app.data(&step("decideSocialFuelExtension", ", granted: true, reason: \"seca comprovada\", on: \"2015-09-10\""), json!({ "id": heard })).await;
        assert_eq!(deadline(heard.clone(), "SF-EXTERNAL-EVAL-6M").await["status"], "PENDING", "the granted extension holds the evaluation open");
        assert_eq!(deadline(heard.clone(), "SF-EXTENSION-12M").await["dueDate"], "2016-04-01");
        // Non-conformity: a hearing, not an unframing.
        app.data(&step("startExternalEvaluation", ", on: \"2015-10-01\""), json!({ "id": heard })).await;
        let d = app.data(&step("concludeExternalEvaluation", ", result: UNFAVOURABLE, reason: \"compras abaixo do mínimo\", on: \"2015-10-20\""), json!({ "id": heard })).await;
        assert_eq!(d["concludeExternalEvaluation"]["stage"], "NON_CONFORMITY_HEARING");
        let u = deadline(heard.clone(), "SF-UNFRAMING").await;
        assert_eq!(u["status"], "PENDING", "{u}");
        assert!(u["explanation"].as_str().is_some_and(|e| e.contains("compras abaixo do mínimo") && e.contains("art. 11 II")), "{u}");
        refused(&app, &step("requestSocialFuelSeal", ", on: \"2015-10-25\""), json!({ "id": heard }), "SF-SEAL-REQUEST-30D").await;
        refused(&app, &step("unframeSocialFuelProject", ", reason: \"não aceitas\", on: \"2015-10-19\""), json!({ "id": heard }), "SF-UNFRAMING").await;
        // The company's justifications and contestations (art. 11 II), with their date and content: not before the
        // conclusion they answer; MDA's notice to the bank only once there is something to notify.
        let justify = |on: &str| step("recordSocialFuelJustifications", &format!(", content: \"a seca de 2015 reduziu a safra\", on: \"{on}\""));
        let (message, code) = app.error(&justify("2015-10-19"), json!({ "id": heard })).await;
        assert_eq!((code.as_str(), message.starts_with("on:")), ("BAD_USER_INPUT", true), "{message}");
        // Sent as `input:`, the same refusals name the input's fields.
        let input = "mutation M($i: RecordNonConformityJustificationsInput!) { recordNonConformityJustifications(input: $i) { project { id } } }";
        for (i, field) in [
            (json!({ "projectId": heard, "content": "a seca", "on": "2015-10-19" }), "input.on:"),
            (json!({ "projectId": heard, "content": "  ", "on": "2015-11-05" }), "input.content:"),
            (json!({ "projectId": "U29jaWFsRnVlbFByb2plY3Q6OTk5", "content": "a seca" }), "input.projectId:"),
        ] {
            let (message, _) = app.error(input, json!({ "i": i })).await;
            assert!(message.starts_with(field), "{field} {message}");
        }
        // A project not found is named by the global ID sent, not by its row's number.
        let (message, code) = app.error(input, json!({ "i": { "projectId": "U29jaWFsRnVlbFByb2plY3Q6OTk5", "content": "a" } })).await;
        assert!(code == "NOT_FOUND" && message.contains("\"U29jaWFsRnVlbFByb2plY3Q6OTk5\"") && !message.contains(" 999"), "{code}: {message}");
        let (message, _) = app.error(&step("recordSocialFuelJustifications", ", content: \"  \""), json!({ "id": heard })).await;
        assert!(message.starts_with("content:"), "the deprecated form names its own argument: {message}");
        let notice = |on: &str| step("recordSocialFuelBankNotice", &format!(", reference: \"Ofício 31/2015/SAF\", on: \"{on}\""));
        refused(&app, &notice("2015-11-01"), json!({ "id": heard }), "SF-UNFRAMING").await;
        app.data(&justify("2015-11-05"), json!({ "id": heard })).await;
        let u = deadline(heard.clone(), "SF-UNFRAMING").await;
        assert!(u["status"] == "PENDING" && u["explanation"].as_str().is_some_and(|e| e.contains("on 2015-11-05: a seca de 2015")), "{u}");
        let d = app.data(&step("unframeSocialFuelProject", ", reason: \"justificativas não aceitas\", on: \"2015-11-20\""), json!({ "id": heard })).await;
        let p = &d["unframeSocialFuelProject"];
        assert_eq!((p["stage"].as_str(), p["status"].as_str()), (Some("UNFRAMED"), Some("ENDED")));
        let events: Vec<&str> = p["history"].as_array().expect("history").iter().filter_map(|h| h["event"].as_str()).collect();
        assert_eq!(events[events.len() - 4..], ["START_EVALUATION", "CONCLUDE_EVALUATION", "JUSTIFICATIONS", "UNFRAME"]);
        // Unframed, the rule waits for MDA's notice to the bank and the update of its public database (art. 11 II).
        let u = deadline(heard.clone(), "SF-UNFRAMING").await;
        assert!(u["status"] == "PENDING" && u["explanation"].as_str().is_some_and(|e| e.contains("public database is not recorded yet")), "{u}");
        let (message, code) = app.error(&notice("2015-11-19"), json!({ "id": heard })).await;
        assert_eq!((code.as_str(), message.starts_with("on:")), ("BAD_USER_INPUT", true), "not before the unframing: {message}");
        app.data(&notice("2015-11-25"), json!({ "id": heard })).await;
        let u = deadline(heard.clone(), "SF-UNFRAMING").await;
        assert!(u["explanation"].as_str().is_some_and(|e| e.contains("notified the bank on 2015-11-25, Ofício 31/2015/SAF")), "{u}");
        assert_eq!(u["status"], "PENDING", "the public update is still owed: {u}");
        let publish = |on: &str| step("recordSocialFuelPublicUpdate", &format!(", reference: \"gov.br/mda, lista de 26/11/2015\", on: \"{on}\""));
        let (message, code) = app.error(&publish("2015-11-19"), json!({ "id": heard })).await;
        assert_eq!((code.as_str(), message.starts_with("on:")), ("BAD_USER_INPUT", true), "not before the unframing: {message}");
        for (name, ty) in [("recordBankNotice", "RecordBankNoticeInput"), ("recordPublicDatabaseUpdate", "RecordPublicDatabaseUpdateInput")] {
            let q = format!("mutation M($i: {ty}!) {{ {name}(input: $i) {{ project {{ id }} }} }}");
            let (message, _) = app.error(&q, json!({ "i": { "projectId": heard, "reference": "Ofício", "on": "2015-11-19" } })).await;
            assert!(message.starts_with("input.on:"), "{name}: {message}");
            let (message, _) = app.error(&q, json!({ "i": { "projectId": heard, "reference": " " } })).await;
            assert!(message.starts_with("input.reference:"), "{name}: {message}");
        }
        app.data(&publish("2015-11-26"), json!({ "id": heard })).await;
        let on = |as_of: &'static str| {
            let (app, heard) = (&app, heard.clone());
            async move {
                let q = "query Q($id: ID!, $on: Date!) { node(id: $id) { ... on SocialFuelProject { publicUpdateOn publicUpdateReference compliance(asOf: $on) { ruleCode status explanation } } } }";
                app.data(q, json!({ "id": heard, "on": as_of })).await["node"].clone()
            }
        };
        let n = on("2015-11-26").await;
        assert_eq!((n["publicUpdateOn"].as_str(), n["publicUpdateReference"].as_str()), (Some("2015-11-26"), Some("gov.br/mda, lista de 26/11/2015")), "{n}");
        assert_eq!(crate::facts::status(&n["compliance"], "SF-UNFRAMING"), "MET", "{n}");
        assert_eq!(crate::facts::status(&on("2015-11-25").await["compliance"], "SF-UNFRAMING"), "PENDING", "the day before the update");
        let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { justificationsFiledOn justificationsContent bankNotifiedOn bankNoticeReference history { event } } } }";
        let n = app.data(q, json!({ "id": heard })).await["node"].clone();
        assert_eq!(
            (n["justificationsFiledOn"].as_str(), n["bankNotifiedOn"].as_str(), n["bankNoticeReference"].as_str()),
            (Some("2015-11-05"), Some("2015-11-25"), Some("Ofício 31/2015/SAF")),
            "{n}"
        );
        let events: Vec<&str> = n["history"].as_array().expect("history").iter().filter_map(|h| h["event"].as_str()).collect();
        assert!(events.contains(&"JUSTIFICATIONS") && events.ends_with(&["BANK_NOTICE", "PUBLIC_UPDATE"]), "{events:?}");
        refused(&app, &step("unframeSocialFuelProject", ", reason: \"again\""), json!({ "id": heard }), "SF-UNFRAMING").await;

        // Justifications accepted: the framing is kept and the seal's 30 days run from the acceptance.
        let kept = evaluated("Usina B").await;
        app.data(&step("decideSocialFuelExtension", ", granted: false, reason: \"compras não honradas\", on: \"2015-09-10\""), json!({ "id": kept })).await;
        let ext = deadline(kept.clone(), "SF-EXTENSION-12M").await;
        assert!(ext["countingNote"].as_str().is_some_and(|n| n.contains("refused the extension on 2015-09-10: compras não honradas")), "{ext}");
        app.data(&step("startExternalEvaluation", ", on: \"2015-09-15\""), json!({ "id": kept })).await;
        app.data(&step("concludeExternalEvaluation", ", result: UNFAVOURABLE, on: \"2015-09-25\""), json!({ "id": kept })).await;
        refused(&app, &step("acceptSocialFuelJustifications", ", reason: \"\", on: \"2015-10-15\""), json!({ "id": kept }), "SF-UNFRAMING").await;
        // Its explanation is the catalogue's, in the request's language (it was once an English literal).
        let blank = step("acceptSocialFuelJustifications", ", reason: \" \", on: \"2015-10-15\"");
        let (pt, _) = app.error_in(None, &blank, json!({ "id": kept })).await;
        let (en, _) = app.error(&blank, json!({ "id": kept })).await;
        assert!(pt.contains("diga por que o MDA acolhe as justificativas") && en.contains("say why MDA accepts the justifications"), "{pt} / {en}");
        let d = app.data(&step("acceptSocialFuelJustifications", ", reason: \"atraso da safra comprovado\", on: \"2015-10-15\""), json!({ "id": kept })).await;
        assert_eq!(d["acceptSocialFuelJustifications"]["stage"], "SEAL_ELIGIBLE");
        let seal = deadline(kept.clone(), "SF-SEAL-REQUEST-30D").await;
        assert_eq!((seal["dueDate"].as_str(), seal["status"].as_str()), (Some("2015-11-16"), Some("OVERDUE")), "30 days from 15 October end on Saturday 14 November, moved to Monday 16: {seal}");
        let u = deadline(kept.clone(), "SF-UNFRAMING").await;
        assert!(u["status"] == "NOT_APPLICABLE" && u["explanation"].as_str().is_some_and(|e| e.contains("accepted")), "{u}");
        refused(&app, &step("recordSocialFuelPublicUpdate", ", reference: \"x\", on: \"2015-10-20\""), json!({ "id": kept }), "SF-UNFRAMING").await;
    })
    .await;
}

/// A project of Biodiesel S.A. at BNDES, filed and found conforming in 2015, then taken through `steps`.
async fn sf_project_through(app: &TestApp, steps: &[(&str, &str)]) -> Value {
    seed_banks(app).await;
    let bndes = bank(app, "BNDES").await;
    let p = app
        .data(SF_CREATE, sf_new(&bndes, "2000000.00", Some("2015-01-05")))
        .await["createSocialFuelProject"]["id"]
        .clone();
    crate::facts::documents_received(app, &p, "2015-01-08").await;
    let first = [
        ("fileSocialFuelProject", ", on: \"2015-01-10\""),
        (
            "decideSocialFuelProject",
            ", decision: FAVOURABLE, on: \"2015-02-05\", letter: \"Ofício 1/2015\", overrideReason: \"sem propostas registradas neste teste\"",
        ),
    ];
    for (name, extra) in first.iter().chain(steps) {
        app.data(
            &format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ id }} }}"),
            json!({ "id": p }),
        )
        .await;
    }
    p
}

/// One rule's outcome (`compliance`) or deadline (`deadlines`) on project `p` as of `as_of`.
async fn sf_rule(app: &TestApp, p: &Value, list: &str, code: &str, as_of: &str) -> Value {
    let fields = if list == "compliance" {
        "ruleCode status explanation"
    } else {
        "ruleCode status dueDate countingNote"
    };
    let q = format!(
        "query Q($id: ID!, $on: Date!) {{ node(id: $id) {{ ... on SocialFuelProject {{ {list}(asOf: $on) {{ {fields} }} }} }} }}"
    );
    // The rules' explanations are read in English (the tests below match its sentences), the counting notes in
    // Portuguese, the default.
    let lang = (list == "compliance").then_some("en");
    let (_, body) = app.gql_in(lang, &q, json!({ "id": p, "on": as_of })).await;
    let n = body["data"].clone();
    n["node"][list]
        .as_array()
        .and_then(|l| l.iter().find(|o| o["ruleCode"] == code).cloned())
        .unwrap_or_else(|| panic!("{code}: {n}"))
}

/// SF-SCHEDULE (art. 10): the company presents its schedule to MDA after the financing's approval, dated; a delay
/// counts only once the bank accepted it, its own dated act with who accepted it, and MDA after it (§2).
#[tokio::test]
async fn a_schedule_delay_counts_once_the_bank_accepted_it_and_the_schedule_is_presented_after_the_approval() {
    on_each_backend(false, |app| async move {
        let p = sf_project_through(&app, &[("approveSocialFuelFinancing", ", on: \"2015-03-02\", scheduledEnd: \"2015-06-30\"")]).await;
        let schedule = |as_of: &'static str| {
            let (app, p) = (&app, p.clone());
            async move { sf_rule(app, &p, "compliance", "SF-SCHEDULE", as_of).await }
        };
        let explains = |s: &Value, what: &str| s["explanation"].as_str().is_some_and(|e| e.contains(what));
        // Not started on the scheduled end: in time; the day after: late.
        let s = schedule("2015-06-30").await;
        assert!(s["status"] == "PENDING" && explains(&s, "has not yet presented its physical-financial schedule"), "{s}");
        assert_eq!(schedule("2015-07-01").await["status"], "VIOLATED");
        // The presentation (art. 10 caput): not before the approval; the history row carries its day.
        let record = "mutation S($i: RecordProjectScheduleInput!) { recordProjectSchedule(input: $i) { project { schedulePresentedOn scheduleDelayAccepted history { event occurredOn note } } } }";
        let (message, code) = app.error(record, json!({ "i": { "projectId": p, "scheduledEnd": "2015-06-30", "presentedOn": "2015-03-01" } })).await;
        assert_eq!((code.as_str(), message.starts_with("input.presentedOn")), ("BAD_USER_INPUT", true), "{message}");
        let d = app.data(record, json!({ "i": { "projectId": p, "scheduledEnd": "2015-06-30", "presentedOn": "2015-03-10" } })).await["recordProjectSchedule"]["project"].clone();
        assert_eq!(d["schedulePresentedOn"], "2015-03-10", "{d}");
        let last = d["history"].as_array().and_then(|h| h.last()).cloned().unwrap_or_default();
        assert_eq!((last["event"].as_str(), last["occurredOn"].as_str()), (Some("SCHEDULE"), Some("2015-03-10")), "{last}");
        assert!(explains(&schedule("2015-03-10").await, "presented its physical-financial schedule to MDA on 2015-03-10"));
        assert!(explains(&schedule("2015-03-09").await, "has not yet presented"), "the day before it was presented");
        // Art. 10 §2: MDA accepts no delay the bank has not accepted.
        let delay = json!({ "i": { "projectId": p, "scheduledEnd": "2015-09-30", "delayAccepted": true, "delayAcceptedOn": "2015-07-20",
            "reason": "chuvas atrasaram a obra" } });
        refused(&app, record, delay.clone(), "SF-SCHEDULE").await;
        let bank_accepts = "mutation A($i: RecordScheduleDelayBankAcceptanceInput!) { recordScheduleDelayBankAcceptance(input: $i) {
            project { delayBankAcceptedOn delayBankAcceptedBy history { event occurredOn note } } } }";
        let accept = |by: &str, on: &str| json!({ "i": { "projectId": p, "acceptedBy": by, "acceptedOn": on } });
        let (message, code) = app.error(bank_accepts, accept("Gerência regional", "2015-03-01")).await;
        assert_eq!((code.as_str(), message.starts_with("input.acceptedOn")), ("BAD_USER_INPUT", true), "not before the approval: {message}");
        let (message, code) = app.error(bank_accepts, accept("  ", "2015-07-10")).await;
        assert_eq!((code.as_str(), message.starts_with("input.acceptedBy") && message.contains("must not be empty")), ("BAD_USER_INPUT", true), "{message}");
        let (message, _) = app.error_in(None, bank_accepts, accept("  ", "2015-07-10")).await;
        assert!(message.starts_with("input.acceptedBy") && message.contains("não pode ficar vazio"), "Portuguese by default: {message}");
        let d = app.data(bank_accepts, accept("Gerência regional do BNDES", "2015-07-10")).await["recordScheduleDelayBankAcceptance"]["project"].clone();
        assert_eq!((d["delayBankAcceptedOn"].as_str(), d["delayBankAcceptedBy"].as_str()), (Some("2015-07-10"), Some("Gerência regional do BNDES")), "{d}");
        let last = d["history"].as_array().and_then(|h| h.last()).cloned().unwrap_or_default();
        assert_eq!((last["event"].as_str(), last["occurredOn"].as_str()), (Some("DELAY_BANK_ACCEPTANCE"), Some("2015-07-10")), "{last}");
        // The day before the bank's acceptance none is known; from that day the bank's is, and MDA's is still owed.
        let s = schedule("2015-07-09").await;
        assert!(s["status"] == "VIOLATED" && explains(&s, "no delay was accepted by the bank and MDA"), "{s}");
        let s = schedule("2015-07-10").await;
        assert!(s["status"] == "VIOLATED" && explains(&s, "the bank accepted the delay on 2015-07-10 (Gerência regional do BNDES), but MDA has not"), "{s}");
        // MDA's acceptance is dated, not before the bank's.
        let mut early = delay.clone();
        early["i"]["delayAcceptedOn"] = json!("2015-07-09");
        let (message, code) = app.error(record, early).await;
        assert_eq!((code.as_str(), message.starts_with("input.delayAcceptedOn")), ("BAD_USER_INPUT", true), "{message}");
        let d = app.data(record, delay).await["recordProjectSchedule"]["project"].clone();
        assert_eq!(d["scheduleDelayAccepted"], true, "{d}");
        let last = d["history"].as_array().and_then(|h| h.last()).cloned().unwrap_or_default();
        assert_eq!((last["event"].as_str(), last["occurredOn"].as_str()), (Some("SCHEDULE"), Some("2015-07-20")), "{last}");
        assert!(last["note"].as_str().is_some_and(|n| n.contains("30/06/2015 → 30/09/2015") && n.contains("atraso aceito pelo MDA em 20/07/2015")), "{last}");
        let s = schedule("2015-10-01").await;
        assert!(s["status"] == "PENDING" && explains(&s, "and MDA accepted it on 2015-07-20 (art. 10 §2)"), "{s}");
        // The original end and the new one are both kept; asked before MDA's acceptance, the schedule still ends on 30
        // June and only the bank's acceptance is known.
        let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { scheduledImplementationEnd originalImplementationEnd delayAcceptedOn } } }";
        let n = app.data(q, json!({ "id": p })).await["node"].clone();
        assert_eq!(
            (n["scheduledImplementationEnd"].as_str(), n["originalImplementationEnd"].as_str(), n["delayAcceptedOn"].as_str()),
            (Some("2015-09-30"), Some("2015-06-30"), Some("2015-07-20")),
            "{n}"
        );
        let s = schedule("2015-07-19").await;
        assert!(s["status"] == "VIOLATED" && explains(&s, "not started by the scheduled 2015-06-30") && explains(&s, "but MDA has not accepted it"), "{s}");
        let s = schedule("2015-07-20").await;
        assert!(s["status"] == "PENDING" && !explains(&s, "not started by"), "the end is 30 September from then: {s}");
        // SF-EXTERNAL-EVAL-6M counts from the end in force on the day asked.
        let due = |as_of: &'static str| {
            let (app, p) = (&app, p.clone());
            async move { sf_rule(app, &p, "deadlines", "SF-EXTERNAL-EVAL-6M", as_of).await["dueDate"].clone() }
        };
        let (before, after) = (due("2015-07-19").await, due("2015-07-20").await);
        assert_ne!(before, after, "the end moved on MDA's acceptance: {before} {after}");
    })
    .await;
}

/// SF-EXTENSION-12M (art. 11 §2): the extension may be asked and granted during the non-conformity hearing, where the
/// framing is at stake; granted there, it keeps the framing to the last day of the 12 months since the industrial
/// start (no unframing before it), by which MDA answers the justifications, and it does not move the evaluation
/// already concluded.
#[tokio::test]
async fn an_extension_asked_during_the_non_conformity_hearing_keeps_the_framing_to_the_twelfth_month() {
    on_each_backend(false, |app| async move {
        let p = sf_project_through(
            &app,
            &[
                ("approveSocialFuelFinancing", ", on: \"2015-03-02\""),
                ("startIndustrialOperation", ", on: \"2015-04-01\""),
                ("startExternalEvaluation", ", on: \"2015-09-01\""),
                ("concludeExternalEvaluation", ", result: UNFAVOURABLE, reason: \"compras abaixo do mínimo\", on: \"2015-09-20\""),
            ],
        )
        .await;
        let step = |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ {SF_FIELDS} }} }}");
        let d = app
            .data(
                &step("requestSocialFuelExtension", ", justification: \"nova safra contratada\", purchasesHonoured: true, farmersAssisted: true, on: \"2015-09-25\""),
                json!({ "id": p }),
            )
            .await;
        assert_eq!(d["requestSocialFuelExtension"]["stage"], "NON_CONFORMITY_HEARING", "{d}");
        let d = app.data(&step("decideSocialFuelExtension", ", granted: true, reason: \"compras honradas\", on: \"2015-10-01\""), json!({ "id": p })).await;
        assert_eq!(d["decideSocialFuelExtension"]["stage"], "NON_CONFORMITY_HEARING", "{d}");
        let ext = sf_rule(&app, &p, "deadlines", "SF-EXTENSION-12M", "2016-04-01").await;
        assert_eq!((ext["dueDate"].as_str(), ext["status"].as_str()), (Some("2016-04-01"), Some("PENDING")), "{ext}");
        assert!(ext["countingNote"].as_str().is_some_and(|n| n.contains("audiência da não conformidade")), "{ext}");
        assert_eq!(sf_rule(&app, &p, "deadlines", "SF-EXTENSION-12M", "2016-04-02").await["status"], "OVERDUE", "not answered by the last day");
        let eval = sf_rule(&app, &p, "deadlines", "SF-EXTERNAL-EVAL-6M", "2016-04-02").await;
        assert_eq!((eval["dueDate"].as_str(), eval["status"].as_str()), (Some("2015-10-01"), Some("MET")), "not moved: {eval}");
        // No unframing while the extension keeps the framing; on its last day, in time.
        refused(&app, &step("unframeSocialFuelProject", ", reason: \"justificativas não aceitas\", on: \"2016-03-31\""), json!({ "id": p }), "SF-EXTENSION-12M").await;
        let d = app.data(&step("unframeSocialFuelProject", ", reason: \"justificativas não aceitas\", on: \"2016-04-01\""), json!({ "id": p })).await;
        assert_eq!(d["unframeSocialFuelProject"]["stage"], "UNFRAMED", "{d}");
        assert_eq!(sf_rule(&app, &p, "deadlines", "SF-EXTENSION-12M", "2016-04-02").await["status"], "MET");
    })
    .await;
}

/// Art. 14: a special demand goes to the chamber whatever its amount; an ordinary carta below the threshold does not.
#[tokio::test]
async fn a_special_demand_below_the_threshold_is_the_chambers() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bb = bank(&app, "BB").await;
        let mut special = fco_new(&bb, "ESP-1", "300000.00");
        special["i"]["specialDemand"] = json!(true);
        let id = app.data(&fco_create(), special).await["createFcoCarta"]["id"].clone();
        let plain = app.data(&fco_create(), fco_new(&bb, "ESP-2", "300000.00")).await["createFcoCarta"]["id"].clone();
        for c in [&id, &plain] {
            app.data(&fco_step("submitFcoCarta", ", on: \"2026-03-02\""), json!({ "id": c })).await;
        }
        let by_chamber = fco_step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: true, on: \"2026-03-10\"");
        refused(&app, &by_chamber, json!({ "id": plain }), "FCO-CHAMBER-THRESHOLD").await;
        assert_eq!(app.data(&by_chamber, json!({ "id": id })).await["decideFcoCarta"]["stage"], "APPROVED");
        let q = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { specialDemand compliance(asOf: \"2026-03-10\") { ruleCode status explanation } } } }";
        let n = app.data(q, json!({ "id": id })).await["node"].clone();
        assert_eq!(n["specialDemand"], true);
        let of = |code: &str| n["compliance"].as_array().and_then(|l| l.iter().find(|o| o["ruleCode"] == code).cloned()).expect("outcome");
        assert_eq!((of("FCO-SPECIAL-DEMAND")["status"].as_str(), of("FCO-CHAMBER-THRESHOLD")["status"].as_str()), (Some("MET"), Some("MET")), "{n}");
        // The 120 days of art. 3 sole § run from this CDAE approval too.
        let d = app.data("query Q($id: ID!) { node(id: $id) { ... on FcoCarta { deadlines(asOf: \"2026-03-11\") { ruleCode status dueDate } } } }", json!({ "id": id })).await;
        let v = d["node"]["deadlines"].as_array().and_then(|l| l.iter().find(|o| o["ruleCode"] == "FCO-VALIDITY-120D").cloned()).expect("validity");
        assert_eq!((v["status"].as_str(), v["dueDate"].as_str()), (Some("PENDING"), Some("2026-07-08")), "{v}");
    })
    .await;
}

/// Walking the lifecycles as MDA and CDAE staff would (issue 16, point 9): a favourable decision over rules the
/// project violates is refused by the rule, or taken as an explicit override with its reason in the history; so is a
/// conforming evaluation over a schedule delay nobody accepted; an evaluation is not concluded before it started; a
/// carta is not contracted above its approved value.
#[tokio::test]
async fn favourable_acts_over_violated_rules_need_an_override_and_dates_keep_their_order() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bndes = bank(&app, "BNDES").await;
        let step =
            |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ {SF_FIELDS} }} }}");
        let p = app
            .data(SF_CREATE, sf_new(&bndes, "2000000.00", Some("2015-01-05")))
            .await["createSocialFuelProject"]["id"]
            .clone();
        crate::facts::documents_received(&app, &p, "2015-01-08").await;
        app.data(
            &step("fileSocialFuelProject", ", on: \"2015-01-10\""),
            json!({ "id": p }),
        )
        .await;
        let decide = ", decision: FAVOURABLE, on: \"2015-02-05\", letter: \"Ofício 3/2015\"";
        let (_, body) = app
            .gql(&step("decideSocialFuelProject", decide), json!({ "id": p }))
            .await;
        let e = &body["errors"][0]["extensions"];
        assert_eq!(
            (e["code"].as_str(), e["ruleCode"].as_str()),
            (Some("RULE_VIOLATION"), Some("SF-REPRESENTATION")),
            "{body}"
        );
        assert!(
            e["explanation"]
                .as_str()
                .is_some_and(|x| x.contains("SF-CONTRACT-TERMS") && x.contains("overrideReason")),
            "{body}"
        );
        let d = app
            .data(
                &step(
                    "decideSocialFuelProject",
                    &format!("{decide}, overrideReason: \"contratos em negociação com a Fetraf\""),
                ),
                json!({ "id": p }),
            )
            .await;
        let h = d["decideSocialFuelProject"]["history"]
            .as_array()
            .cloned()
            .expect("history");
        assert_eq!(d["decideSocialFuelProject"]["stage"], "CONFORMING");
        let q = "query H($id: ID!) { node(id: $id) { ... on SocialFuelProject { history { event note } } } }";
        let notes = app.data(q, json!({ "id": p })).await["node"]["history"].clone();
        let decided = notes
            .as_array()
            .and_then(|h| h.iter().find(|x| x["event"] == "DECIDE").cloned())
            .expect("decide");
        assert!(
            decided["note"].as_str().is_some_and(|n| n
                .contains("ato registrado apesar de SF-REPRESENTATION, SF-CONTRACT-TERMS, SF-ASSISTANCE-PLAN: contratos em negociação com a Fetraf")),
            "{decided} {h:?}"
        );
        // Entered today for an act of 2015: the proposal counts from the day it was made (`effectiveOn`), so no
        // override is needed; dated today, it would not have been there on the decision's day.
        let q2 = app.data(SF_CREATE, sf_new(&bndes, "2000000.00", Some("2015-01-05"))).await["createSocialFuelProject"]["id"].clone();
        crate::facts::documents_received(&app, &q2, "2015-01-08").await;
        app.data(&step("fileSocialFuelProject", ", on: \"2015-01-10\""), json!({ "id": q2 })).await;
        let proposal = json!({ "representationKind": "CONTAG", "representationName": "STR de Cuiabá", "representationAgreed": true,
            "termMonths": 36, "purchasePrice": "preço mínimo + 5 %", "priceAdjustment": "IPCA", "deliveryConditions": "na usina",
            "safeguards": "multa de 10 %" });
        let added = app
            .data("mutation A($i: AddContractProposalInput!) { addContractProposal(input: $i) { proposal { proposalId } } }",
                json!({ "i": { "projectId": q2, "proposal": proposal } }))
            .await;
        let (_, body) = app.gql(&step("decideSocialFuelProject", decide), json!({ "id": q2 })).await;
        assert_eq!(body["errors"][0]["extensions"]["ruleCode"], "SF-REPRESENTATION", "typed today, in effect today: {body}");
        app.data(
            "mutation U($i: UpdateContractProposalInput!) { updateContractProposal(input: $i) { proposal { proposalId } } }",
            json!({ "i": { "proposalId": added["addContractProposal"]["proposal"]["proposalId"], "proposal": proposal,
                "effectiveOn": "2015-01-20" } }),
        )
        .await;
        // Art. 2 makes the assistance plan a minimum criterion: none recorded, then one lacking the staff an outsourced
        // plan still describes (art. 6 II "também"), is refused by SF-ASSISTANCE-PLAN; complete, it passes (its
        // compatibility is MDA's judgement, which the decision gives).
        let (_, body) = app.gql(&step("decideSocialFuelProject", decide), json!({ "id": q2 })).await;
        let e = &body["errors"][0]["extensions"];
        assert_eq!((e["ruleCode"].as_str(), e["legalBasis"].as_str()), (Some("SF-ASSISTANCE-PLAN"), Some("IN MDA nº 2/2005, art. 2º; art. 6º")), "no plan: {body}");
        let plan = |staff: Option<&str>| json!({ "i": { "projectId": q2, "effectiveOn": "2015-01-20", "plan": { "staffDescription": staff, "outsourced": true,
            "outsourcingContract": "Contrato 4/2015 com a Emater", "coverageArea": "Cuiabá", "farmersAssisted": 120, "methodology": "dias de campo" } } });
        let record = "mutation P($i: RecordAssistancePlanInput!) { recordAssistancePlan(input: $i) { plan { missing } } }";
        app.data(record, plan(None)).await;
        let (_, body) = app.gql(&step("decideSocialFuelProject", decide), json!({ "id": q2 })).await;
        let e = &body["errors"][0]["extensions"];
        assert_eq!(e["ruleCode"], "SF-ASSISTANCE-PLAN", "outsourced without its staff: {body}");
        assert!(e["explanation"].as_str().is_some_and(|x| x.contains("a equipe") && x.contains("overrideReason")), "{body}");
        app.data(record, plan(Some("2 agrônomos da Emater"))).await;
        let d = app.data(&step("decideSocialFuelProject", decide), json!({ "id": q2 })).await;
        assert_eq!(d["decideSocialFuelProject"]["stage"], "CONFORMING", "{d}");

        // A schedule that ended on 30 June with the start on 15 July, no delay accepted.
        app.data(
            &step(
                "approveSocialFuelFinancing",
                ", on: \"2015-03-02\", scheduledEnd: \"2015-06-30\"",
            ),
            json!({ "id": p }),
        )
        .await;
        app.data(
            &step("startIndustrialOperation", ", on: \"2015-07-15\""),
            json!({ "id": p }),
        )
        .await;
        app.data(
            &step("startExternalEvaluation", ", on: \"2015-10-01\""),
            json!({ "id": p }),
        )
        .await;
        // Conformity is found by the evaluation (art. 11): not concluded with no findings, nor with findings dated before
        // the evaluation started.
        let (_, body) = app.gql(&step("concludeExternalEvaluation", ", result: FAVOURABLE, on: \"2015-10-20\""), json!({ "id": p })).await;
        let e = &body["errors"][0]["extensions"];
        assert_eq!(e["ruleCode"], "SF-EXTERNAL-EVAL-6M", "no findings: {body}");
        assert!(e["explanation"].as_str().is_some_and(|x| x.contains("não registrou achado") && x.contains("SF-ASSISTANCE-PLAN")), "{body}");
        let all = ["SF-SHARE-MIN", "SF-REPRESENTATION", "SF-CONTRACT-TERMS", "SF-ASSISTANCE-PLAN"].map(|c| json!({ "criterion": c, "conforming": true }));
        let findings = |on: &str| json!({ "i": { "projectId": p, "evaluator": "Fundação Avaliadora", "foundOn": on, "findings": all } });
        let record = "mutation R($i: RecordEvaluationFindingsInput!) { recordEvaluationFindings(input: $i) { project { stage } } }";
        let (_, body) = app.gql(record, findings("2015-09-30")).await;
        let e = &body["errors"][0]["extensions"];
        assert_eq!(e["ruleCode"], "SF-EXTERNAL-EVAL-6M", "the day before the start: {body}");
        assert!(e["explanation"].as_str().is_some_and(|x| x.contains("input.foundOn") && x.contains("01/10/2015")), "{body}");
        app.data(record, findings("2015-10-01")).await;
        refused(
            &app,
            &step("concludeExternalEvaluation", ", result: FAVOURABLE, on: \"2015-09-30\""),
            json!({ "id": p }),
            "SF-EXTERNAL-EVAL-6M",
        )
        .await;
        refused(
            &app,
            &step("concludeExternalEvaluation", ", result: FAVOURABLE, on: \"2015-10-20\""),
            json!({ "id": p }),
            "SF-SCHEDULE",
        )
        .await;
        let d = app
            .data(
                &step(
                    "concludeExternalEvaluation",
                    ", result: FAVOURABLE, on: \"2015-10-20\", overrideReason: \"atraso da licença ambiental\"",
                ),
                json!({ "id": p }),
            )
            .await;
        assert_eq!(d["concludeExternalEvaluation"]["stage"], "SEAL_ELIGIBLE");

        // A carta approved at R$ 999.999,99 by the bank is not contracted at R$ 1.200.000,00.
        let bb = bank(&app, "BB").await;
        let c = app.data(&fco_create(), fco_new(&bb, "ABOVE-1", "999999.99")).await["createFcoCarta"]["id"].clone();
        app.data(&fco_step("submitFcoCarta", ", on: \"2026-03-02\""), json!({ "id": c }))
            .await;
        app.data(
            &fco_step(
                "decideFcoCarta",
                ", decision: FAVOURABLE, byChamber: false, on: \"2026-03-05\"",
            ),
            json!({ "id": c }),
        )
        .await;
        refused(
            &app,
            &fco_step("contractFcoCarta", ", on: \"2026-03-20\", amount: \"1200000.00\""),
            json!({ "id": c }),
            "FCO-AMENDMENT",
        )
        .await;
        let d = app
            .data(
                &fco_step("contractFcoCarta", ", on: \"2026-03-20\", amount: \"999999.99\""),
                json!({ "id": c }),
            )
            .await;
        assert_eq!(d["contractFcoCarta"]["stage"], "CONTRACTED");
    })
    .await;
}

/// Issue 41, item 2: an amendment that needs a new approval opens a new approval cycle and keeps the one it closed. A
/// carta approved by the chamber, presented and contracted in July 2025 at R$ 2,400,000.00 is amended to
/// R$ 2,664,000.00 (11 %) on 1 September: `asOf` its contract week it reads as approved, presented and contracted at
/// its first amount (FCO-CEILING counts that amount, the dashboard counts its contract); from 1 September it is
/// submitted again at the new amount. `approvalCycles` lists both cycles; the first meeting keeps the carta on its
/// agenda after a later meeting decides it again; the history keeps each act's day.
#[tokio::test]
async fn an_amendment_that_needs_a_new_approval_opens_a_cycle_and_keeps_the_earlier_one() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bb = bank(&app, "BB").await;
        let schedule = "mutation M($i: ScheduleChamberMeetingInput!) { scheduleChamberMeeting(input: $i) { meeting { id } } }";
        let meeting = |starts: &'static str| {
            let app = &app;
            async move { app.data(schedule, json!({ "i": { "startsAt": starts } })).await["scheduleChamberMeeting"]["meeting"]["id"].clone() }
        };
        let place = "mutation P($i: PlaceFcoCartaOnAgendaInput!) { placeFcoCartaOnAgenda(input: $i) { carta { id } } }";
        let (july, september) = (meeting("2025-07-08T09:00:00-04:00").await, meeting("2025-09-15T09:00:00-04:00").await);
        let id = app.data(&fco_create(), fco_new(&bb, "C2", "2400000.00")).await["createFcoCarta"]["id"].clone();
        app.data(&fco_step("submitFcoCarta", ", on: \"2025-07-01\""), json!({ "id": id })).await;
        app.data(place, json!({ "i": { "cartaId": id, "meetingId": july, "receivedAt": "2025-07-03T09:00:00-04:00" } })).await;
        for (name, extra) in [
            ("decideFcoCarta", ", decision: FAVOURABLE, byChamber: true, on: \"2025-07-08\""),
            ("presentFcoProject", ", on: \"2025-07-20\""),
            ("contractFcoCarta", ", on: \"2025-07-25\""),
        ] {
            app.data(&fco_step(name, extra), json!({ "id": id })).await;
        }
        let amend = "mutation A($id: ID!) { amendFcoCarta(id: $id, kind: VALUE_INCREASE, newAmount: \"2664000.00\",
            description: \"novo orçamento dos itens\", on: \"2025-09-01\") { stage } }";
        assert_eq!(app.data(amend, json!({ "id": id })).await["amendFcoCarta"]["stage"], "SUBMITTED", "11 % needs a new approval");

        // The carta itself is its open cycle: submitted again on the amendment's day, at the new amount, bare.
        let carta = "query C($id: ID!) { node(id: $id) { ... on FcoCarta { stage amount submittedOn approvedOn presentedOn
            contractedOn contractedAmount decidedOn chamberMeeting { id } history { event occurredOn recordedAt } } } }";
        let c = app.data(carta, json!({ "id": id })).await["node"].clone();
        let open = (&c["stage"], &c["amount"], &c["submittedOn"], &c["approvedOn"], &c["presentedOn"], &c["contractedOn"]);
        assert_eq!(open, (&json!("SUBMITTED"), &json!("2664000.00"), &json!("2025-09-01"), &Value::Null, &Value::Null, &Value::Null));
        assert_eq!((&c["contractedAmount"], &c["decidedOn"], &c["chamberMeeting"]), (&Value::Null, &Value::Null, &Value::Null));
        let days: Vec<(&str, &str)> = c["history"]
            .as_array()
            .expect("history")
            .iter()
            .map(|h| (h["event"].as_str().unwrap_or(""), h["occurredOn"].as_str().unwrap_or("")))
            .collect();
        assert_eq!(
            days,
            [("CREATE", days[0].1), ("SUBMIT", "2025-07-01"), ("AGENDA", "2025-07-03"), ("DECIDE", "2025-07-08"),
             ("PRESENT_PROJECT", "2025-07-20"), ("CONTRACT", "2025-07-25"), ("AMEND_REOPEN", "2025-09-01")]
        );
        assert!(c["history"].as_array().expect("history").iter().all(|h| h["recordedAt"].is_string()), "{}", c["history"]);

        // As known on 30 July 2025: the first cycle, approved, presented and contracted at its first amount.
        let judged = "query J($id: ID!, $d: Date!) { node(id: $id) { ... on FcoCarta {
            compliance(asOf: $d) { ruleCode status explanation } deadlines(asOf: $d) { ruleCode status dueDate countingNote } } } }";
        let then = app.data(judged, json!({ "id": id, "d": "2025-07-30" })).await["node"].clone();
        let text = |list: &Value, code: &str, field: &str| -> String {
            list.as_array()
                .and_then(|l| l.iter().find(|o| o["ruleCode"] == code))
                .and_then(|o| o[field].as_str())
                .unwrap_or_else(|| panic!("no {code} in {list}"))
                .to_owned()
        };
        for (list, field) in [(&then["compliance"], "explanation"), (&then["deadlines"], "countingNote")] {
            assert!(
                list.as_array().expect("list").iter().all(|o| !o[field].as_str().unwrap_or("").contains("não está aprovada")),
                "{list}"
            );
        }
        let ceiling = text(&then["compliance"], "FCO-CEILING", "explanation");
        assert!(ceiling.contains("somam R$ 2.400.000,00 "), "the first amount: {ceiling}");
        assert_eq!(text(&then["deadlines"], "FCO-VALIDITY-120D", "status"), "MET", "presented on 20 July");
        assert_eq!(text(&then["deadlines"], "FCO-72H-BEFORE", "status"), "MET", "on the July meeting");
        let dashboard = "query D($d: Date) { complianceDashboard(asOf: $d) { table(name: \"fco_contracted_by_bank\") { rows } } }";
        let rows = |d: &'static str| {
            let app = &app;
            async move { app.data(dashboard, json!({ "d": d })).await["complianceDashboard"]["table"]["rows"].clone() }
        };
        assert_eq!(rows("2025-07-30").await, json!([["BB", "1", "2400000.00"]]), "contracted in July");
        // From the amendment's day: the second cycle, submitted at the new amount.
        let after = app.data(judged, json!({ "id": id, "d": "2025-09-05" })).await["node"].clone();
        let ceiling = text(&after["compliance"], "FCO-CEILING", "explanation");
        assert!(ceiling.contains("somam R$ 2.664.000,00 "), "the new amount: {ceiling}");
        assert!(text(&after["deadlines"], "FCO-VALIDITY-120D", "countingNote").contains("não está aprovada"));
        assert_eq!(rows("2025-09-05").await, json!([]), "no contract in the open cycle");

        // Decided again at the September meeting; the July meeting keeps it on its agenda.
        app.data(place, json!({ "i": { "cartaId": id, "meetingId": september, "receivedAt": "2025-09-10T09:00:00-04:00" } })).await;
        app.data(&fco_step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: true, on: \"2025-09-15\""), json!({ "id": id })).await;
        let cycles = "query C($id: ID!) { node(id: $id) { ... on FcoCarta { approvalCycles { number open stage amount submittedOn
            receivedByCouncilAt chamberMeeting { id } decision decidedBy decidedOn approvedOn presentedOn contractedOn contractedAmount
            closedOn closedBy { kind oldAmount newAmount requestedOn requiresNewApproval } } } } }";
        let list = app.data(cycles, json!({ "id": id })).await["node"]["approvalCycles"].clone();
        assert_eq!(
            list,
            json!([
                { "number": 1, "open": false, "stage": "CONTRACTED", "amount": "2400000.00", "submittedOn": "2025-07-01",
                  "receivedByCouncilAt": "2025-07-03T09:00:00-04:00", "chamberMeeting": { "id": july }, "decision": "FAVOURABLE",
                  "decidedBy": "CHAMBER", "decidedOn": "2025-07-08", "approvedOn": "2025-07-08", "presentedOn": "2025-07-20",
                  "contractedOn": "2025-07-25", "contractedAmount": "2400000.00", "closedOn": "2025-09-01",
                  "closedBy": { "kind": "VALUE_INCREASE", "oldAmount": "2400000.00", "newAmount": "2664000.00",
                                "requestedOn": "2025-09-01", "requiresNewApproval": true } },
                { "number": 2, "open": true, "stage": "APPROVED", "amount": "2664000.00", "submittedOn": "2025-09-01",
                  "receivedByCouncilAt": "2025-09-10T09:00:00-04:00", "chamberMeeting": { "id": september }, "decision": "FAVOURABLE",
                  "decidedBy": "CHAMBER", "decidedOn": "2025-09-15", "approvedOn": "2025-09-15", "presentedOn": null,
                  "contractedOn": null, "contractedAmount": null, "closedOn": null, "closedBy": null }
            ])
        );
        let agenda = "query A($m: ID!) { node(id: $m) { ... on ChamberMeeting { agendaSize cartas { id stage } } } }";
        for m in [&july, &september] {
            let a = app.data(agenda, json!({ "m": m })).await["node"].clone();
            assert_eq!(a, json!({ "agendaSize": 1, "cartas": [{ "id": id, "stage": "APPROVED" }] }), "meeting {m}");
        }
        // Another bank counts it on the July agenda without seeing it.
        let other = crate::helpers::client_with(&app.key_of("bank", Some("BNDES")).await);
        let seen: Value = other
            .post(format!("{}/graphql", app.base))
            .json(&json!({ "query": agenda, "variables": { "m": july } }))
            .send()
            .await
            .expect("the server answers")
            .json()
            .await
            .expect("JSON");
        assert_eq!(seen["data"]["node"], json!({ "agendaSize": 1, "cartas": [] }), "{seen}");
    })
    .await;
}

/// Issue 42, item 4: IN MDA nº 2/2005 does not judge acts after its revocation. A filing of 2022 with no documents and
/// no bank framing is recorded, refused by none of its guards, and every SF rule then says, with the reason, that it
/// does not apply; a filing of 24 May 2021, its last day, is still refused by annex I.
#[tokio::test]
async fn acts_after_the_revocation_are_refused_by_none_of_the_revoked_instruments_guards() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bndes = bank(&app, "BNDES").await;
        let file = "mutation F($id: ID!, $on: Date!) { fileSocialFuelProject(id: $id, on: $on) { stage } }";
        let last_day = app.data(SF_CREATE, sf_new(&bndes, "2000000.00", Some("2021-05-03"))).await["createSocialFuelProject"]["id"].clone();
        refused(&app, file, json!({ "id": last_day, "on": "2021-05-24" }), "SF-DOCUMENTS").await;
        let p = app.data(SF_CREATE, sf_new(&bndes, "2000000.00", None)).await["createSocialFuelProject"]["id"].clone();
        let d = app.data(file, json!({ "id": p, "on": "2022-03-10" })).await;
        assert_eq!(d["fileSocialFuelProject"]["stage"], "FILED");
        // The lifecycle's order still holds: a decision before the filing is refused.
        let decide = |on: &str| format!("mutation M($id: ID!) {{ decideSocialFuelProject(id: $id, decision: UNFAVOURABLE, on: \"{on}\") {{ stage decisionLetter }} }}");
        refused(&app, &decide("2022-03-09"), json!({ "id": p }), "SF-DECISION-30D").await;
        let d = app.data(&decide("2022-03-20"), json!({ "id": p })).await;
        assert_eq!(d["decideSocialFuelProject"]["stage"], "NON_CONFORMING", "no letter asked of an act after the revocation");
        let q = "query Q($id: ID!) { node(id: $id) { ... on SocialFuelProject { compliance { ruleCode status explanation } deadlines { ruleCode status countingNote } } } }";
        let n = app.data_en(q, json!({ "id": p })).await["node"].clone();
        for o in n["compliance"].as_array().expect("outcomes") {
            assert_eq!(o["status"], "NOT_APPLICABLE", "{o}");
            assert!(o["explanation"].as_str().is_some_and(|e| e.contains("Portaria n° 142, de 24/05/2021") && e.contains("2022-03-10")), "{o}");
        }
        assert!(n["deadlines"].as_array().expect("deadlines").iter().all(|d| d["status"] == "NOT_APPLICABLE"), "{n}");
    })
    .await;
}

/// Issue 42, item 3: with a granted extension, SF-EXTERNAL-EVAL-6M and SF-EXTENSION-12M agree before and after the
/// conclusion (both judged against 12 months from the start, art. 11 §2); without it, the evaluation concluded a day
/// after the 6 months is late.
#[tokio::test]
async fn the_evaluation_deadline_and_a_granted_extension_agree_before_and_after_the_conclusion() {
    on_each_backend(false, |app| async move {
        seed_banks(&app).await;
        let bndes = bank(&app, "BNDES").await;
        let step = |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ {SF_FIELDS} }} }}");
        let operating = |extension: bool| {
            let (app, bndes) = (&app, bndes.clone());
            async move {
                let id = app.data(SF_CREATE, sf_new(&bndes, "2000000.00", Some("2015-01-05"))).await["createSocialFuelProject"]["id"].clone();
                crate::facts::documents_received(app, &id, "2015-01-08").await;
                let mut steps = vec![
                    ("fileSocialFuelProject", ", on: \"2015-01-10\""),
                    ("decideSocialFuelProject", ", decision: FAVOURABLE, on: \"2015-02-05\", letter: \"Ofício 1/2015\", overrideReason: \"sem propostas registradas neste teste\""),
                    ("approveSocialFuelFinancing", ", on: \"2015-03-02\""),
                    ("startIndustrialOperation", ", on: \"2015-04-01\""),
                ];
                if extension {
                    steps.push(("requestSocialFuelExtension", ", justification: \"safra atrasada\", purchasesHonoured: true, farmersAssisted: true, on: \"2015-09-01\""));
                    steps.push(("decideSocialFuelExtension", ", granted: true, reason: \"seca comprovada\", on: \"2015-09-10\""));
                }
                steps.push(("startExternalEvaluation", ", on: \"2015-10-01\""));
                for (name, extra) in steps {
                    app.data(&step(name, extra), json!({ "id": id })).await;
                }
                id
            }
        };
        let both = |id: Value, as_of: &'static str| {
            let app = &app;
            async move {
                let q = "query Q($id: ID!, $d: Date!) { node(id: $id) { ... on SocialFuelProject { deadlines(asOf: $d) { ruleCode status dueDate countingNote } } } }";
                let n = app.data(q, json!({ "id": id, "d": as_of })).await;
                let of = |code: &str| n["node"]["deadlines"].as_array().and_then(|l| l.iter().find(|o| o["ruleCode"] == code).cloned()).expect("deadline");
                (of("SF-EXTERNAL-EVAL-6M"), of("SF-EXTENSION-12M"))
            }
        };
        let record = "mutation R($i: RecordEvaluationFindingsInput!) { recordEvaluationFindings(input: $i) { project { stage } } }";
        let conclude = |id: &Value, on: &'static str| {
            let (app, id) = (&app, id.clone());
            async move {
                let all = ["SF-SHARE-MIN", "SF-REPRESENTATION", "SF-CONTRACT-TERMS", "SF-ASSISTANCE-PLAN"].map(|c| json!({ "criterion": c, "conforming": true }));
                app.data(record, json!({ "i": { "projectId": id, "evaluator": "Fundação", "foundOn": on, "findings": all } })).await;
                let extra = format!(", result: FAVOURABLE, on: \"{on}\", overrideReason: \"sem aquisições registradas neste teste\"");
                app.data(&step("concludeExternalEvaluation", &extra), json!({ "id": id })).await;
            }
        };
        let extended = operating(true).await;
        // Before the conclusion: 6 months from 1 April 2015 ended on 1 October; with the extension both wait for 1 April
        // 2016.
        let (eval, ext) = both(extended.clone(), "2015-11-30").await;
        assert_eq!((eval["status"].as_str(), eval["dueDate"].as_str()), (Some("PENDING"), Some("2016-04-01")), "{eval}");
        assert_eq!((ext["status"].as_str(), ext["dueDate"].as_str()), (Some("PENDING"), Some("2016-04-01")), "{ext}");
        // Concluded on 16 March 2016, 167 days after the 6 months: met by both, not "167 days late".
        conclude(&extended, "2016-03-16").await;
        let (eval, ext) = both(extended.clone(), "2016-06-01").await;
        assert_eq!((eval["status"].as_str(), ext["status"].as_str()), (Some("MET"), Some("MET")), "{eval} {ext}");
        assert!(eval["countingNote"].as_str().is_some_and(|n| !n.contains("de atraso") && n.contains("art. 11 §2")), "{eval}");
        // Without the extension, a conclusion on 2 October 2015 is a day late.
        let plain = operating(false).await;
        conclude(&plain, "2015-10-02").await;
        let (eval, ext) = both(plain, "2016-06-01").await;
        assert_eq!((eval["status"].as_str(), eval["dueDate"].as_str(), ext["status"].as_str()), (Some("OVERDUE"), Some("2015-10-01"), Some("NOT_STARTED")), "{eval} {ext}");
        // "1 dia de atraso", never "1 days late" (issue 43): the plural is the language's.
        assert!(eval["countingNote"].as_str().is_some_and(|n| n.contains("Feito em 02/10/2015, com 1 dia de atraso.")), "{eval}");
    })
    .await;
}
