//! `/admin/keys`: an administrator issues and revokes the keys of a bank's users from a page (the key shown once,
//! never stored), through `service::keys` as `fomento keys` and the graph's key mutations do.
//!
//! Issuing answers `303` to `/admin/keys?issued=1`, the new key riding along in a short-lived cookie of this page's
//! path only that the next `GET` shows and clears: reloading the page issues nothing and, the cookie gone, says the
//! key was already shown. Revoking asks first (`GET /admin/keys/{id}/revoke`, a page with the confirming button),
//! then answers `303` to `/admin/keys?revoked=<prefix>`, which says so; the administrator's own key is not offered.

use super::{
    AppState,
    pages::{day, error_summary, layout, refuse, respond, t, tw},
    refusal::lang_of,
};
use axum::{
    body::Bytes,
    extract::{Path, State},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use maud::{Markup, html};
use service::{Caller, bank_overview, messages::Lang};
use std::collections::HashMap;

/// The administrators' navigation.
const ADMIN_NAV: &[super::pages::NavLink] = &[("/admin/keys", "pages.nav.keys"), ("/dashboard", "pages.nav.dashboard")];

/// A page of `/admin/keys`, titled by the message `title`.
fn admin_page(title: &str, lang: Lang, body: Markup) -> Markup {
    layout(lang, &t(title, lang), ADMIN_NAV, "/admin/keys", body)
}

/// The cookie that carries a key just issued from the `POST` to the `GET` that shows it once.
const ISSUED_COOKIE: &str = "fomento_issued";

/// What the page says above the form.
#[derive(Default)]
enum Notice {
    /// Nothing.
    #[default]
    None,
    /// A key just issued: its name and the key, shown this once.
    Issued(String, String),
    /// The key issued was already shown (a reload, or another visit).
    AlreadyShown,
    /// The key of this prefix was revoked.
    Revoked(String),
}

/// The key number of the caller's own key, when it signed in with one.
fn own_key(caller: &Caller) -> Option<i64> {
    match caller {
        Caller::Key { id, .. } => Some(*id),
        _ => None,
    }
}

use super::session::cookie;

/// The `Set-Cookie` of the key just issued (`Some`), or the one clearing it (`None`).
fn issued_cookie(value: Option<&str>, https: bool) -> header::HeaderValue {
    let secure = if https { "; Secure" } else { "" };
    let text = match value {
        Some(v) => format!("{ISSUED_COOKIE}={v}; Path=/admin/keys; HttpOnly; SameSite=Strict; Max-Age=300{secure}"),
        None => format!("{ISSUED_COOKIE}=; Path=/admin/keys; HttpOnly; SameSite=Strict; Max-Age=0{secure}"),
    };
    header::HeaderValue::from_str(&text).unwrap_or_else(|_| header::HeaderValue::from_static(""))
}

/// A `303` to `location`, kept by no cache.
fn see_other(location: &str) -> Response {
    let mut resp = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = header::HeaderValue::from_str(location) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
    resp
}

/// The page: the form, what was just done (the key issued, once), a problem, and every key with a revoke link for
/// the active ones but the caller's own.
async fn page(
    state: &AppState,
    caller: &Caller,
    lang: Lang,
    notice: Notice,
    problem: Option<(&str, String)>,
) -> Result<Markup, service::ServiceError> {
    let keys = service::keys::list(&state.db, caller).await?;
    let banks = bank_overview::banks(&state.db).await?;
    let code_of: HashMap<i64, String> = banks.iter().map(|b| (b.id, b.code.clone())).collect();
    let own = own_key(caller);
    let body = html! {
        @if let Some((field, message)) = &problem {
            (error_summary(field, message, lang))
        }
        @match &notice {
            Notice::Issued(name, secret) => section #issued aria-labelledby="issued-h" {
                h2 #issued-h { (tw("admin.keys.issued", &[("name", name.clone())], lang)) }
                p { (t("admin.keys.once", lang)) }
                p.key-once #new-key { (secret) }
            },
            Notice::AlreadyShown => p #notice role="status" { (t("admin.keys.already_shown", lang)) },
            Notice::Revoked(prefix) => p #notice role="status" { (tw("admin.keys.revoked_done", &[("prefix", prefix.clone())], lang)) },
            Notice::None => {},
        }
        section aria-labelledby="issue-h" {
            h2 #issue-h { (t("admin.keys.issue", lang)) }
            form #issue-form method="post" action="/admin/keys" {
                div.field {
                    label for="bank" { (t("admin.keys.bank", lang)) }
                    select #bank name="bank" required {
                        @for b in &banks {
                            option value=(b.code) { (b.code) " — " (b.name) }
                        }
                    }
                }
                div.field {
                    label for="name" { (t("admin.keys.name", lang)) }
                    p.hint #name-hint { (t("admin.keys.name_hint", lang)) }
                    input #name name="name" type="text" required maxlength="200" aria-describedby="name-hint";
                }
                button type="submit" { (t("admin.keys.submit", lang)) }
            }
        }
        section aria-labelledby="keys-h" {
            h2 #keys-h { (t("admin.keys.list", lang)) }
            div.scroll {
                table #keys {
                    thead { tr {
                        th scope="col" { (t("admin.keys.col_prefix", lang)) }
                        th scope="col" { (t("admin.keys.col_role", lang)) }
                        th scope="col" { (t("admin.keys.col_bank", lang)) }
                        th scope="col" { (t("admin.keys.col_name", lang)) }
                        th scope="col" { (t("admin.keys.col_created", lang)) }
                        th scope="col" { (t("admin.keys.col_state", lang)) }
                    } }
                    tbody {
                        @for k in &keys {
                            tr data-key=(k.prefix) {
                                td { code { (k.prefix) } }
                                td { (k.role) }
                                td { (k.bank_id.and_then(|b| code_of.get(&b).cloned()).unwrap_or_default()) }
                                td { (k.name) }
                                td { (day(entity::domain::brasilia_date(k.created_at), lang)) }
                                td {
                                    @match k.revoked_at {
                                        Some(at) => (tw("admin.keys.revoked", &[("day", day(entity::domain::brasilia_date(at), lang))], lang)),
                                        None if own == Some(k.id) => (t("admin.keys.own", lang)),
                                        None => a.revoke href={ "/admin/keys/" (k.id) "/revoke" } aria-label=(tw("admin.keys.revoke_named", &[("prefix", k.prefix.clone()), ("name", k.name.clone())], lang)) { (t("admin.keys.revoke", lang)) },
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    Ok(admin_page("admin.keys.title", lang, body))
}

/// `GET /admin/keys` (`?issued=1` after issuing, `?revoked=<prefix>` after revoking): the key just issued is shown
/// from its cookie, which goes at once; without it, `issued` says the key was already shown.
pub async fn show(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    axum::Extension(https): axum::Extension<super::forwarded::ViaHttps>,
    headers: HeaderMap,
    uri: axum::http::Uri,
) -> Response {
    let lang = lang_of(&headers);
    let query: HashMap<String, String> = super::params::pairs(uri.query().unwrap_or_default())
        .into_iter()
        .collect();
    let carried = cookie(&headers, ISSUED_COOKIE).and_then(|v| {
        let (secret, name) = v.split_once('.')?;
        Some((super::params::decode(name), secret.to_owned()))
    });
    let had_cookie = carried.is_some();
    let notice = match (carried, query.get("revoked")) {
        (Some((name, secret)), _) => Notice::Issued(name, secret),
        (None, Some(prefix)) if !prefix.is_empty() => Notice::Revoked(prefix.clone()),
        (None, _) if query.contains_key("issued") => Notice::AlreadyShown,
        _ => Notice::None,
    };
    match page(&state, &caller, lang, notice, None).await {
        Ok(p) => {
            let mut resp = respond(StatusCode::OK, lang, p);
            if had_cookie {
                // Shown this once: the cookie goes, and the page is not kept by the browser's cache.
                resp.headers_mut()
                    .insert(header::SET_COOKIE, issued_cookie(None, https.0));
                resp.headers_mut()
                    .insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
            }
            resp
        }
        Err(e) => refuse(e, &headers),
    }
}

/// `POST /admin/keys` (a form: `bank`, `name`): issues a `bank` key and answers `303` to the page that shows it once.
pub async fn issue(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    axum::Extension(https): axum::Extension<super::forwarded::ViaHttps>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let lang = lang_of(&headers);
    let fields: HashMap<String, String> = super::params::pairs(&String::from_utf8_lossy(&body))
        .into_iter()
        .collect();
    let (bank, name) = (
        fields.get("bank").map(|b| b.trim().to_owned()).unwrap_or_default(),
        fields.get("name").map(|n| n.trim().to_owned()).unwrap_or_default(),
    );
    let outcome = if name.is_empty() {
        page(
            &state,
            &caller,
            lang,
            Notice::None,
            Some(("name", t("admin.keys.name_missing", lang))),
        )
        .await
    } else {
        match service::keys::create(&state.db, &caller, "bank", Some(&bank), &name, None, chrono::Utc::now()).await {
            Ok(created) => {
                let value = format!("{}.{}", created.secret, super::params::encode(&created.key.name));
                let mut resp = see_other("/admin/keys?issued=1");
                resp.headers_mut()
                    .insert(header::SET_COOKIE, issued_cookie(Some(&value), https.0));
                return resp;
            }
            Err(e) if e.code() == "BAD_USER_INPUT" || e.code() == "NOT_FOUND" => {
                let field = if e.field() == Some("bank") { "bank" } else { "name" };
                page(&state, &caller, lang, Notice::None, Some((field, e.render(lang)))).await
            }
            Err(e) => Err(e),
        }
    };
    match outcome {
        Ok(p) => respond(StatusCode::OK, lang, p),
        Err(e) => refuse(e, &headers),
    }
}

/// The key of this number, for the confirmation and the revocation; `NOT_FOUND` if there is none.
async fn key_of(state: &AppState, caller: &Caller, id: i64) -> Result<entity::api_key::Model, service::ServiceError> {
    service::keys::list(&state.db, caller)
        .await?
        .into_iter()
        .find(|k| k.id == id)
        .ok_or_else(|| {
            service::ServiceError::not_found(
                "key",
                service::messages::Message::new(service::messages::code::KEY_UNKNOWN).arg("id", id),
            )
        })
}

/// `GET /admin/keys/{id}/revoke`: asks before revoking (the key's prefix, name and bank, and what revoking does).
pub async fn confirm(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Response {
    let lang = lang_of(&headers);
    let key = match key_of(&state, &caller, id).await {
        Ok(k) => k,
        Err(e) => return refuse(e, &headers),
    };
    if key.revoked_at.is_some() || own_key(&caller) == Some(key.id) {
        return see_other("/admin/keys");
    }
    let named = [("prefix", key.prefix.clone()), ("name", key.name.clone())];
    let body = html! {
        p #confirm-text { (tw("admin.keys.confirm_text", &named, lang)) }
        form #revoke-form method="post" action={ "/admin/keys/" (key.id) "/revoke" } {
            button type="submit" { (tw("admin.keys.revoke_named", &named, lang)) }
        }
        p { a href="/admin/keys" { (t("admin.keys.cancel", lang)) } }
    };
    respond(StatusCode::OK, lang, admin_page("admin.keys.confirm_title", lang, body))
}

/// `POST /admin/keys/{id}/revoke`: revokes a key at once (its sessions end) and comes back to the page, which says
/// so. The caller's own key is not revoked here (it would end this very session): the page says why.
pub async fn revoke(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Response {
    let lang = lang_of(&headers);
    if own_key(&caller) == Some(id) {
        return match page(
            &state,
            &caller,
            lang,
            Notice::None,
            Some(("keys", t("admin.keys.own_refused", lang))),
        )
        .await
        {
            Ok(p) => respond(StatusCode::UNPROCESSABLE_ENTITY, lang, p),
            Err(e) => refuse(e, &headers),
        };
    }
    match service::keys::revoke(&state.db, &caller, &id.to_string(), chrono::Utc::now()).await {
        Ok(key) => see_other(&format!("/admin/keys?revoked={}", super::params::encode(&key.prefix))),
        Err(e) => refuse(e, &headers),
    }
}
