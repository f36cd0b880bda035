//! The `financing` view: social-fuel projects and FCO cartas as one list with the columns both share, so that one
//! query filters, orders and pages over both programmes.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const CREATE: &str = "CREATE VIEW financing AS
SELECT 'SOCIAL_FUEL' AS programme, id AS record_id, bank_id, party_id,
       plant_municipality_code AS municipality_code, requested_amount AS amount, status,
       filed_on AS submitted_on, decided_on, financing_approved_on AS contracted_on
  FROM social_fuel_project
UNION ALL
SELECT 'FCO_RURAL' AS programme, id AS record_id, bank_id, party_id,
       municipality_code, financed_amount AS amount, status,
       submitted_on, decided_on, contracted_on
  FROM fco_carta";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared("DROP VIEW IF EXISTS financing").await?;
        db.execute_unprepared(CREATE).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .get_connection()
            .execute_unprepared("DROP VIEW IF EXISTS financing")
            .await?;
        Ok(())
    }
}
