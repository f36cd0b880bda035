//! Bulk imports of facts over HTTP: `POST /imports/{kind}` (multipart: the target, the year, the reason and the
//! file) and each kind's template; refusals in the one JSON shape of the REST doors, in the sender's language.

use super::refusal::{internal, lang_of, refuse, refuse_service};
use super::reports::{read_form, xlsx_response};
use axum::{
    Json,
    extract::{Multipart, Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
};
use entity::fact_import;
use jobs::report::messages::{Message, code};
use serde_json::json;
use service::{
    imports::{self, Kind, Target},
    intake::Received,
};

/// The JSON answer about an import: `id` is the global ID `factImport(id:)` takes, `number` the sequence number;
/// `targetId` the target's global ID, as the graph's `FactImport.targetId`, and `targetNumber` its number.
pub fn import_json(r: &fact_import::Model) -> serde_json::Value {
    let target = Kind::parse(&r.kind)
        .ok()
        .map(|k| crate::graphql::ids::encode(crate::graphql::imports::target_node(k), r.target_id).0);
    json!({
        "id": crate::graphql::ids::encode(crate::graphql::ids::NodeKind::FactImport, r.id).0,
        "number": r.id,
        "kind": r.kind,
        "targetId": target,
        "targetNumber": r.target_id,
        "year": r.year,
        "status": r.status,
        "sha256": r.sha256,
        "fileName": r.file_name,
        "byteSize": r.byte_size,
        "receivedAt": entity::domain::Authority::Cdae.local(r.received_at).to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
    })
}

/// A target given as its number or as its global ID.
fn target_key(kind: Kind, text: &str) -> Option<i64> {
    text.trim()
        .parse::<i64>()
        .ok()
        .or_else(|| crate::graphql::ids::decode_as(text, crate::graphql::imports::target_node(kind)))
}

/// `POST /imports/{kind}` (`acquisitions`, `carta-items`, `meeting-agenda`): multipart fields `project`, `carta` or
/// `meeting` (the target's number or global ID; `target` also works), `year` (acquisitions), `reason` (after the
/// decision) and `file`.
pub async fn upload(
    State(state): State<crate::http::AppState>,
    axum::Extension(caller): axum::Extension<service::Caller>,
    axum::Extension(remote): axum::Extension<service::audit::Remote>,
    headers: axum::http::HeaderMap,
    Path(kind): Path<String>,
    form: Multipart,
) -> Response {
    let db = state.db.clone();
    let action = format!("upload import {kind}");
    let response = receive_upload(State(state), axum::Extension(caller.clone()), headers, Path(kind), form).await;
    crate::http::auth::audited(&db, &caller, &action, None, &remote, response).await
}

async fn receive_upload(
    State(state): State<crate::http::AppState>,
    axum::Extension(caller): axum::Extension<service::Caller>,
    headers: axum::http::HeaderMap,
    Path(kind): Path<String>,
    form: Multipart,
) -> Response {
    let lang = lang_of(&headers);
    if let Err(e) = service::access::authorize(&caller, service::access::Operation::Administer) {
        return refuse_service(e, lang);
    }
    let kind = match Kind::parse(&kind) {
        Ok(k) => k,
        Err(e) => return refuse_service(e, lang),
    };
    let mut form = match read_form(&state, form, lang).await {
        Ok(f) => f,
        Err(refusal) => return *refusal,
    };
    let target = form.text(kind.target_name()).or_else(|| form.text("target"));
    let (year, reason, file) = (form.text("year"), form.text("reason"), form.file.take());
    let field = kind.target_name();
    let Some(target) = target else {
        let message = Message::new(code::IMPORT_TARGET_REQUIRED)
            .arg("kind", kind.slug())
            .arg("what", field);
        return refuse(StatusCode::BAD_REQUEST, Some(field), message, lang);
    };
    let Some(id) = target_key(kind, &target) else {
        let message = Message::new(code::IMPORT_TARGET_INVALID)
            .arg("value", format!("{target:?}"))
            .arg("what", field);
        return refuse(StatusCode::BAD_REQUEST, Some(field), message, lang);
    };
    let year = match year.filter(|y| !y.is_empty()).map(|y| y.parse::<i32>()) {
        None => None,
        Some(Ok(y)) => Some(y),
        Some(Err(_)) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                Some("year"),
                Message::new(code::INTEGER_INVALID),
                lang,
            );
        }
    };
    let Some((file_name, bytes)) = file else {
        let message = Message::new(code::UPLOAD_FIELD_MISSING)
            .arg("field", "file")
            .arg("what", "xlsx, xls, ods, CSV");
        return refuse(StatusCode::BAD_REQUEST, Some("file"), message, lang);
    };
    let Some(runtime) = &state.runtime else {
        return internal("ingestion is not configured".into(), lang);
    };
    let t = Target { kind, id, year, reason };
    let act = service::lifecycle::Act::by(caller);
    match imports::receive(&state.db, &runtime.ctx.store, &act, &t, &file_name, bytes).await {
        Ok((r, received)) => {
            runtime.wake.notify_one();
            let status = match received {
                Received::New => StatusCode::CREATED,
                Received::Known => StatusCode::OK,
                Received::Requeued => StatusCode::ACCEPTED,
            };
            let mut body = import_json(&r);
            body["requeued"] = json!(received == Received::Requeued);
            if received == Received::Requeued {
                body["message"] = json!(Message::new(code::IMPORT_REQUEUED).render(lang));
            }
            let id = crate::graphql::ids::encode(crate::graphql::ids::NodeKind::FactImport, r.id);
            crate::http::auth::naming(id, (status, Json(body)).into_response())
        }
        Err(e) => refuse_service(e, lang),
    }
}

/// `GET /imports/{kind}/template.xlsx`.
pub async fn template(headers: axum::http::HeaderMap, Path(kind): Path<String>) -> Response {
    let lang = lang_of(&headers);
    let kind = match Kind::parse(&kind) {
        Ok(k) => k,
        Err(e) => return refuse_service(e, lang),
    };
    match jobs::import::sheet::template(kind) {
        Ok(bytes) => xlsx_response(bytes, jobs::import::sheet::template_names(kind).1),
        Err(e) => internal(e.to_string(), lang),
    }
}
