//! Storage on both backends: migrations up, down and fresh; exact money; the demo dataset.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::helpers::{on_each_backend, with_each_database};
use entity::{
    bank,
    domain::Money,
    economic_group_membership, fco_carta, feedstock_acquisition, municipality, party, social_fuel_project,
    vocab::{FcoCartaStage, SocialFuelStage},
};
use fomento_api::{config::MigrateAction, startup::migrate};
use migration::{Migrator, MigratorTrait};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter,
};
use serde_json::json;
use std::collections::HashSet;

#[tokio::test]
async fn migrations_go_up_down_and_fresh_on_each_backend() {
    with_each_database(|db, backend| async move {
        migrate(&db, MigrateAction::Up).await.expect("up");
        assert_eq!(
            municipality::Entity::find().count(&db).await.expect("count"),
            5570,
            "{backend:?}: every municipality"
        );
        let status = migrate(&db, MigrateAction::Status).await.expect("status");
        assert_eq!(status.len(), Migrator::migrations().len());
        assert!(status.iter().all(|l| l.starts_with("Applied")), "{status:?}");

        let n = Migrator::migrations().len() as u32;
        migrate(&db, MigrateAction::Down { steps: n }).await.expect("down all");
        assert_eq!(
            Migrator::get_pending_migrations(&db).await.expect("pending").len(),
            n as usize
        );
        migrate(&db, MigrateAction::Up).await.expect("up again");

        bank::ActiveModel {
            code: Set("X".into()),
            name: Set("X".into()),
            serves_social_fuel: Set(true),
            serves_fco: Set(false),
            mda_cooperation_agreement: Set(false),
            ..Default::default()
        }
        .insert(&db)
        .await
        .expect("insert");
        migrate(&db, MigrateAction::Fresh).await.expect("fresh");
        assert_eq!(
            bank::Entity::find().count(&db).await.expect("count"),
            0,
            "{backend:?}: fresh empties the tables"
        );
        assert!(Migrator::get_pending_migrations(&db).await.expect("pending").is_empty());
    })
    .await;
}

#[tokio::test]
async fn money_is_exact_to_the_centavo_through_storage_and_graphql() {
    on_each_backend(true, |app| async move {
        let project = social_fuel_project::Entity::find()
            .one(&app.db)
            .await
            .expect("query")
            .expect("a demo project");
        let big = Money::from_decimal("98765432109876.01".parse().expect("decimal")).expect("fits");
        let mut active: social_fuel_project::ActiveModel = project.clone().into();
        active.requested_amount = Set(big);
        active.update(&app.db).await.expect("update");
        let data = app
            .data(
                "query($f: SocialFuelProjectFilter) { socialFuelProjects(filter: $f, first: 5) { nodes { amount } } }",
                json!({ "f": { "amountMin": "98765432109876.01" } }),
            )
            .await;
        assert_eq!(
            data["socialFuelProjects"]["nodes"],
            json!([{ "amount": "98765432109876.01" }])
        );
        let none = app
            .data(
                "query($f: SocialFuelProjectFilter) { socialFuelProjects(filter: $f) { totalCount } }",
                json!({ "f": { "amountMin": "98765432109876.02" } }),
            )
            .await;
        assert_eq!(
            none["socialFuelProjects"]["totalCount"], 0,
            "one centavo more matches nothing"
        );
    })
    .await;
}

#[tokio::test]
async fn demo_data_covers_every_region_and_stage_and_loads_once() {
    on_each_backend(true, |app| async move {
        assert!(
            !fomento_api::demo::load_if_empty(&app.db).await.expect("second load"),
            "not loaded twice"
        );
        assert_eq!(bank::Entity::find().count(&app.db).await.expect("count"), 6);
        let projects = social_fuel_project::Entity::find()
            .all(&app.db)
            .await
            .expect("projects");
        let regions: HashSet<_> = projects
            .iter()
            .filter_map(|p| {
                entity::domain::IbgeCode::new(p.plant_municipality_code as u32)
                    .ok()
                    .map(|c| c.region())
            })
            .collect();
        assert_eq!(regions.len(), 5, "plants in all five regions");
        let stages: HashSet<SocialFuelStage> = projects.iter().map(|p| p.stage).collect();
        use sea_orm::Iterable;
        assert_eq!(stages.len(), SocialFuelStage::iter().count(), "every social-fuel stage");
        let cartas = fco_carta::Entity::find().all(&app.db).await.expect("cartas");
        assert_eq!(cartas.len(), 300);
        assert!(
            cartas.iter().all(|c| c.municipality_code / 100_000 == 51),
            "all cartas in Mato Grosso"
        );
        let stages: HashSet<FcoCartaStage> = cartas.iter().map(|c| c.stage).collect();
        assert_eq!(stages.len(), 6, "every carta stage");
        // Companies in both programmes: a CNPJ root with a project and a carta.
        let project_roots: HashSet<String> = roots(&app.db, projects.iter().map(|p| p.party_id)).await;
        let carta_roots: HashSet<String> = roots(&app.db, cartas.iter().map(|c| c.party_id)).await;
        assert!(
            project_roots.intersection(&carta_roots).count() >= 3,
            "a few companies hold both"
        );
        // Recorded through the commands: every financing beyond DRAFT has the history its steps wrote, each fact its
        // author and the day it was recorded, and the groups their members' history.
        let q = "{ fcoCartas(first: 3, filter: { stages: [CONTRACTED] }) { nodes { history { event occurredOn actor }
            items { version { recordedBy recordedAt } } } } }";
        let d = app.data(q, serde_json::json!({})).await;
        for c in d["fcoCartas"]["nodes"].as_array().expect("cartas") {
            let events: Vec<&str> = c["history"]
                .as_array()
                .expect("history")
                .iter()
                .filter_map(|h| h["event"].as_str())
                .collect();
            assert_eq!(&events[..4], ["CREATE", "SUBMIT", "DECIDE", "CONTRACT"], "{c}");
            let item = &c["items"][0]["version"];
            assert_eq!(item["recordedBy"], "system", "{c}");
            assert!(
                item["recordedAt"].as_str().is_some_and(|t| t < "2026-11-01"),
                "dated the day it was recorded: {c}"
            );
        }
        let members = entity::economic_group_membership::Entity::find()
            .count(&app.db)
            .await
            .expect("members");
        assert!(members >= 10, "the groups' members, through the command: {members}");
    })
    .await;
}

async fn roots(db: &sea_orm::DatabaseConnection, ids: impl Iterator<Item = i64>) -> HashSet<String> {
    party::Entity::find()
        .filter(party::Column::Id.is_in(ids.collect::<Vec<_>>()))
        .all(db)
        .await
        .expect("parties")
        .into_iter()
        .filter_map(|p| p.cnpj_root)
        .collect()
}

#[tokio::test]
async fn several_processes_starting_at_once_migrate_one_database_once() {
    for backend in [crate::helpers::Backend::Sqlite, crate::helpers::Backend::Postgres] {
        let Some((url, cleanup)) = crate::helpers::fresh_database(backend).await else {
            continue;
        };
        let start = |url: String| async move {
            let (db, _) = fomento_api::startup::connect(&url).await.expect("connect");
            let r = fomento_api::startup::migrate_up(&db).await;
            let _ = db.close().await;
            r
        };
        let results = futures::future::join_all((0..4).map(|_| start(url.clone()))).await;
        let (db, _) = fomento_api::startup::connect(&url).await.expect("connect");
        let pending = Migrator::get_pending_migrations(&db).await.map(|p| p.len());
        let applied = Migrator::get_applied_migrations(&db).await.map(|p| p.len());
        let municipalities = municipality::Entity::find().count(&db).await;
        let _ = db.close().await;
        cleanup.run().await;
        for r in results {
            r.unwrap_or_else(|e| panic!("{backend:?}: a concurrent start failed: {e}"));
        }
        assert_eq!(pending.ok(), Some(0), "{backend:?}");
        assert_eq!(applied.ok(), Some(Migrator::migrations().len()), "{backend:?}");
        assert_eq!(
            municipalities.ok(),
            Some(5570),
            "{backend:?}: reference data loaded once"
        );
    }
}

/// A carta names an existing bank, party and municipality, and, when it names them, an existing chamber meeting and
/// resubmitted carta; nothing a carta names can be deleted or re-keyed, on both backends. On PostgreSQL these are
/// checked once per statement (migrations 8 and 10), not by foreign keys: the refusals must read like a foreign key's
/// and hold when the two writes race.
#[tokio::test]
async fn carta_references_hold_like_foreign_keys_on_each_backend() {
    on_each_backend(true, |app| async move {
        let db = &app.db;
        let pg = db.get_database_backend() == sea_orm::DbBackend::Postgres;
        let template = fco_carta::Entity::find()
            .one(db)
            .await
            .expect("query")
            .expect("a demo carta");
        let party = |document: &'static str| async move {
            party::ActiveModel {
                document: Set(document.into()),
                document_kind: Set("CPF".into()),
                name: Set(format!("Tomador {document}")),
                ..Default::default()
            }
            .insert(db)
            .await
            .expect("party")
            .id
        };
        // A carta copied from a demo one, with its own number, party and municipality.
        let carta = |number: &str, party_id: i64, bank: String, municipality: i64| {
            format!(
                "INSERT INTO fco_carta (number, bank_id, party_id, line, activity, financed_amount, municipality_code,
                     stage, status, created_at)
                 SELECT '{number}', {bank}, {party_id}, line, activity, financed_amount, {municipality}, stage, status,
                     created_at
                 FROM fco_carta WHERE id = {}",
                template.id
            )
        };
        let bank = template.bank_id.to_string();
        let named = party("11144477735").await;
        let unnamed = party("52998224725").await;
        // Alta Floresta D'Oeste (RO): no demo record names it.
        db.execute_unprepared(&carta("REF-1", named, bank.clone(), 1100015))
            .await
            .expect("a carta naming what exists is written");
        db.execute_unprepared(&format!("UPDATE party SET name = 'Renomeado' WHERE id = {named}"))
            .await
            .expect("a named party can change anything but its key");
        db.execute_unprepared(&format!("DELETE FROM party WHERE id = {unnamed}"))
            .await
            .expect("a party no carta names can be deleted");
        // REF-1 names a chamber meeting and resubmits REF-7.
        let meeting = entity::chamber_meeting::ActiveModel {
            starts_at: Set(chrono::Utc::now()),
            ..Default::default()
        }
        .insert(db)
        .await
        .expect("meeting")
        .id;
        db.execute_unprepared(&carta("REF-7", named, bank.clone(), 1100015))
            .await
            .expect("a second carta");
        db.execute_unprepared(&format!(
            "UPDATE fco_carta SET chamber_meeting_id = {meeting},
                 resubmission_of = (SELECT id FROM fco_carta WHERE number = 'REF-7')
             WHERE number = 'REF-1'"
        ))
        .await
        .expect("a carta can name an existing meeting and resubmit an existing carta");

        let refused = [
            (
                "a missing party",
                carta("REF-2", 999_999_999, bank.clone(), 1100015),
                "party_id",
            ),
            (
                "a missing bank",
                carta("REF-3", named, "999999999".into(), 1100015),
                "bank_id",
            ),
            (
                "a missing municipality",
                carta("REF-4", named, bank.clone(), 1),
                "municipality_code",
            ),
            (
                "three cartas in one statement, the second naming a missing party",
                format!(
                    "INSERT INTO fco_carta (number, bank_id, party_id, line, activity, financed_amount,
                         municipality_code, stage, status, created_at)
                     WITH k(n) AS (VALUES (1), (2), (3))
                     SELECT 'REF-8-' || k.n, {bank}, CASE WHEN k.n = 2 THEN 999999999 ELSE {named} END, line,
                         activity, financed_amount, 1100015, stage, status, created_at
                     FROM fco_carta, k WHERE id = {}",
                    template.id
                ),
                "party_id",
            ),
            (
                "a carta naming a missing bank and a missing party: the bank is named first",
                carta("REF-9", 999_999_999, "999999999".into(), 1100015),
                "bank_id",
            ),
            (
                "a carta moved to a missing party",
                "UPDATE fco_carta SET party_id = 999999999 WHERE number = 'REF-1'".to_string(),
                "party_id",
            ),
            (
                "deleting a named party",
                format!("DELETE FROM party WHERE id = {named}"),
                "party_id",
            ),
            (
                "re-keying a named party",
                format!("UPDATE party SET id = 999999999 WHERE id = {named}"),
                "party_id",
            ),
            (
                "deleting a named municipality",
                "DELETE FROM municipality WHERE ibge_code = 1100015".to_string(),
                "municipality_code",
            ),
            (
                "a carta naming a missing chamber meeting",
                "UPDATE fco_carta SET chamber_meeting_id = 999999999 WHERE number = 'REF-7'".to_string(),
                "chamber_meeting_id",
            ),
            (
                "a carta resubmitting a missing carta",
                "UPDATE fco_carta SET resubmission_of = 999999999 WHERE number = 'REF-7'".to_string(),
                "resubmission_of",
            ),
            (
                "deleting a named chamber meeting",
                format!("DELETE FROM chamber_meeting WHERE id = {meeting}"),
                "chamber_meeting_id",
            ),
            (
                "deleting a resubmitted carta",
                "DELETE FROM fco_carta WHERE number = 'REF-7'".to_string(),
                "resubmission_of",
            ),
        ];
        for (what, sql, column) in refused {
            let err = db.execute_unprepared(&sql).await.expect_err(what).to_string();
            assert!(err.to_lowercase().contains("foreign key"), "{what}: {err}");
            if pg {
                assert!(
                    err.contains(&format!("fk_fco_carta_{column}")),
                    "{what} names its constraint: {err}"
                );
            }
        }
        assert_eq!(
            fco_carta::Entity::find()
                .filter(fco_carta::Column::Number.starts_with("REF-"))
                .count(db)
                .await
                .expect("count"),
            2,
            "only the valid cartas were written"
        );
        if !pg {
            return;
        }
        // TRUNCATE (PostgreSQL only), even with CASCADE, which would follow the real foreign keys to other tables.
        for (parent, column) in [
            ("party", "party_id"),
            ("bank", "bank_id"),
            ("municipality", "municipality_code"),
            ("chamber_meeting", "chamber_meeting_id"),
        ] {
            let err = db
                .execute_unprepared(&format!("TRUNCATE {parent} CASCADE"))
                .await
                .expect_err(parent)
                .to_string();
            assert!(
                err.contains(&format!("foreign key constraint \"fk_fco_carta_{column}\"")),
                "truncating {parent}: {err}"
            );
        }
        // Racing writes on two connections: whichever commits first, the other is refused.
        let gone = party("39053344705").await;
        second_waits_then_is_refused(
            db,
            &carta("REF-5", gone, bank.clone(), 1100015),
            format!("DELETE FROM party WHERE id = {gone}"),
            "the carta first, then the delete of its party",
        )
        .await;
        let vanishing = party("71428793860").await;
        second_waits_then_is_refused(
            db,
            &format!("DELETE FROM party WHERE id = {vanishing}"),
            carta("REF-6", vanishing, bank.clone(), 1100015),
            "the delete first, then a carta naming the party",
        )
        .await;
    })
    .await;
}

/// `first` runs in a transaction left open while `second` runs on another connection: `second` waits for the commit,
/// then is refused by the carta's reference to its party.
async fn second_waits_then_is_refused(db: &sea_orm::DatabaseConnection, first: &str, second: String, what: &str) {
    use sea_orm::TransactionTrait;
    let txn = db.begin().await.expect("begin");
    txn.execute_unprepared(first).await.expect(what);
    let racing = tokio::spawn({
        let db = db.clone();
        async move { db.execute_unprepared(&second).await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        !racing.is_finished(),
        "{what}: the second waits for the first's transaction"
    );
    txn.commit().await.expect("commit");
    let err = racing.await.expect("task").expect_err(what).to_string();
    assert!(err.contains("fk_fco_carta_party_id"), "{what}: {err}");
}

/// Migration 11: on PostgreSQL the status index holds only the rare statuses (approved and active cartas, the bulk a
/// monthly report writes, take no entry), and a list filtered by a rare status still reads it, through the `financing`
/// view the API lists; SQLite keeps the full index, which it reads the same way.
#[tokio::test]
async fn a_list_filtered_by_a_rare_status_reads_the_status_index() {
    use sea_orm::{Statement, TransactionTrait};
    on_each_backend(true, |app| async move {
        let backend = app.db.get_database_backend();
        let txn = app.db.begin().await.expect("begin");
        let explain = |status: &str| {
            let query = format!("SELECT record_id FROM financing WHERE status = '{status}'");
            match backend {
                sea_orm::DbBackend::Postgres => format!("EXPLAIN {query}"),
                _ => format!("EXPLAIN QUERY PLAN {query}"),
            }
        };
        if backend == sea_orm::DbBackend::Postgres {
            // The demo's tables are small enough for a scan to win; the question is whether the index can serve.
            txn.execute_unprepared("SET LOCAL enable_seqscan = off")
                .await
                .expect("set");
        }
        let plan = |status: &'static str| {
            let txn = &txn;
            let sql = explain(status);
            async move {
                let rows = txn
                    .query_all_raw(Statement::from_string(backend, sql))
                    .await
                    .expect("explain");
                let column = if backend == sea_orm::DbBackend::Postgres { 0 } else { 3 };
                rows.iter()
                    .map(|r| r.try_get_by_index::<String>(column).expect("plan line"))
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        };
        let denied = plan("DENIED").await;
        assert!(denied.contains("idx_fco_carta_status"), "{backend:?}: {denied}");
        let approved = plan("APPROVED").await;
        assert_eq!(
            approved.contains("idx_fco_carta_status"),
            backend != sea_orm::DbBackend::Postgres,
            "{backend:?}: approved cartas are in the index only on SQLite: {approved}"
        );
        txn.rollback().await.expect("rollback");
    })
    .await;
}

/// Migration 25 keeps the members a database already had: each party in a group gets a membership known from the
/// start, so compliance `asOf` any day still reads its group.
#[tokio::test]
async fn the_membership_history_starts_with_the_members_a_database_had() {
    with_each_database(|db, backend| async move {
        Migrator::up(&db, Some(24)).await.expect("up to 24");
        let g = entity::economic_group::ActiveModel {
            name: Set("Grupo Antigo".into()),
            kind: Set("GROUP".into()),
            ..Default::default()
        }
        .insert(&db)
        .await
        .expect("group");
        for (doc, group) in [("52998224725", Some(g.id)), ("11144477735", None)] {
            entity::party::ActiveModel {
                document: Set(doc.into()),
                document_kind: Set("CPF".into()),
                name: Set(format!("Parte {doc}")),
                economic_group_id: Set(group),
                ..Default::default()
            }
            .insert(&db)
            .await
            .expect("party");
        }
        // Up to 25, which starts the history, and on to the last (the model reads today's columns).
        Migrator::up(&db, None).await.expect("up to the last");
        let members = entity::economic_group_membership::Entity::find()
            .all(&db)
            .await
            .expect("members");
        assert_eq!(members.len(), 1, "{backend:?}: {members:?}");
        assert_eq!((members[0].group_id, members[0].joined_at), (g.id, None), "{backend:?}");
        assert!(members[0].known_on(chrono::NaiveDate::from_ymd_opt(2001, 1, 1).expect("day")));
    })
    .await;
}

/// Migration 26 keeps the flags a database already had, as flags on their financing, and the job's flags get one
/// open flag per subject, rule, source and occurrence from the database itself (both backends).
#[tokio::test]
async fn migration_26_keeps_earlier_flags_on_their_financing_and_refuses_a_second_open_job_flag() {
    with_each_database(|db, backend| async move {
        Migrator::up(&db, Some(25)).await.expect("up to 25");
        db.execute_unprepared(
            "INSERT INTO compliance_flag (programme, financing_id, rule_code, legal_basis, message, source, raised_at, severity) \
             VALUES ('FCO_RURAL', 42, 'FCO-CEILING', 'art. 4', 'over', 'report:7', '2026-01-02T03:04:05+00:00', 'VIOLATION')",
        )
        .await
        .expect("an old flag");
        Migrator::up(&db, None).await.expect("up to the last");
        let flags = entity::compliance_flag::Entity::find().all(&db).await.expect("flags");
        assert_eq!(flags.len(), 1, "{backend:?}");
        let f = &flags[0];
        assert_eq!(
            (f.subject(), f.subject_id, f.financing_id, f.occurrence.as_str(), f.source.as_str()),
            (Some(entity::compliance_flag::SubjectKind::Financing), 42, Some(42), "", "report:7"),
            "{backend:?}"
        );
        let job_flag = "INSERT INTO compliance_flag (programme, rule_code, legal_basis, message, source, raised_at, \
            severity, subject_kind, subject_id, occurrence) VALUES ('FCO_RURAL', 'FCO-MONTHLY-LIST', 'art. 2', 'missing', \
            'job:flag-deadlines', '2026-01-02T03:04:05+00:00', 'VIOLATION', 'BANK', 3, '2025-11')";
        db.execute_unprepared(job_flag).await.expect("one open job flag");
        let twice = db.execute_unprepared(job_flag).await;
        assert!(twice.is_err(), "{backend:?}: a second open flag of the same identity is refused");
        db.execute_unprepared("UPDATE compliance_flag SET resolved_at = '2026-02-01T00:00:00+00:00' WHERE source = 'job:flag-deadlines'")
            .await
            .expect("resolve");
        db.execute_unprepared(job_flag).await.expect("once resolved, the same identity may be raised again");
    })
    .await;
}

/// Raw files past their retention are purged by the `purge-raw-files` job: the report keeps its rows and outcome,
/// its error workbook says the file is gone (`410`), a file a later upload of the same bytes needs stays, the purge
/// is in the audit log, and a second run finds nothing left to do.
#[tokio::test]
async fn raw_files_past_their_retention_are_purged_and_the_reports_remain() {
    use crate::reports::{cpf, good_row, upload, workbook};
    on_each_backend(true, |app| async move {
        let old = workbook(&[good_row("RET-1", cpf(7001), 150_000.0)]);
        let shared = workbook(&[good_row("RET-2", cpf(7002), 180_000.0)]);
        let (status, a) = upload(&app, "BB", "2020-01", "janeiro.xlsx", old.clone()).await;
        assert_eq!(status, 201, "{a}");
        let (_, b) = upload(&app, "BB", "2020-02", "fevereiro.xlsx", shared.clone()).await;
        // The same bytes sent again for another month: a later upload that still needs the file.
        let (_, c) = upload(&app, "BB", "2020-03", "marco.xlsx", shared.clone()).await;
        jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now())
            .await
            .expect("ingest");
        let (a, b, c) = (
            a["number"].as_i64().expect("a"),
            b["number"].as_i64().expect("b"),
            c["number"].as_i64().expect("c"),
        );
        assert_ne!(b, c, "two reports of one file");
        // The first two were received six years ago.
        let six_years_ago = chrono::Utc::now() - chrono::Duration::days(6 * 366);
        entity::bank_report::Entity::update_many()
            .col_expr(entity::bank_report::Column::ReceivedAt, sea_orm::sea_query::Expr::value(six_years_ago))
            .filter(entity::bank_report::Column::Id.is_in([a, b]))
            .exec(&app.db)
            .await
            .expect("backdate");
        let spec = jobs::registry::find("purge-raw-files").expect("registered");
        let run = |slot: &'static str| fomento_api::runtime::run_job_as_of(&app.runtime, spec, slot, None);
        let report = run("test:purge-1").await.expect("purge").expect("ran");
        // Said in the reader's language, with plurals: one file, one report, no import.
        let said = report.message.render(service::messages::Lang::En);
        assert!(said.contains("1 file (1 report, 0 imports); 1 kept"), "{said}");
        let stored = |id| crate::acceptance::stored(&app, id);
        let (ra, rb) = (stored(a).await, stored(b).await);
        assert!(ra.raw_purged_at.is_some() && rb.raw_purged_at.is_none());
        assert!(app.runtime.ctx.store.get(&ra.sha256).await.is_err(), "the old file is gone");
        assert!(app.runtime.ctx.store.get(&rb.sha256).await.is_ok(), "the shared file stays");
        // The report remains, with its rows; its error workbook says why there is no file.
        let d = app
            .data(
                "query R($id: ID!) { bankReport(id: $id) { status rowCount } }",
                json!({ "id": fomento_api::graphql::ids::encode(fomento_api::graphql::ids::NodeKind::BankReport, a).0 }),
            )
            .await;
        assert_eq!(d["bankReport"]["status"], "INGESTED", "{d}");
        assert_eq!(d["bankReport"]["rowCount"], 1, "{d}");
        let resp = app
            .get(&format!("/bank-reports/{a}/errors.xlsx"))
            .header("accept-language", "en")
            .send()
            .await
            .expect("answer");
        assert_eq!(resp.status().as_u16(), 410);
        let body: serde_json::Value = resp.json().await.expect("json");
        assert_eq!(body["error"]["code"], "RAW_FILE_PURGED", "{body}");
        assert!(body["error"]["message"].as_str().unwrap_or("").contains("retention"), "{body}");
        // In the audit log, and idempotent.
        let lines = service::audit::list(&app.db, &service::Caller::System, None, 20).await.expect("audit");
        assert!(
            lines.iter().any(|l| l.action == "files purge" && l.target.as_deref().unwrap_or("").contains("1 files")),
            "the purge is audited"
        );
        let again = run("test:purge-2").await.expect("purge").expect("ran");
        let said = again.message.render(service::messages::Lang::PtBr);
        assert!(said.contains(": 0 arquivos (0 relações, 0 importações)"), "{said}");
    })
    .await;
}

/// Migrations 38 and 39 keep what a database had (both backends): its days without office hours move to
/// `calendar_day` for every authority, and a project under evaluation gets the start its history recorded; going down
/// brings the days back to `non_business_day`.
#[tokio::test]
async fn migrations_38_and_39_carry_the_calendar_and_the_evaluation_start_over() {
    with_each_database(|db, backend| async move {
        Migrator::up(&db, Some(37)).await.expect("up to 37");
        for sql in [
            "INSERT INTO non_business_day (day, reason) VALUES ('2026-07-08', 'feriado estadual')",
            "INSERT INTO bank (code, name, serves_social_fuel, serves_fco, mda_cooperation_agreement) VALUES ('BNDES', 'BNDES', true, false, false)",
            "INSERT INTO party (document, document_kind, name) VALUES ('11222333000181', 'CNPJ', 'Biodiesel S.A.')",
            "INSERT INTO social_fuel_project (title, bank_id, party_id, plant_municipality_code, requested_amount, stage, status,
                analysed_by_bank, schedule_delay_accepted, created_at)
             SELECT 'Usina', b.id, p.id, 5103403, 100, 'EXTERNAL_EVALUATION', 'ACTIVE', false, false, '2026-01-02T03:04:05+00:00'
             FROM bank b, party p",
            "INSERT INTO financing_transition (programme, financing_id, from_stage, to_stage, event, occurred_on, recorded_at, actor)
             SELECT 'SOCIAL_FUEL', id, 'OPERATING', 'EXTERNAL_EVALUATION', 'START_EVALUATION', '2015-10-01', '2026-01-02T03:04:05+00:00', 'test'
             FROM social_fuel_project",
        ] {
            db.execute_unprepared(sql).await.unwrap_or_else(|e| panic!("{backend:?}: {sql}: {e}"));
        }
        Migrator::up(&db, None).await.expect("up to the last");
        let days = entity::non_business_day::Entity::find().all(&db).await.expect("days");
        assert_eq!(days.len(), 1, "{backend:?}");
        assert_eq!(
            (days[0].day.to_string(), days[0].authority.as_str(), days[0].open, days[0].reason.as_str()),
            ("2026-07-08".to_owned(), "ALL", false, "feriado estadual"),
            "{backend:?}"
        );
        let p = entity::social_fuel_project::Entity::find().all(&db).await.expect("projects");
        assert_eq!(p[0].evaluation_started_on.map(|d| d.to_string()).as_deref(), Some("2015-10-01"), "{backend:?}");
        // Down to 37, however many migrations came after.
        let after_37 = u32::try_from(Migrator::migrations().len() - 37).expect("few");
        Migrator::down(&db, Some(after_37)).await.expect("down to 37");
        let back = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT reason FROM non_business_day WHERE day = '2026-07-08'",
            ))
            .await
            .expect("non_business_day again");
        assert_eq!(back.len(), 1, "{backend:?}: the day is back");
    })
    .await;
}

/// Migration 46 carries what a database had onto the timeline (both backends): a fact's first version holds from the
/// day its dossier was filed, a later version from the day it was recorded and the one it replaced until then, each
/// saying how its day was set; a confirmation and a membership take the day they were recorded; a project's earlier
/// documents stay beside the one in force. Down to 45 and up again keeps the rows.
#[tokio::test]
async fn migration_46_dates_the_facts_a_database_had_and_goes_down_and_up_again() {
    use sea_orm::QueryOrder;
    with_each_database(|db, backend| async move {
        Migrator::up(&db, Some(45)).await.expect("up to 45");
        for sql in [
            "INSERT INTO bank (code, name, serves_social_fuel, serves_fco, mda_cooperation_agreement) VALUES ('BNDES', 'BNDES', true, false, false)",
            "INSERT INTO party (document, document_kind, name) VALUES ('11222333000181', 'CNPJ', 'Biodiesel S.A.')",
            "INSERT INTO party (document, document_kind, name) VALUES ('52998224725', 'CPF', 'Ana Produtora')",
            "INSERT INTO economic_group (name, kind) VALUES ('Grupo', 'GROUP')",
            "INSERT INTO social_fuel_project (title, bank_id, party_id, plant_municipality_code, requested_amount, stage, status,
                analysed_by_bank, schedule_delay_accepted, created_at, filed_on)
             SELECT 'Usina', b.id, p.id, 5103403, 100, 'FILED', 'IN_ANALYSIS', false, false, '2026-01-02T03:04:05+00:00', '2016-02-01'
             FROM bank b, party p WHERE p.document = '11222333000181'",
            "INSERT INTO feedstock_acquisition (project_id, year, supplier_kind, crop, quantity_kg, cost, recorded_at, recorded_by,
                superseded_at, change_reason)
             SELECT id, 2016, 'FAMILY_FARMER', 'soja', 10, 10, '2026-01-02T12:00:00+00:00', 'a', '2026-03-01T12:00:00+00:00', 'nota'
             FROM social_fuel_project",
            "INSERT INTO feedstock_acquisition (project_id, year, supplier_kind, crop, quantity_kg, cost, recorded_at, recorded_by)
             SELECT id, 2016, 'FAMILY_FARMER', 'soja', 10, 20, '2026-03-01T12:00:00+00:00', 'a' FROM social_fuel_project",
            "UPDATE feedstock_acquisition SET superseded_by = (SELECT MAX(id) FROM feedstock_acquisition) WHERE cost = 10",
            "INSERT INTO checklist_confirmation (programme, financing_id, rule_code, confirmed_by, confirmed_at)
             SELECT 'SOCIAL_FUEL', id, 'SF-ASSISTANCE-PLAN', 'Ana', '2026-01-05T12:00:00+00:00' FROM social_fuel_project",
            "INSERT INTO economic_group_membership (group_id, party_id, joined_at, recorded_by)
             SELECT g.id, p.id, '2026-01-06T12:00:00+00:00', 'a' FROM economic_group g, party p WHERE p.document = '52998224725'",
            "INSERT INTO project_document (project_id, kind, received_on) SELECT id, 'REQUEST_LETTER', '2016-01-10' FROM social_fuel_project",
        ] {
            db.execute_unprepared(sql).await.unwrap_or_else(|e| panic!("{backend:?}: {sql}: {e}"));
        }
        Migrator::up(&db, None).await.expect("up to the last");
        let day = |s: &str| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").ok();
        let acquisitions = feedstock_acquisition::Entity::find()
            .order_by_asc(feedstock_acquisition::Column::Id)
            .all(&db)
            .await
            .expect("acquisitions");
        let (first, later) = (&acquisitions[0], &acquisitions[1]);
        assert_eq!((first.effective_on, first.ended_on), (day("2016-02-01"), day("2026-03-01")), "{backend:?}: {first:?}");
        assert!(first.dated_by.as_deref().is_some_and(|d| d.contains("filed")), "{first:?}");
        assert_eq!((later.effective_on, later.ended_on), (day("2026-03-01"), None), "{backend:?}: {later:?}");
        assert!(later.dated_by.as_deref().is_some_and(|d| d.contains("recorded")), "{later:?}");
        let confirmation = entity::checklist_confirmation::Entity::find().one(&db).await.expect("read").expect("one");
        assert_eq!(confirmation.effective_on, day("2026-01-05"), "{backend:?}");
        let member = economic_group_membership::Entity::find().one(&db).await.expect("read").expect("one");
        assert_eq!((member.joined_on, member.left_on), (day("2026-01-06"), None), "{backend:?}");
        // A document received again sits beside the one in force; so does a second confirmation of the same rule.
        db.execute_unprepared(
            "UPDATE project_document SET superseded_at = '2026-04-01T12:00:00+00:00'",
        )
        .await
        .expect("supersede");
        db.execute_unprepared(
            "INSERT INTO project_document (project_id, kind, received_on) SELECT project_id, kind, '2019-01-01' FROM project_document",
        )
        .await
        .unwrap_or_else(|e| panic!("{backend:?}: a second version of a document: {e}"));
        let twice = db
            .execute_unprepared(
                "INSERT INTO project_document (project_id, kind, received_on) SELECT project_id, kind, '2019-01-02' FROM project_document
                 WHERE superseded_at IS NULL",
            )
            .await;
        assert!(twice.is_err(), "{backend:?}: one version of a kind in force");
        // Down to 45, however many came after, and up again.
        let after_45 = u32::try_from(Migrator::migrations().len() - 45).expect("few");
        Migrator::down(&db, Some(after_45)).await.expect("down to 45");
        let back = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT received_on FROM project_document",
            ))
            .await
            .expect("documents at 45");
        assert_eq!(back.len(), 1, "{backend:?}: the version in force goes back");
        Migrator::up(&db, None).await.expect("up again");
        assert_eq!(
            feedstock_acquisition::Entity::find().count(&db).await.expect("count"),
            2,
            "{backend:?}"
        );
    })
    .await;
}

/// Migration 52 goes up, down and up again with rows on each backend: a project recorded before it keeps its row and
/// has none of the new facts (schedule presentation, the bank's acceptance of a delay, the public update); the facts
/// written after it are read back by name, and going down and up again keeps the project with the facts cleared.
#[tokio::test]
async fn migration_52_adds_the_schedule_and_unframing_facts_and_goes_down_and_up_again() {
    with_each_database(|db, backend| async move {
        let before_52 = Migrator::migrations()
            .iter()
            .position(|m| m.name() == "m20261206_000052_schedule_and_unframing_facts")
            .expect("migration 52");
        let after_52 = u32::try_from(Migrator::migrations().len() - before_52).expect("few");
        Migrator::up(&db, Some(u32::try_from(before_52).expect("few"))).await.expect("up to 51");
        for sql in [
            "INSERT INTO bank (code, name, serves_social_fuel, serves_fco, mda_cooperation_agreement) VALUES ('BNDES', 'BNDES', true, false, false)",
            "INSERT INTO party (document, document_kind, name) VALUES ('11222333000181', 'CNPJ', 'Biodiesel S.A.')",
            "INSERT INTO social_fuel_project (title, bank_id, party_id, plant_municipality_code, requested_amount, stage, status,
                analysed_by_bank, schedule_delay_accepted, created_at, scheduled_implementation_end, unframed_on)
             SELECT 'Usina', b.id, p.id, 5103403, 100, 'UNFRAMED', 'ENDED', false, true, '2026-01-02T03:04:05+00:00', '2015-06-30', '2015-11-20'
             FROM bank b, party p",
        ] {
            db.execute_unprepared(sql).await.unwrap_or_else(|e| panic!("{backend:?}: {sql}: {e}"));
        }
        Migrator::up(&db, None).await.expect("up to the last");
        let p = social_fuel_project::Entity::find().one(&db).await.expect("read").expect("the project");
        assert_eq!(
            (p.schedule_presented_on, p.delay_bank_accepted_on, p.delay_bank_accepted_by.as_deref(), p.public_update_on),
            (None, None, None, None),
            "{backend:?}: nothing invented for a project recorded before"
        );
        assert!(p.schedule_delay_accepted && p.unframed_on.is_some(), "{backend:?}: {p:?}");
        let day = |s: &str| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").ok();
        let mut a: social_fuel_project::ActiveModel = p.clone().into();
        a.schedule_presented_on = Set(day("2015-03-10"));
        a.delay_bank_accepted_on = Set(day("2015-07-10"));
        a.delay_bank_accepted_by = Set(Some("Gerência regional".into()));
        a.public_update_on = Set(day("2015-11-26"));
        a.public_update_reference = Set(Some("gov.br/mda".into()));
        a.update(&db).await.unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        let p = social_fuel_project::Entity::find().one(&db).await.expect("read").expect("the project");
        assert_eq!(
            (p.schedule_presented_on, p.delay_bank_accepted_by.as_deref(), p.public_update_reference.as_deref()),
            (day("2015-03-10"), Some("Gerência regional"), Some("gov.br/mda")),
            "{backend:?}"
        );
        Migrator::down(&db, Some(after_52)).await.unwrap_or_else(|e| panic!("{backend:?} down: {e}"));
        let back = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT title FROM social_fuel_project",
            ))
            .await
            .expect("projects at 51");
        assert_eq!(back.len(), 1, "{backend:?}: the project stays");
        Migrator::up(&db, None).await.unwrap_or_else(|e| panic!("{backend:?} up again: {e}"));
        let p = social_fuel_project::Entity::find().one(&db).await.expect("read").expect("the project");
        assert_eq!((p.schedule_presented_on, p.public_update_on), (None, None), "{backend:?}");
    })
    .await;
}

/// The rows the flag job and the typed pages read by position (`service::positional`) are the rows sea-orm's own reader
/// returns: every column, filled and `NULL`, enums, money and times, on both backends (the demo's rows, a carta with
/// every optional column empty and one with every optional column filled).
#[tokio::test]
async fn rows_read_by_position_equal_those_read_by_name() {
    use service::positional::{Positional, all};
    with_each_database(|db, backend| async move {
        migrate(&db, MigrateAction::Up).await.expect("up");
        fomento_api::demo::load_if_empty(&db).await.expect("demo");
        let first = fco_carta::Entity::find()
            .one(&db)
            .await
            .expect("carta")
            .expect("a carta");
        let mut bare: fco_carta::ActiveModel = fco_carta::Model {
            id: 0,
            number: "VAZIA-1".into(),
            submitted_on: None,
            received_by_council_at: None,
            chamber_meeting_id: None,
            decision: None,
            decided_by: None,
            decided_on: None,
            approved_on: None,
            contracted_on: None,
            contracted_amount: None,
            term_months: None,
            grace_months: None,
            resubmission_of: None,
            professional_name: None,
            created_by_report: None,
            existing_sires: None,
            artificial_insemination: None,
            presented_on: None,
            borrower_name: None,
            ..first.clone()
        }
        .into();
        bare.id = sea_orm::ActiveValue::NotSet;
        bare.insert(&db)
            .await
            .expect("a carta with every optional column empty");
        let day = chrono::NaiveDate::from_ymd_opt(2024, 3, 1).expect("day");
        let mut full: fco_carta::ActiveModel = fco_carta::Model {
            id: 0,
            number: "CHEIA-1".into(),
            submitted_on: Some(day),
            received_by_council_at: Some(chrono::Utc::now()),
            decision: Some(entity::vocab::Decision::Favourable),
            decided_by: Some("CHAMBER".into()),
            decided_on: Some(day),
            approved_on: Some(day),
            contracted_on: Some(day),
            contracted_amount: Some(Money(123_456_789)),
            term_months: Some(96),
            grace_months: Some(24),
            resubmission_of: Some(first.id),
            professional_name: Some("Dra. Ana Souza".into()),
            existing_sires: Some(3),
            artificial_insemination: Some(false),
            presented_on: Some(day),
            special_demand: true,
            borrower_name: Some("Maria da Silva".into()),
            stated_on: Some(day),
            ..first.clone()
        }
        .into();
        full.id = sea_orm::ActiveValue::NotSet;
        full.insert(&db)
            .await
            .expect("a carta with every optional column filled");

        // A membership left, its joining unrecorded: every optional column of a membership but the first filled.
        let member = economic_group_membership::Entity::find()
            .one(&db)
            .await
            .expect("membership")
            .expect("a demo membership");
        let mut left: economic_group_membership::ActiveModel = economic_group_membership::Model {
            id: 0,
            joined_at: None,
            left_at: Some(chrono::Utc::now()),
            left_recorded_by: Some("cdae@example.org".into()),
            ..member
        }
        .into();
        left.id = sea_orm::ActiveValue::NotSet;
        left.insert(&db).await.expect("a membership left");

        use sea_orm::QueryOrder;
        let by_name = fco_carta::Entity::find()
            .order_by_asc(fco_carta::Column::Id)
            .all(&db)
            .await
            .expect("by name");
        let by_position = all(fco_carta::Entity::find().order_by_asc(fco_carta::Column::Id), &db)
            .await
            .expect("by position");
        assert!(by_name.len() > 10, "{backend:?}");
        assert_eq!(by_position, by_name, "{backend:?}: cartas");
        // As the passes that judge every carta read them: their judged columns, as a full carta converts.
        let judged = service::facts::cartas_in_range_if(&db, (i64::MIN, i64::MAX), sea_orm::Condition::all())
            .await
            .expect("judged");
        assert_eq!(
            judged,
            by_name.iter().map(fco_carta::JudgedCarta::from).collect::<Vec<_>>(),
            "{backend:?}: judged cartas"
        );
        assert!(
            by_name.iter().all(|c| c.status == c.stage.status()),
            "{backend:?}: the status follows from the stage"
        );
        macro_rules! same_rows {
            ($($m:ident),*) => {$(
                let by_name = $m::Entity::find().order_by_asc($m::Column::Id).all(&db).await.expect("by name");
                let by_position = all($m::Entity::find().order_by_asc($m::Column::Id), &db).await.expect("by position");
                assert_eq!(by_position, by_name, "{backend:?}: {}", stringify!($m));
            )*};
        }
        same_rows!(
            social_fuel_project,
            party,
            bank,
            feedstock_acquisition,
            economic_group_membership
        );
        // A model read from the middle of a row (a joined table's columns), and a left join that found nothing.
        let row = db
            .query_one_raw(sea_orm::Statement::from_string(
                backend_of(&db),
                "SELECT b.*, m.* FROM bank b LEFT JOIN municipality m ON m.ibge_code = -1 ORDER BY b.id",
            ))
            .await
            .expect("row")
            .expect("a bank");
        let bank = bank::Model::decode(&row).expect("bank");
        assert_eq!(Some(&bank), by_name_bank(&db).await.first(), "{backend:?}");
        let none = municipality::Model::decode_joined_at(&row, bank::Model::FIELDS.len()).expect("joined");
        assert_eq!(none, None, "{backend:?}: the missing side of a left join");
    })
    .await;
}

fn backend_of(db: &sea_orm::DatabaseConnection) -> sea_orm::DbBackend {
    db.get_database_backend()
}

async fn by_name_bank(db: &sea_orm::DatabaseConnection) -> Vec<bank::Model> {
    use sea_orm::QueryOrder;
    bank::Entity::find()
        .order_by_asc(bank::Column::Id)
        .all(db)
        .await
        .expect("banks")
}

/// Migration 48 goes up, down and up again with rows on each backend. A carta reopened before it (its earlier cycle's
/// contract, meeting and SEDEC receipt left on its row, its acts in its history) gets that cycle rebuilt from its
/// history and amendment, and its row keeps the open cycle only; going down puts those fields back on the row; going
/// up again rebuilds the same cycle.
#[tokio::test]
async fn migration_48_rebuilds_the_earlier_cycles_of_reopened_cartas_and_goes_down_and_up_again() {
    with_each_database(|db, backend| async move {
        let before_48 = Migrator::migrations()
            .iter()
            .position(|m| m.name() == "m20261205_000048_carta_approval_cycles")
            .expect("migration 48");
        let after_48 = u32::try_from(Migrator::migrations().len() - before_48).expect("few");
        Migrator::up(&db, Some(u32::try_from(before_48).expect("few"))).await.expect("up to 47");
        for sql in [
            "INSERT INTO bank (code, name, serves_social_fuel, serves_fco, mda_cooperation_agreement) VALUES ('BB', 'BB', true, true, false)",
            "INSERT INTO party (document, document_kind, name) VALUES ('52998224725', 'CPF', 'João Silva')",
            "INSERT INTO chamber_meeting (starts_at) VALUES ('2025-07-08T13:00:00+00:00')",
            // Reopened on 1 September: the amendment's reopening left the contract, meeting and receipt on the row.
            "INSERT INTO fco_carta (number, bank_id, party_id, line, activity, financed_amount, municipality_code, stage, status,
                submitted_on, received_by_council_at, chamber_meeting_id, contracted_on, contracted_amount, created_at)
             SELECT 'C2', b.id, p.id, 'FCO_RURAL', 'BEEF_CATTLE', 266400000, 5107909, 'SUBMITTED', 'IN_ANALYSIS', '2025-09-01',
                '2025-07-03T13:00:00+00:00', m.id, '2025-07-25', 240000000, '2025-06-30T12:00:00+00:00'
             FROM bank b, party p, chamber_meeting m",
            "INSERT INTO fco_carta_amendment (carta_id, kind, requested_on, old_amount, new_amount, description, requires_new_approval)
             SELECT id, 'VALUE_INCREASE', '2025-09-01', 240000000, 266400000, 'novo orçamento', true FROM fco_carta",
        ] {
            db.execute_unprepared(sql).await.unwrap_or_else(|e| panic!("{backend:?}: {sql}: {e}"));
        }
        for (event, from, to, on) in [
            ("CREATE", None, "DRAFT", "2025-06-30"),
            ("SUBMIT", Some("DRAFT"), "SUBMITTED", "2025-07-01"),
            ("AGENDA", Some("SUBMITTED"), "SUBMITTED", "2025-07-03"),
            ("DECIDE", Some("SUBMITTED"), "APPROVED", "2025-07-08"),
            ("PRESENT_PROJECT", Some("APPROVED"), "APPROVED", "2025-07-20"),
            ("CONTRACT", Some("APPROVED"), "CONTRACTED", "2025-07-25"),
            ("AMEND_REOPEN", Some("CONTRACTED"), "SUBMITTED", "2025-09-01"),
        ] {
            let from = from.map_or("NULL".to_owned(), |f| format!("'{f}'"));
            let sql = format!(
                "INSERT INTO financing_transition (programme, financing_id, from_stage, to_stage, event, occurred_on, recorded_at, actor)
                 SELECT 'FCO_RURAL', id, {from}, '{to}', '{event}', '{on}', '2025-09-01T12:00:00+00:00', 'test' FROM fco_carta"
            );
            db.execute_unprepared(&sql).await.unwrap_or_else(|e| panic!("{backend:?}: {sql}: {e}"));
        }
        let day = |d: &str| d.parse::<chrono::NaiveDate>().expect("day");
        let rebuilt = |db: sea_orm::DatabaseConnection| async move {
            let cycles = entity::fco_carta_cycle::Entity::find().all(&db).await.expect("cycles");
            let carta = fco_carta::Entity::find().one(&db).await.expect("carta").expect("a carta");
            (cycles, carta)
        };
        for pass in ["up", "up again"] {
            Migrator::up(&db, None).await.unwrap_or_else(|e| panic!("{backend:?} {pass}: {e}"));
            let (cycles, carta) = rebuilt(db.clone()).await;
            assert_eq!(cycles.len(), 1, "{backend:?} {pass}");
            let y = &cycles[0];
            assert_eq!(
                (y.number, y.stage, y.financed_amount, y.submitted_on, y.decided_on, y.approved_on, y.presented_on),
                (
                    1,
                    FcoCartaStage::Contracted,
                    Money(240_000_000),
                    Some(day("2025-07-01")),
                    Some(day("2025-07-08")),
                    Some(day("2025-07-08")),
                    Some(day("2025-07-20"))
                ),
                "{backend:?} {pass}"
            );
            assert_eq!(
                (y.contracted_on, y.contracted_amount, y.chamber_meeting_id.is_some(), y.received_by_council_at.is_some()),
                (Some(day("2025-07-25")), Some(Money(240_000_000)), true, true),
                "{backend:?} {pass}: what the reopening left on the row"
            );
            assert_eq!((y.decision, y.decided_by.as_deref()), (Some(entity::vocab::Decision::Favourable), None));
            assert_eq!(y.closed_on, day("2025-09-01"), "{backend:?} {pass}");
            assert_eq!(
                (carta.contracted_on, carta.contracted_amount, carta.chamber_meeting_id, carta.received_by_council_at),
                (None, None, None, None),
                "{backend:?} {pass}: the row holds the open cycle"
            );
            let then = fco_carta::JudgedCarta::from(&carta).as_known_on(&cycles, &[], day("2025-07-30"));
            assert_eq!((then.stage, then.financed_amount), (FcoCartaStage::Contracted, Money(240_000_000)));
            if pass == "up" {
                Migrator::down(&db, Some(after_48)).await.unwrap_or_else(|e| panic!("{backend:?} down: {e}"));
                let back = db
                    .query_all_raw(sea_orm::Statement::from_string(
                        db.get_database_backend(),
                        "SELECT contracted_amount, chamber_meeting_id FROM fco_carta",
                    ))
                    .await
                    .expect("the carta");
                let (amount, meeting): (Option<i64>, Option<i64>) = (
                    back[0].try_get_by_index(0).expect("amount"),
                    back[0].try_get_by_index(1).expect("meeting"),
                );
                assert_eq!((amount, meeting.is_some()), (Some(240_000_000), true), "{backend:?}: back on the row");
            }
        }
    })
    .await;
}

/// Migration 55: a row changed in place keeps its earlier state in its revision table, written by the database
/// whoever changes the row (here a plain `UPDATE`), with every column of the row; a row updated to the same values
/// keeps nothing. (A migration that adds a column to a revised table without `revisions::refresh` fails here.)
#[tokio::test]
async fn a_row_changed_in_place_keeps_its_earlier_state_with_every_column() {
    with_each_database(|db, backend| async move {
        migrate(&db, MigrateAction::Up).await.expect("up");
        let manager = migration::SchemaManager::new(&db);
        for table in migration::m20261206_000055_revisions_known_at::REVISED {
            let unkept = migration::revisions::unkept_columns(&manager, table)
                .await
                .expect("columns");
            assert!(unkept.is_empty(), "{backend:?}: {table}_revision lacks {unkept:?}");
        }
        let exec = |sql: &'static str| {
            let db = db.clone();
            async move { db.execute_unprepared(sql).await.expect(sql) }
        };
        exec("INSERT INTO chamber_meeting (id, starts_at, notes) VALUES (9001, '2026-06-08T13:00:00Z', 'pauta')").await;
        exec("UPDATE chamber_meeting SET notes = 'pauta' WHERE id = 9001").await;
        exec("UPDATE chamber_meeting SET notes = 'ata 12/2026' WHERE id = 9001").await;
        let rows = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT notes, superseded_at FROM chamber_meeting_revision WHERE id = 9001".to_owned(),
            ))
            .await
            .expect("revisions");
        assert_eq!(rows.len(), 1, "{backend:?}: one change, one revision");
        assert_eq!(rows[0].try_get::<String>("", "notes").expect("notes"), "pauta");
        let at: chrono::DateTime<chrono::Utc> = rows[0].try_get("", "superseded_at").expect("superseded_at");
        assert!(
            (chrono::Utc::now() - at).num_seconds().abs() < 60,
            "{backend:?}: superseded {at}"
        );
    })
    .await;
}

/// Migration 51 goes up, down and up again with rows on each backend. An EXPIRED carta takes the day of its EXPIRE
/// history row; one without such a row, the 121st day after its approval; an APPROVED carta none. A meeting keeps its
/// rows and gains an opinion and the banks that received its result.
#[tokio::test]
async fn migration_51_dates_the_expired_cartas_and_goes_down_and_up_again() {
    with_each_database(|db, backend| async move {
        let before_51 = Migrator::migrations()
            .iter()
            .position(|m| m.name() == "m20261206_000051_expiry_day_and_chamber_opinion")
            .expect("migration 51");
        let after_51 = u32::try_from(Migrator::migrations().len() - before_51).expect("few");
        Migrator::up(&db, Some(u32::try_from(before_51).expect("few"))).await.expect("up to 50");
        for sql in [
            "INSERT INTO bank (code, name, serves_social_fuel, serves_fco, mda_cooperation_agreement) VALUES ('BB', 'BB', true, true, false)",
            "INSERT INTO party (document, document_kind, name) VALUES ('52998224725', 'CPF', 'João Silva')",
            "INSERT INTO chamber_meeting (starts_at) VALUES ('2025-07-08T13:00:00+00:00')",
        ] {
            db.execute_unprepared(sql).await.unwrap_or_else(|e| panic!("{backend:?}: {sql}: {e}"));
        }
        for (number, stage, status) in [("E1", "EXPIRED", "ENDED"), ("E2", "EXPIRED", "ENDED"), ("A1", "APPROVED", "APPROVED")] {
            let sql = format!(
                "INSERT INTO fco_carta (number, bank_id, party_id, line, activity, financed_amount, municipality_code, stage, status,
                    submitted_on, decision, decided_by, decided_on, approved_on, created_at)
                 SELECT '{number}', b.id, p.id, 'FCO_RURAL', 'GRAINS', 200000000, 5107909, '{stage}', '{status}', '2025-03-01',
                    'FAVOURABLE', 'CHAMBER', '2025-03-02', '2025-03-02', '2025-03-01T12:00:00+00:00' FROM bank b, party p"
            );
            db.execute_unprepared(&sql).await.unwrap_or_else(|e| panic!("{backend:?}: {sql}: {e}"));
        }
        let sql = "INSERT INTO financing_transition (programme, financing_id, from_stage, to_stage, event, occurred_on, recorded_at, actor)
             SELECT 'FCO_RURAL', id, 'APPROVED', 'EXPIRED', 'EXPIRE', '2025-07-01', '2025-07-15T12:00:00+00:00', 'system' FROM fco_carta WHERE number = 'E1'";
        db.execute_unprepared(sql).await.unwrap_or_else(|e| panic!("{backend:?}: {sql}: {e}"));
        let day = |d: &str| d.parse::<chrono::NaiveDate>().expect("day");
        for pass in ["up", "up again"] {
            Migrator::up(&db, None).await.unwrap_or_else(|e| panic!("{backend:?} {pass}: {e}"));
            let mut cartas = fco_carta::Entity::find().all(&db).await.expect("cartas");
            cartas.sort_by(|a, b| a.number.cmp(&b.number));
            let days: Vec<(&str, Option<chrono::NaiveDate>)> =
                cartas.iter().map(|c| (c.number.as_str(), c.expired_on)).collect();
            assert_eq!(
                days,
                vec![("A1", None), ("E1", Some(day("2025-07-01"))), ("E2", Some(day("2025-07-01")))],
                "{backend:?} {pass}"
            );
            let e1 = fco_carta::JudgedCarta::from(&cartas[1]);
            assert_eq!(e1.known_on(&[], &[], day("2025-06-30")).stage, FcoCartaStage::Approved, "{backend:?} {pass}");
            assert_eq!(e1.known_on(&[], &[], day("2025-07-01")).stage, FcoCartaStage::Expired, "{backend:?} {pass}");
            let m = entity::chamber_meeting::Entity::find().one(&db).await.expect("meeting").expect("a meeting");
            assert_eq!((m.opinion_at, m.opinion_reference), (None, None));
            entity::chamber_meeting_result_bank::ActiveModel {
                meeting_id: Set(m.id),
                bank_id: Set(cartas[0].bank_id),
                recorded_at: Set(chrono::Utc::now()),
                recorded_by: Set("test".into()),
                ..Default::default()
            }
            .insert(&db)
            .await
            .unwrap_or_else(|e| panic!("{backend:?} {pass}: {e}"));
            if pass == "up" {
                Migrator::down(&db, Some(after_51)).await.unwrap_or_else(|e| panic!("{backend:?} down: {e}"));
                let left = fco_carta::Entity::find().count(&db).await;
                assert!(left.is_err(), "{backend:?}: the entity reads a column gone down");
                let back = db
                    .query_all_raw(sea_orm::Statement::from_string(
                        db.get_database_backend(),
                        "SELECT COUNT(*) FROM fco_carta WHERE stage = 'EXPIRED'",
                    ))
                    .await
                    .expect("the cartas");
                let n: i64 = back[0].try_get_by_index(0).expect("count");
                assert_eq!(n, 2, "{backend:?}: the rows stay");
            }
        }
    })
    .await;
}

/// Migration 59 goes up, down and up again with rows on each backend: a delivery queued before it has no trace
/// context (it is sent in the sending run's trace); one queued after keeps its `traceparent`; down and up again keep
/// the deliveries.
#[tokio::test]
async fn migration_59_keeps_a_deliverys_trace_context_and_goes_down_and_up_again() {
    with_each_database(|db, backend| async move {
        let before_59 = Migrator::migrations()
            .iter()
            .position(|m| m.name() == "m20261206_000059_webhook_trace_context")
            .expect("migration 59");
        let after_59 = u32::try_from(Migrator::migrations().len() - before_59).expect("few");
        Migrator::up(&db, Some(u32::try_from(before_59).expect("few")))
            .await
            .expect("up to 56");
        for sql in [
            "INSERT INTO webhook (url, secret, events, created_at) VALUES ('http://127.0.0.1:9/hook', 'segredo-com-16-caracteres', '', '2026-12-01T00:00:00+00:00')",
            "INSERT INTO webhook_delivery (webhook_id, event, event_key, payload, status, attempts, created_at)
             SELECT id, 'flag.raised', 'flag.raised:1', '{}', 'RECEIVED', 0, '2026-12-01T00:00:00+00:00' FROM webhook",
        ] {
            db.execute_unprepared(sql)
                .await
                .unwrap_or_else(|e| panic!("{backend:?}: {sql}: {e}"));
        }
        Migrator::up(&db, None).await.expect("up to the last");
        let old = entity::webhook_delivery::Entity::find()
            .one(&db)
            .await
            .expect("read")
            .expect("the delivery");
        assert_eq!(old.traceparent, None, "{backend:?}: nothing invented for a delivery queued before");
        let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        entity::webhook_delivery::ActiveModel {
            webhook_id: Set(old.webhook_id),
            event: Set("flag.resolved".into()),
            event_key: Set("flag.resolved:1".into()),
            payload: Set("{}".into()),
            status: Set("RECEIVED".into()),
            attempts: Set(0),
            created_at: Set(chrono::Utc::now()),
            traceparent: Set(Some(traceparent.into())),
            ..Default::default()
        }
        .insert(&db)
        .await
        .unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        let kept = entity::webhook_delivery::Entity::find()
            .filter(entity::webhook_delivery::Column::Event.eq("flag.resolved"))
            .one(&db)
            .await
            .expect("read")
            .expect("the delivery");
        assert_eq!(kept.traceparent.as_deref(), Some(traceparent), "{backend:?}");
        Migrator::down(&db, Some(after_59))
            .await
            .unwrap_or_else(|e| panic!("{backend:?} down: {e}"));
        let back = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT event FROM webhook_delivery",
            ))
            .await
            .expect("deliveries at 56");
        assert_eq!(back.len(), 2, "{backend:?}: the deliveries stay");
        Migrator::up(&db, None)
            .await
            .unwrap_or_else(|e| panic!("{backend:?} up again: {e}"));
        let all = entity::webhook_delivery::Entity::find().all(&db).await.expect("read");
        assert_eq!(all.len(), 2, "{backend:?}");
        assert!(all.iter().all(|d| d.traceparent.is_none()), "{backend:?}: {all:?}");
    })
    .await;
}

/// Migration 57 stores a flag's message as its catalogue id and values: a flag raised before it keeps its text and
/// reads as it was; a flag stored as a message reads in Portuguese by default and in English on request; down writes
/// the id and values into the text, so no flag is left without one; up again reads both as before. On both backends.
#[tokio::test]
async fn migration_57_stores_flag_messages_as_ids_and_values_and_goes_down_and_up_again() {
    use service::messages::Lang;
    with_each_database(|db, backend| async move {
        let before_57 = Migrator::migrations()
            .iter()
            .position(|m| m.name() == "m20261206_000057_flag_messages_as_codes")
            .expect("migration 57");
        let after_57 = u32::try_from(Migrator::migrations().len() - before_57).expect("few");
        Migrator::up(&db, Some(u32::try_from(before_57).expect("few"))).await.expect("up to 56");
        let old = "INSERT INTO compliance_flag (programme, rule_code, legal_basis, message, source, raised_at, severity,
                subject_kind, subject_id, occurrence)
             VALUES ('SOCIAL_FUEL', 'SF-DECISION-30D', 'IN MDA nº 2/2005, art. 9', 'Not done; overdue by 3 days on 2015-04-10.',
                'job:flag-deadlines', '2026-01-02T03:04:05+00:00', 'VIOLATION', 'FINANCING', 7, '')";
        db.execute_unprepared(old).await.unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        Migrator::up(&db, None).await.unwrap_or_else(|e| panic!("{backend:?} up: {e}"));
        let flags = |db: sea_orm::DatabaseConnection| async move {
            let mut all = entity::compliance_flag::Entity::find().all(&db).await.expect("flags");
            all.sort_by_key(|f| f.id);
            all
        };
        let kept = flags(db.clone()).await;
        assert_eq!(kept.len(), 1);
        assert_eq!((kept[0].message_id.as_deref(), kept[0].message_args.as_deref()), (None, None), "{backend:?}");
        for lang in [Lang::PtBr, Lang::En] {
            assert_eq!(
                service::l10n::flag_message(&kept[0], lang),
                "Not done; overdue by 3 days on 2015-04-10.",
                "{backend:?}: a flag stored as text reads as it was"
            );
        }
        let coded = "INSERT INTO compliance_flag (programme, rule_code, legal_basis, message, message_id, message_args,
                source, raised_at, severity, subject_kind, subject_id, occurrence)
             VALUES ('FCO_RURAL', 'FCO-CEILING', 'IN CDAE/MT 2019, art. 4', '', 'fco-ceiling',
                '{\"exposure\":\"15500000.00\",\"ceiling\":\"15000000\"}', 'job:flag-deadlines',
                '2026-01-02T03:04:05+00:00', 'VIOLATION', 'FINANCING', 8, '')";
        db.execute_unprepared(coded).await.unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        let both = flags(db.clone()).await;
        assert_eq!(
            service::l10n::flag_message(&both[1], Lang::PtBr),
            "esta carta e as cartas aprovadas e contratadas do grupo do tomador somam R$ 15.500.000,00 (teto R$ 15.000.000,00)",
            "{backend:?}"
        );
        assert_eq!(
            service::l10n::flag_message(&both[1], Lang::En),
            "this carta and the approved and contracted cartas of the borrower's group add up to R$ 15,500,000.00 (ceiling R$ 15,000,000.00)",
            "{backend:?}"
        );
        Migrator::down(&db, Some(after_57)).await.unwrap_or_else(|e| panic!("{backend:?} down: {e}"));
        let back = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT message FROM compliance_flag ORDER BY id",
            ))
            .await
            .expect("flags at 56");
        let texts: Vec<String> = back.iter().map(|r| r.try_get("", "message").expect("message")).collect();
        assert_eq!(texts[0], "Not done; overdue by 3 days on 2015-04-10.", "{backend:?}");
        assert!(
            texts[1].starts_with("fco-ceiling {") && texts[1].contains("15500000.00"),
            "{backend:?}: the id and values written into the text: {texts:?}"
        );
        Migrator::up(&db, None).await.unwrap_or_else(|e| panic!("{backend:?} up again: {e}"));
        let again = flags(db.clone()).await;
        assert_eq!(again.len(), 2, "{backend:?}");
        assert!(again.iter().all(|f| f.message_id.is_none()), "{backend:?}: stored as text after down");
        assert_eq!(service::l10n::flag_message(&again[0], Lang::PtBr), texts[0], "{backend:?}");
        let w = "INSERT INTO webhook (url, secret, events, created_at, lang) VALUES ('http://x/h', 'sixteen characters', '', '2026-01-02T03:04:05+00:00', 'en')";
        db.execute_unprepared(w).await.unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        let hook = entity::webhook::Entity::find().one(&db).await.expect("read").expect("the webhook");
        assert_eq!(hook.lang.as_deref(), Some("en"), "{backend:?}");
    })
    .await;
}

/// Migration 58 goes up, down and up again with rows on each backend: an amendment recorded before it states nothing
/// about the properties of art. 15 d (none, not invented); one written after it keeps what it states; going down keeps
/// the amendment and drops the fact, and going up again leaves it unstated.
#[tokio::test]
async fn migration_58_adds_the_properties_listed_of_an_amendment_and_goes_down_and_up_again() {
    use entity::fco_carta_amendment;
    with_each_database(|db, backend| async move {
        let before_58 = Migrator::migrations()
            .iter()
            .position(|m| m.name() == "m20261206_000058_amendment_properties_listed")
            .expect("migration 58");
        let after_58 = u32::try_from(Migrator::migrations().len() - before_58).expect("few");
        Migrator::up(&db, Some(u32::try_from(before_58).expect("few"))).await.expect("up to 56");
        for sql in [
            "INSERT INTO bank (code, name, serves_social_fuel, serves_fco, mda_cooperation_agreement) VALUES ('BB', 'BB', true, true, false)",
            "INSERT INTO party (document, document_kind, name) VALUES ('52998224725', 'CPF', 'João Silva')",
            "INSERT INTO fco_carta (number, bank_id, party_id, line, activity, financed_amount, municipality_code, stage, status,
                submitted_on, decision, decided_by, decided_on, approved_on, created_at)
             SELECT 'M1', b.id, p.id, 'FCO_RURAL', 'GRAINS', 50000000, 5107909, 'APPROVED', 'APPROVED', '2025-03-01',
                'FAVOURABLE', 'BANK', '2025-03-02', '2025-03-02', '2025-03-01T12:00:00+00:00' FROM bank b, party p",
            "INSERT INTO fco_carta_amendment (carta_id, kind, requested_on, old_amount, new_amount, description, requires_new_approval)
             SELECT id, 'MUNICIPALITY_CHANGE', '2025-04-01', 50000000, 50000000, 'imóvel em Sorriso', false FROM fco_carta",
        ] {
            db.execute_unprepared(sql).await.unwrap_or_else(|e| panic!("{backend:?}: {sql}: {e}"));
        }
        Migrator::up(&db, None).await.unwrap_or_else(|e| panic!("{backend:?} up: {e}"));
        let a = fco_carta_amendment::Entity::find().one(&db).await.expect("read").expect("the amendment");
        assert_eq!((a.properties_listed, a.description.as_str()), (None, "imóvel em Sorriso"), "{backend:?}");
        let mut stated: fco_carta_amendment::ActiveModel = a.clone().into();
        stated.id = sea_orm::ActiveValue::NotSet;
        stated.requested_on = Set(chrono::NaiveDate::from_ymd_opt(2025, 5, 1).expect("day"));
        stated.properties_listed = Set(Some(true));
        stated.recorded_at = sea_orm::ActiveValue::NotSet;
        stated.insert(&db).await.unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        let mut all = fco_carta_amendment::Entity::find().all(&db).await.expect("read");
        all.sort_by_key(|a| a.requested_on);
        let listed: Vec<Option<bool>> = all.iter().map(|a| a.properties_listed).collect();
        assert_eq!(listed, vec![None, Some(true)], "{backend:?}");
        assert!(all[1].recorded_at.is_some(), "{backend:?}: the insert is still stamped");
        Migrator::down(&db, Some(after_58)).await.unwrap_or_else(|e| panic!("{backend:?} down: {e}"));
        assert!(
            fco_carta_amendment::Entity::find().all(&db).await.is_err(),
            "{backend:?}: the entity reads a column gone down"
        );
        let back = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT COUNT(*) FROM fco_carta_amendment",
            ))
            .await
            .expect("the amendments at 56");
        let n: i64 = back[0].try_get_by_index(0).expect("count");
        assert_eq!(n, 2, "{backend:?}: the amendments stay");
        Migrator::up(&db, None).await.unwrap_or_else(|e| panic!("{backend:?} up again: {e}"));
        let all = fco_carta_amendment::Entity::find().all(&db).await.expect("read");
        assert!(all.iter().all(|a| a.properties_listed.is_none()), "{backend:?}: {all:?}");
    })
    .await;
}

/// Migration 60 stores the reason the flag pass resolves a flag as its catalogue id and values: a flag resolved before
/// keeps its text in every language; one stored as a message reads in Portuguese by default and in English on request;
/// down writes the id and values into the text, so no reason is left without one. On both backends.
#[tokio::test]
async fn migration_60_stores_the_flag_passs_resolutions_as_ids_and_values_and_goes_down_and_up_again() {
    use service::messages::Lang;
    with_each_database(|db, backend| async move {
        let before_60 = Migrator::migrations()
            .iter()
            .position(|m| m.name() == "m20261206_000060_flag_resolution_as_message")
            .expect("migration 60");
        let after_60 = u32::try_from(Migrator::migrations().len() - before_60).expect("few");
        Migrator::up(&db, Some(u32::try_from(before_60).expect("few"))).await.expect("up to 59");
        let old = "INSERT INTO compliance_flag (programme, rule_code, legal_basis, message, source, raised_at, severity,
                subject_kind, subject_id, occurrence, resolved_at, resolved_by, resolution)
             VALUES ('SOCIAL_FUEL', 'SF-DECISION-30D', 'IN MDA nº 2/2005, art. 9', 'late', 'job:flag-deadlines',
                '2026-01-02T03:04:05+00:00', 'VIOLATION', 'FINANCING', 7, '', '2026-01-03T03:04:05+00:00',
                'job:flag-deadlines', 'no longer called for on 2026-01-03: done')";
        db.execute_unprepared(old).await.unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        Migrator::up(&db, None).await.unwrap_or_else(|e| panic!("{backend:?} up: {e}"));
        let flags = |db: sea_orm::DatabaseConnection| async move {
            let mut all = entity::compliance_flag::Entity::find().all(&db).await.expect("flags");
            all.sort_by_key(|f| f.id);
            all
        };
        let kept = flags(db.clone()).await;
        for lang in [Lang::PtBr, Lang::En] {
            assert_eq!(
                service::l10n::flag_resolution(&kept[0], lang).as_deref(),
                Some("no longer called for on 2026-01-03: done"),
                "{backend:?}: a reason stored as text reads as it was"
            );
        }
        let coded = "INSERT INTO compliance_flag (programme, rule_code, legal_basis, message, source, raised_at, severity,
                subject_kind, subject_id, occurrence, resolved_at, resolved_by, resolution, resolution_id, resolution_args)
             VALUES ('SOCIAL_FUEL', 'SF-DECISION-30D', 'IN MDA nº 2/2005, art. 9', 'late', 'job:flag-deadlines',
                '2026-01-02T03:04:05+00:00', 'VIOLATION', 'FINANCING', 8, '', '2026-12-06T03:04:05+00:00',
                'job:flag-deadlines', '', 'flag-resolved-gone', '{\"on\":\"2026-12-06\"}')";
        db.execute_unprepared(coded).await.unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        let both = flags(db.clone()).await;
        assert_eq!(
            service::l10n::flag_resolution(&both[1], Lang::PtBr).as_deref(),
            Some("deixou de valer em 06/12/2026: seu objeto não tem mais este prazo ou regra"),
            "{backend:?}"
        );
        assert_eq!(
            service::l10n::flag_resolution(&both[1], Lang::En).as_deref(),
            Some("no longer called for on 2026-12-06: its subject no longer has this deadline or rule"),
            "{backend:?}"
        );
        Migrator::down(&db, Some(after_60)).await.unwrap_or_else(|e| panic!("{backend:?} down: {e}"));
        let back = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT resolution FROM compliance_flag ORDER BY id",
            ))
            .await
            .expect("flags at 59");
        let texts: Vec<String> = back.iter().map(|r| r.try_get("", "resolution").expect("resolution")).collect();
        assert_eq!(texts[0], "no longer called for on 2026-01-03: done", "{backend:?}");
        assert!(
            texts[1].starts_with("flag-resolved-gone {") && texts[1].contains("2026-12-06"),
            "{backend:?}: the id and values written into the text: {texts:?}"
        );
        Migrator::up(&db, None).await.unwrap_or_else(|e| panic!("{backend:?} up again: {e}"));
        let again = flags(db.clone()).await;
        assert_eq!(again.len(), 2, "{backend:?}");
        assert!(again.iter().all(|f| f.resolution_id.is_none()), "{backend:?}: stored as text after down");
    })
    .await;
}

/// Migration 61 stores the history notes Fomento writes itself as their catalogue id and values: a note written
/// before keeps its text in every language; one stored as a message reads in Portuguese by default and in English on
/// request; down writes the id and values into the text, so no note is left without one. On both backends.
#[tokio::test]
async fn migration_61_stores_fomentos_history_notes_as_ids_and_values_and_goes_down_and_up_again() {
    use service::messages::Lang;
    with_each_database(|db, backend| async move {
        let before_61 = Migrator::migrations()
            .iter()
            .position(|m| m.name() == "m20261206_000061_history_note_as_message")
            .expect("migration 61");
        let after_61 = u32::try_from(Migrator::migrations().len() - before_61).expect("few");
        Migrator::up(&db, Some(u32::try_from(before_61).expect("few")))
            .await
            .expect("up to 60");
        let old = "INSERT INTO financing_transition (programme, financing_id, from_stage, to_stage, event, occurred_on,
                recorded_at, actor, note)
             VALUES ('FCO_RURAL', 7, 'APPROVED', 'EXPIRED', 'EXPIRE', '2026-07-01', '2026-07-01T08:30:00+00:00',
                'job:expire-approvals', 'FCO-VALIDITY-120D: the 120 days ended on 2026-06-30')";
        db.execute_unprepared(old)
            .await
            .unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        Migrator::up(&db, None)
            .await
            .unwrap_or_else(|e| panic!("{backend:?} up: {e}"));
        let rows = |db: sea_orm::DatabaseConnection| async move {
            let mut all = entity::financing_transition::Entity::find()
                .all(&db)
                .await
                .expect("history");
            all.sort_by_key(|t| t.id);
            all
        };
        let kept = rows(db.clone()).await;
        for lang in [Lang::PtBr, Lang::En] {
            assert_eq!(
                service::l10n::history_note(&kept[0], lang).as_deref(),
                Some("FCO-VALIDITY-120D: the 120 days ended on 2026-06-30"),
                "{backend:?}: a note stored as text reads as it was"
            );
        }
        let coded =
            "INSERT INTO financing_transition (programme, financing_id, from_stage, to_stage, event, occurred_on,
                recorded_at, actor, note, note_id, note_args)
             VALUES ('FCO_RURAL', 8, 'SUBMITTED', 'APPROVED', 'DECIDE', '2019-05-10', '2019-06-01T08:30:00+00:00',
                'bank report 3', NULL, 'history-declared-in-list', '{\"month\":\"2019-05\"}')";
        db.execute_unprepared(coded)
            .await
            .unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        let both = rows(db.clone()).await;
        assert_eq!(
            service::l10n::history_note(&both[1], Lang::PtBr).as_deref(),
            Some("declarada na relação mensal de 2019-05"),
            "{backend:?}"
        );
        assert_eq!(
            service::l10n::history_note(&both[1], Lang::En).as_deref(),
            Some("declared in the monthly list of 2019-05"),
            "{backend:?}"
        );
        Migrator::down(&db, Some(after_61))
            .await
            .unwrap_or_else(|e| panic!("{backend:?} down: {e}"));
        let back = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT note FROM financing_transition ORDER BY id",
            ))
            .await
            .expect("history at 60");
        let texts: Vec<String> = back.iter().map(|r| r.try_get("", "note").expect("note")).collect();
        assert_eq!(
            texts[0], "FCO-VALIDITY-120D: the 120 days ended on 2026-06-30",
            "{backend:?}"
        );
        assert!(
            texts[1].starts_with("history-declared-in-list {") && texts[1].contains("2019-05"),
            "{backend:?}: the id and values written into the text: {texts:?}"
        );
        Migrator::up(&db, None)
            .await
            .unwrap_or_else(|e| panic!("{backend:?} up again: {e}"));
        let again = rows(db.clone()).await;
        assert_eq!(again.len(), 2, "{backend:?}");
        assert!(
            again.iter().all(|t| t.note_id.is_none()),
            "{backend:?}: stored as text after down"
        );
    })
    .await;
}

/// Migration 62 stores a job run's summary as its catalogue code and values: a summary stored before keeps its text in
/// every language; one stored as a message reads in Portuguese by default and in English on request; down writes the
/// code and values into the text, so no run is left without one. On both backends.
#[tokio::test]
async fn migration_62_stores_job_run_summaries_as_codes_and_values_and_goes_down_and_up_again() {
    use service::messages::Lang;
    with_each_database(|db, backend| async move {
        let before_62 = Migrator::migrations()
            .iter()
            .position(|m| m.name() == "m20261206_000062_job_run_message_as_message")
            .expect("migration 62");
        let after_62 = u32::try_from(Migrator::migrations().len() - before_62).expect("few");
        Migrator::up(&db, Some(u32::try_from(before_62).expect("few")))
            .await
            .expect("up to 61");
        let old = "INSERT INTO job_run (job, slot, worker, status, started_at, finished_at, processed, failed, message)
             VALUES ('purge-raw-files', 'old', 'w', 'SUCCEEDED', '2026-07-01T08:30:00+00:00',
                '2026-07-01T08:30:01+00:00', 0, 0, 'raw files received before 2021-07-01 purged: 0 files')";
        db.execute_unprepared(old)
            .await
            .unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        Migrator::up(&db, None)
            .await
            .unwrap_or_else(|e| panic!("{backend:?} up: {e}"));
        let coded =
            "INSERT INTO job_run (job, slot, worker, status, started_at, finished_at, processed, failed, message,
                message_id, message_args)
             VALUES ('purge-raw-files', 'new', 'w', 'SUCCEEDED', '2026-07-02T08:30:00+00:00',
                '2026-07-02T08:30:01+00:00', 2, 0, NULL, 'JOB_PURGE_DONE',
                '{\"before\":\"2021-07-02\",\"files\":\"2\",\"reports\":\"1\",\"imports\":\"1\",\"kept\":\"0\"}')";
        db.execute_unprepared(coded)
            .await
            .unwrap_or_else(|e| panic!("{backend:?}: {e}"));
        let mut runs = entity::job_run::Entity::find().all(&db).await.expect("runs");
        runs.sort_by_key(|r| r.id);
        for lang in [Lang::PtBr, Lang::En] {
            assert_eq!(
                service::reports::job_run_message(&runs[0], lang).as_deref(),
                Some("raw files received before 2021-07-01 purged: 0 files"),
                "{backend:?}: a summary stored as text reads as it was"
            );
        }
        assert_eq!(
            service::reports::job_run_message(&runs[1], Lang::PtBr).as_deref(),
            Some(
                "arquivos brutos recebidos antes de 02/07/2021 apagados: 2 arquivos (1 relação, 1 importação); 0 \
                 mantidos para um envio posterior"
            ),
            "{backend:?}"
        );
        assert_eq!(
            service::reports::job_run_message(&runs[1], Lang::En).as_deref(),
            Some(
                "raw files received before 2021-07-02 purged: 2 files (1 report, 1 import); 0 kept for a later upload"
            ),
            "{backend:?}"
        );
        Migrator::down(&db, Some(after_62))
            .await
            .unwrap_or_else(|e| panic!("{backend:?} down: {e}"));
        let back = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT message FROM job_run ORDER BY id",
            ))
            .await
            .expect("runs at 61");
        let texts: Vec<String> = back
            .iter()
            .map(|r| r.try_get("", "message").expect("message"))
            .collect();
        assert_eq!(
            texts[0], "raw files received before 2021-07-01 purged: 0 files",
            "{backend:?}"
        );
        assert!(
            texts[1].starts_with("JOB_PURGE_DONE {") && texts[1].contains("2021-07-02"),
            "{backend:?}: the code and values written into the text: {texts:?}"
        );
        Migrator::up(&db, None)
            .await
            .unwrap_or_else(|e| panic!("{backend:?} up again: {e}"));
        let again = entity::job_run::Entity::find().all(&db).await.expect("runs");
        assert_eq!(again.len(), 2, "{backend:?}");
        assert!(
            again.iter().all(|r| r.message_id.is_none()),
            "{backend:?}: stored as text after down"
        );
    })
    .await;
}
