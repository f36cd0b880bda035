//! Errors of the GraphQL layer, each with a stable `extensions.code`. Internal errors carry a fixed message; the
//! detail goes to the log, never to the client.

use async_graphql::ErrorExtensions;

/// An error a resolver returns.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The client sent something malformed: the message names the argument.
    #[error("{0}")]
    BadUserInput(String),
    /// The thing asked for does not exist.
    #[error("{0}")]
    NotFound(String),
    /// No credentials, or credentials that are not valid.
    #[error("{0}")]
    Unauthenticated(String),
    /// The caller's role may never do what was asked.
    #[error("{0}")]
    Forbidden(String),
    /// A rule forbids what was asked: the rule code, its legal basis and why.
    #[error("{code}: {explanation} ({legal_basis})")]
    RuleViolation {
        /// The rule code.
        code: &'static str,
        /// Its legal basis, as the request's language cites it.
        legal_basis: String,
        /// Why.
        explanation: String,
    },
    /// Something Fomento depends on failed; nothing was recorded; try again later.
    #[error("{0}")]
    Unavailable(String),
    /// The database does not answer (an outage caught the request): nothing was recorded; try again in a moment.
    #[error("{0}")]
    DatabaseUnavailable(String),
    /// The database or something else failed; details are logged.
    #[error("internal error; the request was logged")]
    Internal(String),
}

impl ApiError {
    /// The stable code clients can switch on.
    pub fn code(&self) -> &'static str {
        match self {
            Self::BadUserInput(_) => "BAD_USER_INPUT",
            Self::NotFound(_) => "NOT_FOUND",
            Self::Unauthenticated(_) => "UNAUTHENTICATED",
            Self::Forbidden(_) => "FORBIDDEN",
            Self::RuleViolation { .. } => "RULE_VIOLATION",
            Self::Unavailable(_) => "UNAVAILABLE",
            Self::DatabaseUnavailable(_) => "DATABASE_UNAVAILABLE",
            Self::Internal(_) => "INTERNAL",
        }
    }
}

impl ApiError {
    /// A service error, its messages in `lang`.
    pub fn from_service(e: service::ServiceError, lang: service::messages::Lang) -> Self {
        use service::ServiceError as S;
        match &e {
            S::BadInput { field, .. } => Self::BadUserInput(format!("{field}: {}", e.render(lang))),
            S::NotFound { field, .. } => Self::NotFound(format!("{field}: {}", e.render(lang))),
            S::Unauthenticated(_) => Self::Unauthenticated(e.render(lang)),
            S::Forbidden(_) => Self::Forbidden(e.render(lang)),
            S::Rule(v) => Self::violation(v.clone(), lang),
            S::Unavailable(m) if m.code == service::messages::code::DATABASE_UNAVAILABLE => {
                Self::DatabaseUnavailable(e.render(lang))
            }
            S::Unavailable(_) => Self::Unavailable(e.render(lang)),
            S::Internal(detail) => Self::Internal(detail.clone()),
        }
    }
}

impl From<service::facts::LoadError> for ApiError {
    fn from(e: service::facts::LoadError) -> Self {
        if service::error::database_unreachable(&e) {
            Self::DatabaseUnavailable(
                service::messages::Message::new(service::messages::code::DATABASE_UNAVAILABLE).to_string(),
            )
        } else {
            Self::Internal(e.to_string())
        }
    }
}

impl ApiError {
    /// A refusal by a rule, its explanation in `lang`.
    pub fn violation(v: entity::rules::lifecycle::Violation, lang: service::messages::Lang) -> Self {
        Self::RuleViolation {
            code: v.code,
            legal_basis: service::l10n::legal_basis(v.legal_basis, lang),
            explanation: service::l10n::explanation(&v.explanation, lang),
        }
    }
}

/// A refusal by a rule where the request's language is not at hand: in Portuguese, the default.
impl From<entity::rules::lifecycle::Violation> for ApiError {
    fn from(v: entity::rules::lifecycle::Violation) -> Self {
        Self::violation(v, service::messages::Lang::default())
    }
}

impl ErrorExtensions for ApiError {
    fn extend(&self) -> async_graphql::Error {
        if let Self::Internal(detail) = self {
            tracing::error!(%detail, "internal error in a resolver");
        }
        async_graphql::Error::new(self.to_string()).extend_with(|_, e| {
            e.set("code", self.code());
            if let Self::RuleViolation {
                code,
                legal_basis,
                explanation,
            } = self
            {
                e.set("ruleCode", *code);
                e.set("legalBasis", legal_basis.as_str());
                e.set("explanation", explanation.as_str());
            }
        })
    }
}

/// Resolver result: errors become GraphQL errors with their code.
pub type ApiResult<T> = async_graphql::Result<T>;

/// Turns any [`ApiError`]-convertible error into a GraphQL error with its code.
pub fn gql<E: Into<ApiError>>(e: E) -> async_graphql::Error {
    e.into().extend()
}

/// The language of the request's messages (`Accept-Language`; Portuguese by default).
pub fn lang(ctx: &async_graphql::Context<'_>) -> service::messages::Lang {
    ctx.data_opt::<service::messages::Lang>().copied().unwrap_or_default()
}

/// A service answer as a resolver's: its error a GraphQL error with its code, in the request's language.
pub trait Served<T> {
    /// Converts the error.
    fn served(self, ctx: &async_graphql::Context<'_>) -> ApiResult<T>;
}

impl<T> Served<T> for Result<T, service::ServiceError> {
    fn served(self, ctx: &async_graphql::Context<'_>) -> ApiResult<T> {
        self.map_err(|e| gql(ApiError::from_service(e, lang(ctx))))
    }
}
