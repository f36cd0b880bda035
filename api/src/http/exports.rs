//! `GET /exports/{name}.csv` and `GET /exports/{name}.xlsx`: the flag list, the financings and the cartas as files,
//! filtered by the graph's filter (`?filter=` JSON, as strict as the graph). CSV streams a page at a time
//! (`?sep=semicolon` for Brazilian Excel, `?sep=tab`, `?bom=true` for a byte-order mark); XLSX is written to a
//! temporary file, sheet by sheet on disk, then streamed. Headers and coded values are in Portuguese, or English by
//! `?lang=en` or `Accept-Language`; `?codes=true` gives column codes and stored values for scripts. A dashboard table
//! takes `?asOf=` and `?programme=`. Every refusal is in the one REST error shape.

use super::{AppState, params::Params};
use axum::{
    body::{Body, Bytes},
    extract::{Path, RawQuery, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use service::{
    exports::{self, CsvStyle, Cursor, Separator, Wording},
    messages::{Message, code},
};

/// The parameters an export takes.
pub const PARAMETERS: &[&str] = &["filter", "sep", "bom", "asOf", "programme", "lang", "codes"];

/// The export handler.
pub async fn export(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<service::Caller>,
    axum::Extension(remote): axum::Extension<service::audit::Remote>,
    headers: axum::http::HeaderMap,
    Path(file): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let db = state.db.clone();
    let response = export_file(state, caller.clone(), headers, &file, query.as_deref()).await;
    super::auth::audited(&db, &caller, "export", Some(&file), &remote, response).await
}

async fn export_file(
    state: AppState,
    caller: service::Caller,
    headers: axum::http::HeaderMap,
    file: &str,
    query: Option<&str>,
) -> Response {
    let lang = super::refusal::lang_of(&headers);
    let p = match Params::parse(query, PARAMETERS) {
        Ok(p) => p,
        Err(wrong) => return super::params::refuse(wrong, lang),
    };
    let lang = match p.lang(&headers) {
        Ok(l) => l,
        Err(wrong) => return super::params::refuse(wrong, lang),
    };
    let Some((name, ext)) = file.rsplit_once('.').filter(|(_, ext)| matches!(*ext, "csv" | "xlsx")) else {
        return super::refusal::refuse(
            StatusCode::NOT_FOUND,
            None,
            Message::new(code::EXPORT_FORMAT).arg("file", file),
            lang,
        );
    };
    if let Err(e) = service::access::authorize(&caller, crate::export_request::operation_of(name)) {
        return super::refusal::refuse_service(e, lang);
    }
    let read = || -> Result<_, super::params::Wrong> {
        let separator = p.choice(
            "sep",
            &[
                ("comma", Separator::Comma),
                ("semicolon", Separator::Semicolon),
                ("tab", Separator::Tab),
            ],
        )?;
        Ok((
            p.as_of()?,
            p.programme()?,
            separator.unwrap_or_default(),
            p.flag("bom")?.unwrap_or(false),
            p.flag("codes")?.unwrap_or(false),
        ))
    };
    let (as_of, programme, separator, bom, codes) = match read() {
        Ok(v) => v,
        Err(wrong) => return super::params::refuse(wrong, lang),
    };
    if !name.starts_with("dashboard-")
        && let Some(field) = [("asOf", as_of.is_some()), ("programme", programme.is_some())]
            .into_iter()
            .find_map(|(f, given)| given.then_some(f))
    {
        let m = Message::new(code::PARAMETER_TABLES_ONLY).arg("name", field);
        return super::refusal::refuse(StatusCode::BAD_REQUEST, Some(field), m, lang);
    }
    let wording = if codes { Wording::Codes } else { Wording::People(lang) };
    let export = match crate::export_request::build(&state.db, &caller, name, p.get("filter"), as_of, programme).await {
        Ok(e) => e,
        Err(crate::export_request::ExportError::Service(e)) => return super::refusal::refuse_service(e, lang),
        Err(crate::export_request::ExportError::Unknown(m)) => {
            return super::refusal::refuse(StatusCode::NOT_FOUND, None, m, lang);
        }
        Err(crate::export_request::ExportError::Parameter(field, m)) => {
            return super::refusal::refuse(StatusCode::BAD_REQUEST, Some(field), m, lang);
        }
    };
    let disposition = format!("attachment; filename=\"{name}.{ext}\"");
    if ext == "csv" {
        let style = CsvStyle {
            separator,
            bom,
            wording,
        };
        let (mut tx, rx) = futures::channel::mpsc::channel::<Result<Bytes, std::io::Error>>(4);
        let db = state.db.clone();
        let streaming = caller.clone();
        tokio::spawn(async move {
            use futures::SinkExt;
            if tx
                .send(Ok(Bytes::from(style.head(&export.header(style.wording)))))
                .await
                .is_err()
            {
                return;
            }
            let mut cursor = Cursor::default();
            loop {
                match exports::next_page(&db, &streaming, &export, style.wording, &mut cursor).await {
                    Ok(Some(mut rows)) => {
                        export.worded(style.wording, &mut rows);
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
                (header::CONTENT_LANGUAGE, lang.tag().to_owned()),
            ],
            Body::from_stream(rx),
        )
            .into_response();
    }
    let path = std::env::temp_dir().join(format!("fomento-export-{}.xlsx", uuid::Uuid::new_v4().simple()));
    if let Err(e) = exports::write_xlsx(&state.db, &caller, &export, &path, None, wording).await {
        let _ = std::fs::remove_file(&path);
        return super::refusal::refuse_service(e, lang);
    }
    let file = tokio::fs::File::open(&path).await;
    // The open handle keeps the bytes readable; the name goes at once.
    let _ = std::fs::remove_file(&path);
    let Ok(file) = file else {
        return super::refusal::internal("the export's file vanished".into(), lang);
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
            (header::CONTENT_LANGUAGE, lang.tag().to_owned()),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}
