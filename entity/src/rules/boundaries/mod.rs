//! The boundary table: for every rule code of the catalogue, the pure rule evaluated just inside and just outside its
//! boundary, one case on each side. Each programme's half lists the codes it pins; a test asks that none is missing.

mod sf;

/// Every SF-* code of the catalogue is pinned by the social-fuel half of the table, and it pins nothing else.
#[test]
fn every_social_fuel_code_is_pinned_at_its_boundary() {
    let covered = sf::covered();
    let missing: Vec<&str> = super::RULES
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
