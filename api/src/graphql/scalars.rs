//! Scalars of the public schema: exact decimals and calendar dates.

use async_graphql::{InputValueError, InputValueResult, Scalar, ScalarType, Value};
use chrono::NaiveDate;
use std::str::FromStr;

/// An exact decimal number, written as a string (`"1234567.89"`), so no client rounds money through floating point.
/// Exactly an optional minus sign, digits, and optionally a point and more digits: no spaces, no `+`, no thousands
/// separators, no exponent. A JSON number is read by its written form, under the same rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Decimal(pub rust_decimal::Decimal);

/// The text of a `Decimal` input when it has the one accepted form.
fn decimal_text(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let body = text.strip_prefix('-').unwrap_or(&text);
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(int) && frac.is_none_or(digits)).then_some(text)
}

/// An exact decimal number written as a string: an optional minus sign, digits, optionally a point and digits
/// ("1234567.89", "-0.5"); no spaces, "+", thousands separators or exponent. Money is in reais with at most two
/// decimal places.
#[Scalar(name = "Decimal")]
impl ScalarType for Decimal {
    fn parse(value: Value) -> InputValueResult<Self> {
        let Some(text) = decimal_text(&value) else {
            return Err(InputValueError::custom(format!(
                "{value} is not a decimal number written as \"1234.56\" (digits, an optional point, no spaces, \
                 separators or exponent)"
            )));
        };
        rust_decimal::Decimal::from_str(&text)
            .map(Decimal)
            .map_err(|_| InputValueError::custom(format!("{text:?} is out of the decimal range")))
    }

    fn is_valid(value: &Value) -> bool {
        decimal_text(value).is_some_and(|t| rust_decimal::Decimal::from_str(&t).is_ok())
    }

    fn to_value(&self) -> Value {
        Value::String(self.0.to_string())
    }
}

impl From<rust_decimal::Decimal> for Decimal {
    fn from(d: rust_decimal::Decimal) -> Self {
        Self(d)
    }
}

/// A calendar date without time zone, ISO 8601 (`"2026-12-02"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date(pub NaiveDate);

/// A date in exactly the form `YYYY-MM-DD` (four, two and two digits) that exists in the calendar.
fn date_of(value: &Value) -> Option<NaiveDate> {
    let Value::String(s) = value else {
        return None;
    };
    let b = s.as_bytes();
    let shape = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    shape.then(|| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()).flatten()
}

/// A calendar date in ISO 8601 form, exactly "YYYY-MM-DD" (e.g. "2026-12-02"), a day that exists. Legal deadlines are
/// counted in whole days.
#[Scalar(name = "Date")]
impl ScalarType for Date {
    fn parse(value: Value) -> InputValueResult<Self> {
        date_of(&value)
            .map(Date)
            .ok_or_else(|| InputValueError::custom(format!("{value} is not a date in the form YYYY-MM-DD that exists")))
    }

    fn is_valid(value: &Value) -> bool {
        date_of(value).is_some()
    }

    fn to_value(&self) -> Value {
        Value::String(self.0.format("%Y-%m-%d").to_string())
    }
}

impl From<NaiveDate> for Date {
    fn from(d: NaiveDate) -> Self {
        Self(d)
    }
}

/// A point in time, shown on the clock of the authority it concerns: RFC 3339 with that authority's offset then
/// (`"2026-12-02T07:31:00-03:00"` in Brasília for MDA, `-04:00` in Cuiabá for the CDAE and Mato Grosso's banks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime(pub chrono::DateTime<chrono::Utc>, pub entity::domain::Authority);

impl DateTime {
    /// A time of MDA or the social-fuel programme (Brasília).
    pub fn mda(t: chrono::DateTime<chrono::Utc>) -> Self {
        Self(t, entity::domain::Authority::Mda)
    }

    /// A time of the CDAE, SEDEC or a bank reporting FCO in Mato Grosso (Cuiabá).
    pub fn cdae(t: chrono::DateTime<chrono::Utc>) -> Self {
        Self(t, entity::domain::Authority::Cdae)
    }
}

/// A point in time in RFC 3339 form with the offset of the authority it concerns: Brasília (America/Sao_Paulo) for
/// MDA and the social-fuel programme, Cuiabá (America/Cuiaba) for the CDAE, SEDEC and Mato Grosso's banks, e.g.
/// "2026-12-02T07:31:00-03:00". As input any offset is accepted.
#[Scalar(name = "DateTime")]
impl ScalarType for DateTime {
    fn parse(value: Value) -> InputValueResult<Self> {
        match &value {
            Value::String(s) => chrono::DateTime::parse_from_rfc3339(s)
                .map(|d| DateTime::mda(d.with_timezone(&chrono::Utc)))
                .map_err(|_| InputValueError::custom(format!("{s:?} is not an RFC 3339 timestamp"))),
            _ => Err(InputValueError::expected_type(value)),
        }
    }

    fn to_value(&self) -> Value {
        Value::String(self.1.local(self.0).to_rfc3339_opts(chrono::SecondsFormat::Secs, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_take_exactly_their_documented_form() {
        for ok in ["100", "-0.5", "1234567.89", "0"] {
            assert!(<Decimal as ScalarType>::is_valid(&Value::String(ok.into())), "{ok}");
        }
        for bad in ["abc", "1,000.00", "1e5", " 100", "+100", "1.", ".5", "", "-", "100 "] {
            assert!(
                !<Decimal as ScalarType>::is_valid(&Value::String(bad.into())),
                "{bad:?}"
            );
            assert!(
                <Decimal as ScalarType>::parse(Value::String(bad.into())).is_err(),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn dates_take_exactly_their_documented_form() {
        assert!(<Date as ScalarType>::is_valid(&Value::String("2024-02-29".into())));
        for bad in [
            "2025-02-30",
            "2025-13-01",
            "2025-1-1",
            " 2025-01-01",
            "2025-01-01T00:00",
            "01/02/2025",
        ] {
            assert!(!<Date as ScalarType>::is_valid(&Value::String(bad.into())), "{bad:?}");
        }
    }
}
