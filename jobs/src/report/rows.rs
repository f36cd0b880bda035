//! From cells to typed rows (parse, don't validate): every problem becomes a row error naming the row, the column,
//! the value and what is wrong; a row with no problem becomes a [`ReportRow`].
//!
//! Size: one parser per column of the monthly list, each with its precise row error; alike by design.

use super::{
    columns::{Column, TEMPLATE, activity_of, column_of, is_template_notes_row, line_of, normalize},
    messages::{Message, code},
    read::Cell,
};
use chrono::{Duration, NaiveDate};
use entity::domain::IbgeCodeError;
use entity::domain::{Document, IbgeCode, Money, Uf};
use rust_decimal::Decimal;
use std::{
    collections::{HashMap, HashSet},
    str::FromStr,
};

/// Whether `t` is written as a date (`31/02/2026`, `2026-02-31`: three groups of digits, the year of four), so that
/// failing to read it means the day does not exist rather than a wrong way of writing it.
fn written_as_a_date(t: &str) -> bool {
    let parts: Vec<&str> = t.split(['/', '-', '.']).collect();
    let digits =
        |p: &str, n: std::ops::RangeInclusive<usize>| n.contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [d, m, y] if digits(d, 1..=2) && digits(m, 1..=2) && digits(y, 4..=4) => true,
        [y, m, d] if digits(y, 4..=4) && digits(m, 1..=2) && digits(d, 1..=2) => true,
        _ => false,
    }
}

/// How many rows from the top are searched for the header.
pub const HEADER_SCAN_ROWS: usize = 30;

/// Where the header is and which column is which.
#[derive(Debug, Clone)]
pub struct Header {
    /// Index of the header row (0-based; the sheet's row `row + 1`).
    pub row: usize,
    /// `(column index, column, header text as found)`.
    pub columns: Vec<(usize, Column, String)>,
}

impl Header {
    fn index(&self, c: Column) -> Option<usize> {
        self.columns.iter().find(|(_, col, _)| *col == c).map(|(i, ..)| *i)
    }

    fn name(&self, c: Column) -> String {
        self.columns
            .iter()
            .find(|(_, col, _)| *col == c)
            .map(|(_, _, n)| n.clone())
            .or_else(|| TEMPLATE.iter().find(|t| t.0 == c).map(|t| t.1.to_owned()))
            .unwrap_or_default()
    }
}

impl Header {
    /// Whether a column, by the header text found in the file, holds personal data (the borrower's name or
    /// document): `Some(true)` for the name, `Some(false)` for the document.
    pub fn personal_column(header: &str) -> Option<bool> {
        match super::columns::column_of(header)? {
            Column::Borrower => Some(true),
            Column::Document => Some(false),
            _ => None,
        }
    }
}

/// Masks the personal data of the sheet's rows below `header`: a row whose document is a CPF (eleven digits, or a
/// number of at most eleven, as a spreadsheet keeps a CPF typed without punctuation) gets its CPF masked and its
/// borrower's name as initials; a company's row (CNPJ) is left as it is.
pub fn mask_personal(rows: &mut [Vec<Cell>], header: &Header) {
    let (Some(doc), name) = (header.index(Column::Document), header.index(Column::Borrower)) else {
        return;
    };
    for row in rows.iter_mut().skip(header.row + 1) {
        let digits = |t: &str| t.chars().filter(char::is_ascii_digit).count();
        let cpf = match row.get(doc) {
            Some(Cell::Text(t)) => digits(t) == 11,
            Some(Cell::Int(n)) => (0..100_000_000_000).contains(n),
            Some(Cell::Number(n)) => n.fract() == 0.0 && (0.0..1e11).contains(n),
            _ => false,
        };
        if !cpf {
            continue;
        }
        let text = match &row[doc] {
            Cell::Text(t) => t.clone(),
            Cell::Int(n) => format!("{n:011}"),
            Cell::Number(n) => format!("{:011}", *n as i64),
            _ => String::new(),
        };
        row[doc] = Cell::Text(service::privacy::mask_cpf(&text));
        if let Some(Cell::Text(n)) = name.and_then(|i| row.get_mut(i)) {
            *n = service::privacy::initials(n);
        }
    }
}

/// Finds the header among the first rows: the row that names the most known columns, which must include every
/// required one (and either the IBGE code or the municipality with its UF).
pub fn find_header(rows: &[Vec<Cell>]) -> Result<Header, Message> {
    let mut best: Option<Header> = None;
    for (i, row) in rows.iter().take(HEADER_SCAN_ROWS).enumerate() {
        let mut columns = Vec::new();
        for (j, cell) in row.iter().enumerate() {
            if let Cell::Text(t) = cell
                && let Some(c) = column_of(t)
                && !columns.iter().any(|(_, col, _): &(usize, Column, String)| *col == c)
            {
                columns.push((j, c, t.trim().to_owned()));
            }
        }
        if best.as_ref().is_none_or(|b| columns.len() > b.columns.len()) {
            best = Some(Header { row: i, columns });
        }
    }
    let Some(h) = best.filter(|h| h.columns.len() >= 2) else {
        return Err(Message::new(code::HEADER_NOT_FOUND)
            .arg("rows", HEADER_SCAN_ROWS)
            .arg("headers", TEMPLATE.iter().map(|t| t.1).collect::<Vec<_>>().join(", ")));
    };
    let mut missing: Vec<&str> = TEMPLATE
        .iter()
        .filter(|(c, _, req, ..)| *req && h.index(*c).is_none())
        .map(|t| t.1)
        .collect();
    if h.index(Column::IbgeCode).is_none() && (h.index(Column::Municipality).is_none() || h.index(Column::Uf).is_none())
    {
        missing.push("Código IBGE / Município + UF");
    }
    if !missing.is_empty() {
        return Err(Message::new(code::HEADER_INCOMPLETE)
            .arg("row", h.row + 1)
            .arg("columns", missing.join(", ")));
    }
    Ok(h)
}

/// Municipalities known to Fomento, by code and by (UF, normalised name).
#[derive(Debug, Clone, Default)]
pub struct Municipalities {
    codes: HashSet<i32>,
    names: HashMap<(Uf, String), i32>,
}

impl Municipalities {
    /// From `(code, name)` pairs.
    pub fn new(rows: impl IntoIterator<Item = (i32, String)>) -> Self {
        let mut m = Self::default();
        for (code, name) in rows {
            m.codes.insert(code);
            if let Some(c) = u32::try_from(code).ok().and_then(|c| IbgeCode::new(c).ok()) {
                m.names.insert((c.uf(), normalize(&name)), code);
            }
        }
        m
    }
}

/// A row that parsed, and a problem on a row: the types the ingestion's use case takes.
pub use service::ingestion::{ReportRow, RowError};

/// A number as a person writes it, in Brazilian (`1.234.567,89`, `R$ 12,5`) or plain (`1234567.89`) form, as text
/// `Decimal` parses: the last of `.` and `,` is the decimal separator, a lone `.` before three digits groups thousands.
pub fn decimal_text(t: &str) -> String {
    let t: String = t
        .trim()
        .trim_start_matches("R$")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{a0}')
        .collect();
    let (dots, commas) = (t.matches('.').count(), t.matches(',').count());
    match (dots, commas) {
        (_, 0) if dots > 1 => t.replace('.', ""),
        (1, 0) if t.split('.').nth(1).is_some_and(|d| d.len() == 3) && !t.starts_with("0.") => t.replace('.', ""),
        (_, 0) => t,
        (0, 1) => t.replace(',', "."),
        _ => {
            // Both: the last one is the decimal separator.
            let last_comma = t.rfind(',').unwrap_or(0);
            let last_dot = t.rfind('.').unwrap_or(0);
            if last_comma > last_dot {
                t.replace('.', "").replace(',', ".")
            } else {
                t.replace(',', "")
            }
        }
    }
}

/// Money in Brazilian (`R$ 1.234.567,89`) or plain (`1234567.89`) form, or a number cell; at most two decimals.
pub fn parse_money(cell: &Cell) -> Result<Money, Message> {
    let text = match cell {
        Cell::Number(f) if f.is_finite() => f.to_string(),
        Cell::Int(i) => i.to_string(),
        Cell::Text(t) => decimal_text(t),
        Cell::Empty => return Err(Message::new(code::AMOUNT_MISSING)),
        other => return Err(Message::new(code::AMOUNT_NOT_A_CELL).arg("value", format!("{:?}", other.display()))),
    };
    let d = Decimal::from_str(&text).map_err(|_| Message::new(code::AMOUNT_INVALID))?;
    if d.is_sign_negative() && !d.is_zero() {
        return Err(Message::new(code::AMOUNT_NEGATIVE));
    }
    let d = d.normalize();
    Money::from_decimal(d).map_err(|_| Message::new(code::AMOUNT_DECIMALS))
}

/// A date as `dd/mm/aaaa`, ISO `aaaa-mm-dd`, a date cell, or an Excel serial (1900 system; date cells in the 1904
/// system arrive already converted).
pub fn parse_date(cell: &Cell) -> Result<NaiveDate, Message> {
    let serial = |n: f64| -> Result<NaiveDate, Message> {
        let base = NaiveDate::from_ymd_opt(1899, 12, 30).unwrap_or_default();
        // A huge or non-finite number is no date either (found by fuzzing: `1e300` overflowed the addition).
        let date = (n.is_finite() && n.abs() < 1e7)
            .then(|| Duration::try_days(n.trunc() as i64))
            .flatten()
            .and_then(|days| base.checked_add_signed(days));
        let d = date.unwrap_or(base);
        if date.is_some() && (1990..=2100).contains(&chrono::Datelike::year(&d)) {
            Ok(d)
        } else {
            Err(Message::new(code::DATE_SERIAL).arg("value", n).arg(
                "date",
                date.map_or_else(|| "—".to_owned(), |d| d.format("%d/%m/%Y").to_string()),
            ))
        }
    };
    match cell {
        Cell::Date(d) => Ok(*d),
        Cell::Number(f) => serial(*f),
        Cell::Int(i) => serial(*i as f64),
        Cell::Text(t) => {
            let t = t.trim();
            let t = t.split_whitespace().next().unwrap_or(t);
            for fmt in ["%d/%m/%Y", "%Y-%m-%d", "%d-%m-%Y", "%d.%m.%Y"] {
                if let Ok(d) = NaiveDate::parse_from_str(t, fmt) {
                    return Ok(d);
                }
            }
            if let Ok(n) = t.parse::<f64>() {
                return serial(n);
            }
            if written_as_a_date(t) {
                return Err(Message::new(code::DAY_DOES_NOT_EXIST).arg("value", t));
            }
            Err(Message::new(code::DATE_INVALID))
        }
        Cell::Empty => Err(Message::new(code::DATE_MISSING)),
        other => Err(Message::new(code::DATE_NOT_A_CELL).arg("value", format!("{:?}", other.display()))),
    }
}

fn parse_months(cell: &Cell) -> Result<Option<i32>, Message> {
    let v = match cell {
        Cell::Empty => return Ok(None),
        Cell::Int(i) => *i as f64,
        Cell::Number(f) => *f,
        Cell::Text(t) if t.trim().is_empty() => return Ok(None),
        Cell::Text(t) => t
            .trim()
            .parse::<f64>()
            .map_err(|_| Message::new(code::MONTHS_INVALID))?,
        _ => return Err(Message::new(code::MONTHS_INVALID)),
    };
    if v.fract() != 0.0 || !(0.0..=600.0).contains(&v) {
        return Err(Message::new(code::MONTHS_RANGE));
    }
    Ok(Some(v as i32))
}

fn parse_document(cell: &Cell) -> Result<Document, Message> {
    let text = match cell {
        Cell::Text(t) => t.trim().to_owned(),
        // A CPF stored as a number loses its leading zeros.
        Cell::Int(i) if *i > 0 => pad(i.to_string()),
        Cell::Number(f) if f.fract() == 0.0 && *f > 0.0 => pad(format!("{f:.0}")),
        Cell::Empty => return Err(Message::new(code::DOCUMENT_MISSING)),
        other => return Err(Message::new(code::DOCUMENT_NOT_A_CELL).arg("value", format!("{:?}", other.display()))),
    };
    Document::parse(&text).map_err(|e| service::messages::document(&e))
}

fn pad(digits: String) -> String {
    if digits.len() <= 11 {
        format!("{digits:0>11}")
    } else {
        format!("{digits:0>14}")
    }
}

fn text(cell: &Cell) -> Option<String> {
    match cell {
        Cell::Text(t) if !t.trim().is_empty() => Some(t.trim().to_owned()),
        Cell::Int(i) => Some(i.to_string()),
        Cell::Number(f) if f.fract() == 0.0 => Some(format!("{f:.0}")),
        _ => None,
    }
}

/// A required cell that names one of a list's values (a line, an activity), read by `of`: `missing` when it is blank,
/// `invalid` when `of` does not know the name.
fn named<T>(cell: &Cell, of: fn(&str) -> Option<T>, missing: &str, invalid: &str) -> Result<T, Message> {
    let name = text(cell).ok_or_else(|| Message::new(missing))?;
    of(&name).ok_or_else(|| Message::new(invalid))
}

/// Parses every data row below the header, collecting every error (not just the first).
pub fn parse_rows(rows: &[Vec<Cell>], header: &Header, munis: &Municipalities) -> (Vec<ReportRow>, Vec<RowError>) {
    let mut good = Vec::new();
    let mut errors = Vec::new();
    for (i, row) in rows.iter().enumerate().skip(header.row + 1) {
        match parse_row(i, row, header, munis) {
            Some(Ok(r)) => good.push(r),
            Some(Err(e)) => errors.extend(e),
            None => {}
        }
    }
    (good, errors)
}

/// Parses one data row (`i` is its 0-based index in the sheet); `None` for a blank row.
pub fn parse_row(
    i: usize,
    row: &[Cell],
    header: &Header,
    munis: &Municipalities,
) -> Option<Result<ReportRow, Vec<RowError>>> {
    let empty = Cell::Empty;
    if row.iter().all(Cell::is_blank) || (i == header.row + 1 && is_template_notes_row(row)) {
        return None;
    }
    let n = (i + 1) as u32;
    let get = |c: Column| header.index(c).and_then(|j| row.get(j)).unwrap_or(&empty);
    let mut row_errors = Vec::new();
    let mut err = |c: Column, message: Message| {
        let v = get(c).display();
        row_errors.push(RowError {
            row: n,
            column: Some(header.name(c)),
            value: (!v.is_empty()).then_some(v),
            message,
            rule_code: None,
        });
    };
    let carta_number = text(get(Column::CartaNumber));
    match &carta_number {
        None => err(Column::CartaNumber, Message::new(code::CARTA_MISSING)),
        Some(n) if n.chars().any(char::is_control) => err(Column::CartaNumber, Message::new(code::CARTA_CONTROL)),
        Some(_) => {}
    }
    let borrower = text(get(Column::Borrower));
    match &borrower {
        None => err(Column::Borrower, Message::new(code::BORROWER_MISSING)),
        Some(b) if b.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r')) => {
            err(Column::Borrower, Message::new(code::BORROWER_CONTROL))
        }
        Some(_) => {}
    }
    let document = parse_document(get(Column::Document))
        .map_err(|m| err(Column::Document, m))
        .ok();
    let municipality = match text(get(Column::IbgeCode)) {
        Some(code) => match IbgeCode::parse(&code) {
            Ok(c) if munis.codes.contains(&(c.value() as i32)) => Some(c.value() as i32),
            Ok(_) => {
                err(Column::IbgeCode, Message::new(code::IBGE_UNKNOWN));
                None
            }
            Err(e) => {
                let m = match e {
                    IbgeCodeError::BadFormat(v) => Message::new(code::IBGE_LENGTH).arg("value", format!("{v:?}")),
                    IbgeCodeError::UnknownUf(v) => Message::new(code::IBGE_UF).arg("value", v),
                };
                err(Column::IbgeCode, m);
                None
            }
        },
        None => match (text(get(Column::Municipality)), text(get(Column::Uf))) {
            (Some(name), Some(uf)) => match Uf::from_abbreviation(&uf) {
                Some(uf) => match munis.names.get(&(uf, normalize(&name))) {
                    Some(code) => Some(*code),
                    None => {
                        err(
                            Column::Municipality,
                            Message::new(code::MUNICIPALITY_UNKNOWN).arg("uf", uf.abbreviation()),
                        );
                        None
                    }
                },
                None => {
                    err(Column::Uf, Message::new(code::UF_INVALID));
                    None
                }
            },
            _ => {
                err(Column::Municipality, Message::new(code::MUNICIPALITY_MISSING));
                None
            }
        },
    };
    if let Some(code) = municipality
        && code / 100_000 != 51
    {
        err(Column::Municipality, Message::new(code::MUNICIPALITY_OUTSIDE_MT));
    }
    let line = named(get(Column::Line), line_of, code::LINE_MISSING, code::LINE_INVALID)
        .map_err(|m| err(Column::Line, m))
        .ok();
    let activity = named(
        get(Column::Activity),
        activity_of,
        code::ACTIVITY_MISSING,
        code::ACTIVITY_INVALID,
    )
    .map_err(|m| err(Column::Activity, m))
    .ok();
    let financed = parse_money(get(Column::Financed))
        .map_err(|m| err(Column::Financed, m))
        .ok();
    let contracted = match get(Column::Contracted) {
        c if c.is_blank() => None,
        c => parse_money(c).map_err(|m| err(Column::Contracted, m)).ok(),
    };
    let approved_on = parse_date(get(Column::ApprovedOn))
        .map_err(|m| err(Column::ApprovedOn, m))
        .ok();
    let mut optional_date = |c: Column| match get(c) {
        v if v.is_blank() => None,
        v => parse_date(v).map_err(|m| err(c, m)).ok(),
    };
    let contracted_on = optional_date(Column::ContractedOn);
    let presented_on = optional_date(Column::PresentedOn);
    // Each pair: (the column of the date that may not come first, its name, its day), the earlier's name and day.
    let ordered = [
        (
            Column::ContractedOn,
            code::CONTRACTED_BEFORE_APPROVAL,
            ("contracted", contracted_on),
            ("approved", approved_on),
        ),
        (
            Column::PresentedOn,
            code::PRESENTED_BEFORE_APPROVAL,
            ("presented", presented_on),
            ("approved", approved_on),
        ),
        (
            Column::PresentedOn,
            code::PRESENTED_AFTER_CONTRACT,
            ("contracted", contracted_on),
            ("presented", presented_on),
        ),
    ];
    for (column, message, (later_name, later), (earlier_name, earlier)) in ordered {
        if let (Some(l), Some(e)) = (later, earlier)
            && l < e
        {
            let day = |d: NaiveDate| d.format("%d/%m/%Y");
            err(
                column,
                Message::new(message).arg(later_name, day(l)).arg(earlier_name, day(e)),
            );
        }
    }
    let term = parse_months(get(Column::TermMonths))
        .map_err(|m| err(Column::TermMonths, m))
        .ok()
        .flatten();
    let grace = parse_months(get(Column::GraceMonths))
        .map_err(|m| err(Column::GraceMonths, m))
        .ok()
        .flatten();
    if let (Some(t), Some(g)) = (term, grace)
        && g > t
    {
        err(
            Column::GraceMonths,
            Message::new(code::GRACE_OVER_TERM).arg("grace", g).arg("term", t),
        );
    }
    if row_errors.is_empty()
        && let (
            Some(carta_number),
            Some(borrower),
            Some(document),
            Some(municipality),
            Some(line),
            Some(activity),
            Some(financed),
            Some(approved_on),
        ) = (
            carta_number,
            borrower,
            document,
            municipality,
            line,
            activity,
            financed,
            approved_on,
        )
    {
        return Some(Ok(ReportRow {
            row: n,
            carta_number,
            borrower,
            document,
            municipality,
            line,
            activity,
            financed,
            contracted,
            approved_on,
            contracted_on,
            presented_on,
            term_months: term,
            grace_months: grace,
        }));
    }
    Some(Err(row_errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_in_every_usual_form() {
        let cases: &[(Cell, Result<i64, &str>)] = &[
            (Cell::Text("R$ 1.234.567,89".into()), Ok(123_456_789)),
            (Cell::Text("1234567.89".into()), Ok(123_456_789)),
            (Cell::Text("1,234,567.89".into()), Ok(123_456_789)),
            (Cell::Text("R$ 864.791,52".into()), Ok(86_479_152)),
            (Cell::Text("1.234".into()), Ok(123_400)),
            (Cell::Text("0.5".into()), Ok(50)),
            (Cell::Text("12,5".into()), Ok(1_250)),
            (Cell::Number(85430.6), Ok(8_543_060)),
            (Cell::Int(100), Ok(10_000)),
            (Cell::Text("10,005".into()), Err("more than two decimal places")),
            (Cell::Text("-5".into()), Err("negative")),
            (Cell::Text("abc".into()), Err("not an amount")),
            (Cell::Empty, Err("missing")),
        ];
        for (cell, expected) in cases {
            match (parse_money(cell), expected) {
                (Ok(m), Ok(c)) => assert_eq!(m.cents(), *c, "{cell:?}"),
                (Err(e), Err(frag)) => assert!(
                    e.render(super::super::messages::Lang::En).contains(frag),
                    "{cell:?}: {e}"
                ),
                (got, _) => panic!("{cell:?}: {got:?}"),
            }
        }
    }

    #[test]
    fn dates_in_every_usual_form() {
        let d = NaiveDate::from_ymd_opt(2019, 5, 30).expect("date");
        for cell in [
            Cell::Text("30/05/2019".into()),
            Cell::Text("2019-05-30".into()),
            Cell::Text("30/05/2019 00:00".into()),
            Cell::Date(d),
            Cell::Number(43615.0),
            Cell::Int(43615),
            Cell::Text("43615".into()),
        ] {
            assert_eq!(parse_date(&cell), Ok(d), "{cell:?}");
        }
        // Written as a date, but the day does not exist: said so, not "write dd/mm/aaaa".
        for text in ["31/02/2019", "2019-02-31", "30/13/2019"] {
            let e = parse_date(&Cell::Text(text.into())).expect_err(text);
            assert_eq!(
                e.render(super::super::messages::Lang::PtBr),
                format!("{text}: esse dia não existe no calendário")
            );
        }
        assert!(
            parse_date(&Cell::Text("trinta de maio".into()))
                .is_err_and(|e| e.render(super::super::messages::Lang::PtBr) == "não é uma data: escreva dd/mm/aaaa")
        );
        assert!(
            parse_date(&Cell::Number(5.0))
                .is_err_and(|e| e.render(super::super::messages::Lang::En).contains("not a date"))
        );
    }

    #[test]
    fn numeric_cpfs_get_their_leading_zeros_back() {
        let cpf = entity::domain::document::cpf_with_check_digits("012345678").expect("valid");
        let n: i64 = cpf.as_str().parse().expect("digits");
        assert_eq!(
            parse_document(&Cell::Int(n)).map(|d| d.as_str().to_owned()),
            Ok(cpf.as_str().to_owned())
        );
    }
}

#[cfg(test)]
mod sample_tests {
    use super::*;
    use crate::report::read::{Limits, read};

    fn munis() -> Municipalities {
        let csv = include_str!("../../../migration/data/municipios.csv");
        Municipalities::new(csv.lines().skip(1).filter_map(|l| {
            let (c, n) = l.split_once(',')?;
            Some((c.parse().ok()?, n.to_owned()))
        }))
    }

    /// A carta number is a key (the ingestion's lookups join keys with U+001F) and PostgreSQL text holds no NUL: a
    /// control character in either is the row's error, naming the column.
    #[test]
    fn control_characters_in_carta_numbers_and_names_are_row_errors() {
        let headers = [
            "Nº da Carta-Consulta",
            "Tomador",
            "CPF/CNPJ",
            "Município",
            "UF",
            "Programa/Linha",
            "Atividade",
            "Finalidade",
            "Valor Financiado (R$)",
            "Data de Aprovação",
            "Data de Contratação",
            "Prazo (meses)",
            "Carência (meses)",
        ];
        let t = |s: &str| Cell::Text(s.into());
        let row = |number: &str, name: &str| {
            [
                number,
                name,
                "111.444.777-35",
                "Sorriso",
                "MT",
                "FCO Rural",
                "Piscicultura",
                "Investimento",
            ]
            .into_iter()
            .chain(["1.000,00", "18/04/2019", "30/05/2019", "120", "12"])
            .map(t)
            .collect::<Vec<_>>()
        };
        let rows = vec![
            headers.into_iter().map(t).collect(),
            row("OK-1", "Produtor\nRural"),
            row("A\u{1f}B", "Produtor"),
            row("OK-2", "Pro\0dutor"),
        ];
        let header = find_header(&rows).expect("header");
        let (good, errors) = parse_rows(&rows, &header, &munis());
        assert_eq!(good.len(), 1, "{errors:?}");
        for (row, column) in [(3, "Nº da Carta-Consulta"), (4, "Tomador")] {
            assert!(
                errors.iter().any(|e| e.row == row
                    && e.column.as_deref() == Some(column)
                    && e.message
                        .render(super::super::messages::Lang::En)
                        .contains("control character")),
                "row {row}: {errors:?}"
            );
        }
    }

    /// Dates out of order and a line or activity missing or unknown: each a row error on its column, in Portuguese,
    /// naming both days.
    #[test]
    fn dates_out_of_order_and_unknown_names_are_row_errors_on_their_column() {
        let headers = [
            "Nº da Carta-Consulta",
            "Tomador",
            "CPF/CNPJ",
            "Município",
            "UF",
            "Programa/Linha",
            "Atividade",
            "Valor Financiado (R$)",
            "Data de Aprovação",
            "Data de Contratação",
            "Data de Apresentação do Projeto",
        ];
        let t = |s: &str| Cell::Text(s.into());
        let row = |number: &str, line: &str, activity: &str, contracted: &str, presented: &str| {
            [
                number,
                "Produtor",
                "111.444.777-35",
                "Sorriso",
                "MT",
                line,
                activity,
                "1.000,00",
            ]
            .into_iter()
            .chain(["18/04/2019", contracted, presented])
            .map(t)
            .collect::<Vec<_>>()
        };
        let rows = vec![
            headers.into_iter().map(t).collect(),
            row("OK", "FCO Rural", "Piscicultura", "30/05/2019", "20/04/2019"),
            row("C", "FCO Rural", "Piscicultura", "17/04/2019", ""),
            row("P", "FCO Rural", "Piscicultura", "", "17/04/2019"),
            row("PC", "FCO Rural", "Piscicultura", "30/05/2019", "31/05/2019"),
            row("L", "", "Cultivo de nuvens", "", ""),
        ];
        let header = find_header(&rows).expect("header");
        let (good, errors) = parse_rows(&rows, &header, &munis());
        assert_eq!(good.len(), 1, "{errors:?}");
        let pt = super::super::messages::Lang::PtBr;
        for (row, column, text) in [
            (
                3,
                "Data de Contratação",
                "contratada em 17/04/2019, antes da aprovação em 18/04/2019",
            ),
            (
                4,
                "Data de Apresentação do Projeto",
                "apresentado em 17/04/2019, antes da aprovação em 18/04/2019",
            ),
            (
                5,
                "Data de Apresentação do Projeto",
                "apresentado em 31/05/2019, depois da contratação em 30/05/2019",
            ),
            (6, "Programa/Linha", "a linha do programa está faltando"),
            (6, "Atividade", "não é uma atividade conhecida"),
        ] {
            let on = |e: &&RowError| e.row == row && e.column.as_deref() == Some(column);
            let found: Vec<String> = errors.iter().filter(on).map(|e| e.message.render(pt)).collect();
            assert!(
                found.iter().any(|m| m.contains(text)),
                "row {row}, {column}: {found:?} in {errors:?}"
            );
        }
        assert_eq!(errors.iter().filter(|e| e.row == 6).count(), 2, "{errors:?}");
    }

    /// Reads the LibreOffice samples in `../shared/data/sheets/` when present.
    #[test]
    fn the_libreoffice_samples_parse_row_by_row() {
        for name in ["bank-report-sample.xls", "bank-report-sample.ods"] {
            let path = format!("{}/../../shared/data/sheets/{name}", env!("CARGO_MANIFEST_DIR"));
            let Ok(bytes) = std::fs::read(&path) else {
                eprintln!("SKIPPED: {path} is absent; the sample sheets were not read");
                continue;
            };
            let rows = read(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let header = find_header(&rows).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(header.row, 2, "{name}: headers on row 3");
            let (good, errors) = parse_rows(&rows, &header, &munis());
            eprintln!("{name}: {} rows, {} errors: {errors:?}", good.len(), errors.len());
            assert!(!good.is_empty(), "{name}");
            assert_eq!(good[0].carta_number, "MT-2019-10000");
            assert_eq!(good[0].financed.cents(), 86_479_152, "{name}: R$ 864.791,52 as text");
        }
    }
}
