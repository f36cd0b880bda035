//! The rules in the graph: `compliance` and `deadlines` on every financing, the rule catalogue, the parameter
//! versions, and the mutations over them. The facts are gathered and judged by `service::compliance` (through the
//! graph's DataLoaders, so a page of financings reads each kind of fact once); these resolvers shape the answers.
//!
//! Size: the rule types of the graph (outcome, deadline, rule, parameter) and their mutations, each resolver a few
//! lines over `service::compliance`.

use super::{
    db,
    error::Served,
    loader,
    loaders::{
        AcquisitionsByProject, AmendmentsByCarta, AttendanceLoader, ChamberMeetingLoader, ChangeNoticesByProject,
        ConfirmationsByFinancing, CyclesByCarta, DocumentsByProject, FcoCartaLoader, GroupCommitmentsByParty,
        ItemsByCarta, PlansByProject, ProposalsByProject, SemiAridByMunicipality, StatementsByCarta,
    },
    scalars::{Date, DateTime, Decimal},
};
use async_graphql::{Context, Enum, ID, InputObject, Object, Result, SimpleObject};
use chrono::NaiveDate;
use entity::{
    assistance_plan, chamber_meeting, checklist_confirmation, company_change_notice, contract_proposal, fco_carta,
    fco_carta_amendment, fco_carta_cycle, fco_carta_item, fco_carta_statement, feedstock_acquisition, project_document,
    rule_parameter,
    rules::{self, Outcome, RuleKind as DomainRuleKind, calendar::Calendar, params::Params, social_fuel},
    semi_arid_membership, social_fuel_project,
    vocab::Programme,
};
use service::{
    ServiceError,
    compliance::{self, Basis, FactSource},
    parameters,
};
use std::sync::Arc;
use tokio::sync::OnceCell;

/// Today in Brasília: the default `asOf`.
pub fn today_in_brasilia() -> NaiveDate {
    service::Clock::System.today()
}

/// Per-request cache of the parameters and the calendar, read once however many financings a query checks.
#[derive(Default)]
pub struct RuleCache {
    params: OnceCell<Params>,
    calendar: OnceCell<Calendar>,
}

async fn basis<'a>(ctx: &Context<'a>) -> Result<Basis<'a>> {
    let cache = ctx.data::<RuleCache>()?;
    let (params, calendar) = futures::try_join!(
        cache.params.get_or_try_init(|| parameters::params(db(ctx))),
        cache.calendar.get_or_try_init(|| parameters::calendar(db(ctx))),
    )
    .served(ctx)?;
    Ok(Basis {
        params,
        calendar,
        texts: entity::rules::Texts::written_if(ctx.data_opt::<Quiet>().is_none()),
    })
}

/// In a request's data: nothing the request selects reads a rule's text (an outcome's `explanation`, a deadline's
/// `countingNote`), so its rules are judged without texts ([`entity::rules::Texts::Skipped`]): the same statuses,
/// bases and dates, without formatting sentences nobody reads (a third of the judging's time).
#[derive(Debug, Clone, Copy)]
pub struct Quiet;

/// The fields that show a rule's text.
pub const TEXT_FIELDS: [&str; 2] = ["explanation", "countingNote"];

/// The facts of the financings of one request, read through the graph's DataLoaders.
struct GraphFacts<'a, 'c>(&'a Context<'c>);

fn loaded<T>(r: std::result::Result<T, service::facts::LoadError>) -> std::result::Result<T, ServiceError> {
    r.map_err(|e| ServiceError::Internal(e.to_string()))
}

impl FactSource for GraphFacts<'_, '_> {
    async fn acquisitions(&self, project: i64) -> std::result::Result<Vec<feedstock_acquisition::Model>, ServiceError> {
        Ok(loaded(loader::<AcquisitionsByProject>(self.0).load_one(project).await)?.unwrap_or_default())
    }
    async fn proposals(&self, project: i64) -> std::result::Result<Vec<contract_proposal::Model>, ServiceError> {
        Ok(loaded(loader::<ProposalsByProject>(self.0).load_one(project).await)?.unwrap_or_default())
    }
    async fn documents(&self, project: i64) -> std::result::Result<Vec<project_document::Model>, ServiceError> {
        Ok(loaded(loader::<DocumentsByProject>(self.0).load_one(project).await)?.unwrap_or_default())
    }
    async fn plans(&self, project: i64) -> std::result::Result<Vec<assistance_plan::Model>, ServiceError> {
        Ok(loaded(loader::<PlansByProject>(self.0).load_one(project).await)?.unwrap_or_default())
    }
    async fn change_notices(
        &self,
        project: i64,
    ) -> std::result::Result<Vec<company_change_notice::Model>, ServiceError> {
        Ok(loaded(loader::<ChangeNoticesByProject>(self.0).load_one(project).await)?.unwrap_or_default())
    }
    async fn semi_arid(&self, code: i32) -> std::result::Result<Vec<semi_arid_membership::Model>, ServiceError> {
        Ok(loaded(loader::<SemiAridByMunicipality>(self.0).load_one(code).await)?.unwrap_or_default())
    }
    async fn confirmations(
        &self,
        programme: Programme,
        id: i64,
    ) -> std::result::Result<Vec<checklist_confirmation::Model>, ServiceError> {
        Ok(loaded(
            loader::<ConfirmationsByFinancing>(self.0)
                .load_one((programme, id))
                .await,
        )?
        .unwrap_or_default())
    }
    async fn items(&self, cartas: Vec<i64>) -> std::result::Result<Vec<fco_carta_item::Model>, ServiceError> {
        let mut by_carta = loaded(loader::<ItemsByCarta>(self.0).load_many(cartas.iter().copied()).await)?;
        Ok(cartas
            .iter()
            .flat_map(|c| by_carta.remove(c).unwrap_or_default())
            .collect())
    }
    async fn amendments(&self, carta: i64) -> std::result::Result<Vec<fco_carta_amendment::Model>, ServiceError> {
        Ok(loaded(loader::<AmendmentsByCarta>(self.0).load_one(carta).await)?.unwrap_or_default())
    }
    async fn cycles(&self, carta: i64) -> std::result::Result<Vec<fco_carta_cycle::Model>, ServiceError> {
        Ok(loaded(loader::<CyclesByCarta>(self.0).load_one(carta).await)?.unwrap_or_default())
    }
    async fn statements(&self, carta: i64) -> std::result::Result<Vec<fco_carta_statement::Model>, ServiceError> {
        Ok(loaded(loader::<StatementsByCarta>(self.0).load_one(carta).await)?.unwrap_or_default())
    }
    async fn meeting(&self, id: i64) -> std::result::Result<Option<chamber_meeting::Model>, ServiceError> {
        loaded(loader::<ChamberMeetingLoader>(self.0).load_one(id).await)
    }
    async fn present(&self, meeting: i64, bank: i64) -> std::result::Result<Option<bool>, ServiceError> {
        loaded(loader::<AttendanceLoader>(self.0).load_one((meeting, bank)).await)
    }
    async fn group_commitments(
        &self,
        party: i64,
        day: chrono::NaiveDate,
    ) -> std::result::Result<std::sync::Arc<service::facts::Committed>, ServiceError> {
        Ok(loaded(loader::<GroupCommitmentsByParty>(self.0).load_one((party, day)).await)?.unwrap_or_default())
    }
    async fn carta(&self, id: i64) -> std::result::Result<Option<fco_carta::Model>, ServiceError> {
        loaded(loader::<FcoCartaLoader>(self.0).load_one(id).await)
    }
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
#[graphql(complex)]
pub struct RuleOutcome {
    /// Stable rule code (`SF-SHARE-MIN`).
    pub rule_code: String,
    /// Met, violated, pending or not applicable.
    pub status: RuleStatus,
    /// Instrument and article, as the catalogue cites them (rendered by [`RuleOutcome::legal_basis`]).
    #[graphql(skip)]
    pub legal_basis: String,
    /// Why, as the rule said it (rendered by [`RuleOutcome::explanation`] in the request's language).
    #[graphql(skip)]
    pub explained: rules::Explanation,
}

#[async_graphql::ComplexObject]
impl RuleOutcome {
    /// Why, with the numbers used, in the request's language (Portuguese unless `Accept-Language` asks for English).
    pub(crate) async fn explanation(&self, ctx: &Context<'_>) -> String {
        service::l10n::explanation(&self.explained, super::error::lang(ctx))
    }

    /// Instrument and article, cited in the request's language (`art. 3º, parágrafo único` in Portuguese, `art. 3,
    /// sole §` in English).
    pub(crate) async fn legal_basis(&self, ctx: &Context<'_>) -> String {
        service::l10n::legal_basis(&self.legal_basis, super::error::lang(ctx))
    }
}

impl From<Outcome> for RuleOutcome {
    fn from(o: Outcome) -> Self {
        Self {
            rule_code: o.code.into(),
            status: o.status.into(),
            legal_basis: o.legal_basis.into(),
            explained: o.explanation,
        }
    }
}

/// A legal deadline of one financing.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(complex)]
pub struct Deadline {
    /// Stable rule code (`SF-DECISION-30D`).
    pub rule_code: String,
    /// The last day on time, for deadlines in days or months.
    pub due_date: Option<Date>,
    /// The last instant on time, for deadlines in hours.
    pub due_at: Option<DateTime>,
    /// Where it stands on `asOf`.
    pub status: DeadlineStatus,
    /// Instrument and article, as the catalogue cites them (rendered by [`Deadline::legal_basis`]).
    #[graphql(skip)]
    pub legal_basis: String,
    /// How it was counted and what happened, as the rule said it (rendered by [`Deadline::counting_note`]).
    #[graphql(skip)]
    pub note: rules::Explanation,
}

#[async_graphql::ComplexObject]
impl Deadline {
    /// How it was counted (Lei 9.784/1999, art. 66) and what happened, in the request's language.
    pub(crate) async fn counting_note(&self, ctx: &Context<'_>) -> String {
        service::l10n::explanation(&self.note, super::error::lang(ctx))
    }

    /// Instrument and article, cited in the request's language (`art. 3º, parágrafo único` in Portuguese, `art. 3,
    /// sole §` in English).
    pub(crate) async fn legal_basis(&self, ctx: &Context<'_>) -> String {
        service::l10n::legal_basis(&self.legal_basis, super::error::lang(ctx))
    }
}

impl From<social_fuel::DeadlineOutcome> for Deadline {
    fn from(d: social_fuel::DeadlineOutcome) -> Self {
        Self {
            rule_code: d.code.into(),
            due_date: d.due.map(Date),
            due_at: d.due_at.map(DateTime::cdae),
            status: d.status.into(),
            legal_basis: d.legal_basis.into(),
            note: d.note,
        }
    }
}

/// A rule of either regulation.
#[derive(SimpleObject, Clone, Debug)]
pub struct Rule {
    /// Stable code.
    pub code: String,
    /// Instrument and article, cited in the request's language (`art. 3º, parágrafo único` in Portuguese, `art. 3,
    /// sole §` in English).
    pub legal_basis: String,
    /// What it says, in one line, in the request's language (Portuguese by default, English with
    /// `Accept-Language: en`).
    pub title: String,
    /// How Fomento checks it.
    pub kind: RuleKind,
    /// The instrument it comes from, in full.
    pub instrument: String,
    /// The first day its instrument was in force.
    pub in_force_from: Date,
    /// The last day its instrument was in force, when revoked: the rule answers `NOT_APPLICABLE` to a request filed
    /// later.
    pub in_force_until: Option<Date>,
    /// What revoked its instrument.
    pub revoked_by: Option<String>,
    /// How the instrument's validity is read.
    pub validity_note: String,
}

/// A day without office hours kept as data.
#[derive(SimpleObject, Clone, Debug)]
pub struct NonBusinessDay {
    /// The day.
    pub day: Date,
    /// Whose office days it concerns; null for every authority.
    pub authority: Option<CalendarAuthority>,
    /// True for a ponto facultativo on which the office was open; false for a closed day.
    pub open: bool,
    /// Why there are no office hours (or why the office was open).
    pub reason: String,
}

/// Whose office days a deadline counts.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
pub enum CalendarAuthority {
    /// The federal offices: MDA's deadlines.
    Federal,
    /// Mato Grosso's offices: the CDAE's and SEDEC's deadlines (FCO-VALIDITY-120D).
    MatoGrosso,
    /// The banks (ANBIMA's calendar): their reporting deadlines (FCO-MONTHLY-LIST, FCO-BB-60D).
    Banking,
}

impl From<CalendarAuthority> for rules::calendar::Authority {
    fn from(a: CalendarAuthority) -> Self {
        match a {
            CalendarAuthority::Federal => Self::Federal,
            CalendarAuthority::MatoGrosso => Self::MatoGrosso,
            CalendarAuthority::Banking => Self::Banking,
        }
    }
}

impl From<rules::calendar::Authority> for CalendarAuthority {
    fn from(a: rules::calendar::Authority) -> Self {
        use rules::calendar::Authority as A;
        match a {
            A::Federal => Self::Federal,
            A::MatoGrosso => Self::MatoGrosso,
            A::Banking => Self::Banking,
        }
    }
}

/// A version of a rule parameter.
#[derive(SimpleObject, Clone, Debug)]
pub struct RuleParameter {
    /// The version's opaque global ID, for `recordRuleParameterCorrection` and `recordRuleParameterWithdrawal`.
    #[graphql(owned)]
    pub id: ID,
    /// The version's number, for the deprecated `correctRuleParameterVersion` and `withdrawRuleParameterVersion`.
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
            id: super::ids::encode(super::ids::NodeKind::RuleParameter, m.id),
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
    compliance::authority(programme)
}

fn as_of_or_today(as_of: Option<Date>) -> NaiveDate {
    as_of.map_or_else(today_in_brasilia, |d| d.0)
}

/// A financing's rule outcomes and deadlines.
pub type Outcomes = (Vec<RuleOutcome>, Vec<Deadline>);

fn shaped((outcomes, deadlines): (Vec<Outcome>, Vec<social_fuel::DeadlineOutcome>)) -> Outcomes {
    (
        outcomes.into_iter().map(Into::into).collect(),
        deadlines.into_iter().map(Into::into).collect(),
    )
}

/// A financing whose rules are judged.
#[derive(Clone, Copy)]
pub enum Judged<'a> {
    /// A social-fuel project.
    Project(&'a social_fuel_project::Model),
    /// An FCO carta.
    Carta(&'a fco_carta::Model),
}

/// The judgements of a query, one per financing and day: `compliance` and `deadlines` of one financing come from
/// one judgement (each used to judge every rule and deadline again). Request data of queries only: within a
/// mutation's request a financing changes between its fields, so nothing is kept there.
#[derive(Default)]
pub struct Judgements(std::sync::Mutex<std::collections::HashMap<JudgementKey, Arc<OnceCell<Outcomes>>>>);

/// A judgement's financing (a project or not, its id) and day.
type JudgementKey = (bool, i64, NaiveDate);

impl Judged<'_> {
    /// The financing's rule outcomes and deadlines as known on `as_of` (today by default): `compliance` and
    /// `deadlines` of both programmes.
    pub async fn on(self, ctx: &Context<'_>, as_of: Option<Date>) -> Result<Outcomes> {
        self.at(ctx, as_of, None).await
    }

    /// [`Judged::on`], or, with `known_at`, as the record held it at that instant ([`service::known_at`]: the day
    /// judged is the instant's day in Brasília unless an earlier `asOf` is asked; the rule parameters are those
    /// recorded by then). An instant given to the second covers that whole second (times are shown to the second).
    pub async fn at(self, ctx: &Context<'_>, as_of: Option<Date>, known_at: Option<DateTime>) -> Result<Outcomes> {
        if let Some(at) = known_at {
            return self.known_at(ctx, as_of, service::known_at::instant(at.0)).await;
        }
        let as_of = as_of_or_today(as_of);
        let Some(kept) = ctx.data_opt::<Judgements>() else {
            return self.judge(ctx, as_of).await;
        };
        let key = match self {
            Judged::Project(p) => (true, p.id, as_of),
            Judged::Carta(c) => (false, c.id, as_of),
        };
        let cell = kept
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key)
            .or_default()
            .clone();
        cell.get_or_try_init(|| self.judge(ctx, as_of)).await.cloned()
    }

    async fn known_at(
        self,
        ctx: &Context<'_>,
        as_of: Option<Date>,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<Outcomes> {
        let day = service::known_at::day(at, as_of.map(|d| d.0)).served(ctx)?;
        let params = service::known_at::params(db(ctx), at).await.served(ctx)?;
        let base = basis(ctx).await?;
        let basis = Basis {
            params: &params,
            ..base
        };
        let judged = match self {
            Judged::Project(p) => service::known_at::project_judged(db(ctx), basis, p, at, day).await,
            Judged::Carta(c) => service::known_at::carta_judged(db(ctx), basis, c, at, day).await,
        };
        Ok(shaped(judged.served(ctx)?))
    }

    async fn judge(self, ctx: &Context<'_>, as_of: NaiveDate) -> Result<Outcomes> {
        let (facts, basis) = (GraphFacts(ctx), basis(ctx).await?);
        let judged = match self {
            Judged::Project(p) => compliance::judge_project(&facts, basis, p, as_of).await,
            Judged::Carta(c) => compliance::judge_carta(&facts, basis, c, as_of).await,
        };
        Ok(shaped(judged.served(ctx)?))
    }
}

/// The reporting deadlines of a bank (FCO-BB-60D for Banco do Brasil, FCO-MONTHLY-LIST for FCO banks).
pub async fn bank_deadlines(ctx: &Context<'_>, b: &entity::bank::Model, as_of: Option<Date>) -> Result<Vec<Deadline>> {
    let out = compliance::bank_deadlines(db(ctx), basis(ctx).await?, b, as_of_or_today(as_of))
        .await
        .served(ctx)?;
    Ok(out.into_iter().map(Into::into).collect())
}

/// Queries about the rules themselves.
#[derive(Default)]
pub struct RulesQuery;

#[Object]
impl RulesQuery {
    /// Every rule of both regulations with its legal basis and how it is checked.
    async fn rules(&self, ctx: &Context<'_>) -> Vec<Rule> {
        let lang = super::error::lang(ctx);
        rules::RULES
            .iter()
            .map(|r| {
                let i = r.code.instrument();
                Rule {
                    code: r.code.into(),
                    legal_basis: service::l10n::legal_basis(r.legal_basis, lang),
                    title: service::l10n::rule_title(r, lang),
                    kind: r.kind.into(),
                    instrument: i.title.into(),
                    in_force_from: Date(i.in_force_from),
                    in_force_until: i.in_force_until.map(Date),
                    revoked_by: i.revoked_by.map(Into::into),
                    validity_note: i.validity_note.into(),
                }
            })
            .collect()
    }

    /// Days without office hours kept as data (beyond weekends and national holidays), in date order.
    async fn non_business_days(&self, ctx: &Context<'_>) -> Result<Vec<NonBusinessDay>> {
        let rows = parameters::non_business_days(db(ctx)).await.served(ctx)?;
        Ok(rows.into_iter().map(Into::into).collect())
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
        let rows = parameters::versions(db(ctx), rule.as_deref(), include_withdrawn)
            .await
            .served(ctx)?;
        Ok(rows.into_iter().map(Into::into).collect())
    }
}

impl From<entity::non_business_day::Model> for NonBusinessDay {
    fn from(m: entity::non_business_day::Model) -> Self {
        Self {
            day: Date(m.day),
            authority: rules::calendar::Authority::parse(&m.authority).map(Into::into),
            open: m.open,
            reason: m.reason,
        }
    }
}

/// `recordRuleParameterVersion`'s input: a new version of a rule parameter.
#[derive(InputObject, Debug)]
pub struct RecordRuleParameterVersionInput {
    /// Parameter key, as listed by `ruleParameters` (`SF-SHARE-MIN.NORTHEAST`).
    pub key: String,
    /// The new value, exact.
    pub value: Decimal,
    /// Its unit; must be the key's unit.
    pub unit: String,
    /// First day in force.
    pub effective_from: Date,
    /// Last day in force, if known.
    pub effective_to: Option<Date>,
    /// The instrument and article that set it.
    pub legal_source: String,
}

/// `recordRuleParameterCorrection`'s input: the version corrected, the corrected fields and why.
#[derive(InputObject, Debug)]
pub struct RecordRuleParameterCorrectionInput {
    /// The version's global ID (`id` in `ruleParameters`).
    pub version_id: ID,
    /// The corrected value.
    pub value: Option<Decimal>,
    /// The corrected first day in force.
    pub effective_from: Option<Date>,
    /// The corrected last day in force.
    pub effective_to: Option<Date>,
    /// The corrected instrument and article.
    pub legal_source: Option<String>,
    /// Why it is corrected (kept in the history).
    pub reason: String,
}

/// `recordRuleParameterWithdrawal`'s input: the version withdrawn and why.
#[derive(InputObject, Debug)]
pub struct RecordRuleParameterWithdrawalInput {
    /// The version's global ID (`id` in `ruleParameters`).
    pub version_id: ID,
    /// Why it is withdrawn (kept in the history).
    pub reason: String,
}

/// What the mutations over rule parameters answer.
#[derive(SimpleObject)]
pub struct RuleParameterPayload {
    /// The version written: the new one, the one replacing a corrected one, or the one withdrawn.
    pub parameter: RuleParameter,
}

/// `recordNonBusinessDay`'s input: a day without office hours.
#[derive(InputObject, Debug)]
pub struct RecordNonBusinessDayInput {
    /// The day.
    pub day: Date,
    /// Why there are no office hours (the act that declared it).
    pub reason: String,
    /// Whose office days: null for every authority.
    pub authority: Option<CalendarAuthority>,
}

/// `recordOfficeOpenDay`'s input: a ponto facultativo on which an office was open.
#[derive(InputObject, Debug)]
pub struct RecordOfficeOpenDayInput {
    /// The ponto facultativo, or 24 or 31 December (the federal offices' early closing).
    pub day: Date,
    /// Whose office was open.
    pub authority: CalendarAuthority,
    /// The act that kept it open.
    pub reason: String,
}

/// What the calendar's mutations answer.
#[derive(SimpleObject)]
pub struct NonBusinessDayPayload {
    /// The day as recorded.
    pub non_business_day: NonBusinessDay,
}

/// `recordChecklistConfirmation`'s input: who confirmed which checklist item of which financing.
#[derive(InputObject, Debug)]
pub struct RecordChecklistConfirmationInput {
    /// The project's or carta's global ID.
    pub financing_id: ID,
    /// A checklist rule code (`SF-ASSISTANCE-PLAN`, `FCO-GTA`, ...).
    pub rule_code: String,
    /// Who confirms.
    pub confirmed_by: String,
    /// What was seen (document, protocol number).
    pub note: Option<String>,
    /// The day the confirmation was made (today when not given; not after today).
    pub on: Option<Date>,
}

/// What `recordChecklistConfirmation` answers.
#[derive(SimpleObject)]
pub struct RecordChecklistConfirmationPayload {
    /// The item's outcome on the financing after the confirmation.
    pub outcome: RuleOutcome,
}

async fn add_version(ctx: &Context<'_>, i: RecordRuleParameterVersionInput) -> Result<RuleParameter> {
    let value = i.value.0.to_string();
    let new = parameters::NewVersion {
        key: &i.key,
        value: &value,
        unit: &i.unit,
        from: i.effective_from.0,
        to: i.effective_to.map(|d| d.0),
        source: &i.legal_source,
    };
    let m = parameters::add_version(db(ctx), service::Clock::System, new)
        .await
        .served(ctx)?;
    Ok(m.into())
}

async fn correct_version(
    ctx: &Context<'_>,
    version: i64,
    i: RecordRuleParameterCorrectionInput,
) -> Result<RuleParameter> {
    let correction = parameters::Correction {
        value: i.value.map(|v| v.0.to_string()),
        from: i.effective_from.map(|d| d.0),
        to: i.effective_to.map(|d| d.0),
        source: i.legal_source,
    };
    let m = parameters::correct_version(db(ctx), service::Clock::System, version, correction, &i.reason)
        .await
        .served(ctx)?;
    Ok(m.into())
}

/// A rule parameter's version named by its global ID (`input.versionId`).
fn version_named(id: &async_graphql::ID) -> Result<i64> {
    super::ids::arg(id, super::ids::NodeKind::RuleParameter, "input.versionId")
}

async fn withdraw_version(ctx: &Context<'_>, version: i64, reason: &str) -> Result<RuleParameter> {
    let m = parameters::withdraw_version(db(ctx), service::Clock::System, version, reason)
        .await
        .served(ctx)?;
    Ok(m.into())
}

async fn calendar_day(
    ctx: &Context<'_>,
    day: Date,
    reason: &str,
    authority: Option<CalendarAuthority>,
    open: bool,
) -> Result<NonBusinessDay> {
    let m = parameters::add_non_business_day(db(ctx), day.0, reason, authority.map(Into::into), open)
        .await
        .served(ctx)?;
    Ok(m.into())
}

async fn confirm(ctx: &Context<'_>, i: RecordChecklistConfirmationInput, field: &'static str) -> Result<RuleOutcome> {
    use super::ids::{self, NodeKind};
    let financing = match ids::decode(&i.financing_id) {
        Some((NodeKind::SocialFuelProject, id)) => (Programme::SocialFuel, id),
        Some((NodeKind::FcoCarta, id)) => (Programme::FcoRural, id),
        _ => {
            return Err(ServiceError::bad(
                field,
                service::messages::Message::new(service::messages::code::NOT_A_FINANCING_ID)
                    .arg("id", format!("{:?}", i.financing_id.as_str())),
            ))
            .served(ctx);
        }
    };
    let caller = super::caller(ctx);
    let outcome = parameters::confirm_checklist_item(
        db(ctx),
        service::Clock::System,
        &caller,
        financing,
        &i.rule_code,
        &i.confirmed_by,
        i.note,
        i.on.map(|d| d.0),
    )
    .await
    .served(ctx)?;
    Ok(outcome.into())
}

/// Mutations over the rules.
#[derive(Default)]
pub struct RulesMutation;

#[Object]
impl RulesMutation {
    /// Adds a version of a rule parameter. From `effectiveFrom` on, rules whose reference date (filing, submission,
    /// approval, ...) falls on or after it use the new value; earlier reference dates keep the old one.
    #[allow(clippy::too_many_arguments)]
    #[graphql(
        deprecation = "Use `recordRuleParameterVersion(input:)`, which answers a payload; removed on 2027-06-30."
    )]
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
        let input = RecordRuleParameterVersionInput {
            key,
            value,
            unit,
            effective_from,
            effective_to,
            legal_source,
        };
        add_version(ctx, input).await
    }

    /// Corrects a version recorded wrongly (a mistyped value, date or source): the corrected version is withdrawn
    /// and kept in the history with the reason, and a new version with the corrected fields (the others as they
    /// were) replaces it, in one transaction. Rules read the new one from its `effectiveFrom`.
    #[allow(clippy::too_many_arguments)]
    #[graphql(
        deprecation = "Use `recordRuleParameterCorrection(input:)`, which answers a payload; removed on 2027-06-30."
    )]
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
        let input = RecordRuleParameterCorrectionInput {
            version_id: ID::from(""),
            value,
            effective_from,
            effective_to,
            legal_source,
            reason,
        };
        correct_version(ctx, version_id, input).await
    }

    /// Withdraws a version recorded in error: it is kept in the history with the reason, and the rules no longer
    /// read it (the version in force before it applies again, or none: a rule without a version in force on its
    /// date answers `NOT_APPLICABLE` and says why).
    #[graphql(
        deprecation = "Use `recordRuleParameterWithdrawal(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn withdraw_rule_parameter_version(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The version to withdraw (`versionId` in `ruleParameters`).")] version_id: i64,
        #[graphql(desc = "Why it is withdrawn (kept in the history).")] reason: String,
    ) -> Result<RuleParameter> {
        withdraw_version(ctx, version_id, &reason).await
    }

    /// Records a day without office hours beyond weekends and national holidays (a state or municipal holiday, a
    /// declared closure) for one authority, or for every one when `authority` is null: deadlines of that authority
    /// ending on it move to the next business day (Lei 9.784/1999, art. 66 §1).
    #[graphql(deprecation = "Use `recordNonBusinessDay(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn add_non_business_day(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The day.")] day: Date,
        #[graphql(desc = "Why there are no office hours (the act that declared it).")] reason: String,
        #[graphql(desc = "Whose office days: null for every authority.")] authority: Option<CalendarAuthority>,
    ) -> Result<NonBusinessDay> {
        calendar_day(ctx, day, &reason, authority, false).await
    }

    /// Records that an authority's office was open on a ponto facultativo (Carnival Monday or Tuesday, Corpus
    /// Christi), which otherwise counts as closed: its deadlines may then end that day.
    #[graphql(deprecation = "Use `recordOfficeOpenDay(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn record_office_open(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The ponto facultativo, or 24 or 31 December (the federal offices' early closing).")]
        day: Date,
        #[graphql(desc = "Whose office was open.")] authority: CalendarAuthority,
        #[graphql(desc = "The act that kept it open.")] reason: String,
    ) -> Result<NonBusinessDay> {
        calendar_day(ctx, day, &reason, Some(authority), true).await
    }

    /// Records that a person confirmed a checklist item (a rule that needs a document or a human judgement) on a
    /// financing; `compliance` then shows it as met from the day of the confirmation, with who and when. Confirming
    /// again takes the earlier confirmation's place from its own day; the earlier one is kept for the days before.
    #[graphql(
        deprecation = "Use `recordChecklistConfirmation(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn confirm_checklist_item(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's or carta's global ID.")] financing_id: async_graphql::ID,
        #[graphql(desc = "A checklist rule code (`SF-ASSISTANCE-PLAN`, `FCO-GTA`, ...).")] rule_code: String,
        #[graphql(desc = "Who confirms.")] confirmed_by: String,
        #[graphql(desc = "What was seen (document, protocol number).")] note: Option<String>,
        #[graphql(desc = "The day the confirmation was made (today when not given; not after today).")] on: Option<
            super::scalars::Date,
        >,
    ) -> Result<RuleOutcome> {
        let input = RecordChecklistConfirmationInput {
            financing_id,
            rule_code,
            confirmed_by,
            note,
            on,
        };
        confirm(ctx, input, "financingId").await
    }

    /// Adds a version of a rule parameter. From `effectiveFrom` on, rules whose reference date (filing, submission,
    /// approval, ...) falls on or after it use the new value; earlier reference dates keep the old one.
    async fn record_rule_parameter_version(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The key, the value and when it is in force.")] input: RecordRuleParameterVersionInput,
    ) -> Result<RuleParameterPayload> {
        let parameter = add_version(ctx, input).await?;
        Ok(RuleParameterPayload { parameter })
    }

    /// Corrects a version recorded wrongly (a mistyped value, date or source): the corrected version is withdrawn
    /// and kept in the history with the reason, and a new version with the corrected fields (the others as they
    /// were) replaces it, in one transaction. Answers the new version; rules read it from its `effectiveFrom`.
    async fn record_rule_parameter_correction(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The version, the corrected fields and why.")] input: RecordRuleParameterCorrectionInput,
    ) -> Result<RuleParameterPayload> {
        let version = version_named(&input.version_id)?;
        let parameter = correct_version(ctx, version, input).await?;
        Ok(RuleParameterPayload { parameter })
    }

    /// Withdraws a version recorded in error: it is kept in the history with the reason, and the rules no longer
    /// read it (the version in force before it applies again, or none: a rule without a version in force on its
    /// date answers `NOT_APPLICABLE` and says why).
    async fn record_rule_parameter_withdrawal(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The version and why.")] input: RecordRuleParameterWithdrawalInput,
    ) -> Result<RuleParameterPayload> {
        let version = version_named(&input.version_id)?;
        let parameter = withdraw_version(ctx, version, &input.reason).await?;
        Ok(RuleParameterPayload { parameter })
    }

    /// Records a day without office hours beyond weekends and national holidays (a state or municipal holiday, a
    /// declared closure) for one authority, or for every one when `authority` is null: deadlines of that authority
    /// ending on it move to the next business day (Lei 9.784/1999, art. 66 §1).
    async fn record_non_business_day(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The day, why, and whose.")] input: RecordNonBusinessDayInput,
    ) -> Result<NonBusinessDayPayload> {
        let non_business_day = calendar_day(ctx, input.day, &input.reason, input.authority, false).await?;
        Ok(NonBusinessDayPayload { non_business_day })
    }

    /// Records that an authority's office was open on a ponto facultativo (Carnival Monday or Tuesday, Corpus
    /// Christi), which otherwise counts as closed: its deadlines may then end that day.
    async fn record_office_open_day(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The day, whose office and the act.")] input: RecordOfficeOpenDayInput,
    ) -> Result<NonBusinessDayPayload> {
        let non_business_day = calendar_day(ctx, input.day, &input.reason, Some(input.authority), true).await?;
        Ok(NonBusinessDayPayload { non_business_day })
    }

    /// Records that a person confirmed a checklist item (a rule that needs a document or a human judgement) on a
    /// financing; `compliance` then shows it as met from the day of the confirmation, with who and when. Confirming
    /// again takes the earlier confirmation's place from its own day; the earlier one is kept for the days before.
    async fn record_checklist_confirmation(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The financing, the rule, who and when.")] input: RecordChecklistConfirmationInput,
    ) -> Result<RecordChecklistConfirmationPayload> {
        let outcome = confirm(ctx, input, "input.financingId").await?;
        Ok(RecordChecklistConfirmationPayload { outcome })
    }
}
