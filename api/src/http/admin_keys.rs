//! `/admin/keys`: an administrator issues and revokes the keys of a bank's users from a page (the key shown once,
//! never stored), through `service::keys` as `fomento keys` and the graph's key mutations do.

use super::{
    AppState,
    pages::{day, layout, refuse, respond, t, tw},
    reports::lang_of,
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

/// The page: the form, the key just issued (once), a problem, and every key with a revoke button for the active ones.
async fn page(
    state: &AppState,
    caller: &Caller,
    lang: Lang,
    issued: Option<(String, String)>,
    problem: Option<(&str, String)>,
) -> Result<Markup, service::ServiceError> {
    let keys = service::keys::list(&state.db, caller).await?;
    let banks = bank_overview::banks(&state.db).await?;
    let code_of: HashMap<i64, String> = banks.iter().map(|b| (b.id, b.code.clone())).collect();
    let body = html! {
        @if let Some((field, message)) = &problem {
            div #error-summary .error-summary role="alert" tabindex="-1" {
                h2 { (t("pages.form.problems", lang)) }
                ul { li { a href={ "#" (field) } { (message) } } }
            }
        }
        @if let Some((name, secret)) = &issued {
            section #issued aria-labelledby="issued-h" {
                h2 #issued-h { (tw("admin.keys.issued", &[("name", name.clone())], lang)) }
                p { (t("admin.keys.once", lang)) }
                p.key-once #new-key { (secret) }
            }
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
                                        None => form method="post" action={ "/admin/keys/" (k.id) "/revoke" } {
                                            button type="submit" aria-label=(tw("admin.keys.revoke_named", &[("prefix", k.prefix.clone()), ("name", k.name.clone())], lang)) { (t("admin.keys.revoke", lang)) }
                                        },
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    Ok(layout(
        lang,
        &t("admin.keys.title", lang),
        ADMIN_NAV,
        "/admin/keys",
        body,
    ))
}

/// `GET /admin/keys`.
pub async fn show(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&headers);
    match page(&state, &caller, lang, None, None).await {
        Ok(p) => respond(StatusCode::OK, lang, p),
        Err(e) => refuse(e, &headers),
    }
}

/// `POST /admin/keys` (a form: `bank`, `name`): issues a `bank` key and shows it once.
pub async fn issue(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
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
            None,
            Some(("name", t("admin.keys.name_missing", lang))),
        )
        .await
    } else {
        match service::keys::create(&state.db, &caller, "bank", Some(&bank), &name, None, chrono::Utc::now()).await {
            Ok(created) => page(&state, &caller, lang, Some((created.key.name, created.secret)), None).await,
            Err(e) if e.code() == "BAD_USER_INPUT" || e.code() == "NOT_FOUND" => {
                let field = if e.field() == Some("bank") { "bank" } else { "name" };
                page(&state, &caller, lang, None, Some((field, e.render(lang)))).await
            }
            Err(e) => Err(e),
        }
    };
    match outcome {
        Ok(p) => {
            let mut resp = respond(StatusCode::OK, lang, p);
            // The key is on this page only: not kept by the browser's cache.
            resp.headers_mut()
                .insert(header::CACHE_CONTROL, header::HeaderValue::from_static("no-store"));
            resp
        }
        Err(e) => refuse(e, &headers),
    }
}

/// `POST /admin/keys/{id}/revoke`: revokes a key at once (its sessions end) and comes back to the page.
pub async fn revoke(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Response {
    match service::keys::revoke(&state.db, &caller, &id.to_string(), chrono::Utc::now()).await {
        Ok(_) => {
            let mut resp = StatusCode::SEE_OTHER.into_response();
            resp.headers_mut()
                .insert(header::LOCATION, header::HeaderValue::from_static("/admin/keys"));
            resp
        }
        Err(e) => refuse(e, &headers),
    }
}
