//! What the record held at an instant (`knownAt: T`, issue 41): the answer an auditor gets to "what did the system
//! know at T", beside `asOf: D` ("as things stood on day D"), which reads what is known now.
//!
//! At T, a financing and a chamber meeting are the row as it stood then (the database keeps every earlier state of
//! a row changed in place, migration 55: [`row_at`]); a fact kept in versions is the version recorded by T, without
//! the correction or end recorded after T; a fact appended in one piece (amendment, closed cycle, change notice,
//! confirmation) counts when recorded by T; a history row when recorded by T; a rule parameter when recorded by T and
//! not withdrawn by then. The day judged is T's day in Brasília unless an earlier `asOf` is asked.
//!
//! Not yet kept at instants (read as they stand now): a meeting's attendance, which banks were recorded present or
//! absent, and a borrower group's members (their `joinedOn`/`leftOn` days are read as recorded now).

use crate::ServiceError;
use crate::compliance::{self, Basis, DbFacts, FactSource};
use crate::facts::Committed;
use chrono::{DateTime, NaiveDate, Utc};
use entity::Versioned;
use entity::rules::{Outcome, social_fuel};
use entity::{
    assistance_plan, chamber_meeting, checklist_confirmation, company_change_notice, contract_proposal, fco_carta,
    fco_carta_amendment, fco_carta_cycle, fco_carta_item, fco_carta_statement, feedstock_acquisition, project_document,
    semi_arid_membership, social_fuel_project, vocab::Programme,
};
use sea_orm::{ConnectionTrait, EntityTrait, FromQueryResult, Statement};
use std::sync::Arc;

type Result<T> = std::result::Result<T, ServiceError>;

/// The row `current` of `table` as it stood at `at`: the earliest revision that was replaced after `at` (the state
/// then), else the row as it stands (unchanged since). `None` when `current` is `None`.
async fn row_at<M: FromQueryResult>(
    db: &impl ConnectionTrait,
    table: &str,
    id: i64,
    current: Option<M>,
    at: DateTime<Utc>,
) -> Result<Option<M>> {
    let Some(current) = current else {
        return Ok(None);
    };
    let backend = db.get_database_backend();
    let rows = db
        .query_all_raw(Statement::from_sql_and_values(
            backend,
            format!(
                "SELECT * FROM {table}_revision WHERE id = {} ORDER BY revision_id",
                match backend {
                    sea_orm::DbBackend::Postgres => "$1",
                    _ => "?",
                }
            ),
            [id.into()],
        ))
        .await?;
    for row in &rows {
        let superseded: DateTime<Utc> = row.try_get("", "superseded_at")?;
        if superseded > at {
            return Ok(Some(M::from_query_result(row, "")?));
        }
    }
    Ok(Some(current))
}

/// The refusal when a financing was not yet recorded at `at`.
fn not_yet(field: &'static str, at: DateTime<Utc>) -> ServiceError {
    ServiceError::bad(
        field,
        crate::messages::Message::new(crate::messages::code::NOT_YET_RECORDED).arg("at", at.to_rfc3339()),
    )
}

/// Carta `c` (as stored now) as the record held it at `at`; refused when it was recorded later.
pub async fn carta(db: &impl ConnectionTrait, c: &fco_carta::Model, at: DateTime<Utc>) -> Result<fco_carta::Model> {
    if c.created_at > at {
        return Err(not_yet("knownAt", at));
    }
    Ok(row_at(db, "fco_carta", c.id, Some(c.clone()), at)
        .await?
        .unwrap_or_else(|| c.clone()))
}

/// Project `p` (as stored now) as the record held it at `at`; refused when it was recorded later.
pub async fn project(
    db: &impl ConnectionTrait,
    p: &social_fuel_project::Model,
    at: DateTime<Utc>,
) -> Result<social_fuel_project::Model> {
    if p.created_at > at {
        return Err(not_yet("knownAt", at));
    }
    Ok(row_at(db, "social_fuel_project", p.id, Some(p.clone()), at)
        .await?
        .unwrap_or_else(|| p.clone()))
}

/// The version rows recorded by `at`, each as it stood then: a correction or removal recorded later is undone (the
/// version was in force, with no end).
pub trait AtInstant: Sized {
    /// This row as the record held it at `at`; `None` when recorded later.
    fn at_instant(self, at: DateTime<Utc>) -> Option<Self>;
}

macro_rules! at_instant {
    ($($module:ident),*) => {$(
        impl AtInstant for $module::Model {
            fn at_instant(mut self, at: DateTime<Utc>) -> Option<Self> {
                if self.recorded_at().is_some_and(|r| r > at) {
                    return None;
                }
                if self.superseded_at().is_some_and(|s| s > at) {
                    self.superseded_at = None;
                    self.superseded_by = None;
                    self.ended_on = None;
                }
                Some(self)
            }
        }
    )*};
}

at_instant!(
    fco_carta_item,
    feedstock_acquisition,
    contract_proposal,
    assistance_plan
);

impl AtInstant for project_document::Model {
    fn at_instant(mut self, at: DateTime<Utc>) -> Option<Self> {
        if self.recorded_at.is_some_and(|r| r > at) {
            return None;
        }
        if self.superseded_at.is_some_and(|s| s > at) {
            self.superseded_at = None;
            self.superseded_by = None;
        }
        Some(self)
    }
}

impl AtInstant for checklist_confirmation::Model {
    fn at_instant(mut self, at: DateTime<Utc>) -> Option<Self> {
        if self.confirmed_at > at {
            return None;
        }
        if self.ended_at.is_some_and(|e| e > at) {
            self.ended_on = None;
            self.ended_at = None;
        }
        Some(self)
    }
}

macro_rules! appended {
    ($($module:ident),*) => {$(
        impl AtInstant for $module::Model {
            fn at_instant(self, at: DateTime<Utc>) -> Option<Self> {
                self.recorded_at.is_none_or(|r| r <= at).then_some(self)
            }
        }
    )*};
}

appended!(
    fco_carta_amendment,
    fco_carta_cycle,
    fco_carta_statement,
    company_change_notice
);

fn at<T: AtInstant>(rows: Vec<T>, at: DateTime<Utc>) -> Vec<T> {
    rows.into_iter().filter_map(|r| r.at_instant(at)).collect()
}

/// The facts of one financing as the record held them at an instant, read straight from the database.
struct Recorded<'a, C> {
    db: &'a C,
    now: DbFacts<'a, C>,
    at: DateTime<Utc>,
}

impl<C: ConnectionTrait + Sync> FactSource for Recorded<'_, C> {
    async fn acquisitions(&self, project: i64) -> Result<Vec<feedstock_acquisition::Model>> {
        Ok(at(self.now.acquisitions(project).await?, self.at))
    }
    async fn proposals(&self, project: i64) -> Result<Vec<contract_proposal::Model>> {
        Ok(at(self.now.proposals(project).await?, self.at))
    }
    async fn documents(&self, project: i64) -> Result<Vec<project_document::Model>> {
        Ok(at(self.now.documents(project).await?, self.at))
    }
    async fn plans(&self, project: i64) -> Result<Vec<assistance_plan::Model>> {
        Ok(at(self.now.plans(project).await?, self.at))
    }
    async fn change_notices(&self, project: i64) -> Result<Vec<company_change_notice::Model>> {
        Ok(at(self.now.change_notices(project).await?, self.at))
    }
    async fn semi_arid(&self, ibge_code: i32) -> Result<Vec<semi_arid_membership::Model>> {
        self.now.semi_arid(ibge_code).await
    }
    async fn confirmations(&self, programme: Programme, id: i64) -> Result<Vec<checklist_confirmation::Model>> {
        Ok(at(self.now.confirmations(programme, id).await?, self.at))
    }
    async fn items(&self, cartas: Vec<i64>) -> Result<Vec<fco_carta_item::Model>> {
        Ok(at(self.now.items(cartas).await?, self.at))
    }
    async fn amendments(&self, carta: i64) -> Result<Vec<fco_carta_amendment::Model>> {
        Ok(at(self.now.amendments(carta).await?, self.at))
    }
    async fn cycles(&self, carta: i64) -> Result<Vec<fco_carta_cycle::Model>> {
        Ok(at(self.now.cycles(carta).await?, self.at))
    }
    async fn statements(&self, carta: i64) -> Result<Vec<fco_carta_statement::Model>> {
        Ok(at(self.now.statements(carta).await?, self.at))
    }
    async fn meeting(&self, id: i64) -> Result<Option<chamber_meeting::Model>> {
        let now = self.now.meeting(id).await?;
        row_at(self.db, "chamber_meeting", id, now, self.at).await
    }
    async fn present(&self, meeting: i64, bank: i64) -> Result<Option<bool>> {
        self.now.present(meeting, bank).await
    }
    /// The group's cartas committed on `day` as the record held them at the instant: each carta the group has
    /// committed now or had committed at some recorded state, as it stood then.
    async fn group_commitments(&self, party: i64, day: NaiveDate) -> Result<Arc<Committed>> {
        let now = self.now.group_commitments(party, day).await?;
        let mut parties: Vec<i64> = now.cartas.iter().map(|c| c.party_id).collect();
        parties.push(party);
        parties.sort_unstable();
        parties.dedup();
        let ids = candidates(self.db, &parties).await?;
        let mut cartas = Vec::new();
        let mut weaned = std::collections::HashMap::new();
        let mut dams = std::collections::HashMap::new();
        let stored = crate::facts::cartas(self.db, &ids).await?;
        for id in ids {
            let Some(c) = stored.get(&id) else { continue };
            if c.created_at > self.at {
                continue;
            }
            let Some(c) = row_at(self.db, "fco_carta", id, Some(c.clone()), self.at).await? else {
                continue;
            };
            let items = self.items(vec![id]).await?;
            let on_day = |kind: entity::vocab::ItemKind| -> i64 {
                items
                    .iter()
                    .filter(|i| i.kind == kind && i.known_on(day))
                    .map(|i| i64::from(i.head_count.unwrap_or(0)))
                    .sum()
            };
            let w = on_day(entity::vocab::ItemKind::WeanedCalf);
            if w > 0 {
                weaned.insert(id, w);
            }
            if c.activity == entity::vocab::FcoActivity::PantanalDamRetention {
                let d = on_day(entity::vocab::ItemKind::Dam);
                if d > 0 {
                    dams.insert(id, d);
                }
            }
            let earlier = self.cycles(id).await?;
            cartas.push(fco_carta::Committed {
                id: c.id,
                party_id: c.party_id,
                activity: c.activity,
                financed_amount: c.financed_amount,
                acts: c.acts(),
                earlier,
            });
        }
        cartas.sort_by_key(|c| c.id);
        Ok(Arc::new(Committed::new(cartas, weaned, dams, day)))
    }
    async fn carta(&self, id: i64) -> Result<Option<fco_carta::Model>> {
        let now = self.now.carta(id).await?.filter(|c| c.created_at <= self.at);
        row_at(self.db, "fco_carta", id, now, self.at).await
    }
}

/// The cartas of these borrowers that commit money now or did in a recorded state (an approval since expired).
async fn candidates(db: &impl ConnectionTrait, parties: &[i64]) -> Result<Vec<i64>> {
    let backend = db.get_database_backend();
    let list: Vec<String> = parties.iter().map(i64::to_string).collect();
    let list = list.join(", ");
    let stages: Vec<String> = fco_carta::COMMITTED_SOMETIME
        .iter()
        .map(|s| format!("'{}'", sea_orm::ActiveEnum::to_value(s)))
        .collect();
    let stages = stages.join(", ");
    let sql = format!(
        "SELECT id FROM fco_carta WHERE party_id IN ({list})
         AND (stage IN ({stages}) OR id IN (SELECT carta_id FROM fco_carta_cycle))
         UNION SELECT id FROM fco_carta_revision WHERE party_id IN ({list}) AND stage IN ({stages})
         ORDER BY id"
    );
    let rows = db.query_all_raw(Statement::from_string(backend, sql)).await?;
    Ok(rows
        .iter()
        .map(|r| r.try_get::<i64>("", "id"))
        .collect::<std::result::Result<_, _>>()?)
}

/// The instant `t` stands for: given to the second (as every time is shown), the end of that second, so a history
/// row's `recordedAt` copied as shown includes that row.
pub fn instant(t: DateTime<Utc>) -> DateTime<Utc> {
    use chrono::Timelike;
    if t.nanosecond() == 0 {
        t + chrono::Duration::nanoseconds(999_999_999)
    } else {
        t
    }
}

/// The day judged at instant `at`: `as_of` when given (not after `at`'s day), else `at`'s day in Brasília.
pub fn day(at: DateTime<Utc>, as_of: Option<NaiveDate>) -> Result<NaiveDate> {
    let known = entity::domain::brasilia_date(at);
    match as_of {
        Some(d) if d > known => Err(ServiceError::bad(
            "asOf",
            crate::messages::Message::new(crate::messages::code::AS_OF_AFTER_KNOWN_AT)
                .arg("asOf", d)
                .arg("day", known),
        )),
        Some(d) => Ok(d),
        None => Ok(known),
    }
}

/// The rule parameters as recorded at `at`: the versions recorded by then and not withdrawn or corrected by then.
pub async fn params(db: &impl ConnectionTrait, at: DateTime<Utc>) -> Result<entity::rules::params::Params> {
    use entity::rule_parameter;
    use sea_orm::QueryOrder;
    let rows = rule_parameter::Entity::find()
        .order_by_asc(rule_parameter::Column::Id)
        .all(db)
        .await?;
    Ok(entity::rules::params::Params::new(
        rows.iter()
            .filter(|r| r.created_at <= at && r.withdrawn_at.is_none_or(|w| w > at))
            .filter_map(rule_parameter::Model::version)
            .collect(),
    ))
}

/// A carta's rule outcomes and deadlines on `as_of` as the record held them at `at` (`c` as stored now).
pub async fn carta_judged(
    db: &impl ConnectionTrait,
    basis: Basis<'_>,
    c: &fco_carta::Model,
    at: DateTime<Utc>,
    as_of: NaiveDate,
) -> Result<(Vec<Outcome>, Vec<social_fuel::DeadlineOutcome>)> {
    let then = carta(db, c, at).await?;
    let facts = Recorded {
        db,
        now: DbFacts(db),
        at,
    };
    compliance::judge_carta(&facts, basis, &then, as_of).await
}

/// A project's rule outcomes and deadlines on `as_of` as the record held them at `at` (`p` as stored now).
pub async fn project_judged(
    db: &impl ConnectionTrait,
    basis: Basis<'_>,
    p: &social_fuel_project::Model,
    at: DateTime<Utc>,
    as_of: NaiveDate,
) -> Result<(Vec<Outcome>, Vec<social_fuel::DeadlineOutcome>)> {
    let then = project(db, p, at).await?;
    let facts = Recorded {
        db,
        now: DbFacts(db),
        at,
    };
    compliance::judge_project(&facts, basis, &then, as_of).await
}
