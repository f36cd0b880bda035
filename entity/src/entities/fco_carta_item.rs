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

    fn version(recorded: Option<(u32, u32)>, superseded: Option<(u32, u32)>) -> Model {
        // (day, hour UTC) in March 2026.
        let at = |(d, h): (u32, u32)| Utc.with_ymd_and_hms(2026, 3, d, h, 0, 0).single().expect("instant");
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
            recorded_at: recorded.map(at),
            recorded_by: None,
            superseded_at: superseded.map(at),
            superseded_by: None,
            change_reason: None,
        }
    }

    #[test]
    fn a_version_is_known_from_the_brasilia_day_it_was_recorded_until_the_day_it_was_superseded() {
        let day = |d| NaiveDate::from_ymd_opt(2026, 3, d).expect("date");
        // Recorded on 10 March at 02:00 UTC: still 9 March in Brasília.
        let v = version(Some((10, 2)), Some((20, 15)));
        assert!(v.known_on(day(9)) && v.known_on(day(19)));
        assert!(!v.known_on(day(8)), "not yet recorded");
        assert!(!v.known_on(day(20)), "superseded that day");
        assert!(!v.is_current());
        let old = version(None, None);
        assert!(
            old.known_on(day(1)) && old.is_current(),
            "rows from before versions count from the start"
        );
    }
}
