//! The rules in the graph: `compliance` and `deadlines` on every financing, the rule catalogue, the parameter
//! versions, and the mutation that adds a version. Resolvers gather the stored facts and call the pure rule layer.

use super::{
    db,
    error::{ApiError, gql},
    loader,
    loaders::{
        AcquisitionsByProject, AmendmentsByCarta, AttendanceLoader, ChamberMeetingLoader, ChangeNoticesByProject,
        ConfirmationsByFinancing, DocumentsByProject, FcoCartaLoader, GroupCommitmentsByParty, ItemsByCarta,
        PlansByProject, ProposalsByProject, SemiAridByMunicipality,
    },
    scalars::{Date, DateTime, Decimal},
};
use async_graphql::{Context, Enum, Object, Result, SimpleObject};
use chrono::{FixedOffset, NaiveDate, Utc};
use entity::{
    checklist_confirmation, fco_carta, non_business_day, rule_parameter,
    rules::{self, Outcome, RuleKind as DomainRuleKind, calendar::Calendar, fco, params::Params, social_fuel},
    social_fuel_project,
    vocab::{ItemKind, Programme},
};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, ExprTrait, QueryFilter, QueryOrder};
use tokio::sync::OnceCell;

/// Today in Brasília (UTC−3, no daylight saving since 2019): the default `asOf`.
pub fn today_in_brasilia() -> NaiveDate {
    let offset =
        FixedOffset::west_opt(3 * 3600).unwrap_or_else(|| FixedOffset::east_opt(0).unwrap_or_else(|| unreachable!()));
    Utc::now().with_timezone(&offset).date_naive()
}

/// Per-request cache of the parameters and the calendar, read once however many financings a query checks.
#[derive(Default)]
pub struct RuleCache {
    params: OnceCell<Params>,
    calendar: OnceCell<Calendar>,
}

async fn params<'a>(ctx: &Context<'a>) -> Result<&'a Params> {
    let cache = ctx.data::<RuleCache>()?;
    cache
        .params
        .get_or_try_init(|| async { rule_parameter::Entity::params(db(ctx)).await })
        .await
        .map_err(gql)
}

async fn calendar<'a>(ctx: &Context<'a>) -> Result<&'a Calendar> {
    let cache = ctx.data::<RuleCache>()?;
    cache
        .calendar
        .get_or_try_init(|| async { non_business_day::Entity::calendar(db(ctx)).await })
        .await
        .map_err(gql)
}

fn param_err(e: rules::params::ParamError) -> async_graphql::Error {
    gql(ApiError::Internal(e.to_string()))
}

/// Whether a rule is met.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "rules::Status")]
pub enum RuleStatus {
    /// The stored facts satisfy the rule.
    Met,
    /// The stored facts break the rule.
    Violated,
    /// Not yet decidable: a deadline running, a fact missing, a confirmation not given.
    Pending,
    /// The rule does not apply here.
    NotApplicable,
}

/// Where a deadline stands.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "social_fuel::DeadlineStatus")]
pub enum DeadlineStatus {
    /// Running and not yet met.
    Pending,
    /// Met in time.
    Met,
    /// Passed without the act, or the act came late.
    Overdue,
    /// Its starting event has not happened.
    NotStarted,
    /// The rule was not in force on `asOf` (before its parameter's first version); the note says why.
    NotApplicable,
}

/// How a rule is checked.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "DomainRuleKind")]
pub enum RuleKind {
    /// A function over stored facts.
    Checked,
    /// A deadline computed from stored dates.
    Deadline,
    /// A document or a human judgement, confirmed by someone.
    Checklist,
    /// Checked on a bank's reports rather than on one financing.
    BankLevel,
}

/// One rule's outcome on one financing.
#[derive(SimpleObject, Clone, Debug)]
pub struct RuleOutcome {
    /// Stable rule code (`SF-SHARE-MIN`).
    pub rule_code: String,
    /// Met, violated, pending or not applicable.
    pub status: RuleStatus,
    /// Instrument and article.
    pub legal_basis: String,
    /// Why, with the numbers used.
    pub explanation: String,
}

impl From<Outcome> for RuleOutcome {
    fn from(o: Outcome) -> Self {
        Self {
            rule_code: o.code.into(),
            status: o.status.into(),
            legal_basis: o.legal_basis.into(),
            explanation: o.explanation,
        }
    }
}

/// A legal deadline of one financing.
#[derive(SimpleObject, Clone, Debug)]
pub struct Deadline {
    /// Stable rule code (`SF-DECISION-30D`).
    pub rule_code: String,
    /// The last day on time, for deadlines in days or months.
    pub due_date: Option<Date>,
    /// The last instant on time, for deadlines in hours.
    pub due_at: Option<DateTime>,
    /// Where it stands on `asOf`.
    pub status: DeadlineStatus,
    /// Instrument and article.
    pub legal_basis: String,
    /// How it was counted (Lei 9.784/1999, art. 66) and what happened.
    pub counting_note: String,
}

impl From<social_fuel::DeadlineOutcome> for Deadline {
    fn from(d: social_fuel::DeadlineOutcome) -> Self {
        Self {
            rule_code: d.code.into(),
            due_date: d.due.map(Date),
            due_at: d.due_at.map(DateTime::cdae),
            status: d.status.into(),
            legal_basis: d.legal_basis.into(),
            counting_note: d.note,
        }
    }
}

/// A rule of either regulation.
#[derive(SimpleObject, Clone, Debug)]
pub struct Rule {
    /// Stable code.
    pub code: String,
    /// Instrument and article.
    pub legal_basis: String,
    /// What it says, in one line.
    pub title: String,
    /// How Fomento checks it.
    pub kind: RuleKind,
}

/// A day without office hours kept as data.
#[derive(SimpleObject, Clone, Debug)]
pub struct NonBusinessDay {
    /// The day.
    pub day: Date,
    /// Why there are no office hours.
    pub reason: String,
}

/// A version of a rule parameter.
#[derive(SimpleObject, Clone, Debug)]
pub struct RuleParameter {
    /// The version's number, for `correctRuleParameterVersion` and `withdrawRuleParameterVersion`.
    pub version_id: i64,
    /// Parameter key (`SF-SHARE-MIN.NORTHEAST`).
    pub key: String,
    /// The rule it belongs to.
    pub rule_code: String,
    /// Exact value.
    pub value: Decimal,
    /// `PERCENT`, `BRL`, `COUNT`, `DAYS`, `MONTHS`, `HOURS` or `YEARS`.
    pub unit: String,
    /// First day in force.
    pub effective_from: Date,
    /// Last day in force, if closed.
    pub effective_to: Option<Date>,
    /// The instrument that set it.
    pub legal_source: String,
    /// When it was withdrawn or corrected; the rules no longer read it.
    pub withdrawn_at: Option<DateTime>,
    /// Why it was withdrawn or corrected.
    pub withdrawal_reason: Option<String>,
    /// The version that corrected it.
    pub replaced_by: Option<i64>,
}

impl From<rule_parameter::Model> for RuleParameter {
    fn from(m: rule_parameter::Model) -> Self {
        Self {
            version_id: m.id,
            withdrawn_at: m.withdrawn_at.map(DateTime::mda),
            withdrawal_reason: m.withdrawal_reason,
            replaced_by: m.replaced_by,
            value: Decimal(m.value.parse().unwrap_or_default()),
            key: m.key,
            rule_code: m.rule_code,
            unit: m.unit,
            effective_from: Date(m.effective_from),
            effective_to: m.effective_to.map(Date),
            legal_source: m.legal_source,
        }
    }
}

/// Whose clock a programme's times are shown on.
pub fn authority(programme: Programme) -> entity::domain::Authority {
    match programme {
        Programme::SocialFuel => entity::domain::Authority::Mda,
        Programme::FcoRural => entity::domain::Authority::Cdae,
    }
}

/// Turns pending checklist items that someone confirmed on or before `as_of` into met ones, naming who and when.
async fn apply_confirmations(
    ctx: &Context<'_>,
    programme: Programme,
    id: i64,
    as_of: NaiveDate,
    outcomes: &mut [Outcome],
) -> Result<()> {
    let confirmations = loader::<ConfirmationsByFinancing>(ctx)
        .load_one((programme, id))
        .await
        .map_err(gql)?
        .unwrap_or_default();
    for o in outcomes.iter_mut() {
        let checklist = rules::rule(o.code).is_some_and(|r| r.kind == DomainRuleKind::Checklist);
        if let Some(c) = confirmations
            .iter()
            .find(|c| c.rule_code == o.code && entity::domain::brasilia_date(c.confirmed_at) <= as_of)
            && checklist
            && o.status != rules::Status::Violated
        {
            o.status = rules::Status::Met;
            o.explanation = format!(
                "confirmed by {} on {}{}",
                c.confirmed_by,
                authority(programme).show(c.confirmed_at),
                c.note.as_deref().map(|n| format!(": {n}")).unwrap_or_default()
            );
        }
    }
    Ok(())
}

/// Project facts gathered for the rule layer.
async fn project_outcomes(
    ctx: &Context<'_>,
    p: &social_fuel_project::Model,
    as_of: NaiveDate,
) -> Result<(Vec<RuleOutcome>, Vec<Deadline>)> {
    // As known on `as_of`: acts dated later are not yet done.
    let p = &p.as_known_on(as_of);
    let (acq, props, docs) = futures::try_join!(
        loader::<AcquisitionsByProject>(ctx).load_one(p.id),
        loader::<ProposalsByProject>(ctx).load_one(p.id),
        loader::<DocumentsByProject>(ctx).load_one(p.id),
    )
    .map_err(gql)?;
    let reference = p.filed_on.unwrap_or(as_of);
    let (plans, memberships, notices) = futures::try_join!(
        loader::<PlansByProject>(ctx).load_one(p.id),
        loader::<SemiAridByMunicipality>(ctx).load_one(p.plant_municipality_code),
        loader::<ChangeNoticesByProject>(ctx).load_one(p.id),
    )
    .map_err(gql)?;
    let plan = plans.unwrap_or_default().into_iter().next().map(|mut plan| {
        if plan
            .confirmed_at
            .is_some_and(|t| entity::domain::brasilia_date(t) > as_of)
        {
            plan.confirmed_at = None;
            plan.confirmed_by = None;
        }
        plan
    });
    let semi_arid = memberships
        .unwrap_or_default()
        .iter()
        .any(|m| m.effective_from <= reference && m.effective_to.is_none_or(|to| to >= reference));
    let notices = notices.map_or(0, |n| n.iter().filter(|n| n.notified_on <= as_of).count());
    let (acq, props, docs) = (
        acq.unwrap_or_default()
            .into_iter()
            .filter(|a| a.year <= chrono::Datelike::year(&as_of))
            .collect::<Vec<_>>(),
        props.unwrap_or_default(),
        docs.unwrap_or_default()
            .into_iter()
            .filter(|d| d.received_on <= as_of)
            .collect::<Vec<_>>(),
    );
    let facts = social_fuel::ProjectFacts {
        project: p,
        acquisitions: &acq,
        proposals: &props,
        documents: &docs,
        plan: plan.as_ref(),
        semi_arid,
        change_notices: notices,
    };
    let (params, cal) = (params(ctx).await?, calendar(ctx).await?);
    let mut outcomes = social_fuel::check_all(&facts, params, cal, as_of).map_err(param_err)?;
    apply_confirmations(ctx, Programme::SocialFuel, p.id, as_of, &mut outcomes).await?;
    let deadlines = social_fuel::deadlines(p, params, cal, as_of).map_err(param_err)?;
    Ok((
        outcomes.into_iter().map(Into::into).collect(),
        deadlines.into_iter().map(Into::into).collect(),
    ))
}

/// Carta facts gathered for the rule layer, including the borrower's whole economic group.
async fn carta_outcomes(
    ctx: &Context<'_>,
    c: &fco_carta::Model,
    as_of: NaiveDate,
) -> Result<(Vec<RuleOutcome>, Vec<Deadline>)> {
    // As known on `as_of`: acts dated later are not yet done.
    let c = &c.as_known_on(as_of);
    let (items, amendments) = futures::try_join!(
        loader::<ItemsByCarta>(ctx).load_one(c.id),
        loader::<AmendmentsByCarta>(ctx).load_one(c.id)
    )
    .map_err(gql)?;
    let (items, amendments) = (
        items.unwrap_or_default(),
        amendments
            .unwrap_or_default()
            .into_iter()
            .filter(|a| a.requested_on <= as_of)
            .collect::<Vec<_>>(),
    );
    let (meeting, bank_present, group, resubmitted) = futures::try_join!(
        async {
            match c.chamber_meeting_id {
                Some(id) => loader::<ChamberMeetingLoader>(ctx).load_one(id).await,
                None => Ok(None),
            }
        },
        async {
            match c.chamber_meeting_id {
                Some(id) => loader::<AttendanceLoader>(ctx).load_one((id, c.bank_id)).await,
                None => Ok(None),
            }
        },
        loader::<GroupCommitmentsByParty>(ctx).load_one(c.party_id),
        async {
            match c.resubmission_of {
                Some(id) => loader::<FcoCartaLoader>(ctx).load_one(id).await,
                None => Ok(None),
            }
        },
    )
    .map_err(gql)?;
    // The group's committed cartas, this one left out (as `fco_carta::Entity::committed_by_group`), as known on
    // `as_of`: a carta approved later does not count yet.
    let others: Vec<fco_carta::Model> = group
        .unwrap_or_default()
        .into_iter()
        .filter(|o| o.id != c.id)
        .map(|o| o.as_known_on(as_of))
        .filter(|o| fco_carta::COMMITTED.contains(&o.stage))
        .collect();
    let meeting = meeting.map(|mut m| {
        if m.results_sent_at
            .is_some_and(|t| entity::domain::brasilia_date(t) > as_of)
        {
            m.results_sent_at = None;
        }
        m
    });
    let exposure = others.iter().fold(c.financed_amount, |acc, o| {
        acc.checked_add(o.financed_amount).unwrap_or(acc)
    });
    let weaned_others: i64 = loader::<ItemsByCarta>(ctx)
        .load_many(others.iter().map(|o| o.id))
        .await
        .map_err(gql)?
        .values()
        .flatten()
        .filter(|i| i.kind == ItemKind::WeanedCalf)
        .map(|i| i64::from(i.head_count.unwrap_or(0)))
        .sum();
    let weaned_here: i64 = items
        .iter()
        .filter(|i| i.kind == ItemKind::WeanedCalf)
        .map(|i| i64::from(i.head_count.unwrap_or(0)))
        .sum();
    let resubmitted_stage = resubmitted.map(|o| o.stage);
    let facts = fco::CartaFacts {
        carta: c,
        items: &items,
        amendments: &amendments,
        meeting: meeting.as_ref(),
        bank_present,
        group_exposure: exposure,
        group_weaned_heads: weaned_others + weaned_here,
        resubmitted_stage,
    };
    let (params, cal) = (params(ctx).await?, calendar(ctx).await?);
    let mut outcomes = fco::check_all(&facts, params, cal, as_of).map_err(param_err)?;
    apply_confirmations(ctx, Programme::FcoRural, c.id, as_of, &mut outcomes).await?;
    let deadlines = fco::deadlines(&facts, params, cal, as_of).map_err(param_err)?;
    Ok((
        outcomes.into_iter().map(Into::into).collect(),
        deadlines.into_iter().map(Into::into).collect(),
    ))
}

/// The reporting deadlines of a bank (FCO-BB-60D for Banco do Brasil, FCO-MONTHLY-LIST for FCO banks).
pub async fn bank_deadlines(ctx: &Context<'_>, b: &entity::bank::Model, as_of: Option<Date>) -> Result<Vec<Deadline>> {
    if !b.serves_fco {
        return Ok(Vec::new());
    }
    let as_of = as_of.map_or_else(today_in_brasilia, |d| d.0);
    let reports = entity::bank_report::Entity::find()
        .filter(entity::bank_report::Column::BankId.eq(b.id))
        .filter(entity::bank_report::Column::Status.ne("REJECTED"))
        .all(db(ctx))
        .await
        .map_err(gql)?;
    let sent: Vec<fco::SentReport> = reports
        .iter()
        .filter_map(|r| {
            let month = NaiveDate::parse_from_str(&format!("{}-01", r.reference_month), "%Y-%m-%d").ok()?;
            Some(fco::SentReport {
                month,
                received_on: entity::domain::brasilia_date(r.received_at),
            })
        })
        .collect();
    let (params, cal) = (params(ctx).await?, calendar(ctx).await?);
    let out = fco::bank_deadlines(b.code == "BB", &sent, params, cal, as_of).map_err(param_err)?;
    Ok(out.into_iter().map(Into::into).collect())
}

/// `compliance` of a project.
pub async fn project_compliance(
    ctx: &Context<'_>,
    p: &social_fuel_project::Model,
    as_of: Option<Date>,
) -> Result<Vec<RuleOutcome>> {
    Ok(project_outcomes(ctx, p, as_of.map_or_else(today_in_brasilia, |d| d.0))
        .await?
        .0)
}

/// `deadlines` of a project.
pub async fn project_deadlines(
    ctx: &Context<'_>,
    p: &social_fuel_project::Model,
    as_of: Option<Date>,
) -> Result<Vec<Deadline>> {
    Ok(project_outcomes(ctx, p, as_of.map_or_else(today_in_brasilia, |d| d.0))
        .await?
        .1)
}

/// `compliance` of a carta.
pub async fn carta_compliance(
    ctx: &Context<'_>,
    c: &fco_carta::Model,
    as_of: Option<Date>,
) -> Result<Vec<RuleOutcome>> {
    Ok(carta_outcomes(ctx, c, as_of.map_or_else(today_in_brasilia, |d| d.0))
        .await?
        .0)
}

/// `deadlines` of a carta.
pub async fn carta_deadlines(ctx: &Context<'_>, c: &fco_carta::Model, as_of: Option<Date>) -> Result<Vec<Deadline>> {
    Ok(carta_outcomes(ctx, c, as_of.map_or_else(today_in_brasilia, |d| d.0))
        .await?
        .1)
}

/// Queries about the rules themselves.
#[derive(Default)]
pub struct RulesQuery;

#[Object]
impl RulesQuery {
    /// Every rule of both regulations with its legal basis and how it is checked.
    async fn rules(&self) -> Vec<Rule> {
        rules::RULES
            .iter()
            .map(|r| Rule {
                code: r.code.into(),
                legal_basis: r.legal_basis.into(),
                title: r.title.into(),
                kind: r.kind.into(),
            })
            .collect()
    }

    /// Days without office hours kept as data (beyond weekends and national holidays), in date order.
    async fn non_business_days(&self, ctx: &Context<'_>) -> Result<Vec<NonBusinessDay>> {
        let rows = non_business_day::Entity::find()
            .order_by_asc(non_business_day::Column::Day)
            .all(db(ctx))
            .await
            .map_err(gql)?;
        Ok(rows
            .into_iter()
            .map(|m| NonBusinessDay {
                day: Date(m.day),
                reason: m.reason,
            })
            .collect())
    }

    /// Every version of every rule parameter, by key and start date.
    async fn rule_parameters(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only the versions of this rule code (`SF-SHARE-MIN`) or parameter key.")] rule: Option<
            String,
        >,
        #[graphql(desc = "Also the withdrawn and corrected versions (the history).", default = false)]
        include_withdrawn: bool,
    ) -> Result<Vec<RuleParameter>> {
        let mut q = rule_parameter::Entity::find();
        if !include_withdrawn {
            q = q.filter(rule_parameter::Column::WithdrawnAt.is_null());
        }
        if let Some(r) = rule {
            q = q.filter(
                rule_parameter::Column::RuleCode
                    .eq(r.as_str())
                    .or(rule_parameter::Column::Key.eq(r.as_str())),
            );
        }
        let rows = q
            .order_by_asc(rule_parameter::Column::Key)
            .order_by_asc(rule_parameter::Column::EffectiveFrom)
            .order_by_asc(rule_parameter::Column::Id)
            .all(db(ctx))
            .await
            .map_err(gql)?;
        Ok(rows.into_iter().map(Into::into).collect())
    }
}

fn required_reason(reason: &str) -> Result<String> {
    match reason.trim() {
        "" => Err(gql(ApiError::BadUserInput(
            "reason: say why (it is kept in the history)".into(),
        ))),
        r => Ok(r.to_owned()),
    }
}

/// A version that is still in force, by its number.
async fn in_force_version(db: &impl sea_orm::ConnectionTrait, id: i64) -> Result<rule_parameter::Model> {
    let v = rule_parameter::Entity::find_by_id(id)
        .one(db)
        .await
        .map_err(gql)?
        .ok_or_else(|| gql(ApiError::NotFound(format!("versionId: no rule-parameter version {id}"))))?;
    if let Some(at) = v.withdrawn_at {
        return Err(gql(ApiError::BadUserInput(format!(
            "versionId: version {id} was already withdrawn on {} ({})",
            at.to_rfc3339(),
            v.withdrawal_reason.as_deref().unwrap_or("")
        ))));
    }
    Ok(v)
}

/// Stores a new parameter version after checking it; shared by the mutation and `fomento rules import`.
pub async fn add_version(
    db: &impl sea_orm::ConnectionTrait,
    key: &str,
    value: &str,
    unit: &str,
    from: NaiveDate,
    to: Option<NaiveDate>,
    source: &str,
) -> std::result::Result<rule_parameter::Model, ApiError> {
    let (value, unit) = rules::params::validate_new_version(key, value, unit, from, to)
        .map_err(|e| ApiError::BadUserInput(e.to_string()))?;
    if source.trim().is_empty() {
        return Err(ApiError::BadUserInput(
            "legalSource: name the instrument that sets the value".into(),
        ));
    }
    let rule_code = key.split('.').next().unwrap_or(key).to_owned();
    let model = rule_parameter::ActiveModel {
        key: Set(key.into()),
        rule_code: Set(rule_code),
        value: Set(value.normalize().to_string()),
        unit: Set(unit.as_str().into()),
        effective_from: Set(from),
        effective_to: Set(to),
        legal_source: Set(source.trim().into()),
        created_at: Set(Utc::now()),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(model)
}

/// Mutations over the rules.
#[derive(Default)]
pub struct RulesMutation;

#[Object]
impl RulesMutation {
    /// Adds a version of a rule parameter. From `effectiveFrom` on, rules whose reference date (filing, submission,
    /// approval, ...) falls on or after it use the new value; earlier reference dates keep the old one.
    #[allow(clippy::too_many_arguments)]
    async fn add_rule_parameter_version(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Parameter key, as listed by `ruleParameters` (`SF-SHARE-MIN.NORTHEAST`).")] key: String,
        #[graphql(desc = "The new value, exact.")] value: Decimal,
        #[graphql(desc = "Its unit; must be the key's unit.")] unit: String,
        #[graphql(desc = "First day in force.")] effective_from: Date,
        #[graphql(desc = "Last day in force, if known.")] effective_to: Option<Date>,
        #[graphql(desc = "The instrument and article that set it.")] legal_source: String,
    ) -> Result<RuleParameter> {
        let m = add_version(
            db(ctx),
            &key,
            &value.0.to_string(),
            &unit,
            effective_from.0,
            effective_to.map(|d| d.0),
            &legal_source,
        )
        .await
        .map_err(gql)?;
        Ok(m.into())
    }

    /// Corrects a version recorded wrongly (a mistyped value, date or source): the corrected version is withdrawn
    /// and kept in the history with the reason, and a new version with the corrected fields (the others as they
    /// were) replaces it, in one transaction. Rules read the new one from its `effectiveFrom`.
    #[allow(clippy::too_many_arguments)]
    async fn correct_rule_parameter_version(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The version to correct (`versionId` in `ruleParameters`).")] version_id: i64,
        #[graphql(desc = "The corrected value.")] value: Option<Decimal>,
        #[graphql(desc = "The corrected first day in force.")] effective_from: Option<Date>,
        #[graphql(desc = "The corrected last day in force.")] effective_to: Option<Date>,
        #[graphql(desc = "The corrected instrument and article.")] legal_source: Option<String>,
        #[graphql(desc = "Why it is corrected (kept in the history).")] reason: String,
    ) -> Result<RuleParameter> {
        use sea_orm::TransactionTrait;
        let reason = required_reason(&reason)?;
        let txn = db(ctx).begin().await.map_err(gql)?;
        let old = in_force_version(&txn, version_id).await?;
        let new = add_version(
            &txn,
            &old.key,
            &value.map_or_else(|| old.value.clone(), |v| v.0.to_string()),
            &old.unit,
            effective_from.map_or(old.effective_from, |d| d.0),
            effective_to.map(|d| d.0).or(old.effective_to),
            legal_source.as_deref().unwrap_or(&old.legal_source),
        )
        .await
        .map_err(gql)?;
        let mut a: rule_parameter::ActiveModel = old.into();
        a.withdrawn_at = Set(Some(Utc::now()));
        a.withdrawal_reason = Set(Some(format!("corrected by version {}: {reason}", new.id)));
        a.replaced_by = Set(Some(new.id));
        a.update(&txn).await.map_err(gql)?;
        txn.commit().await.map_err(gql)?;
        Ok(new.into())
    }

    /// Withdraws a version recorded in error: it is kept in the history with the reason, and the rules no longer
    /// read it (the version in force before it applies again, or none: a rule without a version in force on its
    /// date answers `NOT_APPLICABLE` and says why).
    async fn withdraw_rule_parameter_version(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The version to withdraw (`versionId` in `ruleParameters`).")] version_id: i64,
        #[graphql(desc = "Why it is withdrawn (kept in the history).")] reason: String,
    ) -> Result<RuleParameter> {
        let reason = required_reason(&reason)?;
        let old = in_force_version(db(ctx), version_id).await?;
        let mut a: rule_parameter::ActiveModel = old.into();
        a.withdrawn_at = Set(Some(Utc::now()));
        a.withdrawal_reason = Set(Some(reason));
        Ok(a.update(db(ctx)).await.map_err(gql)?.into())
    }

    /// Records a day without office hours beyond weekends and national holidays (a state holiday, a declared
    /// closure): deadlines ending on it move to the next business day (Lei 9.784/1999, art. 66 §1).
    async fn add_non_business_day(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The day.")] day: Date,
        #[graphql(desc = "Why there are no office hours (the act that declared it).")] reason: String,
    ) -> Result<NonBusinessDay> {
        if reason.trim().is_empty() {
            return Err(gql(ApiError::BadUserInput(
                "reason: say why there are no office hours".into(),
            )));
        }
        let exists = non_business_day::Entity::find()
            .filter(non_business_day::Column::Day.eq(day.0))
            .one(db(ctx))
            .await
            .map_err(gql)?;
        if let Some(d) = exists {
            return Err(gql(ApiError::BadUserInput(format!(
                "day: {} is already recorded ({})",
                d.day, d.reason
            ))));
        }
        let m = non_business_day::ActiveModel {
            day: Set(day.0),
            reason: Set(reason.trim().into()),
            ..Default::default()
        }
        .insert(db(ctx))
        .await
        .map_err(gql)?;
        Ok(NonBusinessDay {
            day: Date(m.day),
            reason: m.reason,
        })
    }

    /// Records that a person confirmed a checklist item (a rule that needs a document or a human judgement) on a
    /// financing; `compliance` then shows it as met, with who and when. Confirming again replaces the earlier one.
    async fn confirm_checklist_item(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's or carta's global ID.")] financing_id: async_graphql::ID,
        #[graphql(desc = "A checklist rule code (`SF-ASSISTANCE-PLAN`, `FCO-GTA`, ...).")] rule_code: String,
        #[graphql(desc = "Who confirms.")] confirmed_by: String,
        #[graphql(desc = "What was seen (document, protocol number).")] note: Option<String>,
    ) -> Result<RuleOutcome> {
        use super::ids::{self, NodeKind};
        let (programme, id) = match ids::decode(&financing_id) {
            Some((NodeKind::SocialFuelProject, id)) => (Programme::SocialFuel, id),
            Some((NodeKind::FcoCarta, id)) => (Programme::FcoRural, id),
            _ => {
                return Err(gql(ApiError::BadUserInput(format!(
                    "financingId: {:?} is not a project or carta ID",
                    financing_id.as_str()
                ))));
            }
        };
        let rule = rules::rule(&rule_code)
            .filter(|r| {
                r.kind == DomainRuleKind::Checklist
                    && r.code.starts_with(if programme == Programme::SocialFuel {
                        "SF-"
                    } else {
                        "FCO-"
                    })
            })
            .ok_or_else(|| {
                gql(ApiError::BadUserInput(format!(
                    "ruleCode: {rule_code} is not a checklist rule of this programme"
                )))
            })?;
        if confirmed_by.trim().is_empty() {
            return Err(gql(ApiError::BadUserInput("confirmedBy: say who confirms".into())));
        }
        let exists = match programme {
            Programme::SocialFuel => social_fuel_project::Entity::find_by_id(id)
                .one(db(ctx))
                .await
                .map_err(gql)?
                .is_some(),
            Programme::FcoRural => fco_carta::Entity::find_by_id(id)
                .one(db(ctx))
                .await
                .map_err(gql)?
                .is_some(),
        };
        if !exists {
            return Err(gql(ApiError::NotFound(format!(
                "no financing with ID {:?}",
                financing_id.as_str()
            ))));
        }
        checklist_confirmation::Entity::delete_many()
            .filter(checklist_confirmation::Column::Programme.eq(programme))
            .filter(checklist_confirmation::Column::FinancingId.eq(id))
            .filter(checklist_confirmation::Column::RuleCode.eq(rule.code))
            .exec(db(ctx))
            .await
            .map_err(gql)?;
        let c = checklist_confirmation::ActiveModel {
            programme: Set(programme),
            financing_id: Set(id),
            rule_code: Set(rule.code.into()),
            confirmed_by: Set(confirmed_by.trim().into()),
            confirmed_at: Set(Utc::now()),
            note: Set(note),
            ..Default::default()
        }
        .insert(db(ctx))
        .await
        .map_err(gql)?;
        Ok(RuleOutcome {
            rule_code: rule.code.into(),
            status: RuleStatus::Met,
            legal_basis: rule.legal_basis.into(),
            explanation: format!(
                "confirmed by {} on {}",
                c.confirmed_by,
                authority(programme).show(c.confirmed_at)
            ),
        })
    }
}
