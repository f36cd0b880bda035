//! Feedstock a biodiesel producer acquired in a year: the terms of the family-farm share (IN MDA nº 2/2005, art. 3, 4).

use super::vocab::SupplierKind;
use crate::domain::{Money, Quantity};
use sea_orm::entity::prelude::*;

/// One acquisition (or own-production / sharecropping entry) of feedstock.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "feedstock_acquisition")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The project.
    pub project_id: i64,
    /// The acquisition year.
    pub year: i32,
    /// From whom.
    pub supplier_kind: SupplierKind,
    /// The supplier, when registered.
    pub supplier_party_id: Option<i64>,
    /// Crop (soy, castor bean, palm, ...).
    pub crop: String,
    /// Quantity in kilograms.
    pub quantity_kg: Quantity,
    /// Cost paid, in centavos; own production and sharecropping are valued by the rules, not here.
    pub cost: Money,
    /// For perennial crops: contracted area in hectares (art. 4).
    pub perennial_area_ha: Option<Quantity>,
    /// For perennial crops: average productivity coefficient in kg/ha over the useful life (art. 4).
    pub productivity_kg_per_ha: Option<Quantity>,
    /// Who published the coefficient (MAPA, Conab, Embrapa).
    pub coefficient_source: Option<String>,
    /// When this version was recorded (none: from before versions, known from the start).
    pub recorded_at: Option<DateTimeUtc>,
    /// Who recorded it.
    pub recorded_by: Option<String>,
    /// When it was corrected or removed (none: current).
    pub superseded_at: Option<DateTimeUtc>,
    /// The version that corrected it (none when it was removed or is current).
    pub superseded_by: Option<i64>,
    /// Why it was corrected or removed, or recorded after MDA's decision.
    pub change_reason: Option<String>,
    /// The first day this version holds (the fact happened, or took this form); none: from the start.
    pub effective_on: Option<Date>,
    /// The day a later version or a removal took its place (the version holds until the day before); none: still
    /// holds.
    pub ended_on: Option<Date>,
    /// How `effective_on` was set when no person gave it (migration 46's best day known); none: given.
    pub dated_by: Option<String>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
