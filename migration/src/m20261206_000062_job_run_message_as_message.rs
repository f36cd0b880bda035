//! A job run's one-line summary is stored as a catalogue message and its values (`message_id`, `message_args`, as a
//! history note's `note_id` and `note_args` since migration 61), rendered when read in the reader's language (the
//! graph's `JobRun.message`, `fomento jobs run`); `message` then holds nothing. A failed run keeps its error's text in
//! `message`, and every run recorded before keeps its English summary.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "job_run",
            [
                ColumnDef::new("message_id").string_len(100).null().to_owned(),
                ColumnDef::new("message_args").text().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // No summary left without a text: the id and values go into `message`, as migration 61's down does.
        let db = manager.get_connection();
        db.execute_unprepared(
            "UPDATE job_run SET message = message_id || ' ' || COALESCE(message_args, '') WHERE message_id IS NOT NULL",
        )
        .await?;
        drop_columns(manager, "job_run", &["message_id", "message_args"]).await
    }
}
