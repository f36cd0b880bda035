//! A browser's session: the sign-in cookie's random id is kept only as its SHA-256, with the API key or the token
//! (subject, role, bank) it stands for, its expiry, and when it was ended (signed out, or its key revoked).

use sea_orm::entity::prelude::*;

/// A session.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "browser_session")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// SHA-256 of the cookie's id, lowercase hex.
    pub id_hash: String,
    /// The API key it stands for, when signed in with one.
    pub api_key_id: Option<i64>,
    /// The token's subject (`sub`), when signed in with an identity provider's token.
    pub token_subject: Option<String>,
    /// The role the token's claims mapped to.
    pub token_role: Option<String>,
    /// The bank of a token's `bank` role.
    pub token_bank_id: Option<i64>,
    /// When it began.
    pub created_at: DateTimeUtc,
    /// When it ends by itself (eight hours on, or the token's own expiry if sooner).
    pub expires_at: DateTimeUtc,
    /// When it was ended before that; an ended session is refused.
    pub ended_at: Option<DateTimeUtc>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
