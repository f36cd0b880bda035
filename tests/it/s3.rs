//! The raw-file store on an S3-compatible bucket, named by URL. The bucket is a small S3 server started by the test
//! (object `PUT`, `GET` and `HEAD`, path-style, as MinIO and other S3-compatible stores answer them), so the test needs
//! no service of its own; it checks what Fomento sends over HTTP and that a report goes through the whole pipeline.

use crate::helpers::on_each_backend;
use crate::reports::{cpf, good_row, workbook};
use axum::{
    Router,
    body::Bytes,
    extract::{Path, State},
    http::{HeaderMap, Method, StatusCode, header},
    response::{IntoResponse, Response},
    routing::any,
};
use chrono::Utc;
use jobs::{report::ingest, store::FileStore};
use sea_orm::EntityTrait;
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

/// What the fake bucket holds, by path (`bucket/key`), and the requests it saw.
#[derive(Clone, Default)]
struct Bucket {
    objects: Arc<Mutex<HashMap<String, Vec<u8>>>>,
    seen: Arc<Mutex<Vec<String>>>,
}

async fn object(State(b): State<Bucket>, method: Method, Path(path): Path<String>, body: Bytes) -> Response {
    b.seen.lock().expect("lock").push(format!("{method} /{path}"));
    let etag = |bytes: &[u8]| format!("\"{}\"", FileStore::sha256(bytes));
    let mut headers = HeaderMap::new();
    headers.insert(
        header::LAST_MODIFIED,
        "Wed, 02 Dec 2026 12:00:00 GMT".parse().expect("date"),
    );
    match method {
        Method::PUT => {
            headers.insert(header::ETAG, etag(&body).parse().expect("etag"));
            b.objects.lock().expect("lock").insert(path, body.to_vec());
            (StatusCode::OK, headers).into_response()
        }
        Method::GET | Method::HEAD => match b.objects.lock().expect("lock").get(&path) {
            Some(bytes) => {
                headers.insert(header::ETAG, etag(bytes).parse().expect("etag"));
                headers.insert(header::CONTENT_LENGTH, bytes.len().into());
                let body = if method == Method::GET {
                    bytes.clone()
                } else {
                    Vec::new()
                };
                (StatusCode::OK, headers, body).into_response()
            }
            None => (
                StatusCode::NOT_FOUND,
                "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Message>not found</Message></Error>",
            )
                .into_response(),
        },
        _ => StatusCode::NOT_IMPLEMENTED.into_response(),
    }
}

/// Starts the bucket server on a random port; returns its address and state.
async fn bucket() -> (String, Bucket) {
    let state = Bucket::default();
    let app = Router::new().route("/{*path}", any(object)).with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}"), state)
}

#[tokio::test]
async fn a_report_stored_in_an_s3_bucket_by_url_is_ingested() {
    on_each_backend(false, |app| async move {
        let (endpoint, bucket) = bucket().await;
        let url = format!(
            "s3://reports/fomento/raw?endpoint={endpoint}&region=us-east-1&allow_http=true\
             &access_key_id=test&secret_access_key=test"
        );
        let store = FileStore::open(&url).expect("an S3 store from its URL");
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bank = entity::bank::Entity::find()
            .all(&app.db)
            .await
            .expect("banks")
            .into_iter()
            .find(|b| b.code == "BB")
            .expect("bank BB");
        let bytes = workbook(&[good_row("S3-1", cpf(1), 5000.0), good_row("S3-2", cpf(2), 6000.0)]);
        let sha = FileStore::sha256(&bytes);
        let (report, created) = fomento_api::http::reports::receive(
            &app.db,
            &service::Caller::System,
            &store,
            &bank,
            "2019-05",
            "maio.xlsx",
            bytes.clone(),
        )
        .await
        .expect("received");
        assert!(created.is_new());
        // The bytes sit in the bucket, under the prefix, addressed by their hash.
        let key = format!("reports/fomento/raw/bank-reports/{}/{sha}", &sha[..2]);
        assert_eq!(
            bucket.objects.lock().expect("lock").get(&key),
            Some(&bytes),
            "stored under {key}"
        );

        let ctx = ingest::UploadContext {
            store,
            ..app.runtime.ctx.clone()
        };
        let run = ingest::run_once(&ctx, Utc::now()).await.expect("ingest");
        assert_eq!((run.processed, run.failed), (1, 0), "{}", run.message);
        let done = entity::bank_report::Entity::find_by_id(report.id)
            .one(&app.db)
            .await
            .expect("report")
            .expect("the report");
        assert_eq!((done.status.as_str(), done.row_count), ("INGESTED", Some(2)));
        let seen = bucket.seen.lock().expect("lock").clone();
        assert_eq!(seen, [format!("PUT /{key}"), format!("GET /{key}")]);
    })
    .await;
}

#[test]
fn a_bad_store_url_names_what_is_wrong() {
    let no_bucket = FileStore::open("s3://").expect_err("no bucket");
    assert!(no_bucket.to_string().contains("no bucket"), "{no_bucket}");
    let bad = FileStore::open("s3://reports?colour=blue").expect_err("unknown option");
    assert!(bad.to_string().contains("unknown S3 option \"colour\""), "{bad}");
}
