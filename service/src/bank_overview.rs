//! A bank's own view of its obligations: which monthly lists it owes (IN CDAE/MT 2019, art. 2 §5), what it sent for
//! each month, its reporting deadlines and the open flags on its cartas. What the banks' pages show, read through the
//! same functions as the graph (`reports::list`, `compliance::bank_deadlines`, `flags::list`).

use crate::{
    Caller, ServiceError,
    flags::FlagFilter,
    messages::{Message, code},
    page::Keyset,
    reports::ReportFilter,
};
use chrono::{Datelike, Months, NaiveDate};
use entity::{bank, bank_report, compliance_flag};
use sea_orm::{ConnectionTrait, EntityTrait};

/// How many months back the pages offer and list (the current month included).
pub const MONTHS_SHOWN: u32 = 12;

/// The bank a caller acts for: a `bank` key's or token's bank; any other caller is refused (`FORBIDDEN`, naming the
/// operation `bank-data`), as is a bank caller without one.
pub async fn bank_of(db: &impl ConnectionTrait, caller: &Caller) -> Result<bank::Model, ServiceError> {
    let Some(id) = caller.scope().bank() else {
        return Err(ServiceError::Forbidden(Message::new("bank.only")));
    };
    crate::access::authorize(caller, crate::access::Operation::BankData)?;
    bank::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found("bank", Message::new(code::BANK_UNKNOWN).arg("code", id)))
}

/// The codes of the banks that operate FCO Rural (those whose monthly list is expected), in order.
pub async fn fco_bank_codes(db: &impl ConnectionTrait) -> Result<Vec<String>, ServiceError> {
    let mut codes: Vec<String> = bank::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .filter(|b| b.serves_fco)
        .map(|b| b.code)
        .collect();
    codes.sort();
    Ok(codes)
}

/// Every bank, by code (for choosing whose users get a key).
pub async fn banks(db: &impl ConnectionTrait) -> Result<Vec<bank::Model>, ServiceError> {
    let mut all = bank::Entity::find().all(db).await?;
    all.sort_by(|a, b| a.code.cmp(&b.code));
    Ok(all)
}

/// One month's list: the month (`YYYY-MM`), the latest report the bank sent for it (superseded ones aside) and the
/// one that settles it, if any.
#[derive(Debug, Clone)]
pub struct MonthList {
    /// The month, `YYYY-MM`.
    pub month: String,
    /// The latest report sent for it, if any.
    pub latest: Option<bank_report::Model>,
    /// The latest report that settles the month (ingested, or received and being read), even when a later one was
    /// refused: a month whose list was ingested owes nothing, whatever was sent after.
    pub settled: Option<bank_report::Model>,
}

impl MonthList {
    /// Whether the month owes its list as of `today`: it has ended (the current month is never owed: its list is due
    /// after it ends, as `Bank.deadlines` counts) and no report settles it. The one test of "owed" of the bank's pages
    /// (`/bank` and `/bank/send`).
    pub fn owed(&self, today: NaiveDate) -> bool {
        self.settled.is_none() && self.month < today.format("%Y-%m").to_string()
    }

    /// The report whose status the pages show for the month: the one that settles it, else the latest.
    pub fn shown(&self) -> Option<&bank_report::Model> {
        self.settled.as_ref().or(self.latest.as_ref())
    }
}

/// The months of `lists` that owe their list as of `today` ([`MonthList::owed`]), in `lists`' order.
pub fn owed(lists: &[MonthList], today: NaiveDate) -> Vec<&MonthList> {
    lists.iter().filter(|l| l.owed(today)).collect()
}

/// The months a bank may send a list for as of `today`, newest first: the current month and the
/// [`MONTHS_SHOWN`]` - 1` before it, none before the instruction took effect (the months `intake::receive` accepts).
pub fn months_open(today: NaiveDate) -> Vec<String> {
    let current = today.with_day(1).unwrap_or(today);
    (0..MONTHS_SHOWN)
        .filter_map(|back| current.checked_sub_months(Months::new(back)))
        .map(|m| m.format("%Y-%m").to_string())
        .filter(|m| crate::intake::check_report_month(m, today).is_ok())
        .collect()
}

/// The caller's bank's lists of the months [`months_open`] as of `today`, newest first, each with its latest report.
pub async fn month_lists(
    db: &impl ConnectionTrait,
    caller: &Caller,
    today: NaiveDate,
) -> Result<Vec<MonthList>, ServiceError> {
    let mut out = Vec::new();
    for month in months_open(today) {
        let filter = ReportFilter {
            reference_month: Some(month.clone()),
            ..ReportFilter::default()
        };
        let sent = crate::reports::list(db, caller, &filter, Keyset::parse(Some(100), None, None, None)?).await?;
        let kept: Vec<bank_report::Model> = sent
            .items
            .into_iter()
            .map(|(_, r)| r)
            .filter(|r| r.status != "SUPERSEDED")
            .collect();
        let settled = kept
            .iter()
            .find(|r| matches!(r.status.as_str(), "INGESTED" | "RECEIVED" | "PROCESSING"))
            .cloned();
        let latest = kept.into_iter().next();
        out.push(MonthList { month, latest, settled });
    }
    Ok(out)
}

/// The caller's bank's reporting deadlines as of `today` (`compliance::bank_deadlines`, as the graph's
/// `Bank.deadlines`).
pub async fn deadlines(
    db: &impl ConnectionTrait,
    bank: &bank::Model,
    today: NaiveDate,
) -> Result<Vec<entity::rules::social_fuel::DeadlineOutcome>, ServiceError> {
    let (params, calendar) = (
        crate::parameters::params(db).await?,
        crate::parameters::calendar(db).await?,
    );
    let basis = crate::compliance::Basis {
        params: &params,
        calendar: &calendar,
        texts: entity::rules::Texts::Written,
    };
    crate::compliance::bank_deadlines(db, basis, bank, today).await
}

/// The open flags the caller sees (a bank: those of its cartas, projects and reports), newest first, at most
/// `first`, and how many there are.
pub async fn open_flags(
    db: &impl ConnectionTrait,
    caller: &Caller,
    first: i32,
) -> Result<(Vec<compliance_flag::Model>, u64), ServiceError> {
    let filter = FlagFilter {
        open: Some(true),
        ..FlagFilter::default()
    };
    let page = crate::flags::list(db, caller, &filter, Keyset::parse(Some(first), None, None, None)?).await?;
    Ok((page.items.into_iter().map(|(_, f)| f).collect(), page.total_count))
}

/// The first and last days of a month `YYYY-MM` (checked as `intake::parse_month` checks it).
pub fn month_span(month: &str) -> Result<(NaiveDate, NaiveDate), ServiceError> {
    let m = crate::intake::parse_month(month)?;
    let first = NaiveDate::parse_from_str(&format!("{m}-01"), "%Y-%m-%d").map_err(|_| {
        ServiceError::bad(
            "month",
            Message::new(code::MONTH_INVALID).arg("value", format!("{month:?}")),
        )
    })?;
    let last = first
        .checked_add_months(Months::new(1))
        .and_then(|d| d.pred_opt())
        .unwrap_or(first);
    Ok((first, last))
}

/// The caller's bank's FCO cartas decided (approved or not) in `approved` and contracted in `contracted` (months
/// `YYYY-MM`, either or both), the most recently contracted first, at most `first` of them with their borrower and
/// municipality, and how many there are:
/// the graph's `fcoCartas` query (`financings::listed_rows`) with those dates in its filter.
pub async fn cartas(
    db: &impl ConnectionTrait,
    caller: &Caller,
    approved: Option<&str>,
    contracted: Option<&str>,
    first: u64,
) -> Result<(Vec<crate::financings::Row<entity::fco_carta::Model>>, u64), ServiceError> {
    use crate::financings::{Filter, Joined, OrderField, Query, Seek, Whose};
    let mut filter = Filter {
        programmes: Some(vec![entity::vocab::Programme::FcoRural]),
        ..Filter::default()
    };
    if let Some(m) = approved {
        let (from, to) = month_span(m)?;
        (filter.decided_from, filter.decided_to) = (Some(from), Some(to));
    }
    if let Some(m) = contracted {
        let (from, to) = month_span(m)?;
        (filter.contracted_from, filter.contracted_to) = (Some(from), Some(to));
    }
    let mut q = Query {
        filter,
        whose: Whose::All,
        order: OrderField::ContractedOn,
        descending: true,
        bank_scope: None,
    };
    crate::financings::resolve(db, caller, &mut q).await?;
    let seek = Seek {
        first: Some(first),
        ..Seek::default()
    };
    let joined = Joined {
        bank: false,
        party: true,
        municipality: true,
    };
    let page = crate::financings::listed_rows::<entity::fco_carta::Entity>(db, &q, &seek, joined, true).await?;
    let total = page.total.unwrap_or(page.rows.len() as u64);
    Ok((page.rows, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_months_open_are_the_last_twelve_and_none_before_the_instruction() {
        let day = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("day");
        let open = months_open(day("2026-12-06"));
        assert_eq!(open.first().map(String::as_str), Some("2026-12"));
        assert_eq!(open.last().map(String::as_str), Some("2026-01"));
        assert_eq!(open.len(), 12);
        assert_eq!(months_open(day("2019-05-10")), ["2019-05", "2019-04", "2019-03"]);
    }
}
