//! What the door bounds before any handler runs: requests per second per key (the generic cell rate algorithm of
//! `governor`, one bucket per key), the time a request may take, and whether the database answers at all (so a
//! request fails at once with a clear `503` while PostgreSQL is down, instead of waiting on the pool). Each refusal
//! has the shape of its endpoint: a GraphQL error on `/graphql`, the banks' REST error elsewhere.

use super::AppState;
use axum::{
    extract::{Request, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use governor::{Quota, RateLimiter, clock::DefaultClock, state::InMemoryState, state::NotKeyed};
use service::messages::{Message, code};
use std::{
    collections::HashMap,
    num::NonZeroU32,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

type Bucket = RateLimiter<NotKeyed, InMemoryState, DefaultClock>;

/// One bucket per key: `rate` requests per second, in bursts of up to twice that.
#[derive(Default)]
pub struct RateLimits {
    buckets: Mutex<HashMap<i64, (u32, Arc<Bucket>)>>,
}

impl std::fmt::Debug for RateLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimits").finish_non_exhaustive()
    }
}

impl RateLimits {
    /// Whether key `id` may make one more request at `rate` per second (a changed rate starts a new bucket).
    pub fn admit(&self, id: i64, rate: u32) -> bool {
        let Some(per_second) = NonZeroU32::new(rate) else {
            return true;
        };
        let bucket = {
            let Ok(mut buckets) = self.buckets.lock() else {
                return true;
            };
            let entry = buckets.entry(id).or_insert_with(|| (0, Arc::new(bucket(per_second))));
            if entry.0 != rate {
                *entry = (rate, Arc::new(bucket(per_second)));
            }
            entry.1.clone()
        };
        bucket.check().is_ok()
    }
}

fn bucket(per_second: NonZeroU32) -> Bucket {
    let burst = per_second.saturating_mul(NonZeroU32::MIN.saturating_add(1));
    RateLimiter::direct(Quota::per_second(per_second).allow_burst(burst))
}

/// Whether the database answers, kept by a watcher on its own connection (not the pool's, so a busy pool never
/// reads as a dead database). Up until the watcher says otherwise; always up where there is no watcher (SQLite).
#[derive(Debug, Clone, Default)]
pub struct Liveness(Arc<Alive>);

#[derive(Debug, Default)]
struct Alive {
    down: AtomicBool,
    changed: tokio::sync::Notify,
}

impl Liveness {
    /// Whether the last look found the database down.
    pub fn is_down(&self) -> bool {
        self.0.down.load(Ordering::Relaxed)
    }

    fn set(&self, down: bool) {
        if self.0.down.swap(down, Ordering::Relaxed) != down {
            if down {
                tracing::error!("the database does not answer: requests are refused with 503 until it does");
            } else {
                tracing::info!("the database answers again");
            }
            self.0.changed.notify_waiters();
        }
    }

    /// Resolves when the database is found down.
    async fn gone(&self) {
        loop {
            let notified = self.0.changed.notified();
            if self.is_down() {
                return;
            }
            notified.await;
        }
    }

    /// Watches a PostgreSQL server through a connection of its own: `SELECT 1` every quarter second, down at the
    /// first refused or broken connection or after two answers slower than a second, up at the first answer. The
    /// watcher ends when the server that holds this `Liveness` is gone.
    pub fn watch_postgres(&self, url: String) {
        use sqlx::{Connection, Executor, postgres::PgConnection};
        let weak = Arc::downgrade(&self.0);
        tokio::spawn(async move {
            let mut conn: Option<PgConnection> = None;
            let mut slow = 0;
            loop {
                let Some(me) = weak.upgrade().map(Liveness) else {
                    return;
                };
                let started = tokio::time::Instant::now();
                let answered = tokio::time::timeout(Duration::from_secs(1), async {
                    if conn.is_none() {
                        conn = Some(PgConnection::connect(&url).await?);
                    }
                    match conn.as_mut() {
                        Some(c) => c.execute("SELECT 1").await.map(|_| ()),
                        None => Ok(()),
                    }
                })
                .await;
                match answered {
                    Ok(Ok(())) => {
                        slow = 0;
                        me.set(false);
                    }
                    Ok(Err(_)) => {
                        conn = None;
                        me.set(true);
                    }
                    Err(_) => {
                        conn = None;
                        slow += 1;
                        if slow >= 2 {
                            me.set(true);
                        }
                    }
                }
                drop(me);
                tokio::time::sleep_until(started + Duration::from_millis(250)).await;
            }
        });
    }
}

/// The admission limit: at most `limit` requests served at once, the rest refused at once (`503 OVERLOADED`); and
/// of the GraphQL requests admitted, at most `running` worked on at once, the others waiting their turn in arrival
/// order. Queries worked on all together share the processor, so the heaviest sit at the tail; taken in turn, every
/// query waits about as long as the others and then runs at full speed.
#[derive(Debug)]
pub struct Admission {
    limit: u32,
    permits: Arc<tokio::sync::Semaphore>,
    turns: Arc<tokio::sync::Semaphore>,
}

impl Admission {
    /// At most `limit` requests at once, `running` GraphQL requests worked on at once.
    pub fn new(limit: u32, running: u32) -> Self {
        Self {
            limit,
            permits: Arc::new(tokio::sync::Semaphore::new(limit as usize)),
            turns: Arc::new(tokio::sync::Semaphore::new(running.max(1) as usize)),
        }
    }
}

/// A refusal in the shape of the endpoint at `path`, with `Connection: close`: it is made without reading the
/// request's body, after which the server cannot reuse the connection, so the client is told to open another rather
/// than finding this one closed under its next request.
pub fn refusal(path: &str, headers: &HeaderMap, status: StatusCode, code: &str, message: Message) -> Response {
    let text = message.render(super::refusal::lang_of(headers));
    let mut resp = if path == "/graphql" {
        (
            status,
            [(header::CONTENT_TYPE, "application/graphql-response+json")],
            serde_json::json!({ "errors": [{ "message": text, "extensions": { "code": code } }] }).to_string(),
        )
            .into_response()
    } else {
        super::refusal::rest_error(status, code, None, text)
    };
    resp.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    resp
}

/// `429 RATE_LIMITED` for a key past its rate.
pub fn rate_limited(path: &str, headers: &HeaderMap, rate: u32) -> Response {
    crate::metrics::refused("rate_limited");
    let mut resp = refusal(
        path,
        headers,
        StatusCode::TOO_MANY_REQUESTS,
        code::RATE_LIMITED,
        Message::new(code::RATE_LIMITED).arg("rate", rate).arg("seconds", 1),
    );
    resp.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    resp
}

/// The layer bounding each request's time, and refusing at once while the database is down. The probes and the
/// subscriptions' socket pass through (a socket lives as long as its client keeps it; `/ready` says what it finds).
pub async fn bound(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_owned();
    if matches!(path.as_str(), "/health" | "/ready" | "/metrics" | "/graphql/ws")
        || path.starts_with("/graphiql/")
        || path.starts_with("/assets/")
    {
        return next.run(req).await;
    }
    let headers = req.headers().clone();
    let unavailable = || {
        tracing::warn!(path, "request refused: the database does not answer");
        crate::metrics::refused("database_unavailable");
        let mut resp = refusal(
            &path,
            &headers,
            StatusCode::SERVICE_UNAVAILABLE,
            code::DATABASE_UNAVAILABLE,
            Message::new(code::DATABASE_UNAVAILABLE),
        );
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        resp
    };
    // Held until the response is made; a request past the limit is refused before any work.
    let Ok(_admitted) = state.admission.permits.clone().try_acquire_owned() else {
        tracing::warn!(
            path,
            limit = state.admission.limit,
            "request refused: the server is at its limit of requests served at once"
        );
        crate::metrics::refused("overloaded");
        let mut resp = refusal(
            &path,
            &headers,
            StatusCode::SERVICE_UNAVAILABLE,
            code::OVERLOADED,
            Message::new(code::OVERLOADED)
                .arg("limit", state.admission.limit)
                .arg("seconds", 1),
        );
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return resp;
    };
    if state.liveness.is_down() {
        return unavailable();
    }
    let limit = state.request_timeout;
    let graph = path == "/graphql";
    let work = async {
        // A query waits its turn (first come, first served; within the request's time limit).
        let _turn = if graph {
            let _waiting = crate::metrics::Gauged::up(crate::metrics::GRAPHQL_WAITING);
            state.admission.turns.clone().acquire_owned().await.ok()
        } else {
            None
        };
        next.run(req).await
    };
    tokio::select! {
        resp = tokio::time::timeout(limit, work) => match resp {
            Ok(resp) => resp,
            Err(_) => {
                tracing::warn!(path, seconds = limit.as_secs(), "request stopped at the time limit");
                crate::metrics::refused("request_timeout");
                let mut resp = refusal(
                    &path,
                    &headers,
                    StatusCode::SERVICE_UNAVAILABLE,
                    code::REQUEST_TIMEOUT,
                    Message::new(code::REQUEST_TIMEOUT).arg("seconds", limit.as_secs()),
                );
                resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
                resp
            }
        },
        () = state.liveness.gone() => unavailable(),
    }
}

/// CORS for the origins an operator names (`--cors-origin`, `*` for any); none by default (same origin only).
pub fn cors(origins: &[String]) -> Option<tower_http::cors::CorsLayer> {
    use tower_http::cors::{AllowOrigin, CorsLayer};
    if origins.is_empty() {
        return None;
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().filter_map(|o| HeaderValue::from_str(o.trim()).ok()))
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([axum::http::Method::GET, axum::http::Method::POST])
            .allow_headers([
                header::AUTHORIZATION,
                header::CONTENT_TYPE,
                header::ACCEPT,
                header::ACCEPT_LANGUAGE,
                header::HeaderName::from_static("x-api-key"),
            ])
            .max_age(Duration::from_secs(600)),
    )
}
