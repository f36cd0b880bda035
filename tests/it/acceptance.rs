//! Defects found in acceptance (issue 11): a ceiling flag on both backends (a `SUM` decoded alike), bounded attempts
//! with backoff and `FAILED` in words for the bank, the filled template, Portuguese answers, `asOf`, and the graph's
//! answers to bad input.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::{
    helpers::{TestApp, on_each_backend},
    reports::{C, count, cpf, ctx, good_row, report, seed_bb, upload, workbook},
};
use chrono::{Duration, Utc};
use jobs::report::ingest::{self, Fault, UploadContext};
use sea_orm::{DbErr, EntityTrait, RuntimeErr};
use serde_json::json;
use std::sync::Arc;

/// The ingestion context of `app` with a fault injected into its applier.
fn faulty(
    app: &TestApp,
    fault: impl Fn(&entity::bank_report::Model) -> Option<DbErr> + Send + Sync + 'static,
) -> UploadContext {
    UploadContext {
        fault: Some(Fault(Arc::new(fault))),
        ..ctx(app, "faulty-worker")
    }
}

/// An error that can pass: PostgreSQL's serialization failure, as sqlx words it.
fn serialization_failure() -> DbErr {
    DbErr::Exec(RuntimeErr::Internal(
        "error returned from database: could not serialize access due to concurrent update".into(),
    ))
}

pub(crate) async fn stored(app: &TestApp, id: i64) -> entity::bank_report::Model {
    entity::bank_report::Entity::find_by_id(id)
        .one(&app.db)
        .await
        .expect("read")
        .expect("the report")
}

/// Three cartas of one borrower, R$ 18 M in all, over the R$ 15 M ceiling.
fn over_the_ceiling() -> Vec<u8> {
    workbook(&[
        good_row("CEIL-1", cpf(71), 6_000_000.0),
        good_row("CEIL-2", cpf(71), 6_000_000.0),
        good_row("CEIL-3", cpf(71), 6_000_000.0),
        good_row("CEIL-4", cpf(72), 10_000.0),
    ])
}

#[tokio::test]
async fn a_report_that_puts_a_group_over_the_ceiling_is_ingested_with_its_flags() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let (status, body) = upload(&app, "BB", "2019-05", "teto.xlsx", over_the_ceiling()).await;
        assert_eq!(status, 201, "{body}");
        let run = ingest::run_once(&app.runtime.ctx, Utc::now()).await.expect("ingest");
        assert_eq!((run.processed, run.failed), (1, 0), "{}", run.message);
        let rep = report(&app, &body["id"]).await;
        assert_eq!(rep["status"], "INGESTED", "{rep}");
        let flags = entity::compliance_flag::Entity::find()
            .all(&app.db)
            .await
            .expect("flags");
        let ceiling: Vec<_> = flags.iter().filter(|f| f.rule_code == "FCO-CEILING").collect();
        assert_eq!(ceiling.len(), 3, "one flag on each of the borrower's cartas: {flags:?}");
        assert!(
            ceiling
                .iter()
                .all(|f| service::l10n::flag_message(f, service::messages::Lang::PtBr)
                    .contains("soma R$ 18.000.000,00 aprovados e contratados, acima do teto de R$ 15.000.000,00")),
            "the group's total is in the flag: {ceiling:?}"
        );
        ceiling_forms_agree(&app).await;
    })
    .await;
}

/// FCO-CEILING has two forms: the set-based statement the ingestion runs over a whole report
/// (`service::ceiling::cartas_over`) and the pure rule that judges one carta from its facts (`compliance` in the
/// graph). On every committed carta they must agree at the legal ceiling; the set-based form's boundaries (a zero
/// ceiling, a group's own total) are checked too.
async fn ceiling_forms_agree(app: &TestApp) {
    use entity::{fco_carta, rules::Status};
    use sea_orm::TransactionTrait;
    use service::compliance::{self, Basis, DbFacts};
    let cartas = fco_carta::Entity::find().all(&app.db).await.expect("cartas");
    let committed: Vec<_> = cartas
        .iter()
        .filter(|c| fco_carta::COMMITTED.contains(&c.stage))
        .collect();
    assert!(committed.len() >= 3, "the sheet commits several cartas");
    let params = service::parameters::params(&app.db).await.expect("params");
    let calendar = service::parameters::calendar(&app.db).await.expect("calendar");
    let basis = Basis {
        params: &params,
        calendar: &calendar,
        texts: entity::rules::Texts::Written,
    };
    let mut violated = std::collections::BTreeSet::new();
    for c in &committed {
        let as_of = chrono::NaiveDate::from_ymd_opt(2019, 6, 1).expect("date");
        let (outcomes, _) = compliance::judge_carta(&DbFacts(&app.db), basis, c, as_of)
            .await
            .expect("rules");
        let o = outcomes.iter().find(|o| o.code == "FCO-CEILING").expect("FCO-CEILING");
        if o.status == Status::Violated {
            violated.insert(c.id);
        }
    }
    assert!(!violated.is_empty(), "the pure rule sees the group over R$ 15 M");
    let txn = app.db.begin().await.expect("txn");
    let legal = 15_000_000 * 100; // R$ 15 M in centavos
    let set_based: std::collections::BTreeSet<i64> = service::ceiling::cartas_over(&txn, None, legal)
        .await
        .expect("set-based")
        .into_iter()
        .map(|o| o.carta_id)
        .filter(|id| committed.iter().any(|c| c.id == *id))
        .collect();
    assert_eq!(
        set_based, violated,
        "both forms flag the same committed cartas at R$ 15 M"
    );
    // At a ceiling of zero every group with a committed carta is over it, in both forms' terms; at the largest
    // group total none is.
    let everyone: std::collections::BTreeSet<i64> = service::ceiling::cartas_over(&txn, None, 0)
        .await
        .expect("set-based")
        .into_iter()
        .map(|o| o.carta_id)
        .collect();
    assert!(
        committed.iter().all(|c| everyone.contains(&c.id)),
        "every committed carta is over a zero ceiling"
    );
    let highest = service::ceiling::cartas_over(&txn, None, 0)
        .await
        .expect("set-based")
        .iter()
        .map(|o| o.group_total_cents)
        .max()
        .expect("a group");
    assert!(
        service::ceiling::cartas_over(&txn, None, highest)
            .await
            .expect("set-based")
            .is_empty(),
        "no group is over its own total"
    );
    txn.rollback().await.expect("rollback");
}

#[tokio::test]
async fn a_report_whose_ingestion_keeps_failing_ends_failed_after_its_attempts_and_is_not_claimed_again() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let bytes = workbook(&[good_row("F-1", cpf(1), 5000.0), good_row("F-2", cpf(2), 6000.0)]);
        let (_, body) = upload(&app, "BB", "2019-05", "f.xlsx", bytes.clone()).await;
        let id = body["number"].as_i64().expect("id");
        let worker = faulty(&app, |_| Some(serialization_failure()));
        assert_eq!(worker.max_attempts, 3, "three attempts by default");
        let t0 = Utc::now();

        let run = ingest::run_once(&worker, t0).await.expect("run");
        assert_eq!(run.processed, 0, "{}", run.message);
        let r = stored(&app, id).await;
        assert_eq!((r.status.as_str(), r.attempts), ("PROCESSING", 1));
        assert!(
            r.last_error.as_deref().unwrap_or("").contains("could not serialize"),
            "{r:?}"
        );
        // Waiting out the backoff: 30 s after the first attempt, then 60 s.
        ingest::run_once(&worker, t0 + Duration::seconds(29))
            .await
            .expect("run");
        assert_eq!(stored(&app, id).await.attempts, 1, "not tried again before 30 s");
        let t1 = t0 + Duration::seconds(31);
        ingest::run_once(&worker, t1).await.expect("run");
        assert_eq!(stored(&app, id).await.attempts, 2);
        ingest::run_once(&worker, t1 + Duration::seconds(59))
            .await
            .expect("run");
        assert_eq!(stored(&app, id).await.attempts, 2, "the backoff doubled");
        let t2 = t1 + Duration::seconds(61);
        let run = ingest::run_once(&worker, t2).await.expect("run");
        assert_eq!(run.failed, 1, "{}", run.message);
        let r = stored(&app, id).await;
        assert_eq!((r.status.as_str(), r.attempts), ("FAILED", 3));
        // Never claimed again, however long one waits.
        ingest::run_once(&worker, t2 + Duration::days(1)).await.expect("run");
        assert_eq!(stored(&app, id).await.attempts, 3);
        assert_eq!(
            count::<entity::fco_carta::Entity>(&app).await,
            0,
            "nothing half-applied"
        );

        // The bank sees FAILED, why in its words, and the reference for the operator.
        let rep = app
            .data(
                "query R($id: ID!) { bankReport(id: $id) { status attempts failure { message reference attempts } } }",
                json!({ "id": body["id"] }),
            )
            .await["bankReport"]
            .clone();
        assert_eq!(rep["status"], "FAILED", "{rep}");
        assert_eq!(rep["failure"]["attempts"], 3);
        assert_eq!(rep["failure"]["reference"], format!("FOMENTO-R{id}-T3"));
        let message = rep["failure"]["message"].as_str().unwrap_or("");
        assert!(
            message.contains("nada foi aplicado") && !message.contains("serialize"),
            "{message}"
        );
        let listed = app
            .data(
                "{ bankReports(statuses: [FAILED], first: 5) { nodes { number } } }",
                json!({}),
            )
            .await;
        assert_eq!(listed["bankReports"]["nodes"][0]["number"], id);

        // The same bytes again queue it for a new set of attempts, and say so; this time it goes through.
        let (status, again) = upload(&app, "BB", "2019-05", "f.xlsx", bytes).await;
        assert_eq!(status, 202, "{again}");
        assert_eq!(
            (again["number"].as_i64(), again["requeued"].as_bool()),
            (Some(id), Some(true)),
            "{again}"
        );
        assert_eq!(again["status"], "RECEIVED");
        let run = ingest::run_once(&app.runtime.ctx, t2 + Duration::days(1))
            .await
            .expect("run");
        assert_eq!(run.processed, 1, "{}", run.message);
        let r = stored(&app, id).await;
        assert_eq!((r.status.as_str(), r.attempts), ("INGESTED", 1));
        assert_eq!(count::<entity::fco_carta::Entity>(&app).await, 2);
    })
    .await;
}

#[tokio::test]
async fn an_error_that_cannot_pass_fails_the_report_at_once() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let (_, body) = upload(&app, "BB", "2019-05", "p.xlsx", over_the_ceiling()).await;
        let id = body["number"].as_i64().expect("id");
        let worker = faulty(&app, |_| {
            Some(DbErr::Custom("column \"no_such_column\" does not exist".into()))
        });
        let run = ingest::run_once(&worker, Utc::now()).await.expect("run");
        assert_eq!(run.failed, 1, "{}", run.message);
        let r = stored(&app, id).await;
        assert_eq!((r.status.as_str(), r.attempts), ("FAILED", 1), "{r:?}");
        assert_eq!(count::<entity::fco_carta::Entity>(&app).await, 0, "rolled back");
        assert_eq!(count::<entity::compliance_flag::Entity>(&app).await, 0, "rolled back");
        assert_eq!(count::<entity::party::Entity>(&app).await, 0, "rolled back");
    })
    .await;
}

#[tokio::test]
async fn a_transient_failure_is_tried_again_and_then_succeeds() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let rows: Vec<Vec<C>> = (0..7000)
            .map(|i| good_row(&format!("T-{i}"), cpf(i % 90 + 1), 5000.0))
            .collect();
        let (_, body) = upload(&app, "BB", "2019-05", "t.xlsx", workbook(&rows)).await;
        let id = body["number"].as_i64().expect("id");
        // The first attempt fails after its batches were written; the second goes through.
        let worker = faulty(&app, |r| {
            (r.attempts == 1).then(|| DbErr::ConnectionAcquire(sea_orm::error::ConnAcquireErr::ConnectionClosed))
        });
        let t0 = Utc::now();
        ingest::run_once(&worker, t0).await.expect("run");
        assert_eq!(
            count::<entity::fco_carta::Entity>(&app).await,
            0,
            "the failed attempt left nothing"
        );
        let run = ingest::run_once(&worker, t0 + Duration::seconds(31))
            .await
            .expect("run");
        assert_eq!(run.processed, 1, "{}", run.message);
        let r = stored(&app, id).await;
        assert_eq!(
            (r.status.as_str(), r.attempts, r.row_count),
            ("INGESTED", 2, Some(7000))
        );
        assert_eq!(count::<entity::fco_carta::Entity>(&app).await, 7000);
    })
    .await;
}

/// The template as a bank fills it: its own header and row of notes kept, the cartas typed below the notes.
#[tokio::test]
async fn the_downloaded_template_filled_below_its_notes_ingests() {
    use jobs::report::read::Cell;
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let t = app.get("/bank-reports/template.xlsx").send().await.expect("answer");
        let cells = jobs::report::read::read(&t.bytes().await.expect("bytes"), &Default::default()).expect("xlsx");
        let text = |c: &Cell| match c {
            Cell::Text(t) => t.clone(),
            _ => String::new(),
        };
        let headers: Vec<String> = cells[0].iter().map(text).collect();
        let notes: Vec<String> = cells[1].iter().map(text).collect();
        assert!(
            notes[0].starts_with("obrigatório — "),
            "the notes are for Brazilian banks: {notes:?}"
        );
        let value = |header: &str, n: u32| -> C {
            match header {
                "Nº da Carta-Consulta" => C::S(format!("TPL-{n}")),
                "Tomador" => C::S(format!("Produtora {n} Ltda")),
                "CPF/CNPJ" => C::S(cpf(300 + n)),
                "Código IBGE" => C::T("5107925"),
                "Programa/Linha" => C::T("FCO Rural"),
                "Atividade" => C::T("Piscicultura"),
                "Finalidade" => C::T("Investimento"),
                "Valor Financiado (R$)" => C::N(250_000.0 + f64::from(n)),
                "Data de Aprovação" => C::D(2019, 4, 2),
                "Data de Contratação" => C::T("20/05/2019"),
                "Prazo (meses)" => C::N(96.0),
                "Carência (meses)" => C::N(24.0),
                _ => C::E,
            }
        };
        let mut rows: Vec<Vec<C>> = vec![
            headers.iter().map(|h| C::S(h.clone())).collect(),
            notes.iter().map(|h| C::S(h.clone())).collect(),
        ];
        rows.extend((1..=3).map(|n| headers.iter().map(|h| value(h, n)).collect()));
        let (status, body) = upload(&app, "BB", "2019-05", "modelo-preenchido.xlsx", plain_workbook(&rows)).await;
        assert_eq!(status, 201, "{body}");
        ingest::run_once(&app.runtime.ctx, Utc::now()).await.expect("ingest");
        let rep = report(&app, &body["id"]).await;
        assert_eq!(rep["status"], "INGESTED", "the notes row is not data: {rep}");
        assert_eq!(rep["rowCount"], 3, "{rep}");
    })
    .await;
}

/// A workbook of exactly these rows, from the first row.
fn plain_workbook(rows: &[Vec<C>]) -> Vec<u8> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    let date = rust_xlsxwriter::Format::new().set_num_format("dd/mm/yyyy");
    for (i, row) in rows.iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            let (r, col) = (i as u32, j as u16);
            match c {
                C::T(t) => drop(ws.write_string(r, col, *t).expect("write")),
                C::S(t) => drop(ws.write_string(r, col, t).expect("write")),
                C::N(n) => drop(ws.write_number(r, col, *n).expect("write")),
                C::D(y, m, d) => drop(
                    ws.write_datetime_with_format(
                        r,
                        col,
                        rust_xlsxwriter::ExcelDateTime::from_ymd(*y, *m, *d).expect("date"),
                        &date,
                    )
                    .expect("write"),
                ),
                C::E => {}
            }
        }
    }
    wb.save_to_buffer().expect("xlsx")
}

async fn seed_mt_bank(app: &TestApp) -> serde_json::Value {
    seed_bb(app).await;
    app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone()
}

fn status_of<'a>(list: &'a serde_json::Value, code: &str) -> &'a serde_json::Value {
    list.as_array()
        .and_then(|l| l.iter().find(|o| o["ruleCode"] == code))
        .map(|o| &o["status"])
        .unwrap_or(&serde_json::Value::Null)
}

/// `asOf` means "as known on that day": a carta walked through dates before, between and after its events, and a
/// group total that counts only the cartas approved by then.
#[tokio::test]
async fn as_of_reads_only_what_was_known_on_that_day_for_a_carta() {
    on_each_backend(false, |app| async move {
        let bb = seed_mt_bank(&app).await;
        let create = "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }";
        let new = |number: &str, amount: &str| json!({ "i": { "number": number, "bankId": bb, "borrowerDocument": "529.982.247-25",
            "borrowerName": "João Silva", "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": amount, "municipalityCode": 5107909 } });
        let step = |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ id }} }}");
        let id = app.data(create, new("ASOF-1", "1500000.00")).await["createFcoCarta"]["id"].clone();
        app.data(&step("submitFcoCarta", ", on: \"2024-02-20\""), json!({ "id": id })).await;
        app.data(&step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: true, on: \"2024-02-27\""), json!({ "id": id })).await;
        app.data(&step("contractFcoCarta", ", on: \"2024-04-01\""), json!({ "id": id })).await;
        // A second carta of the same borrower, approved later.
        let late = app.data(create, new("ASOF-2", "700000.00")).await["createFcoCarta"]["id"].clone();
        app.data(&step("submitFcoCarta", ", on: \"2024-05-02\""), json!({ "id": late })).await;
        app.data(&step("decideFcoCarta", ", decision: FAVOURABLE, byChamber: false, on: \"2024-05-10\""), json!({ "id": late }))
            .await;

        let q = "query Q($id: ID!, $d: Date!) { node(id: $id) { ... on FcoCarta {
            deadlines(asOf: $d) { ruleCode status countingNote } compliance(asOf: $d) { ruleCode status explanation } } } }";
        let at = |d: &'static str| {
            let (app, id) = (&app, id.clone());
            async move { app.data(q, json!({ "id": id, "d": d })).await["node"].clone() }
        };
        let before = at("2024-02-20").await;
        let validity = |n: &serde_json::Value| status_of(&n["deadlines"], "FCO-VALIDITY-120D").clone();
        assert_eq!(validity(&before), "NOT_STARTED", "not yet approved on 2024-02-20: {before}");
        let between = at("2024-03-15").await;
        assert_eq!(validity(&between), "PENDING", "approved by the chamber, not yet presented to the bank: {between}");
        let note = between["deadlines"].as_array().expect("deadlines").iter()
            .find(|d| d["ruleCode"] == "FCO-VALIDITY-120D").expect("validity")["countingNote"].as_str().unwrap_or("").to_owned();
        assert!(note.contains("26/06/2024") && !note.contains("Cumprido em"), "{note}");
        assert_eq!(validity(&at("2024-04-01").await), "MET", "contracted that day, so presented by then");
        // The ceiling counts the borrower's other carta only once it was approved.
        let ceiling = |n: &serde_json::Value| {
            n["compliance"].as_array().expect("outcomes").iter().find(|o| o["ruleCode"] == "FCO-CEILING")
                .expect("FCO-CEILING")["explanation"].as_str().unwrap_or("").to_owned()
        };
        let alone = ceiling(&at("2024-05-09").await);
        assert!(alone.contains("somam R$ 1.500.000,00 "), "{alone}");
        let both = ceiling(&at("2024-05-10").await);
        assert!(both.contains("somam R$ 2.200.000,00 "), "{both}");
    })
    .await;
}

#[tokio::test]
async fn as_of_reads_only_what_was_known_on_that_day_for_a_project() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BNDES").await;
        let bndes = app.data("{ bankByCode(code: \"BNDES\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let id = app
            .data(
                "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
                json!({ "i": { "title": "Usina", "bankId": bndes, "producerDocument": "11.222.333/0001-81",
                    "producerName": "Biodiesel Cerrado S.A.", "plantMunicipalityCode": 2611101, "requestedAmount": "1000.00", "bankFramedOn": "2014-10-01" } }),
            )
            .await["createSocialFuelProject"]["id"]
            .clone();
        for kind in ["REQUEST_LETTER", "BANK_FRAMING_LETTER", "SOCIAL_FUEL_PROJECT", "FARMER_CONTRACT", "CNPJ_REGISTRATION", "GOOD_STANDING_DECLARATION"] {
            app.data("mutation D($id: ID!, $k: ProjectDocumentKind!) { addProjectDocument(projectId: $id, kind: $k, receivedOn: \"2014-10-08\") { kind } }", json!({ "id": id, "k": kind })).await;
        }
        let step = |name: &str, extra: &str| format!("mutation M($id: ID!) {{ {name}(id: $id{extra}) {{ id }} }}");
        app.data(&step("fileSocialFuelProject", ", on: \"2014-10-09\""), json!({ "id": id })).await;
        app.data(&step("decideSocialFuelProject", ", decision: FAVOURABLE, on: \"2014-11-02\", letter: \"Ofício 9/2014\", overrideReason: \"sem propostas registradas neste teste\""), json!({ "id": id })).await;
        let q = "query Q($id: ID!, $d: Date!) { node(id: $id) { ... on SocialFuelProject {
            deadlines(asOf: $d) { ruleCode status } compliance(asOf: $d) { ruleCode status explanation } } } }";
        let at = |d: &'static str| {
            let (app, id) = (&app, id.clone());
            async move { app.data(q, json!({ "id": id, "d": d })).await["node"].clone() }
        };
        let before = at("2014-10-01").await;
        assert_eq!(status_of(&before["deadlines"], "SF-DECISION-30D"), "NOT_STARTED", "{before}");
        assert_eq!(status_of(&before["compliance"], "SF-BANK-FIRST"), "MET", "framed that day, not filed: {before}");
        assert_eq!(status_of(&before["compliance"], "SF-DOCUMENTS"), "PENDING", "no document received yet");
        let filed = at("2014-10-20").await;
        assert_eq!(status_of(&filed["deadlines"], "SF-DECISION-30D"), "PENDING", "filed, not yet decided: {filed}");
        assert_eq!(status_of(&at("2014-11-02").await["deadlines"], "SF-DECISION-30D"), "MET");
    })
    .await;
}

/// Before a rule's first parameter version the answer is NOT_APPLICABLE with the reason, never an error; a version
/// recorded wrongly is refused by its unit, and one in force can be corrected or withdrawn, kept in the history.
#[tokio::test]
async fn dates_before_the_rules_and_parameter_versions_are_answered_not_failed() {
    on_each_backend(true, |app| async move {
        let (status, body) = app
            .gql("{ bankByCode(code: \"BB\") { deadlines(asOf: \"2019-01-01\") { ruleCode status countingNote } } }", json!({}))
            .await;
        assert_eq!(status, 200);
        assert!(body.get("errors").is_none(), "{body}");
        let dl = &body["data"]["bankByCode"]["deadlines"];
        assert_eq!(status_of(dl, "FCO-MONTHLY-LIST"), "NOT_APPLICABLE", "{dl}");
        // Portuguese by default (issue 43).
        assert!(dl.to_string().contains("não se aplica em 01/01/2019: nenhuma versão do parâmetro FCO-MONTHLY-LIST.MONTHS"), "{dl}");
        let drafts = app
            .data("{ fcoCartas(first: 3, filter: { stages: [DRAFT] }) { nodes { compliance(asOf: \"2019-03-19\") { ruleCode status explanation } } } }", json!({}))
            .await;
        let outcomes = &drafts["fcoCartas"]["nodes"][0]["compliance"];
        assert_eq!(status_of(outcomes, "FCO-CEILING"), "NOT_APPLICABLE", "{outcomes}");

        // A version of 30.5 days is refused; one of 45 days is accepted, then withdrawn, and the 30 days apply again.
        let add = "mutation A($v: Decimal!) { addRuleParameterVersion(key: \"SF-DECISION-30D.DAYS\", value: $v, unit: \"DAYS\",
            effectiveFrom: \"2024-01-01\", legalSource: \"Portaria X\") { versionId value } }";
        let (message, code) = app.error(add, json!({ "v": "30.5" })).await;
        assert_eq!((code.as_str(), message.contains("whole number")), ("BAD_USER_INPUT", true), "{message}");
        let v = app.data(add, json!({ "v": "45" })).await["addRuleParameterVersion"]["versionId"].clone();
        let fixed = app
            .data(
                "mutation F($id: Int!) { correctRuleParameterVersion(versionId: $id, value: \"40\", reason: \"typo\") { versionId value } }",
                json!({ "id": v }),
            )
            .await;
        let corrected = fixed["correctRuleParameterVersion"]["versionId"].clone();
        assert_eq!(fixed["correctRuleParameterVersion"]["value"], "40");
        let history = app
            .data("{ ruleParameters(rule: \"SF-DECISION-30D.DAYS\", includeWithdrawn: true) { versionId value withdrawnAt withdrawalReason replacedBy } }", json!({}))
            .await;
        let old = history["ruleParameters"].as_array().expect("versions").iter().find(|p| p["versionId"] == v).expect("kept").clone();
        assert_eq!(old["replacedBy"], corrected, "{history}");
        assert!(old["withdrawalReason"].as_str().is_some_and(|r| r.contains("typo")), "{old}");
        assert!(old["withdrawnAt"].as_str().is_some_and(|t| t.ends_with("-03:00")), "Brasília time: {old}");
        let listed = app.data("{ ruleParameters(rule: \"SF-DECISION-30D.DAYS\") { value } }", json!({})).await;
        assert_eq!(listed["ruleParameters"].as_array().map(Vec::len), Some(2), "the baseline and the correction: {listed}");
        app.data(
            "mutation W($id: Int!) { withdrawRuleParameterVersion(versionId: $id, reason: \"never published\") { withdrawnAt } }",
            json!({ "id": corrected }),
        )
        .await;
        let (message, code) = app
            .error("mutation W($id: Int!) { withdrawRuleParameterVersion(versionId: $id, reason: \"again\") { withdrawnAt } }", json!({ "id": corrected }))
            .await;
        assert_eq!((code.as_str(), message.contains("already withdrawn")), ("BAD_USER_INPUT", true), "{message}");
    })
    .await;
}

/// A version stored before values were checked by unit (30.5 days) makes the rule that needs it PENDING with the
/// reason; every other rule is still judged.
#[tokio::test]
async fn an_unusable_parameter_version_leaves_its_rule_pending_and_the_others_judged() {
    use sea_orm::{ActiveModelTrait, ActiveValue::Set};
    on_each_backend(true, |app| async move {
        entity::rule_parameter::ActiveModel {
            key: Set("SF-DECISION-30D.DAYS".into()),
            rule_code: Set("SF-DECISION-30D".into()),
            value: Set("30.5".into()),
            unit: Set("DAYS".into()),
            effective_from: Set(chrono::NaiveDate::from_ymd_opt(2006, 1, 1).expect("date")),
            legal_source: Set("a typo from before the check".into()),
            created_at: Set(Utc::now()),
            ..Default::default()
        }
        .insert(&app.db)
        .await
        .expect("stored");
        let (status, body) = app
            .gql("{ socialFuelProjects(first: 40) { nodes { compliance { ruleCode status explanation } deadlines { ruleCode status countingNote } } } }", json!({}))
            .await;
        assert_eq!(status, 200);
        assert!(body.get("errors").is_none(), "{body}");
        let nodes = body["data"]["socialFuelProjects"]["nodes"].as_array().expect("nodes").clone();
        let filed: Vec<_> = nodes.iter().filter(|n| status_of(&n["deadlines"], "SF-DECISION-30D") == "PENDING"
            && n["deadlines"].to_string().contains("30.5 DAYS")).collect();
        assert!(!filed.is_empty(), "the projects filed since 2006 wait for a usable version");
        assert!(filed.iter().all(|n| status_of(&n["compliance"], "SF-DOCUMENTS") != &serde_json::Value::Null));
    })
    .await;
}

/// Responses as the GraphQL specification says: a failed field is null beside its siblings, empty selections are
/// `{}`, bad argument and variable values are BAD_USER_INPUT with the promised status.
#[tokio::test]
async fn responses_keep_every_selected_key_and_bad_values_are_bad_user_input() {
    on_each_backend(true, |app| async move {
        // `party` is nullable: the failed one is null beside the other.
        let (status, body) = app
            .gql(
                "{ a: party(document: \"11222333000181\") { name } b: party(document: \"123\") { name } }",
                json!({}),
            )
            .await;
        assert_eq!(status, 200);
        assert!(body["data"]["a"]["name"].is_string(), "{body}");
        assert!(
            body["data"].as_object().is_some_and(|d| d.contains_key("b")) && body["data"]["b"].is_null(),
            "{body}"
        );
        assert_eq!(body["errors"][0]["path"], json!(["b"]));
        // Lookups are nullable (issue 45): a code of no bank answers null with `NOT_FOUND` and keeps its siblings.
        let (status, body) = app
            .gql(
                "{ a: bankByCode(code: \"BB\") { id } b: bankByCode(code: \"ZZ\") { id } }",
                json!({}),
            )
            .await;
        assert_eq!(status, 200);
        assert!(body["data"]["a"]["id"].is_string() && body["data"]["b"].is_null(), "{body}");
        assert_eq!(body["errors"][0]["extensions"]["code"], "NOT_FOUND");
        assert_eq!(body["errors"][0]["path"], json!(["b"]));
        // The demo's 100 oldest financings hold projects and cartas.
        let (_, body) = app
            .gql(
                "{ financings(first: 100, orderBy: { field: SUBMITTED_ON, direction: ASC }) { nodes { ... on FcoCarta { id } } } }",
                json!({}),
            )
            .await;
        let nodes = body["data"]["financings"]["nodes"].as_array().expect("nodes").clone();
        assert!(
            nodes.iter().all(|n| n.is_object()),
            "no null for an empty selection: {body}"
        );
        assert!(nodes.iter().any(|n| n == &json!({})), "projects are {{}}: {body}");

        for (query, vars) in [
            (
                "{ financings(first: 1, filter: { amountMin: \"abc\" }) { totalCount } }",
                json!({}),
            ),
            (
                "{ financings(first: 1, filter: { amountMin: \"1,000.00\" }) { totalCount } }",
                json!({}),
            ),
            (
                "{ financings(first: 1, filter: { amountMin: \"1e5\" }) { totalCount } }",
                json!({}),
            ),
            (
                "{ financings(first: 1, filter: { amountMin: \" 100\" }) { totalCount } }",
                json!({}),
            ),
            (
                "{ financings(first: 1, filter: { amountMin: \"+100\" }) { totalCount } }",
                json!({}),
            ),
            (
                "{ financings(first: 1, filter: { submittedFrom: \"2025-02-30\" }) { totalCount } }",
                json!({}),
            ),
            (
                "{ financings(first: 1, filter: { submittedFrom: \"2025-1-1\" }) { totalCount } }",
                json!({}),
            ),
            (
                "{ bankByCode(code: \"BB\") { deadlines(asOf: \"2025-13-01\") { status } } }",
                json!({}),
            ),
            (
                "query Q($d: Date!) { bankByCode(code: \"BB\") { deadlines(asOf: $d) { status } } }",
                json!({ "d": "2025-02-30" }),
            ),
            (
                "query Q($m: Decimal) { financings(first: 1, filter: { amountMin: $m }) { totalCount } }",
                json!({ "m": "1e5" }),
            ),
            (
                "query Q($n: Int) { financings(first: $n) { totalCount } }",
                json!({ "n": "x" }),
            ),
        ] {
            let (status, body) = app.gql(query, vars.clone()).await;
            assert_eq!(
                body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT",
                "{query} {vars}: {body}"
            );
            assert_eq!(
                status, 400,
                "a request error under graphql-response+json: {query} {vars}: {body}"
            );
            assert!(body.get("data").is_none(), "{body}");
        }
        // An argument that parses as an Int but not as a count fails its field (non-null lists, so `data` is null),
        // not the request.
        for (query, field) in [
            ("{ bankReports(first: -1) { nodes { number } } }", "bankReports"),
            ("{ jobRuns(first: -1) { nodes { job } } }", "jobRuns"),
        ] {
            let (status, body) = app.gql(query, json!({})).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(
                body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT",
                "{query}: {body}"
            );
            assert_eq!(body["errors"][0]["path"], json!([field]), "{body}");
            assert!(
                body.as_object().is_some_and(|b| b.contains_key("data")) && body["data"].is_null(),
                "{body}"
            );
        }
    })
    .await;
}

/// Times carry the authority's offset: a bank report's times on Cuiabá's clock.
#[tokio::test]
async fn times_are_shown_on_the_authoritys_clock() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let (_, body) = upload(
            &app,
            "BB",
            "2019-05",
            "h.xlsx",
            workbook(&[good_row("H-1", cpf(5), 1000.0)]),
        )
        .await;
        assert!(
            body["receivedAt"].as_str().is_some_and(|t| t.ends_with("-04:00")),
            "the upload's answer too: {body}"
        );
        let r = app
            .data(
                "query R($id: ID!) { bankReport(id: $id) { receivedAt } }",
                json!({ "id": body["id"] }),
            )
            .await;
        let at = r["bankReport"]["receivedAt"].as_str().expect("a time").to_owned();
        assert!(at.ends_with("-04:00"), "Cuiabá time: {at}");
        let utc = chrono::DateTime::parse_from_rfc3339(&at)
            .expect("RFC 3339")
            .with_timezone(&Utc);
        assert!((Utc::now() - utc).num_minutes().abs() < 5, "the same instant: {at}");
    })
    .await;
}

/// Bank-facing text is Portuguese by default and English with `Accept-Language: en`: a row error in the graph and in
/// `errors.xlsx`, a file error, and the REST upload's refusals.
#[tokio::test]
async fn a_bad_rows_error_reads_in_portuguese_by_default_and_in_english_on_request() {
    on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let mut bad = good_row("L-1", cpf(9), 1000.0);
        bad[2] = C::T("123.456.789-00");
        let (_, body) = upload(&app, "BB", "2019-05", "ruim.xlsx", workbook(&[bad])).await;
        let (_, empty) = upload(&app, "BB", "2019-06", "vazio.csv", Vec::new()).await;
        ingest::run_once(&app.runtime.ctx, Utc::now()).await.expect("ingest");
        let q = "query R($a: ID!, $b: ID!) { a: bankReport(id: $a) { status errors { message } }
            b: bankReport(id: $b) { fileError } }";
        let vars = json!({ "a": body["id"], "b": empty["id"] });
        let ask = |accept_language: Option<&'static str>| {
            let (app, vars) = (&app, vars.clone());
            async move {
                let mut req = app.post("/graphql").json(&json!({ "query": q, "variables": vars }));
                if let Some(l) = accept_language {
                    req = req.header("accept-language", l);
                }
                let body: serde_json::Value = req.send().await.expect("answer").json().await.expect("json");
                body["data"].clone()
            }
        };
        let pt = ask(None).await;
        assert_eq!(pt["a"]["status"], "REJECTED");
        assert_eq!(
            pt["a"]["errors"][0]["message"],
            "CPF ou CNPJ inválido: os dígitos verificadores não conferem (esperados 09, encontrados 00)"
        );
        assert_eq!(pt["b"]["fileError"], "o arquivo está vazio");
        let en = ask(Some("en-US,en;q=0.9")).await;
        assert_eq!(
            en["a"]["errors"][0]["message"],
            "not a valid CPF or CNPJ: the check digits do not match (expected 09, found 00)"
        );
        assert_eq!(en["b"]["fileError"], "the file is empty");

        // errors.xlsx: the errors column and its text follow the language.
        let number = body["number"].as_i64().expect("id");
        for (lang, title, fragment) in [
            (None, "Erros", "dígitos verificadores"),
            (Some("en"), "Errors", "check digits"),
        ] {
            let mut req = app.get(&format!("/bank-reports/{number}/errors.xlsx"));
            if let Some(l) = lang {
                req = req.header("accept-language", l);
            }
            let bytes = req.send().await.expect("answer").bytes().await.expect("bytes").to_vec();
            let cells = jobs::report::read::read(&bytes, &Default::default()).expect("xlsx");
            assert_eq!(cells[2].last().map(|c| c.display()), Some(title.to_owned()), "{lang:?}");
            assert!(
                cells[3].last().is_some_and(|c| c.display().contains(fragment)),
                "{lang:?}: {:?}",
                cells[3]
            );
        }

        // The upload's refusals.
        let form = || {
            reqwest::multipart::Form::new()
                .text("bank", "BB")
                .text("month", "2019-13")
        };
        let resp = app
            .post("/bank-reports")
            .multipart(form())
            .send()
            .await
            .expect("answer");
        assert_eq!(
            resp.headers().get("content-language").and_then(|v| v.to_str().ok()),
            Some("pt-BR")
        );
        let b: serde_json::Value = resp.json().await.expect("json");
        assert_eq!(
            (b["error"]["field"].as_str(), b["error"]["message"].as_str()),
            (Some("file"), Some("o campo `file` (xlsx, xls, ods, CSV) está faltando"))
        );
        let resp = app
            .post("/bank-reports")
            .header("accept-language", "en")
            .multipart(form().part("file", reqwest::multipart::Part::bytes(vec![1]).file_name("a.csv")))
            .send()
            .await
            .expect("answer");
        let b: serde_json::Value = resp.json().await.expect("json");
        assert_eq!(
            (b["error"]["field"].as_str(), b["error"]["message"].as_str()),
            (Some("month"), Some("\"2019-13\" is not a month in the form YYYY-MM"))
        );
    })
    .await;
}
