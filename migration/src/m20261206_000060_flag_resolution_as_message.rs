//! The reason the flag pass resolves a flag (`no longer called for on …`) is stored as a catalogue message and its
//! values (`resolution_id`, `resolution_args`, as `message_id` and `message_args` since migration 57), rendered when
//! read in the reader's language; `resolution` then holds nothing. A person's reason, and the flags resolved before,
//! keep their text.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "compliance_flag",
            [
                ColumnDef::new("resolution_id").string_len(100).null().to_owned(),
                ColumnDef::new("resolution_args").text().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // No reason left without a text: the id and values go into `resolution`, as migration 57's down does.
        let db = manager.get_connection();
        db.execute_unprepared(
            "UPDATE compliance_flag SET resolution = resolution_id || ' ' || COALESCE(resolution_args, '') \
             WHERE resolution_id IS NOT NULL",
        )
        .await?;
        drop_columns(manager, "compliance_flag", &["resolution_id", "resolution_args"]).await
    }
}
