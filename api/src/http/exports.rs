//! `GET /exports/{name}.csv` and `GET /exports/{name}.xlsx`: the flag list, the financings and the cartas as files,
//! filtered by the graph's filter (`?filter=` JSON). CSV streams a page at a time (`?sep=semicolon` for Brazilian
//! Excel, `?bom=true` for a byte-order mark); XLSX is written to a temporary file, sheet by sheet on disk, then
//! streamed.

use super::AppState;
use axum::{
    body::{Body, Bytes},
    extract::{Path, Query, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use service::exports::{self, CsvStyle, Cursor};

/// The query string.
#[derive(Debug, serde::Deserialize, Default)]
pub struct Params {
    /// The graph's filter, as JSON.
    filter: Option<String>,
    /// `semicolon` for `;` between fields and `,` before the centavos.
    sep: Option<String>,
    /// `true` for a byte-order mark.
    bom: Option<bool>,
    /// For a dashboard table: the day (`YYYY-MM-DD`); today in Brasília by default.
    #[serde(rename = "asOf")]
    as_of: Option<chrono::NaiveDate>,
}

fn problem(status: StatusCode, message: String) -> Response {
    (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
}

/// The export handler.
pub async fn export(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<service::Caller>,
    axum::Extension(remote): axum::Extension<service::audit::Remote>,
    headers: axum::http::HeaderMap,
    Path(file): Path<String>,
    Query(p): Query<Params>,
) -> Response {
    let db = state.db.clone();
    let response = export_file(state, caller.clone(), headers, &file, p).await;
    super::auth::audited(&db, &caller, "export", Some(&file), &remote, response).await
}

async fn export_file(
    state: AppState,
    caller: service::Caller,
    headers: axum::http::HeaderMap,
    file: &str,
    p: Params,
) -> Response {
    let Some((name, ext)) = file.rsplit_once('.') else {
        return problem(StatusCode::NOT_FOUND, format!("{file}: ask for NAME.csv or NAME.xlsx"));
    };
    if !matches!(ext, "csv" | "xlsx") {
        return problem(StatusCode::NOT_FOUND, format!("{file}: the formats are csv and xlsx"));
    }
    if let Err(e) = service::access::authorize(&caller, crate::exports::operation_of(name)) {
        return super::reports::refuse_service(e, super::reports::lang_of(&headers));
    }
    let export = match crate::exports::build(&state.db, &caller, name, p.filter.as_deref(), p.as_of).await {
        Ok(e) => e,
        Err(e) if e.starts_with("no export") => return problem(StatusCode::NOT_FOUND, e),
        Err(e) => return problem(StatusCode::BAD_REQUEST, e),
    };
    let disposition = format!("attachment; filename=\"{name}.{ext}\"");
    if ext == "csv" {
        let style = CsvStyle {
            semicolon: p.sep.as_deref() == Some("semicolon"),
            bom: p.bom.unwrap_or(false),
        };
        let (mut tx, rx) = futures::channel::mpsc::channel::<Result<Bytes, std::io::Error>>(4);
        let db = state.db.clone();
        let streaming = caller.clone();
        tokio::spawn(async move {
            use futures::SinkExt;
            if tx.send(Ok(Bytes::from(style.head(&export.header())))).await.is_err() {
                return;
            }
            let mut cursor = Cursor::default();
            loop {
                match exports::next_page(&db, &streaming, &export, &mut cursor).await {
                    Ok(Some(rows)) => {
                        let mut buf = Vec::with_capacity(rows.len() * 128);
                        for r in &rows {
                            style.line(r, &mut buf);
                        }
                        if tx.send(Ok(Bytes::from(buf))).await.is_err() {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(e) => {
                        tracing::error!(error = %e, "export failed mid-stream");
                        let _ = tx.send(Err(std::io::Error::other(e.to_string()))).await;
                        return;
                    }
                }
            }
        });
        return (
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            Body::from_stream(rx),
        )
            .into_response();
    }
    let path = std::env::temp_dir().join(format!("fomento-export-{}.xlsx", uuid::Uuid::new_v4().simple()));
    if let Err(e) = exports::write_xlsx(&state.db, &caller, &export, &path, None).await {
        let _ = std::fs::remove_file(&path);
        return problem(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    }
    let file = tokio::fs::File::open(&path).await;
    // The open handle keeps the bytes readable; the name goes at once.
    let _ = std::fs::remove_file(&path);
    let Ok(file) = file else {
        return problem(StatusCode::INTERNAL_SERVER_ERROR, "the export's file vanished".into());
    };
    let stream = futures::stream::unfold(file, |mut f| async move {
        use tokio::io::AsyncReadExt;
        let mut buf = vec![0u8; 64 * 1024];
        match f.read(&mut buf).await {
            Ok(0) => None,
            Ok(n) => {
                buf.truncate(n);
                Some((Ok::<_, std::io::Error>(Bytes::from(buf)), f))
            }
            Err(e) => Some((Err(e), f)),
        }
    });
    (
        [
            (
                header::CONTENT_TYPE,
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet".to_owned(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}
