//! The boundary table: for every rule code, the cases that pin its boundary, one just inside and one just outside,
//! each judged by the rule's own pure function. One file per area lists its codes' cases and the codes they cover.

mod fco;
mod fco_acts;
mod sf;

use super::RULES;
use std::collections::BTreeSet;

/// The codes the three areas' cases cover.
fn covered() -> BTreeSet<&'static str> {
    fco::covered()
        .into_iter()
        .chain(sf::covered())
        .chain(fco_acts::covered())
        .collect()
}

/// Catalogue codes with no boundary case.
fn uncovered() -> Vec<&'static str> {
    let covered = covered();
    RULES
        .iter()
        .map(|r| r.code.as_str())
        .filter(|c| !covered.contains(c))
        .collect()
}

#[test]
fn every_rule_code_of_the_catalogue_has_boundary_cases_on_both_sides() {
    let missing = uncovered();
    assert!(
        missing.is_empty(),
        "{} rule code(s) with no boundary cases: {}",
        missing.len(),
        missing.join(", ")
    );
}

#[test]
fn every_code_a_boundary_file_covers_is_a_catalogued_rule() {
    for code in covered() {
        assert!(super::rule(code).is_some(), "{code} is not in the catalogue");
    }
}

#[test]
fn every_fco_rule_code_has_boundary_cases_on_both_sides() {
    let covered: BTreeSet<&str> = fco::covered().into_iter().collect();
    let missing: Vec<&str> = RULES
        .iter()
        .map(|r| r.code.as_str())
        .filter(|c| c.starts_with("FCO-") && !covered.contains(c))
        .collect();
    assert!(
        missing.is_empty(),
        "FCO rule codes with no boundary cases: {}",
        missing.join(", ")
    );
}

/// Every SF-* code of the catalogue is pinned by the social-fuel half of the table, and it pins nothing else.
#[test]
fn every_social_fuel_code_is_pinned_at_its_boundary() {
    let covered = sf::covered();
    let missing: Vec<&str> = RULES
        .iter()
        .map(|r| r.code.as_str())
        .filter(|c| c.starts_with("SF-") && !covered.contains(c))
        .collect();
    assert!(missing.is_empty(), "SF codes with no boundary case: {missing:?}");
    for c in &covered {
        assert!(
            super::rule(c).is_some() && c.starts_with("SF-"),
            "{c} is not a catalogued SF code"
        );
    }
}
