//! A history note Fomento writes itself (a carta's expiry, an amendment's judgement, a bank's list declaring a
//! stage) is stored as a catalogue message and its values (`note_id`, `note_args`, as a flag's `message_id` and
//! `message_args` since migration 57), rendered when read in the reader's language; `note` then holds nothing. A
//! person's note, and every note written before, keep their text.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "financing_transition",
            [
                ColumnDef::new("note_id").string_len(100).null().to_owned(),
                ColumnDef::new("note_args").text().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // No note left without a text: the id and values go into `note`, as migration 60's down does.
        let db = manager.get_connection();
        db.execute_unprepared(
            "UPDATE financing_transition SET note = note_id || ' ' || COALESCE(note_args, '') \
             WHERE note_id IS NOT NULL",
        )
        .await?;
        drop_columns(manager, "financing_transition", &["note_id", "note_args"]).await
    }
}
