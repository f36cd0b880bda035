//! Boundary cases of the FCO acts' rule codes (written in another branch; the lead merges them).

/// The rule codes this file's boundary cases cover.
pub(super) fn covered() -> Vec<&'static str> {
    vec![]
}
