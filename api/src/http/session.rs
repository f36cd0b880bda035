//! Browsers: a sign-in page that takes an API key (or an identity provider's token) and starts a server-side session
//! ([`service::sessions`]) whose random id goes in an `HttpOnly`, `SameSite=Strict` cookie, so `/dashboard`, its
//! export links, GraphiQL and subscriptions work in a browser without a header; the key itself never sits in the
//! browser. A browser asking for a page without credentials is sent here, and back where it was going after. A
//! request that changes something with the cookie must come from this site's own pages ([`same_origin`]); the
//! sign-in form too, so another site cannot sign a browser in under its own key (login CSRF).

use super::AppState;
use axum::{
    body::Bytes,
    extract::{Query, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{Html, IntoResponse, Response},
};
use service::messages::Lang;
use std::collections::HashMap;

/// The cookie that carries a browser's session id.
pub const COOKIE: &str = "fomento_session";

/// The session id in a request's cookie, if any.
pub fn from_cookie(headers: &HeaderMap) -> Option<String> {
    cookie(headers, COOKIE)
}

/// A request's cookie by its name, if it has a value.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
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

/// The sign-in page's word by its key (`pages.sign_in.key`) in `lang`, escaped for HTML.
fn word(key: &str, lang: Lang) -> String {
    escape(&super::pages::t(key, lang))
}

/// The sign-in form in `lang` (its words from `pages.ftl`), with a problem above it if any. A language asked by
/// `?lang=` is kept in the form, so that its answer is in the same language.
fn form(next: &str, problem: Option<&str>, oidc: bool, lang: Lang, asked: bool) -> String {
    let problem = problem
        .map(|p| format!(r#"<p class="problem" role="alert">{}</p>"#, escape(p)))
        .unwrap_or_default();
    let target = if next.is_empty() { "/dashboard" } else { next };
    let provider = if oidc {
        format!(
            r#"<p><a href="/sign-in/oidc?next={}">{}</a></p>"#,
            escape(&super::params::encode(target)),
            word("pages.sign_in.oidc", lang)
        )
    } else {
        String::new()
    };
    let kept = if asked {
        format!(r#"<input type="hidden" name="lang" value="{}">"#, lang.tag())
    } else {
        String::new()
    };
    let other = match lang {
        Lang::PtBr => Lang::En,
        Lang::En => Lang::PtBr,
    };
    let mut switch = format!("/sign-in?lang={}", other.tag());
    if !next.is_empty() {
        switch.push_str("&next=");
        switch.push_str(&super::params::encode(next));
    }
    format!(
        r#"<!doctype html>
<html lang="{tag}"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}}
label,input,button{{display:block;width:100%;margin:.4rem 0}}input{{padding:.5rem;font-family:monospace}}
button{{padding:.5rem}}.problem{{color:#9c0006;background:#ffc7ce;padding:.5rem}}</style></head>
<body><h1>Fomento</h1>
<form method="post" action="/sign-in">
{problem}<label for="key">{label}</label>
<input id="key" name="key" type="password" autocomplete="off" required autofocus>
<input type="hidden" name="next" value="{next}">{kept}
<button type="submit">{submit}</button>
</form>
{provider}<p>{session}</p>
<p><a href="{switch}" hreflang="{other_tag}" lang="{other_tag}">{other_name}</a></p></body></html>"#,
        tag = lang.tag(),
        title = word("pages.sign_in.title", lang),
        label = word("pages.sign_in.key", lang),
        submit = word("pages.sign_in.submit", lang),
        session = word("pages.sign_in.session", lang),
        switch = escape(&switch),
        other_tag = other.tag(),
        other_name = word("pages.sign_in.language", other),
        next = escape(next)
    )
}

/// `GET /sign-in`: the form, in the language `?lang=` names (`pt-BR`, `en`) or else `Accept-Language`'s.
pub async fn page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    // Without `next`, the form sends none, and where to go follows from who signs in.
    let next = q.get("next").map(|n| safe_next(Some(n))).unwrap_or_default();
    let (lang, asked) = lang_asked(q.get("lang").map(String::as_str), &headers);
    (
        [(header::CONTENT_LANGUAGE, lang.tag())],
        Html(form(&next, None, state.oidc.is_some(), lang, asked)),
    )
        .into_response()
}

/// The page's language: `lang` when it names one (and `true`), else the `Accept-Language` header's.
fn lang_asked(lang: Option<&str>, headers: &HeaderMap) -> (Lang, bool) {
    match lang.and_then(Lang::from_tag) {
        Some(l) => (l, true),
        None => (super::refusal::lang_of(headers), false),
    }
}

/// The cookie that carries an OpenID Connect sign-in's state while the browser is at the provider.
const OIDC_COOKIE: &str = "fomento_oidc";

/// `GET /sign-in/oidc`: to the provider, with a fresh `state` and `nonce` kept in a short-lived cookie (`SameSite=Lax`:
/// it must come back on the provider's redirect, a cross-site navigation).
pub async fn oidc_start(State(state): State<AppState>, Query(q): Query<HashMap<String, String>>) -> Response {
    let Some(provider) = &state.oidc else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let next = safe_next(q.get("next").map(String::as_str));
    let (flow, nonce) = (
        uuid::Uuid::new_v4().simple().to_string(),
        uuid::Uuid::new_v4().simple().to_string(),
    );
    let cookie = format!(
        "{OIDC_COOKIE}={flow}.{nonce}.{}; Path=/sign-in; HttpOnly; SameSite=Lax; Max-Age=600",
        super::params::encode(&next)
    );
    redirect(&provider.authorization_url(&flow, &nonce), Some(cookie))
}

/// `GET /sign-in/callback`: the provider's answer. The state must be this browser's; the code is exchanged for the ID
/// token, which is checked (and its nonce) and kept as the session. The page then goes on to `next` by itself: a
/// `SameSite=Strict` cookie set on a navigation that began at another site is only sent from the next one.
pub async fn oidc_callback(
    State(state): State<AppState>,
    axum::Extension(remote): axum::Extension<service::audit::Remote>,
    axum::Extension(https): axum::Extension<super::forwarded::ViaHttps>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let Some(provider) = &state.oidc else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let kept = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == OIDC_COOKIE)
        .map(|(_, v)| v.to_owned());
    let lang = super::refusal::lang_of(&headers);
    let refuse = |key: &str, args: &[(&str, String)]| {
        let problem = super::pages::tw(key, args, lang);
        (
            StatusCode::UNAUTHORIZED,
            Html(form("/dashboard", Some(&problem), true, lang, false)),
        )
            .into_response()
    };
    let Some((flow, rest)) = kept.as_deref().and_then(|k| k.split_once('.')) else {
        return refuse("pages.sign_in.no_flow", &[]);
    };
    let (nonce, next) = rest.split_once('.').unwrap_or((rest, "%2Fdashboard"));
    let next = safe_next(Some(&super::params::decode(next)));
    if q.get("state").map(String::as_str) != Some(flow) {
        return refuse("pages.sign_in.state_mismatch", &[]);
    }
    let Some(code) = q.get("code") else {
        let why = q.get("error").map_or("no code", String::as_str);
        return refuse("pages.sign_in.not_authorised", &[("why", why.to_owned())]);
    };
    let signed = match provider.finish(&state.db, code, nonce).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "sign-in: the ID token could not be checked");
            None
        }
    };
    let Some((caller, id_token)) = signed else {
        state
            .refusals
            .refused(&state.db, "sign-in oidc", &remote, chrono::Utc::now())
            .await;
        return refuse("pages.sign_in.no_role", &[]);
    };
    let Some(session) = start_session(&state, &caller, service::tokens::expires_at(&id_token), &headers, https).await
    else {
        return unavailable(lang);
    };
    service::audit::record(&state.db, &caller, "sign-in oidc", None, None, &remote).await;
    let page = format!(
        r#"<!doctype html><html lang="{1}"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={0}"><title>Fomento</title></head><body><p><a href="{0}">{2}</a></p></body></html>"#,
        escape(&next),
        lang.tag(),
        word("pages.sign_in.continue", lang)
    );
    let mut resp = Html(page).into_response();
    for cookie in [
        session,
        format!("{OIDC_COOKIE}=; Path=/sign-in; HttpOnly; SameSite=Lax; Max-Age=0"),
    ] {
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            resp.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    resp
}

/// `POST /sign-in`: checks the credential, starts a session (a new id at every sign-in; the one the browser came
/// with ends), sets its cookie and goes on to `next`; the form again, with why, when the credential is not valid or
/// the form was posted from another site.
pub async fn sign_in(
    State(state): State<AppState>,
    axum::Extension(remote): axum::Extension<service::audit::Remote>,
    axum::Extension(https): axum::Extension<super::forwarded::ViaHttps>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields: HashMap<String, String> = super::params::pairs(&String::from_utf8_lossy(&body))
        .into_iter()
        .collect();
    let asked = fields.get("next").map(String::as_str).filter(|n| !n.is_empty());
    let next = safe_next(asked);
    let (lang, kept) = lang_asked(fields.get("lang").map(String::as_str), &headers);
    let oidc = state.oidc.is_some();
    if let Err(origin) = same_origin(&headers) {
        tracing::warn!(origin, "sign-in refused: posted from another site");
        service::audit::record(
            &state.db,
            &service::Caller::Anonymous,
            "sign-in",
            None,
            Some(service::messages::code::CROSS_SITE_REQUEST),
            &remote,
        )
        .await;
        let problem = service::messages::Message::new(service::messages::code::CROSS_SITE_REQUEST)
            .arg("origin", origin)
            .render(lang);
        return (
            StatusCode::FORBIDDEN,
            Html(form(&next, Some(problem.as_str()), oidc, lang, kept)),
        )
            .into_response();
    }
    let key = fields.get("key").map(|k| k.trim().to_owned()).unwrap_or_default();
    let caller = match super::credentials::identify(&state, &key).await {
        Ok(found) => found.map(|(c, _)| c),
        Err(e) => {
            tracing::error!(error = %e, "sign-in: the credential could not be checked");
            None
        }
    };
    let Some(caller) = caller else {
        state
            .refusals
            .refused(&state.db, "sign-in", &remote, chrono::Utc::now())
            .await;
        let problem = super::pages::t("pages.sign_in.invalid", lang);
        return (
            StatusCode::UNAUTHORIZED,
            Html(form(&next, Some(&problem), oidc, lang, kept)),
        )
            .into_response();
    };
    let expires = service::tokens::looks_like_jwt(&key)
        .then(|| service::tokens::expires_at(&key))
        .flatten();
    let Some(cookie) = start_session(&state, &caller, expires, &headers, https).await else {
        return unavailable(lang);
    };
    service::audit::record(&state.db, &caller, "sign-in", None, None, &remote).await;
    // Signed in without a page to go back to: a bank's clerk to the bank's pages.
    let next = match (asked, caller.scope().bank()) {
        (None, Some(_)) => "/bank".to_owned(),
        _ => next,
    };
    redirect(&next, Some(cookie))
}

/// Starts a session for `caller`, ending the one the browser came with; its `Set-Cookie` value. `None` (logged) when
/// the database could not record it.
async fn start_session(
    state: &AppState,
    caller: &service::Caller,
    token_expires_at: Option<chrono::DateTime<chrono::Utc>>,
    headers: &HeaderMap,
    https: super::forwarded::ViaHttps,
) -> Option<String> {
    let now = chrono::Utc::now();
    let old = from_cookie(headers);
    let started = match service::sessions::start(&state.db, caller, token_expires_at, old.as_deref(), now).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!(error = %e, "sign-in: the session could not be started");
            return None;
        }
    };
    let seconds = (started.expires_at - now).num_seconds().max(0);
    Some(format!(
        "{COOKIE}={}; Path=/; HttpOnly; SameSite=Strict; Max-Age={seconds}{}",
        started.id,
        if https.0 { "; Secure" } else { "" }
    ))
}

/// `503` with the form's shape, when a session could not be started or ended.
fn unavailable(lang: Lang) -> Response {
    let problem = super::pages::t("pages.sign_in.unavailable", lang);
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Html(form("/dashboard", Some(&problem), false, lang, false)),
    )
        .into_response()
}

/// Whether the request reached the server over HTTPS, as its proxy says (`X-Forwarded-Proto`).
fn https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
}

/// Whether a request comes from this site's own pages: the browser's `Sec-Fetch-Site` says `same-origin` (or `none`,
/// an address typed or a bookmark), or else its `Origin` is this server's own (`Host`, with the scheme its proxy
/// says). A request with neither header is not a browser's cross-site request (browsers send `Origin` on every
/// cross-site POST) and passes. `Err` carries the origin seen, for the message.
pub fn same_origin(headers: &HeaderMap) -> Result<(), String> {
    let value = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    if let Some(site) = value("sec-fetch-site") {
        return if site.eq_ignore_ascii_case("same-origin") || site.eq_ignore_ascii_case("none") {
            Ok(())
        } else {
            Err(value("origin").unwrap_or(site).chars().take(200).collect())
        };
    }
    let Some(origin) = value("origin") else {
        return Ok(());
    };
    let own = value("host").map(|host| format!("{}://{host}", if https(headers) { "https" } else { "http" }));
    if own.is_some_and(|own| own.eq_ignore_ascii_case(origin)) {
        Ok(())
    } else {
        Err(origin.chars().take(200).collect())
    }
}

/// `POST /sign-out`: ends the session (its cookie no longer works, wherever it was copied to) and forgets the
/// cookie; a sign-out posted from another site is refused.
pub async fn sign_out(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Err(origin) = same_origin(&headers) {
        return cross_site("/sign-out", &headers, &origin);
    }
    if let Some(id) = from_cookie(&headers)
        && let Err(e) = service::sessions::end(&state.db, &id, chrono::Utc::now()).await
    {
        tracing::error!(error = %e, "sign-out: the session could not be ended");
        return unavailable(super::refusal::lang_of(&headers));
    }
    redirect(
        "/sign-in",
        Some(format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")),
    )
}

/// `403 CROSS_SITE_REQUEST`, in the shape of the endpoint at `path`.
pub fn cross_site(path: &str, headers: &HeaderMap, origin: &str) -> Response {
    use service::messages::{Message, code};
    super::admission::refusal(
        path,
        headers,
        StatusCode::FORBIDDEN,
        code::CROSS_SITE_REQUEST,
        Message::new(code::CROSS_SITE_REQUEST).arg("origin", origin),
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
    redirect(
        &format!("/sign-in?next={}", super::params::encode(path_and_query)),
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn a_request_is_same_origin_only_when_the_browser_or_its_origin_says_so() {
        let host = ("host", "fomento.example.gov.br");
        for (case, pairs, same) in [
            ("no browser headers (a script, curl)", vec![host], true),
            (
                "the browser says same-origin",
                vec![host, ("sec-fetch-site", "same-origin")],
                true,
            ),
            ("typed by the user", vec![host, ("sec-fetch-site", "none")], true),
            ("a sibling site", vec![host, ("sec-fetch-site", "same-site")], false),
            ("another site", vec![host, ("sec-fetch-site", "cross-site")], false),
            (
                "its own origin",
                vec![host, ("origin", "http://fomento.example.gov.br")],
                true,
            ),
            (
                "its own origin behind an HTTPS proxy",
                vec![
                    host,
                    ("x-forwarded-proto", "https"),
                    ("origin", "https://fomento.example.gov.br"),
                ],
                true,
            ),
            (
                "plain http behind an HTTPS proxy",
                vec![
                    host,
                    ("x-forwarded-proto", "https"),
                    ("origin", "http://fomento.example.gov.br"),
                ],
                false,
            ),
            (
                "another port",
                vec![host, ("origin", "http://fomento.example.gov.br:8443")],
                false,
            ),
            (
                "another host",
                vec![host, ("origin", "http://evil.example.gov.br")],
                false,
            ),
            ("an opaque origin", vec![host, ("origin", "null")], false),
            (
                "an origin and no host",
                vec![("origin", "http://fomento.example.gov.br")],
                false,
            ),
        ] {
            assert_eq!(same_origin(&headers(&pairs)).is_ok(), same, "{case}");
        }
    }
}
