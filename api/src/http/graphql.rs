//! GraphQL over HTTP, as its current specification says: `POST` with `application/json`, `GET` for queries only,
//! the response media type negotiated from `Accept` (`application/graphql-response+json` or `application/json`),
//! and the status codes the specification gives for each. Also GraphiQL for browsers, its assets from the binary.
//!
//! Size: the transport the GraphQL-over-HTTP specification describes (negotiation, GET and POST, persisted queries,
//! multipart, the error shapes) with its unit tests.

use super::AppState;
use crate::graphql::Caller;
use async_graphql::{
    ErrorExtensionValues, ServerError, Variables,
    parser::{parse_query, types::OperationType},
};
use axum::{
    Json,
    body::Bytes,
    extract::{RawQuery, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    response::{Html, IntoResponse, Response},
};
use serde_json::{Value, json};
use service::messages::{self, Lang, Message};
use tracing::Instrument;

const GRAPHQL_RESPONSE: &str = "application/graphql-response+json";
const JSON: &str = "application/json";

/// The response media type chosen from `Accept`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaType {
    /// `application/graphql-response+json`: request errors get 4xx statuses.
    GraphqlResponse,
    /// `application/json`: every well-formed request gets 200.
    Json,
}

impl MediaType {
    fn content_type(self) -> &'static str {
        match self {
            Self::GraphqlResponse => "application/graphql-response+json; charset=utf-8",
            Self::Json => "application/json; charset=utf-8",
        }
    }
}

/// Picks the media type from an `Accept` header; `None` when the client accepts neither JSON form. A missing header
/// counts as `application/json`, as the specification says, and so do wildcards (`*/*`, what `fetch` sends), which
/// the specification says should get `application/json` for older clients.
pub fn negotiate(accept: Option<&str>) -> Option<MediaType> {
    let Some(accept) = accept.map(str::trim).filter(|a| !a.is_empty()) else {
        return Some(MediaType::Json);
    };
    let mut best: Option<(f32, u8, MediaType)> = None;
    for range in accept.split(',') {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let mut q = 1.0_f32;
        for p in parts {
            if let Some(v) = p.trim().strip_prefix("q=") {
                q = v.trim().parse().unwrap_or(0.0);
            }
        }
        if q <= 0.0 {
            continue;
        }
        let candidates: &[(u8, MediaType)] = match media.as_str() {
            GRAPHQL_RESPONSE => &[(3, MediaType::GraphqlResponse)],
            JSON => &[(2, MediaType::Json)],
            // What `fetch` and many clients send by default: older clients parse only `application/json`.
            "application/*" | "*/*" => &[(1, MediaType::Json)],
            _ => &[],
        };
        for (specificity, mt) in candidates {
            let better = match best {
                None => true,
                Some((bq, bs, _)) => q > bq || (q == bq && *specificity > bs),
            };
            if better {
                best = Some((q, *specificity, *mt));
            }
        }
    }
    best.map(|(_, _, mt)| mt)
}

fn error_body(status: StatusCode, media: MediaType, code: &str, message: &str) -> Response {
    let body = json!({ "errors": [{ "message": message, "extensions": { "code": code } }] });
    let mut resp = (status, Json(body)).into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(media.content_type()));
    resp
}

/// A refusal of the transport's own (`extensions.code` `code`), its message the catalogue's in the request's language.
fn refusal(status: StatusCode, media: MediaType, code: &str, message: &Message, lang: Lang) -> Response {
    error_body(status, media, code, &message.render(lang))
}

fn not_acceptable(lang: Lang) -> Response {
    let message = Message::new(messages::code::GRAPHQL_NOT_ACCEPTABLE).render(lang);
    let body = json!({ "errors": [{ "message": message, "extensions": { "code": "NOT_ACCEPTABLE" } }] });
    (StatusCode::NOT_ACCEPTABLE, Json(body)).into_response()
}

/// Where a JSON text stops being JSON, as the catalogue's values (`line`, `column`).
fn not_json(code: &str, e: &serde_json::Error) -> Message {
    Message::new(code).arg("line", e.line()).arg("column", e.column())
}

/// A well-formed GraphQL-over-HTTP request, before execution.
struct GqlRequest {
    query: Option<String>,
    operation_name: Option<String>,
    variables: Option<Value>,
    /// The SHA-256 of the query under Apollo's automatic persisted queries (`extensions.persistedQuery`).
    persisted: Option<String>,
}

/// Automatic persisted queries: a client sends the query's SHA-256 alone and, when this process does not know it
/// yet (`PERSISTED_QUERY_NOT_FOUND`), sends the hash with the query once; the query is then kept by its hash. At most
/// [`PERSISTED_MAX`] queries per process, the least recently used forgotten first (its client just sends it again).
fn persisted() -> &'static std::sync::Mutex<lru::LruCache<String, String>> {
    static STORE: std::sync::OnceLock<std::sync::Mutex<lru::LruCache<String, String>>> = std::sync::OnceLock::new();
    STORE.get_or_init(|| {
        std::sync::Mutex::new(lru::LruCache::new(
            std::num::NonZeroUsize::new(PERSISTED_MAX).expect("PERSISTED_MAX is not zero"),
        ))
    })
}

/// How many persisted queries a process keeps.
const PERSISTED_MAX: usize = 5_000;

/// The query of a request: the one it carries (kept by its hash when it carries one too), or the one its hash names.
fn query_of(req: &GqlRequest) -> Result<String, (&'static str, Message)> {
    use sha2::Digest;
    match (&req.query, &req.persisted) {
        (Some(q), None) => Ok(q.clone()),
        (Some(q), Some(hash)) => {
            let digest = hex::encode(sha2::Sha256::digest(q.as_bytes()));
            if !digest.eq_ignore_ascii_case(hash) {
                return Err((
                    "PERSISTED_QUERY_HASH_MISMATCH",
                    Message::new(messages::code::GRAPHQL_PERSISTED_HASH_MISMATCH)
                        .arg("digest", &digest)
                        .arg("hash", hash),
                ));
            }
            if let Ok(mut store) = persisted().lock() {
                store.put(digest, q.clone());
            }
            Ok(q.clone())
        }
        (None, Some(hash)) => persisted()
            .lock()
            .ok()
            .and_then(|mut s| s.get(&hash.to_ascii_lowercase()).cloned())
            // Apollo's clients know this answer by its message too: a token, the same in every language.
            .ok_or(("PERSISTED_QUERY_NOT_FOUND", Message::new("PersistedQueryNotFound"))),
        // GET refuses a request with no query before this.
        (None, None) => Err(("BAD_REQUEST", no_query(&Method::POST))),
    }
}

/// The hash of `extensions.persistedQuery` (version 1), if the extensions carry one.
fn persisted_hash(extensions: Option<&Value>) -> Result<Option<String>, Message> {
    let Some(pq) = extensions.and_then(|e| e.get("persistedQuery")) else {
        return Ok(None);
    };
    if pq.get("version").and_then(Value::as_i64) != Some(1) {
        return Err(Message::new(messages::code::GRAPHQL_PERSISTED_VERSION));
    }
    match pq.get("sha256Hash").and_then(Value::as_str) {
        Some(h) if h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()) => Ok(Some(h.to_ascii_lowercase())),
        _ => Err(Message::new(messages::code::GRAPHQL_PERSISTED_HASH_SHAPE)),
    }
}

/// A request with no query (nor a persisted query's hash), as the method asks for one.
fn no_query(method: &Method) -> Message {
    Message::new(messages::code::GRAPHQL_NO_QUERY).arg("method", method.as_str())
}

/// An operation as the metrics count it: its name (the request's `operationName`, else the document's only
/// operation's) and its type (`unknown` before the document parses or when no operation is selected).
struct Labels {
    name: Option<String>,
    ty: &'static str,
}

impl Labels {
    fn unknown(requested: Option<&str>) -> Self {
        Self {
            name: requested.map(str::to_owned),
            ty: "unknown",
        }
    }

    fn of(doc: &async_graphql::parser::types::ExecutableDocument, requested: Option<&str>) -> Self {
        use async_graphql::parser::types::DocumentOperations;
        let name = requested.map(str::to_owned).or_else(|| match &doc.operations {
            DocumentOperations::Multiple(ops) if ops.len() == 1 => ops.keys().next().map(|n| n.to_string()),
            _ => None,
        });
        let ty = match crate::graphql::complete::operation(doc, requested).map(|op| op.ty) {
            Some(OperationType::Query) => "query",
            Some(OperationType::Mutation) => "mutation",
            Some(OperationType::Subscription) => "subscription",
            None => "unknown",
        };
        Self { name, ty }
    }

    /// Counts the operation with the codes of its errors.
    fn count<'a>(&self, codes: impl Iterator<Item = &'a str>) {
        crate::metrics::graphql_operation(self.name.as_deref(), self.ty, codes);
    }

    /// The span of the operation's execution, inside the request's: the resolvers' SQL statements are its children
    /// in a trace (OpenTelemetry's `graphql.operation.*` attributes).
    fn span(&self) -> tracing::Span {
        let name = self.name.as_deref().unwrap_or("anonymous");
        tracing::info_span!(
            "graphql",
            otel.name = %format_args!("{} {name}", self.ty),
            "graphql.operation.name" = name,
            "graphql.operation.type" = self.ty,
        )
    }
}

/// Executes a request and shapes the response by media type and error kind.
async fn execute(
    state: &AppState,
    caller: Caller,
    remote: service::audit::Remote,
    req: GqlRequest,
    media: MediaType,
    method: Method,
    lang: jobs::report::messages::Lang,
) -> Response {
    let query = match query_of(&req) {
        Ok(q) => q,
        // Apollo's clients look for the not-found answer in a 200 and then send the query with its hash.
        Err((code @ "PERSISTED_QUERY_NOT_FOUND", message)) => {
            return error_body(StatusCode::OK, media, code, &message.code);
        }
        Err((code, message)) => return refusal(StatusCode::BAD_REQUEST, media, code, &message, lang),
    };
    if let Err(e) = crate::graphql::limits::check_size(&query, lang) {
        let labels = Labels::unknown(req.operation_name.as_deref());
        return shape(async_graphql::Response::from_errors(vec![e]), media, None, &labels);
    }
    // Parse once ourselves: to refuse mutations over GET, and to tell parse errors from later ones.
    let doc = match parse_query(&query) {
        Ok(doc) => doc,
        Err(e) => {
            Labels::unknown(req.operation_name.as_deref()).count(std::iter::once("GRAPHQL_PARSE_FAILED"));
            let status = if media == MediaType::Json {
                StatusCode::OK
            } else {
                StatusCode::BAD_REQUEST
            };
            // The parser's English text in the request's language, by its shape (`graphql::localise`).
            let text = e.to_string();
            let message = crate::graphql::localise::graphql_message(&text, lang).unwrap_or(text);
            return error_body(status, media, "GRAPHQL_PARSE_FAILED", &message);
        }
    };
    if !state.introspection && selects(&doc, &["__schema", "__type"]) {
        let status = if media == MediaType::Json {
            StatusCode::OK
        } else {
            StatusCode::BAD_REQUEST
        };
        return refusal(
            status,
            media,
            "INTROSPECTION_DISABLED",
            &Message::new(messages::code::GRAPHQL_INTROSPECTION_OFF),
            lang,
        );
    }
    if method == Method::GET {
        let op_type = crate::graphql::complete::operation(&doc, req.operation_name.as_deref()).map(|op| op.ty);
        if op_type == Some(OperationType::Mutation) {
            let mut resp = refusal(
                StatusCode::METHOD_NOT_ALLOWED,
                media,
                "METHOD_NOT_ALLOWED",
                &Message::new(messages::code::GRAPHQL_MUTATION_OVER_GET),
                lang,
            );
            resp.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("POST"));
            return resp;
        }
    }
    if let Some(message) = missing_variable(&doc, req.operation_name.as_deref(), req.variables.as_ref()) {
        let status = if media == MediaType::Json {
            StatusCode::OK
        } else {
            StatusCode::BAD_REQUEST
        };
        return error_body(status, media, "BAD_USER_INPUT", &message.render(lang));
    }
    let variables = req.variables.map(Variables::from_json).unwrap_or_default();
    let operation_name = req.operation_name;
    let labels = Labels::of(&doc, operation_name.as_deref());
    // The limits, before anything walks the document with its fragments spread (the guard below, async-graphql's
    // parse step and validation), on every path.
    if let Err(e) = crate::graphql::limits::check_document(&doc, &variables, lang) {
        return shape(
            async_graphql::Response::from_errors(vec![e]),
            media,
            Some((&doc, operation_name.as_deref())),
            &labels,
        );
    }
    let is_query = crate::graphql::complete::operation(&doc, operation_name.as_deref())
        .is_some_and(|op| op.ty == OperationType::Query);
    let mut request = async_graphql::Request::new(query.clone())
        .data(caller)
        .data(remote)
        .data(lang)
        .data(crate::graphql::rules::RuleCache::default())
        .data(crate::graphql::prefetched::Prefetched::default())
        .variables(variables);
    if let Some(name) = &operation_name {
        request = request.operation_name(name.clone());
    }
    if is_query {
        // A query: a financing's `compliance` and `deadlines` judged once.
        request = request.data(crate::graphql::rules::Judgements::default());
        if !selects(&doc, &crate::graphql::rules::TEXT_FIELDS) {
            // No rule's text is read: the rules are judged without writing them.
            request = request.data(crate::graphql::rules::Quiet);
        }
    }
    if state.plain_reads {
        // Plain selections are read at once (the schema has no extension to hook into each field).
        request = request.data(crate::graphql::plain::PlainReads);
    }
    // The document parsed above is the one run (not parsed again); a copy puts the answer in the selection's order and,
    // where the answer may need it (errors, fragments or directives: `complete::needs_document`), completes it.
    let needs_completing = crate::graphql::complete::needs_document(&doc);
    request.set_parsed_query(doc.clone());
    let request = crate::graphql::request::prepared(request);
    let response = state.schema.execute(request).instrument(labels.span()).await;
    let mut response = crate::graphql::request::finished(response, lang);
    crate::graphql::complete::order(&doc, operation_name.as_deref(), &mut response.data);
    let operation = (needs_completing || !response.errors.is_empty()).then_some((&doc, operation_name.as_deref()));
    shape(response, media, operation, &labels)
}

/// Whether a document selects a field of one of these names anywhere (in an operation or a fragment, aliased or
/// not).
fn selects(doc: &async_graphql::parser::types::ExecutableDocument, names: &[&str]) -> bool {
    use async_graphql::parser::types::{Selection, SelectionSet};
    fn walk(set: &SelectionSet, names: &[&str]) -> bool {
        set.items.iter().any(|s| match &s.node {
            Selection::Field(f) => {
                names.contains(&f.node.name.node.as_str()) || walk(&f.node.selection_set.node, names)
            }
            Selection::InlineFragment(i) => walk(&i.node.selection_set.node, names),
            Selection::FragmentSpread(_) => false,
        })
    }
    doc.operations
        .iter()
        .any(|(_, op)| walk(&op.node.selection_set.node, names))
        || doc.fragments.values().any(|f| walk(&f.node.selection_set.node, names))
}

/// Shapes an executed response for the client: every error gets a stable `extensions.code`; a request error
/// (validation, operation selection, variable coercion: errors with no path and no data) has no `data` entry and gets
/// 400 under `application/graphql-response+json`, 200 under `application/json`. The data is completed as the
/// specification says ([`crate::graphql::complete`]): a failed field is `null`, empty selections are `{}`.
fn shape(
    response: async_graphql::Response,
    media: MediaType,
    operation: Option<(&async_graphql::parser::types::ExecutableDocument, Option<&str>)>,
    labels: &Labels,
) -> Response {
    if response.errors.is_empty() && operation.is_none() {
        labels.count(std::iter::empty());
        // Nothing to complete: the data as async-graphql made them, serialized once.
        #[derive(serde::Serialize)]
        struct DataOnly<'a> {
            data: &'a async_graphql::Value,
        }
        let body = serde_json::to_vec(&DataOnly { data: &response.data }).unwrap_or_default();
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, HeaderValue::from_static(media.content_type()))],
            body,
        )
            .into_response();
    }
    let request_error = !response.errors.is_empty()
        && response.errors.iter().all(|e| e.path.is_empty())
        && response.data == async_graphql::Value::Null;
    let mut errors: Vec<ServerError> = response.errors;
    for e in &mut errors {
        let bad_input = crate::graphql::localise::is_bad_input(&e.message);
        let ext = e.extensions.get_or_insert_with(ErrorExtensionValues::default);
        if ext.get("code").is_none() {
            ext.set(
                "code",
                if bad_input {
                    "BAD_USER_INPUT"
                } else if request_error {
                    "GRAPHQL_VALIDATION_FAILED"
                } else {
                    "INTERNAL"
                },
            );
        }
    }
    labels.count(errors.iter().filter_map(|e| match e.extensions.as_ref()?.get("code")? {
        async_graphql::Value::String(code) => Some(code.as_str()),
        _ => None,
    }));
    let mut body = serde_json::Map::new();
    if !request_error {
        let mut data = serde_json::to_value(&response.data).unwrap_or(Value::Null);
        if let Some((doc, name)) = operation {
            use crate::graphql::complete::Step;
            let paths: Vec<Vec<Step>> = errors
                .iter()
                .map(|e| {
                    e.path
                        .iter()
                        .map(|p| match p {
                            async_graphql::PathSegment::Field(f) => Step::Key(f.clone()),
                            async_graphql::PathSegment::Index(i) => Step::Index(*i),
                        })
                        .collect()
                })
                .collect();
            crate::graphql::complete::complete(crate::graphql::type_info(), doc, name, &mut data, &paths);
        }
        body.insert("data".into(), data);
    }
    if !errors.is_empty() {
        body.insert("errors".into(), serde_json::to_value(&errors).unwrap_or(Value::Null));
    }
    // A request an outage caught answers as the door does while the database is down: 503, try again in a second.
    let unavailable = errors.iter().any(|e| {
        e.extensions
            .as_ref()
            .and_then(|x| x.get("code"))
            .is_some_and(|c| *c == async_graphql::Value::from("DATABASE_UNAVAILABLE"))
    });
    let status = if unavailable {
        StatusCode::SERVICE_UNAVAILABLE
    } else if request_error && media == MediaType::GraphqlResponse {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let mut resp = (status, Json(Value::Object(body))).into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(media.content_type()));
    if unavailable {
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    resp
}

/// A required (non-null, no default) variable of the selected operation that the request does not give: a
/// variable-coercion failure, which the specification counts as a request error.
fn missing_variable(
    doc: &async_graphql::parser::types::ExecutableDocument,
    operation_name: Option<&str>,
    variables: Option<&Value>,
) -> Option<service::messages::Message> {
    let op = crate::graphql::complete::operation(doc, operation_name)?;
    op.variable_definitions.iter().find_map(|def| {
        let def = &def.node;
        let given = variables
            .and_then(|v| v.get(def.name.node.as_str()))
            .is_some_and(|v| !v.is_null());
        (!def.var_type.node.nullable && def.default_value.is_none() && !given).then(|| {
            service::messages::Message::new(service::messages::code::GRAPHQL_VARIABLE_REQUIRED)
                .arg("name", &def.name.node)
                .arg("type", &def.var_type.node)
        })
    })
}

fn accept(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok())
}

/// Reads `query`, `operationName` and `variables` out of a JSON object, refusing any other shape.
fn request_from_json(v: Value) -> Result<GqlRequest, Message> {
    let Value::Object(mut map) = v else {
        return Err(Message::new(messages::code::GRAPHQL_BODY_NOT_OBJECT));
    };
    let must_be = |member: &str, kind: &str| {
        Message::new(messages::code::GRAPHQL_MEMBER_TYPE)
            .arg("member", member)
            .arg("kind", kind)
    };
    let query = match map.remove("query") {
        Some(Value::String(q)) => Some(q),
        Some(_) => return Err(must_be("query", "string")),
        None => None,
    };
    let operation_name = match map.remove("operationName") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => return Err(must_be("operationName", "string")),
    };
    let variables = match map.remove("variables") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Object(_)) => Some(v),
        Some(_) => return Err(must_be("variables", "object")),
    };
    let persisted = match map.remove("extensions") {
        None | Some(Value::Null) => None,
        Some(e @ Value::Object(_)) => persisted_hash(Some(&e))?,
        Some(_) => return Err(must_be("extensions", "object")),
    };
    if query.is_none() && persisted.is_none() {
        return Err(no_query(&Method::POST));
    }
    Ok(GqlRequest {
        query,
        operation_name,
        variables,
        persisted,
    })
}

/// A `413` naming the limit, in the request's language.
fn too_large(state: &AppState, headers: &HeaderMap, media: MediaType) -> Response {
    let max = state.max_upload_bytes;
    let message = service::messages::Message::new(service::messages::code::UPLOAD_TOO_LARGE)
        .arg("max", max)
        .arg("mib", max / (1024 * 1024));
    let text = message.render(crate::http::refusal::lang_of(headers));
    error_body(StatusCode::PAYLOAD_TOO_LARGE, media, "PAYLOAD_TOO_LARGE", &text)
}

pub async fn graphql_post(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    axum::Extension(remote): axum::Extension<service::audit::Remote>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let lang = crate::http::refusal::lang_of(&headers);
    let Some(media) = negotiate(accept(&headers)) else {
        return not_acceptable(lang);
    };
    let body = match body {
        Ok(b) => b,
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return too_large(&state, &headers, media),
        Err(e) => {
            tracing::debug!(error = %e.body_text(), "a GraphQL request's body could not be read");
            let message = Message::new(messages::code::GRAPHQL_BODY_UNREADABLE);
            return refusal(e.status(), media, "BAD_REQUEST", &message, lang);
        }
    };
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let essence = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if essence == "multipart/form-data" {
        // The GraphQL multipart request spec: `operations`, `map`, then the files.
        let opts = async_graphql::http::MultipartOptions::default()
            .max_file_size(state.max_upload_bytes)
            .max_num_files(4);
        return match async_graphql::http::receive_body(
            Some(content_type),
            futures::io::Cursor::new(body.to_vec()),
            opts,
        )
        .await
        {
            Ok(request) => {
                let mut request = request
                    .data(caller)
                    .data(remote)
                    .data(crate::http::refusal::lang_of(&headers))
                    .data(crate::graphql::rules::RuleCache::default())
                    .data(crate::graphql::prefetched::Prefetched::default());
                let operation_name = request.operation_name.clone();
                let lang = crate::http::refusal::lang_of(&headers);
                if let Err(e) = crate::graphql::limits::check_size(&request.query, lang) {
                    let labels = Labels::unknown(operation_name.as_deref());
                    return shape(async_graphql::Response::from_errors(vec![e]), media, None, &labels);
                }
                // Parsed and checked once here; a text that does not parse is left to the schema to refuse.
                let doc = parse_query(&request.query).ok();
                let labels = doc.as_ref().map_or_else(
                    || Labels::unknown(operation_name.as_deref()),
                    |d| Labels::of(d, operation_name.as_deref()),
                );
                if let Some(doc) = &doc {
                    if let Err(e) = crate::graphql::limits::check_document(doc, &request.variables, lang) {
                        return shape(
                            async_graphql::Response::from_errors(vec![e]),
                            media,
                            Some((doc, operation_name.as_deref())),
                            &labels,
                        );
                    }
                    request.set_parsed_query(doc.clone());
                }
                let request = crate::graphql::request::prepared(request);
                let response = state.schema.execute(request).instrument(labels.span()).await;
                let response = crate::graphql::request::finished(response, lang);
                shape(
                    response,
                    media,
                    doc.as_ref().map(|d| (d, operation_name.as_deref())),
                    &labels,
                )
            }
            Err(async_graphql::ParseRequestError::PayloadTooLarge) => too_large(&state, &headers, media),
            Err(e) => refusal(
                StatusCode::BAD_REQUEST,
                media,
                "BAD_REQUEST",
                &Message::new(messages::code::GRAPHQL_MULTIPART_INVALID).arg("problem", multipart_problem(&e)),
                lang,
            ),
        };
    }
    if essence != JSON {
        return refusal(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            media,
            "UNSUPPORTED_MEDIA_TYPE",
            &Message::new(messages::code::GRAPHQL_CONTENT_TYPE).arg("type", content_type),
            lang,
        );
    }
    let parsed =
        serde_json::from_slice::<Value>(&body).map_err(|e| not_json(messages::code::GRAPHQL_BODY_NOT_JSON, &e));
    if let Ok(Value::Array(batch)) = &parsed {
        let message = service::messages::Message::new(service::messages::code::BATCH_NOT_SUPPORTED)
            .arg("count", batch.len())
            .render(crate::http::refusal::lang_of(&headers));
        return error_body(StatusCode::BAD_REQUEST, media, "BATCH_NOT_SUPPORTED", &message);
    }
    match parsed.and_then(request_from_json) {
        Ok(req) => {
            execute(
                &state,
                caller,
                remote,
                req,
                media,
                Method::POST,
                crate::http::refusal::lang_of(&headers),
            )
            .await
        }
        Err(message) => refusal(StatusCode::BAD_REQUEST, media, "BAD_REQUEST", &message, lang),
    }
}

/// What is wrong with a multipart request, as `GRAPHQL_MULTIPART_INVALID` names it (async-graphql's own text is
/// English, and logged).
fn multipart_problem(e: &async_graphql::ParseRequestError) -> &'static str {
    use async_graphql::ParseRequestError as E;
    tracing::debug!(error = %e, "a multipart GraphQL request does not read");
    match e {
        E::MissingOperatorsPart => "operations",
        E::MissingMapPart => "map",
        E::InvalidFilesMap(_) => "map-invalid",
        E::InvalidRequest(_) => "request",
        E::MissingFiles => "files",
        E::NotUpload => "not-upload",
        E::UnsupportedBatch => "batch",
        _ => "other",
    }
}

pub async fn graphql_get(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    axum::Extension(remote): axum::Extension<service::audit::Remote>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Response {
    let params = super::params::pairs(raw.as_deref().unwrap_or(""));
    let get = |k: &str| params.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let wants_html = accept(&headers).is_some_and(|a| a.contains("text/html"));
    let extensions = get("extensions")
        .filter(|e| !e.is_empty())
        .map(|e| serde_json::from_str::<Value>(&e));
    let persisted = match extensions {
        None => Ok(None),
        Some(Ok(e)) => persisted_hash(Some(&e)),
        Some(Err(e)) => Err(not_json(messages::code::GRAPHQL_PARAMETER_NOT_JSON, &e).arg("parameter", "extensions")),
    };
    let lang = crate::http::refusal::lang_of(&headers);
    let query = get("query");
    if query.is_none() && !matches!(persisted, Ok(Some(_))) {
        if wants_html {
            return Html(GRAPHIQL).into_response();
        }
        let media = negotiate(accept(&headers)).unwrap_or(MediaType::Json);
        return refusal(
            StatusCode::BAD_REQUEST,
            media,
            "BAD_REQUEST",
            &no_query(&Method::GET),
            lang,
        );
    }
    let Some(media) = negotiate(accept(&headers)) else {
        return not_acceptable(lang);
    };
    let persisted = match persisted {
        Ok(p) => p,
        Err(message) => return refusal(StatusCode::BAD_REQUEST, media, "BAD_REQUEST", &message, lang),
    };
    let variables = match get("variables").filter(|v| !v.is_empty()) {
        None => None,
        Some(text) => match serde_json::from_str::<Value>(&text) {
            Ok(v @ Value::Object(_)) => Some(v),
            Ok(Value::Null) => None,
            Ok(_) => {
                let message = Message::new(messages::code::GRAPHQL_MEMBER_TYPE)
                    .arg("member", "variables")
                    .arg("kind", "object");
                return refusal(StatusCode::BAD_REQUEST, media, "BAD_REQUEST", &message, lang);
            }
            Err(e) => {
                let message = not_json(messages::code::GRAPHQL_PARAMETER_NOT_JSON, &e).arg("parameter", "variables");
                return refusal(StatusCode::BAD_REQUEST, media, "BAD_REQUEST", &message, lang);
            }
        },
    };
    let req = GqlRequest {
        query,
        operation_name: get("operationName").filter(|s| !s.is_empty()),
        variables,
        persisted,
    };
    execute(
        &state,
        caller,
        remote,
        req,
        media,
        Method::GET,
        crate::http::refusal::lang_of(&headers),
    )
    .await
}

const GRAPHIQL: &str = r#"<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Fomento GraphiQL</title>
  <style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
  <link rel="stylesheet" href="/graphiql/graphiql.min.css" />
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="/graphiql/react.production.min.js"></script>
  <script src="/graphiql/react-dom.production.min.js"></script>
  <script src="/graphiql/graphiql.min.js"></script>
  <script>
    const fetcher = GraphiQL.createFetcher({ url: window.location.pathname });
    // `/graphql#query=…` (the dashboard's links) opens with that query in the editor.
    const query = new URLSearchParams(window.location.hash.slice(1)).get('query') || undefined;
    ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, { fetcher, query, defaultQuery: query }));
  </script>
</body>
</html>"#;

/// GraphiQL's assets, embedded gzipped (`api/assets/graphiql/`, with their licences), so the page works without
/// internet access: `(name, content type, gzipped bytes)`.
const GRAPHIQL_ASSETS: [(&str, &str, &[u8]); 4] = [
    (
        "graphiql.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/graphiql/graphiql.min.js.gz"),
    ),
    (
        "graphiql.min.css",
        "text/css; charset=utf-8",
        include_bytes!("../../assets/graphiql/graphiql.min.css.gz"),
    ),
    (
        "react.production.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/graphiql/react.production.min.js.gz"),
    ),
    (
        "react-dom.production.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/graphiql/react-dom.production.min.js.gz"),
    ),
];

/// `GET /graphiql/{file}`: an embedded asset, gzipped when the client accepts it (every browser does).
pub async fn graphiql_asset(axum::extract::Path(file): axum::extract::Path<String>, headers: HeaderMap) -> Response {
    let Some((_, content_type, gz)) = GRAPHIQL_ASSETS.iter().find(|(name, ..)| *name == file) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let gzip_ok = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip")));
    let mut builder = Response::builder()
        .header(header::CONTENT_TYPE, *content_type)
        .header(header::CACHE_CONTROL, "public, max-age=86400")
        .header(header::VARY, "accept-encoding");
    let body = if gzip_ok {
        builder = builder.header(header::CONTENT_ENCODING, "gzip");
        gz.to_vec()
    } else {
        use std::io::Read;
        let mut out = Vec::new();
        if flate2::read::GzDecoder::new(*gz).read_to_end(&mut out).is_err() {
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
        out
    };
    builder
        .body(axum::body::Body::from(body))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_negotiation_follows_the_specification() {
        let cases = [
            (None, Some(MediaType::Json), "no Accept: application/json"),
            (Some("application/json"), Some(MediaType::Json), "json only"),
            (
                Some("application/graphql-response+json"),
                Some(MediaType::GraphqlResponse),
                "graphql-response only",
            ),
            (
                Some("application/graphql-response+json, application/json;q=0.9"),
                Some(MediaType::GraphqlResponse),
                "spec's recommended header",
            ),
            (
                Some("application/json, application/graphql-response+json;q=0.5"),
                Some(MediaType::Json),
                "json preferred by q",
            ),
            (
                Some("*/*"),
                Some(MediaType::Json),
                "curl's and fetch's wildcard: plain JSON",
            ),
            (
                Some("application/graphql-response+json, */*;q=0.5"),
                Some(MediaType::GraphqlResponse),
                "asked for by name",
            ),
            (Some("text/html"), None, "html only"),
            (Some("application/json;q=0"), None, "json refused"),
        ];
        for (accept, expected, why) in cases {
            assert_eq!(negotiate(accept), expected, "{why}");
        }
    }

    #[test]
    fn a_persisted_query_in_use_outlives_a_flood_of_new_ones() {
        use sha2::Digest;
        let request = |query: &str, with_query: bool| GqlRequest {
            query: with_query.then(|| query.to_owned()),
            operation_name: None,
            variables: None,
            persisted: Some(hex::encode(sha2::Sha256::digest(query.as_bytes()))),
        };
        let busy = "{ banks(first: 1) { totalCount } } # a busy client's query";
        assert_eq!(query_of(&request(busy, true)).as_deref(), Ok(busy));
        // More new queries than the store holds, the busy client's hash sent alone now and then.
        for n in 0..PERSISTED_MAX + 100 {
            assert!(query_of(&request(&format!("{{ __typename }} # {n}"), true)).is_ok());
            if n % 1_000 == 0 {
                assert_eq!(
                    query_of(&request(busy, false)).as_deref(),
                    Ok(busy),
                    "after {n} new queries"
                );
            }
        }
        assert_eq!(query_of(&request(busy, false)).as_deref(), Ok(busy));
        // The least recently used went first: the first of the flood is forgotten.
        let first = "{ __typename } # 0";
        assert_eq!(
            query_of(&request(first, false)).map_err(|e| e.0),
            Err("PERSISTED_QUERY_NOT_FOUND")
        );
    }
}

#[cfg(test)]
mod variable_tests {
    use super::*;

    #[test]
    fn a_missing_required_variable_is_named() {
        let doc = parse_query("query Q($n: Int!, $m: Int, $k: Int! = 3) { a }").expect("parses");
        let said = |v: Option<&Value>| missing_variable(&doc, None, v).map(|m| m.render(service::messages::Lang::En));
        assert_eq!(
            said(None).as_deref(),
            Some("variable \"$n\" of type \"Int!\" is required")
        );
        assert_eq!(said(Some(&json!({ "n": 1 }))), None);
        assert_eq!(
            said(Some(&json!({ "n": null }))).as_deref(),
            Some("variable \"$n\" of type \"Int!\" is required")
        );
        let pt = missing_variable(&doc, None, None).map(|m| m.render(service::messages::Lang::PtBr));
        assert_eq!(
            pt.as_deref(),
            Some("a variável \"$n\", do tipo \"Int!\", é obrigatória")
        );
    }
}
