//! Two dated facts that were overwritten:
//! - the facts a carta states at its creation (sires the producer has, artificial insemination, the qualified
//!   professional, term, grace, special demand) are corrected as dated versions: the carta row holds the version in
//!   force now and `stated_on`, the first day it holds (none: from the carta's creation); each version a correction
//!   replaced is kept in `fco_carta_statement` with the day it held from, the moment it was replaced (`recorded_at`,
//!   set by the database) and why;
//! - MDA's acceptance of a delay of a social-fuel project's implementation schedule (IN MDA nº 2/2005, art. 10 §2)
//!   gets its day (`delay_accepted_on`), and the end scheduled before the delay is kept (`original_implementation_end`):
//!   before the acceptance the schedule ends on it. Projects already recorded with an accepted delay keep no day (read
//!   as accepted from the start) and no earlier end.

use crate::revisions::{drop_trigger, refresh, stamp_inserts};
use crate::util::{add_columns, drop_columns, drop_tables, fk, index};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

const PROJECT_COLUMNS: [&str; 2] = ["delay_accepted_on", "original_implementation_end"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    /// In one transaction on every backend: the revision triggers are dropped and written again on one connection
    /// (on SQLite another connection of the pool could still hold the trigger being replaced).
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "fco_carta",
            [ColumnDef::new("stated_on").date().null().to_owned()],
        )
        .await?;
        refresh(manager, "fco_carta").await?;
        manager
            .create_table(
                Table::create()
                    .table("fco_carta_statement")
                    .col(big_pk_auto("id"))
                    .col(big_integer("carta_id"))
                    .col(integer_null("existing_sires"))
                    .col(boolean_null("artificial_insemination"))
                    .col(text_null("professional_name"))
                    .col(integer_null("term_months"))
                    .col(integer_null("grace_months"))
                    .col(boolean("special_demand"))
                    .col(date_null("effective_on"))
                    .col(string("replaced_by"))
                    .col(text("change_reason"))
                    .foreign_key(&mut fk("fco_carta_statement", "carta_id", "fco_carta"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("fco_carta_statement", &["carta_id"]))
            .await?;
        stamp_inserts(manager, "fco_carta_statement").await?;
        add_columns(
            manager,
            "social_fuel_project",
            [
                ColumnDef::new(PROJECT_COLUMNS[0]).date().null().to_owned(),
                ColumnDef::new(PROJECT_COLUMNS[1]).date().null().to_owned(),
            ],
        )
        .await?;
        refresh(manager, "social_fuel_project").await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // The revision trigger names every column: it goes first and is written again without the dropped ones (the
        // revision tables keep theirs, empty from now on).
        for t in ["social_fuel_project", "fco_carta"] {
            drop_trigger(manager, t).await?;
        }
        drop_columns(manager, "social_fuel_project", &PROJECT_COLUMNS).await?;
        refresh(manager, "social_fuel_project").await?;
        drop_tables(manager, &["fco_carta_statement"]).await?;
        drop_columns(manager, "fco_carta", &["stated_on"]).await?;
        refresh(manager, "fco_carta").await
    }
}
