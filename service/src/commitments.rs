//! What a biodiesel producer commits to and reports (IN MDA 2/2005, arts. 5, 6 and 12): contract proposals with the
//! farmers' representation and their terms, the technical-assistance plan with its five contents, and notices of
//! changes in the company. SF-REPRESENTATION, SF-CONTRACT-TERMS, SF-ASSISTANCE-PLAN and SF-CHANGES read them.

use crate::{
    ServiceError,
    lifecycle::{Act, find_project},
    messages::{Message, code},
    versions,
};
use chrono::NaiveDate;
use entity::{
    assistance_plan, company_change_notice, contract_proposal, social_fuel_project,
    vocab::{CompanyChangeKind, Programme, RepresentationKind, SocialFuelStage},
};
use sea_orm::{
    ActiveEnum, ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel,
    QueryFilter, TransactionSession, TransactionTrait,
};

type Result<T> = std::result::Result<T, ServiceError>;

/// Whether MDA has decided on the project's framing: what it relied on is then corrected with a reason.
pub fn decided(p: &social_fuel_project::Model) -> bool {
    !matches!(p.stage, SocialFuelStage::Draft | SocialFuelStage::Filed)
}

fn text(v: Option<String>) -> Option<String> {
    v.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty())
}

/// A contract proposal as stated (art. 5 and its sole §).
#[derive(Debug, Clone)]
pub struct Proposal {
    /// The kind of representation.
    pub representation_kind: RepresentationKind,
    /// The representation's name.
    pub representation_name: String,
    /// Whether the representation is identified and agreed.
    pub representation_agreed: bool,
    /// Term in months.
    pub term_months: Option<i32>,
    /// Purchase price.
    pub purchase_price: Option<String>,
    /// Price-adjustment criteria.
    pub price_adjustment: Option<String>,
    /// Delivery conditions.
    pub delivery_conditions: Option<String>,
    /// Safeguards for each party.
    pub safeguards: Option<String>,
}

fn proposal_row(p: Proposal) -> Result<contract_proposal::ActiveModel> {
    if p.representation_name.trim().is_empty() {
        return Err(ServiceError::bad(
            "input.proposal.representationName",
            Message::new(code::FIELD_EMPTY),
        ));
    }
    if p.term_months.is_some_and(|m| m <= 0) {
        return Err(ServiceError::bad(
            "input.proposal.termMonths",
            Message::new(code::TERM_INVALID),
        ));
    }
    Ok(contract_proposal::ActiveModel {
        representation_kind: Set(p.representation_kind),
        representation_name: Set(p.representation_name.trim().into()),
        representation_agreed: Set(p.representation_agreed),
        term_months: Set(p.term_months),
        purchase_price: Set(text(p.purchase_price)),
        price_adjustment: Set(text(p.price_adjustment)),
        delivery_conditions: Set(text(p.delivery_conditions)),
        safeguards: Set(text(p.safeguards)),
        ..Default::default()
    })
}

/// A project's contract proposals, kept in versions once MDA has decided on the framing ([`versions::record`],
/// [`versions::correct`], [`versions::withdraw`], [`versions::visible`]).
impl versions::Fact for contract_proposal::ActiveModel {
    type Stated = Proposal;
    type Parent = social_fuel_project::Entity;
    const FIELD: &'static str = "input.proposalId";
    const PARENT_FIELD: &'static str = "input.projectId";
    const UNKNOWN: &'static str = code::PROPOSAL_UNKNOWN;
    const PARENT_UNKNOWN: &'static str = code::PROJECT_UNKNOWN;

    fn parent(id: i64) -> sea_orm::Select<social_fuel_project::Entity> {
        social_fuel_project::Entity::find_by_id(id)
    }
    fn parent_id(m: &contract_proposal::Model) -> i64 {
        m.project_id
    }
    fn parent_keys(p: &social_fuel_project::Model) -> (i64, i64) {
        (p.id, p.bank_id)
    }
    fn decided(p: &social_fuel_project::Model) -> bool {
        decided(p)
    }
    async fn checked(
        _db: &(impl ConnectionTrait + TransactionTrait),
        _act: &Act,
        p: Proposal,
        project: i64,
    ) -> Result<Self> {
        let mut row = proposal_row(p)?;
        row.project_id = Set(project);
        Ok(row)
    }
}

/// A technical-assistance plan as stated (art. 6).
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// I: staff, with CVs and roles.
    pub staff_description: Option<String>,
    /// Whether the assistance is outsourced.
    pub outsourced: bool,
    /// II: the outsourcing contract, when outsourced.
    pub outsourcing_contract: Option<String>,
    /// III: coverage (states, municipalities, communities, settlements).
    pub coverage_area: Option<String>,
    /// IV: number of farmers assisted.
    pub farmers_assisted: Option<i32>,
    /// V: methodology and activities.
    pub methodology: Option<String>,
}

/// Records a project's plan: a new version, the one recorded before kept ([`versions`]); after MDA's decision it needs
/// a reason. The confirmation of its compatibility ends the day the new plan takes effect (the facts it judged
/// changed) and the history notes the change on that day.
pub async fn record_plan(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    plan: Plan,
    reason: Option<&str>,
    effective_on: Option<chrono::NaiveDate>,
) -> Result<assistance_plan::Model> {
    let p = find_project(db, "input.projectId", project_id).await?;
    let reason = versions::reason(decided(&p), reason)?;
    if plan.farmers_assisted.is_some_and(|n| n < 0) {
        return Err(ServiceError::bad(
            "input.plan.farmersAssisted",
            Message::new(code::NUMBER_NEGATIVE),
        ));
    }
    let row = assistance_plan::ActiveModel {
        project_id: Set(p.id),
        staff_description: Set(text(plan.staff_description)),
        outsourced: Set(plan.outsourced),
        outsourcing_contract: Set(text(plan.outsourcing_contract)),
        coverage_area: Set(text(plan.coverage_area)),
        farmers_assisted: Set(plan.farmers_assisted),
        methodology: Set(text(plan.methodology)),
        confirmed_by: Set(None),
        confirmed_at: Set(None),
        ..Default::default()
    };
    // The plan, the reset of its confirmation and the history row commit together, or not at all.
    let txn = crate::txn::write(db).await?;
    let current = assistance_plan::Entity::find()
        .filter(assistance_plan::Column::ProjectId.eq(p.id))
        .filter(assistance_plan::Column::SupersededAt.is_null())
        .one(&txn)
        .await?;
    let saved = match current {
        Some(old) => versions::change(&txn, act, old, row, decided(&p), reason.clone(), effective_on).await?,
        None => {
            let day = act.effective("input.effectiveOn", effective_on, None)?;
            versions::add(&txn, act, row, reason.clone(), day).await?
        }
    };
    // A person confirmed the plan as it was; the new one needs its own confirmation. The earlier confirmation is kept:
    // it ends the day the new plan takes effect.
    let from = saved.effective_on.unwrap_or_else(|| act.day(None));
    crate::parameters::end_confirmations(
        &txn,
        Programme::SocialFuel,
        p.id,
        entity::rules::code::SF_ASSISTANCE_PLAN.as_str(),
        from,
        act.clock.now(),
    )
    .await?;
    crate::lifecycle::note_in_history(
        &txn,
        act,
        Programme::SocialFuel,
        p.id,
        p.stage.to_value(),
        "ASSISTANCE_PLAN",
        from,
        reason.map(entity::rules::Explanation::from),
    )
    .await?;
    txn.commit().await?;
    Ok(saved)
}

/// Records a project's implementation schedule (art. 10): its end, set when the bank approves the financing and moved
/// by a delay MDA accepts, and the day the company presented the physical-financial schedule to MDA (art. 10 caput:
/// after the financing's approval; the history row is dated by it, else today). Moving the end needs a reason; the
/// history keeps the old and the new end. MDA accepts a delay only once the bank has (art. 10 §2): an acceptance with
/// none of the bank's recorded ([`record_delay_bank_acceptance`]) is refused by SF-SCHEDULE. MDA's acceptance is dated
/// (`delay_accepted_on`: today by default, not before the bank's nor after today; the history row is dated by it) and
/// the end scheduled before the first accepted delay is kept (`original_implementation_end`): read `asOf` a day before
/// the acceptance, the schedule ends on it and no delay is accepted ([`social_fuel_project::Model::as_known_on`]).
/// SF-EXTERNAL-EVAL-6M counts from the end when industrial operation has not started.
#[allow(clippy::too_many_arguments)]
pub async fn record_schedule(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    scheduled_end: NaiveDate,
    delay_accepted: bool,
    delay_accepted_on: Option<NaiveDate>,
    presented_on: Option<NaiveDate>,
    reason: Option<&str>,
) -> Result<social_fuel_project::Model> {
    let p = find_project(db, "input.projectId", project_id).await?;
    let moved = p.scheduled_implementation_end.is_some_and(|e| e != scheduled_end);
    let reason = versions::reason(moved, reason)?;
    if delay_accepted && p.delay_bank_accepted_on.is_none() {
        return Err(ServiceError::rule(
            entity::rules::code::SF_SCHEDULE,
            entity::rules::Explanation::message(code::REFUSE_DELAY_BANK_FIRST),
        ));
    }
    let accepted_on = if delay_accepted {
        Some(act.effective("input.delayAcceptedOn", delay_accepted_on, p.delay_bank_accepted_on)?)
    } else if delay_accepted_on.is_some() {
        return Err(ServiceError::rule(
            entity::rules::code::SF_SCHEDULE,
            entity::rules::Explanation::message(code::REFUSE_DELAY_DAY_WITHOUT_ACCEPTANCE),
        ));
    } else {
        None
    };
    let presented = match presented_on {
        None => None,
        Some(_) if p.financing_approved_on.is_none() => {
            return Err(ServiceError::rule(
                entity::rules::code::SF_SCHEDULE,
                entity::rules::Explanation::message(code::REFUSE_SCHEDULE_BEFORE_APPROVAL),
            ));
        }
        Some(d) => Some(act.effective("input.presentedOn", Some(d), p.financing_approved_on)?),
    };
    let stage = p.stage.to_value();
    let day_or_none = |d: Option<NaiveDate>| d.map_or_else(|| "none".to_owned(), |d| d.to_string());
    let note = crate::lifecycle::because(
        entity::rules::Explanation::message("history-schedule")
            .arg("old", day_or_none(p.scheduled_implementation_end))
            .arg("end", scheduled_end)
            .arg("presented", day_or_none(presented))
            .arg("accepted", day_or_none(accepted_on)),
        reason,
    );
    let mut a = p.clone().into_active_model();
    a.scheduled_implementation_end = Set(Some(scheduled_end));
    a.schedule_delay_accepted = Set(delay_accepted || p.schedule_delay_accepted);
    if let Some(d) = accepted_on {
        a.delay_accepted_on = Set(Some(d));
        if moved && p.original_implementation_end.is_none() {
            a.original_implementation_end = Set(p.scheduled_implementation_end);
        }
    }
    if presented.is_some() {
        a.schedule_presented_on = Set(presented);
    }
    let txn = crate::txn::write(db).await?;
    let saved = a.update(&txn).await?;
    crate::lifecycle::note_in_history(
        &txn,
        act,
        Programme::SocialFuel,
        p.id,
        stage,
        "SCHEDULE",
        accepted_on.or(presented).unwrap_or_else(|| act.day(None)),
        Some(note),
    )
    .await?;
    txn.commit().await?;
    Ok(saved)
}

/// Records the bank's acceptance of a delay of the implementation schedule (art. 10 §2): the bank's own act, with its
/// day and who at the bank accepted it, once a scheduled end is recorded; not before the financing's approval nor after
/// today. MDA may then accept the delay ([`record_schedule`]); SF-SCHEDULE reads both.
pub async fn record_delay_bank_acceptance(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    on: Option<NaiveDate>,
    accepted_by: &str,
) -> Result<social_fuel_project::Model> {
    let fact = crate::lifecycle::DatedText {
        fields: ["input.projectId", "input.acceptedOn", "input.acceptedBy"],
        event: "DELAY_BANK_ACCEPTANCE",
        words: "by",
        admit: |p| match p.scheduled_implementation_end {
            Some(end) => Ok((
                p.financing_approved_on,
                entity::rules::Explanation::message("history-delay-bank-acceptance").arg("end", end),
            )),
            None => Err(ServiceError::rule(
                entity::rules::code::SF_SCHEDULE,
                entity::rules::Explanation::message(code::REFUSE_DELAY_WITHOUT_SCHEDULE),
            )),
        },
        set: |a, day, by| {
            a.delay_bank_accepted_on = Set(Some(day));
            a.delay_bank_accepted_by = Set(Some(by));
        },
    };
    crate::lifecycle::record_dated_text(db, act, project_id, on, accepted_by, fact).await
}

/// Records the company's notice of a change (art. 12): address, name, incorporation, start of activity.
pub async fn add_change_notice(
    db: &(impl ConnectionTrait + TransactionTrait),
    project_id: i64,
    kind: CompanyChangeKind,
    notified_on: NaiveDate,
    description: &str,
    documents: Option<String>,
) -> Result<company_change_notice::Model> {
    let p = find_project(db, "input.projectId", project_id).await?;
    if description.trim().is_empty() {
        return Err(ServiceError::bad("input.description", Message::new(code::FIELD_EMPTY)));
    }
    Ok(company_change_notice::ActiveModel {
        project_id: Set(p.id),
        kind: Set(kind),
        notified_on: Set(notified_on),
        description: Set(description.trim().into()),
        documents: Set(text(documents)),
        ..Default::default()
    }
    .insert(db)
    .await?)
}
