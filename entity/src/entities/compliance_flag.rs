//! A compliance finding raised by a job or an ingestion, with its rule and legal basis, on a financing, a bank, a
//! chamber meeting, an economic group or a bank report.

use super::vocab::Programme;
use sea_orm::entity::prelude::*;

/// A compliance flag row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "compliance_flag")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Programme of the rule (and of the flagged financing).
    pub programme: Programme,
    /// Id of the project or carta, when the subject is a financing.
    pub financing_id: Option<i64>,
    /// The rule code (`SF-EXTERNAL-EVAL-6M`).
    pub rule_code: String,
    /// The legal basis (`IN MDA nº 2/2005, art. 11`).
    pub legal_basis: String,
    /// What was found, with the numbers used, as text: a flag raised before migration 57 or by a rule whose
    /// explanations are not in the catalogue yet; empty when the message is stored as `message_id` and `message_args`.
    pub message: String,
    /// The catalogue message saying what was found (`fco-ceiling`), rendered when read in the reader's language.
    pub message_id: Option<String>,
    /// Its values, as JSON (`service::l10n::args_json`): by name, dates ISO, amounts as decimals, clauses as objects.
    pub message_args: Option<String>,
    /// What raised it (`job:flag-deadlines`, `report:42`).
    pub source: String,
    /// When it was raised.
    pub raised_at: DateTimeUtc,
    /// When it was resolved, if it was.
    pub resolved_at: Option<DateTimeUtc>,
    /// `INFO`, `WARNING` (due within the look-ahead window) or `VIOLATION` (overdue or violated).
    pub severity: String,
    /// For a deadline, the day it falls due.
    pub due_on: Option<Date>,
    /// What it is about: `FINANCING`, `BANK`, `MEETING`, `GROUP` or `REPORT` ([`SubjectKind`]).
    pub subject_kind: String,
    /// The subject's id (for a financing, `financing_id`).
    pub subject_id: i64,
    /// Which occurrence of a recurring deadline (a monthly list's month); empty otherwise.
    pub occurrence: String,
    /// The facts behind it (severity and due day, or the numbers judged): a human resolution holds while they stay.
    pub fingerprint: Option<String>,
    /// Who resolved it: `job:flag-deadlines`, a person, or `report:N` when a later report superseded its own.
    pub resolved_by: Option<String>,
    /// Why it was resolved, as text: a person's reason, or the flag pass's before migration 60; empty when the reason
    /// is stored as `resolution_id` and `resolution_args`.
    pub resolution: Option<String>,
    /// The catalogue message saying why the flag pass resolved it (`flag-resolved-said`), rendered when read.
    pub resolution_id: Option<String>,
    /// Its values, as JSON (as `message_args`).
    pub resolution_args: Option<String>,
}

/// What a flag is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SubjectKind {
    /// A project or carta.
    Financing,
    /// A bank (its monthly list, Banco do Brasil's 60-day report).
    Bank,
    /// A chamber meeting (its result within 72 hours).
    Meeting,
    /// An economic group (its ceiling).
    Group,
    /// A bank report.
    Report,
}

impl SubjectKind {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Financing => "FINANCING",
            Self::Bank => "BANK",
            Self::Meeting => "MEETING",
            Self::Group => "GROUP",
            Self::Report => "REPORT",
        }
    }

    /// From the stored spelling.
    pub fn parse(s: &str) -> Option<Self> {
        [Self::Financing, Self::Bank, Self::Meeting, Self::Group, Self::Report]
            .into_iter()
            .find(|k| k.as_str() == s)
    }
}

impl Model {
    /// What it is about.
    pub fn subject(&self) -> Option<SubjectKind> {
        SubjectKind::parse(&self.subject_kind)
    }
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
