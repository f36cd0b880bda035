//! A project's contract proposals are facts SF-REPRESENTATION and SF-CONTRACT-TERMS read: once MDA has decided on
//! the framing, a correction is a new version with its author and reason, as a carta's items are after the
//! chamber's decision (migration 18).

use crate::util::{VERSION_COLUMNS, add_columns, drop_columns, version_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(manager, "contract_proposal", version_columns()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "contract_proposal", &VERSION_COLUMNS).await
    }
}
