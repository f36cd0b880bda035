//! Two facts of art. 11 of IN MDA nº 2/2005 that had nowhere to go: the company's justifications and contestations of a
//! non-conformity (art. 11 II: their date and content, which MDA accepts or not) and MDA's notice to the bank that
//! approved the project (art. 11 II and §1: its date and reference). Projects already recorded keep none.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const COLUMNS: [&str; 4] = [
    "justifications_filed_on",
    "justifications_content",
    "bank_notified_on",
    "bank_notice_reference",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "social_fuel_project",
            [
                ColumnDef::new(COLUMNS[0]).date().null().to_owned(),
                ColumnDef::new(COLUMNS[1]).text().null().to_owned(),
                ColumnDef::new(COLUMNS[2]).date().null().to_owned(),
                ColumnDef::new(COLUMNS[3]).text().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "social_fuel_project", &COLUMNS).await
    }
}
