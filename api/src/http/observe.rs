//! What the operators see of each request: its span (the trace it belongs to, from the caller's W3C `traceparent`
//! or new), its duration by route template, method and status in the metrics, and `/metrics` itself.

use super::AppState;
use axum::{
    extract::{MatchedPath, Request, State},
    http::{HeaderValue, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use service::{Caller, trace::TraceContext};
use tracing::Instrument;

/// The layer: runs the request in its span and trace context, and counts it.
pub async fn track(req: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let method = req.method().clone();
    // The route's template, never the path itself, so the labels stay few: `/bank-reports/:id/errors.xlsx` (written
    // with `:` rather than the router's braces, which some readers of the text format take for the end of the labels).
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .replace('{', ":")
        .replace('}', "");
    let incoming = req
        .headers()
        .get(service::trace::TRACEPARENT)
        .and_then(|v| v.to_str().ok())
        .and_then(TraceContext::parse);
    let span = tracing::info_span!("request", trace_id = tracing::field::Empty, method = %method, route = %route);
    let ctx = crate::telemetry::trace_context(&span, incoming);
    let _in_flight = crate::metrics::Gauged::up(crate::metrics::HTTP_IN_FLIGHT);
    let resp = service::trace::within(ctx, next.run(req)).instrument(span).await;
    crate::metrics::http_request(&method, &route, resp.status().as_u16(), started.elapsed());
    resp
}

/// `GET /metrics` on the main address: for an `admin` or `metrics` key.
pub async fn metrics(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: axum::http::HeaderMap,
) -> Response {
    if let Err(e) = service::access::authorize(&caller, service::access::Operation::ReadMetrics) {
        return super::refusal::refuse_service(e, super::refusal::lang_of(&headers));
    }
    exposition(State(state.db)).await
}

/// The exposition in Prometheus's text format (the metrics listener's only route).
pub async fn exposition(State(db): State<service::Db>) -> Response {
    let body = crate::metrics::render(&db).await;
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        )],
        body,
    )
        .into_response()
}
