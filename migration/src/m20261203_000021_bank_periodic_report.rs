//! Banco do Brasil's report to the CPACR every 60 days (CDAE/MT 2019, art. 2 §1), recorded as a fact: when it was
//! received, the period it covers and its reference, with who recorded it. FCO-BB-60D counts from the last one.

use crate::util::fk;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("bank_periodic_report")
                    .if_not_exists()
                    .col(
                        ColumnDef::new("id")
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(ColumnDef::new("bank_id").big_integer().not_null())
                    .col(ColumnDef::new("received_on").date().not_null())
                    .col(ColumnDef::new("period_from").date().null())
                    .col(ColumnDef::new("period_to").date().null())
                    .col(ColumnDef::new("reference").string().null())
                    .col(ColumnDef::new("recorded_at").timestamp_with_time_zone().not_null())
                    .col(ColumnDef::new("recorded_by").string().not_null())
                    .foreign_key(&mut fk("bank_periodic_report", "bank_id", "bank"))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("bank_periodic_report").if_exists().to_owned())
            .await
    }
}
