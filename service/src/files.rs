//! The raw files banks and operators upload hold personal data (a bank's sheet names its borrowers): they are kept
//! for a retention period (`--retain-raw-files`, five years by default) and then purged from the store, by the
//! `purge-raw-files` job or by `fomento files purge --before DATE`. A purged report or import keeps its rows, its
//! errors and its outcome; only the file is gone, and the purge is in the audit log.

use crate::{
    Caller, ServiceError,
    access::{Operation, authorize},
    store::FileStore,
};
use chrono::{DateTime, Months, NaiveDate, Utc};
use entity::{bank_report, fact_import};
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect,
    sea_query::{Expr, ExprTrait},
};
use std::collections::BTreeSet;

/// How long raw files are kept: whole months (years are twelve) and days.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Months.
    pub months: u32,
    /// Days.
    pub days: u32,
}

impl Default for Retention {
    /// Five years.
    fn default() -> Self {
        Self { months: 60, days: 0 }
    }
}

impl std::str::FromStr for Retention {
    type Err = String;

    /// `5y`, `18m`, `90d` (or a bare number of days).
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim().to_ascii_lowercase();
        let (number, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
            Some((i, _)) => (&s[..i], s[i..].trim()),
            None => (s.as_str(), "d"),
        };
        let n: u32 = number
            .parse()
            .map_err(|_| format!("{s:?} is not a retention: write 5y, 18m or 90d"))?;
        match unit {
            "y" | "year" | "years" => Ok(Self {
                months: n.saturating_mul(12),
                days: 0,
            }),
            "m" | "month" | "months" => Ok(Self { months: n, days: 0 }),
            "d" | "day" | "days" => Ok(Self { months: 0, days: n }),
            _ => Err(format!("{s:?} is not a retention: write 5y, 18m or 90d")),
        }
    }
}

impl Retention {
    /// The first day whose files are kept, on `today`: files received before it are past their retention.
    pub fn keeps_from(&self, today: NaiveDate) -> NaiveDate {
        today
            .checked_sub_months(Months::new(self.months))
            .and_then(|d| d.checked_sub_days(chrono::Days::new(u64::from(self.days))))
            .unwrap_or(NaiveDate::MIN)
    }
}

/// What a purge did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Purged {
    /// Files deleted from the store.
    pub files: usize,
    /// Bank reports whose file is gone.
    pub reports: usize,
    /// Fact imports whose file is gone.
    pub imports: usize,
    /// Files past their retention kept because a later upload of the same bytes is not.
    pub kept_for_later: usize,
}

/// Purges the raw files of the reports and imports received before `before` (00:00 in Brasília) that have ended
/// (ingested, rejected, failed, applied): a file a later upload still needs (the same bytes sent again) stays until
/// that upload's turn. Deletes first and marks after, so a purge interrupted between the two is finished by the next.
pub async fn purge(
    db: &impl ConnectionTrait,
    store: &FileStore,
    caller: &Caller,
    before: NaiveDate,
    now: DateTime<Utc>,
) -> Result<Purged, ServiceError> {
    authorize(caller, Operation::Administer)?;
    // The first instant of `before` in Brasília: the end of the day before it.
    let cutoff = entity::domain::brasilia_day_end(before.pred_opt().unwrap_or(before));
    let old_reports: Vec<(i64, String)> = bank_report::Entity::find()
        .select_only()
        .columns([bank_report::Column::Id, bank_report::Column::Sha256])
        .filter(bank_report::Column::ReceivedAt.lt(cutoff))
        .filter(bank_report::Column::RawPurgedAt.is_null())
        .filter(bank_report::Column::ProcessedAt.is_not_null())
        .into_tuple()
        .all(db)
        .await?;
    let old_imports: Vec<(i64, String)> = fact_import::Entity::find()
        .select_only()
        .columns([fact_import::Column::Id, fact_import::Column::Sha256])
        .filter(fact_import::Column::ReceivedAt.lt(cutoff))
        .filter(fact_import::Column::RawPurgedAt.is_null())
        .filter(fact_import::Column::ProcessedAt.is_not_null())
        .into_tuple()
        .all(db)
        .await?;
    let candidates: BTreeSet<String> = old_reports.iter().chain(&old_imports).map(|(_, s)| s.clone()).collect();
    // The files a newer (or unfinished) upload of the same bytes still needs.
    let mut needed: BTreeSet<String> = BTreeSet::new();
    let list: Vec<String> = candidates.iter().cloned().collect();
    for chunk in list.chunks(500) {
        let newer: Vec<String> = bank_report::Entity::find()
            .select_only()
            .column(bank_report::Column::Sha256)
            .filter(bank_report::Column::Sha256.is_in(chunk.to_vec()))
            .filter(bank_report::Column::RawPurgedAt.is_null())
            .filter(
                bank_report::Column::ReceivedAt
                    .gte(cutoff)
                    .or(bank_report::Column::ProcessedAt.is_null()),
            )
            .into_tuple()
            .all(db)
            .await?;
        needed.extend(newer);
        let newer: Vec<String> = fact_import::Entity::find()
            .select_only()
            .column(fact_import::Column::Sha256)
            .filter(fact_import::Column::Sha256.is_in(chunk.to_vec()))
            .filter(fact_import::Column::RawPurgedAt.is_null())
            .filter(
                fact_import::Column::ReceivedAt
                    .gte(cutoff)
                    .or(fact_import::Column::ProcessedAt.is_null()),
            )
            .into_tuple()
            .all(db)
            .await?;
        needed.extend(newer);
    }
    let purged: Vec<String> = candidates.difference(&needed).cloned().collect();
    for sha in &purged {
        store
            .delete(sha)
            .await
            .map_err(|e| ServiceError::Internal(e.to_string()))?;
    }
    let mut outcome = Purged {
        files: purged.len(),
        kept_for_later: needed.intersection(&candidates).count(),
        ..Default::default()
    };
    let gone: BTreeSet<&String> = purged.iter().collect();
    let report_ids: Vec<i64> = old_reports
        .iter()
        .filter(|(_, s)| gone.contains(s))
        .map(|(id, _)| *id)
        .collect();
    let import_ids: Vec<i64> = old_imports
        .iter()
        .filter(|(_, s)| gone.contains(s))
        .map(|(id, _)| *id)
        .collect();
    for chunk in report_ids.chunks(500) {
        outcome.reports += bank_report::Entity::update_many()
            .col_expr(bank_report::Column::RawPurgedAt, Expr::value(now))
            .filter(bank_report::Column::Id.is_in(chunk.to_vec()))
            .exec(db)
            .await?
            .rows_affected as usize;
    }
    for chunk in import_ids.chunks(500) {
        outcome.imports += fact_import::Entity::update_many()
            .col_expr(fact_import::Column::RawPurgedAt, Expr::value(now))
            .filter(fact_import::Column::Id.is_in(chunk.to_vec()))
            .exec(db)
            .await?
            .rows_affected as usize;
    }
    let target = format!(
        "received before {before}: {} files ({} reports, {} imports), {} kept for a later upload",
        outcome.files, outcome.reports, outcome.imports, outcome.kept_for_later
    );
    crate::audit::record(db, caller, "files purge", Some(&target), None, &Default::default()).await;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retention_reads_years_months_and_days_and_counts_back_from_today() {
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date");
        assert_eq!("5y".parse::<Retention>(), Ok(Retention::default()));
        assert_eq!("18m".parse::<Retention>(), Ok(Retention { months: 18, days: 0 }));
        assert_eq!("90".parse::<Retention>(), Ok(Retention { months: 0, days: 90 }));
        assert!("5 anos".parse::<Retention>().is_err());
        assert_eq!(Retention::default().keeps_from(d("2026-12-04")), d("2021-12-04"));
        // 29 February less a year is the 28th.
        assert_eq!(
            "1y".parse::<Retention>().map(|r| r.keeps_from(d("2028-02-29"))),
            Ok(d("2027-02-28"))
        );
    }
}
