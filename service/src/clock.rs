//! The time, as use cases see it: the system's, or a fixed one in tests and jobs run for a given instant.

use chrono::{DateTime, Utc};

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
