//! Storage on both backends: migrations up, down and fresh; exact money; the demo dataset.

use crate::helpers::{on_each_backend, with_each_database};
use entity::{
    bank,
    domain::Money,
    fco_carta, municipality, party, social_fuel_project,
    vocab::{FcoCartaStage, SocialFuelStage},
};
use fomento_api::{config::MigrateAction, startup::migrate};
use migration::{Migrator, MigratorTrait};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
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
        assert_eq!(stages.len(), 10, "every social-fuel stage");
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
