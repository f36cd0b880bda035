//! An API key: a role, a bank for the `bank` role, and the SHA-256 of the key (the key itself is shown once, when
//! created, and never stored).

use sea_orm::entity::prelude::*;

/// A key.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "api_key")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Who or what holds it (`Sicredi uploads`, `Ana (MDA)`).
    pub name: String,
    /// `bank`, `mda`, `council`, `analyst` or `admin`.
    pub role: String,
    /// The bank a `bank` key acts for.
    pub bank_id: Option<i64>,
    /// SHA-256 of the key, lowercase hex.
    pub key_hash: String,
    /// The key's first characters, to tell keys apart in a listing.
    pub prefix: String,
    /// When it was created.
    pub created_at: DateTimeUtc,
    /// Who created it.
    pub created_by: String,
    /// When it was revoked; a revoked key is refused.
    pub revoked_at: Option<DateTimeUtc>,
    /// Requests per second this key may make; the server's `--rate-limit` when none.
    pub rate_per_second: Option<i32>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
