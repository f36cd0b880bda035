//! A pass's judgement: the flags the facts call for, what each judged subject says now, and the open flags it is
//! compared with.

use super::Key;
use crate::flags::write::Finding;
use crate::flags::write::FlagText;
use chrono::NaiveDate;
use entity::{
    compliance_flag::SubjectKind,
    domain::brasilia_date,
    rules::{
        Explanation, FxMap, FxSet, Outcome, RuleKind, Status,
        params::Params,
        social_fuel::{DeadlineOutcome, DeadlineStatus},
    },
    vocab::{FinancingStatus, Programme},
};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// Every judgement of one pass: the flags called for, and what every judged (subject, rule) says now (the reason a
/// flag no longer called for is resolved).
#[derive(Debug, Default)]
pub struct Judgement {
    /// The flags called for, by identity.
    pub wanted: BTreeMap<Key, Finding>,
    /// What each judged subject and rule with an open flag says now (kept for those only: the rest is not needed,
    /// and a million cartas' explanations would not fit in memory).
    pub explanations: FxMap<Key, Explanation>,
    /// The open flags, whose accounts are kept in `explanations`: a flag still called for as it is (same severity, due
    /// day and facts) is marked there ([`Open::still`]) rather than kept in `wanted`, so that the day-to-day pass,
    /// where nearly every flag is open and unchanged, holds no second copy of them.
    pub(super) open: FxMap<Key, Open>,
    /// Their subjects: an account of any other subject is not even written.
    pub(super) watched: FxSet<(SubjectKind, i64)>,
    /// The subjects with an open flag on a checked rule or checklist item (not a deadline): their rules' accounts
    /// are written as they are judged. Those with open flags on deadlines only are judged without texts, their
    /// deadlines then with them.
    pub(super) with_texts: FxSet<(SubjectKind, i64)>,
    /// Financings, banks and meetings judged.
    pub judged: u32,
    /// The number of each carta whose approval is flagged (FCO-VALIDITY-120D), for the dashboard's list.
    pub numbers: HashMap<i64, String>,
}

impl Judgement {
    /// A judgement keeping the accounts of these open flags.
    pub(super) fn watching(open: FxMap<Key, Open>) -> Self {
        let outcome = |rule: &str| {
            entity::rules::rule(rule).is_none_or(|r| matches!(r.kind, RuleKind::Checked | RuleKind::Checklist))
        };
        Self {
            watched: open.keys().map(|k| (k.0, k.1)).collect(),
            with_texts: open.keys().filter(|k| outcome(&k.2)).map(|k| (k.0, k.1)).collect(),
            open,
            ..Self::default()
        }
    }

    /// Whether the facts call for this flag: a new or changed one (in `wanted`), or an open one as it is.
    pub(super) fn wants(&self, key: &Key) -> bool {
        self.wanted.contains_key(key) || self.open.get(key).is_some_and(|o| o.still)
    }

    /// The subjects of this kind with an open flag, by id.
    pub(super) fn watched_ids(&self, kind: SubjectKind) -> impl Iterator<Item = i64> + '_ {
        self.watched.iter().filter(move |(k, _)| *k == kind).map(|(_, id)| *id)
    }

    /// Whether a subject has an open flag, so that what its rules say is kept.
    pub(super) fn watches(&self, kind: SubjectKind, id: i64) -> bool {
        self.watched.contains(&(kind, id))
    }

    /// A flag the facts call for: kept when new or changed, marked on its open flag when it is as it stands.
    pub(super) fn want(&mut self, key: Key, w: Finding) {
        if let Some(open) = self.open.get_mut(&key) {
            open.still = open.same(w.severity, w.due_on, w.fingerprint.as_deref());
            if open.still {
                self.wanted.remove(&key);
                return;
            }
        }
        self.wanted.insert(key, w);
    }

    pub(super) fn say(&mut self, key: Key, what: impl Into<Explanation>) {
        if self.open.contains_key(&key) {
            self.explanations.entry(key).or_insert_with(|| what.into());
        }
    }

    pub(super) fn judged(&self, key: &Key) -> bool {
        self.wants(key) || self.explanations.contains_key(key)
    }

    /// A financing that is not flagged (a draft, denied or ended): what each of its rules says is why its flags
    /// are resolved.
    pub(super) fn closed(
        &mut self,
        kind: SubjectKind,
        id: i64,
        outcomes: &[Outcome],
        deadlines: &[DeadlineOutcome],
        why: &Explanation,
    ) {
        if !self.watches(kind, id) {
            return;
        }
        for code in outcomes.iter().map(|o| o.code).chain(deadlines.iter().map(|d| d.code)) {
            self.say((kind, id, code.to_owned(), String::new()), why.clone());
        }
    }

    /// A deadline's flag, if it calls for one.
    pub(super) fn deadline(
        &mut self,
        windows: &Windows,
        (kind, id, occurrence): (SubjectKind, i64, String),
        programme: Programme,
        financing_id: Option<i64>,
        d: &DeadlineOutcome,
    ) {
        let key = (kind, id, d.code.to_owned(), occurrence);
        match windows.severity(d) {
            Some((severity, due)) => self.want(
                key,
                Finding {
                    programme,
                    financing_id,
                    severity,
                    due_on: Some(due),
                    legal_basis: Cow::Borrowed(d.legal_basis),
                    message: FlagText::Said(d.note.clone()),
                    fingerprint: Some(format!("{severity}|{due}")),
                },
            ),
            None if self.watches(kind, id) => self.say(key, d.note.clone()),
            None => {}
        }
    }

    /// A rule outcome's flag, if it is violated (deadline and bank-level rules are judged as deadlines).
    pub(super) fn outcome(
        &mut self,
        (kind, id): (SubjectKind, i64),
        programme: Programme,
        financing_id: Option<i64>,
        o: &Outcome,
    ) {
        if !judged_as_outcome(o) {
            return;
        }
        if o.status != Status::Violated && !self.watches(kind, id) {
            return;
        }
        let key = (kind, id, o.code.to_owned(), String::new());
        if o.status == Status::Violated {
            self.want(
                key,
                Finding {
                    programme,
                    financing_id,
                    severity: "VIOLATION",
                    due_on: None,
                    legal_basis: Cow::Borrowed(o.legal_basis),
                    // The explanation's language-free form: its English text, or its message id and values.
                    fingerprint: Some(format!("VIOLATION|{}", o.explanation)),
                    message: FlagText::Said(o.explanation.clone()),
                },
            );
        } else {
            self.say(key, o.explanation.clone());
        }
    }
}

/// Whether an outcome is flagged as a rule outcome (a checked rule or a checklist item); deadlines and bank-level
/// rules are flagged as deadlines.
pub(super) fn judged_as_outcome(o: &Outcome) -> bool {
    matches!(o.kind, RuleKind::Checked | RuleKind::Checklist)
}

/// Whether a financing in this status is flagged: not while a draft, nor once denied or ended.
pub(super) fn live(status: FinancingStatus) -> bool {
    !matches!(
        status,
        FinancingStatus::Draft | FinancingStatus::Denied | FinancingStatus::Ended
    )
}

/// The look-ahead window of each deadline rule on the day judged (`<RULE>.WARNING_DAYS`, a versioned parameter),
/// read once per pass rather than once per deadline judged.
pub(super) struct Windows {
    pub(super) as_of: NaiveDate,
    pub(super) days: entity::rules::FxMap<&'static str, u32>,
}

impl Windows {
    pub(super) fn on(params: &Params, as_of: NaiveDate) -> Self {
        let days = entity::rules::RULES
            .iter()
            .filter_map(|r| {
                let code = r.code.as_str();
                Some((code, params.count(&format!("{code}.WARNING_DAYS"), as_of).ok()?))
            })
            .collect();
        Self { as_of, days }
    }

    /// `VIOLATION` for a deadline passed without its act, `WARNING` for one due within its window; with the due day.
    pub(super) fn severity(&self, d: &DeadlineOutcome) -> Option<(&'static str, NaiveDate)> {
        let due = d.due.or(d.due_at.map(brasilia_date))?;
        if d.done {
            return None;
        }
        match d.status {
            DeadlineStatus::Overdue => Some(("VIOLATION", due)),
            DeadlineStatus::Pending if due >= self.as_of => {
                let window = *self.days.get(d.code)?;
                ((due - self.as_of).num_days() <= i64::from(window)).then_some(("WARNING", due))
            }
            _ => None,
        }
    }
}

/// Whether a judgement calls for a flag, whose message is its explanation: a rule violated, or a deadline overdue or
/// due within its window.
pub(super) fn calls_for_texts(windows: &Windows, outcomes: &[Outcome], deadlines: &[DeadlineOutcome]) -> bool {
    outcomes.iter().any(|o| o.status == Status::Violated) || deadlines.iter().any(|d| windows.severity(d).is_some())
}

/// An open flag of the job's, as far as a pass compares it with what is wanted: its severity, due day and
/// fingerprint (as a hash: a pass holds every open flag, and the day-to-day pass compares each once).
#[derive(Debug)]
pub(super) struct Open {
    pub(super) id: i64,
    /// `VIOLATION` or `WARNING` (empty for anything else, which no flag called for equals).
    pub(super) severity: &'static str,
    pub(super) due_on: Option<NaiveDate>,
    pub(super) fingerprint: Option<u64>,
    /// Whether the pass found it called for as it is ([`Judgement::want`]).
    pub(super) still: bool,
}

impl Open {
    pub(super) fn new(id: i64, severity: &str, due_on: Option<NaiveDate>, fingerprint: Option<&str>) -> Self {
        Self {
            id,
            severity: match severity {
                "VIOLATION" => "VIOLATION",
                "WARNING" => "WARNING",
                _ => "",
            },
            due_on,
            fingerprint: fingerprint.map(fingerprint_hash),
            still: false,
        }
    }

    /// Whether a flag called for with this severity, due day and fingerprint is this one as it stands.
    pub(super) fn same(&self, severity: &str, due_on: Option<NaiveDate>, fingerprint: Option<&str>) -> bool {
        self.severity == severity
            && self.due_on == due_on
            && fingerprint.is_some()
            && self.fingerprint == fingerprint.map(fingerprint_hash)
    }
}

/// A fingerprint's hash (SipHash with fixed keys: facts people record are in it, so not a hash one can aim at).
pub(super) fn fingerprint_hash(fingerprint: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::hash::DefaultHasher>::default().hash_one(fingerprint)
}
