//! The HTTP doors: the router and its state (`mod.rs`), GraphQL over HTTP and GraphiQL (`graphql`), the banks'
//! report endpoints (`reports`), and the probes (`health`). Handlers parse the request, call the service layer and
//! shape its answer.

pub mod admin_keys;
pub mod admission;
pub mod auth;
pub mod banks;
pub mod credentials;
pub mod dashboard;
pub mod exports;
pub mod forwarded;
pub mod graphql;
pub mod health;
pub mod imports;
pub mod observe;
pub mod pages;
pub mod params;
pub mod refusal;
pub mod reports;
pub mod session;
pub mod subscriptions;

use crate::graphql::AppSchema;
use axum::{Router, routing::get};
use service::Db as DatabaseConnection;

/// Shared state of the HTTP handlers.
#[derive(Clone)]
pub struct AppState {
    /// The GraphQL schema.
    pub schema: AppSchema,
    /// The database.
    pub db: DatabaseConnection,
    /// The jobs' runtime (stores uploads, wakes the worker).
    pub runtime: Option<crate::runtime::JobsRuntime>,
    /// The largest request body accepted, in bytes (`--max-upload-bytes`).
    pub max_upload_bytes: usize,
    /// Whether `/dashboard` (the aggregate figures) is open to callers without a key (`--open-dashboard`).
    pub open_dashboard: bool,
    /// Requests per second a key may make when it has no rate of its own (`--rate-limit`; 0: no limit).
    pub rate_limit: u32,
    /// The buckets of the rate limit.
    pub rates: std::sync::Arc<admission::RateLimits>,
    /// The longest a request may take (`--request-timeout`).
    pub request_timeout: std::time::Duration,
    /// The requests served at once (`--max-in-flight`).
    pub admission: std::sync::Arc<admission::Admission>,
    /// Whether the database answers.
    pub liveness: admission::Liveness,
    /// The origins browsers may call from (`--cors-origin`).
    pub cors_origins: Vec<String>,
    /// Whether the graph answers introspection (`--no-introspection` turns it off).
    pub introspection: bool,
    /// Whether plain selections are read at once (`--no-plain-reads` turns it off; `graphql::plain`).
    pub plain_reads: bool,
    /// The identity provider's token verifier, when one is configured (`--jwks`).
    pub tokens: Option<std::sync::Arc<service::tokens::Verifier>>,
    /// The OpenID Connect provider browsers sign in through, when one is configured (`--oidc-issuer`).
    pub oidc: Option<std::sync::Arc<service::oidc::Provider>>,
    /// The proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed (`--trusted-proxy`).
    pub trusted_proxies: forwarded::TrustedProxies,
    /// The calls refused for want of a credential, counted per address before they reach the audit log.
    pub refusals: std::sync::Arc<service::audit::Refusals>,
}

/// The router: `/graphql`, the uploads and exports, the pages, `/health`, `/ready` and `/metrics`.
pub fn router(state: AppState) -> Router {
    let limit = state.max_upload_bytes;
    let cors = admission::cors(&state.cors_origins);
    let router = Router::new()
        .route(
            "/graphql",
            get(graphql::graphql_get)
                .post(graphql::graphql_post)
                .layer(axum::extract::DefaultBodyLimit::max(limit)),
        )
        .route(
            "/bank-reports",
            get(pages::reports_index)
                .post(reports::upload)
                .layer(axum::extract::DefaultBodyLimit::max(limit)),
        )
        .route("/bank-reports/template.xlsx", get(reports::template))
        .route(
            "/imports/{kind}",
            axum::routing::post(imports::upload).layer(axum::extract::DefaultBodyLimit::max(limit)),
        )
        .route("/imports/{kind}/template.xlsx", get(imports::template))
        .route("/bank-reports/{id}/errors.xlsx", get(reports::errors_xlsx))
        .route("/graphql/ws", get(subscriptions::subscriptions))
        .route("/exports/{file}", get(exports::export))
        .route("/dashboard", get(dashboard::page))
        .route("/graphiql/{file}", get(graphql::graphiql_asset))
        .route("/assets/{file}", get(pages::asset))
        .route("/", get(pages::start))
        .route("/bank", get(banks::home))
        .route(
            "/bank/send",
            get(banks::send_form)
                .post(banks::send)
                .layer(axum::extract::DefaultBodyLimit::max(limit)),
        )
        .route("/bank/reports", get(banks::reports))
        .route("/bank/cartas", get(banks::cartas))
        .route("/bank/cartas.xlsx", get(banks::cartas_in_template))
        .route("/admin/keys", get(admin_keys::show).post(admin_keys::issue))
        .route(
            "/admin/keys/{id}/revoke",
            get(admin_keys::confirm).post(admin_keys::revoke),
        )
        .route("/bank/reports/{id}", get(banks::report))
        .route("/bank/reports/{id}/file", get(banks::original))
        .route("/sign-in", get(session::page).post(session::sign_in))
        .route("/sign-out", axum::routing::post(session::sign_out))
        .route("/sign-in/oidc", get(session::oidc_start))
        .route("/sign-in/callback", get(session::oidc_callback))
        .route("/health", get(health::health))
        .route("/ready", get(health::ready))
        .route("/metrics", get(observe::metrics))
        .fallback(pages::not_found)
        // Layers run outside in: CORS (preflights need no key), the request's span and metrics, the time and
        // liveness bound, then the key.
        .layer(axum::middleware::from_fn_with_state(state.clone(), auth::authenticate))
        .layer(axum::middleware::from_fn(pages::query_lang))
        .layer(axum::middleware::from_fn_with_state(state.clone(), admission::bound))
        .layer(axum::middleware::from_fn(observe::track))
        .with_state(state);
    match cors {
        Some(cors) => router.layer(cors),
        None => router,
    }
}
