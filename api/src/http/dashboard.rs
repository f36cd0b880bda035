//! `GET /dashboard`: the analysts' page, server-rendered HTML with no script, readable on a laptop and a phone. It
//! shows the dashboard's key figures, bar charts drawn as inline SVG, the open flags (each linking to its subject in
//! GraphiQL) and a link to every export. `?asOf=YYYY-MM-DD` shows another day. The numbers are those of
//! `complianceDashboard` (one `service::dashboard::get`).

use super::AppState;
use axum::{
    extract::{Query, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use service::{
    dashboard::{Dashboard, Table},
    exports::Cell,
    flags::FlagFilter,
    page::Keyset,
};
use std::fmt::Write;

/// The query string.
#[derive(Debug, serde::Deserialize, Default)]
pub struct Params {
    /// The day.
    #[serde(rename = "asOf")]
    as_of: Option<chrono::NaiveDate>,
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Reais with thousands separators, Brazilian style.
fn brl(cents: i64) -> String {
    entity::domain::Money(cents).to_string()
}

fn number(c: &Cell) -> f64 {
    match c {
        Cell::Int(n) => *n as f64,
        Cell::Money(c) => *c as f64 / 100.0,
        Cell::Text(t) => t.parse().unwrap_or(0.0),
        _ => 0.0,
    }
}

fn label(c: &Cell) -> String {
    c.text('.')
}

/// The bars' colour; the page marks each bar (`class="bar"`) by it.
const BAR: plotters::style::RGBColor = plotters::style::RGBColor(0x2f, 0x6f, 0x9f);

/// A horizontal bar chart of `table`'s `value` column against its `key` column, drawn by plotters as SVG, with the
/// chart's id, role and title on its `<svg>` and each bar marked `class="bar"` (with its value in `data-value`).
fn bars(t: &Table, key: usize, key2: Option<usize>, value: usize, unit: &str, id: &str) -> String {
    use plotters::prelude::*;
    let rows: Vec<(String, f64)> = t
        .rows
        .iter()
        .map(|r| {
            let k = match key2 {
                // A severity as its initial: `SF-DECISION-30D V`.
                Some(k2) => format!("{} {}", label(&r[key]), label(&r[k2]).chars().next().unwrap_or(' ')),
                None => label(&r[key]),
            };
            (k.chars().take(24).collect(), number(&r[value]))
        })
        .collect();
    let shown = |v: f64| {
        if unit == "R$" {
            brl((v * 100.0).round() as i64)
        } else {
            format!("{v}")
        }
    };
    let max = rows.iter().map(|r| r.1).fold(0.0f64, f64::max).max(1.0);
    let n = rows.len().max(1);
    let height = (n as u32) * 26 + 40;
    let mut svg = String::new();
    let drawn = (|| -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::with_string(&mut svg, (560, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(6)
            .x_label_area_size(22)
            .y_label_area_size(170)
            .build_cartesian_2d(0f64..max * 1.3, (0..n as i32).into_segmented())?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .y_labels(n)
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => rows.get(*i as usize).map(|r| r.0.clone()).unwrap_or_default(),
                _ => String::new(),
            })
            .x_labels(4)
            .x_label_formatter(&|v| shown(*v))
            .label_style(("sans-serif", 12))
            .draw()?;
        chart.draw_series(rows.iter().enumerate().map(|(i, (_, v))| {
            let mut r = Rectangle::new(
                [
                    (0.0, SegmentValue::Exact(i as i32)),
                    (*v, SegmentValue::Exact(i as i32 + 1)),
                ],
                BAR.filled(),
            );
            r.set_margin(3, 3, 0, 0);
            r
        }))?;
        chart.draw_series(rows.iter().enumerate().map(|(i, (_, v))| {
            Text::new(
                shown(*v),
                (*v + max * 0.02, SegmentValue::CenterOf(i as i32)),
                ("sans-serif", 12).into_font(),
            )
        }))?;
        root.present()?;
        Ok(())
    })();
    if let Err(e) = drawn {
        tracing::warn!(chart = id, error = %e, "chart not drawn");
        return format!("<p id=\"{id}\">{}</p>", esc(&t.title));
    }
    // Plotters writes `<svg width=".." height=".." viewBox="..">`: scale it to the page, and name it.
    let svg = svg.replacen(
        "<svg ",
        &format!(
            "<svg id=\"{id}\" class=\"chart\" role=\"img\" aria-label=\"{}\" style=\"width:100%;height:auto\" ",
            esc(&t.title)
        ),
        1,
    );
    // Each bar, in order, with its value.
    let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", BAR.0, BAR.1, BAR.2);
    let mut out = String::with_capacity(svg.len() + rows.len() * 40);
    let mut values = rows.iter().map(|r| r.1);
    let mut rest = svg.as_str();
    while let Some(at) = rest.find(&fill) {
        out.push_str(&rest[..at]);
        let v = values.next().unwrap_or(0.0);
        let _ = write!(out, "class=\"bar\" data-value=\"{v}\" {fill}");
        rest = &rest[at + fill.len()..];
    }
    out.push_str(rest);
    out
}

fn table_html(t: &Table) -> String {
    let mut s = format!(
        "<details><summary>{} <a href=\"/exports/dashboard-{n}.csv\">CSV</a> · <a href=\"/exports/dashboard-{n}.xlsx\">XLSX</a></summary><table><thead><tr>",
        esc(&t.title),
        n = esc(&t.name)
    );
    for c in &t.columns {
        let _ = write!(s, "<th>{}</th>", esc(c));
    }
    s.push_str("</tr></thead><tbody>");
    for r in &t.rows {
        s.push_str("<tr>");
        for c in r {
            let _ = write!(s, "<td>{}</td>", esc(&label(c)));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></details>");
    s
}

/// The page.
pub async fn page(
    State(state): State<AppState>,
    axum::Extension(caller): axum::Extension<service::Caller>,
    headers: axum::http::HeaderMap,
    Query(p): Query<Params>,
) -> Response {
    // Without a key (an operator opened the page), the aggregate figures only: no flag list.
    let anonymous = caller == service::Caller::Anonymous;
    if !anonymous && let Err(e) = service::access::authorize(&caller, service::access::Operation::Dashboards) {
        return super::reports::refuse_service(e, super::reports::lang_of(&headers));
    }
    let as_of = p.as_of.unwrap_or_else(|| service::Clock::System.today());
    let d = match service::dashboard::get(&state.db, as_of).await {
        Ok(d) => d,
        Err(e) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    };
    let open = FlagFilter {
        open: Some(true),
        ..FlagFilter::default()
    };
    let keyset = Keyset::parse(Some(100), None, None, None).unwrap_or_default();
    let flags = if anonymous {
        Vec::new()
    } else {
        service::flags::list(&state.db, &caller, &open, keyset)
            .await
            .map(|p| p.items.into_iter().map(|(_, f)| f).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], render(&d, &flags)).into_response()
}

fn figure(id: &str, label: &str, value: String) -> String {
    format!(
        r#"<div class="figure"><span class="value" id="{id}">{value}</span><span class="label">{label}</span></div>"#
    )
}

/// The HTML of the page.
pub fn render(d: &Dashboard, flags: &[entity::compliance_flag::Model]) -> String {
    let f = &d.figures;
    let built = match d.built_at {
        Some(t) => format!(
            "built by the build-dashboards job at {}",
            entity::domain::Authority::Mda.show(t)
        ),
        None => "computed on demand (no build for this day)".to_owned(),
    };
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fomento · compliance dashboard {as_of}</title><style>
body{{font-family:system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1rem;color:#1d2733}}
h1{{font-size:1.4rem}} h2{{font-size:1.1rem;margin-top:2rem}}
.figures{{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:.6rem}}
.figure{{border:1px solid #cfd8e3;border-radius:6px;padding:.6rem;display:flex;flex-direction:column}}
.value{{font-size:1.3rem;font-weight:600;overflow-wrap:anywhere}} .label{{font-size:.8rem;color:#52606d}}
.charts{{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,460px),1fr));gap:1rem}} figure{{margin:0}}
table{{border-collapse:collapse;width:100%;font-size:.85rem}} td,th{{border-bottom:1px solid #e4e9ef;padding:.25rem .4rem;text-align:left}}
.VIOLATION{{color:#a61b1b;font-weight:600}} .WARNING{{color:#8a5a00}} .scroll{{overflow-x:auto}}
</style></head><body>
<h1>Compliance dashboard as of <time id="as-of">{as_of}</time></h1><p>{built}. <a href="?asOf={as_of}">Link to this day</a>.</p>
<section class="figures">"#,
        as_of = d.as_of
    );
    for (id, label, value) in [
        (
            "decisions-overdue",
            "MDA decisions overdue",
            f.decisions_overdue.to_string(),
        ),
        (
            "decisions-due-soon",
            "MDA decisions due soon",
            f.decisions_due_soon.to_string(),
        ),
        (
            "evaluations-overdue",
            "External evaluations overdue",
            f.evaluations_overdue.to_string(),
        ),
        (
            "evaluations-due-soon",
            "External evaluations due soon",
            f.evaluations_due_soon.to_string(),
        ),
        (
            "approvals-expiring",
            "Approvals expiring",
            f.approvals_expiring.to_string(),
        ),
        (
            "approvals-expired",
            "Approvals expired",
            f.approvals_expired.to_string(),
        ),
        ("contracted-count", "Cartas contracted", f.contracted_count.to_string()),
        ("contracted-amount", "Amount contracted", brl(f.contracted_cents)),
        ("open-flags", "Open flags", f.open_flags.to_string()),
        ("open-violations", "Open violations", f.open_violations.to_string()),
    ] {
        s.push_str(&figure(id, label, value));
    }
    s.push_str("</section><h2>Charts</h2><section class=\"charts\">");
    for (name, key, key2, value, unit, id) in [
        ("deadlines", 0, Some(1), 2, "", "chart-deadlines"),
        ("fco_contracted_by_bank", 0, None, 2, "R$", "chart-contracted-by-bank"),
        ("sf_family_share_by_region", 0, None, 4, "%", "chart-family-share"),
        ("flags_open_by_rule_severity", 0, Some(1), 2, "", "chart-open-flags"),
    ] {
        if let Some(t) = d.table(name) {
            let _ = write!(
                s,
                "<figure><figcaption>{}</figcaption>{}</figure>",
                esc(&t.title),
                bars(t, key, key2, value, unit, id)
            );
        }
    }
    s.push_str("</section><h2>Open flags</h2><div class=\"scroll\"><table id=\"open-flags-table\"><thead><tr><th>#</th><th>rule</th><th>severity</th><th>due</th><th>subject</th><th>what</th></tr></thead><tbody>");
    for fl in flags {
        use crate::graphql::ids::{NodeKind, encode};
        let Some((kind, key)) = crate::graphql::flags::subject_node(fl) else {
            continue;
        };
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
        let subject = (kind.type_name(), key);
        let href = format!("/graphql?query={}", percent(&query));
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td class=\"{sev}\">{sev}</td><td>{}</td><td><a href=\"{}\">{} {}</a></td><td>{}</td></tr>",
            fl.id,
            esc(&fl.rule_code),
            fl.due_on.map(|d| d.to_string()).unwrap_or_default(),
            esc(&href),
            subject.0,
            subject.1,
            esc(&fl.message.chars().take(160).collect::<String>()),
            sev = esc(&fl.severity),
        );
    }
    s.push_str("</tbody></table></div><h2>Tables and exports</h2>");
    for t in &d.tables {
        s.push_str(&table_html(t));
    }
    s.push_str("<p>Lists: ");
    for name in service::exports::NAMES {
        let _ = write!(
            s,
            "<a href=\"/exports/{name}.csv\">{name}.csv</a> · <a href=\"/exports/{name}.xlsx\">{name}.xlsx</a> · "
        );
    }
    s.push_str("<a href=\"/graphql\">GraphiQL</a></p></body></html>");
    s
}

/// Percent-encodes a query string value.
fn percent(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
