//! Exact amounts. Money is stored as integer centavos (`BIGINT`) on every backend and becomes a
//! [`rust_decimal::Decimal`] at the entity boundary; quantities (hectares, heads, kilograms, coefficients) are stored
//! as integer ten-thousandths. Nothing here goes through floating point.

use rust_decimal::Decimal;
use sea_orm::DeriveValueType;
use std::fmt;

/// Why a decimal cannot become an amount.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    /// More decimal places than the unit holds (money has 2: centavos).
    #[error("{value} has more than {places} decimal places")]
    TooPrecise {
        /// The value given.
        value: Decimal,
        /// How many places the unit keeps.
        places: u32,
    },
    /// Larger than a 64-bit count of the unit.
    #[error("{0} is too large")]
    TooLarge(Decimal),
    /// Negative where only non-negative amounts make sense.
    #[error("{0} is negative")]
    Negative(Decimal),
}

fn to_units(value: Decimal, places: u32) -> Result<i64, AmountError> {
    let scaled = value
        .checked_mul(Decimal::from(10_i64.pow(places)))
        .ok_or(AmountError::TooLarge(value))?;
    if !scaled.fract().is_zero() {
        return Err(AmountError::TooPrecise { value, places });
    }
    i64::try_from(scaled).map_err(|_| AmountError::TooLarge(value))
}

/// An amount of reais, exact to the centavo, stored as a `BIGINT` count of centavos.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, DeriveValueType)]
pub struct Money(pub i64);

impl Money {
    /// Zero reais.
    pub const ZERO: Money = Money(0);

    /// From centavos.
    pub fn from_cents(cents: i64) -> Self {
        Self(cents)
    }

    /// From whole reais.
    pub fn from_reais(reais: i64) -> Self {
        Self(reais * 100)
    }

    /// From a decimal of reais with at most two places; refuses fractions of a centavo instead of rounding them.
    pub fn from_decimal(value: Decimal) -> Result<Self, AmountError> {
        to_units(value, 2).map(Self)
    }

    /// From a non-negative decimal of reais with at most two places.
    pub fn from_non_negative(value: Decimal) -> Result<Self, AmountError> {
        if value.is_sign_negative() && !value.is_zero() {
            return Err(AmountError::Negative(value));
        }
        Self::from_decimal(value)
    }

    /// The count of centavos.
    pub fn cents(self) -> i64 {
        self.0
    }

    /// The amount in reais, with two decimal places.
    pub fn to_decimal(self) -> Decimal {
        Decimal::new(self.0, 2)
    }

    /// Sum, or `None` on overflow.
    pub fn checked_add(self, other: Money) -> Option<Money> {
        self.0.checked_add(other.0).map(Self)
    }
}

impl fmt::Display for Money {
    /// Brazilian notation: `R$ 1.234.567,89`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let neg = self.0 < 0;
        let abs = self.0.unsigned_abs();
        write!(
            f,
            "{}R$ {},{:02}",
            if neg { "-" } else { "" },
            group_thousands(abs / 100),
            abs % 100
        )
    }
}

/// `n` with its thousands grouped the Brazilian way: `1.234.567`.
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(c);
    }
    grouped
}

/// A non-monetary exact quantity (hectares, kilograms, productivity coefficients), stored as a `BIGINT` count of
/// ten-thousandths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, DeriveValueType)]
pub struct Quantity(pub i64);

impl Quantity {
    /// Decimal places kept.
    pub const PLACES: u32 = 4;

    /// From a decimal with at most four places.
    pub fn from_decimal(value: Decimal) -> Result<Self, AmountError> {
        to_units(value, Self::PLACES).map(Self)
    }

    /// The quantity as a decimal.
    pub fn to_decimal(self) -> Decimal {
        Decimal::new(self.0, Self::PLACES).normalize()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn money_round_trips_large_amounts_to_the_centavo() {
        let m = Money::from_decimal(dec!(98765432109876.01)).expect("fits");
        assert_eq!(m.cents(), 9_876_543_210_987_601);
        assert_eq!(m.to_decimal(), dec!(98765432109876.01));
        assert_eq!(m.to_string(), "R$ 98.765.432.109.876,01");
    }

    #[test]
    fn money_refuses_fractions_of_a_centavo_and_overflow() {
        assert_eq!(
            Money::from_decimal(dec!(10.005)),
            Err(AmountError::TooPrecise {
                value: dec!(10.005),
                places: 2
            })
        );
        assert!(matches!(
            Money::from_decimal(dec!(99999999999999999999)),
            Err(AmountError::TooLarge(_))
        ));
        assert_eq!(Money::from_non_negative(dec!(-1)), Err(AmountError::Negative(dec!(-1))));
        assert_eq!(Money::from_decimal(dec!(10.50)), Ok(Money(1050)));
    }

    #[test]
    fn money_displays_in_brazilian_notation() {
        assert_eq!(Money(0).to_string(), "R$ 0,00");
        assert_eq!(Money(99_999_999).to_string(), "R$ 999.999,99");
        assert_eq!(Money(100_000_000).to_string(), "R$ 1.000.000,00");
        assert_eq!(Money(-12_345).to_string(), "-R$ 123,45");
    }

    #[test]
    fn quantity_keeps_four_places() {
        assert_eq!(
            Quantity::from_decimal(dec!(12.3456)).map(Quantity::to_decimal),
            Ok(dec!(12.3456))
        );
        assert!(Quantity::from_decimal(dec!(1.23456)).is_err());
    }
}
