//! Browser sessions: signing in with an API key or an identity provider's token starts a session whose random id
//! (256 bits, base64url) is the only thing the browser's cookie holds. The server keeps the id's SHA-256 and what it
//! stands for, so the key itself never sits in a browser, and a session ends for good when its holder signs out, when
//! its key is revoked, or after [`LASTS`] (sooner when the token it stands for expires sooner).

use crate::{Caller, Role, ServiceError};
use base64::Engine;
use chrono::{DateTime, Utc};
use entity::{api_key, browser_session};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, sea_query::Expr,
};

type Result<T> = std::result::Result<T, ServiceError>;

/// How long a session lasts: a working day.
pub const LASTS: chrono::Duration = chrono::Duration::hours(8);

/// A session just started: the id to put in the cookie (never stored) and when it ends.
#[derive(Debug, Clone)]
pub struct Started {
    /// The cookie's value.
    pub id: String,
    /// When it ends by itself.
    pub expires_at: DateTime<Utc>,
}

/// Who a live session stands for, and the requests per second it may make (its key's own rate, if any).
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The caller.
    pub caller: Caller,
    /// The key's own rate.
    pub rate_per_second: Option<u32>,
    /// The session's stored hash: a socket opened with it closes when this hash is announced ended
    /// ([`crate::keys::revocations`]).
    pub hash: String,
    /// When the session ends by itself.
    pub expires_at: DateTime<Utc>,
}

/// The stored form of a session id: its SHA-256, lowercase hex. `None` for something no session id looks like.
fn digest(id: &str) -> Option<String> {
    let id = id.trim();
    let plausible =
        (40..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    plausible.then(|| crate::keys::hash(id))
}

/// Starts a session for `caller` (an API key's holder or a token's bearer), ending `replacing` (the cookie the
/// browser came with, if any): every sign-in gets a new id. `token_expires_at` is the token's own `exp`.
pub async fn start(
    db: &impl ConnectionTrait,
    caller: &Caller,
    token_expires_at: Option<DateTime<Utc>>,
    replacing: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Started> {
    if let Some(old) = replacing {
        end(db, old, now).await?;
    }
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ServiceError::Internal(format!("no randomness: {e}")))?;
    let id = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let expires_at = match token_expires_at {
        Some(exp) => exp.min(now + LASTS),
        None => now + LASTS,
    };
    let mut row = browser_session::ActiveModel {
        id_hash: Set(crate::keys::hash(&id)),
        created_at: Set(now),
        expires_at: Set(expires_at),
        ended_at: Set(None),
        ..Default::default()
    };
    match caller {
        Caller::Key { id, .. } => row.api_key_id = Set(Some(*id)),
        Caller::Token { subject, role, bank } => {
            row.token_subject = Set(Some(subject.clone()));
            row.token_role = Set(Some(role.as_str().to_owned()));
            row.token_bank_id = Set(*bank);
        }
        other => {
            return Err(ServiceError::Internal(format!(
                "a browser session for {}, neither a key nor a token",
                other.actor()
            )));
        }
    }
    row.insert(db).await?;
    Ok(Started { id, expires_at })
}

/// Who the session of cookie `id` stands for: `None` when there is no such session, or it ended or expired, or its
/// key was revoked.
pub async fn resolve(db: &impl ConnectionTrait, id: &str, now: DateTime<Utc>) -> Result<Option<Resolved>> {
    let Some(hash) = digest(id) else {
        return Ok(None);
    };
    let Some(session) = browser_session::Entity::find()
        .filter(browser_session::Column::IdHash.eq(hash.as_str()))
        .filter(browser_session::Column::EndedAt.is_null())
        .filter(browser_session::Column::ExpiresAt.gt(now))
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    if let Some(key_id) = session.api_key_id {
        let Some(key) = api_key::Entity::find_by_id(key_id).one(db).await? else {
            return Ok(None);
        };
        let Some(role) = Role::parse(&key.role) else {
            return Ok(None);
        };
        if key.revoked_at.is_some() {
            return Ok(None);
        }
        return Ok(Some(Resolved {
            caller: Caller::Key {
                id: key.id,
                name: key.name,
                role,
                bank: key.bank_id,
            },
            rate_per_second: key.rate_per_second.and_then(|r| u32::try_from(r).ok()),
            hash,
            expires_at: session.expires_at,
        }));
    }
    let (Some(subject), Some(role)) = (
        session.token_subject,
        session.token_role.as_deref().and_then(Role::parse),
    ) else {
        return Ok(None);
    };
    Ok(Some(Resolved {
        caller: Caller::Token {
            subject,
            role,
            bank: session.token_bank_id,
        },
        rate_per_second: None,
        hash,
        expires_at: session.expires_at,
    }))
}

/// Ends the session of cookie `id` (signing out); nothing for an unknown or already ended one. The subscriptions'
/// sockets it opened, in every process, close (announced as a revoked key is: [`crate::keys::announce_ended`]).
pub async fn end(db: &impl ConnectionTrait, id: &str, now: DateTime<Utc>) -> Result<()> {
    let Some(hash) = digest(id) else {
        return Ok(());
    };
    let ended = browser_session::Entity::update_many()
        .col_expr(browser_session::Column::EndedAt, Expr::value(now))
        .filter(browser_session::Column::IdHash.eq(hash.as_str()))
        .filter(browser_session::Column::EndedAt.is_null())
        .exec(db)
        .await?
        .rows_affected;
    if ended > 0 {
        crate::keys::announce_ended(db, &hash).await?;
    }
    Ok(())
}
