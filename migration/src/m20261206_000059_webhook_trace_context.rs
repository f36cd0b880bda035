//! A webhook delivery keeps the W3C trace context (`traceparent`) of the work that caused its event (the request
//! whose act raised a flag, the job run that ingested a report), so the receiver's trace goes on from that work
//! rather than from the later run of `deliver-webhooks` that sends it. Deliveries queued before have none: they are
//! sent with the sending run's trace, as before.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "webhook_delivery",
            [ColumnDef::new("traceparent").string_len(64).null().to_owned()],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "webhook_delivery", &["traceparent"]).await
    }
}
