//! What a request's credential stands for: the key it presents (`Authorization: Bearer fmt_…`, or `X-Api-Key`), and
//! the caller that key or token is, checked by the door ([`super::auth`]), the sign-in form ([`super::session`]) and
//! the subscriptions' socket alike.

use super::AppState;
use axum::http::header;
use service::Caller;

/// The token of an `Authorization` value (`Bearer fmt_…`, any case); none for another scheme.
pub fn bearer(value: &str) -> Option<String> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_owned())
}

/// The key a request presents in a header, if any.
pub fn presented(headers: &axum::http::HeaderMap) -> Option<String> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer);
    bearer.or_else(|| {
        headers
            .get("x-api-key")
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().to_owned())
    })
}

/// The caller a presented credential stands for, and the rate it may make requests at: an API key (`fmt_…`), or a
/// JWT when an identity provider is configured. `None` for a credential that is not valid.
pub async fn identify(
    state: &AppState,
    presented: &str,
) -> Result<Option<(Caller, Option<u32>)>, service::ServiceError> {
    if service::tokens::looks_like_jwt(presented) {
        if let Some(verifier) = &state.tokens
            && let Some(c) = verifier.verify(&state.db, presented).await?
        {
            return Ok(Some((c, None)));
        }
        // A browser signed in through the OpenID Connect provider carries its ID token.
        if let Some(provider) = &state.oidc
            && let Some(c) = provider.verify(&state.db, presented, None).await?
        {
            return Ok(Some((c, None)));
        }
        return Ok(None);
    }
    Ok(service::keys::authenticate_key(&state.db, presented)
        .await?
        .map(|k| (k.caller, k.rate_per_second)))
}
