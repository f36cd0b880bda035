//! FCO Rural in Mato Grosso (CDAE/MT 2019): chamber meetings and attendance, cartas, items and amendments.

use crate::util::{drop_tables, fk, index};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("chamber_meeting")
                    .col(big_pk_auto("id"))
                    .col(timestamp_with_time_zone("starts_at"))
                    .col(timestamp_with_time_zone_null("results_sent_at"))
                    .col(text_null("notes"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("chamber_attendance")
                    .col(big_integer("meeting_id"))
                    .col(big_integer("bank_id"))
                    .col(boolean("present"))
                    .primary_key(Index::create().col("meeting_id").col("bank_id"))
                    .foreign_key(&mut fk("chamber_attendance", "meeting_id", "chamber_meeting"))
                    .foreign_key(&mut fk("chamber_attendance", "bank_id", "bank"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("fco_carta")
                    .col(big_pk_auto("id"))
                    .col(string("number"))
                    .col(big_integer("bank_id"))
                    .col(big_integer("party_id"))
                    .col(string("line"))
                    .col(string("activity"))
                    .col(big_integer("financed_amount"))
                    .col(integer("municipality_code"))
                    .col(string("stage"))
                    .col(string("status"))
                    .col(date_null("submitted_on"))
                    .col(timestamp_with_time_zone_null("received_by_council_at"))
                    .col(big_integer_null("chamber_meeting_id"))
                    .col(string_null("decision"))
                    .col(string_null("decided_by"))
                    .col(date_null("decided_on"))
                    .col(date_null("approved_on"))
                    .col(date_null("contracted_on"))
                    .col(big_integer_null("contracted_amount"))
                    .col(integer_null("term_months"))
                    .col(integer_null("grace_months"))
                    .col(big_integer_null("resubmission_of"))
                    .col(string_null("professional_name"))
                    .col(timestamp_with_time_zone("created_at"))
                    .foreign_key(&mut fk("fco_carta", "bank_id", "bank"))
                    .foreign_key(&mut fk("fco_carta", "party_id", "party"))
                    .foreign_key(&mut fk("fco_carta", "chamber_meeting_id", "chamber_meeting"))
                    .foreign_key(&mut fk("fco_carta", "resubmission_of", "fco_carta"))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_fco_carta_municipality_code")
                            .from("fco_carta", "municipality_code")
                            .to("municipality", "ibge_code"),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_fco_carta_bank_id_number")
                    .table("fco_carta")
                    .col("bank_id")
                    .col("number")
                    .unique()
                    .to_owned(),
            )
            .await?;
        for cols in [&["party_id"][..], &["status"], &["municipality_code"]] {
            manager.create_index(index("fco_carta", cols)).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table("fco_carta_item")
                    .col(big_pk_auto("id"))
                    .col(big_integer("carta_id"))
                    .col(string("kind"))
                    .col(string("description"))
                    .col(big_integer("quantity"))
                    .col(integer_null("head_count"))
                    .col(integer_null("age_months"))
                    .col(integer_null("manufacture_year"))
                    .col(integer_null("useful_life_years"))
                    .col(string_null("registration"))
                    .col(string("investment_class"))
                    .col(big_integer("value"))
                    .foreign_key(&mut fk("fco_carta_item", "carta_id", "fco_carta"))
                    .to_owned(),
            )
            .await?;
        manager.create_index(index("fco_carta_item", &["carta_id"])).await?;
        manager
            .create_table(
                Table::create()
                    .table("fco_carta_amendment")
                    .col(big_pk_auto("id"))
                    .col(big_integer("carta_id"))
                    .col(string("kind"))
                    .col(date("requested_on"))
                    .col(big_integer_null("old_amount"))
                    .col(big_integer_null("new_amount"))
                    .col(text("description"))
                    .col(boolean("requires_new_approval"))
                    .foreign_key(&mut fk("fco_carta_amendment", "carta_id", "fco_carta"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("fco_carta_amendment", &["carta_id"]))
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            manager,
            &[
                "fco_carta_amendment",
                "fco_carta_item",
                "fco_carta",
                "chamber_attendance",
                "chamber_meeting",
            ],
        )
        .await
    }
}
