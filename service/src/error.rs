//! One error for every use case, with the stable codes every door answers with.

use crate::messages::{Lang, Message};

/// Why a use case did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// Something the caller sent is wrong: the field and what is wrong, from the message catalogue.
    #[error("{field}: {message}")]
    BadInput {
        /// The field or argument.
        field: &'static str,
        /// What is wrong.
        message: Message,
    },
    /// The thing asked for does not exist.
    #[error("{field}: {message}")]
    NotFound {
        /// The field or argument that named it.
        field: &'static str,
        /// What was not found.
        message: Message,
    },
    /// No credentials, or credentials that are not valid.
    #[error("{0}")]
    Unauthenticated(Message),
    /// The caller's role may never do what was asked.
    #[error("{0}")]
    Forbidden(Message),
    /// A rule forbids what was asked: the rule code, its legal basis and why.
    #[error("{}: {} ({})", .0.code, .0.explanation, .0.legal_basis)]
    Rule(entity::rules::lifecycle::Violation),
    /// Something Fomento depends on (the file store) failed; nothing was recorded, and the same request may be sent
    /// again later. The detail is logged.
    #[error("{0}")]
    Unavailable(Message),
    /// Fomento failed; the detail is logged, never shown.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ServiceError {
    /// The stable code clients switch on.
    pub fn code(&self) -> &'static str {
        match self {
            Self::BadInput { .. } => "BAD_USER_INPUT",
            Self::NotFound { .. } => "NOT_FOUND",
            Self::Unauthenticated(_) => "UNAUTHENTICATED",
            Self::Forbidden(_) => "FORBIDDEN",
            Self::Rule(_) => "RULE_VIOLATION",
            Self::Unavailable(_) => "UNAVAILABLE",
            Self::Internal(_) => "INTERNAL",
        }
    }

    /// The field the error is about, if any.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Self::BadInput { field, .. } | Self::NotFound { field, .. } => Some(field),
            Self::Rule(_)
            | Self::Internal(_)
            | Self::Unavailable(_)
            | Self::Unauthenticated(_)
            | Self::Forbidden(_) => None,
        }
    }

    /// The message for the caller, in `lang` (internal errors get a fixed text; their detail is logged).
    pub fn render(&self, lang: Lang) -> String {
        match self {
            Self::BadInput { message, .. }
            | Self::NotFound { message, .. }
            | Self::Unauthenticated(message)
            | Self::Unavailable(message)
            | Self::Forbidden(message) => message.render(lang),
            Self::Rule(v) => Message::new(crate::messages::code::RULE_REFUSED)
                .arg("code", v.code)
                .arg("explanation", crate::l10n::explanation(&v.explanation, lang))
                .arg("basis", v.legal_basis)
                .render(lang),
            Self::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                Message::new(crate::messages::code::INTERNAL).render(lang)
            }
        }
    }
}

impl ServiceError {
    /// Bad input in `field`: the catalogue message `code` with its values.
    pub fn bad(field: &'static str, message: Message) -> Self {
        Self::BadInput { field, message }
    }

    /// Nothing named by `field` exists: the catalogue message `code` with its values.
    pub fn not_found(field: &'static str, message: Message) -> Self {
        Self::NotFound { field, message }
    }

    /// A rule forbids it: `code` from the catalogue of rules, with why.
    pub fn rule(code: entity::rules::RuleCode, explanation: impl Into<entity::rules::Explanation>) -> Self {
        Self::Rule(entity::rules::lifecycle::Violation {
            code: code.as_str(),
            legal_basis: code.legal_basis(),
            explanation: explanation.into(),
        })
    }
}

impl From<entity::rules::lifecycle::Violation> for ServiceError {
    fn from(v: entity::rules::lifecycle::Violation) -> Self {
        Self::Rule(v)
    }
}

impl From<entity::rules::params::ParamError> for ServiceError {
    fn from(e: entity::rules::params::ParamError) -> Self {
        Self::Internal(e.to_string())
    }
}

impl From<sea_orm::DbErr> for ServiceError {
    fn from(e: sea_orm::DbErr) -> Self {
        if database_unreachable(&e) {
            tracing::warn!(error = %e, "the database does not answer");
            Self::Unavailable(Message::new(crate::messages::code::DATABASE_UNAVAILABLE))
        } else {
            Self::Internal(e.to_string())
        }
    }
}

/// Whether a database error says the database cannot be reached (its connection lost, the pool unable to open one,
/// the server shutting down), not that a statement failed: a request caught by an outage is told to try again
/// (`503 DATABASE_UNAVAILABLE`), not that Fomento failed.
pub fn database_unreachable(e: &sea_orm::DbErr) -> bool {
    use sea_orm::{DbErr as D, RuntimeErr as R, sqlx::Error as X};
    match e {
        D::ConnectionAcquire(_) => true,
        D::Conn(R::SqlxError(x)) | D::Exec(R::SqlxError(x)) | D::Query(R::SqlxError(x)) => match x.as_ref() {
            X::Io(_) | X::Tls(_) | X::PoolTimedOut | X::PoolClosed | X::WorkerCrashed => true,
            // Connection exceptions (class 08) and the server shutting down or refusing (57P01-57P05).
            X::Database(d) => d.code().is_some_and(|c| c.starts_with("08") || c.starts_with("57P")),
            _ => false,
        },
        D::Conn(_) => true,
        _ => false,
    }
}

impl From<crate::store::StoreError> for ServiceError {
    fn from(e: crate::store::StoreError) -> Self {
        tracing::error!(error = %e, "the file store failed");
        Self::Unavailable(Message::new(crate::messages::code::FILE_STORE_UNAVAILABLE))
    }
}
