//! The delimitations of the semi-arid an operator loads (`fomento import semi-arid`, issue 16, point 7): each one's
//! instrument and dates, so that a municipality outside a loaded list reads as outside it. (The shipped ones, 2017 and
//! 2021, are known to the rules by name.)

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("semi_arid_delimitation")
                    .col(big_pk_auto("id"))
                    .col(string_uniq("source"))
                    .col(date("effective_from"))
                    .col(date_null("effective_to"))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("semi_arid_delimitation").to_owned())
            .await
    }
}
