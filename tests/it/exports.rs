//! Exports (issue 14, item 5): the flag list, the financings and the cartas as CSV and XLSX, filtered by the graph's
//! own filters, with the same numbers the graph answers.

use crate::helpers::{TestApp, on_each_backend};
use calamine::{Data, Reader, Xlsx};
use serde_json::{Value, json};
use std::io::Cursor;

async fn get(app: &TestApp, path: &str) -> (u16, String, Vec<u8>) {
    let r = app.get(path).send().await.expect("GET");
    let status = r.status().as_u16();
    let ct = crate::helpers::content_type(&r);
    (status, ct, r.bytes().await.expect("body").to_vec())
}

/// The fields of one CSV line (RFC 4180 quoting).
fn fields(line: &str, sep: char) -> Vec<String> {
    let (mut out, mut cur, mut quoted, mut chars) = (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if c == sep && !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out
}

fn encode(filter: &Value) -> String {
    filter
        .to_string()
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The approved cartas through the graph: numbers and amounts in centavos.
async fn approved_in_graph(app: &TestApp) -> Vec<(String, i64)> {
    let d = app
        .data(
            "{ fcoCartas(first: 100, filter: { statuses: [APPROVED] }) { totalCount nodes { number amount } } }",
            json!({}),
        )
        .await;
    let nodes = d["fcoCartas"]["nodes"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        d["fcoCartas"]["totalCount"].as_u64(),
        Some(nodes.len() as u64),
        "one page holds them all"
    );
    nodes
        .iter()
        .map(|n| {
            let amount: rust_decimal::Decimal = n["amount"].as_str().unwrap_or("0").parse().expect("amount");
            (
                n["number"].as_str().unwrap_or("").to_owned(),
                (amount * rust_decimal::Decimal::ONE_HUNDRED).try_into().unwrap_or(0),
            )
        })
        .collect()
}

#[tokio::test]
async fn exports_answer_the_graphs_numbers_as_csv_and_typed_xlsx() {
    on_each_backend(true, |app| async move {
        let approved = approved_in_graph(&app).await;
        assert!(!approved.is_empty());
        let filter = encode(&json!({ "statuses": ["APPROVED"] }));

        // CSV: one line per carta, the same numbers and amounts.
        let (status, ct, body) = get(&app, &format!("/exports/cartas.csv?filter={filter}&codes=true")).await;
        assert_eq!(
            (status, ct.as_str()),
            (200, "text/csv"),
            "{}",
            String::from_utf8_lossy(&body)
        );
        let text = String::from_utf8(body).expect("UTF-8");
        let mut lines = text.lines();
        let header = fields(lines.next().expect("header"), ',');
        let (num, amt) = (
            header.iter().position(|h| *h == "number").expect("number"),
            header.iter().position(|h| *h == "amount").expect("amount"),
        );
        let mut from_csv: Vec<(String, i64)> = lines
            .map(|l| {
                let f = fields(l, ',');
                (f[num].clone(), f[amt].replace('.', "").parse().expect("centavos"))
            })
            .collect();
        let mut expected = approved.clone();
        expected.sort();
        from_csv.sort();
        assert_eq!(from_csv, expected);

        // XLSX: numbers as numbers, dates as dates, the same total.
        let (status, ct, body) = get(&app, &format!("/exports/cartas.xlsx?filter={filter}&codes=true")).await;
        assert_eq!(status, 200);
        assert!(ct.starts_with("application/vnd.openxmlformats"), "{ct}");
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(body)).expect("an xlsx");
        let sheets = book.sheet_names();
        assert_eq!(sheets, vec!["cartas".to_owned()]);
        let range = book.worksheet_range("cartas").expect("sheet");
        let rows: Vec<&[Data]> = range.rows().collect();
        assert_eq!(rows.len(), approved.len() + 1);
        let col = |name: &str| {
            rows[0]
                .iter()
                .position(|c| matches!(c, Data::String(s) if s == name))
                .expect("column")
        };
        let (amount, approved_on) = (col("amount"), col("approved_on"));
        let total: f64 = rows[1..]
            .iter()
            .map(|r| match r[amount] {
                Data::Float(f) => f,
                ref other => panic!("the amount is a number cell, not {other:?}"),
            })
            .sum();
        let expected_total: i64 = approved.iter().map(|(_, c)| c).sum();
        assert!(
            (total * 100.0 - expected_total as f64).abs() < 0.5,
            "{total} vs {expected_total}"
        );
        assert!(
            rows[1..].iter().all(|r| matches!(r[approved_on], Data::DateTime(_))),
            "approval dates are dates"
        );

        // Brazilian Excel: BOM, `;`, comma before the centavos.
        let (_, _, body) = get(&app, "/exports/financings.csv?sep=semicolon&bom=true&codes=true").await;
        assert!(
            body.starts_with("\u{feff}programme;id;bank".as_bytes()),
            "{}",
            String::from_utf8_lossy(&body[..40])
        );
        let text = String::from_utf8(body).expect("UTF-8");
        let first = text.lines().nth(1).expect("a row");
        assert!(
            fields(first, ';')
                .get(7)
                .is_some_and(|a| a.contains(',') && !a.contains('.')),
            "{first}"
        );
        let financings =
            app.data("{ financings(first: 1) { totalCount } }", json!({})).await["financings"]["totalCount"].as_u64();
        assert_eq!(
            Some(text.lines().count() as u64 - 1),
            financings,
            "every financing, one line each"
        );

        // The flag list, as the graph filters it.
        let open = encode(&json!({ "open": true, "source": "job:flag-deadlines" }));
        let (status, _, body) = get(&app, &format!("/exports/flags.csv?filter={open}")).await;
        assert_eq!(status, 200);
        let flags = entity::compliance_flag::Entity::find()
            .filter(entity::compliance_flag::Column::ResolvedAt.is_null())
            .filter(entity::compliance_flag::Column::Source.eq("job:flag-deadlines"))
            .count(&app.db)
            .await
            .expect("count");
        assert!(flags > 0);
        assert_eq!(String::from_utf8_lossy(&body).lines().count() as u64, flags + 1);

        // Wrong names and filters are answered, naming what is wrong.
        let (status, _, body) = get(&app, "/exports/borrowers.csv").await;
        assert_eq!(status, 404);
        assert!(String::from_utf8_lossy(&body).contains("flags, financings, cartas"));
        let (status, _, body) = get(
            &app,
            &format!(
                "/exports/cartas.csv?filter={}",
                encode(&json!({ "statuses": ["NOPE"] }))
            ),
        )
        .await;
        assert_eq!(status, 400);
        assert!(
            String::from_utf8_lossy(&body).contains("filter"),
            "{}",
            String::from_utf8_lossy(&body)
        );
    })
    .await;
}

use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

/// Past a sheet's last row the rows continue on a new sheet, each with its header (Excel's limit, made small).
#[tokio::test]
async fn an_xlsx_export_continues_on_a_new_sheet_past_the_row_limit() {
    on_each_backend(true, |app| async move {
        let export = fomento_api::export_request::build(&app.db, &service::Caller::System, "cartas", None, None, None)
            .await
            .expect("export");
        let path = std::env::temp_dir().join(format!("fomento-test-{}.xlsx", uuid::Uuid::new_v4()));
        let n = service::exports::write_xlsx(
            &app.db,
            &service::Caller::System,
            &export,
            &path,
            Some(100),
            service::exports::Wording::Codes,
        )
        .await
        .expect("written");
        let total = entity::fco_carta::Entity::find().count(&app.db).await.expect("count");
        assert_eq!(n, total);
        let mut book: Xlsx<_> = calamine::open_workbook(&path).expect("xlsx");
        let _ = std::fs::remove_file(&path);
        let names = book.sheet_names();
        assert_eq!(names.len() as u64, total.div_ceil(100), "{names:?}");
        assert_eq!(names[1], "cartas 2");
        let mut rows = 0;
        for name in &names {
            let range = book.worksheet_range(name).expect("sheet");
            assert_eq!(
                range.rows().next().and_then(|r| r.first()).map(|c| c.to_string()),
                Some("id".into())
            );
            rows += range.rows().count() - 1;
        }
        assert_eq!(rows as u64, total);
    })
    .await;
}

/// An export's answer as JSON (an error).
async fn error(app: &TestApp, path: &str) -> (u16, Value) {
    let (status, _, body) = get(app, path).await;
    (
        status,
        serde_json::from_slice(&body).unwrap_or_else(|_| json!({ "raw": String::from_utf8_lossy(&body) })),
    )
}

#[tokio::test]
async fn exports_speak_portuguese_keep_the_day_type_their_cells_and_refuse_in_the_one_error_shape() {
    on_each_backend(true, |app| async move {
        // Headers and coded values in Portuguese by default, English on request, codes for scripts.
        let approved = encode(&json!({ "statuses": ["APPROVED"] }));
        let (_, _, body) = get(&app, &format!("/exports/cartas.csv?filter={approved}")).await;
        let text = String::from_utf8(body).expect("UTF-8");
        let header = fields(text.lines().next().expect("header"), ',');
        assert!(
            header.contains(&"Etapa".to_owned()) && header.contains(&"Valor (R$)".to_owned()),
            "{header:?}"
        );
        let stage = header.iter().position(|h| h == "Etapa").expect("stage");
        assert!(
            text.lines().skip(1).all(|l| fields(l, ',')[stage] == "Aprovada"),
            "{text}"
        );
        let r = app
            .get(&format!("/exports/cartas.csv?filter={approved}"))
            .header("accept-language", "en")
            .send()
            .await
            .expect("GET");
        let text = r.text().await.expect("text");
        assert!(text.starts_with("No.,Number,Bank"), "{}", &text[..60]);
        assert!(text.lines().nth(1).is_some_and(|l| l.contains(",Approved,")), "{text}");

        // A dashboard table of another day, with decimal commas for percentages as for money under `sep=semicolon`.
        let day = "2025-06-30";
        let (_, _, body) = get(
            &app,
            &format!("/exports/dashboard-fco_chamber_share.csv?asOf={day}&sep=semicolon"),
        )
        .await;
        let text = String::from_utf8(body).expect("UTF-8");
        let then = app
            .data(
                "query($d: Date) { complianceDashboard(asOf: $d) { table(name: \"fco_chamber_share\") { rows } } }",
                json!({ "d": day }),
            )
            .await;
        let rows = then["complianceDashboard"]["table"]["rows"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(!rows.is_empty(), "approvals by {day}");
        assert_eq!(text.lines().count(), rows.len() + 1, "{text}");
        for line in text.lines().skip(1) {
            let f = fields(line, ';');
            assert!(
                f[2].contains(',') && f[3].contains(',') && !f[3].contains('.'),
                "{line}"
            );
        }
        let (_, _, body) = get(
            &app,
            &format!("/exports/dashboard-fco_chamber_share.csv?asOf={day}&sep=tab"),
        )
        .await;
        assert!(
            String::from_utf8_lossy(&body)
                .lines()
                .nth(1)
                .is_some_and(|l| l.split('\t').count() == 4)
        );

        // XLSX: percentages are numbers formatted as percentages; instants in Brasília time, said in the header.
        let (status, _, body) = get(&app, &format!("/exports/dashboard-fco_chamber_share.xlsx?asOf={day}")).await;
        assert_eq!(status, 200);
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(body)).expect("an xlsx");
        let range = book.worksheet_range("fco_chamber_share").expect("sheet");
        let shares: Vec<f64> = range
            .rows()
            .skip(1)
            .map(|r| match r[3] {
                Data::Float(f) => f,
                ref other => panic!("a percentage is a number cell, not {other:?}"),
            })
            .collect();
        assert!((shares.iter().sum::<f64>() - 1.0).abs() < 0.001, "{shares:?}");
        let (_, _, body) = get(&app, "/exports/flags.xlsx").await;
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(body)).expect("an xlsx");
        let range = book.worksheet_range("flags").expect("sheet");
        let header: Vec<String> = range
            .rows()
            .next()
            .expect("header")
            .iter()
            .map(|c| c.to_string())
            .collect();
        let raised = header
            .iter()
            .position(|h| h == "Aberto em (horário de Brasília)")
            .expect("raised at, in Brasília");
        assert!(range.rows().skip(1).all(|r| matches!(r[raised], Data::DateTime(_))));

        // What is wrong, in the one error shape, in Portuguese by default.
        let cases = [
            ("/exports/cartas.csv?filter=%7Bnope", "filter", "não é JSON"),
            (
                &*format!(
                    "/exports/cartas.csv?filter={}",
                    encode(&json!({ "statuss": ["APPROVED"] }))
                ),
                "filter",
                "statuss",
            ),
            (
                &*format!(
                    "/exports/flags.csv?filter={}",
                    encode(&json!({ "ruleCodes": ["SF-NOPE"] }))
                ),
                "filter",
                "SF-NOPE",
            ),
            ("/exports/dashboard-deadlines.csv?asOf=2026-13-01", "asOf", "não existe"),
            ("/exports/dashboard-deadlines.csv?asOf=ontem", "asOf", "AAAA-MM-DD"),
            ("/exports/cartas.csv?sep=pipe", "sep", "semicolon"),
            ("/exports/cartas.csv?asOf=2025-06-30", "asOf", "tabelas do painel"),
            ("/exports/cartas.csv?colour=blue", "query", "colour"),
        ];
        for (path, field, words) in cases {
            let (status, b) = error(&app, path).await;
            assert_eq!(status, 400, "{path}: {b}");
            assert_eq!(
                (b["error"]["code"].as_str(), b["error"]["field"].as_str()),
                (Some("BAD_USER_INPUT"), Some(field)),
                "{path}: {b}"
            );
            assert!(
                b["error"]["message"].as_str().is_some_and(|m| m.contains(words)),
                "{path}: {b}"
            );
        }
        let (status, b) = error(&app, "/exports/borrowers.csv").await;
        assert_eq!((status, b["error"]["code"].as_str()), (404, Some("NOT_FOUND")), "{b}");
    })
    .await;
}
