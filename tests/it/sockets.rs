//! The subscriptions' socket as a client opens it: graphql-transport-ws at `/graphql/ws`.

use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

/// An open graphql-transport-ws socket.
pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A socket to the server at `base` (`http://…`) speaking graphql-transport-ws, sent with `headers` besides the
/// protocol's.
pub async fn connect(base: &str, headers: &[(&str, &str)]) -> Ws {
    let mut request = format!("{}/graphql/ws", base.replace("http://", "ws://"))
        .into_client_request()
        .expect("request");
    let sent = request.headers_mut();
    sent.insert(
        "Sec-WebSocket-Protocol",
        "graphql-transport-ws".parse().expect("header"),
    );
    for (name, value) in headers {
        let name =
            tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes()).expect("a header name");
        sent.insert(name, value.parse().expect("header"));
    }
    tokio_tungstenite::connect_async(request).await.expect("websocket").0
}

/// Sends `connection_init` with `payload` and waits for the server's `connection_ack`.
pub async fn init(ws: &mut Ws, payload: Value) {
    ws.send(Message::text(
        json!({ "type": "connection_init", "payload": payload }).to_string(),
    ))
    .await
    .expect("init");
    let ack = ws.next().await.expect("ack").expect("frame");
    assert!(ack.to_text().is_ok_and(|t| t.contains("connection_ack")), "{ack:?}");
}

/// Sends `subscribe` (id `1`) with `query`.
pub async fn subscribe(ws: &mut Ws, query: &str) {
    ws.send(Message::text(
        json!({ "id": "1", "type": "subscribe", "payload": { "query": query } }).to_string(),
    ))
    .await
    .expect("subscribe");
}

/// A socket to `base` acknowledged with `bearer` in `connection_init` and subscribed to `query`.
pub async fn subscribed(base: &str, bearer: &str, query: &str) -> Ws {
    let mut ws = connect(base, &[]).await;
    init(&mut ws, json!({ "authorization": format!("Bearer {bearer}") })).await;
    subscribe(&mut ws, query).await;
    ws
}
