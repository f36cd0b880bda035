//! The `flag-deadlines` use case: judge every deadline and rule outcome as of a day, in one pass over the data, and
//! keep `compliance_flag` in step with what the facts call for.
//!
//! - **Identity**: one open flag per (subject, rule, source, occurrence). The subject is the financing, the bank (its
//!   monthly list, whose month is the occurrence; Banco do Brasil's 60-day report), the chamber meeting (its result
//!   within 72 h) or the economic group (its ceiling, listing its cartas). A partial unique index enforces it.
//! - **Severity**: `VIOLATION` when a deadline passed without its act or a rule is violated; `WARNING` when a deadline
//!   falls due within its look-ahead window (`<RULE>.WARNING_DAYS`, a versioned parameter read on the day judged).
//! - **Resolution**: a flag the facts no longer call for is resolved, with why (the deadline's or the rule's own
//!   account). A person's resolution holds while the facts behind the flag (its fingerprint) stay the same; when they
//!   change, a new flag is raised.
//! - **Once**: the whole comparison runs in one transaction, behind an advisory lock on PostgreSQL, so a rerun or a
//!   second worker changes nothing that the first already did.

use crate::{
    Caller, ServiceError,
    compliance::{self, Basis, Preloaded},
    messages::{Message, code as msg},
    parameters,
};
use chrono::{DateTime, Months, NaiveDate, Utc};
use entity::rules::calendar::Calendar;
use entity::{
    bank, compliance_flag,
    compliance_flag::SubjectKind,
    domain::brasilia_date,
    fco_carta, party,
    rules::{
        Explanation, Outcome, RuleKind, Status, code, params::Params, social_fuel::DeadlineOutcome,
        social_fuel::DeadlineStatus,
    },
    vocab::{FcoCartaStage, FinancingStatus, Programme},
};
use futures::StreamExt;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, IntoActiveModel,
    QueryFilter, QueryOrder, QuerySelect, StreamTrait, TransactionSession, TransactionTrait,
};
// The sets and maps keyed by flag identities and ids are looked up several times for every carta a pass judges:
// hashed by Fx rather than SipHash (with SipHash, a fifth of the judging thread's time on the day-to-day pass).
use entity::rules::{FxMap, FxSet};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

type Result<T> = std::result::Result<T, ServiceError>;

/// What the job writes as the flags' source and as the resolver of the flags it clears.
pub const SOURCE: &str = "job:flag-deadlines";

/// How many projects are judged per batch of statements, and how many carta ids the dashboard's pass spans per batch
/// on SQLite (a batch's facts are a few MiB; fewer, larger batches spend less on round trips).
const BATCH: u64 = 2000;

/// How many carta ids the deadlines-only pass (the dashboard's) spans per statement on PostgreSQL: it reads no other
/// fact, and its candidates are found by an index scan whose fixed cost per statement a larger batch spreads (on 1M
/// cartas, 143k candidates took about 1.07 s in 72 statements of 2,000, 0.70 s in 8 of 20,000). SQLite, whose rows
/// cost more memory in the driver and which gained nothing, spans [`BATCH`].
const DEADLINE_BATCH: u64 = 20_000;

/// A flag's identity: subject, its id, rule, occurrence (the source is the job's).
pub type Key = (SubjectKind, i64, String, String);

/// A flag the facts call for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    /// Programme of the rule.
    pub programme: Programme,
    /// The financing, when the subject is one.
    pub financing_id: Option<i64>,
    /// `WARNING` or `VIOLATION`.
    pub severity: &'static str,
    /// The day it falls (or fell) due.
    pub due_on: Option<NaiveDate>,
    /// Legal basis (the rule's own text, or a stored flag's).
    pub legal_basis: Cow<'static, str>,
    /// What was found.
    pub message: FlagText,
    /// The facts behind it.
    pub fingerprint: String,
}

/// A flag's message as a pass has it: what a rule said (stored as its message id and values, or as its English
/// text for a rule not converted yet), or an open flag's stored message, kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagText {
    /// A rule's explanation or a deadline's note.
    Said(Explanation),
    /// The columns of an open flag, as stored.
    Stored {
        /// `message`.
        message: String,
        /// `message_id`.
        id: Option<String>,
        /// `message_args`.
        args: Option<String>,
    },
}

impl FlagText {
    /// The same text as its columns ([`FlagText::Stored`]): a catalogue message's values as one JSON text rather
    /// than a tree of values (a few hundred bytes less a flag, for a pass that keeps its new flags until the end).
    fn compact(&mut self) {
        if let Self::Said(_) = self {
            let Self::Said(said) = std::mem::replace(self, Self::Said(Explanation::default())) else {
                return;
            };
            let (message, id, args) = Self::Said(said).columns();
            *self = Self::Stored { message, id, args };
        }
    }

    /// The `message`, `message_id` and `message_args` columns: a catalogue message as its id and values (JSON),
    /// `message` empty; an English text as `message`. Nothing is rendered.
    pub fn columns(self) -> (String, Option<String>, Option<String>) {
        match self {
            Self::Said(Explanation::English(text)) => (text, None, None),
            Self::Said(Explanation::Message { id, args }) => (
                String::new(),
                Some(id.to_owned()),
                Some(crate::l10n::args_json(&args).to_string()),
            ),
            Self::Stored { message, id, args } => (message, id, args),
        }
    }
}

/// Every judgement of one pass: the flags called for, and what every judged (subject, rule) says now (the reason a
/// flag no longer called for is resolved).
#[derive(Debug, Default)]
pub struct Judgement {
    /// The flags called for, by identity.
    pub wanted: BTreeMap<Key, Wanted>,
    /// What each judged subject and rule with an open flag says now (kept for those only: the rest is not needed,
    /// and a million cartas' explanations would not fit in memory).
    pub said: FxMap<Key, Explanation>,
    /// The open flags, whose accounts are kept in `said`: a flag still called for as it is (same severity, due day
    /// and facts) is marked there ([`Open::still`]) rather than kept in `wanted`, so that the day-to-day pass, where
    /// nearly every flag is open and unchanged, holds no second copy of them.
    open: FxMap<Key, Open>,
    /// Their subjects: an account of any other subject is not even written.
    watched: FxSet<(SubjectKind, i64)>,
    /// The subjects with an open flag on a checked rule or checklist item (not a deadline): their rules' accounts
    /// are written as they are judged. Those with open flags on deadlines only are judged quietly, their deadlines
    /// then aloud.
    spoken: FxSet<(SubjectKind, i64)>,
    /// Financings, banks and meetings judged.
    pub judged: u32,
    /// The number of each carta whose approval is flagged (FCO-VALIDITY-120D), for the dashboard's list.
    pub numbers: HashMap<i64, String>,
}

impl Judgement {
    /// A judgement keeping the accounts of these open flags.
    fn watching(open: FxMap<Key, Open>) -> Self {
        let outcome = |rule: &str| {
            entity::rules::rule(rule).is_none_or(|r| matches!(r.kind, RuleKind::Checked | RuleKind::Checklist))
        };
        Self {
            watched: open.keys().map(|k| (k.0, k.1)).collect(),
            spoken: open.keys().filter(|k| outcome(&k.2)).map(|k| (k.0, k.1)).collect(),
            open,
            ..Self::default()
        }
    }

    /// Whether the facts call for this flag: a new or changed one (in `wanted`), or an open one as it is.
    fn wants(&self, key: &Key) -> bool {
        self.wanted.contains_key(key) || self.open.get(key).is_some_and(|o| o.still)
    }

    /// The subjects of this kind with an open flag, by id.
    fn watched_ids(&self, kind: SubjectKind) -> impl Iterator<Item = i64> + '_ {
        self.watched.iter().filter(move |(k, _)| *k == kind).map(|(_, id)| *id)
    }

    /// Whether a subject has an open flag, so that what its rules say is kept.
    fn watches(&self, kind: SubjectKind, id: i64) -> bool {
        self.watched.contains(&(kind, id))
    }

    /// A flag the facts call for: kept when new or changed, marked on its open flag when it is as it stands.
    fn want(&mut self, key: Key, w: Wanted) {
        if let Some(open) = self.open.get_mut(&key) {
            open.still = open.same(w.severity, w.due_on, &w.fingerprint);
            if open.still {
                self.wanted.remove(&key);
                return;
            }
        }
        self.wanted.insert(key, w);
    }

    fn say(&mut self, key: Key, what: impl Into<Explanation>) {
        if self.open.contains_key(&key) {
            self.said.entry(key).or_insert_with(|| what.into());
        }
    }

    fn judged(&self, key: &Key) -> bool {
        self.wants(key) || self.said.contains_key(key)
    }

    /// A financing that is not flagged (a draft, denied or ended): what each of its rules says is why its flags
    /// are resolved.
    fn closed(
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
    fn deadline(
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
                Wanted {
                    programme,
                    financing_id,
                    severity,
                    due_on: Some(due),
                    legal_basis: Cow::Borrowed(d.legal_basis),
                    message: FlagText::Said(d.note.clone()),
                    fingerprint: format!("{severity}|{due}"),
                },
            ),
            None if self.watches(kind, id) => self.say(key, d.note.clone()),
            None => {}
        }
    }

    /// A rule outcome's flag, if it is violated (deadline and bank-level rules are judged as deadlines).
    fn outcome(
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
                Wanted {
                    programme,
                    financing_id,
                    severity: "VIOLATION",
                    due_on: None,
                    legal_basis: Cow::Borrowed(o.legal_basis),
                    // The explanation's language-free form: its English text, or its message id and values.
                    fingerprint: format!("VIOLATION|{}", o.explanation),
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
fn judged_as_outcome(o: &Outcome) -> bool {
    matches!(o.kind, RuleKind::Checked | RuleKind::Checklist)
}

/// Whether a financing in this status is flagged: not while a draft, nor once denied or ended.
fn live(status: FinancingStatus) -> bool {
    !matches!(
        status,
        FinancingStatus::Draft | FinancingStatus::Denied | FinancingStatus::Ended
    )
}

/// The look-ahead window of each deadline rule on the day judged (`<RULE>.WARNING_DAYS`, a versioned parameter),
/// read once per pass rather than once per deadline judged.
struct Windows {
    as_of: NaiveDate,
    days: entity::rules::FxMap<&'static str, u32>,
}

impl Windows {
    fn on(params: &Params, as_of: NaiveDate) -> Self {
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
    fn severity(&self, d: &DeadlineOutcome) -> Option<(&'static str, NaiveDate)> {
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
fn speaks(windows: &Windows, outcomes: &[Outcome], deadlines: &[DeadlineOutcome]) -> bool {
    outcomes.iter().any(|o| o.status == Status::Violated) || deadlines.iter().any(|d| windows.severity(d).is_some())
}

/// What a pass judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Every rule and deadline: the flag job.
    Everything,
    /// The deadlines only (what is overdue or due within its window), which read the financing's own row and its
    /// chamber meeting: the dashboard. The accounts of flags no longer called for are not kept.
    Deadlines,
}

/// Judges every project, carta, bank and chamber meeting as of `as_of`, a batch of financings at a time.
pub async fn judge(db: &crate::Db, as_of: NaiveDate) -> Result<Judgement> {
    judge_within(db, as_of, Reach::Everything).await
}

/// Judges what `reach` says as of `as_of`.
pub async fn judge_within(db: &crate::Db, as_of: NaiveDate, reach: Reach) -> Result<Judgement> {
    judge_pass(db, as_of, reach, None, None).await
}

/// The new flags of cartas, handed on as each batch is judged ([`run`] writes them while the judging goes on), and
/// what decides which are new.
struct Outflow {
    /// The identities a person resolved: their flags are left to the comparison at the end, which holds a person's
    /// resolution while the flag's facts stay the same.
    by_person: FxSet<Key>,
    /// Where the new flags go.
    to: tokio::sync::mpsc::Sender<Vec<(Key, Wanted)>>,
}

/// The open flags a pass watches and the identities a person resolved ([`Outflow::by_person`]), as the caller reads
/// them (once it holds the job's lock, [`run`]).
type OpenRead<'a> = futures::future::BoxFuture<'a, Result<(FxMap<Key, Open>, FxSet<Key>)>>;

/// Judges what `reach` says as of `as_of`, watching the open flags `open` reads (read here when not given), and hands
/// on each batch's new carta flags to `outflow` when there is one (they are then not in the judgement).
async fn judge_pass(
    db: &crate::Db,
    as_of: NaiveDate,
    reach: Reach,
    open: Option<OpenRead<'_>>,
    mut outflow: Option<Outflow>,
) -> Result<Judgement> {
    let everything = reach == Reach::Everything;
    // What the cartas are judged on is read side by side, each mostly the database's work (one after the other they
    // kept a core idle): the book (the flag job's pass reads every committed carta at once; the dashboard's reads no
    // group) beside the open flags, the parameters, the calendar and the current economic group of each borrower in
    // one (the FCO-CEILING flag's subject), after which the projects are judged while the first batches of cartas are
    // read. The book is read by a task of its own: in this one it was interleaved with the projects' judging on one
    // thread.
    let book = {
        let db = db.clone();
        crate::Task::spawn(async move {
            if everything {
                crate::facts::GroupBook::whole(&db, as_of)
                    .await
                    .map_err(ServiceError::from)
            } else {
                Ok(crate::facts::GroupBook::default())
            }
        })
    };
    let front = async {
        let watching = async {
            match open {
                Some(read) => read.await,
                None if everything => Ok((open_flags(db).await?, FxSet::default())),
                None => Ok(Default::default()),
            }
        };
        let groups = async {
            if everything {
                current_groups(db).await
            } else {
                Ok(FxMap::default())
            }
        };
        let (params, calendar, (open, by_person), groups) = futures::try_join!(
            async { parameters::params(db).await.map(Arc::new) },
            async { parameters::calendar(db).await.map(Arc::new) },
            watching,
            groups,
        )?;
        if let Some(outflow) = outflow.as_mut() {
            outflow.by_person = by_person;
        }
        let windows = Arc::new(Windows::on(&params, as_of));
        let mut j = Judgement::watching(open);
        // The first batches of cartas are read while the projects are judged.
        let reads = CartaReads::start(db, everything, as_of, &j).await?;
        let basis = Basis {
            params: &params,
            calendar: &calendar,
            quiet: !everything,
        };
        judge_projects(db, &mut j, basis, &windows, as_of, everything).await?;
        Ok::<_, ServiceError>((params, calendar, windows, j, groups, reads))
    };
    let (book, front) = futures::join!(book.finish("reading the economic groups' book"), front);
    let mut book = book??;
    let (params, calendar, windows, j, groups, mut reads) = front?;
    // The dashboard's pass counts deadlines and reads no text: quiet throughout. The flag job's pass judges each
    // carta quietly first, and aloud when something is to be written about it (see `speaks`).
    let basis = Basis {
        params: &params,
        calendar: &calendar,
        quiet: !everything,
    };
    // The cartas are judged on a thread of their own while this task reads the next batch: the judging and the
    // reading (decoding the rows) each took about half of this process's time, one after the other on one thread.
    let mut judge = CartaJudge {
        everything,
        as_of,
        params: params.clone(),
        calendar: calendar.clone(),
        windows: windows.clone(),
        groups,
        j,
        ceiling: BTreeMap::new(),
        closed_said: FxMap::default(),
        outflow,
    };
    let (batches, mut to_judge) = tokio::sync::mpsc::channel::<(Vec<fco_carta::Model>, Preloaded)>(1);
    // Each batch judged is handed back to be dropped by the reading task: freeing a batch (its cartas' texts, its
    // facts, the groups' commitments no other batch shares), most of it allocated on other threads, was a few
    // percent of the judging thread's time, on the pass's longest path.
    let (judged_back, mut to_drop) = tokio::sync::mpsc::unbounded_channel::<Batch>();
    let judging = crate::Task::spawn_blocking(move || -> Result<CartaJudge> {
        while let Some((cartas, facts)) = to_judge.blocking_recv() {
            judge.batch(&cartas, &facts)?;
            if !judge.hand_on(&cartas) {
                // The writing stopped on an error, told by `run`.
                break;
            }
            // Dropped here if the reading task is gone.
            let _ = judged_back.send((cartas, facts));
        }
        judge.outflow = None;
        Ok(judge)
    });
    let read = async {
        while let Some(batch) = reads.next(db).await {
            while let Ok(judged) = to_drop.try_recv() {
                drop(judged);
            }
            let (cartas, facts) = batch?;
            if cartas.is_empty() {
                continue;
            }
            let facts = if everything {
                facts.with_groups(db, &cartas, as_of, &mut book).await?
            } else {
                facts
            };
            if batches.send((cartas, facts)).await.is_err() {
                // The judging stopped on an error, told below.
                break;
            }
        }
        Ok::<_, ServiceError>(())
    }
    .await;
    drop(reads);
    drop(batches);
    let judged = judging.finish("judging the cartas").await?;
    drop(to_drop);
    read?;
    let CartaJudge {
        mut j,
        ceiling,
        groups,
        closed_said,
        ..
    } = judged?;
    for (group, judged) in ceiling {
        group_ceiling(&mut j, group, &judged);
    }
    if everything {
        closed_groups_say(db, &mut j, &groups, &closed_said, as_of).await?;
    }
    // Banks' reports.
    for b in bank::Entity::find().order_by_asc(bank::Column::Id).all(db).await? {
        let deadlines = compliance::bank_deadlines(db, basis, &b, as_of).await?;
        let first = chrono::Datelike::with_day(&as_of, 1).unwrap_or(as_of);
        let mut months = [2u32, 1]
            .into_iter()
            .filter_map(|back| first.checked_sub_months(Months::new(back)));
        for d in &deadlines {
            let occurrence = if d.code == code::FCO_MONTHLY_LIST.as_str() {
                let month = months.next().map(|m| m.format("%Y-%m").to_string()).unwrap_or_default();
                if d.note.value("month") != Some(month.as_str()) {
                    // The rule's order of months changed: key on the due day rather than guess.
                    d.due.map(|d| d.to_string()).unwrap_or_default()
                } else {
                    month
                }
            } else {
                String::new()
            };
            j.deadline(
                &windows,
                (SubjectKind::Bank, b.id, occurrence),
                Programme::FcoRural,
                None,
                d,
            );
        }
        j.judged += 1;
    }
    missing_lists_stay(db, &mut j, as_of).await?;
    Ok(j)
}

/// What a batch read brings: its cartas and their facts but their groups.
type Batch = (Vec<fco_carta::Model>, Preloaded);

/// The batches of cartas of a pass, each read and decoded by a task of its own on the runtime's workers, [`ahead`] at
/// once and handed on in id order: decoding the rows was most of the reading task's work, which kept the judging
/// thread waiting (on 1M cartas it waited 0.5-0.75 s of its 2 s). The first are started as soon as the open flags
/// are known, while the projects are judged and the book is read.
struct CartaReads {
    everything: bool,
    as_of: NaiveDate,
    /// The ranges of ids not yet started.
    ranges: std::vec::IntoIter<(i64, i64)>,
    /// The financings with an open flag of their own, by id: each batch reads its flagged cartas whatever their
    /// stage.
    flagged: Vec<i64>,
    /// The reads started, in id order.
    started: std::collections::VecDeque<crate::Task<Result<Batch>>>,
}

impl CartaReads {
    /// Starts the first reads of a pass watching the open flags of `j`.
    async fn start(db: &crate::Db, everything: bool, as_of: NaiveDate, j: &Judgement) -> Result<Self> {
        let width = match (everything, ConnectionTrait::get_database_backend(db)) {
            (false, DbBackend::Postgres) => DEADLINE_BATCH as i64,
            (false, _) => BATCH as i64,
            (true, DbBackend::Postgres) => POSTGRES_RANGE,
            (true, _) => RANGE,
        };
        let mut flagged: Vec<i64> = j.watched_ids(SubjectKind::Financing).collect();
        flagged.sort_unstable();
        let mut reads = Self {
            everything,
            as_of,
            ranges: id_ranges(db, width).await?.into_iter(),
            flagged,
            started: Default::default(),
        };
        reads.fill(db);
        Ok(reads)
    }

    /// Starts reads until [`ahead`] are under way.
    fn fill(&mut self, db: &crate::Db) {
        while self.started.len() < ahead(db) {
            let Some(range) = self.ranges.next() else { return };
            let from = self.flagged.partition_point(|id| *id <= range.0);
            let to = self.flagged.partition_point(|id| *id <= range.1);
            let flagged = self.flagged[from..to].to_vec();
            let (db, everything, as_of) = (db.clone(), self.everything, self.as_of);
            self.started.push_back(crate::Task::spawn(async move {
                carta_batch(&db, everything, as_of, range, &flagged).await
            }));
        }
    }

    /// The next batch in id order, starting the one after.
    async fn next(&mut self, db: &crate::Db) -> Option<Result<Batch>> {
        let read = self.started.pop_front()?;
        let batch = read.finish("reading a batch of cartas").await.and_then(|r| r);
        self.fill(db);
        Some(batch)
    }
}

/// Judges every social-fuel project into `j` (a closed project without an open flag raises nothing and resolves
/// nothing: its rules are not judged).
async fn judge_projects(
    db: &impl ConnectionTrait,
    j: &mut Judgement,
    basis: Basis<'_>,
    windows: &Windows,
    as_of: NaiveDate,
    everything: bool,
) -> Result<()> {
    let mut after = 0i64;
    loop {
        let projects = crate::facts::projects_after(db, after, BATCH).await?;
        let Some(last) = projects.last() else { break };
        after = last.id;
        let facts = if everything {
            Preloaded::projects(db, &projects).await?
        } else {
            Preloaded::default()
        };
        for p in &projects {
            let stage = p.as_known_on(as_of).stage;
            // A closed project without an open flag raises nothing and resolves nothing: its rules are not judged.
            let full = everything && (live(stage.status()) || j.watches(SubjectKind::Financing, p.id));
            let (outcomes, deadlines) = if full {
                compliance::project(&facts, basis, p, as_of).await?
            } else {
                (Vec::new(), compliance::project_deadlines(basis, p, as_of)?)
            };
            if !live(stage.status()) {
                j.closed(
                    SubjectKind::Financing,
                    p.id,
                    &outcomes,
                    &deadlines,
                    &Explanation::from(format!("the project is {stage:?} on {as_of}")),
                );
                j.judged += 1;
                continue;
            }
            let subject = (SubjectKind::Financing, p.id);
            for o in &outcomes {
                j.outcome(subject, Programme::SocialFuel, Some(p.id), o);
            }
            for d in &deadlines {
                let s = (SubjectKind::Financing, p.id, String::new());
                j.deadline(windows, s, Programme::SocialFuel, Some(p.id), d);
            }
            j.judged += 1;
        }
    }
    Ok(())
}

/// The judging of the cartas, on a thread of its own ([`judge_within`]): what it reads besides the batches, and what
/// it finds.
struct CartaJudge {
    everything: bool,
    as_of: NaiveDate,
    params: Arc<Params>,
    calendar: Arc<Calendar>,
    windows: Arc<Windows>,
    /// The current economic group of each borrower in one.
    groups: FxMap<i64, i64>,
    j: Judgement,
    /// FCO-CEILING as judged on each group's cartas, put together per group at the end ([`group_ceiling`]).
    ceiling: BTreeMap<i64, Vec<CeilingOutcome>>,
    /// The first closed carta judged of each group with an open flag, whose account is the group's
    /// ([`closed_groups_say`]).
    closed_said: FxMap<i64, i64>,
    /// Where the new flags of each batch's cartas go, when they are written as the judging goes on.
    outflow: Option<Outflow>,
}

impl CartaJudge {
    /// Hands on the new flags of these judged cartas (a batch, in id order), taking them out of the judgement: a
    /// carta's own flags are final once it is judged (its group's, its meeting's and its bank's are not: they wait
    /// for the end). A flag is new when none is open for its identity and no person resolved one. Whether the
    /// writing goes on. (The financings between the batch's first and last id are its cartas and projects, judged
    /// before every carta: their flags are final too.)
    fn hand_on(&mut self, cartas: &[fco_carta::Model]) -> bool {
        let (Some(first), Some(last)) = (cartas.first(), cartas.last()) else {
            return true;
        };
        let of_batch = (SubjectKind::Financing, first.id, String::new(), String::new())
            ..(
                SubjectKind::Financing,
                last.id.saturating_add(1),
                String::new(),
                String::new(),
            );
        let Some(outflow) = &self.outflow else {
            // Kept to the end (SQLite's pass writes after judging): as their columns, a third of their size.
            if self.everything {
                for (_, w) in self.j.wanted.range_mut(of_batch) {
                    w.message.compact();
                }
            }
            return true;
        };
        let keys: Vec<Key> = self
            .j
            .wanted
            .range(of_batch)
            .map(|(k, _)| k)
            .filter(|k| !self.j.open.contains_key(*k) && !outflow.by_person.contains(*k))
            .cloned()
            .collect();
        let mut new = Vec::with_capacity(keys.len());
        for k in keys {
            if let Some(w) = self.j.wanted.remove(&k) {
                new.push((k, w));
            }
        }
        new.is_empty() || outflow.to.blocking_send(new).is_ok()
    }

    /// Judges a batch of cartas on their facts, read in full ([`Preloaded::carta`]: no future to wait on).
    fn batch(&mut self, cartas: &[fco_carta::Model], facts: &Preloaded) -> Result<()> {
        let basis = Basis {
            params: &self.params,
            calendar: &self.calendar,
            quiet: !self.everything,
        };
        let as_of = self.as_of;
        for c in cartas {
            // As known on the day: its cycle then (an earlier one before a reopening) names its stage and meeting.
            let known = facts.known_on(c, as_of);
            let (stage, meeting) = (known.stage, known.chamber_meeting_id);
            // A closed carta without an open flag raises nothing and resolves nothing of its own: only its deadlines
            // are read (its chamber meeting's result is still owed).
            let full = self.everything && (live(stage.status()) || self.j.watches(SubjectKind::Financing, c.id));
            let group = self.groups.get(&c.party_id).copied();
            // Judged quietly, and again aloud when something is to be written about the carta: a flag it calls
            // for, or an open flag of it, its group or its meeting, whose account is kept. Of a group's cartas
            // only the first judged speaks for the group's flag (`group_ceiling` reads the first carta's account,
            // or the first over the ceiling's, which is aloud as its violation calls for a flag), so the rest of
            // a flagged group's cartas are judged quietly: every carta of every flagged group aloud was a third
            // of the day-to-day pass.
            let own = self.j.watches(SubjectKind::Financing, c.id);
            let watched = self.j.spoken.contains(&(SubjectKind::Financing, c.id))
                || group.is_some_and(|g| {
                    self.j.watches(SubjectKind::Group, g) && self.ceiling.get(&g).is_none_or(Vec::is_empty)
                })
                || meeting.is_some_and(|m| self.j.watches(SubjectKind::Meeting, m));
            let mut basis = Basis {
                quiet: !watched,
                ..basis
            };
            let (outcomes, deadlines) = loop {
                let judged = if full {
                    facts.carta(basis, c, as_of)?
                } else {
                    (Vec::new(), facts.carta_deadlines(basis, c, as_of)?)
                };
                // A carta with open flags on deadlines only is judged aloud from here too: its deadlines' notes
                // are its flags' messages, or the reason they are resolved.
                if self.everything && basis.quiet && (own || speaks(&self.windows, &judged.0, &judged.1)) {
                    basis.quiet = false;
                    // A group's ceiling is one flag whose message is its first carta over the ceiling: the
                    // texts of the group's later cartas over it are not read.
                    let ceiling_said = group
                        .and_then(|g| self.ceiling.get(&g))
                        .is_some_and(|list| list.iter().any(|o| o.violated));
                    let speaking = |o: &Outcome| {
                        o.status == Status::Violated
                            && judged_as_outcome(o)
                            && !(ceiling_said && o.code == code::FCO_CEILING.as_str())
                    };
                    if !judged.0.iter().any(speaking) {
                        // Only a deadline calls for a flag (or the group's ceiling, already told): its note is
                        // the message, and the deadlines read the carta and its meeting alone
                        // (`carta_deadlines`), so they are worked out again aloud without every rule's text. The
                        // outcomes' texts are not read: none else is violated, and the carta, its group and its
                        // meeting have no open flag (else it was judged aloud).
                        let deadlines = facts.carta_deadlines(basis, c, as_of)?;
                        break (judged.0, deadlines);
                    }
                    continue;
                }
                break judged;
            };
            if !live(stage.status()) {
                // A closed carta is not flagged; its chamber meeting still owes its result (FCO-72H-RESULT).
                let why = Explanation::from(format!("the carta is {stage:?} on {as_of}"));
                let (theirs, result): (Vec<_>, Vec<_>) = deadlines
                    .into_iter()
                    .partition(|d| d.code != code::FCO_72H_RESULT.as_str());
                self.j.closed(SubjectKind::Financing, c.id, &outcomes, &theirs, &why);
                if let (Some(m), Some(d)) = (meeting, result.first()) {
                    self.j.deadline(
                        &self.windows,
                        (SubjectKind::Meeting, m, String::new()),
                        Programme::FcoRural,
                        None,
                        d,
                    );
                }
                if let Some(g) = group.filter(|g| self.j.watches(SubjectKind::Group, *g)) {
                    self.closed_said.entry(g).or_insert(c.id);
                    self.j.say(ceiling_key(g), why.clone());
                }
                self.j.judged += 1;
                continue;
            }
            for o in &outcomes {
                match group {
                    Some(g) if o.code == code::FCO_CEILING.as_str() => {
                        let violated = o.status == Status::Violated;
                        let list = self.ceiling.entry(g).or_default();
                        if violated || list.is_empty() {
                            list.push(CeilingOutcome {
                                id: c.id,
                                number: c.number.clone(),
                                violated,
                                legal_basis: o.legal_basis,
                                explanation: o.explanation.clone(),
                            });
                        }
                    }
                    // A rule met (or pending) of a carta without an open flag says nothing: not looked up again for
                    // each of its two dozen outcomes.
                    _ if !own && o.status != Status::Violated => {}
                    _ => self
                        .j
                        .outcome((SubjectKind::Financing, c.id), Programme::FcoRural, Some(c.id), o),
                }
            }
            for d in &deadlines {
                if d.code == code::FCO_VALIDITY_120D.as_str() && stage != FcoCartaStage::Approved {
                    // The 120 days run for an approved carta only; contracted or expired, it is settled.
                    if self.j.watches(SubjectKind::Financing, c.id) {
                        self.j.say(
                            (SubjectKind::Financing, c.id, d.code.to_owned(), String::new()),
                            d.note.clone(),
                        );
                    }
                    continue;
                }
                let subject = if d.code == code::FCO_72H_RESULT.as_str() {
                    let Some(m) = meeting else { continue };
                    ((SubjectKind::Meeting, m, String::new()), None)
                } else {
                    ((SubjectKind::Financing, c.id, String::new()), Some(c.id))
                };
                self.j
                    .deadline(&self.windows, subject.0, Programme::FcoRural, subject.1, d);
                if d.code == code::FCO_VALIDITY_120D.as_str()
                    && self
                        .j
                        .wants(&(SubjectKind::Financing, c.id, d.code.to_owned(), String::new()))
                {
                    self.j.numbers.insert(c.id, c.number.clone());
                }
            }
            self.j.judged += 1;
        }
        Ok(())
    }
}

/// Whether the flag pass reads a carta in its batches: one live by its stored stage, or with an act dated after
/// `as_of` (its stage on the day may differ), or on a chamber meeting's agenda (whose result is owed whatever becomes
/// of the carta). The others (drafts, unfavourable and expired cartas) raise nothing: they are read only when they
/// have an open flag of their own, or to say why their group's flag is resolved ([`closed_groups_say`]).
fn in_batches(acts: &fco_carta::Acts, meeting: Option<i64>, as_of: NaiveDate) -> bool {
    live(acts.stage.status()) || acts.after(as_of) || meeting.is_some()
}

/// The stored stages that are not live.
fn closed_stages() -> Vec<FcoCartaStage> {
    use sea_orm::Iterable;
    FcoCartaStage::iter().filter(|s| !live(s.status())).collect()
}

/// The cartas [`in_batches`] reads, as a condition the database checks (it may let more through; `in_batches`
/// decides).
fn in_batches_sql(as_of: NaiveDate) -> sea_orm::Condition {
    use fco_carta::Column as C;
    sea_orm::Condition::any()
        .add(C::Stage.is_not_in(closed_stages()))
        .add(C::SubmittedOn.gt(as_of))
        .add(C::ReceivedByCouncilAt.is_not_null())
        .add(C::DecidedOn.gt(as_of))
        .add(C::ApprovedOn.gt(as_of))
        .add(C::ContractedOn.gt(as_of))
        .add(C::ExpiredOn.gt(as_of))
        .add(C::ChamberMeetingId.is_not_null())
}

/// The first (least id) of each borrower's closed cartas the batches pass over ([`in_batches`]), of the borrowers in
/// `parties` (by their index, a few thousand a statement), two numbers a carta streamed row by row.
async fn first_closed_by_borrower(
    db: &(impl ConnectionTrait + StreamTrait),
    as_of: NaiveDate,
    parties: &[i64],
) -> Result<FxMap<i64, i64>> {
    use fco_carta::Column as C;
    use sea_orm::QueryTrait;
    let backend = ConnectionTrait::get_database_backend(db);
    let closed = || {
        fco_carta::Entity::find()
            .select_only()
            .columns([C::Id, C::PartyId])
            .filter(C::Stage.is_in(closed_stages()))
            .filter(C::ChamberMeetingId.is_null())
            .filter(fco_carta::Acts::none_after_sql(as_of))
    };
    let mut first: FxMap<i64, i64> = FxMap::default();
    for chunk in parties.chunks(5000) {
        let statement = closed().filter(C::PartyId.is_in(chunk.iter().copied())).build(backend);
        let mut rows = std::pin::pin!(db.stream_raw(statement).await?);
        while let Some(row) = rows.next().await {
            let row = row?;
            let (id, party): (i64, i64) = (row.try_get_by_index(0)?, row.try_get_by_index(1)?);
            first.entry(party).and_modify(|f| *f = (*f).min(id)).or_insert(id);
        }
    }
    Ok(first)
}

/// The account of a group's flag that is resolved is that of the group's first closed carta (the least id), when it
/// has one, as its closed cartas say in the batches ([`CartaJudge::batch`], `closed_said`); else its first carta's
/// FCO-CEILING outcome ([`group_ceiling`]). The batches read only the closed cartas with a meeting, an act after the
/// day or an open flag of their own ([`in_batches`]): the first of the others is looked up here, for the groups whose
/// flag is resolved only, by their borrowers. (Looked up for every flagged group before the batches, by a scan of
/// every closed carta, it was 0.6 s of the database's time on each day-to-day pass over 1M cartas, for groups whose
/// flags stay open.)
async fn closed_groups_say(
    db: &(impl ConnectionTrait + StreamTrait),
    j: &mut Judgement,
    groups: &FxMap<i64, i64>,
    closed_said: &FxMap<i64, i64>,
    as_of: NaiveDate,
) -> Result<()> {
    use fco_carta::Column as C;
    let resolved: FxSet<i64> = j
        .watched_ids(SubjectKind::Group)
        .filter(|g| {
            let key = ceiling_key(*g);
            j.open.contains_key(&key) && !j.wants(&key)
        })
        .collect();
    if resolved.is_empty() {
        return Ok(());
    }
    let mut parties: Vec<i64> = groups
        .iter()
        .filter(|(_, g)| resolved.contains(*g))
        .map(|(p, _)| *p)
        .collect();
    parties.sort_unstable();
    let mut first: FxMap<i64, i64> = FxMap::default();
    for (party, id) in first_closed_by_borrower(db, as_of, &parties).await? {
        if let Some(g) = groups.get(&party).filter(|g| resolved.contains(*g)) {
            first.entry(*g).and_modify(|f| *f = (*f).min(id)).or_insert(id);
        }
    }
    // Those before the first closed carta the batches judged of the group, if any.
    let mut ids: Vec<i64> = first
        .iter()
        .filter(|(g, id)| closed_said.get(*g).is_none_or(|said| *id < said))
        .map(|(_, id)| *id)
        .collect();
    ids.sort_unstable();
    for chunk in ids.chunks(5000) {
        let cartas =
            entity::positional::all(fco_carta::Entity::find().filter(C::Id.is_in(chunk.iter().copied())), db).await?;
        for c in cartas {
            if let Some(g) = groups.get(&c.party_id) {
                // No act of these is dated after the day (`first_closed_by_borrower`): the stored cycle is in force.
                let why = format!("the carta is {:?} on {as_of}", c.known_on(&[], &[], as_of).stage);
                j.said.insert(ceiling_key(*g), why.into());
            }
        }
    }
    Ok(())
}

/// How many ids a batch of the flag pass spans (its cartas are fewer: those [`in_batches`] reads, about half).
const RANGE: i64 = 2 * BATCH as i64;

/// [`RANGE`] on PostgreSQL, where each batch costs seven statements (the cartas and six kinds of facts), each a round
/// trip with its parsing, planning and binding on both sides: 20,000 ids a batch, 50 batches on 1M cartas instead of
/// 250. (SQLite's driver holds a batch's rows at several times their decoded size: it keeps [`RANGE`].)
const POSTGRES_RANGE: i64 = 20_000;

/// How many batches are read at once, handed on in id order: on PostgreSQL a batch's statements wait on the database
/// more than they work here, so several are in flight on pooled connections (on 1M cartas, read one after another,
/// the reading took 2.3-2.5 s beside the judging's 1.4 s; four at once, 2.1-2.2 s). SQLite reads one ahead.
fn ahead(db: &impl ConnectionTrait) -> usize {
    if db.get_database_backend() == DbBackend::Postgres {
        4
    } else {
        2
    }
}

/// The carta ids in ranges of `width` (after, upto], from the first to the last (the last range open-ended): the
/// batches of a pass, each read on its own so that several can be read at once.
async fn id_ranges(db: &impl ConnectionTrait, width: i64) -> Result<Vec<(i64, i64)>> {
    Ok(match crate::facts::carta_id_bounds(db).await? {
        Some((lo, hi)) => ranges_over(lo, hi, width),
        None => Vec::new(),
    })
}

/// The ids from `lo` to `hi` in ranges of `width` (after, upto], the last one open-ended.
fn ranges_over(lo: i64, hi: i64, width: i64) -> Vec<(i64, i64)> {
    let mut ranges = Vec::new();
    let mut after = lo.saturating_sub(1);
    while after < hi {
        let upto = after.saturating_add(width);
        ranges.push((after, if upto >= hi { i64::MAX } else { upto }));
        after = upto;
    }
    ranges
}

/// The cartas with ids in `range` and the facts `judge_within` reads of them (all of them but their groups, or
/// those its deadlines read). The flag pass's batches take in the cartas of the range with an open flag of their own
/// (`flagged`, the flagged financings' ids in the range, in order), whatever their stage: a closed one is judged to
/// say why its flags are resolved. (Read apart, by the open flags' subjects, PostgreSQL looked up every flagged
/// financing's carta, 0.3 s for 70,000 open flags on 1M cartas.)
async fn carta_batch(
    db: &impl ConnectionTrait,
    everything: bool,
    as_of: NaiveDate,
    range: (i64, i64),
    flagged: &[i64],
) -> Result<(Vec<fco_carta::Model>, Preloaded)> {
    Ok(if everything {
        let read = if flagged.is_empty() {
            in_batches_sql(as_of)
        } else {
            in_batches_sql(as_of).add(fco_carta::Column::Id.is_in(flagged.iter().copied()))
        };
        let mut cartas = crate::facts::cartas_in_range_if(db, range, read).await?;
        // In place: a batch's cartas are a few MiB, and a vector grown by doubling asks the kernel for fresh pages.
        cartas.retain(|c| in_batches(&c.acts(), c.chamber_meeting_id, as_of) || flagged.binary_search(&c.id).is_ok());
        let facts = Preloaded::cartas_but_groups(db, &cartas, as_of).await?;
        (cartas, facts)
    } else {
        // The cartas whose deadlines can call for a flag: those with a chamber meeting (FCO-72H-*) and those
        // approved and not contracted as known on the day (FCO-VALIDITY-120D), that is, approved by then, not
        // contracted by then, and either stored as approved or with an act dated later (`Acts::stage_on`); and
        // those in an earlier approval cycle on the day, whose cycle then may be either.
        use entity::fco_carta_cycle as cycle;
        use fco_carta::Column as C;
        let later = sea_orm::Condition::any()
            .add(C::Stage.eq(FcoCartaStage::Approved))
            .add(C::SubmittedOn.gt(as_of))
            .add(C::DecidedOn.gt(as_of))
            .add(C::ContractedOn.gt(as_of))
            .add(C::ExpiredOn.gt(as_of))
            .add(C::ReceivedByCouncilAt.gte(entity::domain::brasilia_day_end(as_of)));
        let approved = sea_orm::Condition::all()
            .add(C::ApprovedOn.lte(as_of))
            .add(
                sea_orm::Condition::any()
                    .add(C::ContractedOn.is_null())
                    .add(C::ContractedOn.gt(as_of)),
            )
            .add(later);
        let cartas = crate::facts::cartas_in_range_if(
            db,
            range,
            sea_orm::Condition::any()
                .add(approved)
                .add(C::ChamberMeetingId.is_not_null())
                .add(
                    C::Id.in_subquery(
                        sea_orm::sea_query::Query::select()
                            .column(cycle::Column::CartaId)
                            .from(cycle::Entity)
                            .and_where(cycle::Column::ClosedOn.gt(as_of))
                            .to_owned(),
                    ),
                ),
        )
        .await?;
        let facts = Preloaded::meetings(db, &cartas, as_of).await?;
        (cartas, facts)
    })
}

/// A monthly list still missing stays flagged after its month leaves the rule's view (the rule shows the last two
/// months): an open FCO-MONTHLY-LIST flag of an earlier month is kept until a list of that month is received.
async fn missing_lists_stay(db: &impl ConnectionTrait, j: &mut Judgement, as_of: NaiveDate) -> Result<()> {
    use compliance_flag::Column as C;
    let open = compliance_flag::Entity::find()
        .filter(C::Source.eq(SOURCE))
        .filter(C::RuleCode.eq(code::FCO_MONTHLY_LIST.as_str()))
        .filter(C::SubjectKind.eq(SubjectKind::Bank.as_str()))
        .filter(C::ResolvedAt.is_null())
        .all(db)
        .await?;
    for f in open {
        let key: Key = (
            SubjectKind::Bank,
            f.subject_id,
            f.rule_code.clone(),
            f.occurrence.clone(),
        );
        if j.judged(&key) {
            continue;
        }
        let received = entity::bank_report::Entity::find()
            .filter(entity::bank_report::Column::BankId.eq(f.subject_id))
            .filter(entity::bank_report::Column::ReferenceMonth.eq(f.occurrence.clone()))
            .filter(entity::bank_report::Column::Status.ne("REJECTED"))
            .all(db)
            .await?
            .into_iter()
            .map(|r| brasilia_date(r.received_at))
            .filter(|d| *d <= as_of)
            .min();
        match received {
            Some(d) => j.say(key, format!("the list of {} was received on {d}", f.occurrence)),
            None => j.want(
                key,
                Wanted {
                    programme: f.programme,
                    financing_id: None,
                    severity: "VIOLATION",
                    due_on: f.due_on,
                    legal_basis: Cow::Owned(f.legal_basis.clone()),
                    message: FlagText::Stored {
                        message: f.message.clone(),
                        id: f.message_id.clone(),
                        args: f.message_args.clone(),
                    },
                    fingerprint: f.fingerprint.clone().unwrap_or_default(),
                },
            ),
        }
    }
    Ok(())
}

/// The current economic group of every borrower in one: one statement for the pass (it had been one per batch, by
/// the batch's borrowers).
async fn current_groups(db: &impl ConnectionTrait) -> Result<FxMap<i64, i64>> {
    let rows: Vec<(i64, Option<i64>)> = party::Entity::find()
        .select_only()
        .column(party::Column::Id)
        .column(party::Column::EconomicGroupId)
        .filter(party::Column::EconomicGroupId.is_not_null())
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows.into_iter().filter_map(|(p, g)| Some((p, g?))).collect())
}

/// A carta's FCO-CEILING outcome, kept for its group's flag.
#[derive(Debug)]
struct CeilingOutcome {
    id: i64,
    number: String,
    violated: bool,
    legal_basis: &'static str,
    explanation: Explanation,
}

/// The identity of a group's FCO-CEILING flag.
fn ceiling_key(group: i64) -> Key {
    (
        SubjectKind::Group,
        group,
        code::FCO_CEILING.as_str().to_owned(),
        String::new(),
    )
}

/// FCO-CEILING on a group: one flag listing every carta of the group over the ceiling.
fn group_ceiling(j: &mut Judgement, group: i64, judged: &[CeilingOutcome]) {
    let key = ceiling_key(group);
    let over: Vec<&CeilingOutcome> = judged.iter().filter(|o| o.violated).collect();
    let Some(first) = over.first() else {
        if let Some(o) = judged.first() {
            j.say(key, o.explanation.clone());
        }
        return;
    };
    let numbers: Vec<&str> = over.iter().map(|o| o.number.as_str()).collect();
    let message = Explanation::message("flag-group-ceiling")
        .arg("cartas", numbers.join(", "))
        .arg("first", &first.number)
        .nested("why", first.explanation.clone());
    let ids: Vec<String> = over.iter().map(|o| o.id.to_string()).collect();
    j.want(
        key,
        Wanted {
            programme: Programme::FcoRural,
            financing_id: None,
            severity: "VIOLATION",
            due_on: None,
            legal_basis: Cow::Borrowed(first.legal_basis),
            message: FlagText::Said(message),
            fingerprint: format!("VIOLATION|{}|{}", ids.join(","), first.explanation),
        },
    );
}

/// How many rows the pass's narrow read of its open flags takes per statement:
/// the driver's rows of one statement for every open flag of a pass held several times their decoded size (90 MiB on
/// SQLite for 70,914).
const OPEN_PAGE: u64 = 20_000;

/// The job's open flags by identity, narrow: what tells whether a flag changed (its message and legal basis are not
/// read), in pages of [`OPEN_PAGE`] by id.
async fn open_flags(db: &impl ConnectionTrait) -> Result<FxMap<Key, Open>> {
    open_flags_within(db, (i64::MIN, i64::MAX)).await
}

/// [`open_flags`] on the pool, in [`ahead`] ranges of ids read at once (on PostgreSQL, 70,914 open flags took the
/// day-to-day pass 0.45 s read one page after another, while a core stood idle).
async fn open_flags_at_once(db: &crate::Db) -> Result<FxMap<Key, Open>> {
    use compliance_flag::Column as C;
    let bounds: Option<(Option<i64>, Option<i64>)> = compliance_flag::Entity::find()
        .select_only()
        .column_as(C::Id.min(), "lo")
        .column_as(C::Id.max(), "hi")
        .filter(C::Source.eq(SOURCE))
        .filter(C::ResolvedAt.is_null())
        .into_tuple()
        .one(db)
        .await?;
    let Some((Some(lo), Some(hi))) = bounds else {
        return Ok(FxMap::default());
    };
    let width = (hi - lo) / ahead(db) as i64 + 1;
    let reads: Vec<_> = ranges_over(lo, hi, width)
        .into_iter()
        .map(|range| {
            let db = db.clone();
            crate::Task::spawn(async move { open_flags_within(&db, range).await })
        })
        .collect();
    let mut out = FxMap::default();
    for read in reads {
        out.extend(read.finish("reading the open flags").await??);
    }
    Ok(out)
}

/// [`open_flags`] with ids in (after, upto].
async fn open_flags_within(db: &impl ConnectionTrait, (mut after, upto): (i64, i64)) -> Result<FxMap<Key, Open>> {
    /// Id, subject kind and id, rule, occurrence, severity, due day, fingerprint.
    type OpenRow = (
        i64,
        String,
        i64,
        String,
        String,
        String,
        Option<NaiveDate>,
        Option<String>,
    );
    use compliance_flag::Column as C;
    let mut out = FxMap::default();
    loop {
        let page: Vec<OpenRow> = compliance_flag::Entity::find()
            .select_only()
            .columns([
                C::Id,
                C::SubjectKind,
                C::SubjectId,
                C::RuleCode,
                C::Occurrence,
                C::Severity,
                C::DueOn,
                C::Fingerprint,
            ])
            .filter(C::Source.eq(SOURCE))
            .filter(C::ResolvedAt.is_null())
            .filter(C::Id.gt(after))
            .filter(C::Id.lte(upto))
            .order_by_asc(C::Id)
            .limit(OPEN_PAGE)
            .into_tuple()
            .all(db)
            .await?;
        let read = page.len() as u64;
        for (id, kind, subject, rule, occurrence, severity, due_on, fingerprint) in page {
            after = id;
            if let Some(kind) = SubjectKind::parse(&kind) {
                let open = Open::new(id, &severity, due_on, fingerprint.as_deref());
                out.insert((kind, subject, rule, occurrence), open);
            }
        }
        if read < OPEN_PAGE {
            return Ok(out);
        }
    }
}

/// An open flag of the job's, as far as a pass compares it with what is wanted: its severity, due day and
/// fingerprint (as a hash: a pass holds every open flag, and the day-to-day pass compares each once).
#[derive(Debug)]
struct Open {
    id: i64,
    /// `VIOLATION` or `WARNING` (empty for anything else, which no flag called for equals).
    severity: &'static str,
    due_on: Option<NaiveDate>,
    fingerprint: Option<u64>,
    /// Whether the pass found it called for as it is ([`Judgement::want`]).
    still: bool,
}

impl Open {
    fn new(id: i64, severity: &str, due_on: Option<NaiveDate>, fingerprint: Option<&str>) -> Self {
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
    fn same(&self, severity: &str, due_on: Option<NaiveDate>, fingerprint: &str) -> bool {
        self.severity == severity && self.due_on == due_on && self.fingerprint == Some(fingerprint_hash(fingerprint))
    }
}

/// A fingerprint's hash (SipHash with fixed keys: facts people record are in it, so not a hash one can aim at).
fn fingerprint_hash(fingerprint: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::hash::DefaultHasher>::default().hash_one(fingerprint)
}

/// What one pass changed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Synced {
    /// Flags raised.
    pub raised: Vec<i64>,
    /// Open flags whose severity, due day or facts changed (a warning turned violation).
    pub changed: Vec<i64>,
    /// Flags resolved because the facts no longer call for them.
    pub resolved: Vec<i64>,
    /// Flags a person resolved whose facts have not changed, left resolved.
    pub held: u32,
    /// Subjects judged.
    pub judged: u32,
}

/// Judges everything as of `as_of` and brings the job's flags in step, in one transaction. `db` is a pool: the
/// judging reads on connections of its own.
///
/// On PostgreSQL the transaction opens first, behind the job's advisory lock, and the new flags of the cartas are
/// written on it while the judging goes on (the database's writing of 70,914 flags into the flag table and its five
/// indexes had been 0.6 s of waiting at the end of a pass over 1M cartas); the rest is compared at the end. On
/// SQLite, whose one writer would keep every other writer (a bank's upload) waiting through the whole judging, the
/// pass judges first and then writes, as [`sync`] does.
pub async fn run(db: &crate::Db, as_of: NaiveDate, now: DateTime<Utc>) -> Result<Synced> {
    let synced = if ConnectionTrait::get_database_backend(db) == DbBackend::Postgres {
        // Shared with the task writing the new flags (its work, encoding the rows, beside this task's reading).
        let txn = Arc::new(begin_locked(db).await?);
        // The open flags and the persons' resolutions are read beside the book (`judge_pass`); the judgement keeps the
        // open flags for the comparison at the end, and the resolutions are kept here: on the pool, once the lock is
        // held, they read what a statement in the transaction would (what is committed when it starts; the
        // transaction has written nothing yet), in parts at once.
        let (read, mut kept) = tokio::sync::oneshot::channel();
        let open_read: OpenRead<'_> = Box::pin(async {
            let (open, by_person) = futures::try_join!(open_flags_at_once(db), by_person(db))?;
            let keys = by_person.keys().cloned().collect();
            let _ = read.send(by_person);
            Ok((open, keys))
        });
        let (to, mut new) = tokio::sync::mpsc::channel::<Vec<(Key, Wanted)>>(4);
        let outflow = Outflow {
            by_person: FxSet::default(),
            to,
        };
        let judging = judge_pass(db, as_of, Reach::Everything, Some(open_read), Some(outflow));
        let writing = crate::Task::spawn({
            let txn = txn.clone();
            async move {
                let mut flags = NewFlags::at(now);
                while let Some(batch) = new.recv().await {
                    for (key, w) in batch {
                        flags.add(&*txn, key, w).await?;
                    }
                }
                flags.flush(&*txn).await
            }
        });
        let (judgement, written) =
            futures::try_join!(judging, async { writing.finish("writing the new flags").await? })?;
        let by_person = kept
            .try_recv()
            .map_err(|_| ServiceError::Internal("the open flags were not read".into()))?;
        let txn = Arc::into_inner(txn)
            .ok_or_else(|| ServiceError::Internal("the flags' transaction is still in use".into()))?;
        let synced = settle(&txn, judgement, None, by_person, as_of, now, written).await?;
        txn.commit().await?;
        synced
    } else {
        let judgement = judge(db, as_of).await?;
        sync(db, judgement, as_of, now).await?
    };
    crate::events::announce(
        db,
        &crate::events::of_pass(&synced.raised, &synced.changed, &synced.resolved),
    )
    .await?;
    Ok(synced)
}

/// A transaction for bringing the job's flags in step; on PostgreSQL behind the job's advisory lock, so that two
/// workers judging at once are one after the other: the second waits and then finds the first's flags.
async fn begin_locked<D: TransactionTrait>(db: &D) -> Result<D::Transaction> {
    let txn = crate::txn::write(db).await?;
    if txn.get_database_backend() == DbBackend::Postgres {
        txn.execute_unprepared("SELECT pg_advisory_xact_lock(hashtext('fomento:flag-deadlines'))")
            .await?;
    }
    Ok(txn)
}

/// The latest resolution by a person of each identity.
async fn by_person(txn: &impl ConnectionTrait) -> Result<HashMap<Key, compliance_flag::Model>> {
    use compliance_flag::Column as C;
    let mut by_person = HashMap::new();
    for f in compliance_flag::Entity::find()
        .filter(C::Source.eq(SOURCE))
        .filter(C::ResolvedAt.is_not_null())
        .filter(C::ResolvedBy.ne(SOURCE))
        .order_by_asc(C::Id)
        .all(txn)
        .await?
    {
        if let Some(kind) = f.subject() {
            by_person.insert((kind, f.subject_id, f.rule_code.clone(), f.occurrence.clone()), f);
        }
    }
    Ok(by_person)
}

/// Brings the job's flags in step with `judgement`: raises what is wanted and not open (unless a person resolved it
/// and its facts did not change), updates open flags whose facts changed, resolves open flags no longer wanted.
pub async fn sync(
    db: &(impl ConnectionTrait + TransactionTrait),
    judgement: Judgement,
    as_of: NaiveDate,
    now: DateTime<Utc>,
) -> Result<Synced> {
    let txn = begin_locked(db).await?;
    // Read again in the transaction: the judgement's were read before it, without the lock.
    let open = open_flags(&txn).await?;
    let by_person = by_person(&txn).await?;
    let synced = settle(&txn, judgement, Some(open), by_person, as_of, now, Vec::new()).await?;
    txn.commit().await?;
    Ok(synced)
}

/// [`sync`] within its transaction, given the persons' resolutions read in it and the open flags read in it
/// (`fresh`), or none when the judgement's were (behind the lock, [`run`]); `written`: the ids of the new flags
/// written already in this transaction (the pass's, [`run`]).
async fn settle(
    txn: &impl ConnectionTrait,
    judgement: Judgement,
    fresh: Option<FxMap<Key, Open>>,
    by_person: HashMap<Key, compliance_flag::Model>,
    as_of: NaiveDate,
    now: DateTime<Utc>,
    written: Vec<i64>,
) -> Result<Synced> {
    let Judgement {
        wanted,
        said,
        judged,
        open: judged_open,
        ..
    } = judgement;
    let mut out = Synced {
        judged,
        ..Synced::default()
    };
    let (open, seen) = match fresh {
        Some(fresh) => (fresh, Some(judged_open)),
        None => (judged_open, None),
    };
    // Whether an open flag is called for as it stands, as the judgement found it. (One changed since by another pass,
    // behind the lock after the judgement read it, is left as that pass left it: the next pass judges it again.)
    let still = |key: &Key, f: &Open| match &seen {
        None => f.still,
        Some(seen) => seen.get(key).is_some_and(|s| s.still),
    };
    if let Some(seen) = &seen {
        // A flag found called for as it stood, and resolved since by a person with the same facts, stays resolved (one
        // resolved since by another pass is left so: the next pass judges it again).
        out.held += seen
            .iter()
            .filter(|(key, s)| s.still && !open.contains_key(*key))
            .filter(|(key, s)| {
                by_person
                    .get(*key)
                    .is_some_and(|f| f.fingerprint.as_deref().map(fingerprint_hash) == s.fingerprint)
            })
            .count() as u32;
    }
    // First the open flags no longer called for (while the wanted ones can still be looked up)...
    for (key, f) in &open {
        if wanted.contains_key(key) || still(key, f) {
            continue;
        }
        // The reason is stored as a catalogue message and its values (migration 60), rendered when read.
        let (why, args) = match said.get(key) {
            Some(s) => (
                "flag-resolved-said",
                serde_json::json!({ "on": as_of.to_string(), "said": crate::l10n::explanation_json(s) }),
            ),
            None => ("flag-resolved-gone", serde_json::json!({ "on": as_of.to_string() })),
        };
        compliance_flag::ActiveModel {
            id: sea_orm::ActiveValue::Unchanged(f.id),
            resolved_at: Set(Some(now)),
            resolved_by: Set(Some(SOURCE.to_owned())),
            resolution: Set(Some(String::new())),
            resolution_id: Set(Some(why.to_owned())),
            resolution_args: Set(Some(args.to_string())),
            ..Default::default()
        }
        .update(txn)
        .await?;
        out.resolved.push(f.id);
    }
    // ...then the wanted ones, consumed as they are written: new flags go in [`FLAGS_PER_INSERT`] at a time, so the
    // pass never holds a second copy of every flag.
    let mut new_flags = NewFlags::at(now);
    drop(said);
    for (key, w) in wanted {
        if let Some(f) = open.get(&key) {
            if !f.same(w.severity, w.due_on, &w.fingerprint) {
                let (message, message_id, message_args) = w.message.columns();
                compliance_flag::ActiveModel {
                    id: sea_orm::ActiveValue::Unchanged(f.id),
                    severity: Set(w.severity.to_owned()),
                    due_on: Set(w.due_on),
                    message: Set(message),
                    message_id: Set(message_id),
                    message_args: Set(message_args),
                    fingerprint: Set(Some(w.fingerprint)),
                    ..Default::default()
                }
                .update(txn)
                .await?;
                out.changed.push(f.id);
            }
            continue;
        }
        if by_person
            .get(&key)
            .is_some_and(|f| f.fingerprint.as_deref() == Some(&w.fingerprint))
        {
            out.held += 1;
            continue;
        }
        new_flags.add(txn, key, w).await?;
    }
    out.raised = written;
    out.raised.extend(new_flags.flush(txn).await?);
    out.raised.sort_unstable();
    Ok(out)
}

/// How many new flags one statement writes (15 values each: within SQLite's and PostgreSQL's limits on parameters).
const FLAGS_PER_INSERT: usize = 1000;

/// The columns a new flag is written with (the rest are `NULL`: not resolved).
const FLAG_COLUMNS: [&str; 15] = [
    "programme",
    "financing_id",
    "rule_code",
    "legal_basis",
    "message",
    "message_id",
    "message_args",
    "source",
    "raised_at",
    "severity",
    "due_on",
    "subject_kind",
    "subject_id",
    "occurrence",
    "fingerprint",
];

/// New flags, written [`FLAGS_PER_INSERT`] to a statement as they are added.
struct NewFlags {
    /// The values of the flags not yet written, a row of [`FLAG_COLUMNS`] after another.
    rows: Vec<sea_orm::Value>,
    /// When they are raised.
    now: DateTime<Utc>,
    /// The ids of those written (each statement returns them: read again at the end of a pass, the 70,914 flags of
    /// a first pass over 1M cartas took a statement of their own).
    written: Vec<i64>,
}

impl NewFlags {
    fn at(now: DateTime<Utc>) -> Self {
        Self {
            rows: Vec::with_capacity(FLAGS_PER_INSERT * FLAG_COLUMNS.len()),
            now,
            written: Vec::new(),
        }
    }

    /// Adds a flag, writing a statement's worth when there is one.
    async fn add(&mut self, txn: &impl ConnectionTrait, key: Key, w: Wanted) -> Result<()> {
        new_row(&mut self.rows, key, w, self.now);
        if self.rows.len() == FLAGS_PER_INSERT * FLAG_COLUMNS.len() {
            self.write(txn).await?;
        }
        Ok(())
    }

    /// Writes what is left; the ids of every flag written.
    async fn flush(&mut self, txn: &impl ConnectionTrait) -> Result<Vec<i64>> {
        self.write(txn).await?;
        Ok(std::mem::take(&mut self.written))
    }

    /// Writes what is left.
    async fn write(&mut self, txn: &impl ConnectionTrait) -> Result<()> {
        if !self.rows.is_empty() {
            insert_flags(txn, &mut self.rows, &mut self.written).await?;
        }
        Ok(())
    }
}

/// Adds a new flag's values to `rows`, in the order of [`FLAG_COLUMNS`].
fn new_row(rows: &mut Vec<sea_orm::Value>, (kind, id, rule, occurrence): Key, w: Wanted, now: DateTime<Utc>) {
    let (message, message_id, message_args) = w.message.columns();
    rows.extend([
        sea_orm::ActiveEnum::to_value(&w.programme).into(),
        w.financing_id.into(),
        rule.into(),
        w.legal_basis.into_owned().into(),
        message.into(),
        message_id.into(),
        message_args.into(),
        SOURCE.into(),
        now.into(),
        w.severity.into(),
        w.due_on.into(),
        kind.as_str().into(),
        id.into(),
        occurrence.into(),
        Some(w.fingerprint).into(),
    ]);
}

/// Writes the new flags in `values` (a row of [`FLAG_COLUMNS`] after another) in one statement, and empties it. Built
/// as plain SQL: building the statement through the query builder, a value at a time, cost as much as the database's
/// own work.
async fn insert_flags(txn: &impl ConnectionTrait, values: &mut Vec<sea_orm::Value>, ids: &mut Vec<i64>) -> Result<()> {
    use std::fmt::Write as _;
    let backend = txn.get_database_backend();
    let rows = values.len() / FLAG_COLUMNS.len();
    let mut sql = format!("INSERT INTO compliance_flag ({}) VALUES ", FLAG_COLUMNS.join(", "));
    let mut n = 0;
    for r in 0..rows {
        sql.push_str(if r == 0 { "(" } else { ",(" });
        for c in 0..FLAG_COLUMNS.len() {
            if c > 0 {
                sql.push(',');
            }
            n += 1;
            // Plain `?` on SQLite, not `crate::numbered`'s `?N`: binding 13,000 numbered parameters took the
            // driver 14 s for 70,914 flags, against 0.5 s for plain ones.
            match backend {
                DbBackend::Postgres => {
                    let _ = write!(sql, "${n}");
                }
                _ => sql.push('?'),
            }
        }
        sql.push(')');
    }
    sql.push_str(" RETURNING id");
    for row in txn
        .query_all_raw(sea_orm::Statement::from_sql_and_values(
            backend,
            sql,
            std::mem::take(values),
        ))
        .await?
    {
        ids.push(row.try_get_by_index(0)?);
    }
    Ok(())
}

/// A person resolves a flag, saying why. A job's flag so resolved stays resolved while the facts behind it stay the
/// same; the job raises a new one when they change.
pub async fn resolve_by_person(
    db: &impl ConnectionTrait,
    caller: &Caller,
    clock: crate::Clock,
    id: i64,
    by: &str,
    reason: &str,
) -> Result<compliance_flag::Model> {
    crate::access::authorize(caller, crate::access::Operation::ResolveFlag)?;
    let (by, reason) = (by.trim(), reason.trim());
    if reason.is_empty() {
        return Err(ServiceError::bad("input.reason", Message::new(msg::FIELD_EMPTY)));
    }
    if by.is_empty() {
        return Err(ServiceError::bad("input.resolvedBy", Message::new(msg::FIELD_EMPTY)));
    }
    let Some(flag) = compliance_flag::Entity::find_by_id(id).one(db).await? else {
        return Err(ServiceError::not_found(
            "input.id",
            Message::new(msg::FLAG_UNKNOWN).arg("id", id),
        ));
    };
    crate::access::for_programme(caller, flag.programme, crate::access::Operation::ResolveFlag)?;
    if flag.resolved_at.is_some() {
        return Err(ServiceError::bad(
            "input.id",
            Message::new(msg::FLAG_ALREADY_RESOLVED)
                .arg("id", id)
                .arg("by", flag.resolved_by.clone().unwrap_or_default()),
        ));
    }
    let mut a = flag.into_active_model();
    a.resolved_at = Set(Some(clock.now()));
    a.resolved_by = Set(Some(by.to_owned()));
    a.resolution = Set(Some(reason.to_owned()));
    let flag = a.update(db).await?;
    crate::events::announce(db, &crate::events::of_pass(&[], &[], &[flag.id])).await?;
    Ok(flag)
}
