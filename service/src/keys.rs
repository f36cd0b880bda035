//! API keys: created by the administrator (`fomento keys create`), shown once, stored as their SHA-256, looked up
//! on each request through a short-lived cache (at most one statement per request for a key not seen within
//! [`CACHE_FOR`]). Revoking a key (`fomento keys revoke`, the `revokeApiKey` mutation) ends its browser sessions and
//! tells every process at once: on PostgreSQL by `NOTIFY` on [`REVOKED_CHANNEL`] (each serving process `LISTEN`s and
//! hands the news to [`forget`]); the revoking process forgets it at once itself. A process forgets the
//! key from its cache and its [`revocations`] bus closes the key's open subscriptions.

use crate::{
    Caller, ServiceError,
    access::{Operation, authorize},
    caller::Role,
    messages::{Message, code as msg},
};
use chrono::{DateTime, Utc};
use entity::{api_key, bank, browser_session};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter,
    QueryOrder,
};
use sha2::Digest;
use std::{
    collections::HashMap,
    sync::{Mutex, OnceLock},
    time::{Duration, Instant},
};
use tokio::sync::broadcast;

type Result<T> = std::result::Result<T, ServiceError>;

/// How long a key, once looked up, is taken as valid without asking the database again.
pub const CACHE_FOR: Duration = Duration::from_secs(30);

/// The PostgreSQL channel of revoked keys' numbers.
pub const REVOKED_CHANNEL: &str = "fomento_key_revoked";

/// What every key starts with (so a key pasted in the wrong place is recognisable).
pub const PREFIX: &str = "fmt_";

/// A key just created: its row and the key itself, which is never shown again.
#[derive(Debug, Clone)]
pub struct Created {
    /// The stored key.
    pub key: api_key::Model,
    /// The key to hand to its holder.
    pub secret: String,
}

/// SHA-256 of a key, lowercase hex.
pub fn hash(secret: &str) -> String {
    hex::encode(sha2::Sha256::digest(secret.trim().as_bytes()))
}

/// Equal, in a time that does not depend on where two strings of equal length first differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Creates a key of `role` (a `bank` key for the bank of `bank_code`), named `name`.
pub async fn create(
    db: &impl ConnectionTrait,
    caller: &Caller,
    role: &str,
    bank_code: Option<&str>,
    name: &str,
    rate_per_second: Option<u32>,
    now: DateTime<Utc>,
) -> Result<Created> {
    authorize(caller, Operation::Administer)?;
    let rate_per_second = match rate_per_second {
        Some(r) if r == 0 || r > 1_000_000 => {
            return Err(ServiceError::bad(
                "rate",
                Message::new(msg::KEY_RATE_OUT_OF_RANGE).arg("rate", r),
            ));
        }
        Some(r) => Some(r as i32),
        None => None,
    };
    let Some(role) = Role::parse(role) else {
        return Err(ServiceError::bad(
            "role",
            Message::new(msg::ROLE_UNKNOWN).arg("role", role),
        ));
    };
    let bank_id = match (role, bank_code) {
        (Role::Bank, None) => return Err(ServiceError::bad("bank", Message::new(msg::KEY_NEEDS_BANK))),
        (_, Some(code)) => Some(
            bank::Entity::find()
                .filter(bank::Column::Code.eq(code.trim().to_uppercase()))
                .one(db)
                .await?
                .ok_or_else(|| {
                    ServiceError::not_found("bank", Message::new(msg::BANK_UNKNOWN).arg("code", format!("{code:?}")))
                })?
                .id,
        ),
        (_, None) => None,
    };
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ServiceError::Internal(format!("no randomness: {e}")))?;
    let secret = format!("{PREFIX}{}", hex::encode(bytes));
    let name = if name.trim().is_empty() {
        format!("{role} key")
    } else {
        name.trim().to_owned()
    };
    let key = api_key::ActiveModel {
        name: Set(name),
        role: Set(role.as_str().to_owned()),
        bank_id: Set(bank_id),
        key_hash: Set(hash(&secret)),
        prefix: Set(secret[..PREFIX.len() + 8].to_owned()),
        created_at: Set(now),
        created_by: Set(caller.actor()),
        revoked_at: Set(None),
        rate_per_second: Set(rate_per_second),
        ..Default::default()
    }
    .insert(db)
    .await?;
    let target = format!("key {} {} ({})", key.id, key.prefix, key.role);
    crate::audit::record(db, caller, "keys create", Some(&target), None, &Default::default()).await;
    Ok(Created { key, secret })
}

/// Every key, newest first (never the keys themselves).
pub async fn list(db: &impl ConnectionTrait, caller: &Caller) -> Result<Vec<api_key::Model>> {
    authorize(caller, Operation::Administer)?;
    Ok(api_key::Entity::find()
        .order_by_desc(api_key::Column::Id)
        .all(db)
        .await?)
}

/// Revokes the key of this number or prefix (`fmt_1a2b3c4d`).
pub async fn revoke(
    db: &impl ConnectionTrait,
    caller: &Caller,
    which: &str,
    now: DateTime<Utc>,
) -> Result<api_key::Model> {
    authorize(caller, Operation::Administer)?;
    let which = which.trim();
    let found = match which.parse::<i64>() {
        Ok(id) => api_key::Entity::find_by_id(id).one(db).await?,
        Err(_) => {
            api_key::Entity::find()
                .filter(api_key::Column::Prefix.eq(which))
                .one(db)
                .await?
        }
    };
    let Some(key) = found else {
        return Err(ServiceError::not_found(
            "key",
            Message::new(msg::KEY_UNKNOWN).arg("id", which),
        ));
    };
    if key.revoked_at.is_some() {
        forget(&key.key_hash);
        return Ok(key);
    }
    let mut a = key.into_active_model();
    a.revoked_at = Set(Some(now));
    let key = a.update(db).await?;
    end_sessions(db, key.id, now).await?;
    announce_revoked(db, &key.key_hash).await?;
    let target = format!("key {} {}", key.id, key.prefix);
    crate::audit::record(db, caller, "keys revoke", Some(&target), None, &Default::default()).await;
    Ok(key)
}

/// Tells this process at once, and every other one on PostgreSQL (when the statement's transaction commits), that the
/// key of this SHA-256 was revoked (its hash, not its number: several databases may share a process, in tests).
async fn announce_revoked(db: &impl ConnectionTrait, key_hash: &str) -> Result<()> {
    announce_ended(db, key_hash).await
}

/// Ends every browser session opened with API key `key_id` (its key was revoked); how many.
async fn end_sessions(db: &impl ConnectionTrait, key_id: i64, now: DateTime<Utc>) -> Result<u64> {
    Ok(browser_session::Entity::update_many()
        .col_expr(browser_session::Column::EndedAt, sea_orm::sea_query::Expr::value(now))
        .filter(browser_session::Column::ApiKeyId.eq(key_id))
        .filter(browser_session::Column::EndedAt.is_null())
        .exec(db)
        .await?
        .rows_affected)
}

/// Tells every process that the credential of this SHA-256 (a key, or a browser session) ended: this process's key
/// cache forgets it and the subscriptions it opened close, here at once and elsewhere through PostgreSQL `NOTIFY`.
pub async fn announce_ended(db: &impl ConnectionTrait, key_hash: &str) -> Result<()> {
    forget(key_hash);
    if db.get_database_backend() != sea_orm::DbBackend::Postgres {
        return Ok(());
    }
    db.execute_raw(sea_orm::Statement::from_sql_and_values(
        sea_orm::DbBackend::Postgres,
        "SELECT pg_notify($1, $2)",
        [REVOKED_CHANNEL.into(), key_hash.into()],
    ))
    .await?;
    Ok(())
}

/// This process's bus of revoked keys' hashes (an open subscription of a revoked key ends when it hears of it).
pub fn revocations() -> &'static broadcast::Sender<String> {
    static BUS: OnceLock<broadcast::Sender<String>> = OnceLock::new();
    BUS.get_or_init(|| broadcast::channel(256).0)
}

/// Drops the key of this SHA-256 from this process's cache and tells its open subscriptions.
pub fn forget(key_hash: &str) {
    if let Ok(mut cache) = cache().lock() {
        cache.remove(key_hash);
    }
    let _ = revocations().send(key_hash.to_owned());
}

/// Drops every key from this process's cache (after the news of revocations may have been missed: a listener that
/// lost its connection).
pub fn forget_all() {
    if let Ok(mut cache) = cache().lock() {
        cache.clear();
    }
}

/// Hands a `NOTIFY` payload of [`REVOKED_CHANNEL`] to [`forget`]; a payload that is not a key's hash is ignored.
pub fn deliver_revoked(payload: &str) {
    let hash = payload.trim();
    if hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        forget(hash);
    }
}

/// The SHA-256 of key `id`, to know its revocation when it comes (`None` for no such key).
pub async fn hash_of(db: &impl ConnectionTrait, id: i64) -> Result<Option<String>> {
    Ok(api_key::Entity::find_by_id(id).one(db).await?.map(|k| k.key_hash))
}

/// Who a key stands for, and the requests per second it may make (the server's default when none).
#[derive(Debug, Clone)]
pub struct Authenticated {
    /// The caller.
    pub caller: Caller,
    /// Its own rate, when it has one.
    pub rate_per_second: Option<u32>,
}

type Cache = Mutex<HashMap<String, (Authenticated, Instant)>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The caller a presented key stands for: `None` for a key that does not exist or was revoked.
pub async fn authenticate(db: &impl ConnectionTrait, presented: &str) -> Result<Option<Caller>> {
    Ok(authenticate_key(db, presented).await?.map(|a| a.caller))
}

/// [`authenticate`], with the key's own rate.
pub async fn authenticate_key(db: &impl ConnectionTrait, presented: &str) -> Result<Option<Authenticated>> {
    let presented = presented.trim();
    if !presented.starts_with(PREFIX) || presented.len() > 200 {
        return Ok(None);
    }
    let digest = hash(presented);
    if let Ok(cache) = cache().lock()
        && let Some((known, at)) = cache.get(&digest)
        && at.elapsed() < CACHE_FOR
    {
        return Ok(Some(known.clone()));
    }
    let Some(key) = api_key::Entity::find()
        .filter(api_key::Column::KeyHash.eq(digest.clone()))
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    if !same(&key.key_hash, &digest) || key.revoked_at.is_some() {
        return Ok(None);
    }
    let Some(role) = Role::parse(&key.role) else {
        return Ok(None);
    };
    let known = Authenticated {
        caller: Caller::Key {
            id: key.id,
            name: key.name,
            role,
            bank: key.bank_id,
        },
        rate_per_second: key.rate_per_second.and_then(|r| u32::try_from(r).ok()),
    };
    if let Ok(mut cache) = cache().lock() {
        if cache.len() > 10_000 {
            cache.clear();
        }
        cache.insert(digest, (known.clone(), Instant::now()));
    }
    Ok(Some(known))
}
