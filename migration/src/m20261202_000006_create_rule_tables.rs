//! The rules' data: the seeds' parameter values as the baseline versions, days without office hours kept as data,
//! the append-only lifecycle history, and checklist confirmations.

use crate::util::{drop_tables, index};
use sea_orm_migration::{prelude::*, schema::*, sea_orm::prelude::Date};

#[derive(DeriveMigrationName)]
pub struct Migration;

const MDA: &str = "IN MDA nº 01/2005";
const CDAE: &str = "IN CDAE/MT 2019";

/// `(key, rule, value, unit, instrument, article)`: the values of the two instruments as first published.
const BASELINE: &[(&str, &str, &str, &str, &str, &str)] = &[
    (
        "SF-SHARE-MIN.NORTHEAST",
        "SF-SHARE-MIN",
        "50",
        "PERCENT",
        MDA,
        "art. 3, I",
    ),
    (
        "SF-SHARE-MIN.SEMI_ARID",
        "SF-SHARE-MIN",
        "50",
        "PERCENT",
        MDA,
        "art. 3, I",
    ),
    (
        "SF-SHARE-MIN.SOUTHEAST",
        "SF-SHARE-MIN",
        "30",
        "PERCENT",
        MDA,
        "art. 3, II",
    ),
    ("SF-SHARE-MIN.SOUTH", "SF-SHARE-MIN", "30", "PERCENT", MDA, "art. 3, II"),
    (
        "SF-SHARE-MIN.NORTH",
        "SF-SHARE-MIN",
        "10",
        "PERCENT",
        MDA,
        "art. 3, III",
    ),
    (
        "SF-SHARE-MIN.CENTRE_WEST",
        "SF-SHARE-MIN",
        "10",
        "PERCENT",
        MDA,
        "art. 3, III",
    ),
    ("SF-DECISION-30D.DAYS", "SF-DECISION-30D", "30", "DAYS", MDA, "art. 9"),
    (
        "SF-EXTERNAL-EVAL-6M.MONTHS",
        "SF-EXTERNAL-EVAL-6M",
        "6",
        "MONTHS",
        MDA,
        "art. 11",
    ),
    (
        "SF-SEAL-REQUEST-30D.DAYS",
        "SF-SEAL-REQUEST-30D",
        "30",
        "DAYS",
        MDA,
        "art. 11, §1",
    ),
    (
        "SF-EXTENSION-12M.MONTHS",
        "SF-EXTENSION-12M",
        "6",
        "MONTHS",
        MDA,
        "art. 11, §2",
    ),
    (
        "FCO-CHAMBER-THRESHOLD.AMOUNT",
        "FCO-CHAMBER-THRESHOLD",
        "1000000.00",
        "BRL",
        CDAE,
        "art. 2, §3",
    ),
    ("FCO-BB-60D.DAYS", "FCO-BB-60D", "60", "DAYS", CDAE, "art. 2, §1"),
    ("FCO-TEMPLATE.DAYS", "FCO-TEMPLATE", "90", "DAYS", CDAE, "art. 2, §2"),
    (
        "FCO-MONTHLY-LIST.MONTHS",
        "FCO-MONTHLY-LIST",
        "1",
        "MONTHS",
        CDAE,
        "art. 2, §5",
    ),
    (
        "FCO-72H-BEFORE.HOURS",
        "FCO-72H-BEFORE",
        "72",
        "HOURS",
        CDAE,
        "art. 2, §7",
    ),
    ("FCO-72H-RESULT.HOURS", "FCO-72H-RESULT", "72", "HOURS", CDAE, "art. 3"),
    (
        "FCO-VALIDITY-120D.DAYS",
        "FCO-VALIDITY-120D",
        "120",
        "DAYS",
        CDAE,
        "art. 3, sole §",
    ),
    (
        "FCO-CEILING.AMOUNT",
        "FCO-CEILING",
        "15000000.00",
        "BRL",
        CDAE,
        "art. 4",
    ),
    (
        "FCO-SIRE-RATIO.DAMS_PER_SIRE",
        "FCO-SIRE-RATIO",
        "30",
        "COUNT",
        CDAE,
        "art. 6, I, c",
    ),
    (
        "FCO-WEANED-2000.HEADS",
        "FCO-WEANED-2000",
        "2000",
        "COUNT",
        CDAE,
        "art. 6, §1",
    ),
    (
        "FCO-SWINE-RETENTION.TERM_MONTHS",
        "FCO-SWINE-RETENTION",
        "36",
        "MONTHS",
        CDAE,
        "art. 8, §3",
    ),
    (
        "FCO-SWINE-RETENTION.GRACE_MONTHS",
        "FCO-SWINE-RETENTION",
        "24",
        "MONTHS",
        CDAE,
        "art. 8, §3",
    ),
    (
        "FCO-SWINE-RETENTION.MIN_AGE_MONTHS",
        "FCO-SWINE-RETENTION",
        "6",
        "MONTHS",
        CDAE,
        "art. 8, §3",
    ),
    (
        "FCO-SWINE-RETENTION.MAX_AGE_MONTHS",
        "FCO-SWINE-RETENTION",
        "40",
        "MONTHS",
        CDAE,
        "art. 8, §3",
    ),
    (
        "FCO-BOAR-RATIO.SOWS_PER_BOAR_NATURAL",
        "FCO-BOAR-RATIO",
        "20",
        "COUNT",
        CDAE,
        "art. 8, §5",
    ),
    (
        "FCO-BOAR-RATIO.SOWS_PER_BOAR_AI",
        "FCO-BOAR-RATIO",
        "100",
        "COUNT",
        CDAE,
        "art. 8, §5",
    ),
    (
        "FCO-PANTANAL.TERM_MONTHS",
        "FCO-PANTANAL",
        "96",
        "MONTHS",
        CDAE,
        "art. 9",
    ),
    (
        "FCO-PANTANAL.GRACE_MONTHS",
        "FCO-PANTANAL",
        "48",
        "MONTHS",
        CDAE,
        "art. 9",
    ),
    ("FCO-PANTANAL.HEADS", "FCO-PANTANAL", "2000", "COUNT", CDAE, "art. 9"),
    (
        "FCO-USED-MACHINE.MAX_AGE_YEARS",
        "FCO-USED-MACHINE",
        "4",
        "YEARS",
        CDAE,
        "art. 11",
    ),
    (
        "FCO-AMENDMENT.MAX_INCREASE",
        "FCO-AMENDMENT",
        "10",
        "PERCENT",
        CDAE,
        "art. 15, I",
    ),
    (
        "FCO-CLASSIFY.FIXED_MIN_LIFE_YEARS",
        "FCO-CLASSIFY",
        "5",
        "YEARS",
        CDAE,
        "art. 17",
    ),
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let mut insert = Query::insert();
        insert.into_table("rule_parameter").columns([
            "key",
            "rule_code",
            "value",
            "unit",
            "effective_from",
            "effective_to",
            "legal_source",
            "created_at",
        ]);
        for (key, rule, value, unit, instrument, article) in BASELINE {
            // IN MDA nº 01/2005 took effect on publication (art. 14), 5 July 2005; the CDAE/MT instruction on
            // 20 March 2019 (art. 19).
            let from = if *instrument == MDA {
                Date::from_ymd_opt(2005, 7, 5)
            } else {
                Date::from_ymd_opt(2019, 3, 20)
            };
            insert.values_panic([
                (*key).into(),
                (*rule).into(),
                (*value).into(),
                (*unit).into(),
                from.into(),
                Option::<Date>::None.into(),
                format!("{instrument}, {article}").into(),
                Expr::current_timestamp(),
            ]);
        }
        manager.exec_stmt(insert).await?;
        manager
            .create_table(
                Table::create()
                    .table("non_business_day")
                    .col(big_pk_auto("id"))
                    .col(date_uniq("day"))
                    .col(string("reason"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("financing_transition")
                    .col(big_pk_auto("id"))
                    .col(string("programme"))
                    .col(big_integer("financing_id"))
                    .col(string_null("from_stage"))
                    .col(string("to_stage"))
                    .col(string("event"))
                    .col(date("occurred_on"))
                    .col(timestamp_with_time_zone("recorded_at"))
                    .col(string("actor"))
                    .col(text_null("note"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(index("financing_transition", &["programme", "financing_id"]))
            .await?;
        manager
            .create_table(
                Table::create()
                    .table("checklist_confirmation")
                    .col(big_pk_auto("id"))
                    .col(string("programme"))
                    .col(big_integer("financing_id"))
                    .col(string("rule_code"))
                    .col(string("confirmed_by"))
                    .col(timestamp_with_time_zone("confirmed_at"))
                    .col(text_null("note"))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_checklist_confirmation")
                    .table("checklist_confirmation")
                    .col("programme")
                    .col("financing_id")
                    .col("rule_code")
                    .unique()
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_tables(
            manager,
            &["checklist_confirmation", "financing_transition", "non_business_day"],
        )
        .await?;
        manager
            .exec_stmt(Query::delete().from_table("rule_parameter").to_owned())
            .await?;
        Ok(())
    }
}
