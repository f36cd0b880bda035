//! Compliance flags: what the flag pass and a bank report's ingestion found, listed and filtered for every door;
//! [`write`] is the one place they are raised, resolved and announced.

pub mod event;
pub mod write;

pub use write::resolve_by_person;

use crate::{
    Caller, ServiceError,
    page::{self, Keyset, Page},
};
use chrono::{DateTime, NaiveDate, Utc};
use entity::{compliance_flag, vocab::Programme};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder,
    sea_query::{Expr, Query},
};
use std::collections::HashMap;

/// Which flags to list; an empty list means any.
#[derive(Debug, Clone, Default)]
pub struct FlagFilter {
    /// Only flags on these programmes' financings.
    pub programmes: Vec<Programme>,
    /// Only these rules.
    pub rule_codes: Vec<String>,
    /// Only these severities (`INFO`, `WARNING`, `VIOLATION`).
    pub severities: Vec<String>,
    /// Only flags on financings of these banks.
    pub bank_ids: Vec<i64>,
    /// Only open (`true`) or resolved (`false`) flags.
    pub open: Option<bool>,
    /// Only flags raised at or after this instant.
    pub raised_from: Option<DateTime<Utc>>,
    /// Only flags raised before this instant.
    pub raised_to: Option<DateTime<Utc>>,
    /// Only flags falling due before this day.
    pub due_before: Option<NaiveDate>,
    /// Only flags on these kinds of subject (`FINANCING`, `BANK`, `MEETING`, `GROUP`, `REPORT`).
    pub subject_kinds: Vec<String>,
    /// Only flags raised by this source (`job:flag-deadlines`, `report:42`).
    pub source: Option<String>,
}

impl FlagFilter {
    /// The SQL condition of the filter.
    pub(crate) fn condition(&self) -> Condition {
        use compliance_flag::Column as C;
        let mut c = Condition::all();
        if !self.programmes.is_empty() {
            c = c.add(C::Programme.is_in(self.programmes.clone()));
        }
        if !self.rule_codes.is_empty() {
            c = c.add(C::RuleCode.is_in(self.rule_codes.clone()));
        }
        if !self.severities.is_empty() {
            c = c.add(C::Severity.is_in(self.severities.clone()));
        }
        if !self.bank_ids.is_empty() {
            let of_bank = |table: &'static str| {
                Query::select()
                    .column("id")
                    .from(table)
                    .and_where(sea_orm::ExprTrait::is_in(Expr::col("bank_id"), self.bank_ids.clone()))
                    .to_owned()
            };
            c = c.add(
                Condition::any()
                    .add(
                        Condition::all()
                            .add(C::Programme.eq(Programme::FcoRural))
                            .add(C::FinancingId.in_subquery(of_bank("fco_carta"))),
                    )
                    .add(
                        Condition::all()
                            .add(C::Programme.eq(Programme::SocialFuel))
                            .add(C::FinancingId.in_subquery(of_bank("social_fuel_project"))),
                    )
                    .add(
                        Condition::all()
                            .add(C::SubjectKind.eq("BANK"))
                            .add(C::SubjectId.is_in(self.bank_ids.clone())),
                    ),
            );
        }
        match self.open {
            Some(true) => c = c.add(C::ResolvedAt.is_null()),
            Some(false) => c = c.add(C::ResolvedAt.is_not_null()),
            None => {}
        }
        if let Some(t) = self.raised_from {
            c = c.add(C::RaisedAt.gte(t));
        }
        if let Some(t) = self.raised_to {
            c = c.add(C::RaisedAt.lt(t));
        }
        if let Some(d) = self.due_before {
            c = c.add(C::DueOn.lt(d));
        }
        if !self.subject_kinds.is_empty() {
            c = c.add(C::SubjectKind.is_in(self.subject_kinds.clone()));
        }
        if let Some(s) = &self.source {
            c = c.add(C::Source.eq(s.clone()));
        }
        c
    }
}

impl FlagFilter {
    /// Whether `flag` passes the filter (for the live `flagRaised` subscription); the bank is read when asked for.
    pub async fn matches(
        &self,
        db: &impl ConnectionTrait,
        flag: &compliance_flag::Model,
    ) -> Result<bool, ServiceError> {
        let any = |list: &[String], v: &str| list.is_empty() || list.iter().any(|x| x == v);
        let passes = (self.programmes.is_empty() || self.programmes.contains(&flag.programme))
            && any(&self.rule_codes, &flag.rule_code)
            && any(&self.severities, &flag.severity)
            && any(&self.subject_kinds, &flag.subject_kind)
            && self.source.as_ref().is_none_or(|s| *s == flag.source)
            && self.open.is_none_or(|open| open == flag.resolved_at.is_none())
            && self.raised_from.is_none_or(|t| flag.raised_at >= t)
            && self.raised_to.is_none_or(|t| flag.raised_at < t)
            && self.due_before.is_none_or(|d| flag.due_on.is_some_and(|due| due < d));
        if !passes || self.bank_ids.is_empty() {
            return Ok(passes);
        }
        let one = FlagFilter {
            bank_ids: self.bank_ids.clone(),
            ..FlagFilter::default()
        };
        Ok(compliance_flag::Entity::find_by_id(flag.id)
            .filter(one.condition())
            .one(db)
            .await?
            .is_some())
    }
}

/// One page of the flags matching `filter`, newest first.
pub async fn list(
    db: &impl ConnectionTrait,
    caller: &Caller,
    filter: &FlagFilter,
    keyset: Keyset,
) -> Result<Page<compliance_flag::Model>, ServiceError> {
    let select = compliance_flag::Entity::find().filter(scoped(caller, filter.clone())?.condition());
    page::fetch(db, select, compliance_flag::Column::Id, |f| f.id, keyset).await
}

/// The flags open now, counted by rule and severity (for the metrics' `fomento_flags_open`), whoever asks: counts
/// only, no flag's content.
pub async fn open_counts(db: &impl ConnectionTrait) -> Result<Vec<(String, String, i64)>, ServiceError> {
    use sea_orm::QuerySelect;
    Ok(compliance_flag::Entity::find()
        .select_only()
        .column(compliance_flag::Column::RuleCode)
        .column(compliance_flag::Column::Severity)
        .column_as(compliance_flag::Column::Id.count(), "open")
        .filter(compliance_flag::Column::ResolvedAt.is_null())
        .group_by(compliance_flag::Column::RuleCode)
        .group_by(compliance_flag::Column::Severity)
        .into_tuple::<(String, String, i64)>()
        .all(db)
        .await?)
}

/// `filter` narrowed to what `caller` may read: a bank sees the flags of its own cartas, projects and reports, and
/// its own.
pub fn scoped(caller: &Caller, mut filter: FlagFilter) -> Result<FlagFilter, ServiceError> {
    if let Some(b) = crate::access::read_scope(caller)? {
        filter.bank_ids = if filter.bank_ids.is_empty() || filter.bank_ids.contains(&b) {
            vec![b]
        } else {
            // Another bank's flags: none.
            vec![-1]
        };
    }
    Ok(filter)
}

/// One flag.
pub async fn get(db: &impl ConnectionTrait, id: i64) -> Result<Option<compliance_flag::Model>, ServiceError> {
    Ok(compliance_flag::Entity::find_by_id(id).one(db).await?)
}

/// The flags of each financing, newest first, in one statement.
pub async fn of_financings(
    db: &impl ConnectionTrait,
    keys: &[(Programme, i64)],
) -> Result<HashMap<(Programme, i64), Vec<compliance_flag::Model>>, sea_orm::DbErr> {
    use compliance_flag::Column as C;
    let mut out: HashMap<(Programme, i64), Vec<compliance_flag::Model>> = HashMap::new();
    if keys.is_empty() {
        return Ok(out);
    }
    let mut any = Condition::any();
    for programme in [Programme::SocialFuel, Programme::FcoRural] {
        let ids: Vec<i64> = keys
            .iter()
            .filter(|(p, _)| *p == programme)
            .map(|(_, id)| *id)
            .collect();
        if !ids.is_empty() {
            any = any.add(
                Condition::all()
                    .add(C::Programme.eq(programme))
                    .add(C::FinancingId.is_in(ids)),
            );
        }
    }
    let rows = compliance_flag::Entity::find()
        .filter(any)
        .order_by_desc(C::Id)
        .all(db)
        .await?;
    for f in rows {
        if let Some(id) = f.financing_id {
            out.entry((f.programme, id)).or_default().push(f);
        }
    }
    Ok(out)
}

/// The report that raised a flag, from its source (`report:42`).
pub fn report_of(flag: &compliance_flag::Model) -> Option<i64> {
    flag.source.strip_prefix("report:")?.parse().ok()
}

/// The subjects of `flags` named as people know them, read in one statement per kind: a carta by its number
/// (`FCO-0299/2026`), a project by its title, a bank by its code (`SICREDI`), an economic group by its name, a monthly
/// list by its bank and month (`SICREDI 2026-10`), a chamber meeting by its day (`2026-03-05`).
pub async fn subject_names(
    db: &impl ConnectionTrait,
    flags: &[compliance_flag::Model],
) -> Result<HashMap<(compliance_flag::SubjectKind, i64), String>, ServiceError> {
    use compliance_flag::SubjectKind as K;
    use entity::{bank_report, chamber_meeting, economic_group, fco_carta, social_fuel_project};
    let ids = |kind: K, programme: Option<Programme>| -> Vec<i64> {
        let mut v: Vec<i64> = flags
            .iter()
            .filter(|f| f.subject() == Some(kind) && programme.is_none_or(|p| p == f.programme))
            .map(|f| f.subject_id)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let mut out = HashMap::new();
    for c in fco_carta::Entity::find()
        .filter(fco_carta::Column::Id.is_in(ids(K::Financing, Some(Programme::FcoRural))))
        .all(db)
        .await?
    {
        out.insert((K::Financing, c.id), c.number);
    }
    for p in social_fuel_project::Entity::find()
        .filter(social_fuel_project::Column::Id.is_in(ids(K::Financing, Some(Programme::SocialFuel))))
        .all(db)
        .await?
    {
        out.insert((K::Financing, p.id), p.title);
    }
    let reports = bank_report::Entity::find()
        .filter(bank_report::Column::Id.is_in(ids(K::Report, None)))
        .all(db)
        .await?;
    let mut banks = ids(K::Bank, None);
    banks.extend(reports.iter().map(|r| r.bank_id));
    let banks = crate::facts::banks(db, &banks).await?;
    for (id, b) in &banks {
        out.insert((K::Bank, *id), b.code.clone());
    }
    for r in reports {
        let bank = banks
            .get(&r.bank_id)
            .map_or_else(|| r.bank_id.to_string(), |b| b.code.clone());
        out.insert((K::Report, r.id), format!("{bank} {}", r.reference_month));
    }
    for g in economic_group::Entity::find()
        .filter(economic_group::Column::Id.is_in(ids(K::Group, None)))
        .all(db)
        .await?
    {
        out.insert((K::Group, g.id), g.name);
    }
    for m in chamber_meeting::Entity::find()
        .filter(chamber_meeting::Column::Id.is_in(ids(K::Meeting, None)))
        .all(db)
        .await?
    {
        let day = entity::domain::Authority::Cdae.local(m.starts_at).date_naive();
        out.insert((K::Meeting, m.id), day.to_string());
    }
    Ok(out)
}
