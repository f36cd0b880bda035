//! The banks (agentes financeiros): which programmes each operates and whether it has MDA's technical-cooperation
//! agreement (IN MDA 2/2005, art. 7). A bank that operates FCO sends the monthly list (FCO-MONTHLY-LIST).

use crate::{
    ServiceError,
    messages::{Message, code},
};
use entity::bank;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter,
    TransactionTrait,
};

type Result<T> = std::result::Result<T, ServiceError>;

pub use entity::bank::BANCO_DO_BRASIL;

/// What a bank is, as stated.
#[derive(Debug, Clone, Default)]
pub struct BankFacts {
    /// Its name.
    pub name: Option<String>,
    /// Whether it operates the social-fuel programme.
    pub serves_social_fuel: Option<bool>,
    /// Whether it operates FCO Rural.
    pub serves_fco: Option<bool>,
    /// Whether it has MDA's technical-cooperation agreement.
    pub mda_cooperation_agreement: Option<bool>,
}

/// Registers a bank under its code (`BB`, `SICREDI`: what bank scripts and uploads name it by).
pub async fn create(
    db: &(impl ConnectionTrait + TransactionTrait),
    code_given: &str,
    facts: BankFacts,
) -> Result<bank::Model> {
    let code_norm = code_given.trim().to_uppercase();
    if code_norm.is_empty() || !code_norm.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(ServiceError::bad(
            "input.code",
            Message::new(code::BANK_CODE_INVALID).arg("value", format!("{code_given:?}")),
        ));
    }
    let name = facts.name.as_deref().map(str::trim).unwrap_or("");
    if name.is_empty() {
        return Err(ServiceError::bad("input.name", Message::new(code::FIELD_EMPTY)));
    }
    if bank::Entity::find()
        .filter(bank::Column::Code.eq(code_norm.as_str()))
        .one(db)
        .await?
        .is_some()
    {
        return Err(ServiceError::bad(
            "input.code",
            Message::new(code::BANK_CODE_TAKEN).arg("code", &code_norm),
        ));
    }
    Ok(bank::ActiveModel {
        code: Set(code_norm),
        name: Set(name.into()),
        serves_social_fuel: Set(facts.serves_social_fuel.unwrap_or(false)),
        serves_fco: Set(facts.serves_fco.unwrap_or(false)),
        mda_cooperation_agreement: Set(facts.mda_cooperation_agreement.unwrap_or(false)),
        ..Default::default()
    }
    .insert(db)
    .await?)
}

/// Records Banco do Brasil's 60-day report to the CPACR (FCO-BB-60D counts the next one from it).
pub async fn record_periodic_report(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &crate::lifecycle::Act,
    bank_id: i64,
    received_on: chrono::NaiveDate,
    period: (Option<chrono::NaiveDate>, Option<chrono::NaiveDate>),
    reference: Option<String>,
) -> Result<entity::bank_periodic_report::Model> {
    let b = bank::Entity::find_by_id(bank_id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found("input.bankId", Message::new(code::BANK_ID_UNKNOWN)))?;
    if b.code != BANCO_DO_BRASIL {
        return Err(ServiceError::bad(
            "input.bankId",
            Message::new(code::BANK_NOT_BB).arg("code", &b.code),
        ));
    }
    if let (Some(from), Some(to)) = period
        && from > to
    {
        return Err(ServiceError::bad(
            "input.periodFrom",
            Message::new(code::DATE_RANGE_INVERTED).arg("other", "input.periodTo"),
        ));
    }
    Ok(entity::bank_periodic_report::ActiveModel {
        bank_id: Set(b.id),
        received_on: Set(received_on),
        period_from: Set(period.0),
        period_to: Set(period.1),
        reference: Set(reference.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty())),
        recorded_at: Set(act.clock.now()),
        recorded_by: Set(act.caller.actor()),
        ..Default::default()
    }
    .insert(db)
    .await?)
}

/// Changes what is stated of a bank (its code stays: reports and scripts name it).
pub async fn update(db: &(impl ConnectionTrait + TransactionTrait), id: i64, facts: BankFacts) -> Result<bank::Model> {
    let b = bank::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found("input.bankId", Message::new(code::BANK_ID_UNKNOWN)))?;
    let mut a = b.into_active_model();
    if let Some(n) = facts.name {
        if n.trim().is_empty() {
            return Err(ServiceError::bad("input.name", Message::new(code::FIELD_EMPTY)));
        }
        a.name = Set(n.trim().into());
    }
    if let Some(v) = facts.serves_social_fuel {
        a.serves_social_fuel = Set(v);
    }
    if let Some(v) = facts.serves_fco {
        a.serves_fco = Set(v);
    }
    if let Some(v) = facts.mda_cooperation_agreement {
        a.mda_cooperation_agreement = Set(v);
    }
    Ok(a.update(db).await?)
}
