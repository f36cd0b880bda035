//! One typed cell of a table, as the exports write it (CSV, XLSX) and the dashboard keeps it: a module of its own so
//! that both read it without reading each other.

use chrono::{DateTime, NaiveDate, Utc};
use entity::domain::Authority;
use rust_decimal::Decimal;

/// One cell, typed.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Cell {
    /// Text.
    Text(String),
    /// A whole number.
    Int(i64),
    /// Money in centavos, shown with two decimals.
    Money(i64),
    /// A day.
    Date(NaiveDate),
    /// An instant, shown in Brasília's local time (with its offset in text).
    Time(DateTime<Utc>),
    /// A percentage, in points (`46.75` is 46.75 %), shown with two decimals.
    Percent(Decimal),
    /// A decimal number (hours), shown with two decimals.
    Decimal(Decimal),
    /// Nothing.
    Empty,
}

impl Cell {
    /// The cell as text: numbers plain, money, percentages and decimals with two decimals after `point`, days
    /// `YYYY-MM-DD`, instants in Brasília's local time with their offset (RFC 3339), nothing empty.
    pub fn text(&self, point: char) -> String {
        match self {
            Cell::Text(t) => t.clone(),
            Cell::Int(n) => n.to_string(),
            Cell::Money(cents) => {
                let sign = if *cents < 0 { "-" } else { "" };
                let (units, frac) = (cents.unsigned_abs() / 100, cents.unsigned_abs() % 100);
                format!("{sign}{units}{point}{frac:02}")
            }
            Cell::Date(d) => d.to_string(),
            Cell::Time(t) => Authority::Mda
                .local(*t)
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
            Cell::Percent(v) | Cell::Decimal(v) => format!("{:.2}", v.round_dp(2)).replace('.', &point.to_string()),
            Cell::Empty => String::new(),
        }
    }
}
