//! The official delimitations of the semi-arid (IN MDA nº 2/2005, art. 3 gives it the 50 % share), shipped as
//! reference data like the municipality list: SUDENE's 2017 list (1,262 municipalities) in force from 2017-11-23 to
//! 2021-12-29, and its 2021 list (1,477) from 2021-12-30. Replaces any membership recorded before for the same
//! delimitations (the demo's two towns), so each municipality has one row per delimitation.

use sea_orm_migration::{prelude::*, sea_orm::prelude::Date};

type Delimitation = (
    &'static str,
    &'static str,
    (i32, u32, u32),
    Option<(i32, u32, u32)>,
    usize,
);

const DELIMITATIONS: [Delimitation; 2] = [
    (
        include_str!("../data/semiarido_2017.csv"),
        "Resoluções Condel/SUDENE nº 107 e 115/2017",
        (2017, 11, 23),
        Some((2021, 12, 29)),
        1262,
    ),
    (
        include_str!("../data/semiarido_2021.csv"),
        "Resolução Condel/SUDENE nº 150/2021 (e nº 176/2024)",
        (2021, 12, 30),
        None,
        1477,
    ),
];

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .exec_stmt(
                Query::delete()
                    .from_table("semi_arid_membership")
                    .and_where(Expr::col("source").like("Resolução Condel/SUDENE nº 107%"))
                    .to_owned(),
            )
            .await?;
        let day = |(y, m, d): (i32, u32, u32)| Date::from_ymd_opt(y, m, d);
        for (csv, source, from, to, expected) in DELIMITATIONS {
            let (from, to) = (day(from), to.and_then(day));
            let codes: Vec<i32> = csv
                .lines()
                .skip(1)
                .filter_map(|l| l.split(',').next()?.trim().parse().ok())
                .collect();
            if codes.len() != expected {
                return Err(DbErr::Migration(format!(
                    "{source}: {} municipalities, expected {expected}",
                    codes.len()
                )));
            }
            for chunk in codes.chunks(400) {
                let mut insert = Query::insert();
                insert.into_table("semi_arid_membership").columns([
                    "ibge_code",
                    "effective_from",
                    "effective_to",
                    "source",
                ]);
                for code in chunk {
                    insert.values_panic([(*code).into(), from.into(), to.into(), source.into()]);
                }
                manager.exec_stmt(insert).await?;
            }
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (_, source, ..) in DELIMITATIONS {
            manager
                .exec_stmt(
                    Query::delete()
                        .from_table("semi_arid_membership")
                        .and_where(Expr::col("source").eq(source))
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
