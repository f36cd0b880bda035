//! A date the sanity checks need (issue 16, point 9): the day MDA's external evaluation started, so that no
//! evaluation is concluded before it started.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "social_fuel_project",
            [ColumnDef::new("evaluation_started_on").date().null().to_owned()],
        )
        .await?;
        // Projects already evaluated or under evaluation: the start their history recorded.
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE social_fuel_project SET evaluation_started_on = (
                    SELECT MAX(t.occurred_on) FROM financing_transition t
                    WHERE t.programme = 'SOCIAL_FUEL' AND t.financing_id = social_fuel_project.id
                      AND t.event = 'START_EVALUATION')",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "social_fuel_project", &["evaluation_started_on"]).await
    }
}
