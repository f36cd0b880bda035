//! An FCO carta's approval cycles (CDAE/MT 2019, art. 15): an amendment that needs a new approval closes the carta's
//! cycle, kept in `fco_carta_cycle` as it stood (submission, SEDEC receipt, meeting, decision, approval,
//! presentation, contract, amounts, stage), with the day it closed and the amendment that closed it; the carta row
//! holds the open cycle, submitted again that day.
//!
//! Cartas reopened before this step lost their earlier cycle's fields when they were reopened, but their history
//! (`financing_transition`) keeps each act's day and their amendments the amount before: each earlier cycle is
//! rebuilt from them, its stage the one the reopening left, its amount the reopening amendment's amount before. The
//! meeting, the SEDEC receipt and the contracted amount are known only for the last earlier cycle, which the
//! reopening left on the carta row (they move from the row to it unless a later act set them again); who decided is
//! not recorded in the history and stays unknown. Going down puts those fields of each carta's last earlier cycle back
//! on the row where its open cycle has none, as a reopening left them before this step.

use crate::util::{drop_tables, fk, index};
use sea_orm_migration::{
    prelude::*,
    schema::*,
    sea_orm::{ConnectionTrait, QueryResult, Statement, prelude::Date},
};
use std::collections::{BTreeMap, HashMap};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The fields a reopening left on the carta row, moved to its last earlier cycle: (the row's columns, the act that
/// sets them again in the open cycle).
const LEFT_ON_ROW: [(&[&str], &str); 2] = [
    (&["contracted_on", "contracted_amount"], "CONTRACT"),
    (&["chamber_meeting_id", "received_by_council_at"], "AGENDA"),
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("fco_carta_cycle")
                    .col(big_pk_auto("id"))
                    .col(big_integer("carta_id"))
                    .col(integer("number"))
                    .col(big_integer("financed_amount"))
                    .col(string("stage"))
                    .col(date_null("submitted_on"))
                    .col(timestamp_with_time_zone_null("received_by_council_at"))
                    .col(big_integer_null("chamber_meeting_id"))
                    .col(string_null("decision"))
                    .col(string_null("decided_by"))
                    .col(date_null("decided_on"))
                    .col(date_null("approved_on"))
                    .col(date_null("presented_on"))
                    .col(date_null("contracted_on"))
                    .col(big_integer_null("contracted_amount"))
                    .col(date("closed_on"))
                    .col(big_integer("closed_by_amendment_id"))
                    .foreign_key(&mut fk("fco_carta_cycle", "carta_id", "fco_carta"))
                    .foreign_key(&mut fk("fco_carta_cycle", "chamber_meeting_id", "chamber_meeting"))
                    .foreign_key(&mut fk(
                        "fco_carta_cycle",
                        "closed_by_amendment_id",
                        "fco_carta_amendment",
                    ))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("uq_fco_carta_cycle_carta_id_number")
                    .table("fco_carta_cycle")
                    .col("carta_id")
                    .col("number")
                    .unique()
                    .to_owned(),
            )
            .await?;
        // A meeting's agenda lists the cartas of its earlier cycles too.
        manager
            .create_index(index("fco_carta_cycle", &["chamber_meeting_id"]))
            .await?;
        rebuild_earlier_cycles(manager).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let last =
            "(SELECT y.{col} FROM fco_carta_cycle y WHERE y.carta_id = fco_carta.id ORDER BY y.number DESC LIMIT 1)";
        for (columns, _) in LEFT_ON_ROW {
            let set: Vec<String> = columns
                .iter()
                .map(|col| format!("{col} = {}", last.replace("{col}", col)))
                .collect();
            manager
                .get_connection()
                .execute_unprepared(&format!(
                    "UPDATE fco_carta SET {} WHERE {} IS NULL AND id IN (SELECT carta_id FROM fco_carta_cycle)",
                    set.join(", "),
                    columns[0]
                ))
                .await?;
        }
        drop_tables(manager, &["fco_carta_cycle"]).await
    }
}

/// One row of a carta's history.
struct Step {
    event: String,
    from_stage: Option<String>,
    to_stage: String,
    on: Date,
}

/// Rebuilds the earlier cycles of the cartas reopened before this step from their history and amendments.
async fn rebuild_earlier_cycles(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    let backend = db.get_database_backend();
    let all = |sql: String| db.query_all_raw(Statement::from_string(backend, sql));
    let reopened: Vec<i64> = all("SELECT DISTINCT financing_id FROM financing_transition \
         WHERE programme = 'FCO_RURAL' AND event = 'AMEND_REOPEN' ORDER BY financing_id"
        .into())
    .await?
    .iter()
    .map(|r| r.try_get_by_index(0))
    .collect::<Result<_, _>>()?;
    for chunk in reopened.chunks(500) {
        let ids = chunk.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        let mut history: BTreeMap<i64, Vec<Step>> = BTreeMap::new();
        for r in all(format!(
            "SELECT financing_id, event, from_stage, to_stage, occurred_on FROM financing_transition \
             WHERE programme = 'FCO_RURAL' AND financing_id IN ({ids}) ORDER BY id"
        ))
        .await?
        {
            history.entry(r.try_get_by_index(0)?).or_default().push(Step {
                event: r.try_get_by_index(1)?,
                from_stage: r.try_get_by_index(2)?,
                to_stage: r.try_get_by_index(3)?,
                on: r.try_get_by_index(4)?,
            });
        }
        // The amendments that reopened each carta, in the order they were recorded (as their history rows were).
        let mut reopenings: HashMap<i64, Vec<(i64, Option<i64>)>> = HashMap::new();
        for r in all(format!(
            "SELECT carta_id, id, old_amount FROM fco_carta_amendment \
             WHERE requires_new_approval = TRUE AND carta_id IN ({ids}) ORDER BY id"
        ))
        .await?
        {
            reopenings
                .entry(r.try_get_by_index(0)?)
                .or_default()
                .push((r.try_get_by_index(1)?, r.try_get_by_index(2)?));
        }
        let rows: HashMap<i64, QueryResult> = all(format!(
            "SELECT id, financed_amount, chamber_meeting_id, received_by_council_at, contracted_on, contracted_amount \
             FROM fco_carta WHERE id IN ({ids})"
        ))
        .await?
        .into_iter()
        .map(|r| Ok((r.try_get_by_index(0)?, r)))
        .collect::<Result<_, DbErr>>()?;
        for (carta, steps) in &history {
            let (Some(row), Some(amendments)) = (rows.get(carta), reopenings.get(carta)) else {
                continue;
            };
            rebuild_carta(manager, *carta, steps, amendments, row).await?;
        }
    }
    Ok(())
}

/// Rebuilds one carta's earlier cycles: one for each reopening in its history (paired in order with the amendments
/// that needed a new approval), and moves what the last reopening left on its row to the last of them.
async fn rebuild_carta(
    manager: &SchemaManager<'_>,
    carta: i64,
    steps: &[Step],
    amendments: &[(i64, Option<i64>)],
    row: &QueryResult,
) -> Result<(), DbErr> {
    let reopens: Vec<usize> = (0..steps.len()).filter(|&i| steps[i].event == "AMEND_REOPEN").collect();
    let mut start = 0;
    for (n, (&end, &(amendment, old_amount))) in reopens.iter().zip(amendments).enumerate() {
        let cycle = &steps[start..end];
        let latest = |event: &str| cycle.iter().rev().find(|s| s.event == event);
        let submitted_on = match n {
            0 => latest("SUBMIT").map(|s| s.on),
            _ => Some(steps[reopens[n - 1]].on),
        };
        let decided = latest("DECIDE");
        let decision = decided.map(|s| {
            if s.to_stage == "UNFAVOURABLE" {
                "UNFAVOURABLE"
            } else {
                "FAVOURABLE"
            }
        });
        let approved_on = decided.filter(|s| s.to_stage != "UNFAVOURABLE").map(|s| s.on);
        let last = n + 1 == reopens.len();
        // Left on the row by the last reopening, unless an act of the open cycle set it again.
        let kept = |event: &str| last && !steps[end..].iter().any(|s| s.event == event);
        let (meeting, received): (Option<i64>, Option<DateTimeUtc>) = if kept("AGENDA") {
            (row.try_get_by_index(2)?, row.try_get_by_index(3)?)
        } else {
            (None, None)
        };
        let contracted_amount: Option<i64> = if kept("CONTRACT") {
            row.try_get_by_index(5)?
        } else {
            None
        };
        let amount = match old_amount {
            Some(a) => a,
            None => row.try_get_by_index(1)?,
        };
        let reopen = &steps[end];
        let values: Vec<SimpleExpr> = vec![
            carta.into(),
            <i32 as TryFrom<usize>>::try_from(n + 1).unwrap_or(i32::MAX).into(),
            amount.into(),
            reopen.from_stage.clone().unwrap_or_else(|| "APPROVED".into()).into(),
            submitted_on.into(),
            received.into(),
            meeting.into(),
            decision.map(str::to_owned).into(),
            Option::<String>::None.into(),
            decided.map(|s| s.on).into(),
            approved_on.into(),
            latest("PRESENT_PROJECT").map(|s| s.on).into(),
            latest("CONTRACT").map(|s| s.on).into(),
            contracted_amount.into(),
            reopen.on.into(),
            amendment.into(),
        ];
        manager
            .exec_stmt(
                Query::insert()
                    .into_table("fco_carta_cycle")
                    .columns([
                        "carta_id",
                        "number",
                        "financed_amount",
                        "stage",
                        "submitted_on",
                        "received_by_council_at",
                        "chamber_meeting_id",
                        "decision",
                        "decided_by",
                        "decided_on",
                        "approved_on",
                        "presented_on",
                        "contracted_on",
                        "contracted_amount",
                        "closed_on",
                        "closed_by_amendment_id",
                    ])
                    .values_panic(values)
                    .to_owned(),
            )
            .await?;
        if last {
            for (columns, event) in LEFT_ON_ROW {
                if kept(event) {
                    let set: Vec<String> = columns.iter().map(|c| format!("{c} = NULL")).collect();
                    manager
                        .get_connection()
                        .execute_unprepared(&format!("UPDATE fco_carta SET {} WHERE id = {carta}", set.join(", ")))
                        .await?;
                }
            }
        }
        start = end + 1;
    }
    Ok(())
}

/// A UTC timestamp, as `received_by_council_at` is read.
type DateTimeUtc = sea_orm_migration::sea_orm::prelude::DateTimeUtc;
