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
    /// When this version was recorded (none: from before versions, known from the start).
    pub recorded_at: Option<DateTimeUtc>,
    /// Who recorded it.
    pub recorded_by: Option<String>,
    /// When it was corrected or removed (none: current).
    pub superseded_at: Option<DateTimeUtc>,
    /// The version that corrected it (none when it was removed or is current).
    pub superseded_by: Option<i64>,
    /// Why it was corrected or removed.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Versioned;
    use crate::vocab::{InvestmentClass, ItemKind};
    use chrono::{NaiveDate, TimeZone, Utc};

    fn version(effective: Option<NaiveDate>, ended: Option<NaiveDate>) -> Model {
        // Typed on 5 December 2026, whatever days it held.
        let typed = Utc.with_ymd_and_hms(2026, 12, 5, 14, 0, 0).single().expect("instant");
        Model {
            id: 1,
            carta_id: 1,
            kind: ItemKind::Sire,
            description: "touro".into(),
            quantity: crate::domain::Quantity(10_000),
            head_count: Some(1),
            age_months: None,
            manufacture_year: None,
            useful_life_years: None,
            registration: None,
            investment_class: InvestmentClass::SemiFixed,
            value: crate::domain::Money(100),
            recorded_at: Some(typed),
            recorded_by: None,
            superseded_at: ended.map(|_| typed),
            superseded_by: None,
            change_reason: None,
            effective_on: effective,
            ended_on: ended,
            dated_by: None,
        }
    }

    #[test]
    fn a_version_holds_from_the_day_it_took_effect_until_the_day_it_was_replaced_whenever_it_was_typed() {
        let day = |d| NaiveDate::from_ymd_opt(2016, 3, d).expect("date");
        let v = version(Some(day(1)), Some(day(20)));
        assert!(
            v.known_on(day(1)) && v.known_on(day(19)),
            "typed in 2026, held in March 2016"
        );
        assert!(
            !v.known_on(NaiveDate::from_ymd_opt(2016, 2, 29).expect("date")),
            "not yet in effect"
        );
        assert!(!v.known_on(day(20)), "replaced that day");
        assert!(!v.is_current());
        let old = version(None, None);
        assert!(
            old.known_on(day(1)) && old.is_current(),
            "rows with no day count from the start"
        );
    }
}
