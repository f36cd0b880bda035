//! Authentication at the door: every request but the probes (and, when an operator opens it, the aggregate
//! dashboard) presents an API key (`Authorization: Bearer fmt_…`, or `X-Api-Key`), or a browser's session cookie
//! (see [`super::session`]: a cookie's writes must come from this site); the credential becomes the request's
//! [`Caller`], which the handlers hand to the service layer, where the roles are checked. Missing or bad credentials
//! answer `401` before any handler runs.

use super::{
    AppState,
    credentials::{identify, presented},
};
use axum::{
    extract::{Request, State},
    http::{StatusCode, header},
    middleware::Next,
    response::Response,
};
use service::{
    Caller,
    messages::{Message, code},
};

/// Whether a method changes something (a browser sends such a request cross-site without asking first).
fn unsafe_method(method: &axum::http::Method) -> bool {
    !matches!(
        *method,
        axum::http::Method::GET | axum::http::Method::HEAD | axum::http::Method::OPTIONS
    )
}

/// The bucket a caller's requests count against: a key's number, or a token subject's hash (negative, apart from
/// the keys').
fn bucket_of(caller: &Caller) -> Option<i64> {
    match caller {
        Caller::Key { id, .. } => Some(*id),
        Caller::Token { subject, .. } => {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            subject.hash(&mut h);
            Some(-((h.finish() >> 1) as i64) - 1)
        }
        _ => None,
    }
}

/// Paths anybody may ask for.
fn public(path: &str, state: &AppState) -> bool {
    matches!(
        path,
        "/health" | "/ready" | "/sign-in" | "/sign-out" | "/sign-in/oidc" | "/sign-in/callback"
    ) || path.starts_with("/graphiql/")
        || path.starts_with("/assets/")
        || (state.open_dashboard && path == "/dashboard")
}

/// The layer: builds the [`Caller`] of the request or refuses it.
pub async fn authenticate(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let path = req.uri().path().to_owned();
    // From where: the peer's address, or what a trusted proxy forwards.
    let peer = req
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip());
    let remote = service::audit::Remote(
        state
            .trusted_proxies
            .client(peer, req.headers())
            .map(|ip| ip.to_string()),
    );
    let https = super::forwarded::ViaHttps(state.trusted_proxies.https(peer, req.headers()));
    req.extensions_mut().insert(remote.clone());
    req.extensions_mut().insert(https);
    let open = public(&path, &state);
    // A header's key, else a browser's session cookie; a cookie's request that changes something (or opens the
    // subscriptions' socket) must come from this site's own pages.
    let mut held = None;
    let found = match presented(req.headers()) {
        Some(key) => Some(identify(&state, &key).await),
        None => match super::session::from_cookie(req.headers()) {
            Some(id) => {
                if (unsafe_method(req.method()) || path == "/graphql/ws")
                    && !open
                    && let Err(origin) = super::session::same_origin(req.headers())
                {
                    tracing::warn!(origin, path, "request refused: cookie sent from another site");
                    return super::session::cross_site(&path, req.headers(), &origin);
                }
                Some(
                    service::sessions::resolve(&state.db, &id, chrono::Utc::now())
                        .await
                        .map(|s| {
                            s.map(|s| {
                                held = Some(SessionHeld {
                                    hash: s.hash,
                                    expires_at: s.expires_at,
                                });
                                (s.caller, s.rate_per_second)
                            })
                        }),
                )
            }
            None => None,
        },
    };
    let caller = match found {
        Some(found) => match found {
            Ok(Some((caller, own_rate))) => {
                let rate = own_rate.unwrap_or(state.rate_limit);
                if let Some(bucket) = bucket_of(&caller)
                    && !state.rates.admit(bucket, rate)
                {
                    tracing::warn!(who = caller.actor(), rate, path, "request refused: past its rate");
                    return super::admission::rate_limited(&path, req.headers(), rate);
                }
                Some(caller)
            }
            Ok(None) => None,
            // The probes answer whatever the database does.
            Err(_) if open => None,
            Err(e) => {
                tracing::error!(error = %e, "key lookup failed");
                return super::refusal::rest_error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "UNAVAILABLE",
                    None,
                    "credentials could not be checked; try again".into(),
                );
            }
        },
        None => None,
    };
    // A WebSocket upgrade presents its key in `connection_init` instead (browsers cannot set headers on it).
    let upgrade = path == "/graphql/ws";
    match caller {
        Some(c) => {
            req.extensions_mut().insert(c);
            if let Some(h) = held {
                req.extensions_mut().insert(h);
            }
            next.run(req).await
        }
        None if open || upgrade => {
            req.extensions_mut().insert(Caller::Anonymous);
            next.run(req).await
        }
        None if super::session::wants_page(req.method(), req.headers()) => {
            // A browser asking for a page: to the sign-in form, and back here after.
            let target = req
                .uri()
                .path_and_query()
                .map_or(path.as_str(), |p| p.as_str())
                .to_owned();
            super::session::to_sign_in(&target)
        }
        None => {
            let action = format!("{} {path}", req.method());
            state
                .refusals
                .refused(&state.db, &action, &remote, chrono::Utc::now())
                .await;
            unauthenticated(&path, req.headers())
        }
    }
}

/// The browser session a request came with (its cookie), when that is what identified it: what the subscriptions'
/// socket watches to close when the session ends.
#[derive(Debug, Clone)]
pub struct SessionHeld {
    /// The session's stored hash, announced when it ends.
    pub hash: String,
    /// When it ends by itself.
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

/// `401` in the shape of the endpoint: a GraphQL error (`UNAUTHENTICATED`) on `/graphql`, the banks' REST error
/// elsewhere.
fn unauthenticated(path: &str, headers: &axum::http::HeaderMap) -> Response {
    // A browser's form posted after its session ended: a page saying so, with the way to sign in again.
    if path != "/graphql" && super::pages::accepts_html(headers) {
        let lang = super::refusal::lang_of(headers);
        let text = super::pages::t("pages.problem.401.text", lang);
        return super::pages::problem(StatusCode::UNAUTHORIZED, lang, &text);
    }
    let mut resp = super::admission::refusal(
        path,
        headers,
        StatusCode::UNAUTHORIZED,
        code::UNAUTHENTICATED,
        Message::new(code::UNAUTHENTICATED),
    );
    resp.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        header::HeaderValue::from_static("Bearer realm=\"fomento\""),
    );
    resp
}

/// The object an answer is about (a report received, an import), as a global ID, for the audit log.
#[derive(Debug, Clone)]
struct AuditedObject(String);

/// `response`, naming `id` as the object it is about (for [`audited`]).
pub fn naming(id: async_graphql::ID, mut response: Response) -> Response {
    response.extensions_mut().insert(AuditedObject(id.0));
    response
}

/// Records `response` in the audit log as `action` on `target` (else the object the response names) by `caller`,
/// and returns it.
pub async fn audited(
    db: &service::Db,
    caller: &Caller,
    action: &str,
    target: Option<&str>,
    remote: &service::audit::Remote,
    response: Response,
) -> Response {
    let named = response.extensions().get::<AuditedObject>().map(|o| o.0.clone());
    let target = target.map(str::to_owned).or(named);
    let code = code_of_status(response.status());
    service::audit::record(db, caller, action, target.as_deref(), code, remote).await;
    response
}

/// The audit's code of an answer's status: none for a success.
fn code_of_status(status: StatusCode) -> Option<&'static str> {
    (!status.is_success()).then(|| match status.as_u16() {
        401 => "UNAUTHENTICATED",
        403 => "FORBIDDEN",
        404 => "NOT_FOUND",
        413 => "PAYLOAD_TOO_LARGE",
        s if s >= 500 => "INTERNAL",
        _ => "BAD_USER_INPUT",
    })
}
