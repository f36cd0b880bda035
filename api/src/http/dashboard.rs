//! `GET /dashboard`: the analysts' page, server-rendered HTML with no script, readable on a laptop and a phone. It
//! shows the dashboard's key figures, bar charts drawn as inline SVG, the open flags (each naming its subject as people
//! know it and opening GraphiQL with its query) and a link to every export. `?asOf=YYYY-MM-DD` shows another day,
//! `?programme=SOCIAL_FUEL|FCO_RURAL` one programme; every link of the page keeps them. Portuguese by default, English
//! by `?lang=en` or `Accept-Language`. The numbers are those of `complianceDashboard` (one `service::dashboard::get`).
//!
//! Size: one page's template, its charts drawn as SVG and its export links, which must agree with one another.

use super::{AppState, params::Params};
use axum::{
    extract::{RawQuery, State},
    http::header,
    response::{IntoResponse, Response},
};
use entity::{compliance_flag, vocab::Programme};
use service::{
    dashboard::{Dashboard, Table, TableProgramme},
    exports::Cell,
    flags::FlagFilter,
    labels,
    messages::Lang,
    page::Keyset,
};
use std::{collections::HashMap, fmt::Write};

/// The parameters the page takes.
const PARAMETERS: &[&str] = &["asOf", "programme", "lang"];

/// How many open flags the page lists.
const FLAGS_SHOWN: i32 = 100;

/// The longest flag text shown whole; a longer one is cut at a word with `…`, the whole text on hover.
const MESSAGE_SHOWN: usize = 240;

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Digits grouped by three with `sep`.
fn grouped(n: u64, sep: char) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(d);
    }
    out
}

/// The separators of `lang`: thousands and decimal.
fn separators(lang: Lang) -> (char, char) {
    match lang {
        Lang::PtBr => ('.', ','),
        Lang::En => (',', '.'),
    }
}

/// A whole number in `lang` (`1.234`, `1,234`).
fn int(n: i64, lang: Lang) -> String {
    let sign = if n < 0 { "-" } else { "" };
    format!("{sign}{}", grouped(n.unsigned_abs(), separators(lang).0))
}

/// Hundredths (centavos, or a number with two decimals) in `lang` (`1.234,56`, `1,234.56`).
fn hundredths(h: i64, lang: Lang) -> String {
    let (thousands, point) = separators(lang);
    let sign = if h < 0 { "-" } else { "" };
    let (units, frac) = (h.unsigned_abs() / 100, h.unsigned_abs() % 100);
    format!("{sign}{}{point}{frac:02}", grouped(units, thousands))
}

/// Money in `lang` (`R$ 1.234,56`, `R$ 1,234.56`).
fn money(cents: i64, lang: Lang) -> String {
    format!("R$ {}", hundredths(cents, lang))
}

/// A decimal with two decimals in `lang`.
fn decimal(v: rust_decimal::Decimal, lang: Lang) -> String {
    let h = rust_decimal::prelude::ToPrimitive::to_i64(&(v * rust_decimal::Decimal::ONE_HUNDRED).round()).unwrap_or(0);
    hundredths(h, lang)
}

/// A day in `lang` (`05/12/2026`, `2026-12-05`).
fn day(d: chrono::NaiveDate, lang: Lang) -> String {
    match lang {
        Lang::PtBr => d.format("%d/%m/%Y").to_string(),
        Lang::En => d.to_string(),
    }
}

/// A cell of `column` as a person reads it in `lang`.
fn shown(column: &str, c: &Cell, lang: Lang) -> String {
    match c {
        Cell::Text(t) => labels::value(column, t, lang).unwrap_or_else(|| t.clone()),
        Cell::Int(n) if column == "ibge_code" => n.to_string(),
        Cell::Int(n) => int(*n, lang),
        Cell::Money(c) => money(*c, lang),
        Cell::Percent(v) => format!("{} %", decimal(*v, lang)),
        Cell::Decimal(v) => decimal(*v, lang),
        Cell::Date(d) => day(*d, lang),
        Cell::Time(t) => entity::domain::Authority::Mda.show(*t),
        Cell::Empty => String::new(),
    }
}

/// A cell as a number for a chart.
fn number(c: &Cell) -> f64 {
    use rust_decimal::prelude::ToPrimitive;
    match c {
        Cell::Int(n) => *n as f64,
        Cell::Money(c) => *c as f64 / 100.0,
        Cell::Percent(v) | Cell::Decimal(v) => v.to_f64().unwrap_or(0.0),
        Cell::Text(t) => t.parse().unwrap_or(0.0),
        _ => 0.0,
    }
}

/// The bars' colours: one series, and the severities.
const BAR: &str = "#2F6F9F";
const VIOLATION: &str = "#A61B1B";
const WARNING: &str = "#C98A00";

/// A chart's width in CSS pixels: narrower than a phone's page (390 px less its margins), so it is drawn at its own
/// size everywhere and its 12-px text stays 12 px.
const CHART_WIDTH: u32 = 340;
/// The text size in the charts, in CSS pixels.
const CHART_FONT: u32 = 12;

/// One bar: its label, its value, the value as shown, and its severity when it has one.
struct Bar {
    label: String,
    value: f64,
    shown: String,
    severity: Option<String>,
}

/// A horizontal bar chart as inline SVG, drawn at [`CHART_WIDTH`] with text of [`CHART_FONT`]: each bar's label at
/// its left (cut with `…` when long, whole on hover), its value at its end, bars coloured by severity when they have
/// one (with a legend), and a dashed line with its value where `minimum` falls. Each bar is `class="bar"` with its
/// value in `data-value`.
fn bars(id: &str, title: &str, rows: &[Bar], minimum: Option<(f64, String)>, lang: Lang) -> String {
    // Room for 15 capitals of 12 px and `…` before the bars.
    let (label_w, value_w, row_h) = (150.0, 70.0, 24.0);
    let bar_x = label_w + 6.0;
    let bar_w = f64::from(CHART_WIDTH) - bar_x - value_w;
    let max = rows
        .iter()
        .map(|r| r.value)
        .chain(minimum.as_ref().map(|m| m.0))
        .fold(0.0f64, f64::max)
        .max(f64::MIN_POSITIVE);
    let severities = rows.iter().any(|r| r.severity.is_some());
    let body_h = row_h * rows.len().max(1) as f64;
    let height = body_h + if minimum.is_some() { 20.0 } else { 0.0 } + if severities { 22.0 } else { 0.0 } + 4.0;
    let mut s = format!(
        r#"<svg id="{id}" class="chart" role="img" aria-label="{t}" xmlns="http://www.w3.org/2000/svg" width="{CHART_WIDTH}" height="{height}" viewBox="0 0 {CHART_WIDTH} {height}" style="max-width:100%;height:auto" font-family="system-ui,sans-serif" font-size="{CHART_FONT}"><title>{t}</title>"#,
        t = esc(title)
    );
    if rows.is_empty() {
        let _ = write!(
            s,
            r##"<text x="0" y="16" font-size="{CHART_FONT}" fill="#52606d">{}</text>"##,
            esc(&labels::text("page.no_rows", lang))
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let y = i as f64 * row_h;
        let w = (r.value / max * bar_w).max(if r.value > 0.0 { 1.0 } else { 0.0 });
        let fill = match r.severity.as_deref() {
            Some("VIOLATION") => VIOLATION,
            Some(_) => WARNING,
            None => BAR,
        };
        let label: String = if r.label.chars().count() > 16 {
            r.label.chars().take(15).chain(['…']).collect()
        } else {
            r.label.clone()
        };
        let whole = match &r.severity {
            Some(sev) => format!(
                "{} — {}: {}",
                r.label,
                labels::value("severity", sev, lang).unwrap_or_default(),
                r.shown
            ),
            None => format!("{}: {}", r.label, r.shown),
        };
        let _ = write!(
            s,
            r##"<g><title>{whole}</title><text x="{lx}" y="{ty}" font-size="{CHART_FONT}" text-anchor="end" fill="#1d2733">{label}</text><rect class="bar" data-value="{v}"{sev} x="{bar_x}" y="{by}" width="{w:.1}" height="{bh}" fill="{fill}"/><text x="{vx:.1}" y="{ty}" font-size="{CHART_FONT}" fill="#1d2733">{shown}</text></g>"##,
            whole = esc(&whole),
            lx = label_w,
            ty = y + 16.0,
            label = esc(&label),
            v = r.value,
            sev = r
                .severity
                .as_ref()
                .map(|s| format!(" data-severity=\"{}\"", esc(s)))
                .unwrap_or_default(),
            by = y + 4.0,
            bh = row_h - 8.0,
            vx = bar_x + w + 4.0,
            shown = esc(&r.shown),
        );
    }
    let mut y = body_h;
    if let Some((m, shown)) = minimum {
        let x = bar_x + m / max * bar_w;
        let _ = write!(
            s,
            r##"<line class="minimum" data-value="{m}" x1="{x:.1}" x2="{x:.1}" y1="0" y2="{y2}" stroke="#1d2733" stroke-width="1.5" stroke-dasharray="4 3"/><text x="{x:.1}" y="{ty}" font-size="{CHART_FONT}" text-anchor="middle" fill="#1d2733">{}</text>"##,
            esc(&labels::with("page.minimum", &[("value", shown)], lang)),
            y2 = body_h + 4.0,
            ty = body_h + 18.0,
        );
        y += 20.0;
    }
    if severities {
        let _ = write!(
            s,
            r##"<rect x="0" y="{ry}" width="10" height="10" fill="{VIOLATION}"/><text x="14" y="{ty}" font-size="{CHART_FONT}" fill="#1d2733">{v}</text><rect x="170" y="{ry}" width="10" height="10" fill="{WARNING}"/><text x="184" y="{ty}" font-size="{CHART_FONT}" fill="#1d2733">{w}</text>"##,
            ry = y + 8.0,
            ty = y + 17.0,
            v = esc(&labels::text("page.legend_violation", lang)),
            w = esc(&labels::text("page.legend_warning", lang)),
        );
    }
    s.push_str("</svg>");
    s
}

/// What the page's links carry: the day, the programme and the language.
struct Context {
    as_of: chrono::NaiveDate,
    programme: Option<Programme>,
    lang: Lang,
}

impl Context {
    fn programme_code(&self) -> Option<&'static str> {
        self.programme.map(|p| match p {
            Programme::SocialFuel => "SOCIAL_FUEL",
            Programme::FcoRural => "FCO_RURAL",
        })
    }

    /// The query string of the page's state, with `programme` and `lang` as given (for the page's own links).
    fn page_query(&self, programme: Option<&str>, lang: Lang) -> String {
        let mut q = format!("asOf={}", self.as_of);
        if let Some(p) = programme {
            let _ = write!(q, "&programme={p}");
        }
        let _ = write!(q, "&lang={}", lang.tag());
        q
    }

    /// The query string of a dashboard table's export: the page's day, programme and language.
    fn table_query(&self) -> String {
        self.page_query(self.programme_code(), self.lang)
    }

    /// The query string of a list's export: its language, and the programme as the list's filter (the lists are
    /// as they stand now, not as of the day).
    fn list_query(&self, name: &str) -> String {
        let mut q = format!("lang={}", self.lang.tag());
        if let Some(p) = self.programme_code()
            && name != "cartas"
        {
            let _ = write!(
                q,
                "&filter={}",
                super::params::encode(&format!("{{\"programmes\":[\"{p}\"]}}"))
            );
        }
        q
    }
}

fn table_html(t: &Table, cx: &Context) -> String {
    let lang = cx.lang;
    let q = esc(&cx.table_query());
    let mut s = format!(
        "<details><summary>{} <a href=\"/exports/dashboard-{n}.csv?{q}\">CSV</a> · <a href=\"/exports/dashboard-{n}.csv?{q}&amp;sep=semicolon&amp;bom=true\">CSV (Excel)</a> · <a href=\"/exports/dashboard-{n}.xlsx?{q}\">XLSX</a></summary><div class=\"scroll\"><table><thead><tr>",
        esc(&t.title(lang)),
        n = esc(&t.name)
    );
    for c in &t.columns {
        let _ = write!(s, "<th>{}</th>", esc(&labels::header(c, lang)));
    }
    s.push_str("</tr></thead><tbody>");
    for r in &t.rows {
        s.push_str("<tr>");
        for (c, column) in r.iter().zip(&t.columns) {
            let class = match c {
                Cell::Int(_) | Cell::Money(_) | Cell::Percent(_) | Cell::Decimal(_) => " class=\"num\"",
                _ => "",
            };
            let _ = write!(s, "<td{class}>{}</td>", esc(&shown(column, c, lang)));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div></details>");
    s
}

/// The page.
pub async fn page(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<service::Caller>,
    headers: axum::http::HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let lang = super::refusal::lang_of(&headers);
    let read = || -> Result<_, super::params::Wrong> {
        let p = Params::parse(query.as_deref(), PARAMETERS)?;
        Ok((p.as_of()?, p.programme()?, p.lang(&headers)?))
    };
    let (as_of, programme, lang) = match read() {
        Ok(v) => v,
        Err(wrong) => return super::params::refuse(wrong, lang),
    };
    // Without a key (an operator opened the page), the aggregate figures only: no flag list.
    let anonymous = caller == service::Caller::Anonymous;
    if !anonymous && let Err(e) = service::access::authorize(&caller, service::access::Operation::Dashboards) {
        // A person in a browser (a bank's clerk) gets a page saying whom it is for and where their own pages are.
        if super::pages::accepts_html(&headers) && e.code() == "FORBIDDEN" {
            let text = super::pages::t("pages.dashboard.for_analysts", lang);
            return super::pages::problem(axum::http::StatusCode::FORBIDDEN, lang, &text);
        }
        return super::refusal::refuse_service(e, lang);
    }
    let today = service::Clock::System.today();
    let as_of = as_of.unwrap_or(today);
    let d = match service::dashboard::get(&state.db, as_of).await {
        Ok(d) => d.of_programme(programme),
        Err(e) => return super::refusal::refuse_service(e, lang),
    };
    let open = FlagFilter {
        open: Some(true),
        programmes: programme.into_iter().collect(),
        ..FlagFilter::default()
    };
    let keyset = Keyset::parse(Some(FLAGS_SHOWN), None, None, None).unwrap_or_default();
    let (flags, total, names) = if anonymous {
        (Vec::new(), 0, HashMap::new())
    } else {
        match service::flags::list(&state.db, &caller, &open, keyset).await {
            Ok(p) => {
                let flags: Vec<_> = p.items.into_iter().map(|(_, f)| f).collect();
                let names = match service::flags::subject_names(&state.db, &flags).await {
                    Ok(n) => n,
                    Err(e) => return super::refusal::refuse_service(e, lang),
                };
                (flags, p.total_count, names)
            }
            Err(e) => return super::refusal::refuse_service(e, lang),
        }
    };
    let cx = Context { as_of, programme, lang };
    let page = render(&d, &cx, today, (&flags, total, &names), !anonymous);
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_LANGUAGE, lang.tag()),
        ],
        page,
    )
        .into_response()
}

fn figure(id: &str, value: String, lang: Lang, wide: bool) -> String {
    format!(
        r#"<div class="figure{w}"><span class="value" id="{id}">{value}</span><span class="label">{label}</span></div>"#,
        w = if wide { " wide" } else { "" },
        label = esc(&labels::text(&format!("figure.{}", id.replace('-', "_")), lang)),
    )
}

/// The open flags: their list (at most [`FLAGS_SHOWN`]), how many there are, and their subjects' names.
type OpenFlags<'a> = (
    &'a [compliance_flag::Model],
    u64,
    &'a HashMap<(compliance_flag::SubjectKind, i64), String>,
);

/// The HTML of the page.
fn render(d: &Dashboard, cx: &Context, today: chrono::NaiveDate, open: OpenFlags<'_>, keyed: bool) -> String {
    let lang = cx.lang;
    let f = &d.figures;
    let built = match d.built_at {
        Some(t) => labels::with("page.built", &[("time", entity::domain::Authority::Mda.show(t))], lang),
        None => labels::text("page.on_demand", lang),
    };
    let title = labels::with("page.title", &[("date", day(d.as_of, lang))], lang);
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        r#"<!doctype html><html lang="{tag}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fomento · {title}</title><style>
body{{font-family:system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1rem;color:#1d2733;font-size:16px}}
h1{{font-size:1.4rem}} h2{{font-size:1.1rem;margin-top:2rem}} nav a{{margin-right:.6rem}}
.figures{{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:.6rem}}
.figure{{border:1px solid #cfd8e3;border-radius:6px;padding:.6rem;display:flex;flex-direction:column;min-width:0}}
.figure.wide{{grid-column:span 2}}
.value{{font-size:1.3rem;font-weight:600;white-space:nowrap;font-variant-numeric:tabular-nums}} .label{{font-size:.875rem;color:#52606d}}
.charts{{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:1rem}} figure{{margin:0}} figcaption{{font-size:.9rem;margin-bottom:.3rem}}
table{{border-collapse:collapse;width:100%;font-size:.875rem}} td,th{{border-bottom:1px solid #e4e9ef;padding:.25rem .4rem;text-align:left;vertical-align:top}}
td.num{{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}} td.what{{overflow-wrap:anywhere;min-width:16rem}}
.VIOLATION{{color:#a61b1b;font-weight:600}} .WARNING{{color:#8a5a00}} .scroll{{overflow-x:auto}}
</style></head><body>
<h1>{h1}</h1><p>{built} <a href="?{link}">{link_day}</a> · <a href="?{other}" hreflang="{other_tag}">{other_name}</a></p>
<nav>{programme_label}: "#,
        tag = lang.tag(),
        title = esc(&title),
        h1 = esc(&title).replacen(
            &esc(&day(d.as_of, lang)),
            &format!(
                "<time datetime=\"{0}\" id=\"as-of\">{1}</time>",
                d.as_of,
                esc(&day(d.as_of, lang))
            ),
            1
        ),
        built = esc(&built),
        link = esc(&cx.table_query()),
        link_day = esc(&labels::text("page.link_day", lang)),
        other = esc(&cx.page_query(
            cx.programme_code(),
            match lang {
                Lang::PtBr => Lang::En,
                Lang::En => Lang::PtBr,
            }
        )),
        other_tag = match lang {
            Lang::PtBr => "en",
            Lang::En => "pt-BR",
        },
        other_name = esc(&labels::text("page.other_language", lang)),
        programme_label = esc(&labels::text("page.programme", lang)),
    );
    for (code, name) in [
        (None, labels::text("page.both", lang)),
        (
            Some("SOCIAL_FUEL"),
            labels::value("programme", "SOCIAL_FUEL", lang).unwrap_or_default(),
        ),
        (
            Some("FCO_RURAL"),
            labels::value("programme", "FCO_RURAL", lang).unwrap_or_default(),
        ),
    ] {
        let current = if code == cx.programme_code() {
            " aria-current=\"page\""
        } else {
            ""
        };
        let _ = write!(
            s,
            "<a href=\"?{}\"{current}>{}</a>",
            esc(&cx.page_query(code, lang)),
            esc(&name)
        );
    }
    let _ = write!(
        s,
        "</nav><h2>{}</h2><section class=\"figures\">",
        esc(&labels::text("page.figures", lang))
    );
    let n = |v: u64| int(i64::try_from(v).unwrap_or(i64::MAX), lang);
    let sf = d.shows(TableProgramme::SocialFuel);
    let fco = d.shows(TableProgramme::FcoRural);
    for (id, value, show) in [
        ("decisions-overdue", n(f.decisions_overdue), sf),
        ("decisions-due-soon", n(f.decisions_due_soon), sf),
        ("evaluations-overdue", n(f.evaluations_overdue), sf),
        ("evaluations-due-soon", n(f.evaluations_due_soon), sf),
        ("approvals-expiring", n(f.approvals_expiring), fco),
        ("approvals-expired", n(f.approvals_expired), fco),
        ("contracted-count", n(f.contracted_count), fco),
        ("contracted-amount", money(f.contracted_cents, lang), fco),
        ("open-flags", n(f.open_flags), true),
        ("open-violations", n(f.open_violations), true),
    ] {
        if show {
            s.push_str(&figure(id, value, lang, id == "contracted-amount"));
        }
    }
    let _ = write!(
        s,
        "</section><h2>{}</h2><section class=\"charts\">",
        esc(&labels::text("page.charts", lang))
    );
    for (name, value, id) in [
        ("deadlines", 2, "chart-deadlines"),
        ("fco_contracted_by_bank", 2, "chart-contracted-by-bank"),
        ("sf_family_share_by_region", 4, "chart-family-share"),
        ("flags_open_by_rule_severity", 2, "chart-open-flags"),
    ] {
        let Some(t) = d.table(name) else { continue };
        let severity = t.columns.iter().position(|c| c == "severity");
        let millions = name == "fco_contracted_by_bank";
        let rows: Vec<Bar> = t
            .rows
            .iter()
            .map(|r| {
                let v = number(&r[value]);
                let value_text = match &r[value] {
                    // Millions of reais, as the caption says.
                    Cell::Money(c) => hundredths((*c as f64 / 1e6).round() as i64, lang),
                    Cell::Percent(p) => format!("{} %", decimal(*p, lang)),
                    c => shown(&t.columns[value], c, lang),
                };
                Bar {
                    label: shown(&t.columns[0], &r[0], lang),
                    value: if millions { v / 1e6 } else { v },
                    shown: value_text,
                    severity: severity.and_then(|i| match &r[i] {
                        Cell::Text(s) => Some(s.clone()),
                        _ => None,
                    }),
                }
            })
            .collect();
        // The family-farm share against its minimum: the strictest minimum of the regions shown.
        let minimum = (name == "sf_family_share_by_region")
            .then(|| {
                t.rows
                    .iter()
                    .filter_map(|r| match r.get(5) {
                        Some(Cell::Percent(m)) => Some(*m),
                        _ => None,
                    })
                    .max()
            })
            .flatten()
            .map(|m| (number(&Cell::Percent(m)), format!("{} %", decimal(m, lang))));
        let mut caption = t.title(lang);
        if millions {
            caption.push_str(match lang {
                Lang::PtBr => " (R$ milhões)",
                Lang::En => " (R$ millions)",
            });
        }
        let _ = write!(
            s,
            "<figure><figcaption>{}</figcaption>{}</figure>",
            esc(&caption),
            bars(id, &caption, &rows, minimum, lang)
        );
    }
    s.push_str("</section>");
    if keyed {
        flags_html(&mut s, cx, today, open);
    }
    let _ = write!(
        s,
        "<h2>{}</h2><p>{}</p>",
        esc(&labels::text("page.tables", lang)),
        esc(&labels::text("page.export_note", lang))
    );
    for t in &d.tables {
        s.push_str(&table_html(t, cx));
    }
    let _ = write!(s, "<p>{}: ", esc(&labels::text("page.lists", lang)));
    for name in service::exports::NAMES {
        let q = esc(&cx.list_query(name));
        let _ = write!(
            s,
            "<a href=\"/exports/{name}.csv?{q}\">{name}.csv</a> · <a href=\"/exports/{name}.xlsx?{q}\">{name}.xlsx</a> · "
        );
    }
    s.push_str("<a href=\"/graphql\">GraphiQL</a></p></body></html>");
    s
}

/// The open flags' table: at most [`FLAGS_SHOWN`], saying how many there are with a link to all of them; each flag's
/// subject named as people know it, opening GraphiQL with its query; its text whole, or cut at a word with `…` and
/// whole on hover.
fn flags_html(s: &mut String, cx: &Context, today: chrono::NaiveDate, (flags, total, names): OpenFlags<'_>) {
    use crate::graphql::ids::{NodeKind, encode};
    let lang = cx.lang;
    let programme_filter = cx
        .programme_code()
        .map(|p| format!(", programmes: [{p}]"))
        .unwrap_or_default();
    let all = format!(
        "{{ complianceFlags(first: 100, filter: {{ open: true{programme_filter} }}) {{ totalCount nodes {{ number ruleCode severity dueOn message subject {{ __typename }} }} }} }}"
    );
    let _ = write!(
        s,
        "<h2>{}</h2><p id=\"open-flags-count\">{} · <a href=\"/graphql#query={}\">{}</a></p><div class=\"scroll\"><table id=\"open-flags-table\"><thead><tr>",
        esc(&labels::text("page.open_flags", lang)),
        esc(&labels::with(
            "page.shown",
            &[
                ("shown", int(flags.len() as i64, lang)),
                ("total", int(i64::try_from(total).unwrap_or(i64::MAX), lang)),
            ],
            lang
        )),
        esc(&super::params::encode(&all)),
        esc(&labels::text("page.all_flags", lang)),
    );
    for h in [
        "page.col_number",
        "page.col_rule",
        "page.col_severity",
        "page.col_due",
        "page.col_subject",
        "page.col_what",
    ] {
        let _ = write!(s, "<th>{}</th>", esc(&labels::text(h, lang)));
    }
    s.push_str("</tr></thead><tbody>");
    for fl in flags {
        let subject = match (crate::graphql::flags::subject_node(fl), fl.subject()) {
            (Some((kind, key)), Some(subject_kind)) => {
                let id = encode(kind, key);
                // A financing's link shows its flags too.
                let query = if matches!(kind, NodeKind::SocialFuelProject | NodeKind::FcoCarta) {
                    format!(
                        "{{ node(id: \"{}\") {{ __typename id ... on {} {{ flags {{ ruleCode severity message }} }} }} }}",
                        id.as_str(),
                        kind.type_name()
                    )
                } else {
                    format!("{{ node(id: \"{}\") {{ __typename id }} }}", id.as_str())
                };
                let name = names
                    .get(&(subject_kind, fl.subject_id))
                    .cloned()
                    .unwrap_or_else(|| format!("{} {key}", kind.type_name()));
                format!(
                    "<a class=\"subject\" href=\"/graphql#query={}\">{}</a>",
                    esc(&super::params::encode(&query)),
                    esc(&name)
                )
            }
            _ => esc(&labels::text("page.no_subject", lang)),
        };
        let due = fl.due_on.map_or_else(String::new, |d| {
            let late = (today - d).num_days();
            if late > 0 {
                format!(
                    "{} ({})",
                    day(d, lang),
                    labels::with("page.overdue", &[("days", labels::count(late, "day", lang))], lang)
                )
            } else {
                day(d, lang)
            }
        });
        let message = service::l10n::flag_message(fl, lang);
        let whole = message.trim();
        let what = if whole.chars().count() > MESSAGE_SHOWN {
            let cut: String = whole.chars().take(MESSAGE_SHOWN).collect();
            let at_word = cut.rsplit_once(' ').map_or(cut.as_str(), |(a, _)| a);
            format!(
                "<span class=\"message\" title=\"{}\">{}…</span>",
                esc(whole),
                esc(at_word.trim_end_matches([',', ';', ':', ' ']))
            )
        } else {
            format!("<span class=\"message\">{}</span>", esc(whole))
        };
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td class=\"{sev}\">{}</td><td>{}</td><td>{subject}</td><td class=\"what\">{what}</td></tr>",
            fl.id,
            esc(&fl.rule_code),
            esc(&labels::value("severity", &fl.severity, lang).unwrap_or_else(|| fl.severity.clone())),
            esc(&due),
            sev = esc(&fl.severity),
        );
    }
    s.push_str("</tbody></table></div>");
}
