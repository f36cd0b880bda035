//! An FCO carta's approval cycle that an amendment closed (CDAE/MT 2019, art. 15: a change that needs a new approval
//! goes to the chamber or the bank again). The carta row holds the open cycle; each earlier one is kept here as it
//! stood the day the amendment closed it, so that a day before the reopening reads the carta as it was then
//! (`fco_carta::JudgedCarta::known_on`) and a meeting keeps the cartas it decided.
//!
//! Cycle `n` is in force from the day cycle `n − 1` closed (from the carta's creation for the first) until the day
//! before it closed; the open cycle from the day the last one closed, which is its submission day (a reopening
//! submits the carta again that day).

use super::vocab::{Decision, FcoCartaStage};
use crate::domain::Money;
use sea_orm::entity::prelude::*;

/// A closed approval cycle: the carta's cycle fields as they stood when an amendment closed it.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "fco_carta_cycle")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The carta.
    pub carta_id: i64,
    /// Its number among the carta's cycles, from 1 (the open cycle is the next number).
    pub number: i32,
    /// Financed value in this cycle, in centavos.
    pub financed_amount: Money,
    /// The stage the cycle had reached (approved or contracted: only those are amended).
    pub stage: FcoCartaStage,
    /// Date of submission.
    pub submitted_on: Option<Date>,
    /// When the carta reached SEDEC (art. 2 §7).
    pub received_by_council_at: Option<DateTimeUtc>,
    /// The chamber meeting that considered it.
    pub chamber_meeting_id: Option<i64>,
    /// The opinion or decision.
    pub decision: Option<Decision>,
    /// `CHAMBER` or `BANK`: who decided.
    pub decided_by: Option<String>,
    /// Date of the opinion or decision.
    pub decided_on: Option<Date>,
    /// Date of approval (the 120 days of art. 3 sole § count from it).
    pub approved_on: Option<Date>,
    /// The day the project was presented to the bank.
    pub presented_on: Option<Date>,
    /// Date the financing was contracted.
    pub contracted_on: Option<Date>,
    /// Contracted value, in centavos.
    pub contracted_amount: Option<Money>,
    /// The day the cycle closed: the legal date of the amendment that reopened the approval.
    pub closed_on: Date,
    /// The amendment that closed it.
    pub closed_by_amendment_id: i64,
    /// When it was recorded (set by the database on insert, migration 55; none: from before, known from the start).
    pub recorded_at: Option<DateTimeUtc>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// The closed cycle in force at the end of `day`, if any: the first (least number) to close after it. None when the
/// open cycle, on the carta row, is in force. The one choice of a cycle by day; [`in_force_sql`] is its form for a
/// statement that groups cartas.
pub fn in_force(closed: &[Model], day: Date) -> Option<&Model> {
    closed.iter().filter(|y| y.closed_on > day).min_by_key(|y| y.number)
}

/// The cartas as their cycle in force at the end of day `day` left them, for a statement that groups cartas as known
/// on a day (the dashboard's): a derived table with `fco_carta`'s columns `id`, `bank_id`, `party_id`, `line`,
/// `activity`, `municipality_code` and the cycle's columns, one row a carta, [`in_force`] written in SQL (`day` is the
/// statement's placeholder for the day, `$1`). A carta without a cycle closed after the day is its own row; the others
/// take the first cycle closed after it.
pub fn in_force_sql(day: &str) -> String {
    const CYCLE: &str = "financed_amount, stage, submitted_on, received_by_council_at, chamber_meeting_id, decision, \
        decided_by, decided_on, approved_on, presented_on, contracted_on, contracted_amount";
    let of = |t: &str| {
        CYCLE
            .split(", ")
            .map(|c| format!("{t}.{c}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "SELECT c.id, c.bank_id, c.party_id, c.line, c.activity, c.municipality_code, {open} FROM fco_carta c \
           WHERE c.id NOT IN (SELECT carta_id FROM fco_carta_cycle WHERE closed_on > {day}) \
         UNION ALL \
         SELECT c.id, c.bank_id, c.party_id, c.line, c.activity, c.municipality_code, {closed} \
           FROM fco_carta_cycle y JOIN fco_carta c ON c.id = y.carta_id \
           WHERE y.closed_on > {day} AND NOT EXISTS (SELECT 1 FROM fco_carta_cycle z \
             WHERE z.carta_id = y.carta_id AND z.closed_on > {day} AND z.number < y.number)",
        open = of("c"),
        closed = of("y"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(m: u32, d: u32) -> Date {
        Date::from_ymd_opt(2025, m, d).expect("day")
    }

    fn cycle(number: i32, closed_on: Date) -> Model {
        Model {
            id: i64::from(number),
            carta_id: 1,
            number,
            financed_amount: Money(100 * i64::from(number)),
            stage: FcoCartaStage::Contracted,
            submitted_on: None,
            received_by_council_at: None,
            chamber_meeting_id: None,
            decision: None,
            decided_by: None,
            decided_on: None,
            approved_on: None,
            presented_on: None,
            contracted_on: None,
            contracted_amount: None,
            closed_on,
            closed_by_amendment_id: i64::from(number),
            recorded_at: None,
        }
    }

    /// Each cycle is in force up to the day before it closed, the open one from the last closing on; a cycle opened
    /// and closed on the same day is never in force at the end of a day.
    #[test]
    fn the_cycle_in_force_is_the_first_to_close_after_the_day() {
        let closed = [cycle(2, day(9, 1)), cycle(1, day(7, 1)), cycle(3, day(9, 1))];
        let number = |d: Date| in_force(&closed, d).map(|y| y.number);
        assert_eq!(number(day(1, 1)), Some(1));
        assert_eq!(number(day(6, 30)), Some(1));
        assert_eq!(number(day(7, 1)), Some(2), "closed that day: the next is in force");
        assert_eq!(number(day(8, 31)), Some(2));
        assert_eq!(number(day(9, 1)), None, "the open cycle");
        assert_eq!(in_force(&[], day(1, 1)), None);
    }
}
