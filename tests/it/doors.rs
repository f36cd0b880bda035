//! The doors answer alike (issue 12): REST errors in one shape with GraphQL's codes, one configurable upload limit
//! with a `413` naming it, and the upload's `id` the global ID the graph takes.

use crate::{
    helpers::on_each_backend_with,
    reports::{cpf, good_row, seed_bb, upload, workbook},
};
use serde_json::{Value, json};

#[tokio::test]
async fn an_upload_over_the_limit_is_413_naming_the_limit_and_the_upload_id_works_in_the_graph() {
    on_each_backend_with(
        false,
        |s| s.max_upload_bytes = 64 * 1024,
        |app| async move {
            seed_bb(&app).await;
            let big = vec![b'x'; 100 * 1024];
            let form = reqwest::multipart::Form::new()
                .text("bank", "BB")
                .text("month", "2019-05")
                .part("file", reqwest::multipart::Part::bytes(big).file_name("grande.csv"));
            let resp = app
                .post("/bank-reports")
                .header("accept-language", "en")
                .multipart(form)
                .send()
                .await
                .expect("answer");
            assert_eq!(resp.status().as_u16(), 413);
            let b: Value = resp.json().await.expect("json");
            assert_eq!(b["error"]["code"], "PAYLOAD_TOO_LARGE", "{b}");
            assert!(
                b["error"]["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("65536 bytes")),
                "{b}"
            );

            // The same file through the graph's multipart upload: a 413 naming the limit too, in GraphQL's shape.
            let operations = json!({
                "query": "mutation U($f: Upload!) { uploadBankReport(bankId: \"QmFuazox\", referenceMonth: \"2019-05\", file: $f) { status } }",
                "variables": { "f": null }
            });
            let form = reqwest::multipart::Form::new()
                .text("operations", operations.to_string())
                .text("map", r#"{ "0": ["variables.f"] }"#)
                .part("0", reqwest::multipart::Part::bytes(vec![b'x'; 100 * 1024]).file_name("grande.csv"));
            let resp = app
                .post("/graphql")
                .header("accept", "application/json")
                .header("accept-language", "en")
                .multipart(form)
                .send()
                .await
                .expect("answer");
            assert_eq!(resp.status().as_u16(), 413);
            let b: Value = resp.json().await.expect("json");
            assert_eq!(b["errors"][0]["extensions"]["code"], "PAYLOAD_TOO_LARGE", "{b}");
            assert!(
                b["errors"][0]["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("65536 bytes")),
                "{b}"
            );

            // Within the limit: the answer's `id` is what `bankReport(id:)` takes; `number` is the sequence number,
            // and errors.xlsx takes either.
            let (status, body) = upload(
                &app,
                "BB",
                "2019-05",
                "ok.xlsx",
                workbook(&[good_row("D-1", cpf(1), 10.0)]),
            )
            .await;
            assert_eq!(status, 201, "{body}");
            let r = app
                .data(
                    "query R($id: ID!) { bankReport(id: $id) { id number } }",
                    json!({ "id": body["id"] }),
                )
                .await;
            assert_eq!(
                (&r["bankReport"]["id"], &r["bankReport"]["number"]),
                (&body["id"], &body["number"])
            );
            for key in [body["id"].as_str().expect("id").to_owned(), body["number"].to_string()] {
                let resp = app
                    .get(&format!("/bank-reports/{key}/errors.xlsx"))
                    .send()
                    .await
                    .expect("answer");
                assert_eq!(resp.status().as_u16(), 200, "{key}");
            }

            // Every REST refusal has the one shape, with GraphQL's codes.
            let resp = app
                .get("/bank-reports/999999/errors.xlsx")
                .send()
                .await
                .expect("answer");
            assert_eq!(resp.status().as_u16(), 404);
            let b: Value = resp.json().await.expect("json");
            assert_eq!(
                (b["error"]["code"].as_str(), b["error"]["field"].as_str()),
                (Some("NOT_FOUND"), Some("id")),
                "{b}"
            );
            let (status, b) = upload(&app, "ZZ", "2019-05", "a.csv", vec![1]).await;
            assert_eq!((status, b["error"]["code"].as_str()), (404, Some("NOT_FOUND")), "{b}");
            let (status, b) = upload(&app, "BB", "2019-5", "a.csv", vec![1]).await;
            assert_eq!(
                (status, b["error"]["code"].as_str(), b["error"]["field"].as_str()),
                (400, Some("BAD_USER_INPUT"), Some("month")),
                "{b}"
            );
        },
    )
    .await;
}

/// `fomento jobs list` reads the registry: the ingestion job with its schedule, time zone, last run and next run.
#[tokio::test]
async fn the_jobs_list_shows_the_ingestion_job_with_its_last_and_next_run() {
    crate::helpers::on_each_backend(false, |app| async move {
        let now = chrono::DateTime::parse_from_rfc3339("2026-12-03T10:15:30Z")
            .expect("t")
            .with_timezone(&chrono::Utc);
        let defaults = jobs::registry::Schedules::default();
        let before = fomento_api::runtime::jobs_table(&app.db, &defaults, now, service::messages::Lang::En)
            .await
            .expect("table");
        let line = before
            .lines()
            .find(|l| l.starts_with("ingest "))
            .expect("the ingestion job is listed");
        assert!(
            line.contains("0 * * * * *") && line.contains("America/Sao_Paulo"),
            "{line}"
        );
        assert!(
            line.contains("never") && line.contains("2026-12-03 07:16 (-03:00)"),
            "next run, Brasília time: {line}"
        );
        let flags = before
            .lines()
            .find(|l| l.starts_with("flag-deadlines "))
            .expect("the deadline flags job is listed");
        assert!(
            flags.contains("0 0 6 * * *") && flags.contains("never") && flags.contains("2026-12-04 06:00 (-03:00)"),
            "daily at 06:00 in Brasília, already past on the 3rd: {flags}"
        );
        fomento_api::runtime::scheduled_ingest(&app.runtime, "manual:test")
            .await
            .expect("run");
        let after = fomento_api::runtime::jobs_table(&app.db, &defaults, now, service::messages::Lang::En)
            .await
            .expect("table");
        let line = after.lines().find(|l| l.starts_with("ingest ")).expect("listed");
        assert!(
            line.contains("SUCCEEDED") && !line.contains("never"),
            "the last run: {line}"
        );

        // A schedule replaced on the command line (`--schedule NAME=CRON@ZONE`, or FOMENTO_SCHEDULES) is the one
        // listed, and the one the scheduler uses.
        use clap::Parser;
        let cli = fomento_api::config::Cli::try_parse_from([
            "fomento",
            "--schedule",
            "import=0 0 6 * * *@America/Cuiaba",
            "jobs",
            "list",
        ])
        .expect("args");
        let schedules = jobs::registry::Schedules::with_overrides(&cli.schedules).expect("schedules");
        let table = fomento_api::runtime::jobs_table(&app.db, &schedules, now, service::messages::Lang::En)
            .await
            .expect("table");
        let line = table
            .lines()
            .find(|l| l.starts_with("import "))
            .expect("the import job is listed");
        assert!(
            line.contains("0 0 6 * * *")
                && line.contains("America/Cuiaba")
                && line.contains("2026-12-04 07:00 (-03:00)"),
            "06:00 in Cuiabá is 07:00 in Brasília: {line}"
        );
        let bad = jobs::registry::Schedules::with_overrides(&["imports=0 * * * * *".into()]).expect_err("unknown job");
        assert!(bad.contains("the jobs are: ingest, import"), "{bad}");
    })
    .await;
}

/// `complianceFlags` lists what the ingestion's cross-checks found, filtered, in keyset pages that stay put when a flag
/// is raised between two requests; each carta shows its own `flags`.
#[tokio::test]
async fn compliance_flags_list_the_ingestions_flags_in_stable_pages() {
    use sea_orm::{ActiveModelTrait, ActiveValue::Set};
    crate::helpers::on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        // Four cartas of R$ 1.5 M that never went to the chamber: four FCO-CHAMBER-THRESHOLD flags.
        let rows: Vec<_> = (1..=4).map(|i| good_row(&format!("FL-{i}"), cpf(40 + i), 1_500_000.0)).collect();
        let (_, body) = upload(&app, "BB", "2019-05", "f.xlsx", workbook(&rows)).await;
        jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now()).await.expect("ingest");
        let bb = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let q = "query F($f: ComplianceFlagFilter, $first: Int, $after: String) {
            complianceFlags(filter: $f, first: $first, after: $after) { totalCount
              pageInfo { hasNextPage endCursor }
              nodes { number ruleCode severity open source bankReport { id }
                subject { __typename ... on FcoCarta { number flags { ruleCode } } } } } }";
        let filter = json!({ "ruleCodes": ["FCO-CHAMBER-THRESHOLD"], "bankIds": [bb], "programmes": ["FCO_RURAL"], "open": true });
        let all = app.data(q, json!({ "f": filter, "first": 10 })).await["complianceFlags"].clone();
        assert_eq!(all["totalCount"], 4, "{all}");
        let first = &all["nodes"][0];
        assert_eq!((first["severity"].as_str(), first["open"].as_bool()), (Some("VIOLATION"), Some(true)));
        assert_eq!(first["bankReport"]["id"], body["id"], "the report that raised it");
        assert_eq!(first["subject"]["__typename"], "FcoCarta");
        assert_eq!(first["subject"]["flags"][0]["ruleCode"], "FCO-CHAMBER-THRESHOLD", "the carta's own flags");
        let none = app
            .data(q, json!({ "f": { "ruleCodes": ["FCO-CEILING"] }, "first": 10 }))
            .await;
        assert_eq!(none["complianceFlags"]["totalCount"], 0);

        // Page 1 of 2, then a flag is raised, then page 2: the same items as before the insert.
        let page1 = app.data(q, json!({ "f": filter, "first": 2 })).await["complianceFlags"].clone();
        assert_eq!(page1["pageInfo"]["hasNextPage"], true);
        let newest = all["nodes"][0]["number"].as_i64().expect("number");
        let model = <entity::compliance_flag::Entity as sea_orm::EntityTrait>::find_by_id(newest)
            .one(&app.db)
            .await
            .expect("read")
            .expect("flag");
        entity::compliance_flag::ActiveModel {
            programme: Set(model.programme),
            financing_id: Set(model.financing_id),
            rule_code: Set("FCO-CHAMBER-THRESHOLD".into()),
            legal_basis: Set(model.legal_basis.clone()),
            message: Set("raised between two page requests".into()),
            source: Set("test".into()),
            raised_at: Set(chrono::Utc::now()),
            ..Default::default()
        }
        .insert(&app.db)
        .await
        .expect("a new flag");
        let page2 = app
            .data(q, json!({ "f": filter, "first": 2, "after": page1["pageInfo"]["endCursor"] }))
            .await["complianceFlags"]
            .clone();
        let numbers = |v: &Value| v["nodes"].as_array().expect("nodes").iter().map(|n| n["number"].clone()).collect::<Vec<_>>();
        assert_eq!(numbers(&page2), numbers(&all)[2..4].to_vec(), "page 2 did not shift");
        assert_eq!(page2["pageInfo"]["hasNextPage"], false);
        assert_eq!(page2["totalCount"], 5, "the count sees the new flag");
    })
    .await;
}

/// Each report keeps the cartas it declared; `droppedCartas` lists what the month before declared and this one does
/// not; a stage change a list causes is a history row naming the report, and a carta a list created shows its creation.
#[tokio::test]
async fn reports_keep_what_they_declared_and_lists_write_the_cartas_history() {
    use crate::reports::C;
    crate::helpers::on_each_backend(false, |app| async move {
        seed_bb(&app).await;
        let approved_only = |n: &str, i: u32| {
            let mut r = good_row(n, cpf(60 + i), 10_000.0);
            r[10] = C::E;
            r
        };
        let may = workbook(&[approved_only("P-1", 1), approved_only("P-2", 2), approved_only("P-3", 3)]);
        let (_, m1) = upload(&app, "BB", "2019-05", "maio.xlsx", may).await;
        jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now()).await.expect("ingest");
        // P-3 as a carta no list created (one drafted through the graph) that May's list declared: a list records
        // the known cartas it declares, and creating ones by the carta's own `created_by_report`.
        let may_id = m1["number"].as_i64().expect("report number");
        for sql in [
            "UPDATE fco_carta SET created_by_report = NULL WHERE number = 'P-3'".to_owned(),
            format!("INSERT INTO bank_report_carta (report_id, carta_id) SELECT {may_id}, id FROM fco_carta WHERE number = 'P-3'"),
        ] {
            sea_orm::ConnectionTrait::execute_unprepared(&app.db, &sql).await.expect("P-3 known before May");
        }
        let mut contracted = approved_only("P-1", 1);
        contracted[10] = C::T("10/06/2019");
        let june = workbook(&[contracted, approved_only("P-2", 2)]);
        let (_, m2) = upload(&app, "BB", "2019-06", "junho.xlsx", june).await;
        jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now()).await.expect("ingest");

        let q = "query R($id: ID!) { bankReport(id: $id) { status
            cartas(first: 10) { totalCount nodes { number } }
            droppedCartas(first: 10) { totalCount nodes { number } } } }";
        let numbers = |v: &Value| {
            let mut n: Vec<String> = v["nodes"].as_array().expect("nodes").iter().map(|c| c["number"].as_str().unwrap_or("").to_owned()).collect();
            n.sort();
            n
        };
        let first = app.data(q, json!({ "id": m1["id"] })).await["bankReport"].clone();
        assert_eq!(numbers(&first["cartas"]), ["P-1", "P-2", "P-3"], "{first}");
        assert_eq!(first["droppedCartas"]["totalCount"], 0, "no list the month before");
        let second = app.data(q, json!({ "id": m2["id"] })).await["bankReport"].clone();
        assert_eq!(second["status"], "INGESTED");
        assert_eq!(numbers(&second["cartas"]), ["P-1", "P-2"]);
        assert_eq!(numbers(&second["droppedCartas"]), ["P-3"]);
        // The dashboard's dropped cartas read the same sets: (report, carta) pairs, created and declared again.
        let june_id = m2["number"].as_i64().expect("report number");
        let pairs = service::reports::declared_pairs(&app.db, &[may_id, june_id]).await.expect("pairs");
        let ids: Vec<(i64, String)> = <entity::fco_carta::Entity as sea_orm::EntityTrait>::find()
            .all(&app.db)
            .await
            .expect("cartas")
            .into_iter()
            .map(|c| (c.id, c.number))
            .collect();
        let of = |report: i64| {
            let mut n: Vec<&str> = pairs
                .iter()
                .filter(|(r, _)| *r == report)
                .filter_map(|(_, c)| ids.iter().find(|(id, _)| id == c).map(|(_, n)| n.as_str()))
                .collect();
            n.sort_unstable();
            n.dedup();
            n
        };
        assert_eq!(of(may_id), ["P-1", "P-2", "P-3"], "{pairs:?}");
        assert_eq!(of(june_id), ["P-1", "P-2"], "{pairs:?}");

        let history = app
            .data("{ fcoCartas(first: 5, filter: { stages: [CONTRACTED] }) { nodes { number stage history { event fromStage toStage occurredOn actor note } } } }", json!({}))
            .await;
        let carta = &history["fcoCartas"]["nodes"][0];
        assert_eq!((carta["number"].as_str(), carta["stage"].as_str()), (Some("P-1"), Some("CONTRACTED")));
        let h = carta["history"].as_array().expect("history");
        assert_eq!(h.len(), 2, "{h:?}");
        assert_eq!(h[0]["event"], "CREATE");
        assert_eq!(h[0]["actor"], format!("bank report {}", m1["number"]));
        assert_eq!((h[0]["toStage"].as_str(), h[0]["occurredOn"].as_str()), (Some("APPROVED"), Some("2019-04-18")));
        assert_eq!(h[1]["event"], "CONTRACT");
        assert_eq!((h[1]["fromStage"].as_str(), h[1]["toStage"].as_str()), (Some("APPROVED"), Some("CONTRACTED")));
        assert_eq!((h[1]["occurredOn"].as_str(), h[1]["actor"].as_str()), (Some("2019-06-10"), Some(format!("bank report {}", m2["number"]).as_str())));
        // The lists' notes, the creating one's and the one the job wrote (a message and its values, migration 61), in
        // Portuguese by default and in English on request.
        assert_eq!(h[0]["note"], "declarada na relação mensal de 2019-05", "{h:?}");
        assert_eq!(h[1]["note"], "declarada na relação mensal de 2019-06", "{h:?}");
        let q = "{ fcoCartas(first: 5, filter: { stages: [CONTRACTED] }) { nodes { history { note } } } }";
        let en = app.data_en(q, json!({})).await;
        let notes: Vec<&str> = en["fcoCartas"]["nodes"][0]["history"].as_array().expect("history").iter().filter_map(|e| e["note"].as_str()).collect();
        assert_eq!(notes, ["declared in the monthly list of 2019-05", "declared in the monthly list of 2019-06"]);
    })
    .await;
}

/// `fomento import KIND FILE` is the one verb for files of facts: `bank-report` (as `fomento ingest`) and
/// `rule-parameters` (as `fomento rules import`), the old commands kept as aliases. Run as the operator runs them,
/// through the command line's own parser, on a SQLite file created on first use.
#[tokio::test]
async fn the_import_verb_takes_bank_reports_and_rule_parameters_and_the_old_commands_still_work() {
    use clap::Parser;
    let dir = std::env::temp_dir().join(format!("fomento-import-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("dir");
    let db_url = format!("sqlite://{}", dir.join("f.db").display());
    let store = dir.join("store").display().to_string();
    let run = |args: Vec<String>| {
        let mut full = vec![
            "fomento".to_owned(),
            "--database-url".into(),
            db_url.clone(),
            "--file-store".into(),
            store.clone(),
        ];
        full.extend(args);
        async move { fomento_api::commands::run(fomento_api::config::Cli::try_parse_from(full).expect("args")).await }
    };
    let csv = |name: &str, value: &str| {
        let path = dir.join(name);
        std::fs::write(
            &path,
            format!("key,value,unit,effective_from,effective_to,legal_source\nFCO-CEILING.AMOUNT,{value},BRL,2030-01-01,,Resolução CDAE\n"),
        )
        .expect("csv");
        path.display().to_string()
    };
    run(vec![
        "import".into(),
        "rule-parameters".into(),
        csv("a.csv", "20000000.00"),
    ])
    .await
    .expect("import");
    let (db, _) = fomento_api::startup::connect(&db_url).await.expect("db");
    let versions = |db: service::Db| async move {
        service::parameters::versions(&db, Some("FCO-CEILING"), false)
            .await
            .expect("versions")
            .len()
    };
    assert_eq!(
        versions(db.clone()).await,
        2,
        "the shipped version and the imported one"
    );
    run(vec!["rules".into(), "import".into(), csv("b.csv", "21000000.00")])
        .await
        .expect("alias");
    assert_eq!(versions(db.clone()).await, 3, "the old command still imports");

    let bank = service::banks::BankFacts {
        name: Some("Banco do Brasil".into()),
        serves_fco: Some(true),
        ..Default::default()
    };
    service::banks::create(&db, "BB", bank).await.expect("bank");
    let sheet = dir.join("lista.xlsx");
    std::fs::write(
        &sheet,
        crate::reports::workbook(&[crate::reports::good_row("IMP-1", crate::reports::cpf(3), 10.0)]),
    )
    .expect("sheet");
    let sheet = sheet.display().to_string();
    run(vec![
        "import".into(),
        "bank-report".into(),
        sheet.clone(),
        "--bank".into(),
        "BB".into(),
        "--month".into(),
        "2019-05".into(),
    ])
    .await
    .expect("import bank-report");
    run(vec![
        "ingest".into(),
        sheet,
        "--bank".into(),
        "bb".into(),
        "--month".into(),
        "2019-06".into(),
    ])
    .await
    .expect("ingest alias");
    let reports = service::reports::list(&db, &service::Caller::System, &Default::default(), Default::default())
        .await
        .expect("reports");
    let statuses: Vec<&str> = reports.items.iter().map(|(_, r)| r.status.as_str()).collect();
    assert_eq!(statuses, ["INGESTED", "INGESTED"]);
    let _ = std::fs::remove_dir_all(&dir);
}
