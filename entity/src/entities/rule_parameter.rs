//! A version of a rule parameter: percentages, amounts, counts and day/month/hour counts are data with an effective
//! period and a source instrument, never literals in code.

use sea_orm::entity::prelude::*;

/// A parameter version row. `value` is an exact decimal written as text, so no backend rounds it.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "rule_parameter")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Parameter key (`SF-SHARE-MIN.NORTHEAST`).
    pub key: String,
    /// The rule it belongs to (`SF-SHARE-MIN`).
    pub rule_code: String,
    /// Exact decimal value, as text (`50`, `1000000.00`).
    pub value: String,
    /// `PERCENT`, `BRL`, `COUNT`, `DAYS`, `MONTHS`, `HOURS` or `YEARS`.
    pub unit: String,
    /// First day in force.
    pub effective_from: Date,
    /// Last day in force, if superseded.
    pub effective_to: Option<Date>,
    /// The instrument that set it (`IN MDA nº 2/2005, art. 3`).
    pub legal_source: String,
    /// When this version was recorded.
    pub created_at: DateTimeUtc,
    /// When it was withdrawn or corrected (it is then no longer read by the rules, and kept as history).
    pub withdrawn_at: Option<DateTimeUtc>,
    /// Why it was withdrawn or corrected.
    pub withdrawal_reason: Option<String>,
    /// The version that corrected it.
    pub replaced_by: Option<i64>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// The version as the rule layer reads it; `None` if the stored value or unit is malformed.
    pub fn version(&self) -> Option<crate::rules::params::ParamVersion> {
        Some(crate::rules::params::ParamVersion {
            key: self.key.clone(),
            value: self.value.parse().ok()?,
            unit: crate::rules::params::Unit::parse(&self.unit)?,
            effective_from: self.effective_from,
            effective_to: self.effective_to,
            source: self.legal_source.clone(),
        })
    }
}

impl Entity {
    /// Every version in force (not withdrawn or corrected), as the rule layer reads them, in the order recorded.
    pub async fn params(db: &impl ConnectionTrait) -> Result<crate::rules::params::Params, DbErr> {
        use sea_orm::{QueryFilter, QueryOrder};
        let rows = Self::find()
            .filter(Column::WithdrawnAt.is_null())
            .order_by_asc(Column::Id)
            .all(db)
            .await?;
        Ok(crate::rules::params::Params::new(
            rows.iter().filter_map(Model::version).collect(),
        ))
    }
}
