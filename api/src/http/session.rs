//! Browsers: a sign-in page that takes an API key (or an identity provider's token) and keeps it in an `HttpOnly`,
//! `SameSite=Strict` cookie, so `/dashboard`, its export links, GraphiQL and subscriptions work in a browser without a
//! header. A browser asking for a page without credentials is sent here, and back where it was going after.

use super::AppState;
use axum::{
    body::Bytes,
    extract::{Query, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{Html, IntoResponse, Response},
};
use std::collections::HashMap;

/// The cookie that carries a browser's credential.
pub const COOKIE: &str = "fomento_session";

/// How long a browser stays signed in, in seconds (eight hours: a working day).
const SESSION_SECONDS: u32 = 8 * 3600;

/// The credential in a request's cookie, if any.
pub fn from_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|v| !v.is_empty())
}

/// Where to go after signing in: a path of this server only (never another site).
fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') => n.to_owned(),
        _ => "/dashboard".to_owned(),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn form(next: &str, problem: Option<&str>) -> String {
    let problem = problem
        .map(|p| format!(r#"<p class="problem" role="alert">{}</p>"#, escape(p)))
        .unwrap_or_default();
    format!(
        r#"<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Fomento — entrar</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}}
label,input,button{{display:block;width:100%;margin:.4rem 0}}input{{padding:.5rem;font-family:monospace}}
button{{padding:.5rem}}.problem{{color:#9c0006;background:#ffc7ce;padding:.5rem}}</style></head>
<body><h1>Fomento</h1>
<form method="post" action="/sign-in">
{problem}<label for="key">Chave de API ou token (API key or token)</label>
<input id="key" name="key" type="password" autocomplete="off" required autofocus>
<input type="hidden" name="next" value="{next}">
<button type="submit">Entrar (sign in)</button>
</form>
<p>A chave fica num cookie só deste site, por 8 horas; <em>sair</em> a apaga.</p></body></html>"#,
        next = escape(next)
    )
}

/// `GET /sign-in`: the form.
pub async fn page(Query(q): Query<HashMap<String, String>>) -> Response {
    Html(form(&safe_next(q.get("next").map(String::as_str)), None)).into_response()
}

/// `POST /sign-in`: checks the credential, sets the cookie and goes on to `next`; the form again, with why, when
/// the credential is not valid.
pub async fn sign_in(
    State(state): State<AppState>,
    axum::Extension(remote): axum::Extension<service::audit::Remote>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields: HashMap<String, String> = String::from_utf8_lossy(&body)
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (super::graphql::decode(k), super::graphql::decode(v)))
        .collect();
    let next = safe_next(fields.get("next").map(String::as_str));
    let key = fields.get("key").map(|k| k.trim().to_owned()).unwrap_or_default();
    let caller = match super::auth::identify(&state, &key).await {
        Ok(found) => found.map(|(c, _)| c),
        Err(e) => {
            tracing::error!(error = %e, "sign-in: the credential could not be checked");
            None
        }
    };
    let Some(caller) = caller else {
        service::audit::record(
            &state.db,
            &service::Caller::Anonymous,
            "sign-in",
            None,
            Some("UNAUTHENTICATED"),
            &remote,
        )
        .await;
        let problem = "Chave ou token inválido, revogado ou expirado (invalid, revoked or expired credential).";
        return (StatusCode::UNAUTHORIZED, Html(form(&next, Some(problem)))).into_response();
    };
    service::audit::record(&state.db, &caller, "sign-in", None, None, &remote).await;
    let https = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|p| p.eq_ignore_ascii_case("https"));
    let cookie = format!(
        "{COOKIE}={key}; Path=/; HttpOnly; SameSite=Strict; Max-Age={SESSION_SECONDS}{}",
        if https { "; Secure" } else { "" }
    );
    redirect(&next, Some(cookie))
}

/// `POST /sign-out`: forgets the cookie.
pub async fn sign_out() -> Response {
    redirect(
        "/sign-in",
        Some(format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")),
    )
}

fn redirect(to: &str, cookie: Option<String>) -> Response {
    let mut resp = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(to) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    if let Some(c) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        resp.headers_mut().insert(header::SET_COOKIE, c);
    }
    resp
}

/// Whether a request without credentials comes from a browser asking for a page (sent to sign in, not refused).
pub fn wants_page(method: &axum::http::Method, headers: &HeaderMap) -> bool {
    method == axum::http::Method::GET
        && headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.contains("text/html"))
}

/// The way to the sign-in page, coming back to `path_and_query` after.
pub fn to_sign_in(path_and_query: &str) -> Response {
    let next: String = path_and_query
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    redirect(&format!("/sign-in?next={next}"), None)
}
