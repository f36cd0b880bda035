//! Who is calling, and what they may see. Every use case takes a [`Caller`]; access control (roles, a bank's own
//! data) fills it in, and the checks live in this crate, in one place.

/// Who is calling.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Caller {
    /// No identity was presented (every caller, until access control is built).
    #[default]
    Anonymous,
    /// A job or CLI command run by the operator.
    System,
    /// A job applying what somebody sent: a bulk import (its number) on behalf of who sent it.
    Import {
        /// The import's number.
        id: i64,
        /// Who sent the file.
        by: String,
    },
}

/// What a caller may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Everything.
    All,
}

impl Caller {
    /// The scope of what this caller may read.
    pub fn scope(&self) -> Scope {
        Scope::All
    }

    /// The name history rows record as who acted.
    pub fn actor(&self) -> String {
        match self {
            Caller::Anonymous => "anonymous".into(),
            Caller::System => "system".into(),
            Caller::Import { id, by } => format!("{by} (import {id})"),
        }
    }
}
