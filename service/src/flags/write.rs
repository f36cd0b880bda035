//! The one writer of compliance flags, for every job: raising new flags in bulk, resolving them (by the facts, by a
//! later report, by a person) and announcing what changed to the `flagRaised` subscribers and the webhooks.

use crate::{
    Caller, ServiceError,
    messages::{Message, code as msg},
};
use chrono::{DateTime, NaiveDate, Utc};
use entity::{compliance_flag, compliance_flag::SubjectKind, rules::Explanation, vocab::Programme};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbBackend, DbErr, EntityTrait, IntoActiveModel,
    QueryFilter, QuerySelect, sea_query::Expr,
};
use std::borrow::Cow;

/// A flag's message: what a rule said (stored as its message id and values, or as its English text for a rule not
/// converted yet), or an open flag's stored message, kept.
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
    pub fn compact(&mut self) {
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

/// What a flag says: every column of a new flag but its identity (subject, rule, occurrence), its source and the
/// instant. The flag pass keeps one for each flag the facts call for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
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
    /// The facts behind it, when a person's resolution is to hold while they stay (the flag pass's).
    pub fingerprint: Option<String>,
}

/// A flag to raise: its identity and what it says (its source and the instant are the [`Writer`]'s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFlag {
    /// What it is about, and its id.
    pub subject: (SubjectKind, i64),
    /// The rule's code.
    pub rule_code: Cow<'static, str>,
    /// Which occurrence of a recurring deadline (a monthly list's month); empty otherwise.
    pub occurrence: String,
    /// What it says.
    pub finding: Finding,
}

impl NewFlag {
    /// A violation of `rule` found on an FCO carta, saying `what` (a report's finding).
    pub fn on_carta(carta: i64, rule: entity::rules::RuleCode, what: Explanation) -> Self {
        Self {
            subject: (SubjectKind::Financing, carta),
            rule_code: Cow::Borrowed(rule.as_str()),
            occurrence: String::new(),
            finding: Finding {
                programme: Programme::FcoRural,
                financing_id: Some(carta),
                severity: "VIOLATION",
                due_on: None,
                legal_basis: Cow::Borrowed(rule.legal_basis()),
                message: FlagText::Said(what),
                fingerprint: None,
            },
        }
    }
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

/// New flags of one source, written [`FLAGS_PER_INSERT`] to a statement as they are added.
#[derive(Debug)]
pub struct Writer {
    /// What raises them (`job:flag-deadlines`, `report:42`).
    source: String,
    /// The values of the flags not yet written, a row of [`FLAG_COLUMNS`] after another.
    rows: Vec<sea_orm::Value>,
    /// When they are raised.
    now: DateTime<Utc>,
    /// The ids of those written, as each statement returns them (not read again at the end of a pass).
    written: Vec<i64>,
}

impl Writer {
    /// A writer of `source`'s flags raised at `now`.
    pub fn new(source: impl Into<String>, now: DateTime<Utc>) -> Self {
        Self {
            source: source.into(),
            rows: Vec::with_capacity(FLAGS_PER_INSERT * FLAG_COLUMNS.len()),
            now,
            written: Vec::new(),
        }
    }

    /// Adds a flag, writing a statement's worth when there is one.
    pub async fn add(&mut self, txn: &impl ConnectionTrait, flag: NewFlag) -> Result<(), DbErr> {
        self.push(flag);
        if self.rows.len() == FLAGS_PER_INSERT * FLAG_COLUMNS.len() {
            self.write(txn).await?;
        }
        Ok(())
    }

    /// Writes what is left; the ids of every flag written.
    pub async fn flush(&mut self, txn: &impl ConnectionTrait) -> Result<Vec<i64>, DbErr> {
        self.write(txn).await?;
        Ok(std::mem::take(&mut self.written))
    }

    /// Adds a flag's values, in the order of [`FLAG_COLUMNS`].
    fn push(
        &mut self,
        NewFlag {
            subject,
            rule_code,
            occurrence,
            finding: f,
        }: NewFlag,
    ) {
        let (message, message_id, message_args) = f.message.columns();
        self.rows.extend([
            sea_orm::ActiveEnum::to_value(&f.programme).into(),
            f.financing_id.into(),
            rule_code.into_owned().into(),
            f.legal_basis.into_owned().into(),
            message.into(),
            message_id.into(),
            message_args.into(),
            self.source.clone().into(),
            self.now.into(),
            f.severity.into(),
            f.due_on.into(),
            subject.0.as_str().into(),
            subject.1.into(),
            occurrence.into(),
            f.fingerprint.into(),
        ]);
    }

    /// Writes the flags not yet written in one statement. Built as plain SQL: building the statement through the
    /// query builder, a value at a time, cost as much as the database's own work.
    async fn write(&mut self, txn: &impl ConnectionTrait) -> Result<(), DbErr> {
        use std::fmt::Write as _;
        if self.rows.is_empty() {
            return Ok(());
        }
        let backend = txn.get_database_backend();
        let rows = self.rows.len() / FLAG_COLUMNS.len();
        let mut sql = format!("INSERT INTO compliance_flag ({}) VALUES ", FLAG_COLUMNS.join(", "));
        let mut n = 0;
        for r in 0..rows {
            sql.push_str(if r == 0 { "(" } else { ",(" });
            for c in 0..FLAG_COLUMNS.len() {
                if c > 0 {
                    sql.push(',');
                }
                n += 1;
                // Plain `?` on SQLite, not `crate::numbered`'s `?N`: the driver binds numbered parameters far more
                // slowly.
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
                std::mem::take(&mut self.rows),
            ))
            .await?
        {
            self.written.push(row.try_get_by_index(0)?);
        }
        Ok(())
    }
}

/// Open flag `id` as `flag` says it now: its severity, due day, message and facts changed (a warning turned
/// violation); its identity stays.
pub async fn change(txn: &impl ConnectionTrait, id: i64, flag: Finding) -> Result<(), DbErr> {
    let (message, message_id, message_args) = flag.message.columns();
    compliance_flag::ActiveModel {
        id: sea_orm::ActiveValue::Unchanged(id),
        severity: Set(flag.severity.to_owned()),
        due_on: Set(flag.due_on),
        message: Set(message),
        message_id: Set(message_id),
        message_args: Set(message_args),
        fingerprint: Set(flag.fingerprint),
        ..Default::default()
    }
    .update(txn)
    .await?;
    Ok(())
}

/// Resolves open flag `id` on behalf of `by` (a job's source) at `now`, saying why as a catalogue message
/// (`resolution_id`, from `explanations.ftl`) and its values, rendered when read.
pub async fn resolve(
    txn: &impl ConnectionTrait,
    id: i64,
    by: &str,
    why: &'static str,
    args: &serde_json::Value,
    now: DateTime<Utc>,
) -> Result<(), DbErr> {
    compliance_flag::ActiveModel {
        id: sea_orm::ActiveValue::Unchanged(id),
        resolved_at: Set(Some(now)),
        resolved_by: Set(Some(by.to_owned())),
        resolution: Set(Some(String::new())),
        resolution_id: Set(Some(why.to_owned())),
        resolution_args: Set(Some(args.to_string())),
        ..Default::default()
    }
    .update(txn)
    .await?;
    Ok(())
}

/// The source of a report's flags (`report:42`).
pub fn report_source(report: i64) -> String {
    format!("report:{report}")
}

/// Resolves the open flags report `old` raised, now that report `by` of the same bank and month superseded it; the
/// ids of the flags resolved.
pub async fn resolve_superseded(
    txn: &impl ConnectionTrait,
    old: i64,
    by: i64,
    now: DateTime<Utc>,
) -> Result<Vec<i64>, DbErr> {
    use compliance_flag::Column as C;
    let open = || {
        sea_orm::Condition::all()
            .add(C::Source.eq(report_source(old)))
            .add(C::ResolvedAt.is_null())
            // The predicate of the reports' open-flags index (migration 42) word for word: what lets either
            // database prove the index holds every row wanted, and read it rather than every open flag.
            .add(Expr::cust("source LIKE 'report:%'"))
    };
    let ids: Vec<i64> = compliance_flag::Entity::find()
        .select_only()
        .column(C::Id)
        .filter(open())
        .into_tuple()
        .all(txn)
        .await?;
    if ids.is_empty() {
        return Ok(ids);
    }
    compliance_flag::Entity::update_many()
        .col_expr(C::ResolvedAt, Expr::value(now))
        .col_expr(C::ResolvedBy, Expr::value(report_source(by)))
        // The reason as a catalogue message and its values (as the flag pass's, migration 60), rendered when read.
        .col_expr(C::Resolution, Expr::value(""))
        .col_expr(C::ResolutionId, Expr::value("flag-resolved-superseded"))
        .col_expr(
            C::ResolutionArgs,
            Expr::value(serde_json::json!({ "old": old, "new": by }).to_string()),
        )
        .filter(open())
        .exec(txn)
        .await?;
    Ok(ids)
}

/// Tells the `flagRaised` subscribers and the webhook receivers of flags raised, changed and resolved, once their
/// transaction committed.
pub async fn announce(
    db: &impl ConnectionTrait,
    raised: &[i64],
    changed: &[i64],
    resolved: &[i64],
) -> Result<(), DbErr> {
    crate::events::announce(db, &crate::events::of_pass(raised, changed, resolved)).await
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
) -> Result<compliance_flag::Model, ServiceError> {
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
    announce(db, &[], &[], &[flag.id]).await?;
    Ok(flag)
}
