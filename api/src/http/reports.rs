//! Banks' monthly reports over HTTP: `POST /bank-reports` (multipart), the template and a report's errors as
//! workbooks; refusals ([`super::refusal`]) in the bank's language.

use super::refusal::{internal, lang_of, refuse, refuse_service, rest_error};
use axum::{
    Json,
    body::Body,
    extract::{Multipart, Path, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use entity::bank_report;
use jobs::report::{
    messages::{Lang, Message, code},
    read::read,
    rows::{RowError, find_header},
    xlsx,
};
use serde_json::json;

pub use service::intake::{Received, parse_month, receive};

/// The JSON answer about a report: `id` is the global ID `bankReport(id:)` takes, `number` the sequence number.
pub fn report_json(r: &bank_report::Model, bank_code: &str) -> serde_json::Value {
    json!({
        "id": crate::graphql::ids::encode(crate::graphql::ids::NodeKind::BankReport, r.id).0,
        "number": r.id,
        "bank": bank_code,
        "month": r.reference_month,
        "status": r.status,
        "sha256": r.sha256,
        "fileName": r.file_name,
        "byteSize": r.byte_size,
        "receivedAt": entity::domain::Authority::Cdae.local(r.received_at).to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
    })
}

/// A multipart form as read: each text field (trimmed) by name, and the `file` field's name and bytes.
#[derive(Debug, Default)]
pub(crate) struct Form {
    /// The text fields.
    pub texts: std::collections::HashMap<String, String>,
    /// The `file` field: its file name and bytes.
    pub file: Option<(String, Vec<u8>)>,
}

impl Form {
    /// The text field `name`, if sent.
    pub fn text(&self, name: &str) -> Option<String> {
        self.texts.get(name).cloned()
    }
}

/// Reads a multipart upload whole; a body over the limit is `413` naming it, a malformed one `400` naming the field.
pub(crate) async fn read_form(
    state: &crate::http::AppState,
    mut form: Multipart,
    lang: Lang,
) -> Result<Form, Box<Response>> {
    let mut out = Form::default();
    loop {
        match form.next_field().await {
            Ok(Some(field)) => {
                let name = field.name().unwrap_or("").to_owned();
                let file_name = field.file_name().map(str::to_owned);
                match field.bytes().await {
                    Ok(bytes) if name == "file" => {
                        out.file = Some((file_name.unwrap_or_else(|| "upload".into()), bytes.to_vec()));
                    }
                    Ok(bytes) => {
                        out.texts
                            .insert(name, String::from_utf8_lossy(&bytes).trim().to_owned());
                    }
                    Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                        return Err(Box::new(too_large(state, &name, lang)));
                    }
                    Err(e) => {
                        let message = Message::new(code::UPLOAD_FIELD_UNREADABLE)
                            .arg("field", &name)
                            .arg("detail", e.to_string());
                        return Err(Box::new(refuse(StatusCode::BAD_REQUEST, Some(&name), message, lang)));
                    }
                }
            }
            Ok(None) => return Ok(out),
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                return Err(Box::new(too_large(state, "file", lang)));
            }
            Err(e) => {
                let message = Message::new(code::UPLOAD_NOT_MULTIPART).arg("detail", e.to_string());
                return Err(Box::new(refuse(StatusCode::BAD_REQUEST, None, message, lang)));
            }
        }
    }
}

/// `POST /bank-reports`: multipart fields `bank` (code), `month` (`YYYY-MM`) and `file`. Refusals name the field and
/// are worded in the bank's language (`Accept-Language`, Portuguese by default).
pub async fn upload(
    State(state): State<crate::http::AppState>,
    axum::Extension(caller): axum::Extension<service::Caller>,
    axum::Extension(remote): axum::Extension<service::audit::Remote>,
    headers: axum::http::HeaderMap,
    form: Multipart,
) -> Response {
    let db = state.db.clone();
    let response = receive_upload(State(state), axum::Extension(caller.clone()), headers, form).await;
    crate::http::auth::audited(&db, &caller, "upload bank-report", None, &remote, response).await
}

async fn receive_upload(
    State(state): State<crate::http::AppState>,
    axum::Extension(caller): axum::Extension<service::Caller>,
    headers: axum::http::HeaderMap,
    form: Multipart,
) -> Response {
    let lang = lang_of(&headers);
    let bad = |field: &'static str, message: Message| refuse(StatusCode::BAD_REQUEST, Some(field), message, lang);
    let mut form = match read_form(&state, form, lang).await {
        Ok(f) => f,
        Err(refusal) => return *refusal,
    };
    let (bank_code, month, file) = (form.text("bank"), form.text("month"), form.file.take());
    let missing = |field: &'static str, what: &str| {
        bad(
            field,
            Message::new(code::UPLOAD_FIELD_MISSING)
                .arg("field", field)
                .arg("what", what),
        )
    };
    // A bank's key (or session) sends for its own bank: the field is not needed.
    let own = match caller.scope().bank() {
        Some(_) if bank_code.is_none() => match service::bank_overview::bank_of(&state.db, &caller).await {
            Ok(b) => Some(b),
            Err(e) => return refuse_service(e, lang),
        },
        _ => None,
    };
    let bank_code = bank_code.or_else(|| own.as_ref().map(|b| b.code.clone()));
    let Some(code) = bank_code else {
        // The banks whose monthly list is expected: those that operate FCO.
        let codes = match service::bank_overview::fco_bank_codes(&state.db).await {
            Ok(c) => c,
            Err(e) => return refuse_service(e, lang),
        };
        return missing(
            "bank",
            &format!("{}, ...", codes.iter().take(4).cloned().collect::<Vec<_>>().join(", ")),
        );
    };
    let Some(month) = month else {
        return missing("month", "AAAA-MM / YYYY-MM");
    };
    let Some((file_name, bytes)) = file else {
        return missing("file", "xlsx, xls, ods, CSV");
    };
    let bank = match service::intake::bank_by_code(&state.db, &code).await {
        Ok(b) => b,
        Err(e) => return refuse_service(e, lang),
    };
    let Some(runtime) = &state.runtime else {
        return internal("ingestion is not configured".into(), lang);
    };
    match receive(&state.db, &caller, &runtime.ctx.store, &bank, &month, &file_name, bytes).await {
        Ok((r, received)) => {
            runtime.wake.notify_one();
            let (status, mut body) = match received {
                Received::New => (StatusCode::CREATED, report_json(&r, &bank.code)),
                Received::Known => (StatusCode::OK, report_json(&r, &bank.code)),
                Received::Requeued => (StatusCode::ACCEPTED, report_json(&r, &bank.code)),
            };
            body["requeued"] = json!(received == Received::Requeued);
            if received == Received::Requeued {
                body["message"] = json!(Message::new(self::code::REPORT_REQUEUED).render(lang));
            }
            let id = crate::graphql::ids::encode(crate::graphql::ids::NodeKind::BankReport, r.id);
            crate::http::auth::naming(id, (status, Json(body)).into_response())
        }
        Err(e) => refuse_service(e, lang),
    }
}

/// `413`, naming the limit.
pub(crate) fn too_large(state: &crate::http::AppState, field: &str, lang: Lang) -> Response {
    let max = state.max_upload_bytes;
    let message = Message::new(code::UPLOAD_TOO_LARGE)
        .arg("max", max)
        .arg("mib", max / (1024 * 1024));
    refuse(StatusCode::PAYLOAD_TOO_LARGE, Some(field), message, lang)
}

pub(crate) fn xlsx_response(bytes: Vec<u8>, file_name: &str) -> Response {
    Response::builder()
        .header(
            header::CONTENT_TYPE,
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
        .header(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{file_name}\""),
        )
        .body(Body::from(bytes))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// `GET /bank-reports/template.xlsx`.
pub async fn template() -> Response {
    match xlsx::template() {
        Ok(bytes) => xlsx_response(bytes, "fomento-relatorio-mensal-modelo.xlsx"),
        Err(e) => internal(e.to_string(), Lang::PtBr),
    }
}

/// `GET /bank-reports/{id}/errors.xlsx`: the bank's own rows with an errors column (in the bank's language) and the
/// bad cells marked.
pub async fn errors_xlsx(
    State(state): State<crate::http::AppState>,
    axum::Extension(caller): axum::Extension<service::Caller>,
    headers: axum::http::HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let lang = lang_of(&headers);
    let id = crate::graphql::ids::decode_as(&id, crate::graphql::ids::NodeKind::BankReport)
        .map(|n| n.to_string())
        .unwrap_or(id);
    let Ok(id) = id.parse::<i64>() else {
        let message = Message::new(code::REPORT_ID_INVALID).arg("value", format!("{id:?}"));
        return refuse(StatusCode::BAD_REQUEST, Some("id"), message, lang);
    };
    let Some(runtime) = &state.runtime else {
        return internal("ingestion is not configured".into(), lang);
    };
    let r = match service::reports::report(&state.db, &caller, id).await {
        Ok(Some(r)) => r,
        Ok(None) => {
            let message = Message::new(code::REPORT_UNKNOWN).arg("value", id);
            // A browser (a link followed, an address typed) gets the page, as elsewhere; a client the JSON shape.
            if crate::http::pages::accepts_html(&headers) {
                return crate::http::pages::problem(StatusCode::NOT_FOUND, lang, &message.render(lang));
            }
            return refuse(StatusCode::NOT_FOUND, Some("id"), message, lang);
        }
        Err(e) => return internal(e.to_string(), lang),
    };
    // A bank's report is FCO: whole for the administrator, the bank and the chamber; masked for the others.
    let whole = service::privacy::sees_personal(&caller, &[entity::vocab::Programme::FcoRural]);
    let errors: Vec<RowError> = match service::reports::row_errors(&state.db, id, None).await {
        Ok(rows) => rows
            .into_iter()
            .map(|e| {
                let message = stored_message(e.message_code.as_deref(), e.message_args.as_deref(), &e.message);
                let (message, value) = if whole {
                    (message, e.value)
                } else {
                    masked_error(message, e.column_name.as_deref(), e.value)
                };
                RowError {
                    row: e.row_number as u32,
                    message,
                    column: e.column_name,
                    value,
                    rule_code: e.rule_code,
                }
            })
            .collect(),
        Err(e) => return internal(e.to_string(), lang),
    };
    if let Some(at) = r.raw_purged_at {
        let message = Message::new(code::RAW_FILE_PURGED)
            .arg("id", id)
            .arg("day", entity::domain::Authority::Cdae.local(at).date_naive());
        return rest_error(StatusCode::GONE, code::RAW_FILE_PURGED, None, message.render(lang));
    }
    let bytes = match runtime.ctx.store.get(&r.sha256).await {
        Ok(b) => b,
        Err(e) => return internal(e.to_string(), lang),
    };
    let mut cells = read(&bytes, &runtime.ctx.limits).ok();
    let found = cells.as_deref().and_then(|c| find_header(c).ok());
    if !whole && let (Some(cells), Some(found)) = (cells.as_mut(), found.as_ref()) {
        jobs::report::rows::mask_personal(cells, found);
    }
    let header = found.map(|h| h.row);
    let file_error = file_error_of(&r);
    match xlsx::errors_workbook(cells.as_deref(), header, &errors, file_error.as_ref(), lang) {
        Ok(bytes) => xlsx_response(bytes, &format!("relatorio-{id}-erros.xlsx")),
        Err(e) => internal(e.to_string(), lang),
    }
}

/// A row error as a reader without the right to personal data may see it: CPFs in the message masked, and the
/// value masked when its column holds the borrower's name or document.
pub fn masked_error(message: Message, column: Option<&str>, value: Option<String>) -> (Message, Option<String>) {
    let personal = column.and_then(jobs::report::rows::Header::personal_column);
    let value = value.map(|v| match personal {
        Some(is_name) => service::privacy::mask_value(&v, is_name),
        None => service::privacy::scrub_cpfs(&v),
    });
    (message.scrubbed(), value)
}

/// A stored message: by its code when kept, else the text written then (rows from before codes were kept).
pub fn stored_message(code: Option<&str>, args: Option<&str>, text: &str) -> Message {
    match code {
        Some(c) => Message::stored(c, args),
        None => Message::new("TEXT").arg("text", text),
    }
}

/// A report's file error, as a message.
pub fn file_error_of(r: &bank_report::Model) -> Option<Message> {
    r.file_error
        .as_deref()
        .map(|text| stored_message(r.file_error_code.as_deref(), r.file_error_args.as_deref(), text))
}
