//! A flag's message is stored as the catalogue message saying what was found and its values, rendered when read in
//! the reader's language (issue 43): `message_id` (`fco-ceiling`) and `message_args` (JSON: by name, dates ISO, amounts
//! as decimals, clauses as objects). Both are `NULL` for a flag stored as text: one raised before this migration (its
//! text, English, stays in `message` and is shown as it is) or by a rule whose explanations are not in the catalogue
//! yet. A flag stored as a message keeps `message` empty (the row stays narrow: nothing is rendered in the flag pass).
//!
//! A webhook gets a language (`lang`: `NULL` or `pt-BR` for Portuguese, `en` for English), in which the messages of the
//! flags it is sent are written.
//!
//! Down drops the columns; a flag stored as a message first gets `message_id` and `message_args` written into
//! `message` (`fco-ceiling {"exposure": …}`), so no flag is left without a text.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The columns added to `compliance_flag`.
pub const FLAG_COLUMNS: [&str; 2] = ["message_id", "message_args"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "compliance_flag",
            [
                ColumnDef::new(FLAG_COLUMNS[0]).string().null().to_owned(),
                ColumnDef::new(FLAG_COLUMNS[1]).text().null().to_owned(),
            ],
        )
        .await?;
        add_columns(manager, "webhook", [ColumnDef::new("lang").string().null().to_owned()]).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE compliance_flag SET message = message_id || ' ' || COALESCE(message_args, '{}') \
                 WHERE message_id IS NOT NULL",
            )
            .await?;
        drop_columns(manager, "webhook", &["lang"]).await?;
        drop_columns(manager, "compliance_flag", &FLAG_COLUMNS).await
    }
}
