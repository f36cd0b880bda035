//! What happened to a flag, as the `flagRaised` subscribers ([`crate::events`]) and the webhook receivers
//! ([`crate::webhooks`]) hear of it.

use serde::{Deserialize, Serialize};

/// What happened to a flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FlagChange {
    /// Raised.
    Raised,
    /// Its severity, due day or facts changed (a warning turned violation).
    Changed,
    /// Resolved, by the facts or by a person.
    Resolved,
}

/// One flag's news.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagEvent {
    /// The flag's number.
    pub id: i64,
    /// What happened.
    pub change: FlagChange,
}
