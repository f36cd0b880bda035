//! JSON Web Tokens from an external identity provider: verified against its published keys (a JWKS file or URL),
//! its issuer and audience (each required when configured), its expiry and its not-before time (with a clock skew),
//! then mapped to a [`Caller`]: the role from one claim
//! (`fomento_role` by default: a role name or a list of them, the first known one counting), the bank of a `bank`
//! role from another (`fomento_bank`: the bank's code). A token that fails any check is no credential at all.

use crate::{Caller, ServiceError, caller::Role};
use entity::bank;
use jsonwebtoken::{DecodingKey, Validation, decode, decode_header, jwk::JwkSet};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};
use std::{
    collections::HashMap,
    sync::{Mutex, RwLock},
    time::{Duration, Instant},
};

/// How a token is checked and read.
#[derive(Debug, Clone)]
pub struct TokenSettings {
    /// Where the provider's keys are: a file, or an `http(s)://` URL (fetched at start, and again when a token names
    /// a key not known, at most once a minute).
    pub jwks: String,
    /// The issuer tokens must name (`iss`), if any.
    pub issuer: Option<String>,
    /// The audience tokens must name (`aud`), if any.
    pub audience: Option<String>,
    /// The clock skew allowed on `exp` and `nbf`, in seconds.
    pub leeway: u64,
    /// The claim holding the role.
    pub role_claim: String,
    /// The claim holding a bank role's bank code.
    pub bank_claim: String,
}

/// Checks tokens against the provider's keys.
#[derive(Debug)]
pub struct Verifier {
    settings: TokenSettings,
    keys: RwLock<JwkSet>,
    fetched: Mutex<Instant>,
    banks: Mutex<HashMap<String, Option<i64>>>,
}

/// Whether a presented credential looks like a JWT (three base64url parts) rather than an API key.
pub fn looks_like_jwt(token: &str) -> bool {
    token.split('.').count() == 3 && !token.starts_with(crate::keys::PREFIX)
}

async fn fetch(source: &str) -> Result<JwkSet, String> {
    let text = if source.starts_with("http://") || source.starts_with("https://") {
        reqwest::Client::new()
            .get(source)
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| format!("cannot fetch the JWKS at {source}: {e}"))?
            .text()
            .await
            .map_err(|e| format!("cannot read the JWKS at {source}: {e}"))?
    } else {
        tokio::fs::read_to_string(source)
            .await
            .map_err(|e| format!("cannot read the JWKS file {source}: {e}"))?
    };
    serde_json::from_str(&text).map_err(|e| format!("{source} is not a JWKS (a JSON object with `keys`): {e}"))
}

impl Verifier {
    /// Loads the provider's keys; an unreadable or empty key set stops the start.
    pub async fn load(settings: TokenSettings) -> Result<Self, String> {
        let keys = fetch(&settings.jwks).await?;
        if keys.keys.is_empty() {
            return Err(format!("the JWKS at {} holds no key", settings.jwks));
        }
        Ok(Self {
            settings,
            keys: RwLock::new(keys),
            fetched: Mutex::new(Instant::now()),
            banks: Mutex::default(),
        })
    }

    fn key_for(&self, kid: Option<&str>) -> Option<jsonwebtoken::jwk::Jwk> {
        let keys = self.keys.read().ok()?;
        match kid {
            Some(kid) => keys.find(kid).cloned(),
            // A token without `kid` is accepted only from a provider with a single key.
            None if keys.keys.len() == 1 => keys.keys.first().cloned(),
            None => None,
        }
    }

    /// The caller a token stands for: `None` when it is not valid (bad signature, unknown key, wrong or missing
    /// issuer or audience when one is configured, expired, not valid yet, no known role, a bank role without a known
    /// bank).
    pub async fn verify(&self, db: &impl ConnectionTrait, token: &str) -> Result<Option<Caller>, ServiceError> {
        Ok(self.verify_with_claims(db, token).await?.map(|(c, _)| c))
    }

    /// [`Self::verify`], with the token's claims (an OpenID Connect sign-in checks its `nonce`).
    pub async fn verify_with_claims(
        &self,
        db: &impl ConnectionTrait,
        token: &str,
    ) -> Result<Option<(Caller, serde_json::Value)>, ServiceError> {
        let Ok(header) = decode_header(token) else {
            return Ok(None);
        };
        let mut jwk = self.key_for(header.kid.as_deref());
        if jwk.is_none() && header.kid.is_some() {
            let due = self
                .fetched
                .lock()
                .map(|mut at| {
                    let due = at.elapsed() > Duration::from_secs(60);
                    if due {
                        *at = Instant::now();
                    }
                    due
                })
                .unwrap_or(false);
            if due {
                match fetch(&self.settings.jwks).await {
                    Ok(keys) => {
                        if let Ok(mut k) = self.keys.write() {
                            *k = keys;
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "JWKS refresh failed; the keys known stay"),
                }
                jwk = self.key_for(header.kid.as_deref());
            }
        }
        let Some(jwk) = jwk else {
            return Ok(None);
        };
        let Ok(key) = DecodingKey::from_jwk(&jwk) else {
            return Ok(None);
        };
        let mut validation = Validation::new(header.alg);
        validation.leeway = self.settings.leeway;
        // A configured issuer or audience is a claim the token must carry, not one it may leave out; a token not
        // valid yet (`nbf` ahead, past the skew) is refused.
        validation.validate_nbf = true;
        let mut required = vec!["exp", "sub"];
        required.extend(self.settings.issuer.as_ref().map(|_| "iss"));
        required.extend(self.settings.audience.as_ref().map(|_| "aud"));
        validation.set_required_spec_claims(&required);
        match &self.settings.issuer {
            Some(iss) => validation.set_issuer(&[iss]),
            None => validation.iss = None,
        }
        match &self.settings.audience {
            Some(aud) => validation.set_audience(&[aud]),
            None => validation.validate_aud = false,
        }
        let Ok(data) = decode::<serde_json::Value>(token, &key, &validation) else {
            return Ok(None);
        };
        let claims = data.claims;
        let Some(subject) = claims.get("sub").and_then(|s| s.as_str()).map(str::to_owned) else {
            return Ok(None);
        };
        let roles: Vec<&str> = match claims.get(&self.settings.role_claim) {
            Some(serde_json::Value::String(s)) => vec![s.as_str()],
            Some(serde_json::Value::Array(a)) => a.iter().filter_map(|v| v.as_str()).collect(),
            _ => Vec::new(),
        };
        let Some(role) = roles.into_iter().find_map(Role::parse) else {
            return Ok(None);
        };
        let bank = match role {
            Role::Bank => {
                let Some(code) = claims.get(&self.settings.bank_claim).and_then(|b| b.as_str()) else {
                    return Ok(None);
                };
                let Some(id) = self.bank_id(db, code).await? else {
                    return Ok(None);
                };
                Some(id)
            }
            _ => None,
        };
        Ok(Some((Caller::Token { subject, role, bank }, claims)))
    }

    async fn bank_id(&self, db: &impl ConnectionTrait, code: &str) -> Result<Option<i64>, ServiceError> {
        let code = code.trim().to_uppercase();
        if let Some(known) = self.banks.lock().ok().and_then(|b| b.get(&code).copied()) {
            return Ok(known);
        }
        let id = bank::Entity::find()
            .filter(bank::Column::Code.eq(code.clone()))
            .one(db)
            .await?
            .map(|b| b.id);
        if let Ok(mut banks) = self.banks.lock() {
            banks.insert(code, id);
        }
        Ok(id)
    }
}

/// The `exp` of a token already verified, read from its payload (a session it starts ends no later).
pub fn expires_at(token: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    use base64::Engine;
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    chrono::DateTime::from_timestamp(claims.get("exp")?.as_i64()?, 0)
}
