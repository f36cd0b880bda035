//! The non-business calendar per authority (issue 16, point 11): a deadline of MDA counts the federal calendar, one of
//! the CDAE/SEDEC Mato Grosso's, a bank's the banking calendar. Carnival and Corpus Christi are *pontos facultativos*
//! for the federal and state offices, not legal holidays (banks close: ANBIMA lists them): closed by default, and an
//! operator records a day an office stayed open. State and municipal holidays are data an operator records.
//!
//! `non_business_day` had a column-level unique key on `day`, which SQLite cannot drop; the days move to
//! `calendar_day`, unique per (day, authority), the old rows applying to every authority (`ALL`).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("calendar_day")
                    .col(big_pk_auto("id"))
                    .col(date("day"))
                    .col(string("authority").default("ALL"))
                    .col(boolean("open").default(false))
                    .col(string("reason"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("calendar_day_day_authority")
                    .table("calendar_day")
                    .col("day")
                    .col("authority")
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "INSERT INTO calendar_day (day, authority, open, reason)
                 SELECT day, 'ALL', false, reason FROM non_business_day ORDER BY id",
            )
            .await?;
        manager
            .drop_table(Table::drop().table("non_business_day").to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("non_business_day")
                    .col(big_pk_auto("id"))
                    .col(date_uniq("day"))
                    .col(string("reason"))
                    .to_owned(),
            )
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "INSERT INTO non_business_day (day, reason)
                 SELECT day, MIN(reason) FROM calendar_day WHERE NOT open GROUP BY day",
            )
            .await?;
        manager.drop_table(Table::drop().table("calendar_day").to_owned()).await
    }
}
