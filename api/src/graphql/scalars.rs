//! Scalars of the public schema: exact decimals and calendar dates.

use async_graphql::{InputValueError, InputValueResult, Scalar, ScalarType, Value};
use chrono::NaiveDate;
use std::str::FromStr;

/// An exact decimal number, written as a string (`"1234567.89"`), so no client rounds money through floating point.
/// As input, a string is preferred; a JSON number is read by its shortest written form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Decimal(pub rust_decimal::Decimal);

/// An exact decimal number written as a string, e.g. "1234567.89". Money is in reais with two decimal places.
#[Scalar(name = "Decimal")]
impl ScalarType for Decimal {
    fn parse(value: Value) -> InputValueResult<Self> {
        let text = match &value {
            Value::String(s) => s.trim().to_owned(),
            Value::Number(n) => n.to_string(),
            _ => return Err(InputValueError::expected_type(value)),
        };
        rust_decimal::Decimal::from_str(&text)
            .or_else(|_| rust_decimal::Decimal::from_scientific(&text))
            .map(Decimal)
            .map_err(|_| InputValueError::custom(format!("{text:?} is not a decimal number")))
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

/// A calendar date in ISO 8601 form, e.g. "2026-12-02". Legal deadlines are counted in whole days.
#[Scalar(name = "Date")]
impl ScalarType for Date {
    fn parse(value: Value) -> InputValueResult<Self> {
        match &value {
            Value::String(s) => NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d")
                .map(Date)
                .map_err(|_| InputValueError::custom(format!("{s:?} is not a date in the form YYYY-MM-DD"))),
            _ => Err(InputValueError::expected_type(value)),
        }
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

/// A UTC timestamp, RFC 3339 (`"2026-12-02T10:31:00Z"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct DateTime(pub chrono::DateTime<chrono::Utc>);

/// A point in time in RFC 3339 form, always in UTC, e.g. "2026-12-02T10:31:00Z".
#[Scalar(name = "DateTime")]
impl ScalarType for DateTime {
    fn parse(value: Value) -> InputValueResult<Self> {
        match &value {
            Value::String(s) => chrono::DateTime::parse_from_rfc3339(s.trim())
                .map(|d| DateTime(d.with_timezone(&chrono::Utc)))
                .map_err(|_| InputValueError::custom(format!("{s:?} is not an RFC 3339 timestamp"))),
            _ => Err(InputValueError::expected_type(value)),
        }
    }

    fn to_value(&self) -> Value {
        Value::String(self.0.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
    }
}

impl From<chrono::DateTime<chrono::Utc>> for DateTime {
    fn from(d: chrono::DateTime<chrono::Utc>) -> Self {
        Self(d)
    }
}
