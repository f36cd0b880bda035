//! Facts kept in versions (a carta's items, a project's acquisitions and contract proposals): each row says when and
//! by whom it was recorded and, once corrected or removed, when, by which version and why (migrations 18–20), and the
//! days it held: from `effective_on` to the day before `ended_on` (migration 46).

use super::{assistance_plan, contract_proposal, fco_carta_item, feedstock_acquisition, project_document};
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
    /// The first day this version holds (none: from the start).
    fn effective_on(&self) -> Option<NaiveDate>;
    /// The day a later version or a removal took its place (none: still holds).
    fn ended_on(&self) -> Option<NaiveDate>;
    /// How `effective_on` was set when no person gave it (none: given).
    fn dated_by(&self) -> Option<&str>;

    /// Whether this version is the one in force now.
    fn is_current(&self) -> bool {
        self.superseded_at().is_none()
    }

    /// Whether this version is the one that held on `day`: in effect by then and not yet replaced or removed (the days
    /// the fact took effect, not the moments it was typed: a 2016 proposal recorded in 2026 held in 2016).
    fn known_on(&self, day: NaiveDate) -> bool {
        self.effective_on().is_none_or(|d| d <= day) && self.ended_on().is_none_or(|d| d > day)
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
            fn effective_on(&self) -> Option<NaiveDate> {
                self.effective_on
            }
            fn ended_on(&self) -> Option<NaiveDate> {
                self.ended_on
            }
            fn dated_by(&self) -> Option<&str> {
                self.dated_by.as_deref()
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

/// A project's documents are kept in versions too, but a document received holds from the day it was received for
/// good: one received again is a new version, and the earlier one still counts as received on its day (the dossier as
/// filed stays as filed).
impl Versioned for project_document::Model {
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
    fn effective_on(&self) -> Option<NaiveDate> {
        Some(self.received_on)
    }
    fn ended_on(&self) -> Option<NaiveDate> {
        None
    }
    fn dated_by(&self) -> Option<&str> {
        None
    }
}
