//! The rules' data: versions of rule parameters (added, corrected, withdrawn, never overwritten), the days without
//! office hours, and the checklist confirmations people give.

use crate::{
    Caller, Clock, ServiceError,
    compliance::authority,
    messages::{Message, code},
};
use chrono::NaiveDate;
use entity::rules::calendar::Authority;
use entity::{
    checklist_confirmation, fco_carta, non_business_day, rule_parameter,
    rules::{self, Outcome, RuleKind, Status, calendar::Calendar, params::Params},
    social_fuel_project,
    vocab::Programme,
};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, ExprTrait,
    QueryFilter, QueryOrder, TransactionSession, TransactionTrait,
};

type Result<T> = std::result::Result<T, ServiceError>;

/// The parameters in force, every version.
pub async fn params(db: &impl ConnectionTrait) -> Result<Params> {
    Ok(rule_parameter::Entity::params(db).await?)
}

/// The business-day calendar.
pub async fn calendar(db: &impl ConnectionTrait) -> Result<Calendar> {
    Ok(non_business_day::Entity::calendar(db).await?)
}

/// Every version of every parameter, by key and start date; `rule` keeps one rule code's or one key's versions.
pub async fn versions(
    db: &DatabaseConnection,
    rule: Option<&str>,
    include_withdrawn: bool,
) -> Result<Vec<rule_parameter::Model>> {
    if let Some(r) = rule
        && rules::rule(r).is_none()
        && !rules::params::BASELINE.iter().any(|(key, ..)| *key == r)
    {
        return Err(ServiceError::bad(
            "rule",
            Message::new(code::FILTER_UNKNOWN_RULE).arg("value", r),
        ));
    }
    let mut q = rule_parameter::Entity::find();
    if !include_withdrawn {
        q = q.filter(rule_parameter::Column::WithdrawnAt.is_null());
    }
    if let Some(r) = rule {
        q = q.filter(
            rule_parameter::Column::RuleCode
                .eq(r)
                .or(rule_parameter::Column::Key.eq(r)),
        );
    }
    Ok(q.order_by_asc(rule_parameter::Column::Key)
        .order_by_asc(rule_parameter::Column::EffectiveFrom)
        .order_by_asc(rule_parameter::Column::Id)
        .all(db)
        .await?)
}

/// One version by its number, withdrawn or not.
pub async fn version(db: &DatabaseConnection, id: i64) -> Result<Option<rule_parameter::Model>> {
    Ok(rule_parameter::Entity::find_by_id(id).one(db).await?)
}

fn reason_of(reason: &str) -> Result<String> {
    match reason.trim() {
        "" => Err(ServiceError::bad("reason", Message::new(code::REASON_REQUIRED))),
        r => Ok(r.to_owned()),
    }
}

/// A version that is still in force, by its number.
async fn in_force(db: &impl ConnectionTrait, id: i64) -> Result<rule_parameter::Model> {
    let v = rule_parameter::Entity::find_by_id(id).one(db).await?.ok_or_else(|| {
        ServiceError::not_found("versionId", Message::new(code::PARAMETER_VERSION_UNKNOWN).arg("id", id))
    })?;
    if let Some(at) = v.withdrawn_at {
        return Err(ServiceError::bad(
            "versionId",
            Message::new(code::PARAMETER_VERSION_WITHDRAWN)
                .arg("id", id)
                .arg("at", at.to_rfc3339())
                .arg("reason", v.withdrawal_reason.as_deref().unwrap_or("")),
        ));
    }
    Ok(v)
}

/// A new parameter version, as asked.
#[derive(Debug, Clone)]
pub struct NewVersion<'a> {
    /// Parameter key (`SF-SHARE-MIN.NORTHEAST`).
    pub key: &'a str,
    /// The value, exact, as text.
    pub value: &'a str,
    /// Its unit; must be the key's.
    pub unit: &'a str,
    /// First day in force.
    pub from: NaiveDate,
    /// Last day in force.
    pub to: Option<NaiveDate>,
    /// The instrument that sets it.
    pub source: &'a str,
}

/// Stores a new parameter version after checking it; the mutation and `fomento rules import` both call it.
pub async fn add_version(db: &impl ConnectionTrait, clock: Clock, v: NewVersion<'_>) -> Result<rule_parameter::Model> {
    let (value, unit) = rules::params::validate_new_version(v.key, v.value, v.unit, v.from, v.to).map_err(|e| {
        use rules::params::ParamError as E;
        let field = match e {
            E::UnknownKey(_) => "key",
            E::WrongUnit { .. } => "unit",
            E::BadPeriod { .. } => "effectiveTo",
            _ => "value",
        };
        ServiceError::bad(field, Message::new(code::PARAMETER_INVALID).explained(&e.problem()))
    })?;
    if v.source.trim().is_empty() {
        return Err(ServiceError::bad(
            "legalSource",
            Message::new(code::LEGAL_SOURCE_REQUIRED),
        ));
    }
    let rule_code = v.key.split('.').next().unwrap_or(v.key).to_owned();
    Ok(rule_parameter::ActiveModel {
        key: Set(v.key.into()),
        rule_code: Set(rule_code),
        value: Set(value.normalize().to_string()),
        unit: Set(unit.as_str().into()),
        effective_from: Set(v.from),
        effective_to: Set(v.to),
        legal_source: Set(v.source.trim().into()),
        created_at: Set(clock.now()),
        ..Default::default()
    }
    .insert(db)
    .await?)
}

/// What a correction changes; the rest stays as it was.
#[derive(Debug, Clone, Default)]
pub struct Correction {
    /// The corrected value, as text.
    pub value: Option<String>,
    /// The corrected first day.
    pub from: Option<NaiveDate>,
    /// The corrected last day.
    pub to: Option<NaiveDate>,
    /// The corrected instrument.
    pub source: Option<String>,
}

/// Corrects a version: it is withdrawn with the reason and replaced by a new one, in one transaction.
pub async fn correct_version(
    db: &DatabaseConnection,
    clock: Clock,
    id: i64,
    c: Correction,
    reason: &str,
) -> Result<rule_parameter::Model> {
    let reason = reason_of(reason)?;
    let txn = crate::txn::write(db).await?;
    let old = in_force(&txn, id).await?;
    let value = c.value.unwrap_or_else(|| old.value.clone());
    let new = add_version(
        &txn,
        clock,
        NewVersion {
            key: &old.key,
            value: &value,
            unit: &old.unit,
            from: c.from.unwrap_or(old.effective_from),
            to: c.to.or(old.effective_to),
            source: c.source.as_deref().unwrap_or(&old.legal_source),
        },
    )
    .await?;
    let mut a: rule_parameter::ActiveModel = old.into();
    a.withdrawn_at = Set(Some(clock.now()));
    a.withdrawal_reason = Set(Some(format!("corrected by version {}: {reason}", new.id)));
    a.replaced_by = Set(Some(new.id));
    a.update(&txn).await?;
    txn.commit().await?;
    Ok(new)
}

/// Withdraws a version recorded in error; it stays in the history with the reason.
pub async fn withdraw_version(
    db: &DatabaseConnection,
    clock: Clock,
    id: i64,
    reason: &str,
) -> Result<rule_parameter::Model> {
    let reason = reason_of(reason)?;
    let txn = crate::txn::write(db).await?;
    let old = in_force(&txn, id).await?;
    let mut a: rule_parameter::ActiveModel = old.into();
    a.withdrawn_at = Set(Some(clock.now()));
    a.withdrawal_reason = Set(Some(reason));
    let m = a.update(&txn).await?;
    txn.commit().await?;
    Ok(m)
}

/// The days without office hours kept as data, in date order.
pub async fn non_business_days(db: &DatabaseConnection) -> Result<Vec<non_business_day::Model>> {
    Ok(non_business_day::Entity::find()
        .order_by_asc(non_business_day::Column::Day)
        .all(db)
        .await?)
}

/// Records a day without office hours beyond weekends and national holidays, for one authority or (`None`) for all;
/// or, `open`, a ponto facultativo (or 24 or 31 December, the federal offices' early closing) on which the authority's
/// office was open.
pub async fn add_non_business_day(
    db: &DatabaseConnection,
    day: NaiveDate,
    reason: &str,
    authority: Option<Authority>,
    open: bool,
) -> Result<non_business_day::Model> {
    if reason.trim().is_empty() {
        return Err(ServiceError::bad("reason", Message::new(code::REASON_REQUIRED)));
    }
    if open
        && entity::rules::calendar::ponto_facultativo(day).is_none()
        && entity::rules::calendar::federal_early_closing(day).is_none()
    {
        return Err(ServiceError::bad(
            "day",
            Message::new(code::NOT_A_PONTO_FACULTATIVO).arg("day", day),
        ));
    }
    let name = authority.map_or("ALL", Authority::as_str);
    // One transaction: a request stopped at its time limit rolls back a write already sent, never lands it later.
    let txn = crate::txn::write(db).await?;
    let exists = non_business_day::Entity::find()
        .filter(non_business_day::Column::Day.eq(day))
        .filter(non_business_day::Column::Authority.eq(name))
        .one(&txn)
        .await?;
    if let Some(d) = exists {
        return Err(ServiceError::bad(
            "day",
            Message::new(code::DAY_ALREADY_RECORDED)
                .arg("day", d.day)
                .arg("reason", d.reason),
        ));
    }
    let m = non_business_day::ActiveModel {
        day: Set(day),
        authority: Set(name.into()),
        open: Set(open),
        reason: Set(reason.trim().into()),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(m)
}

/// Ends the confirmations of `rule_code` on a financing still in force: they hold until the day before `from`. Kept,
/// never deleted: the rule judged `asOf` an earlier day still reads them.
pub async fn end_confirmations(
    db: &impl sea_orm::ConnectionTrait,
    programme: Programme,
    financing_id: i64,
    rule_code: &str,
    from: chrono::NaiveDate,
    at: chrono::DateTime<chrono::Utc>,
) -> Result<()> {
    use checklist_confirmation::Column as C;
    checklist_confirmation::Entity::update_many()
        .col_expr(C::EndedOn, sea_orm::sea_query::Expr::value(from))
        .col_expr(C::EndedAt, sea_orm::sea_query::Expr::value(at))
        .filter(C::Programme.eq(programme))
        .filter(C::FinancingId.eq(financing_id))
        .filter(C::RuleCode.eq(rule_code))
        .filter(C::EndedOn.is_null())
        .exec(db)
        .await?;
    Ok(())
}

/// Records that a person confirmed a checklist item on a financing on day `on` (today when not given), taking the
/// place of an earlier confirmation from that day (the earlier one is kept); answers the rule's outcome as
/// `compliance` will show it.
#[allow(clippy::too_many_arguments)]
pub async fn confirm_checklist_item(
    db: &(impl ConnectionTrait + TransactionTrait),
    clock: Clock,
    _caller: &Caller,
    financing: (Programme, i64),
    rule_code: &str,
    confirmed_by: &str,
    note: Option<String>,
    on: Option<chrono::NaiveDate>,
) -> Result<Outcome> {
    // The day a fact took effect, checked as every other fact's is.
    let act = crate::lifecycle::Act {
        caller: Caller::System,
        clock,
    };
    let day = act.effective("on", on, None)?;
    let (programme, id) = financing;
    let prefix = match programme {
        Programme::SocialFuel => "SF-",
        Programme::FcoRural => "FCO-",
    };
    let rule = rules::rule(rule_code)
        .filter(|r| r.kind == RuleKind::Checklist && r.code.starts_with(prefix))
        .ok_or_else(|| {
            ServiceError::bad(
                "ruleCode",
                Message::new(code::NOT_A_CHECKLIST_RULE).arg("code", rule_code),
            )
        })?;
    if confirmed_by.trim().is_empty() {
        return Err(ServiceError::bad(
            "confirmedBy",
            Message::new(code::CONFIRMED_BY_REQUIRED),
        ));
    }
    let exists = match programme {
        Programme::SocialFuel => social_fuel_project::Entity::find_by_id(id).one(db).await?.is_some(),
        Programme::FcoRural => fco_carta::Entity::find_by_id(id).one(db).await?.is_some(),
    };
    if !exists {
        return Err(ServiceError::not_found(
            "financingId",
            Message::new(code::FINANCING_UNKNOWN).arg("id", id),
        ));
    }
    let txn = crate::txn::write(db).await?;
    end_confirmations(&txn, programme, id, rule.code.as_str(), day, clock.now()).await?;
    let c = checklist_confirmation::ActiveModel {
        programme: Set(programme),
        financing_id: Set(id),
        rule_code: Set(rule.code.into()),
        confirmed_by: Set(confirmed_by.trim().into()),
        confirmed_at: Set(clock.now()),
        note: Set(note),
        effective_on: Set(Some(day)),
        ended_on: Set(None),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(rules::outcome(
        rule.code,
        Status::Met,
        format!(
            "confirmed by {} on {}",
            c.confirmed_by,
            authority(programme).show(c.confirmed_at)
        ),
    ))
}
