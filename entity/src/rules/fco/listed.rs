//! A bank's monthly list (IN CDAE/MT 2019, art. 2 §5), judged row by row: what one row declares of a carta against
//! the rules a carta's own judgement reads (FCO-CHAMBER-THRESHOLD, FCO-VALIDITY-120D) and the list's own period
//! (FCO-MONTHLY-LIST). Each finding is a catalogue message (`report-flag-…` in `explanations.ftl`) naming the row.

use super::super::{Explanation, calendar::Deadline};
use crate::domain::Money;
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// What one row of a monthly list declares of a carta, as far as its checks read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListedRow {
    /// The sheet's row number.
    pub row: u32,
    /// The financed amount.
    pub financed: Money,
    /// The day it was approved.
    pub approved_on: NaiveDate,
    /// The day the project was presented to the bank, when the row says.
    pub presented_on: Option<NaiveDate>,
    /// The day it was contracted, when it was.
    pub contracted_on: Option<NaiveDate>,
}

/// FCO-MONTHLY-LIST: art. 2 §5 lists the cartas "aprovadas e efetivamente contratadas no ano" up to the declared
/// month (`month`, `YYYY-MM`; `year_start` its 1 January, `month_end` its last day). A carta approved in an earlier
/// year belongs to this year's list when it was contracted in it; nothing may be dated after the month. One finding
/// per day out of the period.
pub fn outside_period(row: &ListedRow, year_start: NaiveDate, month_end: NaiveDate, month: &str) -> Vec<Explanation> {
    let contracted_in_year = row.contracted_on.is_some_and(|k| k >= year_start && k <= month_end);
    [("approved", Some(row.approved_on)), ("contracted", row.contracted_on)]
        .into_iter()
        .filter_map(|(what, d)| {
            let d = d?;
            let before_year_allowed = what == "approved" && contracted_in_year;
            ((d < year_start && !before_year_allowed) || d > month_end).then(|| {
                Explanation::message("report-flag-outside-year")
                    .arg("row", row.row)
                    .arg("what", what)
                    .arg("on", d)
                    .arg("end", month_end)
                    .arg("month", month)
            })
        })
        .collect()
}

/// FCO-CHAMBER-THRESHOLD (art. 2 §3) on a listed carta at or above the threshold in force on its approval
/// (`threshold`, as [`super::needs_chamber`] found it): the bank lists it as its own approval, so it is violated
/// unless the CPACR chamber had given it a favourable opinion before this list. `chamber_before`: `None` when the
/// carta was not known before the list, else whether it had that opinion.
pub fn chamber_unheard(row: &ListedRow, threshold: Decimal, chamber_before: Option<bool>) -> Option<Explanation> {
    let id = match chamber_before {
        None => "report-flag-chamber-never",
        Some(false) => "report-flag-chamber-unfavourable",
        Some(true) => return None,
    };
    Some(
        Explanation::message(id)
            .arg("row", row.row)
            .arg("amount", row.financed.to_decimal())
            .arg("threshold", threshold),
    )
}

/// FCO-VALIDITY-120D (art. 3 sole §) on a listed carta the CDAE approved: the project presented to the bank after the
/// 120 days (`validity`, [`super::validity_end`] of its approval), or, when the row does not say when it was
/// presented, contracted after them. `presented_column` names the sheet's column for the day of presentation.
pub fn presented_late(row: &ListedRow, validity: &Deadline, presented_column: &str) -> Option<Explanation> {
    let due = validity.due;
    match (row.presented_on, row.contracted_on) {
        (Some(p), _) if p > due => Some(
            Explanation::message("report-flag-presented-late")
                .arg("row", row.row)
                .arg("on", p)
                .arg("due", due)
                .nested("note", validity.note.clone()),
        ),
        (None, Some(c)) if c > due => Some(
            Explanation::message("report-flag-contracted-late")
                .arg("row", row.row)
                .arg("on", c)
                .arg("due", due)
                .nested("note", validity.note.clone())
                .arg("column", presented_column),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).expect("a day")
    }

    fn row(approved_on: NaiveDate, presented_on: Option<NaiveDate>, contracted_on: Option<NaiveDate>) -> ListedRow {
        ListedRow {
            row: 7,
            financed: Money(150_000_000),
            approved_on,
            presented_on,
            contracted_on,
        }
    }

    #[test]
    fn an_approval_of_an_earlier_year_belongs_to_the_list_only_when_contracted_in_the_year() {
        let (start, end) = (d(2019, 1, 1), d(2019, 5, 31));
        assert!(outside_period(&row(d(2018, 11, 5), None, Some(d(2019, 2, 1))), start, end, "2019-05").is_empty());
        let found = outside_period(&row(d(2018, 11, 5), None, None), start, end, "2019-05");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].value("what"), Some("approved"));
        let found = outside_period(&row(d(2019, 3, 1), None, Some(d(2019, 6, 2))), start, end, "2019-05");
        assert_eq!(found.len(), 1, "a contract after the month: {found:?}");
        assert_eq!(found[0].value("what"), Some("contracted"));
    }

    #[test]
    fn the_chamber_is_unheard_unless_it_gave_a_favourable_opinion_before_the_list() {
        let r = row(d(2019, 3, 1), None, None);
        let t = Decimal::from(1_000_000);
        assert!(chamber_unheard(&r, t, Some(true)).is_none());
        let never = chamber_unheard(&r, t, None).expect("never heard");
        assert_eq!(never.value("row"), Some("7"));
        assert!(matches!(
            never,
            Explanation::Message {
                id: "report-flag-chamber-never",
                ..
            }
        ));
        assert!(matches!(
            chamber_unheard(&r, t, Some(false)),
            Some(Explanation::Message {
                id: "report-flag-chamber-unfavourable",
                ..
            })
        ));
    }

    #[test]
    fn a_presentation_or_an_unexplained_contract_after_the_120_days_is_late() {
        let validity = Deadline {
            due: d(2019, 6, 29),
            nominal: d(2019, 6, 29),
            note: Explanation::from("counted"),
        };
        let late = |p, c| presented_late(&row(d(2019, 3, 1), p, c), &validity, "Apresentação");
        assert!(
            late(Some(d(2019, 6, 29)), Some(d(2019, 9, 1))).is_none(),
            "presented on the last day"
        );
        assert!(matches!(
            late(Some(d(2019, 6, 30)), None),
            Some(Explanation::Message {
                id: "report-flag-presented-late",
                ..
            })
        ));
        let contracted = late(None, Some(d(2019, 7, 1))).expect("contracted late");
        assert_eq!(contracted.value("column"), Some("Apresentação"));
        assert!(late(None, Some(d(2019, 6, 1))).is_none());
    }
}
