//! An item financed by a carta: animals, machines, buildings, working capital (CDAE/MT 2019, arts. 6–17).

use super::vocab::{InvestmentClass, ItemKind};
use crate::domain::{Money, Quantity};
use sea_orm::entity::prelude::*;

/// A carta item row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "fco_carta_item")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The carta.
    pub carta_id: i64,
    /// What the item is.
    pub kind: ItemKind,
    /// Description as filed.
    pub description: String,
    /// Quantity (units, hectares, tonnes).
    pub quantity: Quantity,
    /// Head count, for animals.
    pub head_count: Option<i32>,
    /// Age in months, for animals.
    pub age_months: Option<i32>,
    /// Year of manufacture, for machines (art. 11).
    pub manufacture_year: Option<i32>,
    /// Expected useful life in years, for classification (art. 17).
    pub useful_life_years: Option<i32>,
    /// Pedigree registration of purchased sires: `PO_RGD`, `LA`, `CEIP` (art. 6 I a).
    pub registration: Option<String>,
    /// Fixed, semi-fixed or operating.
    pub investment_class: InvestmentClass,
    /// Value, in centavos.
    pub value: Money,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
