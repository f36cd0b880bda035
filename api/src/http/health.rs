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
    // Within a second whatever the database does: the watcher's last look, then a ping bounded in time.
    let ping = async {
        if state.liveness.is_down() {
            return Err("the database does not answer".to_owned());
        }
        match tokio::time::timeout(std::time::Duration::from_millis(800), state.db.ping()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("no answer within 800 ms".to_owned()),
        }
    };
    if let Err(e) = ping.await {
        tracing::warn!(error = %e, "readiness: database unreachable");
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({ "status": "unavailable", "reason": "database unreachable" })),
        )
            .into_response();
    }
    let pending = tokio::time::timeout(
        std::time::Duration::from_millis(800),
        Migrator::get_pending_migrations(&state.db),
    )
    .await
    .unwrap_or_else(|_| Err(sea_orm::DbErr::Custom("no answer within 800 ms".into())));
    match pending {
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
