//! Bank monthly reports with their rows and errors, compliance flags, job runs and rule-parameter versions.

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
                    .table("bank_report")
                    .col(big_pk_auto("id"))
                    .col(big_integer("bank_id"))
                    .col(string("reference_month"))
                    .col(string("sha256"))
                    .col(string("file_name"))
                    .col(big_integer("byte_size"))
                    .col(string("status"))
                    .col(integer_null("row_count"))
                    .col(integer_null("error_count"))
                    .col(text_null("file_error"))
                    .col(timestamp_with_time_zone("received_at"))
                    .col(string_null("claimed_by"))
                    .col(timestamp_with_time_zone_null("lease_until"))
                    .col(timestamp_with_time_zone_null("processed_at"))
                    .col(big_integer_null("superseded_by"))
                    .foreign_key(&mut fk("bank_report", "bank_id", "bank"))
                    .foreign_key(&mut fk("bank_report", "superseded_by", "bank_report"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_bank_report_bank_month_sha256")
                    .table("bank_report")
                    .col("bank_id")
                    .col("reference_month")
                    .col("sha256")
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager.create_index(index("bank_report", &["status"])).await?;
        manager
            .create_table(
                Table::create()
                    .table("bank_report_row")
                    .col(big_pk_auto("id"))
                    .col(big_integer("report_id"))
                    .col(integer("row_number"))
                    .col(string_null("carta_number"))
                    .col(big_integer_null("carta_id"))
                    .col(string("outcome"))
                    .foreign_key(&mut fk("bank_report_row", "report_id", "bank_report"))
                    .foreign_key(&mut fk("bank_report_row", "carta_id", "fco_carta"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("bank_report_row", &["report_id", "row_number"]))
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("bank_report_error")
                    .col(big_pk_auto("id"))
                    .col(big_integer("report_id"))
                    .col(integer("row_number"))
                    .col(string_null("column_name"))
                    .col(text_null("value"))
                    .col(text("message"))
                    .col(string_null("rule_code"))
                    .foreign_key(&mut fk("bank_report_error", "report_id", "bank_report"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("bank_report_error", &["report_id", "row_number"]))
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("compliance_flag")
                    .col(big_pk_auto("id"))
                    .col(string("programme"))
                    .col(big_integer("financing_id"))
                    .col(string("rule_code"))
                    .col(string("legal_basis"))
                    .col(text("message"))
                    .col(string("source"))
                    .col(timestamp_with_time_zone("raised_at"))
                    .col(timestamp_with_time_zone_null("resolved_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("compliance_flag", &["programme", "financing_id"]))
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("job_run")
                    .col(big_pk_auto("id"))
                    .col(string("job"))
                    .col(string("slot"))
                    .col(string("worker"))
                    .col(string("status"))
                    .col(timestamp_with_time_zone("started_at"))
                    .col(timestamp_with_time_zone_null("finished_at"))
                    .col(integer("processed"))
                    .col(integer("failed"))
                    .col(text_null("message"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_job_run_job_slot")
                    .table("job_run")
                    .col("job")
                    .col("slot")
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("rule_parameter")
                    .col(big_pk_auto("id"))
                    .col(string("key"))
                    .col(string("rule_code"))
                    .col(string("value"))
                    .col(string("unit"))
                    .col(date("effective_from"))
                    .col(date_null("effective_to"))
                    .col(string("legal_source"))
                    .col(timestamp_with_time_zone("created_at"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("rule_parameter", &["key", "effective_from"]))
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            manager,
            &[
                "rule_parameter",
                "job_run",
                "compliance_flag",
                "bank_report_error",
                "bank_report_row",
                "bank_report",
            ],
        )
        .await
    }
}
