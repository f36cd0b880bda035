//! The banks' deadlines in the pass: their monthly lists, one flag a missing month, and Banco do Brasil's report.

use super::{
    Finding, Key, Result, SOURCE,
    judgement::{Judgement, Windows},
};
use crate::{
    compliance::{self, Basis},
    flags::write::FlagText,
};
use chrono::{Months, NaiveDate};
use entity::{
    bank, compliance_flag, compliance_flag::SubjectKind, domain::brasilia_date, rules::code, vocab::Programme,
};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use std::borrow::Cow;

/// Judges every bank's deadlines into `j`: its monthly lists (FCO-MONTHLY-LIST, one occurrence a month, keyed by the
/// month the rule names) and Banco do Brasil's 60-day report (FCO-BB-60D).
pub(super) async fn judge_banks(
    db: &impl ConnectionTrait,
    j: &mut Judgement,
    basis: Basis<'_>,
    windows: &Windows,
    as_of: NaiveDate,
) -> Result<()> {
    for b in bank::Entity::find().order_by_asc(bank::Column::Id).all(db).await? {
        let deadlines = compliance::bank_deadlines(db, basis, &b, as_of).await?;
        let first = chrono::Datelike::with_day(&as_of, 1).unwrap_or(as_of);
        let mut months = [2u32, 1]
            .into_iter()
            .filter_map(|back| first.checked_sub_months(Months::new(back)));
        for d in &deadlines {
            let occurrence = if d.code == code::FCO_MONTHLY_LIST.as_str() {
                let month = months.next().map(|m| m.format("%Y-%m").to_string()).unwrap_or_default();
                if d.note.value("month") != Some(month.as_str()) {
                    // The rule's order of months changed: key on the due day rather than guess.
                    d.due.map(|d| d.to_string()).unwrap_or_default()
                } else {
                    month
                }
            } else {
                String::new()
            };
            j.deadline(
                windows,
                (SubjectKind::Bank, b.id, occurrence),
                Programme::FcoRural,
                None,
                d,
            );
        }
        j.judged += 1;
    }
    Ok(())
}

/// A monthly list still missing stays flagged after its month leaves the rule's view (the rule shows the last two
/// months): an open FCO-MONTHLY-LIST flag of an earlier month is kept until a list of that month is received.
pub(super) async fn missing_lists_stay(db: &impl ConnectionTrait, j: &mut Judgement, as_of: NaiveDate) -> Result<()> {
    use compliance_flag::Column as C;
    let open = compliance_flag::Entity::find()
        .filter(C::Source.eq(SOURCE))
        .filter(C::RuleCode.eq(code::FCO_MONTHLY_LIST.as_str()))
        .filter(C::SubjectKind.eq(SubjectKind::Bank.as_str()))
        .filter(C::ResolvedAt.is_null())
        .all(db)
        .await?;
    for f in open {
        let key: Key = (
            SubjectKind::Bank,
            f.subject_id,
            f.rule_code.clone(),
            f.occurrence.clone(),
        );
        if j.judged(&key) {
            continue;
        }
        let received = entity::bank_report::Entity::find()
            .filter(entity::bank_report::Column::BankId.eq(f.subject_id))
            .filter(entity::bank_report::Column::ReferenceMonth.eq(f.occurrence.clone()))
            .filter(entity::bank_report::Column::Status.ne("REJECTED"))
            .all(db)
            .await?
            .into_iter()
            .map(|r| brasilia_date(r.received_at))
            .filter(|d| *d <= as_of)
            .min();
        match received {
            Some(d) => j.say(key, format!("the list of {} was received on {d}", f.occurrence)),
            None => j.want(
                key,
                Finding {
                    programme: f.programme,
                    financing_id: None,
                    severity: "VIOLATION",
                    due_on: f.due_on,
                    legal_basis: Cow::Owned(f.legal_basis.clone()),
                    message: FlagText::Stored {
                        message: f.message.clone(),
                        id: f.message_id.clone(),
                        args: f.message_args.clone(),
                    },
                    fingerprint: Some(f.fingerprint.clone().unwrap_or_default()),
                },
            ),
        }
    }
    Ok(())
}
