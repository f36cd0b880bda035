//! API keys in the graph: `revokeApiKey`, the administrator's beside `fomento keys revoke`. A key revoked is refused
//! at once by every serving process, its browser sessions end and its open subscriptions close.

use super::{db, error::Served, scalars::DateTime};
use async_graphql::{Context, Enum, ID, InputObject, Object, Result, SimpleObject};
use entity::{api_key, domain::Authority};

/// Whether a key is accepted.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
pub enum ApiKeyState {
    /// Accepted.
    Active,
    /// Revoked: refused everywhere.
    Revoked,
}

/// An API key (never the key itself: it is shown once, when created).
#[derive(Clone, Debug)]
pub struct ApiKey(pub api_key::Model);

/// An API key (never the key itself: it is shown once, when created).
#[Object]
impl ApiKey {
    /// The key's number (`fomento keys list`).
    async fn number(&self) -> i64 {
        self.0.id
    }

    /// Who or what holds it.
    async fn name(&self) -> &str {
        &self.0.name
    }

    /// Its first characters (`fmt_1a2b3c4d`), to tell keys apart.
    async fn prefix(&self) -> &str {
        &self.0.prefix
    }

    /// `bank`, `mda`, `council`, `analyst` or `admin`.
    async fn role(&self) -> &str {
        &self.0.role
    }

    /// Whether it is accepted.
    async fn state(&self) -> ApiKeyState {
        if self.0.revoked_at.is_some() {
            ApiKeyState::Revoked
        } else {
            ApiKeyState::Active
        }
    }

    /// When it was revoked.
    async fn revoked_at(&self) -> Option<DateTime> {
        self.0.revoked_at.map(|t| DateTime(t, Authority::Cdae))
    }
}

/// `revokeApiKey`'s input.
#[derive(InputObject, Debug)]
pub struct RevokeApiKeyInput {
    /// The key's number or its prefix (`fmt_1a2b3c4d`), as `fomento keys list` shows them.
    pub id: ID,
}

/// `revokeApiKey`'s answer.
#[derive(SimpleObject, Debug)]
pub struct RevokeApiKeyPayload {
    /// The key, revoked.
    pub key: ApiKey,
}

/// Mutations about API keys.
#[derive(Default)]
pub struct KeysMutation;

#[Object]
impl KeysMutation {
    /// Revokes an API key: every serving process refuses it at once, its browser sessions end and its open
    /// subscriptions close. Revoking a revoked key answers it as it is.
    async fn revoke_api_key(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which key.")] input: RevokeApiKeyInput,
    ) -> Result<RevokeApiKeyPayload> {
        let key = service::keys::revoke(db(ctx), &super::caller(ctx), input.id.as_str(), chrono::Utc::now())
            .await
            .served(ctx)?;
        Ok(RevokeApiKeyPayload { key: ApiKey(key) })
    }
}
