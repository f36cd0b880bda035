//! What a social-fuel decision letter says besides its reference: the grounds a non-conformity letter states (IN MDA
//! nº 2/2005, art. 9 II, "indicando em que foi baseada a análise") and who signed it (art. 9 I–II: the Secretary of
//! Family Agriculture or a legal representative). Letters already recorded keep none.

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
                ColumnDef::new("decision_grounds").text().null().to_owned(),
                ColumnDef::new("decision_signatory").text().null().to_owned(),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(
            manager,
            "social_fuel_project",
            &["decision_grounds", "decision_signatory"],
        )
        .await
    }
}
