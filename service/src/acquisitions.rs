//! A project's feedstock acquisitions per year (IN MDA 2/2005, arts. 3–4): what SF-SHARE-MIN and its companions read.
//! Edited freely until MDA decides on the framing; corrected by new versions with a reason after it
//! ([`crate::versions`]).

use crate::{
    ServiceError,
    lifecycle::{Act, money},
    messages::{self, Message, code},
    versions,
};
use entity::{
    domain::{Document, Quantity},
    feedstock_acquisition, party, social_fuel_project,
    vocab::SupplierKind,
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

/// A project's feedstock acquisitions, kept in versions once MDA has decided on the framing ([`versions::record`],
/// [`versions::correct`], [`versions::withdraw`], [`versions::visible`]).
impl versions::Fact for feedstock_acquisition::ActiveModel {
    type Stated = Acquisition;
    type Parent = social_fuel_project::Entity;
    const FIELD: &'static str = "input.acquisitionId";
    const PARENT_FIELD: &'static str = "input.projectId";
    const UNKNOWN: &'static str = code::ACQUISITION_UNKNOWN;
    const PARENT_UNKNOWN: &'static str = code::PROJECT_UNKNOWN;

    fn parent(id: i64) -> sea_orm::Select<social_fuel_project::Entity> {
        social_fuel_project::Entity::find_by_id(id)
    }
    fn parent_id(m: &feedstock_acquisition::Model) -> i64 {
        m.project_id
    }
    fn parent_keys(p: &social_fuel_project::Model) -> (i64, i64) {
        (p.id, p.bank_id)
    }
    fn decided(p: &social_fuel_project::Model) -> bool {
        crate::commitments::decided(p)
    }
    async fn checked(
        db: &(impl ConnectionTrait + TransactionTrait),
        act: &Act,
        a: Acquisition,
        project: i64,
    ) -> Result<Self> {
        let mut row = checked(db, act, a).await?;
        row.project_id = Set(project);
        Ok(row)
    }
}
