//! Banks, economic groups, parties, municipalities (all 5,570, loaded from `data/municipios.csv`) and the dated
//! semi-arid list.

use crate::util::{drop_tables, fk, index};
use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

const MUNICIPALITIES: &str = include_str!("../data/municipios.csv");

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("bank")
                    .col(big_pk_auto("id"))
                    .col(string_uniq("code"))
                    .col(string("name"))
                    .col(boolean("serves_social_fuel"))
                    .col(boolean("serves_fco"))
                    .col(boolean("mda_cooperation_agreement"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("economic_group")
                    .col(big_pk_auto("id"))
                    .col(string("name"))
                    .col(string("kind"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("party")
                    .col(big_pk_auto("id"))
                    .col(string_uniq("document"))
                    .col(string("document_kind"))
                    .col(string_null("cnpj_root"))
                    .col(string("name"))
                    .col(big_integer_null("economic_group_id"))
                    .foreign_key(&mut fk("party", "economic_group_id", "economic_group"))
                    .to_owned(),
            )
            .await?;
        manager.create_index(index("party", &["cnpj_root"])).await?;
        manager.create_index(index("party", &["economic_group_id"])).await?;
        manager
            .create_table(
                Table::create()
                    .table("municipality")
                    .col(integer("ibge_code").primary_key())
                    .col(string("name"))
                    .to_owned(),
            )
            .await?;
        let rows: Vec<(i32, &str)> = MUNICIPALITIES
            .lines()
            .skip(1)
            .filter_map(|l| {
                let (code, name) = l.split_once(',')?;
                Some((code.parse().ok()?, name))
            })
            .collect();
        if rows.len() != 5570 {
            return Err(DbErr::Migration(format!(
                "data/municipios.csv has {} rows, expected 5570",
                rows.len()
            )));
        }
        for chunk in rows.chunks(500) {
            let mut insert = Query::insert();
            insert.into_table("municipality").columns(["ibge_code", "name"]);
            for (code, name) in chunk {
                insert.values_panic([(*code).into(), (*name).into()]);
            }
            manager.exec_stmt(insert).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table("semi_arid_membership")
                    .col(big_pk_auto("id"))
                    .col(integer("ibge_code"))
                    .col(date("effective_from"))
                    .col(date_null("effective_to"))
                    .col(string("source"))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_semi_arid_membership_ibge_code")
                            .from("semi_arid_membership", "ibge_code")
                            .to("municipality", "ibge_code"),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("semi_arid_membership", &["ibge_code"]))
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            manager,
            &[
                "semi_arid_membership",
                "municipality",
                "party",
                "economic_group",
                "bank",
            ],
        )
        .await
    }
}
