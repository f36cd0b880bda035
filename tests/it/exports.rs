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
        let (status, ct, body) = get(&app, &format!("/exports/cartas.csv?filter={filter}")).await;
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
        let (status, ct, body) = get(&app, &format!("/exports/cartas.xlsx?filter={filter}")).await;
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
        let (_, _, body) = get(&app, "/exports/financings.csv?sep=semicolon&bom=true").await;
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
        let export = fomento_api::exports::build(&app.db, &service::Caller::System, "cartas", None, None)
            .await
            .expect("export");
        let path = std::env::temp_dir().join(format!("fomento-test-{}.xlsx", uuid::Uuid::new_v4()));
        let n = service::exports::write_xlsx(&app.db, &service::Caller::System, &export, &path, Some(100))
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
