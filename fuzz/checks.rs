//! What each fuzz target checks, shared with the ordinary tests (`tests/it/fuzz_corpus.rs` runs every file of
//! `fuzz/corpus/` and `fuzz/artifacts/` through these same functions, so a crash once found stays fixed). Each takes
//! raw bytes, as outside input arrives, and panics only on a broken promise.

#![allow(dead_code)]

use entity::domain::{
    document::{Cnpj, Cpf, Document},
    ibge::IbgeCode,
};
use jobs::report::{
    columns::{column_of, normalize},
    read::{Cell, Limits, read, split_csv},
    rows::{Municipalities, decimal_text, find_header, mask_personal, parse_date, parse_money, parse_rows},
};

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// CPF, CNPJ and IBGE codes: a parsed value prints as itself and parses again to the same value.
pub fn documents(data: &[u8]) {
    let s = text(data);
    if let Ok(d) = Document::parse(&s) {
        assert_eq!(Document::parse(&d.to_string()).ok(), Some(d.clone()), "{s:?}");
    }
    if let Ok(c) = Cpf::parse(&s) {
        assert_eq!(c.as_str().len(), 11, "{s:?}");
        assert_eq!(Cpf::parse(&c.to_string()).ok(), Some(c), "{s:?}");
    }
    if let Ok(c) = Cnpj::parse(&s) {
        assert_eq!(Cnpj::parse(&c.to_string()).ok(), Some(c), "{s:?}");
    }
    if let Ok(code) = IbgeCode::parse(&s) {
        assert_eq!(IbgeCode::parse(&code.to_string()).ok(), Some(code), "{s:?}");
    }
}

/// Money and dates as a bank writes them in a text cell, or as a number cell: never a panic, and money is never
/// negative nor past its centavos.
pub fn money_and_dates(data: &[u8]) {
    let s = text(data);
    let _ = decimal_text(&s);
    let mut cells = vec![Cell::Text(s.clone())];
    if data.len() >= 8 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&data[..8]);
        cells.push(Cell::Number(f64::from_le_bytes(b)));
        cells.push(Cell::Int(i64::from_le_bytes(b)));
    }
    for cell in &cells {
        if let Ok(m) = parse_money(cell) {
            assert!(m.cents() >= 0, "{cell:?} read as {m:?}");
        }
        let _ = parse_date(cell);
    }
}

/// A line of a CSV file, split on each separator a bank uses.
pub fn csv_line(data: &[u8]) {
    let s = text(data);
    for sep in [';', ',', '\t'] {
        let fields = split_csv(&s, sep);
        assert!(fields.len() <= s.len() + 1, "{s:?}");
    }
}

/// Header matching: a header names at most one column, whatever its accents, case and punctuation.
pub fn headers(data: &[u8]) {
    let s = text(data);
    let n = normalize(&s);
    assert_eq!(normalize(&n), n, "normalizing twice changes {s:?}");
    let _ = column_of(&s);
}

/// A whole file as a bank uploads it (xlsx, xls, ods or CSV): read within small limits, its header found, its rows
/// parsed and its personal data masked; never a panic, and no row past the limit.
pub fn sheet(data: &[u8]) {
    let limits = Limits {
        max_bytes: 1 << 20,
        max_rows: 2_000,
        max_unzipped_bytes: 8 << 20,
    };
    let Ok(mut rows) = read(data, &limits) else {
        return;
    };
    assert!(
        rows.len() <= limits.max_rows + 50,
        "{} rows read past a limit of {}",
        rows.len(),
        limits.max_rows
    );
    let Ok(header) = find_header(&rows) else {
        return;
    };
    let munis = Municipalities::new([(5107925, "Sorriso".to_owned()), (5103403, "Cuiabá".to_owned())]);
    let _ = parse_rows(&rows, &header, &munis);
    mask_personal(&mut rows, &header);
}

/// The graph's global IDs: what decodes encodes back to an ID that decodes the same.
pub fn graphql_id(data: &[u8]) {
    use fomento_api::graphql::ids::{decode, encode};
    let s = text(data);
    if let Some((kind, key)) = decode(&s) {
        assert_eq!(decode(&encode(kind, key).0), Some((kind, key)), "{s:?}");
    }
}

/// Masking: no CPF survives the scrub of a text.
pub fn scrub(data: &[u8]) {
    let s = text(data);
    let out = service::privacy::scrub_cpfs(&s);
    assert_eq!(service::privacy::scrub_cpfs(&out), out, "scrubbing twice changes {s:?}");
    let _ = service::privacy::initials(&s);
    let _ = service::privacy::mask_cpf(&s);
}

/// A check of one input.
pub type Check = fn(&[u8]);

/// Every check, by the name of its fuzz target.
pub const CHECKS: &[(&str, Check)] = &[
    ("documents", documents),
    ("money_and_dates", money_and_dates),
    ("csv_line", csv_line),
    ("headers", headers),
    ("sheet", sheet),
    ("graphql_id", graphql_id),
    ("scrub", scrub),
];
