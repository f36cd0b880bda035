//! Boundary cases for the rule codes, one on each side of each boundary, grouped by area; each module lists the codes
//! it pins (`covered`).

mod fco_acts;

/// Every code a module says it pins is a code of the catalogue.
#[test]
fn the_codes_pinned_are_codes_of_the_catalogue() {
    for code in fco_acts::covered() {
        assert!(super::rule(code).is_some(), "{code}");
    }
}
