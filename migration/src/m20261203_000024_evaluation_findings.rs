//! The findings of MDA's external evaluation of a project (IN MDA 2/2005, art. 11): for each criterion of the
//! social-fuel seal, whether the evaluation found it met, with who evaluated, the report and the date.

use crate::util::{fk, index};
use sea_orm_migration::{prelude::*, schema::big_pk_auto};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("evaluation_finding")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(ColumnDef::new("project_id").big_integer().not_null())
                    .col(ColumnDef::new("criterion").string().not_null())
                    .col(ColumnDef::new("conforming").boolean().not_null())
                    .col(ColumnDef::new("note").text().null())
                    .col(ColumnDef::new("evaluator").string().not_null())
                    .col(ColumnDef::new("report_reference").string().null())
                    .col(ColumnDef::new("found_on").date().not_null())
                    .col(ColumnDef::new("recorded_at").timestamp_with_time_zone().not_null())
                    .col(ColumnDef::new("recorded_by").string().not_null())
                    .foreign_key(&mut fk("evaluation_finding", "project_id", "social_fuel_project"))
                    .to_owned(),
            )
            .await?;
        manager.create_index(index("evaluation_finding", &["project_id"])).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("evaluation_finding").if_exists().to_owned())
            .await
    }
}
