//! Bulk imports of facts (a project's acquisitions for a year, a carta's items, a chamber meeting's agenda), kept as
//! the banks' monthly reports are: the raw file in the store by its SHA-256, a row that a job claims with a lease and
//! ends `APPLIED`, `REJECTED` (with every row error) or `FAILED`.

use crate::util::{drop_tables, index};
use sea_orm_migration::{prelude::*, schema::big_pk_auto};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("fact_import")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(ColumnDef::new("kind").string().not_null())
                    .col(ColumnDef::new("target_id").big_integer().not_null())
                    .col(ColumnDef::new("year").integer().null())
                    .col(ColumnDef::new("reason").string().null())
                    .col(ColumnDef::new("sha256").string().not_null())
                    .col(ColumnDef::new("file_name").string().not_null())
                    .col(ColumnDef::new("byte_size").big_integer().not_null())
                    .col(ColumnDef::new("status").string().not_null())
                    .col(ColumnDef::new("attempts").integer().not_null().default(0))
                    .col(ColumnDef::new("claimed_by").string().null())
                    .col(ColumnDef::new("lease_until").timestamp_with_time_zone().null())
                    .col(ColumnDef::new("last_error").text().null())
                    .col(ColumnDef::new("file_error_code").string().null())
                    .col(ColumnDef::new("file_error_args").text().null())
                    .col(ColumnDef::new("rows_read").integer().null())
                    .col(ColumnDef::new("rows_applied").integer().null())
                    .col(ColumnDef::new("received_at").timestamp_with_time_zone().not_null())
                    .col(ColumnDef::new("received_by").string().not_null())
                    .col(ColumnDef::new("processed_at").timestamp_with_time_zone().null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("fact_import", &["kind", "target_id", "sha256"]))
            .await?;
        manager.create_index(index("fact_import", &["status"])).await?;
        manager
            .create_table(
                Table::create()
                    .table("fact_import_error")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(ColumnDef::new("import_id").big_integer().not_null())
                    .col(ColumnDef::new("row_number").integer().not_null())
                    .col(ColumnDef::new("column_name").string().null())
                    .col(ColumnDef::new("value").text().null())
                    .col(ColumnDef::new("message_code").string().not_null())
                    .col(ColumnDef::new("message_args").text().null())
                    .col(ColumnDef::new("rule_code").string().null())
                    .foreign_key(&mut crate::util::fk("fact_import_error", "import_id", "fact_import"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("fact_import_error", &["import_id", "row_number"]))
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(manager, &["fact_import_error", "fact_import"]).await
    }
}
