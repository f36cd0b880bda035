//! The pages of a bank's back office, signed in with the session (`/sign-in`): its home (`/bank`: the lists owed and
//! missing, its deadlines, its latest reports, the open flags on its cartas), sending the monthly list
//! (`/bank/send`), its reports (`/bank/reports`, each at `/bank/reports/{number}` with its status followed live, its
//! row errors, the error workbook and the original file). Each page reads and writes through the same service
//! functions as the graph; the bank is the session's, never a field of the form.
//!
//! Size: five pages with their forms and tables; each handler is a thin door over `service::bank_overview`.

use super::{
    AppState,
    pages::{BANK_NAV, day, error_summary, instant, layout, month, refuse, respond, t, tw},
    refusal::lang_of,
    reports::{file_error_of, stored_message},
};
use axum::{
    extract::{Multipart, Path, Query, State},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use entity::{bank_report, rules::social_fuel::DeadlineStatus};
use maud::{Markup, html};
use service::{
    Caller, bank_overview,
    messages::{Lang, Message},
    page::Keyset,
    reports::ReportFilter,
};
use std::collections::HashMap;

/// The statuses a report goes through, in order.
const STATUSES: &[&str] = &["RECEIVED", "PROCESSING", "INGESTED", "REJECTED", "FAILED", "SUPERSEDED"];

/// Whether a report's status is final (nothing more will happen to it by itself).
fn settled(status: &str) -> bool {
    matches!(status, "INGESTED" | "REJECTED" | "FAILED" | "SUPERSEDED")
}

/// A report's status as a badge.
fn status_badge(status: &str, lang: Lang) -> Markup {
    html! { span class={ "status s-" (status.to_lowercase()) } { (t(&format!("bank.status.{status}"), lang)) } }
}

/// `GET /bank`: the bank's home.
pub async fn home(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&headers);
    let today = service::Clock::System.today();
    let bank = match bank_overview::bank_of(&state.db, &caller).await {
        Ok(b) => b,
        Err(e) => return refuse(e, &headers),
    };
    let read = async {
        let lists = bank_overview::month_lists(&state.db, &caller, today).await?;
        let deadlines = bank_overview::deadlines(&state.db, &bank, today).await?;
        let latest = service::reports::list(
            &state.db,
            &caller,
            &ReportFilter::default(),
            Keyset::parse(Some(5), None, None, None)?,
        )
        .await?;
        let flags = bank_overview::open_flags(&state.db, &caller, 50).await?;
        let names = service::flags::subject_names(&state.db, &flags.0).await?;
        Ok::<_, service::ServiceError>((lists, deadlines, latest, flags, names))
    };
    let (lists, deadlines, latest, (flags, flag_total), names) = match read.await {
        Ok(v) => v,
        Err(e) => return refuse(e, &headers),
    };
    let owed = bank_overview::owed(&lists, today);
    let body = html! {
        p.lead { (tw("bank.home.lead", &[("bank", bank.name.clone()), ("day", day(today, lang))], lang)) }
        section aria-labelledby="owed-h" {
            h2 #owed-h { (t("bank.home.owed", lang)) }
            @if owed.is_empty() {
                p #owed-none { (t("bank.home.owed_none", lang)) }
            } @else {
                ul #owed .owed {
                    @for l in &owed {
                        li {
                            strong { (tw("bank.home.owed_month", &[("month", month(&l.month, lang))], lang)) }
                            " — "
                            @match &l.latest {
                                Some(r) => (status_badge(&r.status, lang)),
                                None => (t("bank.home.not_sent", lang)),
                            }
                            " · "
                            a href={ "/bank/send?month=" (l.month) } aria-label=(tw("bank.home.send_month", &[("month", month(&l.month, lang))], lang)) { (t("bank.home.send", lang)) }
                        }
                    }
                }
            }
            h3 { (t("bank.home.deadlines", lang)) }
            ul #deadlines {
                @for d in &deadlines {
                    li {
                        strong { (rule_title(d.code, lang)) }
                        @if let Some(due) = d.due { " — " (tw("bank.home.due", &[("day", day(due, lang))], lang)) }
                        " — " span class={ "deadline d-" (format!("{:?}", d.status).to_lowercase()) } { (deadline_status(d.status, d.done, lang)) }
                        p.note { (service::l10n::explanation(&d.note, lang)) }
                    }
                }
            }
        }
        section aria-labelledby="latest-h" {
            h2 #latest-h { (t("bank.home.latest", lang)) }
            (reports_table(&latest.items.into_iter().map(|(_, r)| r).collect::<Vec<_>>(), lang))
            p { a href="/bank/reports" { (t("bank.home.all_reports", lang)) } }
        }
        section aria-labelledby="flags-h" {
            h2 #flags-h { (tw("bank.home.flags", &[("count", flag_total.to_string())], lang)) }
            @if flags.is_empty() {
                p { (t("bank.home.flags_none", lang)) }
            } @else {
                ul #flags .flags {
                    @for f in &flags {
                        li {
                            span class={ "sev " (f.severity) } { (t(&format!("bank.severity.{}", f.severity), lang)) }
                            " "
                            strong { (f.subject().and_then(|k| names.get(&(k, f.subject_id))).cloned().unwrap_or_default()) }
                            " — " (service::l10n::flag_message(f, lang))
                            " " span.when { (tw("bank.home.raised", &[("day", day(entity::domain::brasilia_date(f.raised_at), lang))], lang)) }
                        }
                    }
                }
            }
        }
    };
    let title = tw("bank.home.title", &[("bank", bank.code.clone())], lang);
    respond(StatusCode::OK, lang, layout(lang, &title, BANK_NAV, "/bank", body))
}

/// A rule's title by its code, in `lang`.
fn rule_title(code: &str, lang: Lang) -> String {
    entity::rules::RULES
        .iter()
        .find(|r| r.code.as_str() == code)
        .map_or_else(|| code.to_owned(), |r| service::l10n::rule_title(r, lang))
}

/// A deadline's standing in words.
fn deadline_status(status: DeadlineStatus, done: bool, lang: Lang) -> String {
    let key = match (status, done) {
        (DeadlineStatus::Met, _) => "bank.deadline.met",
        (DeadlineStatus::Overdue, true) => "bank.deadline.late",
        (DeadlineStatus::Overdue, false) => "bank.deadline.overdue",
        (DeadlineStatus::Pending, _) => "bank.deadline.pending",
        _ => "bank.deadline.not_started",
    };
    t(key, lang)
}

/// A table of reports, newest first.
fn reports_table(reports: &[bank_report::Model], lang: Lang) -> Markup {
    html! {
        @if reports.is_empty() {
            p.empty { (t("bank.reports.none", lang)) }
        } @else {
            div.scroll {
                table.reports {
                    thead { tr {
                        th scope="col" { (t("bank.col.number", lang)) }
                        th scope="col" { (t("bank.col.month", lang)) }
                        th scope="col" { (t("bank.col.status", lang)) }
                        th scope="col" { (t("bank.col.received", lang)) }
                        th scope="col" .num { (t("bank.col.rows", lang)) }
                        th scope="col" .num { (t("bank.col.errors", lang)) }
                    } }
                    tbody {
                        @for r in reports {
                            tr data-report=(r.id) {
                                td { a href={ "/bank/reports/" (r.id) } { (tw("bank.report.short", &[("number", r.id.to_string())], lang)) } }
                                td { (month(&r.reference_month, lang)) }
                                td { (status_badge(&r.status, lang)) }
                                td { (instant(r.received_at, lang)) }
                                td.num { (r.row_count.map(|n| n.to_string()).unwrap_or_default()) }
                                td.num { (r.error_count.map(|n| n.to_string()).unwrap_or_default()) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The send form: `chosen` month preselected, `problems` (field, message) in an error summary at the top.
fn send_page(
    lang: Lang,
    bank: &entity::bank::Model,
    lists: &[bank_overview::MonthList],
    chosen: Option<&str>,
    problems: &[(&str, String)],
) -> Markup {
    let today = service::Clock::System.today();
    let first_owed = bank_overview::owed(lists, today).last().map(|l| l.month.clone());
    // Only a month that may be sent is chosen: another (a future one, say) is not added to the selector.
    let chosen = chosen
        .filter(|c| lists.iter().any(|l| l.month == *c))
        .map(str::to_owned)
        .or(first_owed);
    let problem_of = |field: &str| problems.iter().find(|(f, _)| *f == field).map(|(_, m)| m.clone());
    let body = html! {
        @if !problems.is_empty() {
            div #error-summary .error-summary role="alert" tabindex="-1" aria-labelledby="error-summary-h" {
                h2 #error-summary-h { (t("pages.form.problems", lang)) }
                ul { @for (field, message) in problems {
                    li { a href={ "#" (field) } { (message) } }
                } }
            }
        }
        p.lead { (tw("bank.send.lead", &[("bank", bank.name.clone())], lang)) }
        p { a href="/bank-reports/template.xlsx" { (t("bank.send.template", lang)) } }
        form #send-form method="post" action="/bank/send" enctype="multipart/form-data" novalidate {
            div class={ "field" @if problem_of("month").is_some() { " invalid" } } {
                label for="month" { (t("bank.send.month", lang)) }
                p.hint #month-hint { (t("bank.send.month_hint", lang)) }
                @if let Some(p) = problem_of("month") { p.field-error #month-error { (p) } }
                select #month name="month" required aria-describedby={ "month-hint" @if problem_of("month").is_some() { " month-error" } } {
                    @for l in lists {
                        @let label = match (l.owed(today), l.shown()) {
                            (true, _) => tw("bank.send.option_owed", &[("month", month(&l.month, lang))], lang),
                            (false, Some(r)) => tw("bank.send.option_sent", &[("month", month(&l.month, lang)), ("status", t(&format!("bank.status.{}", r.status), lang))], lang),
                            (false, None) => month(&l.month, lang),
                        };
                        option value=(l.month) selected[chosen.as_deref() == Some(l.month.as_str())] { (label) }
                    }
                }
            }
            div class={ "field" @if problem_of("file").is_some() { " invalid" } } {
                label for="file" { (t("bank.send.file", lang)) }
                p.hint #file-hint { (t("bank.send.file_hint", lang)) }
                @if let Some(p) = problem_of("file") { p.field-error #file-error { (p) } }
                div #drop .drop {
                    input #file type="file" name="file" required accept=".xlsx,.xlsm,.xlsb,.xls,.ods,.csv" aria-describedby={ "file-hint" @if problem_of("file").is_some() { " file-error" } };
                    p.drop-text aria-hidden="true" { (t("bank.send.drop", lang)) }
                }
            }
            div #progress-box .progress hidden {
                label for="progress" { (t("bank.send.progress", lang)) }
                progress #progress max="100" value="0" {}
                span #progress-text aria-live="polite" {}
            }
            button #send type="submit" { (t("bank.send.submit", lang)) }
        }
    };
    layout(lang, &t("bank.send.title", lang), BANK_NAV, "/bank/send", body)
}

/// `GET /bank/send`: the form (`?month=` preselects a month).
pub async fn send_form(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let lang = lang_of(&headers);
    let bank = match bank_overview::bank_of(&state.db, &caller).await {
        Ok(b) => b,
        Err(e) => return refuse(e, &headers),
    };
    let lists = match bank_overview::month_lists(&state.db, &caller, service::Clock::System.today()).await {
        Ok(l) => l,
        Err(e) => return refuse(e, &headers),
    };
    respond(
        StatusCode::OK,
        lang,
        send_page(lang, &bank, &lists, q.get("month").map(String::as_str), &[]),
    )
}

/// `POST /bank/send` (multipart: `month`, `file`): the list is received for the session's bank exactly as
/// `POST /bank-reports` receives it (`service::intake::receive`), and the browser goes to the report's page; a
/// refusal comes back as the form with an error summary.
pub async fn send(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    axum::Extension(remote): axum::Extension<service::audit::Remote>,
    headers: HeaderMap,
    form: Multipart,
) -> Response {
    let db = state.db.clone();
    let response = receive(&state, &caller, &headers, form).await;
    super::auth::audited(&db, &caller, "upload bank-report", None, &remote, response).await
}

async fn receive(state: &AppState, caller: &Caller, headers: &HeaderMap, form: Multipart) -> Response {
    let lang = lang_of(headers);
    let today = service::Clock::System.today();
    let bank = match bank_overview::bank_of(&state.db, caller).await {
        Ok(b) => b,
        Err(e) => return refuse(e, headers),
    };
    let lists = match bank_overview::month_lists(&state.db, caller, today).await {
        Ok(l) => l,
        Err(e) => return refuse(e, headers),
    };
    let again = |chosen: Option<&str>, problems: &[(&str, String)]| {
        respond(
            StatusCode::BAD_REQUEST,
            lang,
            send_page(lang, &bank, &lists, chosen, problems),
        )
    };
    let mut form = match super::reports::read_form(state, form, lang).await {
        Ok(f) => f,
        Err(refusal) => return again(None, &[("file", refusal_text(*refusal).await)]),
    };
    let chosen = form.text("month");
    let file = form.file.take().filter(|(_, bytes)| !bytes.is_empty());
    let mut problems = Vec::new();
    if chosen.as_deref().unwrap_or("").is_empty() {
        problems.push(("month", t("bank.send.month_missing", lang)));
    }
    if file.is_none() {
        problems.push(("file", t("bank.send.file_missing", lang)));
    }
    let (Some(m), Some((file_name, bytes)), true) = (chosen.as_deref(), file, problems.is_empty()) else {
        return again(chosen.as_deref(), &problems);
    };
    let Some(runtime) = &state.runtime else {
        return super::refusal::internal("ingestion is not configured".into(), lang);
    };
    match service::intake::receive(&state.db, caller, &runtime.ctx.store, &bank, m, &file_name, bytes).await {
        Ok((r, _)) => {
            runtime.wake.notify_one();
            let id = crate::graphql::ids::encode(crate::graphql::ids::NodeKind::BankReport, r.id);
            let mut resp = StatusCode::SEE_OTHER.into_response();
            if let Ok(v) = header::HeaderValue::from_str(&format!("/bank/reports/{}", r.id)) {
                resp.headers_mut().insert(header::LOCATION, v);
            }
            super::auth::naming(id, resp)
        }
        // A month refused is written as the page writes months (`03/2027` in Portuguese).
        Err(service::ServiceError::BadInput {
            field: "month",
            message,
        }) => again(Some(m), &[("month", as_page_months(message, lang).render(lang))]),
        Err(e) => {
            let field = match e.field() {
                Some("month") => "month",
                _ => "file",
            };
            again(Some(m), &[(field, e.render(lang))])
        }
    }
}

/// `message` with its months (`YYYY-MM` values) written as the pages write them ([`month`]).
fn as_page_months(mut message: service::messages::Message, lang: Lang) -> service::messages::Message {
    for value in message.args.values_mut() {
        let b = value.as_bytes();
        if b.len() == 7 && b[4] == b'-' && b.iter().enumerate().all(|(i, c)| i == 4 || c.is_ascii_digit()) {
            *value = month(value, lang);
        }
    }
    message
}

/// The message of a refusal made in the JSON shape (a body too large, a form not readable).
async fn refusal_text(resp: Response) -> String {
    let bytes = axum::body::to_bytes(resp.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// `GET /bank/reports`: the bank's reports, `?month=YYYY-MM` and `?status=` filtering them.
pub async fn reports(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let lang = lang_of(&headers);
    if let Err(e) = bank_overview::bank_of(&state.db, &caller).await {
        return refuse(e, &headers);
    }
    let chosen_month = q.get("month").map(|m| m.trim().to_owned()).filter(|m| !m.is_empty());
    let chosen_status = q
        .get("status")
        .and_then(|s| STATUSES.iter().find(|k| k.eq_ignore_ascii_case(s.trim())).copied());
    let filter = ReportFilter {
        bank_id: None,
        reference_month: chosen_month.clone(),
        statuses: chosen_status.into_iter().collect(),
    };
    // A month that is no month is the error, and nothing is listed or counted.
    let checked = match chosen_month.as_deref().map(bank_overview::month_span) {
        Some(Err(e)) => Err(e),
        _ => Keyset::parse(Some(100), None, None, None),
    };
    let page = match checked {
        Ok(k) => service::reports::list(&state.db, &caller, &filter, k).await,
        Err(e) => Err(e),
    };
    let (page, problem) = match page {
        Ok(p) => (p.items.into_iter().map(|(_, r)| r).collect::<Vec<_>>(), None),
        Err(e) if e.code() == "BAD_USER_INPUT" => (Vec::new(), Some(e.render(lang))),
        Err(e) => return refuse(e, &headers),
    };
    let months = bank_overview::months_open(service::Clock::System.today());
    let body = html! {
        @if let Some(p) = &problem {
            (error_summary("filter-month", p, lang))
        }
        form.filters method="get" action="/bank/reports" {
            div.field {
                label for="filter-month" { (t("bank.reports.month", lang)) }
                select #filter-month name="month" {
                    option value="" { (t("bank.reports.any_month", lang)) }
                    @for m in &months {
                        option value=(m) selected[chosen_month.as_deref() == Some(m.as_str())] { (month(m, lang)) }
                    }
                }
            }
            div.field {
                label for="filter-status" { (t("bank.reports.status", lang)) }
                select #filter-status name="status" {
                    option value="" { (t("bank.reports.any_status", lang)) }
                    @for s in STATUSES {
                        option value=(s) selected[chosen_status == Some(*s)] { (t(&format!("bank.status.{s}"), lang)) }
                    }
                }
            }
            button type="submit" { (t("bank.reports.filter", lang)) }
        }
        @if problem.is_none() {
            p #reports-count { (tw("bank.reports.count", &[("count", page.len().to_string())], lang)) }
            (reports_table(&page, lang))
        }
    };
    respond(
        StatusCode::OK,
        lang,
        layout(lang, &t("bank.reports.title", lang), BANK_NAV, "/bank/reports", body),
    )
}

/// The report's number in a path: its number or its global ID.
fn report_number(id: &str) -> Option<i64> {
    crate::graphql::ids::decode_as(id, crate::graphql::ids::NodeKind::BankReport).or_else(|| id.parse().ok())
}

/// The report the caller may see, or the page (or JSON) saying there is none.
async fn seen_report(
    state: &AppState,
    caller: &Caller,
    headers: &HeaderMap,
    id: &str,
) -> Result<bank_report::Model, Response> {
    let lang = lang_of(headers);
    let missing = || {
        refuse(
            service::ServiceError::not_found(
                "id",
                Message::new(service::messages::code::REPORT_UNKNOWN).arg("value", id),
            ),
            headers,
        )
    };
    if let Err(e) = bank_overview::bank_of(&state.db, caller).await {
        return Err(refuse(e, headers));
    }
    let Some(n) = report_number(id) else {
        return Err(missing());
    };
    match service::reports::report(&state.db, caller, n).await {
        Ok(Some(r)) => Ok(r),
        Ok(None) => Err(missing()),
        Err(e) => {
            let _ = lang;
            Err(refuse(e, headers))
        }
    }
}

/// `GET /bank/reports/{number}`: one report, its status followed live until it settles, its counts, its row
/// errors, the error workbook, the original file and the way to send a corrected one.
pub async fn report(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let lang = lang_of(&headers);
    let r = match seen_report(&state, &caller, &headers, &id).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let read = async {
        let errors = service::reports::row_errors(&state.db, r.id, Some(1000)).await?;
        let one = Keyset::parse(Some(1), None, None, None)?;
        let declared = service::reports::declared_cartas(&state.db, &caller, r.id, one).await?;
        let dropped = service::reports::dropped_cartas(&state.db, &caller, &r, one).await?;
        Ok::<_, service::ServiceError>((errors, declared.total_count, dropped.total_count))
    };
    let (errors, declared, dropped) = match read.await {
        Ok(v) => v,
        Err(e) => return refuse(e, &headers),
    };
    let done = settled(&r.status);
    let file_error = file_error_of(&r).map(|m| m.render(lang));
    let has_errors = !errors.is_empty() || file_error.is_some();
    let body = html! {
        div #report data-status=(r.status) data-settled=(done) {
            p.lead #report-status aria-live="polite" {
                (t("bank.report.status", lang)) " " (status_badge(&r.status, lang))
                @if !done { " " span.spinner aria-hidden="true" {} " " (t("bank.report.following", lang)) }
            }
            dl.facts {
                dt { (t("bank.col.month", lang)) } dd { (month(&r.reference_month, lang)) }
                dt { (t("bank.report.file", lang)) } dd { (r.file_name) " (" (tw("bank.report.bytes", &[("count", r.byte_size.to_string())], lang)) ")" }
                dt { (t("bank.col.received", lang)) } dd { (instant(r.received_at, lang)) }
                @if let Some(n) = r.row_count { dt { (t("bank.col.rows", lang)) } dd #row-count { (n) } }
                @if let Some(n) = r.error_count { dt { (t("bank.col.errors", lang)) } dd #error-count { (n) } }
                @if r.status == "INGESTED" {
                    dt { (t("bank.report.declared", lang)) } dd #declared { (declared) }
                    dt { (t("bank.report.dropped", lang)) } dd #dropped { (dropped) }
                }
            }
            @if r.status == "FAILED" {
                p.problem role="alert" { (tw("bank.report.failed", &[("reference", format!("FOMENTO-R{}-T{}", r.id, r.attempts))], lang)) }
            }
            @if r.status == "INGESTED" {
                p.ok #ingested { (t("bank.report.ingested", lang)) }
            }
            ul.links {
                @if r.raw_purged_at.is_none() {
                    li { a #original href={ "/bank/reports/" (r.id) "/file" } download=(r.file_name) { (t("bank.report.original", lang)) } }
                }
                @if has_errors && r.raw_purged_at.is_none() {
                    li { a #errors-xlsx href={ "/bank-reports/" (r.id) "/errors.xlsx" } { (t("bank.report.errors_xlsx", lang)) } }
                }
                @if done && r.status != "INGESTED" {
                    li { a #send-again .button href={ "/bank/send?month=" (r.reference_month) } { (t("bank.report.send_corrected", lang)) } }
                }
            }
            @if let Some(fe) = &file_error {
                div.error-summary role="alert" { h2 { (t("bank.report.file_error", lang)) } p #file-error { (fe) } }
            }
            @if !errors.is_empty() {
                h2 #row-errors-h { (tw("bank.report.row_errors", &[("count", errors.len().to_string())], lang)) }
                div.scroll {
                    table #row-errors aria-labelledby="row-errors-h" {
                        thead { tr {
                            th scope="col" .num { (t("bank.col.row", lang)) }
                            th scope="col" { (t("bank.col.column", lang)) }
                            th scope="col" { (t("bank.col.value", lang)) }
                            th scope="col" { (t("bank.col.message", lang)) }
                        } }
                        tbody {
                            @for e in &errors {
                                tr {
                                    td.num { (e.row_number) }
                                    td { (e.column_name.clone().unwrap_or_default()) }
                                    td.value { (e.value.clone().unwrap_or_default()) }
                                    td.what { (stored_message(e.message_code.as_deref(), e.message_args.as_deref(), &e.message).render(lang)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    let title = tw(
        "bank.report.title",
        &[("number", r.id.to_string()), ("month", month(&r.reference_month, lang))],
        lang,
    );
    respond(
        StatusCode::OK,
        lang,
        layout(lang, &title, BANK_NAV, "/bank/reports", body),
    )
}

/// `GET /bank/reports/{number}/file`: the file as the bank sent it.
pub async fn original(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let lang = lang_of(&headers);
    let r = match seen_report(&state, &caller, &headers, &id).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let Some(runtime) = &state.runtime else {
        return super::refusal::internal("ingestion is not configured".into(), lang);
    };
    if r.raw_purged_at.is_some() {
        return refuse(
            service::ServiceError::not_found(
                "id",
                Message::new(service::messages::code::REPORT_UNKNOWN).arg("value", id),
            ),
            &headers,
        );
    }
    match runtime.ctx.store.get(&r.sha256).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, "application/octet-stream".to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    format!(
                        "attachment; filename=\"{}\"",
                        r.file_name.replace(['"', '\\', '\r', '\n'], "_")
                    ),
                ),
            ],
            bytes,
        )
            .into_response(),
        Err(e) => super::refusal::internal(e.to_string(), lang),
    }
}

/// The months `/bank/cartas` and its spreadsheet filter by (`?approved=YYYY-MM`, `?contracted=YYYY-MM`), once the
/// caller is known to be a bank's.
async fn chosen_months(
    state: &AppState,
    caller: &Caller,
    headers: &HeaderMap,
    q: &HashMap<String, String>,
) -> Result<(Option<String>, Option<String>), Box<Response>> {
    if let Err(e) = bank_overview::bank_of(&state.db, caller).await {
        return Err(Box::new(refuse(e, headers)));
    }
    let chosen = |name: &str| q.get(name).map(|m| m.trim().to_owned()).filter(|m| !m.is_empty());
    Ok((chosen("approved"), chosen("contracted")))
}

/// `GET /bank/cartas`: the bank's FCO cartas, `?approved=YYYY-MM` (decided that month) and `?contracted=YYYY-MM`
/// filtering them, with the same list as a spreadsheet (the cartas export, filtered alike).
pub async fn cartas(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let lang = lang_of(&headers);
    let (approved, contracted) = match chosen_months(&state, &caller, &headers, &q).await {
        Ok(months) => months,
        Err(refusal) => return *refusal,
    };
    let found = bank_overview::cartas(&state.db, &caller, approved.as_deref(), contracted.as_deref(), 100).await;
    let ((rows, total), problem) = match found {
        Ok(v) => (v, None),
        Err(e) if e.code() == "BAD_USER_INPUT" => ((Vec::new(), 0), Some(e.render(lang))),
        Err(e) => return refuse(e, &headers),
    };
    // The export takes the graph's filter: the same months as days.
    let mut filter = serde_json::Map::new();
    filter.insert("programmes".into(), serde_json::json!(["FCO_RURAL"]));
    for (month_chosen, from, to) in [
        (&approved, "decidedFrom", "decidedTo"),
        (&contracted, "contractedFrom", "contractedTo"),
    ] {
        if let Some((first, last)) = month_chosen.as_deref().and_then(|m| bank_overview::month_span(m).ok()) {
            filter.insert(from.into(), serde_json::json!(first));
            filter.insert(to.into(), serde_json::json!(last));
        }
    }
    let export = format!(
        "/exports/cartas.xlsx?filter={}&lang={}",
        super::params::encode(&serde_json::Value::Object(filter).to_string()),
        lang.tag()
    );
    let mut in_template = String::from("/bank/cartas.xlsx");
    let months: Vec<String> = [("approved", &approved), ("contracted", &contracted)]
        .into_iter()
        .filter_map(|(k, v)| v.as_deref().map(|v| format!("{k}={}", super::params::encode(v))))
        .collect();
    if !months.is_empty() {
        in_template = format!("{in_template}?{}", months.join("&"));
    }
    let money = |m: entity::domain::Money| service::l10n::money(m.to_decimal(), lang);
    let date = |d: Option<chrono::NaiveDate>| d.map(|d| day(d, lang)).unwrap_or_default();
    let body = html! {
        @if let Some(p) = &problem {
            (error_summary("approved", p, lang))
        }
        form.filters method="get" action="/bank/cartas" {
            div.field {
                label for="approved" { (t("bank.cartas.approved", lang)) }
                p.hint #approved-hint { (t("bank.cartas.month_hint", lang)) }
                input #approved name="approved" type="month" value=[approved.as_deref()] aria-describedby="approved-hint";
            }
            div.field {
                label for="contracted" { (t("bank.cartas.contracted", lang)) }
                p.hint #contracted-hint { (t("bank.cartas.month_hint", lang)) }
                input #contracted name="contracted" type="month" value=[contracted.as_deref()] aria-describedby="contracted-hint";
            }
            button type="submit" { (t("bank.reports.filter", lang)) }
        }
        p #cartas-count { (tw("bank.cartas.count", &[("count", total.to_string()), ("shown", rows.len().to_string())], lang)) }
        ul.links {
            li { a #cartas-template href=(in_template) { (t("bank.cartas.in_template", lang)) } }
            li { a #cartas-export href=(export) { (t("bank.cartas.export", lang)) } }
        }
        @if !rows.is_empty() {
            div.scroll {
                table #cartas {
                    thead { tr {
                        th scope="col" { (t("bank.cartas.number", lang)) }
                        th scope="col" { (t("bank.cartas.borrower", lang)) }
                        th scope="col" { (t("bank.cartas.stage", lang)) }
                        th scope="col" .num { (t("bank.cartas.amount", lang)) }
                        th scope="col" { (t("bank.cartas.approved_on", lang)) }
                        th scope="col" { (t("bank.cartas.contracted_on", lang)) }
                    } }
                    tbody {
                        @for c in rows.iter().map(|r| &r.model) {
                            tr data-carta=(c.number) {
                                td { (c.number) }
                                td { (c.borrower_name.clone().unwrap_or_default()) }
                                td { (service::labels::value("stage", &sea_orm::ActiveEnum::to_value(&c.stage), lang).unwrap_or_default()) }
                                td.num { (money(c.financed_amount)) }
                                td { (date(c.approved_on)) }
                                td { (date(c.contracted_on)) }
                            }
                        }
                    }
                }
            }
        }
    };
    respond(
        StatusCode::OK,
        lang,
        layout(lang, &t("bank.cartas.title", lang), BANK_NAV, "/bank/cartas", body),
    )
}

/// `GET /bank/cartas.xlsx`: the cartas of `/bank/cartas` (same filter, up to 100,000) in the monthly list's template
/// layout (`jobs::report::xlsx::in_template_layout`), the borrower as the bank filed it: a file the bank can edit and
/// send as a list.
pub async fn cartas_in_template(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<Caller>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    use jobs::report::{columns::Column, xlsx::TemplateValue as V};
    let lang = lang_of(&headers);
    let (approved, contracted) = match chosen_months(&state, &caller, &headers, &q).await {
        Ok(months) => months,
        Err(refusal) => return *refusal,
    };
    let rows =
        match bank_overview::cartas(&state.db, &caller, approved.as_deref(), contracted.as_deref(), 100_000).await {
            Ok((rows, _)) => rows,
            Err(e) => return super::refusal::refuse_service(e, lang),
        };
    // Only what the monthly list holds (approved cartas, contracted or not), its line and activity written as the
    // template names them: sent back unchanged, the file is read as a list.
    let rows: Vec<HashMap<Column, V>> = rows
        .into_iter()
        .filter(|r| r.model.approved_on.is_some())
        .map(|r| {
            let c = r.model;
            let line = jobs::report::columns::line_name(c.line).unwrap_or(c.line.name_pt());
            let activity = jobs::report::columns::activity_name(c.activity).unwrap_or(c.activity.name_pt());
            let mut m = HashMap::from([
                (Column::CartaNumber, V::Text(c.number.clone())),
                (Column::Line, V::Text(line.to_owned())),
                (Column::Activity, V::Text(activity.to_owned())),
                (Column::Financed, V::Money(c.financed_amount.cents())),
                (Column::IbgeCode, V::Int(c.municipality_code.into())),
            ]);
            if let Some(amount) = c.contracted_amount {
                m.insert(Column::Contracted, V::Money(amount.cents()));
            }
            if let Some(name) = c.borrower_name.clone() {
                m.insert(Column::Borrower, V::Text(name));
            }
            if let Some(p) = r.party {
                m.insert(Column::Document, V::Text(p.document));
            }
            if let Some(mu) = r.municipality {
                m.insert(Column::Municipality, V::Text(mu.name));
            }
            if let Ok(code) = entity::domain::IbgeCode::new(c.municipality_code as u32) {
                m.insert(Column::Uf, V::Text(code.uf().abbreviation().to_owned()));
            }
            for (column, day) in [
                (Column::ApprovedOn, c.approved_on),
                (Column::ContractedOn, c.contracted_on),
                (Column::PresentedOn, c.presented_on),
            ] {
                if let Some(d) = day {
                    m.insert(column, V::Date(d));
                }
            }
            for (column, n) in [
                (Column::TermMonths, c.term_months),
                (Column::GraceMonths, c.grace_months),
            ] {
                if let Some(n) = n {
                    m.insert(column, V::Int(n.into()));
                }
            }
            m
        })
        .collect();
    match jobs::report::xlsx::in_template_layout(&rows) {
        Ok(bytes) => super::reports::xlsx_response(bytes, "cartas-modelo.xlsx"),
        Err(e) => super::refusal::internal(e.to_string(), lang),
    }
}
