//! The time, as use cases see it: the system's, or a fixed one in tests and jobs run for a given instant.

use chrono::{DateTime, NaiveDate, Utc};

/// A source of the current time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Clock {
    /// The system clock.
    #[default]
    System,
    /// Always this instant.
    Fixed(DateTime<Utc>),
}

impl Clock {
    /// Now.
    pub fn now(self) -> DateTime<Utc> {
        match self {
            Clock::System => Utc::now(),
            Clock::Fixed(t) => t,
        }
    }
}

impl Clock {
    /// Today in Brasília (UTC−3, no daylight saving since 2019): the legal date of an act recorded now, and the
    /// default `asOf`.
    pub fn today(self) -> NaiveDate {
        entity::domain::brasilia_date(self.now())
    }
}
