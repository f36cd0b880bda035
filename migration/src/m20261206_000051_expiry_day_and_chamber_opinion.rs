//! Two facts of CDAE/MT 2019 that had nowhere to go:
//! - a carta's `expired_on`, the day its 120 days to present the project lapsed (art. 3 sole §), so a reader `asOf` a
//!   day between the lapse and the job's run reads it EXPIRED, and a day before the lapse APPROVED. Cartas already
//!   EXPIRED take the best day known: the day of their `EXPIRE` history row (the job dates it the lapse day), else the
//!   121st day after the approval (the 120 days without their business-day extension);
//! - the CPACR's opinion on a meeting's cartas (when it was given and the opinion's or minutes' reference), from which
//!   art. 3's 72 hours count, and which banks received the result report (`chamber_meeting_result_bank`).

use crate::util::{add_columns, drop_columns, drop_tables, fk};
use sea_orm_migration::{prelude::*, schema::*, sea_orm::DbBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

const MEETING_COLUMNS: [&str; 2] = ["opinion_reference", "opinion_at"];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "fco_carta",
            [ColumnDef::new("expired_on").date().null().to_owned()],
        )
        .await?;
        let lapse = match manager.get_database_backend() {
            DbBackend::Postgres => "fco_carta.approved_on + 121",
            _ => "date(fco_carta.approved_on, '+121 days')",
        };
        manager
            .get_connection()
            .execute_unprepared(&format!(
                "UPDATE fco_carta SET expired_on = COALESCE(
                    (SELECT MAX(t.occurred_on) FROM financing_transition t
                      WHERE t.programme = 'FCO_RURAL' AND t.financing_id = fco_carta.id AND t.event = 'EXPIRE'),
                    {lapse})
                 WHERE stage = 'EXPIRED'"
            ))
            .await?;
        add_columns(
            manager,
            "chamber_meeting",
            [
                ColumnDef::new(MEETING_COLUMNS[1])
                    .timestamp_with_time_zone()
                    .null()
                    .to_owned(),
                ColumnDef::new(MEETING_COLUMNS[0]).text().null().to_owned(),
            ],
        )
        .await?;
        manager
            .create_table(
                Table::create()
                    .table("chamber_meeting_result_bank")
                    .col(big_pk_auto("id"))
                    .col(big_integer("meeting_id"))
                    .col(big_integer("bank_id"))
                    .col(timestamp_with_time_zone("recorded_at"))
                    .col(string("recorded_by"))
                    .foreign_key(&mut fk("chamber_meeting_result_bank", "meeting_id", "chamber_meeting"))
                    .foreign_key(&mut fk("chamber_meeting_result_bank", "bank_id", "bank"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_chamber_meeting_result_bank_meeting_id_bank_id")
                    .table("chamber_meeting_result_bank")
                    .col("meeting_id")
                    .col("bank_id")
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(manager, &["chamber_meeting_result_bank"]).await?;
        drop_columns(manager, "chamber_meeting", &MEETING_COLUMNS).await?;
        drop_columns(manager, "fco_carta", &["expired_on"]).await
    }
}
