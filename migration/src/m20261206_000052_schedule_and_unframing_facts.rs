//! Facts of arts. 10 and 11 of IN MDA nº 2/2005 that had nowhere to go: the day the company presented its
//! physical-financial schedule to MDA (art. 10 caput); the bank's acceptance of a schedule delay, its own act, with
//! its day and who accepted it (art. 10 §2: MDA accepts a delay only once the bank has); and the day and reference of
//! the update of MDA's public database on an unframing (art. 11 II). Projects already recorded keep none.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const COLUMNS: [&str; 5] = [
    "schedule_presented_on",
    "delay_bank_accepted_on",
    "delay_bank_accepted_by",
    "public_update_on",
    "public_update_reference",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "social_fuel_project",
            [
                ColumnDef::new(COLUMNS[0]).date().null().to_owned(),
                ColumnDef::new(COLUMNS[1]).date().null().to_owned(),
                ColumnDef::new(COLUMNS[2]).text().null().to_owned(),
                ColumnDef::new(COLUMNS[3]).date().null().to_owned(),
                ColumnDef::new(COLUMNS[4]).text().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "social_fuel_project", &COLUMNS).await
    }
}
