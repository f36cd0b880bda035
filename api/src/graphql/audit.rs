//! The audit log in the graph, for the administrator: `auditLog(first:, beforeNumber:)`, newest first (also
//! `fomento audit` and `GET /exports/audit.csv`).

use super::{caller, db, error::Served, scalars::DateTime};
use async_graphql::{Context, Object, Result};
use entity::{audit_log, domain::Authority};

/// One line of the audit log.
#[derive(Clone, Debug)]
pub struct AuditLine(pub audit_log::Model);

/// One line of the audit log: who did what, to what, with what outcome, from where.
#[Object]
impl AuditLine {
    /// The line's number (pass it as `beforeNumber` for the lines before it).
    async fn number(&self) -> i64 {
        self.0.id
    }

    /// When.
    async fn at(&self) -> DateTime {
        DateTime(self.0.at, Authority::Cdae)
    }

    /// Who: a key (`Ana (mda key 3)`), a token's subject (`ana@mda.gov.br (mda token)`), a person at the command line
    /// (`maria (command line)`), `system` or `anonymous`.
    async fn actor(&self) -> &str {
        &self.0.actor
    }

    /// What: `mutation decideFcoCarta`, `upload bank-report`, `export`, `keys create`, `cli Import { … }`, `sign-in`.
    async fn action(&self) -> &str {
        &self.0.action
    }

    /// To what, when known.
    async fn target(&self) -> Option<&str> {
        self.0.target.as_deref()
    }

    /// `OK`, `DENIED` or `ERROR`.
    async fn outcome(&self) -> &str {
        &self.0.outcome
    }

    /// The code of a refusal or failure (`FORBIDDEN`, `NOT_FOUND`, …).
    async fn code(&self) -> Option<&str> {
        self.0.detail.as_deref()
    }

    /// From where: the client's address (`X-Forwarded-For`, else the peer), when known.
    async fn remote(&self) -> Option<&str> {
        self.0.remote.as_deref()
    }
}

/// Queries about the audit log.
#[derive(Default)]
pub struct AuditQuery;

#[Object]
impl AuditQuery {
    /// The audit log's latest lines, newest first; for the administrator.
    async fn audit_log(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "At most this many (at most 500; 50 by default).", default = 50)] first: i32,
        #[graphql(desc = "Only lines before this number (for the next page).")] before_number: Option<i64>,
    ) -> Result<Vec<AuditLine>> {
        let first = service::page::bounded("first", first, 500).served(ctx)?;
        let lines = service::audit::list(db(ctx), &caller(ctx), before_number, first)
            .await
            .served(ctx)?;
        Ok(lines.into_iter().map(AuditLine).collect())
    }
}
