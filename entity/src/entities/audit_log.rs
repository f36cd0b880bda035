//! One line of the audit log: who did what, to what, when, from where, and how it ended. Append-only.

use sea_orm::entity::prelude::*;

/// A line.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "audit_log")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// When.
    pub at: DateTimeUtc,
    /// Who: a key (`Ana (mda key 3)`), the CLI operator (`system`), or `anonymous`.
    pub actor: String,
    /// What: `mutation createFcoCarta`, `upload bank-report`, `export cartas.csv`, `keys create`, `request /graphql`.
    pub action: String,
    /// To what, when known (a bank's code, an export's file, a key's prefix).
    pub target: Option<String>,
    /// `OK`, `DENIED` or `ERROR`.
    pub outcome: String,
    /// The error code of a refusal or failure.
    pub detail: Option<String>,
    /// From where: the client's address, when known.
    pub remote: Option<String>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
