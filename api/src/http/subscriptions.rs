//! Subscriptions over graphql-transport-ws at `/graphql/ws`: the socket's credential (at the upgrade or in
//! `connection_init`), the protocol's close codes and `error` messages, and the socket closed when its credential
//! ends. The subscriptions run on the one schema as [`crate::graphql::request::Checked`] runs it.

use super::AppState;
use axum::{extract::State, http::HeaderMap, response::Response};
use service::Caller;

/// Subscriptions over graphql-transport-ws at `/graphql/ws`: the key comes in `connection_init`
/// (`{"authorization": "Bearer fmt_…"}` or `{"apiKey": "fmt_…"}`), or in the upgrade's own header or session cookie;
/// without a valid one the connection is closed at init with `4403 Forbidden`, and a `subscribe` before the
/// acknowledgement with `4401 Unauthorized`, the codes the protocol gives. The socket is closed with `4403` when its
/// key is revoked, its token expires, or the browser session that opened it ends (sign-out, expiry).
pub async fn subscriptions(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    session: Option<axum::Extension<super::auth::SessionHeld>>,
    headers: HeaderMap,
    protocol: async_graphql_axum::GraphQLProtocol,
    upgrade: axum::extract::ws::WebSocketUpgrade,
) -> Response {
    use futures::{SinkExt, StreamExt};
    use std::sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    };
    let schema = crate::graphql::request::Checked(state.schema.clone());
    // Whose key the socket serves (its hash) and until when (a token's `exp`), once known: at the upgrade or at
    // `connection_init`.
    let who: std::sync::Arc<std::sync::OnceLock<Holder>> = Default::default();
    let upgrade_token = super::credentials::presented(&headers);
    // The socket's language: the upgrade's `Accept-Language`, or a `lang` in `connection_init`'s payload, once read.
    let upgrade_lang = super::refusal::lang_of(&headers);
    let spoken: Arc<std::sync::OnceLock<service::messages::Lang>> = Default::default();
    let told = spoken.clone();
    upgrade
        .protocols(async_graphql::http::ALL_WEBSOCKET_PROTOCOLS)
        .on_upgrade(move |socket| async move {
            // Listening before anything else, so that no revocation is missed.
            let revoked = service::keys::revocations().subscribe();
            let (mut to_client, from_client) = socket.split();
            let (outgoing, mut answers) = futures::channel::mpsc::unbounded::<axum::extract::ws::Message>();
            let known = who.clone();
            // async-graphql closes a refused `connection_init` with 1002 and an early `subscribe` with 1011; the
            // close frames going out are given the protocol's codes.
            let refused = Arc::new(AtomicBool::new(false));
            let seen = refused.clone();
            let serve = async_graphql_axum::GraphQLWebSocket::new_with_pair(outgoing, from_client, schema, protocol)
                .on_connection_init(move |payload| async move {
                    let state = state;
                    let lang = payload
                        .get("lang")
                        .and_then(|v| v.as_str())
                        .and_then(service::messages::Lang::from_tag)
                        .unwrap_or(upgrade_lang);
                    let _ = told.set(lang);
                    let (caller, token) = if caller == Caller::Anonymous {
                        let field = |k: &str| payload.get(k).and_then(|v| v.as_str());
                        let key = field("authorization")
                            .or_else(|| field("Authorization"))
                            .and_then(super::credentials::bearer)
                            .or_else(|| field("apiKey").map(str::to_owned));
                        match key {
                            Some(k) => (
                                super::credentials::identify(&state, &k)
                                    .await
                                    .ok()
                                    .flatten()
                                    .map(|(c, _)| c),
                                Some(k),
                            ),
                            None => (None, None),
                        }
                    } else {
                        (Some(caller), upgrade_token)
                    };
                    let Some(caller) = caller else {
                        refused.store(true, Ordering::Relaxed);
                        return Err(async_graphql::Error::new(
                            service::messages::Message::new(service::messages::code::SOCKET_UNAUTHENTICATED)
                                .render(lang),
                        ));
                    };
                    let session = session.filter(|_| token.is_none()).map(|axum::Extension(s)| s);
                    let until = token
                        .filter(|t| service::tokens::looks_like_jwt(t))
                        .and_then(|t| service::tokens::expires_at(&t))
                        .or(session.as_ref().map(|s| s.expires_at));
                    let key_hash = match &caller {
                        Caller::Key { id, .. } => service::keys::hash_of(&state.db, *id).await.ok().flatten(),
                        _ => None,
                    };
                    let _ = known.set(Holder {
                        key_hash,
                        session_hash: session.map(|s| s.hash),
                        until,
                    });
                    let mut data = async_graphql::Data::default();
                    data.insert(caller);
                    // Each answer's errors in the socket's language (`graphql::request::Checked`).
                    data.insert(lang);
                    Ok(data)
                })
                .serve();
            let forward = async {
                let ended = credential_ended(revoked, &who);
                tokio::pin!(ended);
                // A `next` with errors and no data, held until the next message says whether it was a refused
                // request (see `refused_request`).
                let mut held: Option<(String, serde_json::Value, axum::extract::ws::Message)> = None;
                loop {
                    tokio::select! {
                        answer = answers.next() => match answer {
                            Some(axum::extract::ws::Message::Close(Some(mut frame))) => {
                                if let Some((_, _, next)) = held.take() {
                                    let _ = to_client.send(next).await;
                                }
                                frame.code = close_code(frame.code, seen.load(Ordering::Relaxed));
                                frame.reason = close_reason(frame.reason.as_str()).into();
                                let _ = to_client.send(axum::extract::ws::Message::Close(Some(frame))).await;
                                return;
                            }
                            Some(m) => {
                                let parsed = match &m {
                                    axum::extract::ws::Message::Text(t) => {
                                        serde_json::from_str::<serde_json::Value>(t.as_str()).ok()
                                    }
                                    _ => None,
                                };
                                if let Some((id, errors, next)) = held.take() {
                                    let completes = parsed.as_ref().is_some_and(|v| {
                                        v["type"] == "complete" && v["id"].as_str() == Some(id.as_str())
                                    });
                                    let out = if completes {
                                        refused_request(&id, errors)
                                    } else {
                                        next
                                    };
                                    if to_client.send(out).await.is_err() {
                                        return;
                                    }
                                    if completes {
                                        continue;
                                    }
                                }
                                if let Some(v) = parsed.filter(|v| {
                                    v["type"] == "next"
                                        && v["payload"]["data"].is_null()
                                        && v["payload"]["errors"].as_array().is_some_and(|e| !e.is_empty())
                                }) {
                                    let id = v["id"].as_str().unwrap_or_default().to_owned();
                                    held = Some((id, v["payload"]["errors"].clone(), m));
                                    continue;
                                }
                                if to_client.send(m).await.is_err() {
                                    return;
                                }
                            }
                            None => return,
                        },
                        () = tokio::time::sleep(std::time::Duration::from_millis(50)), if held.is_some() => {
                            // No `complete` followed: an event's errors, sent as they came.
                            if let Some((_, _, next)) = held.take()
                                && to_client.send(next).await.is_err()
                            {
                                return;
                            }
                        }
                        () = &mut ended => {
                            let lang = spoken.get().copied().unwrap_or(upgrade_lang);
                            let reason = service::messages::Message::new(service::messages::code::CREDENTIAL_ENDED)
                                .render(lang);
                            let frame = axum::extract::ws::CloseFrame {
                                code: 4403,
                                reason: close_reason(&reason).into(),
                            };
                            let _ = to_client.send(axum::extract::ws::Message::Close(Some(frame))).await;
                            return;
                        }
                    }
                }
            };
            // When the protocol ends the socket, what it sent last (its close frame) still goes out.
            tokio::pin!(forward);
            tokio::select! {
                () = serve => {}
                () = &mut forward => return,
            }
            forward.await;
        })
}

/// The protocol's `error` message for a `subscribe` refused before any event (async-graphql answers one with a `next`
/// holding only errors, then `complete`; graphql-transport-ws has `error` for it, which ends the operation): its
/// errors, each with a code (`GRAPHQL_VALIDATION_FAILED` where async-graphql's own check gave none).
fn refused_request(id: &str, mut errors: serde_json::Value) -> axum::extract::ws::Message {
    for e in errors.as_array_mut().into_iter().flatten() {
        if e["extensions"]["code"].is_null()
            && let Some(e) = e.as_object_mut()
        {
            let extensions = e.entry("extensions").or_insert_with(|| serde_json::json!({}));
            if let Some(x) = extensions.as_object_mut() {
                x.insert("code".into(), "GRAPHQL_VALIDATION_FAILED".into());
            }
        }
    }
    let message = serde_json::json!({ "id": id, "type": "error", "payload": errors });
    axum::extract::ws::Message::Text(message.to_string().into())
}

/// A close frame's reason as the protocol allows it: at most 123 bytes, cut at a character's boundary (a Portuguese
/// text's accents take two bytes each).
fn close_reason(text: &str) -> String {
    let mut end = text.len().min(123);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// What a subscriptions' socket must watch to close when its credential ends.
#[derive(Debug)]
struct Holder {
    /// The SHA-256 of its API key, for a key's socket.
    key_hash: Option<String>,
    /// The stored hash of the browser session that opened it, for a socket opened with the session cookie.
    session_hash: Option<String>,
    /// Its token's expiry, for a token's socket.
    until: Option<chrono::DateTime<chrono::Utc>>,
}

/// Resolves when the socket's key is revoked or its browser session ended (this process hears of either on
/// `revoked`), or its token or session expires.
async fn credential_ended(mut revoked: tokio::sync::broadcast::Receiver<String>, who: &std::sync::OnceLock<Holder>) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        tokio::select! {
            news = revoked.recv() => match news {
                Ok(hash)
                    if who.get().is_some_and(|h| {
                        h.key_hash.as_deref() == Some(hash.as_str()) || h.session_hash.as_deref() == Some(hash.as_str())
                    }) =>
                {
                    return;
                }
                Err(RecvError::Closed) => std::future::pending::<()>().await,
                Ok(_) | Err(RecvError::Lagged(_)) => {}
            },
            () = tokio::time::sleep(std::time::Duration::from_secs(1)) => {
                if who.get().and_then(|h| h.until).is_some_and(|until| until <= chrono::Utc::now()) {
                    return;
                }
            }
        }
    }
}

/// The graphql-transport-ws close code for one async-graphql sends: `4403 Forbidden` for a refused
/// `connection_init` (1002 once the init was refused), `4401 Unauthorized` for a `subscribe` before the
/// acknowledgement (1011); any other as it is (1002 for a message that is not the protocol's).
fn close_code(code: u16, init_refused: bool) -> u16 {
    match code {
        1002 if init_refused => 4403,
        1011 => 4401,
        other => other,
    }
}
