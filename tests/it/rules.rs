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
        // In Portuguese by default: "… com 3 dias de atraso." or "Não feito; vencido há 12 dias …", the plural the
        // language's ("1 dia", never "1 dias").
        let note = late["countingNote"].as_str().unwrap_or_default();
        assert!(note.contains("art. 66") && (note.contains(" de atraso.") || note.contains("vencido há")), "{late}");
        assert!(!note.contains("1 dias") && !note.contains("late") && !note.contains("overdue"), "{note}");
        // Looking back: the day after filing, a filed project's decision deadline was still running; before the
        // filing it had not started (the filing was not yet known).
        let filed = app.data("{ socialFuelProjects(first: 1, filter: { stages: [FILED] }) { nodes { id submittedOn } } }", json!({})).await;
        let node = &filed["socialFuelProjects"]["nodes"][0];
        let on = chrono::NaiveDate::parse_from_str(node["submittedOn"].as_str().expect("filed"), "%Y-%m-%d").expect("date");
        let q = "query D($id: ID!, $a: Date!, $b: Date!) { node(id: $id) { ... on SocialFuelProject {
            after: deadlines(asOf: $a) { ruleCode status } before: deadlines(asOf: $b) { ruleCode status } } } }";
        let back = app.data(q, json!({ "id": node["id"], "a": (on + chrono::Days::new(1)).to_string(), "b": (on - chrono::Days::new(1)).to_string() })).await;
        assert_eq!(back["node"]["after"][0]["status"], "PENDING", "the day after filing the 30 days had not run out");
        assert_eq!(back["node"]["before"][0]["status"], "NOT_STARTED", "the day before filing nothing was filed yet");
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
        assert!(o["explanation"].as_str().is_some_and(|e| e.contains("99,99 %") && e.contains("test instrument")), "{o}");

        let versions = app.data("{ ruleParameters(rule: \"SF-SHARE-MIN.CENTRE_WEST\") { value effectiveFrom legalSource } }", json!({})).await;
        assert_eq!(versions["ruleParameters"].as_array().map(Vec::len), Some(3), "the baseline and two new versions");
    })
    .await;
}

#[tokio::test]
async fn bad_parameter_versions_are_refused_with_the_reason() {
    on_each_backend(false, |app| async move {
        let add = "mutation A($k: String!, $v: Decimal!, $u: String!, $s: String!) { addRuleParameterVersion(key: $k, value: $v, unit: $u, effectiveFrom: \"2027-01-01\", legalSource: $s) { key } }";
        // Portuguese by default, English on request (issue 43).
        let cases = [
            (json!({ "k": "NO-SUCH.KEY", "v": "1", "u": "DAYS", "s": "x" }), "NO-SUCH.KEY is not a rule parameter", "NO-SUCH.KEY não é um parâmetro de regra"),
            (json!({ "k": "FCO-CEILING.AMOUNT", "v": "1", "u": "DAYS", "s": "x" }), "is in BRL, not DAYS", "é em BRL, não em DAYS"),
            (json!({ "k": "FCO-CEILING.AMOUNT", "v": "-5", "u": "BRL", "s": "x" }), "-5 BRL must be not negative", "-5 BRL deve ser não negativo"),
            (json!({ "k": "SF-DECISION-30D.DAYS", "v": "30.5", "u": "DAYS", "s": "x" }), "30.5 DAYS must be a whole number", "30.5 DAYS deve ser um número inteiro"),
            (json!({ "k": "SF-SHARE-MIN.NORTH", "v": "140", "u": "PERCENT", "s": "x" }), "140 PERCENT must be between 0 and 100", "140 PERCENT deve ser entre 0 e 100"),
            (json!({ "k": "FCO-CEILING.AMOUNT", "v": "1.005", "u": "BRL", "s": "x" }), "at most two decimals", "no máximo duas casas decimais"),
            (json!({ "k": "FCO-CEILING.AMOUNT", "v": "5", "u": "BRL", "s": " " }), "legalSource", "legalSource"),
        ];
        for (vars, english, portuguese) in cases {
            let (message, code) = app.error_in(Some("en"), add, vars.clone()).await;
            assert_eq!(code, "BAD_USER_INPUT", "{vars}: {message}");
            assert!(message.contains(english), "{vars}: {message:?}");
            let (message, code) = app.error_in(None, add, vars.clone()).await;
            assert_eq!(code, "BAD_USER_INPUT", "{vars}: {message}");
            assert!(message.contains(portuguese), "{vars}: {message:?}");
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

#[tokio::test]
async fn rules_import_adds_every_version_or_none() {
    on_each_backend(false, |app| async move {
        let bad = "key,value,unit,effective_from,effective_to,legal_source\n\
                   FCO-CEILING.AMOUNT,20000000.00,BRL,2027-01-01,,\"Resolução CDAE, art. 4\"\n\
                   FCO-CEILING.AMOUNT,abc,BRL,2027-01-01,,x\n\
                   NOPE.KEY,1,DAYS,2027-01-01,,x\n\
                   FCO-VALIDITY-120D.DAYS,150,DAYS,2027-13-01,,x\n";
        let problems = fomento_api::rules_import::import(&app.db, bad)
            .await
            .expect_err("bad rows");
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].starts_with("line 3:") && problems[0].contains("\"abc\""),
            "{problems:?}"
        );
        assert!(
            problems[1].starts_with("line 4:") && problems[1].contains("NOPE.KEY"),
            "{problems:?}"
        );
        assert!(problems[2].starts_with("line 5, effective_from"), "{problems:?}");
        let q = "{ ruleParameters(rule: \"FCO-CEILING\") { value } }";
        assert_eq!(
            app.data(q, json!({})).await["ruleParameters"].as_array().map(Vec::len),
            Some(1),
            "nothing was written"
        );
        let good = "key;value;unit;effective_from;effective_to;legal_source\n\
                    # a comment line\n\
                    FCO-CEILING.AMOUNT;20000000.00;BRL;2027-01-01;;Resolução CDAE, art. 4\n";
        assert_eq!(fomento_api::rules_import::import(&app.db, good).await, Ok(1));
        assert_eq!(
            app.data(q, json!({})).await["ruleParameters"].as_array().map(Vec::len),
            Some(2)
        );
    })
    .await;
}

#[tokio::test]
async fn banks_show_their_reporting_deadlines() {
    on_each_backend(true, |app| async move {
        use sea_orm::{ActiveModelTrait, ActiveValue::Set};
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await;
        let bb_id = bb["bankByCode"]["id"].clone();
        let bank = entity::bank::Entity::find_by_code(&app.db, "BB").await;
        entity::bank_report::ActiveModel {
            bank_id: Set(bank),
            reference_month: Set("2026-09".into()),
            sha256: Set("0".repeat(64)),
            file_name: Set("setembro.xlsx".into()),
            byte_size: Set(10),
            status: Set("INGESTED".into()),
            received_at: Set(chrono::DateTime::parse_from_rfc3339("2026-10-20T15:00:00Z").expect("ts").with_timezone(&chrono::Utc)),
            ..Default::default()
        }
        .insert(&app.db)
        .await
        .expect("report");
        let q = "query D($id: ID!) { node(id: $id) { ... on Bank { deadlines(asOf: \"2026-12-02\") { ruleCode dueDate status countingNote } } } }";
        // The monthly list of 20 October does not restart the 60 days: the demo's last 60-day report (August) does.
        let d = app.data(q, json!({ "id": bb_id })).await;
        let dl = d["node"]["deadlines"].as_array().expect("deadlines").clone();
        assert_eq!((dl[0]["ruleCode"].as_str(), dl[0]["status"].as_str()), (Some("FCO-BB-60D"), Some("OVERDUE")), "{dl:?}");
        app.data("mutation R($i: RecordBbPeriodicReportInput!) { recordBbPeriodicReport(input: $i) { bank { code } } }",
            json!({ "i": { "bankId": bb_id, "receivedOn": "2026-10-20", "reference": "Ofício BB 9/2026" } })).await;
        let d = app.data(q, json!({ "id": bb_id })).await;
        let dl = d["node"]["deadlines"].as_array().expect("deadlines").clone();
        assert_eq!(dl[0]["ruleCode"], "FCO-BB-60D");
        assert_eq!((dl[0]["dueDate"].as_str(), dl[0]["status"].as_str()), (Some("2026-12-21"), Some("PENDING")));
        assert_eq!((dl[1]["ruleCode"].as_str(), dl[1]["status"].as_str()), (Some("FCO-MONTHLY-LIST"), Some("OVERDUE")));
        let bndes = app.data("{ bankByCode(code: \"BNDES\") { deadlines { ruleCode } } }", json!({})).await;
        assert_eq!(bndes["bankByCode"]["deadlines"], json!([]), "BNDES does not operate FCO");
    })
    .await;
}

#[tokio::test]
async fn a_declared_closure_moves_a_deadline_to_the_next_business_day() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BNDES").await;
        let bank = app.data("{ bankByCode(code: \"BNDES\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let p = app
            .data(
                "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
                json!({ "i": { "title": "P", "bankId": bank, "producerDocument": "11.222.333/0001-81", "producerName": "B",
                    "plantMunicipalityCode": 5103403, "requestedAmount": "1.00", "bankFramedOn": "2015-01-02" } }),
            )
            .await["createSocialFuelProject"]["id"]
            .clone();
        for kind in ["REQUEST_LETTER", "BANK_FRAMING_LETTER", "SOCIAL_FUEL_PROJECT", "FARMER_CONTRACT", "CNPJ_REGISTRATION", "GOOD_STANDING_DECLARATION"] {
            app.data("mutation D($id: ID!, $k: ProjectDocumentKind!) { addProjectDocument(projectId: $id, kind: $k, receivedOn: \"2015-10-30\") { kind } }", json!({ "id": p, "k": kind })).await;
        }
        // Filed on Monday 2 November 2015 (a holiday, but filing dates are what they are): 30 days end on Wednesday
        // 2 December 2015.
        app.data("mutation F($id: ID!) { fileSocialFuelProject(id: $id, on: \"2015-11-02\") { stage } }", json!({ "id": p })).await;
        let q = "query D($id: ID!) { node(id: $id) { ... on SocialFuelProject { deadlines(asOf: \"2015-11-20\") { ruleCode dueDate countingNote } } } }";
        let before = app.data(q, json!({ "id": p })).await;
        assert_eq!(before["node"]["deadlines"][0]["dueDate"], "2015-12-02");
        let added = app.data("mutation { addNonBusinessDay(day: \"2015-12-02\", reason: \"ponto facultativo, Portaria X\") { day reason } }", json!({})).await;
        assert_eq!(added["addNonBusinessDay"]["day"], "2015-12-02");
        let after = app.data(q, json!({ "id": p })).await;
        let d = &after["node"]["deadlines"][0];
        assert_eq!(d["dueDate"], "2015-12-03", "{d}");
        assert!(d["countingNote"].as_str().is_some_and(|n| n.contains("ponto facultativo")), "{d}");
        let (message, code) = app.error("mutation { addNonBusinessDay(day: \"2015-12-02\", reason: \"again\") { day } }", json!({})).await;
        assert_eq!((code.as_str(), message.contains("already recorded")), ("BAD_USER_INPUT", true), "{message}");
    })
    .await;
}

/// The social-fuel rules cite their own instrument (issue 16, point 1): IN MDA nº 2 of 28 September 2005, in force
/// from its publication on 30 September 2005; the baseline versions stored under IN MDA nº 01/2005 from 5 July are
/// withdrawn with the reason and replaced, both kept in the history.
#[tokio::test]
async fn the_social_fuel_rules_cite_in_mda_2_2005_in_force_from_its_publication() {
    on_each_backend(false, |app| async move {
        let d = app.data("{ rules { code legalBasis } }", json!({})).await;
        let sf: Vec<&Value> = d["rules"]
            .as_array()
            .expect("rules")
            .iter()
            .filter(|r| r["code"].as_str().is_some_and(|c| c.starts_with("SF-")))
            .collect();
        assert!(sf.len() >= 18, "{}", sf.len());
        for r in &sf {
            assert!(
                r["legalBasis"]
                    .as_str()
                    .is_some_and(|b| b.starts_with("IN MDA nº 2/2005")),
                "{r}"
            );
        }
        let q = "{ ruleParameters(rule: \"SF-DECISION-30D.DAYS\", includeWithdrawn: true) {
            versionId effectiveFrom legalSource withdrawnAt withdrawalReason replacedBy } }";
        let versions = app.data(q, json!({})).await["ruleParameters"].clone();
        let versions = versions.as_array().expect("versions");
        let old = versions
            .iter()
            .find(|v| v["effectiveFrom"] == "2005-07-05")
            .expect("the old version kept");
        let new = versions
            .iter()
            .find(|v| v["effectiveFrom"] == "2005-09-30")
            .expect("the corrected version");
        assert_eq!(old["replacedBy"], new["versionId"]);
        assert!(
            old["withdrawalReason"]
                .as_str()
                .unwrap_or("")
                .contains("IN MDA nº 2 of 28 September 2005"),
            "{old}"
        );
        assert!(
            new["withdrawnAt"].is_null() && new["legalSource"] == "IN MDA nº 2/2005, art. 9",
            "{new}"
        );
        // Articles cited as they are written: art. 3 has no incisos, art. 15 has alíneas.
        let sources = app.data("{ ruleParameters { key legalSource } }", json!({})).await["ruleParameters"].clone();
        let source_of = |key: &str| {
            sources
                .as_array()
                .and_then(|a| a.iter().find(|p| p["key"] == key))
                .map(|p| p["legalSource"].as_str().unwrap_or("").to_owned())
                .unwrap_or_default()
        };
        assert_eq!(
            source_of("SF-SHARE-MIN.CENTRE_WEST"),
            "IN MDA nº 2/2005, art. 3 (Norte e Centro-Oeste)"
        );
        assert_eq!(
            source_of("SF-SHARE-MIN.SEMI_ARID"),
            "IN MDA nº 2/2005, art. 3 (Nordeste e semi-árido)"
        );
        assert_eq!(source_of("FCO-AMENDMENT.MAX_INCREASE"), "IN CDAE/MT 2019, art. 15, a");
        // In force from the day of publication, not the day before.
        let params = entity::rule_parameter::Entity::params(&app.db).await.expect("params");
        let day = |s: &str| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date");
        assert_eq!(params.count("SF-DECISION-30D.DAYS", day("2005-09-30")), Ok(30));
        assert_eq!(
            params
                .count("SF-DECISION-30D.DAYS", day("2005-09-29"))
                .map_err(|e| e.status()),
            Err(entity::rules::Status::NotApplicable)
        );
    })
    .await;
}

/// The calendar per authority (issue 16, point 11): a closure recorded for Mato Grosso moves the 120 days of a CDAE
/// approval and not MDA's deadlines; Corpus Christi counts as closed until an office is recorded open; an open day
/// is only recorded on a ponto facultativo.
#[tokio::test]
async fn each_authority_counts_its_own_office_days() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let c = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "CAL-1", "bankId": bb, "borrowerDocument": "529.982.247-25", "borrowerName": "João",
                    "line": "RURAL", "activity": "GRAINS", "financedAmount": "1000000.00", "municipalityCode": 5107909 } }),
            )
            .await["createFcoCarta"]["id"]
            .clone();
        app.data("mutation S($id: ID!) { submitFcoCarta(id: $id, on: \"2026-03-02\") { id } }", json!({ "id": c })).await;
        // Approved by the chamber on 10 March 2026: 120 days end on Wednesday 8 July.
        app.data("mutation D($id: ID!) { decideFcoCarta(id: $id, decision: FAVOURABLE, byChamber: true, on: \"2026-03-10\") { id } }", json!({ "id": c })).await;
        let due = || {
            let (app, c) = (&app, c.clone());
            async move {
                let d = app.data("query Q($id: ID!) { node(id: $id) { ... on FcoCarta { deadlines(asOf: \"2026-03-11\") { ruleCode dueDate countingNote } } } }", json!({ "id": c })).await;
                d["node"]["deadlines"].as_array().and_then(|l| l.iter().find(|o| o["ruleCode"] == "FCO-VALIDITY-120D").cloned()).expect("validity")
            }
        };
        assert_eq!(due().await["dueDate"], "2026-07-08");
        // A federal closure on 8 July does not move the CDAE's count; Mato Grosso's does.
        app.data("mutation { addNonBusinessDay(day: \"2026-07-08\", reason: \"ponto facultativo federal\", authority: FEDERAL) { day } }", json!({})).await;
        assert_eq!(due().await["dueDate"], "2026-07-08");
        let added = app.data("mutation { addNonBusinessDay(day: \"2026-07-08\", reason: \"feriado estadual, Lei X\", authority: MATO_GROSSO) { day authority open } }", json!({})).await;
        assert_eq!(added["addNonBusinessDay"], json!({ "day": "2026-07-08", "authority": "MATO_GROSSO", "open": false }));
        let moved = due().await;
        assert_eq!(moved["dueDate"], "2026-07-09", "{moved}");
        assert!(moved["countingNote"].as_str().is_some_and(|n| n.contains("feriado estadual")), "{moved}");
        // An open day only on a ponto facultativo.
        let (message, code) = app.error("mutation { recordOfficeOpen(day: \"2026-07-09\", authority: MATO_GROSSO, reason: \"x\") { day } }", json!({})).await;
        assert_eq!((code.as_str(), message.contains("ponto facultativo")), ("BAD_USER_INPUT", true), "{message}");
        let open = app.data("mutation { recordOfficeOpen(day: \"2026-06-04\", authority: FEDERAL, reason: \"expediente normal\") { day authority open } }", json!({})).await;
        assert_eq!(open["recordOfficeOpen"], json!({ "day": "2026-06-04", "authority": "FEDERAL", "open": true }));
        let listed = app.data("{ nonBusinessDays { day authority open } }", json!({})).await;
        assert_eq!(listed["nonBusinessDays"].as_array().map(Vec::len), Some(3), "{listed}");
    })
    .await;
}
