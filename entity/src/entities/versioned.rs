//! Facts kept in versions (a carta's items, a project's acquisitions and contract proposals): each row says when and
//! by whom it was recorded and, once corrected or removed, when, by which version and why (migrations 18–20).

use super::{assistance_plan, contract_proposal, fco_carta_item, feedstock_acquisition};
use chrono::{DateTime, NaiveDate, Utc};

/// A row of a fact kept in versions.
pub trait Versioned {
    /// When this version was recorded (none: from before versions were kept, known from the start).
    fn recorded_at(&self) -> Option<DateTime<Utc>>;
    /// Who recorded it.
    fn recorded_by(&self) -> Option<&str>;
    /// When it was corrected or removed (none: in force).
    fn superseded_at(&self) -> Option<DateTime<Utc>>;
    /// The version that corrected it (none when removed or in force).
    fn superseded_by(&self) -> Option<i64>;
    /// Why it was recorded after the decision, corrected or removed.
    fn change_reason(&self) -> Option<&str>;

    /// Whether this version is the one in force now.
    fn is_current(&self) -> bool {
        self.superseded_at().is_none()
    }

    /// Whether this version was the one known on `day` (recorded by then, not yet superseded), in Brasília.
    fn known_on(&self, day: NaiveDate) -> bool {
        crate::domain::known_on(self.recorded_at(), self.superseded_at(), day)
    }
}

macro_rules! versioned {
    ($($module:ident),*) => {$(
        impl Versioned for $module::Model {
            fn recorded_at(&self) -> Option<DateTime<Utc>> {
                self.recorded_at
            }
            fn recorded_by(&self) -> Option<&str> {
                self.recorded_by.as_deref()
            }
            fn superseded_at(&self) -> Option<DateTime<Utc>> {
                self.superseded_at
            }
            fn superseded_by(&self) -> Option<i64> {
                self.superseded_by
            }
            fn change_reason(&self) -> Option<&str> {
                self.change_reason.as_deref()
            }
        }
    )*};
}

versioned!(
    fco_carta_item,
    feedstock_acquisition,
    contract_proposal,
    assistance_plan
);
