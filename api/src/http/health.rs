//! The probes: `GET /health` (the process is up) and `GET /ready` (the database answers and every migration is
//! applied).

use super::AppState;
use axum::{
    Json,
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use migration::{Migrator, MigratorTrait};
use serde_json::json;

pub async fn health() -> impl IntoResponse {
    Json(json!({ "status": "up" }))
}

pub async fn ready(State(state): State<AppState>) -> Response {
    if let Err(e) = state.db.ping().await {
        tracing::warn!(error = %e, "readiness: database unreachable");
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({ "status": "unavailable", "reason": "database unreachable" })),
        )
            .into_response();
    }
    match Migrator::get_pending_migrations(&state.db).await {
        Ok(pending) if pending.is_empty() => Json(json!({ "status": "ready" })).into_response(),
        Ok(pending) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({ "status": "unavailable", "reason": format!("{} migrations pending", pending.len()) })),
        )
            .into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "readiness: cannot read migrations");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "unavailable", "reason": "cannot read migrations" })),
            )
                .into_response()
        }
    }
}
