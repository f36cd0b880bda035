//! Webhooks: receivers registered by the operator (`fomento webhooks add`), each narrowed to a programme, a bank and
//! a list of events, and one delivery per (receiver, event), claimed with a lease like the reports are, retried with
//! backoff up to ten attempts over a day, then `FAILED`.

use crate::util::{drop_tables, fk, index};
use sea_orm_migration::{prelude::*, schema::big_pk_auto};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("webhook")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(ColumnDef::new("url").text().not_null())
                    .col(ColumnDef::new("secret").text().not_null())
                    .col(ColumnDef::new("programme").string().null())
                    .col(ColumnDef::new("bank_id").big_integer().null())
                    .col(ColumnDef::new("events").text().not_null())
                    .col(ColumnDef::new("created_at").timestamp_with_time_zone().not_null())
                    .col(ColumnDef::new("removed_at").timestamp_with_time_zone().null())
                    .foreign_key(&mut fk("webhook", "bank_id", "bank"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("webhook_delivery")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(ColumnDef::new("webhook_id").big_integer().not_null())
                    .col(ColumnDef::new("event").string().not_null())
                    .col(ColumnDef::new("event_key").string().not_null())
                    .col(ColumnDef::new("payload").text().not_null())
                    .col(ColumnDef::new("status").string().not_null())
                    .col(ColumnDef::new("attempts").integer().not_null().default(0))
                    .col(ColumnDef::new("claimed_by").string().null())
                    .col(ColumnDef::new("lease_until").timestamp_with_time_zone().null())
                    .col(ColumnDef::new("last_error").text().null())
                    .col(ColumnDef::new("last_status").integer().null())
                    .col(ColumnDef::new("created_at").timestamp_with_time_zone().not_null())
                    .col(ColumnDef::new("processed_at").timestamp_with_time_zone().null())
                    .foreign_key(&mut fk("webhook_delivery", "webhook_id", "webhook"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_webhook_delivery_event")
                    .table("webhook_delivery")
                    .col("webhook_id")
                    .col("event_key")
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager.create_index(index("webhook_delivery", &["status"])).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(manager, &["webhook_delivery", "webhook"]).await
    }
}
