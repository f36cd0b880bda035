//! What the record held at any instant (`knownAt`, issue 41): the rows changed in place keep their earlier states in
//! revision tables written by the database ([`crate::revisions`]: `fco_carta`, `social_fuel_project`,
//! `chamber_meeting`); the facts appended in one piece get the moment they were recorded (`recorded_at` on amendments,
//! closed approval cycles and change notices, set by the database on insert); a checklist confirmation that a later
//! one ended keeps the moment it was ended (`ended_at`). Rows already there have no earlier states and no moments:
//! they are read as known from the start.

use crate::revisions::{install, stamp_inserts, uninstall, unstamp_inserts};
use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The tables changed in place, whose earlier states are kept.
pub const REVISED: [&str; 3] = ["fco_carta", "social_fuel_project", "chamber_meeting"];

/// The facts appended in one piece, stamped with the moment recorded.
const STAMPED: [&str; 3] = ["fco_carta_amendment", "fco_carta_cycle", "company_change_notice"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for t in REVISED {
            install(manager, t).await?;
        }
        for t in STAMPED {
            stamp_inserts(manager, t).await?;
        }
        add_columns(
            manager,
            "checklist_confirmation",
            [ColumnDef::new("ended_at").timestamp_with_time_zone().null().to_owned()],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "checklist_confirmation", &["ended_at"]).await?;
        for t in STAMPED {
            unstamp_inserts(manager, t).await?;
        }
        for t in REVISED {
            uninstall(manager, t).await?;
        }
        Ok(())
    }
}
