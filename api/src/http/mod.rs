//! The HTTP doors: the router and its state (`mod.rs`), GraphQL over HTTP and GraphiQL (`graphql`), the banks'
//! report endpoints (`reports`), and the probes (`health`). Handlers parse the request, call the service layer and
//! shape its answer.

pub mod auth;
pub mod dashboard;
pub mod exports;
pub mod graphql;
pub mod health;
pub mod imports;
pub mod reports;

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
    /// The ingestion runtime (stores uploads, wakes the worker).
    pub ingestion: Option<crate::runtime::Ingestion>,
    /// The largest request body accepted, in bytes (`--max-upload-bytes`).
    pub max_upload_bytes: usize,
    /// Whether `/dashboard` (the aggregate figures) is open to callers without a key (`--open-dashboard`).
    pub open_dashboard: bool,
}

/// The router: `/graphql`, `/health`, `/ready`.
pub fn router(state: AppState) -> Router {
    let limit = state.max_upload_bytes;
    Router::new()
        .route(
            "/graphql",
            get(graphql::graphql_get)
                .post(graphql::graphql_post)
                .layer(axum::extract::DefaultBodyLimit::max(limit)),
        )
        .route(
            "/bank-reports",
            axum::routing::post(reports::upload).layer(axum::extract::DefaultBodyLimit::max(limit)),
        )
        .route("/bank-reports/template.xlsx", get(reports::template))
        .route(
            "/imports/{kind}",
            axum::routing::post(imports::upload).layer(axum::extract::DefaultBodyLimit::max(limit)),
        )
        .route("/imports/{kind}/template.xlsx", get(imports::template))
        .route("/bank-reports/{id}/errors.xlsx", get(reports::errors_xlsx))
        .route("/graphql/ws", get(graphql::subscriptions))
        .route("/exports/{file}", get(exports::export))
        .route("/dashboard", get(dashboard::page))
        .route("/graphiql/{file}", get(graphql::graphiql_asset))
        .route("/health", get(health::health))
        .route("/ready", get(health::ready))
        .layer(axum::middleware::from_fn_with_state(state.clone(), auth::authenticate))
        .with_state(state)
}
