//! MDA's decisions the text requires (issue 16, point 5): art. 11 II unframes a project only after MDA did not accept
//! the company's justifications and contestations of a non-conformity, and art. 11 §2's extension "poderá" be granted:
//! MDA decides it. The evaluation's finding, the acceptance of the justifications and the refusal of an extension are
//! kept with their reasons.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "social_fuel_project",
            [
                ColumnDef::new("extension_refused_on").date().null().to_owned(),
                ColumnDef::new("extension_decision_reason").text().null().to_owned(),
                ColumnDef::new("evaluation_finding").text().null().to_owned(),
                ColumnDef::new("justifications_accepted_on").date().null().to_owned(),
                ColumnDef::new("justifications_reason").text().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(
            manager,
            "social_fuel_project",
            &[
                "justifications_reason",
                "justifications_accepted_on",
                "evaluation_finding",
                "extension_decision_reason",
                "extension_refused_on",
            ],
        )
        .await
    }
}
