//! Fomento's use cases: what every door (GraphQL resolvers, HTTP handlers, jobs, CLI commands) calls, so that each
//! use case is written once. It sits between the domain (`entity`: entities and pure rules) and the doors (`api`,
//! `jobs`); the doors parse their input, build a [`Caller`], call a function here and shape its answer.

/// Awaits independent statements: together on PostgreSQL (each on its own pooled connection, the server working on
/// them side by side), in turn on SQLite, where each pooled connection keeps its own caches: there, reading in turn
/// was as fast and kept the flag pass within its memory bound. Evaluates to the tuple of their results.
macro_rules! together {
    ($db:expr; $($f:expr),+ $(,)?) => {
        if sea_orm::ConnectionTrait::get_database_backend($db) == sea_orm::DbBackend::Sqlite {
            Ok(($($f.await?,)+))
        } else {
            futures::try_join!($($f),+)
        }
    };
}

pub mod access;
pub mod acquisitions;
pub mod audit;
pub mod bank_overview;
pub mod banks;
pub mod caller;
pub mod ceiling;
pub mod cell;
pub mod chamber;
pub mod clock;
pub mod commitments;
pub mod compliance;
pub mod dashboard;
pub mod deadline_flags;
pub mod error;
pub mod evaluation;
pub mod events;
pub mod exports;
pub mod facts;
pub mod files;
pub mod financings;
pub mod findings;
pub mod flags;
pub mod groups;
pub mod imports;
pub mod ingestion;
pub mod intake;
pub mod items;
pub mod keys;
pub mod known_at;
pub mod l10n;
pub mod labels;
pub mod lifecycle;
pub mod masks;
pub mod meetings;
pub mod messages;
pub mod oidc;
pub mod page;
pub mod parameters;
pub mod positional;
pub mod privacy;
pub mod queue;
pub mod reports;
pub mod semi_arid;
pub mod sessions;
pub mod store;
pub mod tokens;
pub mod trace;
pub mod txn;
pub mod versions;
pub mod visible;
pub mod webhooks;

pub use caller::{Caller, Role, Scope};
pub use clock::Clock;
pub use error::ServiceError;

/// The database handle every use case takes: one pool, SQLite or PostgreSQL.
pub use sea_orm::DatabaseConnection as Db;

/// A spawned task, stopped when dropped before it is awaited (when the use case that spawned it fails first).
pub(crate) struct Task<T>(tokio::task::JoinHandle<T>);

impl<T: Send + 'static> Task<T> {
    pub(crate) fn spawn(work: impl std::future::Future<Output = T> + Send + 'static) -> Self {
        Self(tokio::spawn(work))
    }

    /// Work that does not await, on the runtime's blocking threads (dropped, it still runs to its end).
    pub(crate) fn spawn_blocking(work: impl FnOnce() -> T + Send + 'static) -> Self {
        Self(tokio::task::spawn_blocking(work))
    }

    /// Its result; `what` names it in the error when it panicked.
    pub(crate) async fn finish(mut self, what: &str) -> Result<T, ServiceError> {
        (&mut self.0)
            .await
            .map_err(|e| ServiceError::Internal(format!("{what} failed: {e}")))
    }
}

impl<T> Drop for Task<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A statement written with PostgreSQL's `$n` placeholders, for either backend (SQLite reads them as `?n`).
pub(crate) fn numbered(backend: sea_orm::DbBackend, sql: &str) -> String {
    match backend {
        sea_orm::DbBackend::Sqlite => sql.replace('$', "?"),
        _ => sql.to_owned(),
    }
}
