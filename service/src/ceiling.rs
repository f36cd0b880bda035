//! FCO-CEILING over a whole set of cartas at once: the set-based form the ingestion needs (one statement for a whole
//! report), next to the pure rule in `entity::rules::fco`, which judges one carta from its facts (and whose outcomes
//! the flag pass gathers per group, `deadline_flags::ceiling`). Both count the same facts: the approved and
//! contracted cartas of the borrower group (the economic group's members, or the borrower alone); the integration
//! tests check they agree on generated groups (`tests/it/ceiling.rs`).

use crate::flags::write::NewFlag;
use chrono::NaiveDate;
use entity::{
    domain::Money,
    rules::{Explanation, code, fco, params::Params},
};
use sea_orm::{ConnectionTrait, DbBackend, DbErr, Statement};

/// A carta whose borrower group's committed total is over the ceiling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverCeiling {
    /// The carta.
    pub carta_id: i64,
    /// Its number at its bank.
    pub number: String,
    /// The group's approved and contracted total, in centavos.
    pub group_total_cents: i64,
}

/// Every carta of `bank` (of every bank when `None`) whose borrower group holds more than `ceiling_cents` approved
/// and contracted, in one statement.
pub async fn cartas_over(
    txn: &impl ConnectionTrait,
    bank: Option<i64>,
    ceiling_cents: i64,
) -> Result<Vec<OverCeiling>, DbErr> {
    let backend = txn.get_database_backend();
    // The stages that commit money, the one list the rule's readers count (`fco_carta::COMMITTED`): judged now, an
    // approval that lapsed is stored EXPIRED and commits nothing.
    let committed: Vec<String> = entity::fco_carta::COMMITTED
        .iter()
        .map(|s| format!("'{}'", sea_orm::ActiveEnum::to_value(s)))
        .collect();
    let committed = committed.join(", ");
    // The borrower group: `COALESCE(economic_group_id, -party_id)`, as in `crate::facts::group_commitments`.
    let sql = format!(
        "SELECT c.id, c.number, totals.total FROM fco_carta c
        JOIN party p ON p.id = c.party_id
        JOIN (SELECT COALESCE(p2.economic_group_id, -p2.id) AS g, CAST(SUM(c2.financed_amount) AS BIGINT) AS total
                FROM fco_carta c2 JOIN party p2 ON p2.id = c2.party_id
               WHERE c2.stage IN ({committed})
               GROUP BY COALESCE(p2.economic_group_id, -p2.id)
              HAVING SUM(c2.financed_amount) > $1) totals
          ON totals.g = COALESCE(p.economic_group_id, -p.id)"
    );
    let (sql, values) = match bank {
        Some(b) => (
            format!("{sql} WHERE c.bank_id = $2"),
            vec![ceiling_cents.into(), b.into()],
        ),
        None => (sql, vec![ceiling_cents.into()]),
    };
    let sql = if backend == DbBackend::Sqlite {
        crate::numbered(backend, &sql)
    } else {
        // This one reads every committed carta: a scan and a hash join beat a probe per carta, and compiling the plan
        // (JIT) would cost more than running it.
        txn.execute_unprepared("SET LOCAL enable_seqscan = on; SET LOCAL jit = off")
            .await?;
        sql
    };
    let rows = txn
        .query_all_raw(Statement::from_sql_and_values(backend, sql, values))
        .await?;
    rows.into_iter()
        .map(|row| {
            // `SUM` over `BIGINT` is `NUMERIC` on PostgreSQL and an integer on SQLite: the statement casts it to
            // `BIGINT` so both decode alike.
            Ok(OverCeiling {
                carta_id: row.try_get_by_index(0)?,
                number: row.try_get_by_index(1)?,
                group_total_cents: row.try_get_by_index::<Option<i64>>(2)?.unwrap_or(0),
            })
        })
        .collect()
}

/// FCO-CEILING after a bank's report: a flag on each carta of bank `bank` the report lists (`listed`) whose borrower
/// group's approved and contracted cartas pass the ceiling in force on `on`, saying the group's total. One statement
/// ([`cartas_over`]); nothing when the ceiling is not set on that day.
pub async fn report_flags(
    txn: &impl ConnectionTrait,
    bank: i64,
    listed: impl Fn(&str) -> bool,
    params: &Params,
    on: NaiveDate,
) -> Result<Vec<NewFlag>, DbErr> {
    let Ok(ceiling) = fco::ceiling_amount(params, on) else {
        return Ok(Vec::new());
    };
    let Ok(ceiling_cents) = Money::from_decimal(ceiling).map(|m| m.cents()) else {
        return Ok(Vec::new());
    };
    Ok(cartas_over(txn, Some(bank), ceiling_cents)
        .await?
        .into_iter()
        .filter(|over| listed(&over.number))
        .map(|over| {
            let what = Explanation::message("report-flag-ceiling")
                .arg("total", Money(over.group_total_cents).to_decimal())
                .arg("ceiling", ceiling);
            NewFlag::on_carta(over.carta_id, code::FCO_CEILING, what)
        })
        .collect())
}
