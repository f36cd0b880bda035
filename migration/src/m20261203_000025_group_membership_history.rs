//! The history of economic-group membership: who joined which group when, and when they left, as recorded. A rule
//! judged `asOf` a day reads the groups as known that day (FCO-CEILING, FCO-WEANED-2000). `party.economic_group_id`
//! stays the current membership (the ingestion's set-based ceiling reads it). Members from before this history was
//! kept are known from the start (`joined_at` empty).

use crate::util::{fk, index};
use sea_orm_migration::{prelude::*, schema::big_pk_auto};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("economic_group_membership")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(ColumnDef::new("group_id").big_integer().not_null())
                    .col(ColumnDef::new("party_id").big_integer().not_null())
                    .col(ColumnDef::new("joined_at").timestamp_with_time_zone().null())
                    .col(ColumnDef::new("recorded_by").string().not_null())
                    .col(ColumnDef::new("left_at").timestamp_with_time_zone().null())
                    .col(ColumnDef::new("left_recorded_by").string().null())
                    .foreign_key(&mut fk("economic_group_membership", "group_id", "economic_group"))
                    .foreign_key(&mut fk("economic_group_membership", "party_id", "party"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("economic_group_membership", &["party_id"]))
            .await?;
        manager
            .create_index(index("economic_group_membership", &["group_id"]))
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "INSERT INTO economic_group_membership (group_id, party_id, joined_at, recorded_by) \
                 SELECT economic_group_id, id, NULL, 'before-history' FROM party WHERE economic_group_id IS NOT NULL",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("economic_group_membership").if_exists().to_owned())
            .await
    }
}
