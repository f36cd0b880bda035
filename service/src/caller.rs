//! Who is calling, and what they may see and do. Every use case takes a [`Caller`]; the doors only build it (from an
//! API key, or as the operator for the CLI and the jobs), and the checks live here and in [`crate::access`].

use std::fmt;

/// What a key may do. Checked in [`crate::access`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// A bank, bound to one: uploads its own reports, reads its own cartas and reports, records its own cartas.
    Bank,
    /// MDA staff: social-fuel facts and decisions.
    Mda,
    /// The CDAE chamber: chamber meetings, opinions and decisions on cartas.
    Council,
    /// A data analyst: reads everything, exports, dashboards.
    Analyst,
    /// An administrator: keys, rule parameters, non-business days, reference data, webhooks, flag overrides.
    Admin,
    /// A metrics scraper (Prometheus): reads `/metrics` and nothing else.
    Metrics,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 6] = [
        Role::Bank,
        Role::Mda,
        Role::Council,
        Role::Analyst,
        Role::Admin,
        Role::Metrics,
    ];

    /// Its stored spelling (`bank`, `mda`, `council`, `analyst`, `admin`, `metrics`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Bank => "bank",
            Role::Mda => "mda",
            Role::Council => "council",
            Role::Analyst => "analyst",
            Role::Admin => "admin",
            Role::Metrics => "metrics",
        }
    }

    /// The role of a stored or typed spelling.
    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(s.trim()))
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who is calling.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Caller {
    /// No identity was presented. The doors refuse such callers (`401`) before any use case, but for `/health`,
    /// `/ready` and, when an operator opens it, the aggregate dashboard; a use case refuses them too.
    #[default]
    Anonymous,
    /// A scheduled job, or the application itself (demo data, start-up).
    System,
    /// A person at the `fomento` command line, by their account name.
    Operator(String),
    /// A job applying what somebody sent: a bulk import (its number) on behalf of who sent it.
    Import {
        /// The import's number.
        id: i64,
        /// Who sent the file.
        by: String,
    },
    /// The holder of an API key.
    Key {
        /// The key's number.
        id: i64,
        /// Its name.
        name: String,
        /// Its role.
        role: Role,
        /// The bank a `bank` key acts for.
        bank: Option<i64>,
    },
    /// The bearer of a token from the identity provider (JWT), verified against its keys.
    Token {
        /// Who it names (`sub`).
        subject: String,
        /// The role its claims map to.
        role: Role,
        /// The bank of a `bank` role.
        bank: Option<i64>,
    },
}

/// What a caller may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Everything.
    All,
    /// Only what concerns this bank (its cartas, projects and reports).
    Bank(i64),
    /// Nothing.
    Nothing,
}

impl Scope {
    /// Whether a row of this bank is within the scope.
    pub fn sees_bank(self, bank: i64) -> bool {
        match self {
            Scope::All => true,
            Scope::Bank(b) => b == bank,
            Scope::Nothing => false,
        }
    }

    /// The bank the scope is limited to, if any.
    pub fn bank(self) -> Option<i64> {
        match self {
            Scope::Bank(b) => Some(b),
            _ => None,
        }
    }
}

impl Caller {
    /// The scope of what this caller may read.
    pub fn scope(&self) -> Scope {
        match self {
            Caller::Anonymous => Scope::Nothing,
            Caller::System | Caller::Operator(_) | Caller::Import { .. } => Scope::All,
            Caller::Key {
                role: Role::Bank, bank, ..
            }
            | Caller::Token {
                role: Role::Bank, bank, ..
            } => bank.map_or(Scope::Nothing, Scope::Bank),
            Caller::Key {
                role: Role::Metrics, ..
            }
            | Caller::Token {
                role: Role::Metrics, ..
            } => Scope::Nothing,
            Caller::Key { .. } | Caller::Token { .. } => Scope::All,
        }
    }

    /// The caller's role, for a key.
    pub fn role(&self) -> Option<Role> {
        match self {
            Caller::Key { role, .. } | Caller::Token { role, .. } => Some(*role),
            _ => None,
        }
    }

    /// The name history rows record as who acted.
    pub fn actor(&self) -> String {
        match self {
            Caller::Anonymous => "anonymous".into(),
            Caller::System => "system".into(),
            Caller::Operator(user) => format!("{user} (command line)"),
            Caller::Import { id, by } => format!("{by} (import {id})"),
            Caller::Key { id, name, role, .. } => format!("{name} ({role} key {id})"),
            Caller::Token { subject, role, .. } => format!("{subject} ({role} token)"),
        }
    }
}
