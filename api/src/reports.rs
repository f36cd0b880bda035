//! Banks' monthly reports over HTTP: `POST /bank-reports` (multipart), the template and a report's errors as
//! workbooks, and the ingestion runtime (every minute, and right away after an upload).

use crate::graphql::error::ApiError;
use axum::{
    Json,
    body::Body,
    extract::{Multipart, Path, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use chrono::Utc;
use entity::{bank_report, bank_report_error};
use jobs::{
    report::{
        ingest::{self, IngestContext},
        messages::{Lang, Message, code},
        read::read,
        rows::{RowError, find_header},
        xlsx,
    },
    runs,
};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use serde_json::json;
use service::ServiceError;
use std::sync::Arc;
use tokio::sync::Notify;

/// The ingestion runtime shared by the HTTP layer and the scheduler.
#[derive(Clone, Debug)]
pub struct Ingestion {
    /// The job's context.
    pub ctx: IngestContext,
    /// Wakes the background worker after an upload.
    pub wake: Arc<Notify>,
    /// Held (shared) by every job run in this process; taken whole on shutdown, to wait for them.
    pub running: Arc<tokio::sync::RwLock<()>>,
}

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

/// The one shape of REST errors, with the codes GraphQL uses: `{"error": {"code", "message", "field"}}`.
pub fn rest_error(status: StatusCode, code: &str, field: Option<&str>, message: String) -> Response {
    (
        status,
        Json(json!({ "error": { "code": code, "message": message, "field": field } })),
    )
        .into_response()
}

/// The code of a REST error by its status.
fn code_of(status: StatusCode) -> &'static str {
    match status {
        StatusCode::NOT_FOUND => "NOT_FOUND",
        StatusCode::PAYLOAD_TOO_LARGE => "PAYLOAD_TOO_LARGE",
        s if s.is_server_error() => "INTERNAL",
        _ => "BAD_USER_INPUT",
    }
}

/// A refusal for a bank, in its language.
fn refuse(status: StatusCode, field: Option<&str>, message: Message, lang: Lang) -> Response {
    let mut resp = rest_error(status, code_of(status), field, message.render(lang));
    resp.headers_mut()
        .insert(header::CONTENT_LANGUAGE, header::HeaderValue::from_static(lang.tag()));
    resp
}

/// A service error for a bank, in its language.
fn refuse_service(e: ServiceError, lang: Lang) -> Response {
    let status = match e.code() {
        "NOT_FOUND" => StatusCode::NOT_FOUND,
        "INTERNAL" => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    };
    let mut resp = rest_error(status, e.code(), e.field(), e.render(lang));
    resp.headers_mut()
        .insert(header::CONTENT_LANGUAGE, header::HeaderValue::from_static(lang.tag()));
    resp
}

/// The language of an HTTP request's answers for banks (`Accept-Language`; Portuguese by default).
pub fn lang_of(headers: &axum::http::HeaderMap) -> Lang {
    Lang::from_accept_language(headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()))
}

/// An internal failure answered to a bank (logged with its detail).
fn internal(detail: String, lang: Lang) -> Response {
    tracing::error!(%detail, "internal error in a bank-report handler");
    refuse(
        StatusCode::INTERNAL_SERVER_ERROR,
        None,
        Message::new(code::INTERNAL),
        lang,
    )
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match &self {
            ApiError::BadUserInput(_) | ApiError::RuleViolation { .. } => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Internal(detail) => {
                tracing::error!(%detail, "internal error in an HTTP handler");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        rest_error(status, self.code(), None, self.to_string())
    }
}

/// `POST /bank-reports`: multipart fields `bank` (code), `month` (`YYYY-MM`) and `file`. Refusals name the field and
/// are worded in the bank's language (`Accept-Language`, Portuguese by default).
pub async fn upload(
    State(state): State<crate::http::AppState>,
    headers: axum::http::HeaderMap,
    mut form: Multipart,
) -> Response {
    let lang = lang_of(&headers);
    let bad = |field: &'static str, message: Message| refuse(StatusCode::BAD_REQUEST, Some(field), message, lang);
    let (mut bank_code, mut month, mut file) = (None, None, None);
    loop {
        match form.next_field().await {
            Ok(Some(field)) => {
                let name = field.name().unwrap_or("").to_owned();
                let file_name = field.file_name().map(str::to_owned);
                match field.bytes().await {
                    Ok(bytes) => match name.as_str() {
                        "bank" => bank_code = Some(String::from_utf8_lossy(&bytes).trim().to_owned()),
                        "month" => month = Some(String::from_utf8_lossy(&bytes).trim().to_owned()),
                        "file" => file = Some((file_name.unwrap_or_else(|| "upload".into()), bytes.to_vec())),
                        _ => {}
                    },
                    Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return too_large(&state, &name, lang),
                    Err(e) => {
                        let message = Message::new(code::UPLOAD_FIELD_UNREADABLE)
                            .arg("field", &name)
                            .arg("detail", e.to_string());
                        return refuse(StatusCode::BAD_REQUEST, Some(&name), message, lang);
                    }
                }
            }
            Ok(None) => break,
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return too_large(&state, "file", lang),
            Err(e) => {
                let message = Message::new(code::UPLOAD_NOT_MULTIPART).arg("detail", e.to_string());
                return refuse(StatusCode::BAD_REQUEST, None, message, lang);
            }
        }
    }
    let missing = |field: &'static str, what: &str| {
        bad(
            field,
            Message::new(code::UPLOAD_FIELD_MISSING)
                .arg("field", field)
                .arg("what", what),
        )
    };
    let Some(code) = bank_code else {
        return missing("bank", "BB, BASA, ...");
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
    let Some(ingestion) = &state.ingestion else {
        return internal("ingestion is not configured".into(), lang);
    };
    match receive(&state.db, &ingestion.ctx.store, &bank, &month, &file_name, bytes).await {
        Ok((r, received)) => {
            ingestion.wake.notify_one();
            let (status, mut body) = match received {
                Received::New => (StatusCode::CREATED, report_json(&r, &bank.code)),
                Received::Known => (StatusCode::OK, report_json(&r, &bank.code)),
                Received::Requeued => (StatusCode::ACCEPTED, report_json(&r, &bank.code)),
            };
            body["requeued"] = json!(received == Received::Requeued);
            if received == Received::Requeued {
                body["message"] = json!(Message::new(self::code::REPORT_REQUEUED).render(lang));
            }
            (status, Json(body)).into_response()
        }
        Err(e) => refuse_service(e, lang),
    }
}

/// `413`, naming the limit.
fn too_large(state: &crate::http::AppState, field: &str, lang: Lang) -> Response {
    let max = state.max_upload_bytes;
    let message = Message::new(code::UPLOAD_TOO_LARGE)
        .arg("max", max)
        .arg("mib", max / (1024 * 1024));
    refuse(StatusCode::PAYLOAD_TOO_LARGE, Some(field), message, lang)
}

fn xlsx_response(bytes: Vec<u8>, file_name: &str) -> Response {
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
    let Some(ingestion) = &state.ingestion else {
        return internal("ingestion is not configured".into(), lang);
    };
    let r = match bank_report::Entity::find_by_id(id).one(&state.db).await {
        Ok(Some(r)) => r,
        Ok(None) => {
            let message = Message::new(code::REPORT_UNKNOWN).arg("value", id);
            return refuse(StatusCode::NOT_FOUND, Some("id"), message, lang);
        }
        Err(e) => return internal(e.to_string(), lang),
    };
    let errors: Vec<RowError> = match bank_report_error::Entity::find()
        .filter(bank_report_error::Column::ReportId.eq(id))
        .order_by_asc(bank_report_error::Column::RowNumber)
        .order_by_asc(bank_report_error::Column::Id)
        .all(&state.db)
        .await
    {
        Ok(rows) => rows
            .into_iter()
            .map(|e| RowError {
                row: e.row_number as u32,
                message: stored_message(e.message_code.as_deref(), e.message_args.as_deref(), &e.message),
                column: e.column_name,
                value: e.value,
                rule_code: e.rule_code,
            })
            .collect(),
        Err(e) => return internal(e.to_string(), lang),
    };
    let bytes = match ingestion.ctx.store.get(&r.sha256).await {
        Ok(b) => b,
        Err(e) => return internal(e.to_string(), lang),
    };
    let cells = read(&bytes, &ingestion.ctx.limits).ok();
    let header = cells.as_deref().and_then(|c| find_header(c).ok()).map(|h| h.row);
    let file_error = file_error_of(&r);
    match xlsx::errors_workbook(cells.as_deref(), header, &errors, file_error.as_ref(), lang) {
        Ok(bytes) => xlsx_response(bytes, &format!("relatorio-{id}-erros.xlsx")),
        Err(e) => internal(e.to_string(), lang),
    }
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

/// One run of `job` in `slot`: once per slot across every process sharing the database (the `job_run` row's unique
/// key), recorded with how it ended.
pub async fn run_job(
    ingestion: &Ingestion,
    job: &jobs::registry::JobSpec,
    slot: &str,
) -> Result<Option<runs::JobReport>, String> {
    let now = Utc::now();
    let db = &ingestion.ctx.db;
    let Some(run) = runs::start(db, job.name, slot, &ingestion.ctx.worker, now)
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(None);
    };
    let _running = ingestion.running.read().await;
    let ctx = jobs::registry::JobContext {
        ingest: ingestion.ctx.clone(),
    };
    let outcome = job.run_once(&ctx, now).await.map_err(|e| e.to_string());
    let _ = runs::finish(db, run, &outcome, Utc::now()).await;
    outcome.map(Some)
}

/// One run of the ingestion in `slot` (after an upload, or `fomento ingest`).
pub async fn scheduled_ingest(ingestion: &Ingestion, slot: &str) -> Result<Option<runs::JobReport>, String> {
    let job = jobs::registry::find(ingest::JOB).ok_or("the ingestion job is not registered")?;
    run_job(ingestion, job, slot).await
}

/// Starts the scheduler with every job of the registry on its schedule, and the ingestion woken by uploads; returns
/// the scheduler to keep it alive.
pub async fn start_jobs(
    ingestion: Ingestion,
) -> Result<tokio_cron_scheduler::JobScheduler, tokio_cron_scheduler::JobSchedulerError> {
    let sched = tokio_cron_scheduler::JobScheduler::new().await?;
    for job in jobs::registry::JOBS {
        let ingestion = ingestion.clone();
        sched
            .add(tokio_cron_scheduler::Job::new_async_tz(
                job.schedule,
                job.zone,
                move |_, _| {
                    let ingestion = ingestion.clone();
                    Box::pin(async move {
                        let slot = runs::minute_slot(Utc::now());
                        match run_job(&ingestion, job, &slot).await {
                            Ok(Some(r)) if r.processed > 0 || r.failed > 0 => {
                                tracing::info!(
                                    job = job.name,
                                    slot,
                                    processed = r.processed,
                                    failed = r.failed,
                                    "{}",
                                    r.message
                                )
                            }
                            Ok(_) => {}
                            Err(e) => tracing::error!(job = job.name, slot, error = %e, "job failed"),
                        }
                    })
                },
            )?)
            .await?;
    }
    sched.start().await?;
    let wake = ingestion.wake.clone();
    tokio::spawn(async move {
        loop {
            wake.notified().await;
            let slot = format!("upload:{}", Utc::now().format("%Y-%m-%dT%H:%M:%S%.6fZ"));
            if let Err(e) = scheduled_ingest(&ingestion, &slot).await {
                tracing::error!(error = %e, "ingestion after upload failed");
            }
        }
    });
    Ok(sched)
}

/// `fomento jobs list`: each job's name, schedule, time zone, last run (when and how it ended) and next run, times on
/// Brasília's clock, and what it does.
pub async fn jobs_table(
    db: &sea_orm::DatabaseConnection,
    now: chrono::DateTime<Utc>,
) -> Result<String, sea_orm::DbErr> {
    use entity::domain::Authority;
    let mut out = format!(
        "{:<10} {:<14} {:<18} {:<36} {:<26}\n",
        "job", "schedule", "time zone", "last run", "next run"
    );
    for j in jobs::registry::JOBS {
        let last = runs::last(db, j.name).await?.map_or_else(
            || "never".to_owned(),
            |r| format!("{} {}", Authority::Mda.show(r.started_at), r.status),
        );
        let next = j
            .next_run(now)
            .map_or_else(|| "-".to_owned(), |t| Authority::Mda.show(t));
        out.push_str(&format!(
            "{:<10} {:<14} {:<18} {:<36} {:<26}\n           {}\n",
            j.name,
            j.schedule,
            j.zone.name(),
            last,
            next,
            j.about
        ));
    }
    Ok(out)
}

/// Waits for the jobs running in this process to finish (a job holds its claim until it commits or fails), at most
/// `limit`; true when none is left running.
pub async fn wait_for_running_jobs(ingestion: &Ingestion, limit: std::time::Duration) -> bool {
    tokio::time::timeout(limit, ingestion.running.write()).await.is_ok()
}

/// One line of `fomento ingest`'s progress bar: a bar and a percentage when the sheet says how many rows it has, the
/// rows read and the rate.
pub fn progress_line(rows: u64, expected: u64, elapsed: std::time::Duration) -> String {
    const WIDTH: u64 = 30;
    use entity::domain::money::group_thousands as thousands;
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { (rows as f64 / secs) as u64 } else { 0 };
    // Unknown, or a sheet whose dimension said less than it holds: no bar rather than a wrong one.
    if expected == 0 || rows > expected {
        return format!("{} rows read, {} rows/s", thousands(rows), thousands(rate));
    }
    let filled = rows * WIDTH / expected;
    format!(
        "[{}{}] {:>3}% {} of {} rows, {} rows/s",
        "#".repeat(filled as usize),
        "-".repeat((WIDTH - filled) as usize),
        rows * 100 / expected,
        thousands(rows),
        thousands(expected),
        thousands(rate)
    )
}

/// Draws the progress of the report being read on standard error until dropped: redrawn in place on a terminal,
/// a line every ten seconds otherwise (a log file).
pub fn show_progress(progress: Arc<jobs::report::read::Progress>) -> tokio::task::JoinHandle<()> {
    use std::io::{IsTerminal, Write};
    tokio::spawn(async move {
        let tty = std::io::stderr().is_terminal();
        let started = std::time::Instant::now();
        let mut printed = std::time::Instant::now();
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            let (rows, expected) = progress.get();
            let line = progress_line(rows, expected, started.elapsed());
            if tty {
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r{line}\x1b[K");
                let _ = err.flush();
            } else if printed.elapsed() >= std::time::Duration::from_secs(10) {
                eprintln!("{line}");
                printed = std::time::Instant::now();
            }
        }
    })
}
