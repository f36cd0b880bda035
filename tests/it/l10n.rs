//! Portuguese first: what people read is Portuguese by default and English with `Accept-Language: en` (issue 43).
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

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
                // `BankReport:999` and `FactImport:999`: their lookups answer as every other lookup by ID.
                "{ bankReport(id: \"QmFua1JlcG9ydDo5OTk\") { number } }",
                "NOT_FOUND",
                "não há relatório de banco com o ID \"QmFua1JlcG9ydDo5OTk\"",
                "no bank report with ID \"QmFua1JlcG9ydDo5OTk\"",
            ),
            (
                "{ factImport(id: \"RmFjdEltcG9ydDo5OTk\") { number } }",
                "NOT_FOUND",
                "não há importação de fatos com o ID \"RmFjdEltcG9ydDo5OTk\"",
                "no fact import with ID \"RmFjdEltcG9ydDo5OTk\"",
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
            "FCO-CHAMBER-THRESHOLD: 01/08/2026 é anterior à submissão (03/08/2026) (IN CDAE/MT 2019, art. 2º, § 3º)"
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

/// English words a Portuguese explanation, counting note or flag message must not hold (lower-case words outside
/// «…», quotes and backticks: names and values are quoted as typed).
const ENGLISH: &[&str] = &[
    "the", "is", "are", "not", "and", "with", "from", "was", "days", "day", "late", "overdue", "left", "before",
    "after", "done", "met", "on", "by", "of", "at", "or", "below", "above", "bank", "needs", "business",
];

/// The English words of a Portuguese text (see [`ENGLISH`]).
fn english_words(text: &str) -> Vec<String> {
    let (mut out, mut quoted, mut word) = (Vec::new(), None::<char>, String::new());
    for c in text.chars().chain([' ']) {
        match (quoted, c) {
            (None, '«') => quoted = Some('»'),
            (None, '"' | '`') => quoted = Some(c),
            (Some(q), c) if c == q => quoted = None,
            (Some(_), _) => {}
            (None, c) if c.is_alphabetic() => word.push(c),
            (None, _) => {
                if ENGLISH.contains(&word.as_str()) {
                    out.push(std::mem::take(&mut word));
                }
                word.clear();
            }
        }
    }
    out
}

/// The texts of `field` under every node's `list` in `data[root]`, by rule code.
fn texts(data: &Value, root: &str, list: &str, field: &str) -> Vec<(String, String)> {
    data[root]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|n| n[list].as_array().cloned().unwrap_or_default())
        .map(|o| {
            (
                o["ruleCode"].as_str().unwrap_or_default().to_owned(),
                o[field].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The rules whose outcomes are catalogue messages (every deadline and these checked rules): their texts are the
/// catalogue's, so a Portuguese one holds no English word.
const CONVERTED: &[&str] = &[
    "SF-DECISION-30D",
    "SF-EXTERNAL-EVAL-6M",
    "SF-SEAL-REQUEST-30D",
    "SF-EXTENSION-12M",
    "FCO-72H-BEFORE",
    "FCO-72H-RESULT",
    "FCO-VALIDITY-120D",
    "FCO-MONTHLY-LIST",
    "FCO-BB-60D",
    "FCO-CHAMBER-THRESHOLD",
    "FCO-ATTENDANCE",
    "FCO-CEILING",
    "FCO-WEANED-2000",
    "FCO-SIRE-RATIO",
    "FCO-SIRE-PEDIGREE",
    "FCO-BOAR-RATIO",
    "FCO-SWINE-RETENTION",
    "FCO-PANTANAL",
    "FCO-USED-MACHINE",
    "FCO-OPERATING-ONLY",
    "FCO-CLASSIFY",
    "FCO-RESUBMIT",
    "FCO-AMENDMENT",
    "FCO-SPECIAL-DEMAND",
    "FCO-IA-INFO",
    "FCO-PREDOMINANCE",
    "FCO-PASTURE-SOIL",
    "FCO-GLOBAL-ASSISTANCE",
    "FCO-TEMPLATE",
    "FCO-SEED-ORIGIN",
    "FCO-GTA",
    "FCO-PROFESSIONAL",
    "FCO-SWINE-ORIGIN",
    "FCO-GREEN",
    "FCO-SEED-MAPA",
    "FCO-SWINE-ELIGIBLE",
    "FCO-SWINE-FAMILY",
    "FCO-SWINE-REPORT",
    "FCO-PANTANAL-PLAIN",
    "FCO-SMALL-ANIMALS",
    "SF-DOCUMENTS",
    "SF-BANK-FIRST",
    "SF-ASSISTANCE-PLAN",
    "SF-CHANGES",
    "SF-DECISION-LETTER",
    "SF-SCHEDULE",
    "SF-UNFRAMING",
    "SF-REPRESENTATION",
    "SF-CONTRACT-TERMS",
    "SF-SHARE-MIN",
    "SF-SHARE-CALC",
    "SF-OWN-PRICE",
    "SF-SHARECROP-PRICE",
    "SF-PERENNIAL",
    "SF-COMPANY-BR",
    "SF-NO-PROMOTION",
];

/// Issue 43's "explanations and counting notes" and "flag messages" (in the graph and in exports): the demo's
/// outcomes, deadlines and flags read in Portuguese by default, with no English word in the converted rules' texts
/// ("1 dia de atraso", never "1 days late"), and in English with `Accept-Language: en` or `lang=en`.
#[tokio::test]
async fn explanations_counting_notes_and_flag_messages_are_portuguese_by_default_and_english_on_request() {
    on_each_backend(true, |app| async move {
        let q = "{ fcoCartas(first: 80) { nodes { compliance(asOf: \"2026-12-02\") { ruleCode explanation legalBasis }
                deadlines(asOf: \"2026-12-02\") { ruleCode countingNote legalBasis } } }
            socialFuelProjects(first: 40) { nodes { compliance(asOf: \"2026-12-02\") { ruleCode explanation }
                deadlines(asOf: \"2026-12-02\") { ruleCode countingNote } } } }";
        let (_, pt) = app.gql_in(PT, q, json!({})).await;
        let (_, en) = app.gql_in(EN, q, json!({})).await;
        let (pt, en) = (&pt["data"], &en["data"]);
        let mut left = Vec::new();
        let mut notes = texts(pt, "fcoCartas", "deadlines", "countingNote");
        notes.extend(texts(pt, "socialFuelProjects", "deadlines", "countingNote"));
        notes.extend(texts(pt, "fcoCartas", "compliance", "explanation"));
        notes.extend(texts(pt, "socialFuelProjects", "compliance", "explanation"));
        let mut checked = 0;
        for (rule, text) in &notes {
            if CONVERTED.contains(&rule.as_str()) && !text.is_empty() {
                checked += 1;
                let words = english_words(text);
                if !words.is_empty() {
                    left.push(format!("{rule}: {words:?} in {text:?}"));
                }
            }
        }
        assert!(checked > 100, "the demo's converted texts: {checked}");
        assert!(left.is_empty(), "English left in Portuguese texts:\n{}", left.join("\n"));
        let one_days = |t: &str| t.match_indices("1 dias").any(|(i, _)| !t[..i].ends_with(|c: char| c.is_ascii_digit()));
        assert!(!notes.iter().any(|(_, t)| one_days(t)), "the plural is the language's");
        assert!(notes.iter().any(|(_, t)| t.contains(" dias")), "counted in days");
        // The same outcomes in English: the chamber's threshold, the counting notes.
        let chamber = |d: &Value| -> Vec<String> {
            texts(d, "fcoCartas", "compliance", "explanation")
                .into_iter()
                .filter(|(r, _)| r == "FCO-CHAMBER-THRESHOLD")
                .map(|(_, t)| t)
                .collect()
        };
        let (pt_chamber, en_chamber) = (chamber(pt), chamber(en));
        assert!(!pt_chamber.is_empty() && pt_chamber.len() == en_chamber.len());
        assert!(pt_chamber.iter().all(|t| t.contains("R$") && (t.contains("é igual ou superior a") || t.contains("é inferior a"))), "{pt_chamber:?}");
        assert!(en_chamber.iter().all(|t| t.contains("is at or above") || t.contains("is below")), "{en_chamber:?}");
        // Legal bases as each language cites them: FCO-RESUBMIT's article 3, sole paragraph.
        let basis = |d: &Value| -> Vec<String> {
            texts(d, "fcoCartas", "compliance", "legalBasis")
                .into_iter()
                .filter(|(r, _)| r == "FCO-RESUBMIT")
                .map(|(_, t)| t)
                .collect()
        };
        let (pt_basis, en_basis) = (basis(pt), basis(en));
        assert!(!pt_basis.is_empty() && pt_basis.iter().all(|b| b == "IN CDAE/MT 2019, art. 3º, parágrafo único"), "{pt_basis:?}");
        assert!(en_basis.iter().all(|b| b == "IN CDAE/MT 2019, art. 3, sole §"), "{en_basis:?}");
        // The family-farm share and the terms it counts, in both languages.
        let sf = |d: &Value| -> Vec<String> {
            texts(d, "socialFuelProjects", "compliance", "explanation")
                .into_iter()
                .filter(|(r, _)| r == "SF-SHARE-MIN")
                .map(|(_, t)| t)
                .collect()
        };
        let (pt_share, en_share) = (sf(pt), sf(en));
        assert!(pt_share.iter().any(|t| t.contains("participação da agricultura familiar R$ ") && t.contains(" %")), "{pt_share:?}");
        assert!(en_share.iter().any(|t| t.contains("family-farm share R$ ")), "{en_share:?}");
        // The checklist items and the articles on the carta's own facts, in both languages.
        let said = |d: &Value, rule: &str| -> Vec<String> {
            texts(d, "fcoCartas", "compliance", "explanation")
                .into_iter()
                .filter(|(r, _)| r == rule)
                .map(|(_, t)| t)
                .collect()
        };
        let (pt_seed, en_seed) = (said(pt, "FCO-SEED-ORIGIN"), said(en, "FCO-SEED-ORIGIN"));
        assert!(pt_seed.iter().any(|t| t.starts_with("não se aplica a esta carta") && t.contains("art. 5º")), "{pt_seed:?}");
        assert!(en_seed.iter().any(|t| t.starts_with("does not apply to this carta")), "{en_seed:?}");
        let (pt_kind, en_kind) = (said(pt, "FCO-PREDOMINANCE"), said(en, "FCO-PREDOMINANCE"));
        assert!(pt_kind.iter().all(|t| t.starts_with("crédito de") || t.starts_with("ainda sem itens")), "{pt_kind:?}");
        assert!(pt_kind.iter().any(|t| t.contains(" %") && t.contains("R$ ") && t.contains(',')), "{pt_kind:?}");
        assert!(en_kind.iter().all(|t| t.contains("credit") || t.starts_with("no items")), "{en_kind:?}");
        let en_notes = texts(en, "socialFuelProjects", "deadlines", "countingNote");
        assert!(en_notes.iter().any(|(_, t)| t.contains("Lei 9.784/1999, art. 66: 30 days from")), "{en_notes:?}");

        // The flags the job raises on that day: stored as ids and values, they read in each language.
        let day = chrono::NaiveDate::from_ymd_opt(2026, 12, 2).expect("day");
        service::deadline_flags::run(&app.db, day, chrono::Utc::now()).await.expect("flags");
        let fq = "{ complianceFlags(first: 100, filter: { open: true, source: \"job:flag-deadlines\" }) { nodes { number ruleCode message } } }";
        let (_, fpt) = app.gql_in(PT, fq, json!({})).await;
        let (_, fen) = app.gql_in(EN, fq, json!({})).await;
        let flags = |d: &Value| -> Vec<(String, String)> {
            d["data"]["complianceFlags"]["nodes"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|f| (f["ruleCode"].as_str().unwrap_or_default().to_owned(), f["message"].as_str().unwrap_or_default().to_owned()))
                .collect()
        };
        let (fpt, fen) = (flags(&fpt), flags(&fen));
        let converted: Vec<usize> = (0..fpt.len()).filter(|i| CONVERTED.contains(&fpt[*i].0.as_str())).collect();
        assert!(converted.len() > 5, "{fpt:?}");
        for i in converted {
            assert!(english_words(&fpt[i].1).is_empty(), "{:?}", fpt[i]);
            assert_ne!(fpt[i].1, fen[i].1, "the same flag in English");
        }
        // The export writes them as its language asks.
        let csv = |path: &str| {
            let path = path.to_owned();
            let app = &app;
            async move { String::from_utf8(app.get(&path).send().await.expect("GET").bytes().await.expect("body").to_vec()).expect("utf-8") }
        };
        let pt_csv = csv("/exports/flags.csv").await;
        let en_csv = csv("/exports/flags.csv?lang=en").await;
        assert!(pt_csv.contains("vencido há") || pt_csv.contains("de atraso"), "{}", &pt_csv[..pt_csv.len().min(600)]);
        assert!(en_csv.contains("overdue by") || en_csv.contains(" late."), "{}", &en_csv[..en_csv.len().min(600)]);
        // The dashboard page's flag list, in the page's language.
        let page = |lang: Option<&'static str>| {
            let app = &app;
            async move {
                let mut r = app.get("/dashboard?asOf=2026-12-02");
                if let Some(l) = lang {
                    r = r.header("accept-language", l);
                }
                r.send().await.expect("GET").text().await.expect("the page")
            }
        };
        let (pt_page, en_page) = (page(PT).await, page(EN).await);
        assert!(pt_page.contains("vencido há") || pt_page.contains("de atraso"), "the Portuguese page's flags");
        assert!(en_page.contains("overdue by") || en_page.contains(" late."), "the English page's flags");
        assert!(!pt_page.contains("overdue by"), "no English flag message on the Portuguese page");
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

/// Issue 43: a query refused by the limits says why in Portuguese by default and in English on request, its code
/// unchanged (a text over 64 KiB; thirty aliases of a page of 100 cartas).
#[tokio::test]
async fn a_query_over_the_limits_is_refused_in_portuguese_by_default_and_in_english_on_request() {
    on_each_backend(false, |app| async move {
        let big = format!("{{ __typename }}{}", " ".repeat(70_000));
        let (pt, code) = app.error_in(PT, &big, json!({})).await;
        assert_eq!(code, "QUERY_TOO_LARGE", "{pt}");
        assert_eq!(pt, "a consulta tem 70014 bytes, acima do limite de 65536");
        let (en, code) = app.error_in(EN, &big, json!({})).await;
        assert_eq!(
            (code.as_str(), en.as_str()),
            ("QUERY_TOO_LARGE", "the query is 70014 bytes, over the limit of 65536")
        );
        let aliases: String = (0..30)
            .map(|i| format!("a{i}: fcoCartas(first: 100) {{ nodes {{ id number stage }} }} "))
            .collect();
        let costly = format!("{{ {aliases}}}");
        let (pt, code) = app.error_in(PT, &costly, json!({})).await;
        assert_eq!(code, "QUERY_TOO_COSTLY", "{pt}");
        assert!(
            pt.starts_with("a consulta custaria ") && pt.contains("acima do limite de 10000"),
            "{pt}"
        );
        let (en, code) = app.error_in(EN, &costly, json!({})).await;
        assert_eq!(code, "QUERY_TOO_COSTLY", "{en}");
        assert!(
            en.starts_with("the query would cost ") && en.contains("over the limit of 10000"),
            "{en}"
        );
    })
    .await;
}

/// A bank report's findings on its rows are stored as catalogue messages: the graph reads them in Portuguese by
/// default and in English on request (issue 43).
#[tokio::test]
async fn a_bank_reports_flags_read_in_portuguese_by_default_and_in_english_on_request() {
    use crate::reports::{C, cpf, good_row, seed_bb, upload, workbook};
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        // Row 4 contracted after the declared month; row 5 at or above the chamber's threshold, never submitted to it.
        let mut late = good_row("Q-1", cpf(1), 5000.0);
        late[10] = C::T("10/06/2019");
        let big = good_row("Q-2", cpf(2), 1_500_000.0);
        let (status, body) = upload(&app, "BB", "2019-05", "maio.xlsx", workbook(&[late, big])).await;
        assert_eq!(status, 201, "{body}");
        let run = jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now())
            .await
            .expect("ingest");
        assert_eq!((run.processed, run.failed), (1, 0), "{}", run.message);
        let q = "{ complianceFlags(first: 10, filter: { ruleCodes: [\"FCO-MONTHLY-LIST\", \"FCO-CHAMBER-THRESHOLD\"] }) \
                 { nodes { ruleCode message } } }";
        let messages = |d: Value| -> Vec<(String, String)> {
            let mut out: Vec<(String, String)> = d["complianceFlags"]["nodes"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|n| {
                    (
                        n["ruleCode"].as_str().unwrap_or("").to_owned(),
                        n["message"].as_str().unwrap_or("").to_owned(),
                    )
                })
                .collect();
            out.sort();
            out
        };
        let pt = messages(app.data(q, json!({})).await);
        assert_eq!(pt.len(), 2, "{pt:?}");
        assert_eq!(pt[0].0, "FCO-CHAMBER-THRESHOLD", "{pt:?}");
        assert!(
            pt[0].1.starts_with("linha 5: R$ 1.500.000,00 é igual ou superior a R$ ")
                && pt[0].1.ends_with(", mas a carta nunca foi submetida à câmara CPACR"),
            "{pt:?}"
        );
        assert_eq!(
            pt[1],
            (
                "FCO-MONTHLY-LIST".to_owned(),
                "linha 4: contratada em 10/06/2019, fora do ano declarado até 31/05/2019 (2019-05)".to_owned()
            )
        );
        let en = messages(app.data_en(q, json!({})).await);
        assert!(
            en[0].1.starts_with("row 5: R$ 1,500,000.00 is at or above R$ ")
                && en[0].1.ends_with(" but the carta was never submitted to the CPACR chamber"),
            "{en:?}"
        );
        assert_eq!(
            en[1].1,
            "row 4: contracted on 2019-06-10, outside the year declared up to 2019-05-31 (2019-05)"
        );
        // Stored as the message's id and values, not as text.
        let flags = <entity::compliance_flag::Entity as sea_orm::EntityTrait>::find()
            .all(&app.db)
            .await
            .expect("flags");
        assert!(
            flags
                .iter()
                .filter(|f| f.source.starts_with("report:"))
                .all(|f| f.message.is_empty() && f.message_id.as_deref().is_some_and(|i| i.starts_with("report-flag-"))),
            "{flags:?}"
        );
    })
    .await;
}

/// The sign-in page is Portuguese by default and English with `Accept-Language: en` or `?lang=en`; a refused key is
/// answered in the language the form was shown in (issue 43).
#[tokio::test]
async fn the_sign_in_page_is_portuguese_by_default_and_english_on_request() {
    on_each_backend(false, |app| async move {
        let get = |path: &'static str, accept: Option<&'static str>| {
            let mut r = app.get(path);
            if let Some(l) = accept {
                r = r.header("accept-language", l);
            }
            async move {
                let r = r.send().await.expect("answer");
                assert_eq!(r.status().as_u16(), 200);
                r.text().await.expect("html")
            }
        };
        let pt = get("/sign-in?next=/bank", None).await;
        for said in [
            r#"<html lang="pt-BR">"#,
            "Chave de API ou token</label>",
            ">Entrar</button>",
            r#"href="/sign-in?lang=en&amp;next=/bank""#,
        ] {
            assert!(pt.contains(said), "{said}: {pt}");
        }
        assert!(!pt.contains("API key") && !pt.contains("sign in"), "{pt}");
        for en in [
            get("/sign-in", Some("en-US,en;q=0.9")).await,
            get("/sign-in?lang=en", None).await,
        ] {
            for said in [r#"<html lang="en">"#, "API key or token</label>", ">Sign in</button>"] {
                assert!(en.contains(said), "{said}: {en}");
            }
            assert!(!en.contains("Chave de API") && !en.contains("sessão"), "{en}");
        }
        // `?lang=en` is kept in the form; the refusal follows it, or the browser's language.
        assert!(
            get("/sign-in?lang=en", Some("pt-BR"))
                .await
                .contains(r#"<input type="hidden" name="lang" value="en">"#)
        );
        let post = |body: &'static str, accept: Option<&'static str>| {
            let mut r = app
                .client
                .post(format!("{}/sign-in", app.base))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body);
            if let Some(l) = accept {
                r = r.header("accept-language", l);
            }
            async move {
                let r = r.send().await.expect("answer");
                assert_eq!(r.status().as_u16(), 401);
                r.text().await.expect("html")
            }
        };
        let refused = post("key=fmt_nope&next=%2Fdashboard", None).await;
        assert!(
            refused.contains("Chave ou token inválido, revogado ou expirado."),
            "{refused}"
        );
        for refused in [
            post("key=fmt_nope&next=%2Fdashboard&lang=en", None).await,
            post("key=fmt_nope&next=%2Fdashboard", Some("en")).await,
        ] {
            assert!(
                refused.contains("Invalid, revoked or expired key or token."),
                "{refused}"
            );
        }
    })
    .await;
}

/// async-graphql's own parse and validation messages are said in Portuguese by default and in English on request,
/// their `extensions.code` unchanged (issue 43).
#[tokio::test]
async fn graphqls_own_parse_and_validation_errors_answer_in_portuguese_by_default_and_in_english_on_request() {
    on_each_backend(false, |app| async move {
        let first = |body: &Value| {
            (
                body["errors"][0]["message"].as_str().unwrap_or("").to_owned(),
                body["errors"][0]["extensions"]["code"]
                    .as_str()
                    .unwrap_or("")
                    .to_owned(),
            )
        };
        let cases: [(&str, Value, &str, &str, &str); 6] = [
            (
                "{ financingz(first: 1) { totalCount } }",
                json!({}),
                "GRAPHQL_VALIDATION_FAILED",
                "campo desconhecido \"financingz\" no tipo \"Query\". Você quis dizer \"financings\"?",
                "unknown field \"financingz\" on type \"Query\". Did you mean \"financings\"?",
            ),
            (
                "{ financings(first: \"dez\") { totalCount } }",
                json!({}),
                "BAD_USER_INPUT",
                "valor inválido para o argumento \"first\": o tipo esperado é \"Int\"",
                "invalid value for argument \"first\": expected type \"Int\"",
            ),
            (
                "{ financings(first: 1, sortBy: NOPE) { totalCount } }",
                json!({}),
                "GRAPHQL_VALIDATION_FAILED",
                "argumento desconhecido \"sortBy\" no campo \"financings\" do tipo \"Query\".",
                "unknown argument \"sortBy\" on field \"financings\" of type \"Query\".",
            ),
            (
                "query Q($n: Int!) { municipality(ibgeCode: $n) { name } }",
                json!({ "n": 9_999_999_999_i64 }),
                "BAD_USER_INPUT",
                "só se aceitam inteiros de -2147483648 a 2147483647",
                "only integers from -2147483648 to 2147483647 are accepted",
            ),
            (
                "query Q($n: Int!) { financings(first: $n) { totalCount } }",
                json!({}),
                "BAD_USER_INPUT",
                "a variável \"$n\", do tipo \"Int!\", é obrigatória",
                "variable \"$n\" of type \"Int!\" is required",
            ),
            (
                "{ financings(first: 1) { totalCount ",
                json!({}),
                "GRAPHQL_PARSE_FAILED",
                "a consulta não pode ser lida na linha 1, coluna ",
                "the query does not parse at line 1, column ",
            ),
        ];
        for (query, vars, code, pt, en) in cases {
            let (_, body) = app.gql_in(PT, query, vars.clone()).await;
            let (message, got) = first(&body);
            assert_eq!(got, code, "{query}: {body}");
            assert!(message.contains(pt), "{query}: {message:?}");
            let (_, body) = app.gql_in(EN, query, vars).await;
            let (message, got) = first(&body);
            assert_eq!(got, code, "{query}: {body}");
            assert!(message.contains(en), "{query}: {message:?}");
        }
    })
    .await;
}

/// The command line speaks Portuguese by default and English with `FOMENTO_LANG=en`, its errors too (issue 43).
#[tokio::test]
async fn the_command_line_speaks_portuguese_by_default_and_english_with_fomento_lang() {
    let dir = std::env::temp_dir().join(format!("fomento-cli-lang-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.join("cli.db").display());
    let run = |lang: Option<&str>, args: &[&str]| {
        let mut c = crate::processes::fomento();
        c.env("DATABASE_URL", &url)
            .env("FOMENTO_LOG", "error")
            .env("FOMENTO_FILE_STORE", dir.join("files"))
            .args(args);
        if let Some(l) = lang {
            c.env("FOMENTO_LANG", l);
        }
        let out = c.output().expect("fomento runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (status, out, err) = run(None, &["keys", "create", "--role", "analyst", "--name", "Ana"]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert!(
        out.starts_with("chave 1 criada: ")
            && out.contains("analyst")
            && out.contains("ativa; ela só é mostrada agora:"),
        "{out}"
    );
    let (_, out, _) = run(Some("en"), &["keys", "list"]);
    assert!(out.contains("analyst") && out.contains("\"Ana\"  active"), "{out}");
    let (_, out, _) = run(None, &["keys", "list"]);
    assert!(out.contains("\"Ana\"  ativa"), "{out}");
    let (_, out, _) = run(None, &["jobs", "list"]);
    assert!(
        out.starts_with("tarefa") && out.contains("nunca") && out.contains("toma as relações mensais"),
        "{out}"
    );
    // A job run's summary, as the job stored it, in the output's language.
    let (status, out, err) = run(None, &["jobs", "run", "purge-raw-files"]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert!(
        out.starts_with("arquivos brutos recebidos antes de ")
            && out.contains(" apagados: 0 arquivos (0 relações, 0 importações); 0 mantidos para um envio posterior"),
        "{out}"
    );
    let (status, out, err) = run(Some("en"), &["jobs", "run", "purge-raw-files"]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert!(
        out.starts_with("raw files received before ")
            && out.contains(" purged: 0 files (0 reports, 0 imports); 0 kept for a later upload"),
        "{out}"
    );
    // An error, in the output's language, not Rust's `Error:` and its debug form.
    let (status, _, err) = run(None, &["jobs", "run", "nada"]);
    assert_eq!(status, Some(1), "{err}");
    assert!(
        err.contains("erro: tarefa desconhecida \"nada\"; as tarefas são: ingest, "),
        "{err}"
    );
    let (status, _, err) = run(Some("en"), &["jobs", "run", "nada"]);
    assert_eq!(status, Some(1), "{err}");
    assert!(
        err.contains("error: unknown job \"nada\"; the jobs are: ingest, "),
        "{err}"
    );
    let (_, out, _) = run(
        Some("en"),
        &[
            "export",
            "flags",
            "--format",
            "csv",
            "--out",
            &dir.join("f.csv").display().to_string(),
        ],
    );
    assert!(out.starts_with("0 rows of flags written to "), "{out}");
    let (_, out, _) = run(
        None,
        &[
            "export",
            "flags",
            "--format",
            "csv",
            "--out",
            &dir.join("f.csv").display().to_string(),
        ],
    );
    assert!(out.starts_with("0 linhas de flags gravadas em "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The notes an act writes in a financing's history beside a person's own words (a carta's corrected statement, a
/// document received again, the bank's framing letter, justifications, MDA's notice and public update) and the
/// external evaluation's default finding are stored language-free: Portuguese by default, English on request, the
/// person's words as written in both (issue 43).
#[tokio::test]
async fn history_notes_and_the_default_finding_read_in_portuguese_by_default_and_in_english_on_request() {
    on_each_backend(false, |app| async move {
        let history = "query Q($id: ID!) { node(id: $id) { ... on FcoCarta { history { event note } }
            ... on SocialFuelProject { evaluationFinding history { event note } } } }";
        let note = |data: &Value, event: &str| -> String {
            data["node"]["history"]
                .as_array()
                .and_then(|h| h.iter().rev().find(|e| e["event"] == event))
                .and_then(|e| e["note"].as_str())
                .unwrap_or_default()
                .to_owned()
        };
        // A carta's stated facts corrected (at BB, which the project below seeds).
        let p = crate::facts::new_project(&app, Some("2015-01-05")).await;
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let carta = app
            .data(
                "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }",
                json!({ "i": { "number": "L10N-HIST", "bankId": bank, "borrowerDocument": "529.982.247-25",
                    "borrowerName": "Carla Produtora", "line": "RURAL", "activity": "GRAINS", "financedAmount": "500000.00",
                    "municipalityCode": 5107909 } }),
            )
            .await["createFcoCarta"]["id"]
            .clone();
        app.data(
            "mutation U($i: UpdateFcoCartaInput!) { updateFcoCarta(input: $i) { carta { id } } }",
            json!({ "i": { "cartaId": carta, "artificialInsemination": true, "reason": "declaração revista",
                "effectiveOn": "2026-08-03" } }),
        )
        .await;
        let (pt, en) = (
            app.data(history, json!({ "id": carta })).await,
            app.data_en(history, json!({ "id": carta })).await,
        );
        assert_eq!(
            note(&pt, "STATEMENT"),
            "fatos declarados corrigidos a partir de 03/08/2026: `artificialInsemination` não informado → sim: \
             declaração revista"
        );
        assert_eq!(
            note(&en, "STATEMENT"),
            "stated facts corrected from 2026-08-03: `artificialInsemination` not stated → yes: declaração revista"
        );

        // A social-fuel project through its non-conformity, each fact with its note.
        crate::facts::documents_received(&app, &p, "2015-01-08").await;
        let step = |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ id }} }}");
        app.data(&step("fileSocialFuelProject", ", on: \"2015-01-10\""), json!({ "id": p })).await;
        app.data(
            "mutation D($id: ID!) { addProjectDocument(projectId: $id, kind: REQUEST_LETTER, receivedOn: \"2015-01-12\",
                reference: \"Ofício 2/2015\", reason: \"versão assinada\") { kind } }",
            json!({ "id": p }),
        )
        .await;
        app.data(
            "mutation B($i: RecordBankFramingInput!) { recordBankFraming(input: $i) { project { id } } }",
            json!({ "i": { "projectId": p, "on": "2015-01-11", "analysedByBank": true, "reason": "carta refeita" } }),
        )
        .await;
        for (name, extra) in [
            (
                "decideSocialFuelProject",
                ", decision: FAVOURABLE, on: \"2015-02-05\", letter: \"Ofício 1/2015\", overrideReason: \"sem propostas \
                 registradas neste teste\"",
            ),
            ("approveSocialFuelFinancing", ", on: \"2015-03-02\""),
            ("startIndustrialOperation", ", on: \"2015-04-01\""),
            ("startExternalEvaluation", ", on: \"2015-10-01\""),
            // MDA says nothing of what it found.
            ("concludeExternalEvaluation", ", result: UNFAVOURABLE, on: \"2015-10-20\""),
            ("recordSocialFuelJustifications", ", content: \"a seca reduziu a safra\", on: \"2015-11-05\""),
            ("unframeSocialFuelProject", ", reason: \"justificativas não aceitas\", on: \"2015-11-20\""),
            ("recordSocialFuelBankNotice", ", reference: \"Ofício 31/2015/SAF\", on: \"2015-11-25\""),
            ("recordSocialFuelPublicUpdate", ", reference: \"gov.br/mda\", on: \"2015-11-26\""),
        ] {
            app.data(&step(name, extra), json!({ "id": p })).await;
        }
        let (pt, en) = (
            app.data(history, json!({ "id": p })).await,
            app.data_en(history, json!({ "id": p })).await,
        );
        for (event, portuguese, english) in [
            (
                "DOCUMENT",
                "«ofício de solicitação» (REQUEST_LETTER) recebido em 12/01/2015: versão assinada",
                "«ofício de solicitação» (REQUEST_LETTER) received on 2015-01-12: versão assinada",
            ),
            (
                "BANK_FRAMING",
                "carta de enquadramento do agente financeiro de 11/01/2015, analisada pelo banco: carta refeita",
                "bank's framing letter of 2015-01-11, analysed by the bank: carta refeita",
            ),
            (
                "JUSTIFICATIONS",
                "justificativas e contestações apresentadas em 05/11/2015: a seca reduziu a safra",
                "justifications and contestations filed on 2015-11-05: a seca reduziu a safra",
            ),
            (
                "BANK_NOTICE",
                "o MDA notificou o banco em 25/11/2015: Ofício 31/2015/SAF",
                "MDA notified the bank on 2015-11-25: Ofício 31/2015/SAF",
            ),
            (
                "PUBLIC_UPDATE",
                "o MDA atualizou sua base de dados pública em 26/11/2015: gov.br/mda",
                "MDA updated its public database on 2015-11-26: gov.br/mda",
            ),
        ] {
            assert_eq!(note(&pt, event), portuguese, "{pt}");
            assert_eq!(note(&en, event), english, "{en}");
        }
        assert_eq!(pt["node"]["evaluationFinding"], "a avaliação externa constatou não conformidade", "{pt}");
        assert_eq!(en["node"]["evaluationFinding"], "external evaluation found non-conformity", "{en}");
        // Nothing of it is English in Portuguese, but the person's words.
        for h in pt["node"]["history"].as_array().into_iter().flatten() {
            let n = h["note"].as_str().unwrap_or_default();
            assert!(english_words(n).is_empty(), "{n}: {:?}", english_words(n));
        }
    })
    .await;
}

/// A job run's summary is stored as a message and its values: the graph's `jobRuns` reads it in Portuguese by
/// default and in English on request; a summary stored as text before reads as it was (issue 43).
#[tokio::test]
async fn a_job_runs_summary_reads_in_portuguese_by_default_and_in_english_on_request() {
    on_each_backend(false, |app| async move {
        let spec = jobs::registry::find("purge-raw-files").expect("registered");
        fomento_api::runtime::run_job(&app.runtime, spec, "test:l10n")
            .await
            .expect("the job runs")
            .expect("the slot");
        let q = "{ jobRuns(filter: { job: \"purge-raw-files\" }, first: 5) { nodes { slot status message } } }";
        let message = |d: &Value| -> String {
            d["jobRuns"]["nodes"]
                .as_array()
                .and_then(|n| n.iter().find(|r| r["slot"] == "test:l10n"))
                .and_then(|r| r["message"].as_str())
                .unwrap_or_default()
                .to_owned()
        };
        let pt = message(&app.data(q, json!({})).await);
        assert!(
            pt.starts_with("arquivos brutos recebidos antes de ")
                && pt
                    .ends_with(" apagados: 0 arquivos (0 relações, 0 importações); 0 mantidos para um envio posterior"),
            "{pt}"
        );
        let en = message(&app.data_en(q, json!({})).await);
        assert!(
            en.starts_with("raw files received before ")
                && en.ends_with(" purged: 0 files (0 reports, 0 imports); 0 kept for a later upload"),
            "{en}"
        );
        // The day in each language's form: dd/mm/aaaa, ISO.
        let day = en
            .trim_start_matches("raw files received before ")
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_owned();
        let d = chrono::NaiveDate::parse_from_str(&day, "%Y-%m-%d").expect("an ISO day");
        assert!(pt.contains(&d.format("%d/%m/%Y").to_string()), "{pt}");
        // A row stored before migration 62 keeps its English text in both.
        use sea_orm::{ActiveModelTrait, ActiveValue::Set};
        entity::job_run::ActiveModel {
            job: Set("purge-raw-files".into()),
            slot: Set("test:old".into()),
            worker: Set("old".into()),
            status: Set("SUCCEEDED".into()),
            started_at: Set(chrono::Utc::now()),
            finished_at: Set(Some(chrono::Utc::now())),
            processed: Set(0),
            failed: Set(0),
            message: Set(Some("raw files received before 2021-01-01 purged: 0 files".into())),
            ..Default::default()
        }
        .insert(&app.db)
        .await
        .expect("an old row");
        for d in [app.data(q, json!({})).await, app.data_en(q, json!({})).await] {
            let old = d["jobRuns"]["nodes"]
                .as_array()
                .and_then(|n| n.iter().find(|r| r["slot"] == "test:old"))
                .map(|r| r["message"].clone());
            assert_eq!(
                old,
                Some(json!("raw files received before 2021-01-01 purged: 0 files")),
                "{d}"
            );
        }
    })
    .await;
}

/// The HTTP transport's own refusals, before a request reaches the schema, are the catalogue's: Portuguese by
/// default, English with `Accept-Language: en`, each with its code as before (issue 43).
#[tokio::test]
async fn the_graphql_transports_own_refusals_are_portuguese_by_default_and_english_on_request() {
    on_each_backend(false, |app| async move {
        let answer = |lang: Option<&'static str>, req: reqwest::RequestBuilder| async move {
            let req = match lang {
                Some(l) => req.header("accept-language", l),
                None => req,
            };
            let resp = req.send().await.expect("answer");
            let status = resp.status().as_u16();
            let body: Value = resp.json().await.expect("json");
            let e = &body["errors"][0];
            (
                status,
                e["extensions"]["code"].as_str().unwrap_or_default().to_owned(),
                e["message"].as_str().unwrap_or_default().to_owned(),
            )
        };
        type Request = fn(&TestApp) -> reqwest::RequestBuilder;
        let cases: Vec<(Request, u16, &str, &str, &str)> = vec![
            (
                |app| {
                    app.post("/graphql")
                        .header("content-type", "application/json")
                        .body("\"x\"")
                },
                400,
                "BAD_REQUEST",
                "o corpo deve ser um objeto JSON",
                "the body must be a JSON object",
            ),
            (
                |app| {
                    app.post("/graphql")
                        .header("content-type", "application/json")
                        .body("{\"query\": ")
                },
                400,
                "BAD_REQUEST",
                "o corpo não é JSON (linha 1, coluna 10)",
                "the body is not JSON (line 1, column 10)",
            ),
            (
                |app| app.post("/graphql").json(&json!({ "query": 5 })),
                400,
                "BAD_REQUEST",
                "`query` deve ser um texto",
                "`query` must be a string",
            ),
            (
                |app| app.get("/graphql?query=mutation%20%7B%20__typename%20%7D"),
                405,
                "METHOD_NOT_ALLOWED",
                "mutações não são aceitas por GET; use POST",
                "mutations are not allowed over GET; use POST",
            ),
            (
                |app| app.get("/graphql").header("accept", "application/json"),
                400,
                "BAD_REQUEST",
                "GET /graphql precisa do parâmetro `query`",
                "GET /graphql needs a `query` parameter",
            ),
            (
                |app| {
                    app.post("/graphql")
                        .header("accept", "text/plain")
                        .json(&json!({ "query": "{ __typename }" }))
                },
                406,
                "NOT_ACCEPTABLE",
                "o cabeçalho Accept não admite nem application/graphql-response+json nem application/json",
                "the Accept header allows neither application/graphql-response+json nor application/json",
            ),
            (
                |app| {
                    app.post("/graphql")
                        .header("content-type", "text/plain")
                        .body("{ __typename }")
                },
                415,
                "UNSUPPORTED_MEDIA_TYPE",
                "POST /graphql recebe Content-Type: application/json, não \"text/plain\"",
                "POST /graphql takes Content-Type: application/json, not \"text/plain\"",
            ),
            (
                |app| {
                    app.post("/graphql")
                        .json(&json!({ "extensions": { "persistedQuery": { "version": 2, "sha256Hash": "ab" } } }))
                },
                400,
                "BAD_REQUEST",
                "`extensions.persistedQuery.version` deve ser 1",
                "`extensions.persistedQuery.version` must be 1",
            ),
            (
                |app| {
                    let form = reqwest::multipart::Form::new().text("operations", "{\"query\": \"{ __typename }\"}");
                    app.post("/graphql").multipart(form)
                },
                400,
                "BAD_REQUEST",
                "não é uma requisição multipart de GraphQL: falta a parte `map`",
                "not a GraphQL multipart request: the `map` part is missing",
            ),
        ];
        for (request, status, code, portuguese, english) in cases {
            assert_eq!(
                answer(None, request(&app)).await,
                (status, code.to_owned(), portuguese.to_owned())
            );
            assert_eq!(
                answer(Some("en"), request(&app)).await,
                (status, code.to_owned(), english.to_owned())
            );
            assert_eq!(answer(Some("pt-BR"), request(&app)).await.2, portuguese);
        }
    })
    .await;
    // Introspection switched off.
    crate::helpers::on_each_backend_with(
        false,
        |s| s.introspection = false,
        |app| async move {
            let q = json!({ "query": "{ __schema { queryType { name } } }" });
            let (pt, code) = (app.post("/graphql").json(&q).send().await.expect("answer").json::<Value>().await)
                .map(|b| (b["errors"][0]["message"].clone(), b["errors"][0]["extensions"]["code"].clone()))
                .expect("json");
            assert_eq!(code, "INTROSPECTION_DISABLED");
            assert_eq!(
                pt,
                "a introspecção (`__schema`, `__type`) está desligada neste servidor; gere os clientes a partir de \
                 schema.graphql"
            );
            let en = app.post("/graphql").header("accept-language", "en").json(&q).send().await.expect("answer");
            let en: Value = en.json().await.expect("json");
            assert_eq!(
                en["errors"][0]["message"],
                "introspection (`__schema`, `__type`) is switched off on this server; generate clients from schema.graphql"
            );
        },
    )
    .await;
}

/// A subscriptions' socket opened without a valid key is closed with 4403 and says why in Portuguese by default, in
/// English with the upgrade's `Accept-Language: en` or a `lang` in `connection_init` (issue 43).
#[tokio::test]
async fn a_refused_sockets_reason_is_portuguese_by_default_and_english_on_request() {
    use futures::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};
    on_each_backend(false, |app| async move {
        let url = format!("{}/graphql/ws", app.base.replace("http://", "ws://"));
        let refused = |accept_language: Option<&'static str>, payload: Value| {
            let url = url.clone();
            async move {
                let mut request = url.into_client_request().expect("request");
                request.headers_mut().insert(
                    "Sec-WebSocket-Protocol",
                    "graphql-transport-ws".parse().expect("header"),
                );
                if let Some(l) = accept_language {
                    request
                        .headers_mut()
                        .insert("Accept-Language", l.parse().expect("header"));
                }
                let (mut ws, _) = tokio_tungstenite::connect_async(request).await.expect("websocket");
                let init = json!({ "type": "connection_init", "payload": payload });
                ws.send(Message::text(init.to_string())).await.expect("sent");
                loop {
                    match tokio::time::timeout(std::time::Duration::from_secs(10), ws.next()).await {
                        Ok(Some(Ok(Message::Close(Some(frame))))) => {
                            return (u16::from(frame.code), frame.reason.as_str().to_owned());
                        }
                        Ok(Some(Ok(_))) => continue,
                        other => panic!("a close frame, not {other:?}"),
                    }
                }
            }
        };
        let pt = "UNAUTHENTICATED: envie uma chave de API no connection_init (\"authorization\": \"Bearer …\")";
        let en = "UNAUTHENTICATED: send an API key in connection_init (\"authorization\": \"Bearer …\")";
        assert_eq!(refused(None, json!({})).await, (4403, pt.to_owned()));
        assert_eq!(refused(Some("en"), json!({})).await, (4403, en.to_owned()));
        assert_eq!(
            refused(None, json!({ "lang": "en", "apiKey": "fmt_not_a_key" })).await,
            (4403, en.to_owned())
        );
        assert_eq!(
            refused(Some("en"), json!({ "lang": "pt-BR" })).await,
            (4403, pt.to_owned())
        );
    })
    .await;
}
