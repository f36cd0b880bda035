//! A project's feedstock acquisitions per year (IN MDA 2/2005, arts. 3–4): what SF-SHARE-MIN and its companions read.
//! Edited freely until MDA decides on the framing; corrected by new versions with a reason after it
//! ([`crate::versions`]).

use crate::{
    ServiceError,
    lifecycle::{Act, find_project, money},
    messages::{self, Message, code},
    versions,
};
use entity::{
    domain::{Document, Quantity},
    feedstock_acquisition, party, social_fuel_project,
    vocab::{SocialFuelStage, SupplierKind},
};
use rust_decimal::Decimal;
use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, TransactionTrait};

type Result<T> = std::result::Result<T, ServiceError>;

/// An acquisition as a person states it.
#[derive(Debug, Clone)]
pub struct Acquisition {
    /// The acquisition year.
    pub year: i32,
    /// From whom.
    pub supplier_kind: SupplierKind,
    /// The supplier's CPF or CNPJ, when it is a party Fomento knows.
    pub supplier_document: Option<String>,
    /// Crop.
    pub crop: String,
    /// Quantity in kilograms.
    pub quantity_kg: Decimal,
    /// Cost paid, in reais (own production and sharecropping are valued by the rules).
    pub cost: Decimal,
    /// Perennial crops: contracted area in hectares (art. 4).
    pub perennial_area_ha: Option<Decimal>,
    /// Perennial crops: average productivity coefficient in kg/ha (art. 4).
    pub productivity_kg_per_ha: Option<Decimal>,
    /// Who published the coefficient (MAPA, Conab, Embrapa).
    pub coefficient_source: Option<String>,
}

fn quantity(field: &'static str, d: Decimal) -> Result<Quantity> {
    if d.is_sign_negative() && !d.is_zero() {
        return Err(ServiceError::bad(field, Message::new(code::AMOUNT_NEGATIVE)));
    }
    Quantity::from_decimal(d).map_err(|e| ServiceError::bad(field, messages::amount(&e)))
}

/// Whether MDA has decided on the project's framing: its acquisitions are then corrected by new versions.
fn decided(p: &social_fuel_project::Model) -> bool {
    !matches!(p.stage, SocialFuelStage::Draft | SocialFuelStage::Filed)
}

async fn checked(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    a: Acquisition,
) -> Result<feedstock_acquisition::ActiveModel> {
    let this_year = chrono::Datelike::year(&act.day(None));
    if !(2005..=this_year + 1).contains(&a.year) {
        return Err(ServiceError::bad(
            "input.year",
            Message::new(code::ACQUISITION_YEAR_INVALID)
                .arg("value", a.year)
                .arg("last", this_year + 1),
        ));
    }
    if a.crop.trim().is_empty() {
        return Err(ServiceError::bad("input.crop", Message::new(code::FIELD_EMPTY)));
    }
    let perennial = match (a.perennial_area_ha, a.productivity_kg_per_ha) {
        (None, None) => None,
        (Some(area), Some(coef)) => {
            if a.coefficient_source.as_deref().is_none_or(|s| s.trim().is_empty()) {
                return Err(ServiceError::bad(
                    "input.coefficientSource",
                    Message::new(code::COEFFICIENT_SOURCE_REQUIRED),
                ));
            }
            Some((
                quantity("input.perennialAreaHa", area)?,
                quantity("input.productivityKgPerHa", coef)?,
            ))
        }
        _ => {
            return Err(ServiceError::bad(
                "input.productivityKgPerHa",
                Message::new(code::PERENNIAL_INCOMPLETE),
            ));
        }
    };
    let supplier = match a.supplier_document.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        None => None,
        Some(d) => {
            let doc =
                Document::parse(d).map_err(|e| ServiceError::bad("input.supplierDocument", messages::document(&e)))?;
            let p = party::Entity::find()
                .filter(party::Column::Document.eq(doc.as_str()))
                .one(db)
                .await?
                .ok_or_else(|| {
                    ServiceError::not_found(
                        "input.supplierDocument",
                        Message::new(code::PARTY_UNKNOWN).arg("document", doc),
                    )
                })?;
            Some(p.id)
        }
    };
    Ok(feedstock_acquisition::ActiveModel {
        year: Set(a.year),
        supplier_kind: Set(a.supplier_kind),
        supplier_party_id: Set(supplier),
        crop: Set(a.crop.trim().into()),
        quantity_kg: Set(quantity("input.quantityKg", a.quantity_kg)?),
        cost: Set(money("input.cost", a.cost)?),
        perennial_area_ha: Set(perennial.map(|p| p.0)),
        productivity_kg_per_ha: Set(perennial.map(|p| p.1)),
        coefficient_source: Set(perennial.and(a.coefficient_source.map(|s| s.trim().to_owned()))),
        ..Default::default()
    })
}

/// Records an acquisition of a project; after MDA's decision it needs a reason.
pub async fn add(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    a: Acquisition,
    reason: Option<&str>,
    effective_on: Option<chrono::NaiveDate>,
) -> Result<feedstock_acquisition::Model> {
    let p = find_project(db, "input.projectId", project_id).await?;
    let reason = versions::reason(decided(&p), reason)?;
    let day = act.effective("input.effectiveOn", effective_on, None)?;
    let mut row = checked(db, act, a).await?;
    row.project_id = Set(p.id);
    versions::add(db, act, row, reason, day).await
}

/// The acquisition version `id` (in force or not), when `caller` may read its project: another bank's answers as
/// none.
pub async fn version(
    db: &impl ConnectionTrait,
    caller: &crate::Caller,
    id: i64,
) -> Result<Option<feedstock_acquisition::Model>> {
    crate::access::read_scope(caller)?;
    let Some(a) = feedstock_acquisition::Entity::find_by_id(id).one(db).await? else {
        return Ok(None);
    };
    let p = social_fuel_project::Entity::find_by_id(a.project_id).one(db).await?;
    Ok(p.filter(|p| caller.scope().sees_bank(p.bank_id)).map(|_| a))
}

async fn in_force(
    db: &(impl ConnectionTrait + TransactionTrait),
    id: i64,
) -> Result<(feedstock_acquisition::Model, social_fuel_project::Model)> {
    let a = feedstock_acquisition::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| {
            ServiceError::not_found(
                "input.acquisitionId",
                Message::new(code::ACQUISITION_UNKNOWN).arg("id", id),
            )
        })?;
    versions::in_force::<feedstock_acquisition::ActiveModel>(&a, "input.acquisitionId")?;
    let p = find_project(db, "input.acquisitionId", a.project_id).await?;
    Ok((a, p))
}

/// Changes an acquisition by a new version, the old one kept ([`versions::change`]); after MDA's decision with the
/// reason.
pub async fn update(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    a: Acquisition,
    reason: Option<&str>,
    effective_on: Option<chrono::NaiveDate>,
) -> Result<feedstock_acquisition::Model> {
    let (old, p) = in_force(db, id).await?;
    let reason = versions::reason(decided(&p), reason)?;
    let mut row = checked(db, act, a).await?;
    row.project_id = Set(p.id);
    versions::change(db, act, old, row, decided(&p), reason, effective_on).await
}

/// Removes an acquisition: kept and marked removed ([`versions::remove`]); after MDA's decision with the reason.
pub async fn remove(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    reason: Option<&str>,
    ended_on: Option<chrono::NaiveDate>,
) -> Result<social_fuel_project::Model> {
    let (old, p) = in_force(db, id).await?;
    let reason = versions::reason(decided(&p), reason)?;
    versions::remove::<feedstock_acquisition::ActiveModel>(db, act, old, decided(&p), reason, ended_on).await?;
    Ok(p)
}
