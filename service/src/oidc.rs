//! Signing in through an OpenID Connect provider (the authorization-code flow), for browsers: the provider's
//! endpoints come from its discovery document; the ID token it returns is checked like any of its tokens (signature
//! against its JWKS, issuer, audience = our client, expiry) and its `nonce` against the one this sign-in sent; its
//! claims give the role and bank as for bearer tokens ([`crate::tokens`]).

use crate::{
    Caller, ServiceError,
    tokens::{TokenSettings, Verifier},
};
use sea_orm::ConnectionTrait;
use std::time::Duration;

/// How Fomento is registered with the provider.
#[derive(Debug, Clone)]
pub struct OidcSettings {
    /// The issuer (`https://idp.example.gov.br/realms/mt`); its discovery document is at
    /// `{issuer}/.well-known/openid-configuration`.
    pub issuer: String,
    /// Fomento's client id (also the ID token's audience).
    pub client_id: String,
    /// Fomento's client secret.
    pub client_secret: String,
    /// Where the provider sends the browser back: `https://fomento.example.gov.br/sign-in/callback`.
    pub redirect_url: String,
    /// The claim holding the role.
    pub role_claim: String,
    /// The claim holding a bank role's bank code.
    pub bank_claim: String,
    /// The clock skew allowed on the ID token's `exp`, in seconds.
    pub leeway: u64,
}

/// A provider, discovered.
#[derive(Debug)]
pub struct Provider {
    settings: OidcSettings,
    authorization_endpoint: String,
    token_endpoint: String,
    verifier: Verifier,
}

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap_or_default()
}

impl Provider {
    /// Reads the provider's discovery document and its keys; a provider that cannot be reached stops the start.
    pub async fn discover(settings: OidcSettings) -> Result<Self, String> {
        let url = format!(
            "{}/.well-known/openid-configuration",
            settings.issuer.trim_end_matches('/')
        );
        let doc: serde_json::Value = http()
            .get(&url)
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| format!("cannot read the provider's discovery document at {url}: {e}"))?
            .json()
            .await
            .map_err(|e| format!("the discovery document at {url} is not JSON: {e}"))?;
        let field = |name: &str| {
            doc.get(name)
                .and_then(|v| v.as_str())
                .map(str::to_owned)
                .ok_or_else(|| format!("the discovery document at {url} has no {name}"))
        };
        let verifier = Verifier::load(TokenSettings {
            jwks: field("jwks_uri")?,
            issuer: Some(settings.issuer.clone()),
            audience: Some(settings.client_id.clone()),
            leeway: settings.leeway,
            role_claim: settings.role_claim.clone(),
            bank_claim: settings.bank_claim.clone(),
        })
        .await?;
        Ok(Self {
            authorization_endpoint: field("authorization_endpoint")?,
            token_endpoint: field("token_endpoint")?,
            verifier,
            settings,
        })
    }

    /// Where to send the browser to sign in: the provider's authorization endpoint with this sign-in's `state` and
    /// `nonce`.
    pub fn authorization_url(&self, state: &str, nonce: &str) -> String {
        let sep = if self.authorization_endpoint.contains('?') {
            '&'
        } else {
            '?'
        };
        format!(
            "{}{sep}response_type=code&scope=openid&client_id={}&redirect_uri={}&state={}&nonce={}",
            self.authorization_endpoint,
            encode(&self.settings.client_id),
            encode(&self.settings.redirect_url),
            encode(state),
            encode(nonce)
        )
    }

    /// Exchanges the code the provider sent back for its ID token, and checks it: the caller it stands for and the
    /// token itself (kept in the session cookie), or `None` when the provider refused the code or the token fails a
    /// check (its nonce included).
    pub async fn finish(
        &self,
        db: &impl ConnectionTrait,
        code: &str,
        nonce: &str,
    ) -> Result<Option<(Caller, String)>, ServiceError> {
        let form = [
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", self.settings.redirect_url.as_str()),
            ("client_id", self.settings.client_id.as_str()),
            ("client_secret", self.settings.client_secret.as_str()),
        ];
        let body = form
            .iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let answer = http()
            .post(&self.token_endpoint)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await;
        let tokens: serde_json::Value = match answer {
            Ok(r) if r.status().is_success() => r.json().await.unwrap_or_default(),
            Ok(r) => {
                tracing::warn!(status = %r.status(), "the provider refused the sign-in code");
                return Ok(None);
            }
            Err(e) => {
                tracing::warn!(error = %e, "the provider's token endpoint did not answer");
                return Ok(None);
            }
        };
        let Some(id_token) = tokens.get("id_token").and_then(|t| t.as_str()) else {
            return Ok(None);
        };
        Ok(self
            .verify(db, id_token, Some(nonce))
            .await?
            .map(|c| (c, id_token.to_owned())))
    }

    /// The caller an ID token of this provider stands for, its nonce checked when one is given.
    pub async fn verify(
        &self,
        db: &impl ConnectionTrait,
        id_token: &str,
        nonce: Option<&str>,
    ) -> Result<Option<Caller>, ServiceError> {
        Ok(match self.verifier.verify_with_claims(db, id_token).await? {
            Some((caller, claims)) if nonce.is_none_or(|n| claims.get("nonce").and_then(|v| v.as_str()) == Some(n)) => {
                Some(caller)
            }
            _ => None,
        })
    }
}

/// Percent-encodes a query value.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
