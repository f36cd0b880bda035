//! The audit log in the graph, for the administrator: `auditLog(first:, beforeNumber:)`, newest first (also
//! `fomento audit` and `GET /exports/audit.csv`).

use super::{caller, db, error::Served, scalars::DateTime};
use async_graphql::{Context, InputObject, Object, Result};
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

/// Which audit lines `auditLines` lists; a field not given does not narrow.
#[derive(InputObject, Clone, Debug, Default)]
pub struct AuditLineFilter {
    /// Only this actor's, as the line writes it (`Ana (mda key 3)`).
    pub actor: Option<String>,
    /// Only this action (`mutation decideFcoCarta`, `export`).
    pub action: Option<String>,
    /// Only this outcome: `OK`, `DENIED` or `ERROR`.
    pub outcome: Option<String>,
}

super::pagination::record_order!(
    AuditLineOrder,
    AuditLineOrderField,
    Number,
    "Sort order of `auditLines`.",
    "The lines' numbers: the order they were written in."
);

super::pagination::keyset_connection!(
    AuditLineConnection,
    AuditLineEdge,
    AuditLine,
    "A page of the audit log, newest first unless ordered otherwise.",
    "An audit line with its cursor."
);

/// Queries about the audit log.
#[derive(Default)]
pub struct AuditQuery;

#[Object]
impl AuditQuery {
    /// The audit log's lines, newest first (`orderBy` to turn it), in keyset pages; for the administrator.
    #[allow(clippy::too_many_arguments)]
    async fn audit_lines(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which lines.")] filter: Option<AuditLineFilter>,
        #[graphql(desc = "In which order: newest first by default.")] order_by: Option<AuditLineOrder>,
        #[graphql(desc = "At most this many (at most 100; 20 by default), after `after`.")] first: Option<i32>,
        #[graphql(desc = "A cursor of a previous page.")] after: Option<String>,
        #[graphql(desc = "At most this many before `before`.")] last: Option<i32>,
        #[graphql(desc = "A cursor of a later page.")] before: Option<String>,
    ) -> Result<AuditLineConnection> {
        let keyset = AuditLineOrder::keyset(order_by, super::pagination::keyset(ctx, first, after, last, before)?);
        let filter = filter.unwrap_or_default();
        let filter = service::audit::LineFilter {
            actor: filter.actor,
            action: filter.action,
            outcome: filter.outcome,
        };
        let page = service::audit::page(db(ctx), &caller(ctx), &filter, keyset)
            .await
            .served(ctx)?;
        Ok(AuditLineConnection::from_page(page, AuditLine))
    }

    /// The audit log's latest lines, newest first; for the administrator.
    #[graphql(deprecation = "Use `auditLines(filter:, orderBy:)`, a connection with cursors; removed on 2027-06-30.")]
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
