//! Versioned rule parameters. Every percentage, amount, count and day/month/hour count is data with an effective
//! period and a source instrument; a rule reads the version in force on its reference date.
//!
//! Size: the versioned parameter store and the catalogue of every parameter's initial version (data).

use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::str::FromStr;

/// The unit of a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A percentage (`50` means 50 %).
    Percent,
    /// Reais.
    Brl,
    /// A count (heads, animals per animal).
    Count,
    /// Days.
    Days,
    /// Months.
    Months,
    /// Hours.
    Hours,
    /// Years.
    Years,
}

impl Unit {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Percent => "PERCENT",
            Self::Brl => "BRL",
            Self::Count => "COUNT",
            Self::Days => "DAYS",
            Self::Months => "MONTHS",
            Self::Hours => "HOURS",
            Self::Years => "YEARS",
        }
    }

    /// Why `value` cannot be a value of this unit, if it cannot: days, months, hours, years and counts are whole and
    /// positive, a percentage lies in 0–100, reais are non-negative with at most two decimals.
    pub fn problem(self, value: Decimal) -> Option<&'static str> {
        match self {
            Self::Days | Self::Months | Self::Hours | Self::Years | Self::Count => {
                if !value.fract().is_zero() {
                    Some("a whole number")
                } else if value <= Decimal::ZERO {
                    Some("positive")
                } else if value > Decimal::from(1_000_000) {
                    Some("at most 1,000,000")
                } else {
                    None
                }
            }
            Self::Percent => (value.is_sign_negative() || value > Decimal::ONE_HUNDRED).then_some("between 0 and 100"),
            Self::Brl => {
                if value.is_sign_negative() {
                    Some("not negative")
                } else if value.normalize().scale() > 2 {
                    Some("in reais with at most two decimals (centavos)")
                } else {
                    None
                }
            }
        }
    }

    /// Parses the stored spelling.
    pub fn parse(s: &str) -> Option<Self> {
        [
            Self::Percent,
            Self::Brl,
            Self::Count,
            Self::Days,
            Self::Months,
            Self::Hours,
            Self::Years,
        ]
        .into_iter()
        .find(|u| u.as_str().eq_ignore_ascii_case(s.trim()))
    }
}

/// One version of one parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamVersion {
    /// Parameter key (`SF-SHARE-MIN.NORTHEAST`).
    pub key: String,
    /// The value.
    pub value: Decimal,
    /// Its unit.
    pub unit: Unit,
    /// First day in force.
    pub effective_from: NaiveDate,
    /// Last day in force, if closed.
    pub effective_to: Option<NaiveDate>,
    /// The instrument that set it.
    pub source: String,
}

/// Why a parameter cannot be read or added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No version of the key covers the date.
    #[error("no version of parameter {key} is in force on {on}")]
    NotInForce {
        /// The key.
        key: String,
        /// The date.
        on: NaiveDate,
    },
    /// An unknown key.
    #[error("{0} is not a rule parameter; known keys are listed by `ruleParameters`")]
    UnknownKey(String),
    /// The unit does not match the key's.
    #[error("parameter {key} is in {expected}, not {given}")]
    WrongUnit {
        /// The key.
        key: String,
        /// Its unit.
        expected: &'static str,
        /// The unit given.
        given: String,
    },
    /// A value that is not a non-negative decimal.
    #[error("{0:?} is not a non-negative decimal")]
    BadValue(String),
    /// A value its unit does not allow (a fraction of a day, a share over 100 %).
    #[error("{value} {unit} must be {why}")]
    OutOfUnit {
        /// The value given.
        value: Decimal,
        /// Its unit.
        unit: &'static str,
        /// What the unit requires.
        why: &'static str,
    },
    /// The version in force cannot be used by the rule (stored before values were checked by unit).
    #[error("the version of {key} in force on {on} is {value} {unit}, which is not usable: it must be {why}")]
    Unusable {
        /// The key.
        key: String,
        /// The date.
        on: NaiveDate,
        /// The stored value.
        value: Decimal,
        /// Its unit.
        unit: &'static str,
        /// What the unit requires.
        why: &'static str,
    },
    /// `effective_to` before `effective_from`.
    #[error("the version ends ({to}) before it starts ({from})")]
    BadPeriod {
        /// Start.
        from: NaiveDate,
        /// End.
        to: NaiveDate,
    },
}

impl ParamError {
    /// The status of a rule that cannot read its parameter: not applicable before the parameter's first version (the
    /// rule was not in force on that date), pending while the version in force is unusable.
    pub fn status(&self) -> super::Status {
        match self {
            Self::NotInForce { .. } => super::Status::NotApplicable,
            _ => super::Status::Pending,
        }
    }

    /// Why, for the rule's explanation: not applicable before the parameter's first version, pending while the
    /// version in force is unusable (a catalogue message, rendered in the reader's language).
    pub fn explain(&self) -> super::Explanation {
        match self {
            Self::NotInForce { key, on } => super::Explanation::message("param-not-applicable")
                .arg("key", key)
                .arg("on", on),
            other => super::Explanation::message("param-pending").nested("problem", other.problem()),
        }
    }

    /// What is wrong, as a catalogue message with its values (its English text is the `Display` above).
    pub fn problem(&self) -> super::Explanation {
        use super::Explanation as E;
        match self {
            Self::NotInForce { key, on } => E::message("param-not-in-force").arg("key", key).arg("on", on),
            Self::UnknownKey(key) => E::message("param-unknown-key").arg("key", key),
            Self::WrongUnit { key, expected, given } => E::message("param-wrong-unit")
                .arg("key", key)
                .arg("expected", expected)
                .arg("given", given),
            Self::BadValue(value) => E::message("param-bad-value").arg("value", format!("{value:?}")),
            Self::OutOfUnit { value, unit, why } => E::message("param-out-of-unit")
                .arg("value", value)
                .arg("unit", unit)
                .arg("why", requirement(why)),
            Self::Unusable {
                key,
                on,
                value,
                unit,
                why,
            } => E::message("param-unusable")
                .arg("key", key)
                .arg("on", on)
                .arg("value", value)
                .arg("unit", unit)
                .arg("why", requirement(why)),
            Self::BadPeriod { from, to } => E::message("param-bad-period").arg("from", from).arg("to", to),
        }
    }
}

/// The code of what a unit requires (`Unit::problem`'s words), for the catalogue's texts to choose their words by.
fn requirement(why: &str) -> &'static str {
    match why {
        "a whole number" => "whole",
        "positive" => "positive",
        "at most 1,000,000" => "at-most-million",
        "not negative" => "not-negative",
        "between 0 and 100" => "percent",
        "in reais with at most two decimals (centavos)" => "centavos",
        _ => "other",
    }
}

/// IN MDA nº 2 of 28 September 2005, on the social framing of biodiesel projects, took effect on publication (art.
/// 14), 30 September 2005. (IN MDA nº 01 of 5 July 2005, which its art. 1 III and art. 2 cite, is another instrument:
/// the seal's criteria.)
pub const MDA_2005: &str = "IN MDA nº 2/2005";
/// CDAE/MT normative instruction of 20 March 2019, in force that day (art. 19).
pub const CDAE_2019: &str = "IN CDAE/MT 2019";
/// Fomento's own policy (the flags' look-ahead windows): not in either instrument, in force from 2001.
pub const FOMENTO: &str = "Fomento";
/// The "article" of Fomento's windows.
const WINDOW: &str = "look-ahead window (policy, not in the instrument)";

fn md(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

/// The baseline: the seeds' values, `(key, value, unit, instrument, article)`. The migration that ships them writes
/// the same rows; a test compares the two.
pub const BASELINE: &[(&str, &str, Unit, &str, &str)] = &[
    (
        "SF-SHARE-MIN.NORTHEAST",
        "50",
        Unit::Percent,
        MDA_2005,
        "art. 3 (Nordeste e semi-árido)",
    ),
    (
        "SF-SHARE-MIN.SEMI_ARID",
        "50",
        Unit::Percent,
        MDA_2005,
        "art. 3 (Nordeste e semi-árido)",
    ),
    (
        "SF-SHARE-MIN.SOUTHEAST",
        "30",
        Unit::Percent,
        MDA_2005,
        "art. 3 (Sudeste e Sul)",
    ),
    (
        "SF-SHARE-MIN.SOUTH",
        "30",
        Unit::Percent,
        MDA_2005,
        "art. 3 (Sudeste e Sul)",
    ),
    (
        "SF-SHARE-MIN.NORTH",
        "10",
        Unit::Percent,
        MDA_2005,
        "art. 3 (Norte e Centro-Oeste)",
    ),
    (
        "SF-SHARE-MIN.CENTRE_WEST",
        "10",
        Unit::Percent,
        MDA_2005,
        "art. 3 (Norte e Centro-Oeste)",
    ),
    ("SF-DECISION-30D.DAYS", "30", Unit::Days, MDA_2005, "art. 9"),
    ("SF-EXTERNAL-EVAL-6M.MONTHS", "6", Unit::Months, MDA_2005, "art. 11"),
    ("SF-SEAL-REQUEST-30D.DAYS", "30", Unit::Days, MDA_2005, "art. 11, §1"),
    ("SF-EXTENSION-12M.MONTHS", "6", Unit::Months, MDA_2005, "art. 11, §2"),
    (
        "FCO-CHAMBER-THRESHOLD.AMOUNT",
        "1000000.00",
        Unit::Brl,
        CDAE_2019,
        "art. 2, §3",
    ),
    ("FCO-BB-60D.DAYS", "60", Unit::Days, CDAE_2019, "art. 2, §1"),
    ("FCO-TEMPLATE.DAYS", "90", Unit::Days, CDAE_2019, "art. 2, §2"),
    ("FCO-MONTHLY-LIST.MONTHS", "1", Unit::Months, CDAE_2019, "art. 2, §5"),
    ("FCO-72H-BEFORE.HOURS", "72", Unit::Hours, CDAE_2019, "art. 2, §7"),
    ("FCO-72H-RESULT.HOURS", "72", Unit::Hours, CDAE_2019, "art. 3"),
    ("FCO-VALIDITY-120D.DAYS", "120", Unit::Days, CDAE_2019, "art. 3, sole §"),
    ("FCO-CEILING.AMOUNT", "15000000.00", Unit::Brl, CDAE_2019, "art. 4"),
    (
        "FCO-SIRE-RATIO.DAMS_PER_SIRE",
        "30",
        Unit::Count,
        CDAE_2019,
        "art. 6, I, c",
    ),
    ("FCO-WEANED-2000.HEADS", "2000", Unit::Count, CDAE_2019, "art. 6, §1"),
    (
        "FCO-SWINE-RETENTION.TERM_MONTHS",
        "36",
        Unit::Months,
        CDAE_2019,
        "art. 8, §3",
    ),
    (
        "FCO-SWINE-RETENTION.GRACE_MONTHS",
        "24",
        Unit::Months,
        CDAE_2019,
        "art. 8, §3",
    ),
    (
        "FCO-SWINE-RETENTION.MIN_AGE_MONTHS",
        "6",
        Unit::Months,
        CDAE_2019,
        "art. 8, §3",
    ),
    (
        "FCO-SWINE-RETENTION.MAX_AGE_MONTHS",
        "40",
        Unit::Months,
        CDAE_2019,
        "art. 8, §3",
    ),
    (
        "FCO-BOAR-RATIO.SOWS_PER_BOAR_NATURAL",
        "20",
        Unit::Count,
        CDAE_2019,
        "art. 8, §5",
    ),
    (
        "FCO-BOAR-RATIO.SOWS_PER_BOAR_AI",
        "100",
        Unit::Count,
        CDAE_2019,
        "art. 8, §5",
    ),
    ("FCO-PANTANAL.TERM_MONTHS", "96", Unit::Months, CDAE_2019, "art. 9"),
    ("FCO-PANTANAL.GRACE_MONTHS", "48", Unit::Months, CDAE_2019, "art. 9"),
    ("FCO-PANTANAL.HEADS", "2000", Unit::Count, CDAE_2019, "art. 9"),
    ("FCO-USED-MACHINE.MAX_AGE_YEARS", "4", Unit::Years, CDAE_2019, "art. 11"),
    (
        "FCO-AMENDMENT.MAX_INCREASE",
        "10",
        Unit::Percent,
        CDAE_2019,
        "art. 15, a",
    ),
    (
        "FCO-CLASSIFY.FIXED_MIN_LIFE_YEARS",
        "5",
        Unit::Years,
        CDAE_2019,
        "art. 17",
    ),
    // How many days before a deadline its flag turns WARNING (the `flag-deadlines` job).
    ("SF-DECISION-30D.WARNING_DAYS", "10", Unit::Days, FOMENTO, WINDOW),
    ("SF-EXTERNAL-EVAL-6M.WARNING_DAYS", "30", Unit::Days, FOMENTO, WINDOW),
    ("SF-SEAL-REQUEST-30D.WARNING_DAYS", "10", Unit::Days, FOMENTO, WINDOW),
    ("SF-EXTENSION-12M.WARNING_DAYS", "30", Unit::Days, FOMENTO, WINDOW),
    ("FCO-VALIDITY-120D.WARNING_DAYS", "15", Unit::Days, FOMENTO, WINDOW),
    ("FCO-MONTHLY-LIST.WARNING_DAYS", "10", Unit::Days, FOMENTO, WINDOW),
    ("FCO-BB-60D.WARNING_DAYS", "10", Unit::Days, FOMENTO, WINDOW),
];

/// The day the baseline of a rule code takes effect.
pub fn baseline_from(instrument: &str) -> NaiveDate {
    if instrument == MDA_2005 {
        md(2005, 9, 30)
    } else if instrument == FOMENTO {
        md(2001, 1, 1)
    } else {
        md(2019, 3, 20)
    }
}

/// All versions of all parameters.
#[derive(Debug, Clone, Default)]
pub struct Params {
    versions: Vec<ParamVersion>,
    /// The positions of each key's versions in `versions`: a pass over a million financings looks a parameter up
    /// several times per financing, and scanning every version of every key was 6 % of the flag pass.
    by_key: super::FxMap<String, Vec<usize>>,
    /// What is wrong with each version's value for its unit, if anything, worked out once (with `versions`).
    problems: Vec<Option<&'static str>>,
    /// Each version's value as a whole number, if it is one, worked out once (with `versions`): a pass over 1M
    /// cartas asks for a dozen counts per carta, each converting the decimal and back.
    whole: Vec<Option<u32>>,
}

/// The value as a whole number, if it is one.
fn whole(v: Decimal) -> Option<u32> {
    use rust_decimal::prelude::ToPrimitive;
    v.to_u32().filter(|n| Decimal::from(*n) == v)
}

impl Params {
    /// From stored versions.
    pub fn new(versions: Vec<ParamVersion>) -> Self {
        let mut by_key: super::FxMap<String, Vec<usize>> = super::FxMap::default();
        for (i, v) in versions.iter().enumerate() {
            by_key.entry(v.key.clone()).or_default().push(i);
        }
        let problems = versions.iter().map(|v| v.unit.problem(v.value)).collect();
        let whole = versions.iter().map(|v| whole(v.value)).collect();
        Self {
            versions,
            by_key,
            problems,
            whole,
        }
    }

    /// The seeds' values only (for tests and for a database that has no table yet).
    pub fn baseline() -> Self {
        Self::new(
            BASELINE
                .iter()
                .map(|(key, value, unit, instrument, article)| ParamVersion {
                    key: (*key).into(),
                    value: Decimal::from_str(value).unwrap_or_default(),
                    unit: *unit,
                    effective_from: baseline_from(instrument),
                    effective_to: None,
                    source: format!("{instrument}, {article}"),
                })
                .collect(),
        )
    }

    /// Adds a version (used by tests and imports before storing).
    pub fn push(&mut self, v: ParamVersion) {
        self.by_key.entry(v.key.clone()).or_default().push(self.versions.len());
        self.problems.push(v.unit.problem(v.value));
        self.whole.push(whole(v.value));
        self.versions.push(v);
    }

    /// The version in force on `on`: among those whose period covers the date, the one that started last (the one
    /// recorded last when two start the same day). A version whose value its unit does not allow is refused with
    /// [`ParamError::Unusable`], so the rule that needs it waits rather than judging with it.
    pub fn version(&self, key: &str, on: NaiveDate) -> Result<&ParamVersion, ParamError> {
        self.in_force(key, on).map(|i| &self.versions[i])
    }

    /// The position in `versions` of [`Params::version`].
    fn in_force(&self, key: &str, on: NaiveDate) -> Result<usize, ParamError> {
        let (i, v) = self
            .by_key
            .get(key)
            .into_iter()
            .flatten()
            .map(|&i| (i, &self.versions[i]))
            .filter(|(_, v)| v.effective_from <= on && v.effective_to.is_none_or(|to| on <= to))
            .max_by_key(|(i, v)| (v.effective_from, *i))
            .ok_or_else(|| ParamError::NotInForce { key: key.into(), on })?;
        match self.problems.get(i).copied().flatten() {
            Some(why) => Err(ParamError::Unusable {
                key: key.into(),
                on,
                value: v.value,
                unit: v.unit.as_str(),
                why,
            }),
            None => Ok(i),
        }
    }

    /// The value in force on `on`.
    pub fn value(&self, key: &str, on: NaiveDate) -> Result<Decimal, ParamError> {
        self.version(key, on).map(|v| v.value)
    }

    /// A whole-number value in force on `on` (days, months, counts).
    pub fn count(&self, key: &str, on: NaiveDate) -> Result<u32, ParamError> {
        let i = self.in_force(key, on)?;
        let version = &self.versions[i];
        let v = version.value;
        self.whole
            .get(i)
            .copied()
            .flatten()
            .ok_or_else(|| ParamError::Unusable {
                key: key.into(),
                on,
                value: v,
                unit: version.unit.as_str(),
                why: "a whole number",
            })
    }

    /// Every version.
    pub fn all(&self) -> &[ParamVersion] {
        &self.versions
    }
}

/// Checks a new version against the baseline's keys and units before it is stored.
pub fn validate_new_version(
    key: &str,
    value: &str,
    unit: &str,
    from: NaiveDate,
    to: Option<NaiveDate>,
) -> Result<(Decimal, Unit), ParamError> {
    let (_, _, expected, _, _) = BASELINE
        .iter()
        .find(|(k, ..)| *k == key)
        .ok_or_else(|| ParamError::UnknownKey(key.into()))?;
    let given = Unit::parse(unit).ok_or_else(|| ParamError::WrongUnit {
        key: key.into(),
        expected: expected.as_str(),
        given: unit.into(),
    })?;
    if given != *expected {
        return Err(ParamError::WrongUnit {
            key: key.into(),
            expected: expected.as_str(),
            given: unit.into(),
        });
    }
    let v = Decimal::from_str(value.trim()).map_err(|_| ParamError::BadValue(value.into()))?;
    if let Some(why) = given.problem(v) {
        return Err(ParamError::OutOfUnit {
            value: v,
            unit: given.as_str(),
            why,
        });
    }
    if let Some(to) = to
        && to < from
    {
        return Err(ParamError::BadPeriod { from, to });
    }
    Ok((v, given))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn values_are_checked_by_their_unit() {
        let bad = [
            ("SF-DECISION-30D.DAYS", "30.5", "DAYS", "a whole number"),
            ("SF-DECISION-30D.DAYS", "0", "DAYS", "positive"),
            ("SF-EXTERNAL-EVAL-6M.MONTHS", "-6", "MONTHS", "positive"),
            ("FCO-72H-RESULT.HOURS", "1.5", "HOURS", "a whole number"),
            ("FCO-WEANED-2000.HEADS", "2000.1", "COUNT", "a whole number"),
            ("SF-SHARE-MIN.NORTH", "140", "PERCENT", "between 0 and 100"),
            ("SF-SHARE-MIN.NORTH", "-1", "PERCENT", "between 0 and 100"),
            (
                "FCO-CEILING.AMOUNT",
                "1.001",
                "BRL",
                "in reais with at most two decimals (centavos)",
            ),
        ];
        for (key, value, unit, why) in bad {
            match validate_new_version(key, value, unit, md(2027, 1, 1), None) {
                Err(ParamError::OutOfUnit { why: w, .. }) => assert_eq!(w, why, "{key} = {value}"),
                other => panic!("{key} = {value}: {other:?}"),
            }
        }
        for (key, value, unit) in [
            ("SF-SHARE-MIN.NORTH", "0", "PERCENT"),
            ("SF-SHARE-MIN.NORTH", "100", "PERCENT"),
            ("SF-SHARE-MIN.NORTH", "12.5", "PERCENT"),
            ("FCO-CEILING.AMOUNT", "0", "BRL"),
            ("FCO-CEILING.AMOUNT", "15000000.10", "BRL"),
            ("SF-DECISION-30D.DAYS", "45", "DAYS"),
        ] {
            assert!(
                validate_new_version(key, value, unit, md(2027, 1, 1), None).is_ok(),
                "{key} = {value}"
            );
        }
    }

    #[test]
    fn an_unusable_version_in_force_is_refused_on_read_and_the_rule_says_why() {
        let mut p = Params::baseline();
        p.push(ParamVersion {
            key: "SF-DECISION-30D.DAYS".into(),
            value: dec!(30.5),
            unit: Unit::Days,
            effective_from: md(2020, 1, 1),
            effective_to: None,
            source: "a typo".into(),
        });
        assert_eq!(p.count("SF-DECISION-30D.DAYS", md(2019, 12, 31)), Ok(30));
        let e = p.count("SF-DECISION-30D.DAYS", md(2020, 1, 1)).expect_err("unusable");
        assert_eq!(e.status(), crate::rules::Status::Pending);
        assert!(e.explain().contains("30.5 DAYS"), "{}", e.explain());
        let early = p
            .count("SF-DECISION-30D.DAYS", md(2005, 9, 29))
            .expect_err("not in force");
        assert_eq!(early.status(), crate::rules::Status::NotApplicable);
    }

    #[test]
    fn a_later_version_applies_from_its_first_day_and_not_before() {
        let mut p = Params::baseline();
        p.push(ParamVersion {
            key: "SF-SHARE-MIN.NORTHEAST".into(),
            value: dec!(30),
            unit: Unit::Percent,
            effective_from: md(2009, 2, 19),
            effective_to: None,
            source: "IN MDA nº 01/2009".into(),
        });
        assert_eq!(p.value("SF-SHARE-MIN.NORTHEAST", md(2009, 2, 18)), Ok(dec!(50)));
        assert_eq!(p.value("SF-SHARE-MIN.NORTHEAST", md(2009, 2, 19)), Ok(dec!(30)));
        assert_eq!(
            p.value("SF-SHARE-MIN.NORTHEAST", md(2004, 1, 1)),
            Err(ParamError::NotInForce {
                key: "SF-SHARE-MIN.NORTHEAST".into(),
                on: md(2004, 1, 1)
            })
        );
        assert_eq!(p.count("FCO-VALIDITY-120D.DAYS", md(2020, 1, 1)), Ok(120));
    }

    #[test]
    fn new_versions_are_checked_against_known_keys_and_units() {
        assert!(validate_new_version("FCO-CEILING.AMOUNT", "20000000.00", "BRL", md(2027, 1, 1), None).is_ok());
        assert_eq!(
            validate_new_version("FCO-CEILING", "1", "BRL", md(2027, 1, 1), None),
            Err(ParamError::UnknownKey("FCO-CEILING".into()))
        );
        assert!(matches!(
            validate_new_version("FCO-CEILING.AMOUNT", "1", "DAYS", md(2027, 1, 1), None),
            Err(ParamError::WrongUnit { .. })
        ));
        assert!(matches!(
            validate_new_version("FCO-CEILING.AMOUNT", "-1", "BRL", md(2027, 1, 1), None),
            Err(ParamError::OutOfUnit {
                why: "not negative",
                ..
            })
        ));
        assert_eq!(
            validate_new_version("FCO-CEILING.AMOUNT", "abc", "BRL", md(2027, 1, 1), None),
            Err(ParamError::BadValue("abc".into()))
        );
        assert!(matches!(
            validate_new_version("FCO-CEILING.AMOUNT", "1", "BRL", md(2027, 1, 1), Some(md(2026, 1, 1))),
            Err(ParamError::BadPeriod { .. })
        ));
    }
}
