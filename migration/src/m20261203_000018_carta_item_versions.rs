//! A carta's items are facts the rules read (FCO-SIRE-*, FCO-BOAR-RATIO, FCO-PANTANAL, FCO-WEANED-2000,
//! FCO-USED-MACHINE, FCO-CLASSIFY): once the chamber or the bank has decided on them, a correction is a new version
//! with its author and reason, never an overwrite. Each row says when and by whom it was recorded, and, once
//! corrected or removed, when, by which version (none when removed) and why. Rows from before have no recording time
//! and count as known from the start.

use crate::util::{VERSION_COLUMNS, add_columns, drop_columns, version_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(manager, "fco_carta_item", version_columns()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "fco_carta_item", &VERSION_COLUMNS).await
    }
}
