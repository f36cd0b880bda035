//! What every server-rendered page shares: the layout (language, skip link, navigation, the embedded stylesheet and
//! script), the words from the catalogue (`service/locales/*/pages.ftl`), the static assets (embedded, served
//! offline), and the HTML answers a browser gets for `401`, `403` and `404` where an API client gets JSON.

use axum::{
    extract::Path,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use maud::{DOCTYPE, Markup, html};
use service::messages::{Lang, Message};

/// A page's word by its key (`bank.home.title`), in `lang`.
pub fn t(key: &str, lang: Lang) -> String {
    service::labels::text(key, lang)
}

/// A page's words with values.
pub fn tw(key: &str, args: &[(&str, String)], lang: Lang) -> String {
    service::labels::with(key, args, lang)
}

/// The stylesheet and the script of the pages, embedded.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "pages.css",
        "text/css; charset=utf-8",
        include_str!("../../assets/pages.css"),
    ),
    (
        "pages.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/pages.js"),
    ),
];

/// `GET /assets/{file}`: the pages' stylesheet and script (no build step, no network).
pub async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, kind, text)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::CACHE_CONTROL, "public, max-age=3600"),
            ],
            *text,
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// A link of the navigation: its address and its key.
pub type NavLink = (&'static str, &'static str);

/// The banks' navigation.
pub const BANK_NAV: &[NavLink] = &[
    ("/bank", "pages.nav.home"),
    ("/bank/send", "pages.nav.send"),
    ("/bank/reports", "pages.nav.reports"),
    ("/bank/cartas", "pages.nav.cartas"),
];

/// A whole page: `title` in the tab and as its heading, `nav` (the current one marked), then `body`.
pub fn layout(lang: Lang, title: &str, nav: &[NavLink], current: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang=(lang.tag()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Fomento · " (title) }
                link rel="stylesheet" href="/assets/pages.css";
                script src="/assets/pages.js" defer {}
            }
            body {
                a.skip href="#main" { (t("pages.page.skip", lang)) }
                header.top {
                    span.brand { "Fomento" }
                    @if !nav.is_empty() {
                        nav aria-label=(t("pages.nav.label", lang)) {
                            ul {
                                @for (href, key) in nav {
                                    li {
                                        @if *href == current {
                                            a href=(href) aria-current="page" { (t(key, lang)) }
                                        } @else {
                                            a href=(href) { (t(key, lang)) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    form.signout method="post" action="/sign-out" {
                        button type="submit" { (t("pages.nav.sign_out", lang)) }
                    }
                }
                main #main tabindex="-1" {
                    h1 { (title) }
                    (body)
                }
            }
        }
    }
}

/// An HTML answer with its status and language.
pub fn respond(status: StatusCode, lang: Lang, page: Markup) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_LANGUAGE, lang.tag()),
        ],
        page.into_string(),
    )
        .into_response()
}

/// Whether a request accepts HTML (a browser), as opposed to an API client.
pub fn accepts_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"))
}

/// A browser's page for a refusal: `401`, `403` or `404`, saying what happened and where to go.
pub fn problem(status: StatusCode, lang: Lang, message: &str) -> Response {
    let key = match status.as_u16() {
        401 => "pages.problem.401",
        403 => "pages.problem.403",
        _ => "pages.problem.404",
    };
    // Where to go: the person's own start page (`/`, which sends a bank's clerk to the bank's pages and anybody else
    // to the dashboard), never the page just refused; without a session, only to sign in.
    let signed_in = status != StatusCode::UNAUTHORIZED;
    let body = html! {
        p.lead role="alert" { (message) }
        ul.links {
            @if signed_in {
                li { a #to-start href="/" { (t("pages.problem.to_start", lang)) } }
            }
            li { a href="/sign-in" { (t("pages.problem.to_sign_in", lang)) } }
        }
    };
    const START_NAV: &[NavLink] = &[("/", "pages.nav.start")];
    let nav = if signed_in { START_NAV } else { &[] };
    respond(status, lang, layout(lang, &t(key, lang), nav, "", body))
}

/// `404` for an address the server does not have: a page for a browser, the one JSON error shape for a client.
pub async fn not_found(headers: HeaderMap, uri: axum::http::Uri) -> Response {
    let lang = super::refusal::lang_of(&headers);
    if accepts_html(&headers) {
        problem(StatusCode::NOT_FOUND, lang, &t("pages.problem.404.text", lang))
    } else {
        super::refusal::rest_error(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            None,
            Message::new("pages.problem.404.address")
                .arg("path", uri.path())
                .render(lang),
        )
    }
}

/// A service error as a browser's page (`403`, `404`, …) or, for an API client, the one JSON error shape.
pub fn refuse(e: service::ServiceError, headers: &HeaderMap) -> Response {
    let lang = super::refusal::lang_of(headers);
    let status = super::refusal::status_of(&e);
    let a_page = matches!(
        status,
        StatusCode::NOT_FOUND | StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
    );
    if a_page && accepts_html(headers) {
        problem(status, lang, &e.render(lang))
    } else {
        super::refusal::refuse_service(e, lang)
    }
}

/// The summary above a form of the one problem that stopped it, linking to the field (`#field`) it is about.
pub fn error_summary(field: &str, message: &str, lang: Lang) -> Markup {
    html! {
        div #error-summary .error-summary role="alert" tabindex="-1" {
            h2 { (t("pages.form.problems", lang)) }
            ul { li { a href={ "#" (field) } { (message) } } }
        }
    }
}

/// A day as a person reads it in `lang` (`05/12/2026`, `2026-12-05`).
pub fn day(d: chrono::NaiveDate, lang: Lang) -> String {
    service::l10n::date(d, lang)
}

/// A month `YYYY-MM` as a person reads it (`05/2019`, `2019-05`).
pub fn month(m: &str, lang: Lang) -> String {
    match (lang, m.split_once('-')) {
        (Lang::PtBr, Some((y, mo))) => format!("{mo}/{y}"),
        _ => m.to_owned(),
    }
}

/// An instant in Brasília time, as a person reads it.
pub fn instant(t: chrono::DateTime<chrono::Utc>, lang: Lang) -> String {
    let local = entity::domain::Authority::Cdae.local(t);
    match lang {
        Lang::PtBr => local.format("%d/%m/%Y %H:%M").to_string(),
        Lang::En => local.format("%Y-%m-%d %H:%M").to_string(),
    }
}

/// `GET /`: where a person starts: a bank's clerk at the bank's pages, anybody else at the dashboard.
pub async fn start(axum::Extension(caller): axum::Extension<service::Caller>) -> Response {
    let to = if caller.scope().bank().is_some() {
        "/bank"
    } else {
        "/dashboard"
    };
    (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response()
}

/// `GET /bank-reports`: a browser is sent to the bank's list of its reports; an API client is told to `POST` there.
pub async fn reports_index(headers: HeaderMap) -> Response {
    if accepts_html(&headers) {
        (StatusCode::SEE_OTHER, [(header::LOCATION, "/bank/reports")]).into_response()
    } else {
        (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "POST")]).into_response()
    }
}

/// The pages' `?lang=` (`pt-BR`, `en`), honoured as `/dashboard` honours it: on the bank's and the administrators'
/// pages (and their 401, 403 and 404 pages), a valid `lang` stands for the request's `Accept-Language`, which
/// every page reads; another value is not taken.
pub async fn query_lang(mut req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let path = req.uri().path();
    let page = path == "/bank"
        || path.starts_with("/bank/")
        || path.starts_with("/bank-reports/")
        || path.starts_with("/admin/");
    if page
        && let Some(lang) = super::params::pairs(req.uri().query().unwrap_or_default())
            .into_iter()
            .find(|(k, _)| k == "lang")
            .and_then(|(_, v)| Lang::from_tag(&v))
        && let Ok(v) = header::HeaderValue::from_str(lang.tag())
    {
        req.headers_mut().insert(header::ACCEPT_LANGUAGE, v);
    }
    next.run(req).await
}
