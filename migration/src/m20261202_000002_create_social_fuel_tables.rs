//! Social-fuel projects and what their rules need (IN MDA 2005): acquisitions, contract proposals, assistance plans,
//! the annex-I checklist and change notices.

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
                    .table("social_fuel_project")
                    .col(big_pk_auto("id"))
                    .col(string("title"))
                    .col(big_integer("bank_id"))
                    .col(big_integer("party_id"))
                    .col(integer("plant_municipality_code"))
                    .col(big_integer("requested_amount"))
                    .col(string("stage"))
                    .col(string("status"))
                    .col(date_null("bank_framed_on"))
                    .col(boolean("analysed_by_bank"))
                    .col(date_null("filed_on"))
                    .col(string_null("decision"))
                    .col(date_null("decided_on"))
                    .col(string_null("decision_letter"))
                    .col(date_null("financing_approved_on"))
                    .col(date_null("scheduled_implementation_end"))
                    .col(boolean("schedule_delay_accepted"))
                    .col(date_null("industrial_start_on"))
                    .col(date_null("external_evaluation_on"))
                    .col(string_null("evaluation_result"))
                    .col(date_null("seal_requested_on"))
                    .col(date_null("extension_requested_on"))
                    .col(text_null("extension_justification"))
                    .col(date_null("extension_granted_on"))
                    .col(date_null("unframed_on"))
                    .col(text_null("unframing_reason"))
                    .col(timestamp_with_time_zone("created_at"))
                    .foreign_key(&mut fk("social_fuel_project", "bank_id", "bank"))
                    .foreign_key(&mut fk("social_fuel_project", "party_id", "party"))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_social_fuel_project_plant_municipality_code")
                            .from("social_fuel_project", "plant_municipality_code")
                            .to("municipality", "ibge_code"),
                    )
                    .to_owned(),
            )
            .await?;
        for cols in [
            &["bank_id"][..],
            &["party_id"],
            &["status"],
            &["plant_municipality_code"],
        ] {
            manager.create_index(index("social_fuel_project", cols)).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table("feedstock_acquisition")
                    .col(big_pk_auto("id"))
                    .col(big_integer("project_id"))
                    .col(integer("year"))
                    .col(string("supplier_kind"))
                    .col(big_integer_null("supplier_party_id"))
                    .col(string("crop"))
                    .col(big_integer("quantity_kg"))
                    .col(big_integer("cost"))
                    .col(big_integer_null("perennial_area_ha"))
                    .col(big_integer_null("productivity_kg_per_ha"))
                    .col(string_null("coefficient_source"))
                    .foreign_key(&mut fk("feedstock_acquisition", "project_id", "social_fuel_project"))
                    .foreign_key(&mut fk("feedstock_acquisition", "supplier_party_id", "party"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("feedstock_acquisition", &["project_id", "year"]))
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("contract_proposal")
                    .col(big_pk_auto("id"))
                    .col(big_integer("project_id"))
                    .col(string("representation_kind"))
                    .col(string("representation_name"))
                    .col(integer_null("term_months"))
                    .col(text_null("purchase_price"))
                    .col(text_null("price_adjustment"))
                    .col(text_null("delivery_conditions"))
                    .col(text_null("safeguards"))
                    .col(boolean("representation_agreed"))
                    .foreign_key(&mut fk("contract_proposal", "project_id", "social_fuel_project"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("contract_proposal", &["project_id"]))
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("assistance_plan")
                    .col(big_pk_auto("id"))
                    .col(big_integer_uniq("project_id"))
                    .col(text_null("staff_description"))
                    .col(boolean("outsourced"))
                    .col(text_null("outsourcing_contract"))
                    .col(text_null("coverage_area"))
                    .col(integer_null("farmers_assisted"))
                    .col(text_null("methodology"))
                    .col(string_null("confirmed_by"))
                    .col(timestamp_with_time_zone_null("confirmed_at"))
                    .foreign_key(&mut fk("assistance_plan", "project_id", "social_fuel_project"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("project_document")
                    .col(big_pk_auto("id"))
                    .col(big_integer("project_id"))
                    .col(string("kind"))
                    .col(date("received_on"))
                    .col(string_null("reference"))
                    .foreign_key(&mut fk("project_document", "project_id", "social_fuel_project"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_project_document_project_id_kind")
                    .table("project_document")
                    .col("project_id")
                    .col("kind")
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("company_change_notice")
                    .col(big_pk_auto("id"))
                    .col(big_integer("project_id"))
                    .col(string("kind"))
                    .col(date("notified_on"))
                    .col(text("description"))
                    .col(text_null("documents"))
                    .foreign_key(&mut fk("company_change_notice", "project_id", "social_fuel_project"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("company_change_notice", &["project_id"]))
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            manager,
            &[
                "company_change_notice",
                "project_document",
                "assistance_plan",
                "contract_proposal",
                "feedstock_acquisition",
                "social_fuel_project",
            ],
        )
        .await
    }
}
