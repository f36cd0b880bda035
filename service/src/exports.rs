//! Exports for analysts: the flag list, the financings and the FCO cartas, row by row, as CSV (UTF-8, `,` or the `;`
//! Brazilian Excel expects, with an optional BOM) or XLSX (typed cells: numbers as numbers, dates as dates, money
//! with two decimals, an autofilter on the header, a new sheet past Excel's 1,048,576 rows). Rows are read a page at
//! a time by key and written as they come, so memory stays bounded however many there are; the doors (`GET
//! /exports/{name}.{csv|xlsx}`, `fomento export`) only choose where the bytes go.
//!
//! Size: three exports in two formats sharing one writer per format, so that a column is written alike in CSV and XLSX.

use crate::messages::Lang;
use crate::{
    Caller, ServiceError,
    financings::{self, Query},
    flags::FlagFilter,
};
use entity::{
    compliance_flag,
    domain::{Authority, Money},
    fco_carta, financing, municipality, party,
    vocab::Programme,
};
use rust_decimal::Decimal;
use sea_orm::{
    ActiveEnum, ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, QueryTrait,
};
use std::{collections::HashMap, io::Write};

type Result<T> = std::result::Result<T, ServiceError>;

/// Rows per statement.
const PAGE: u64 = 1000;

/// What can be exported.
#[derive(Debug, Clone)]
pub enum Export {
    /// Compliance flags (`flags`), filtered as `complianceFlags`.
    Flags(FlagFilter),
    /// Financings of both programmes (`financings`), filtered as `financings`.
    Financings(Query),
    /// FCO cartas (`cartas`), filtered as `financings` (FCO only).
    Cartas(Query),
    /// A table of the dashboard (`dashboard-{name}`).
    Table(crate::dashboard::Table),
}

/// The names `GET /exports/{name}` and `fomento export NAME` know.
pub const NAMES: &[&str] = &["flags", "financings", "cartas"];

pub use crate::cell::Cell;

fn text(s: impl Into<String>) -> Cell {
    Cell::Text(s.into())
}

fn opt<T>(v: Option<T>, f: impl FnOnce(T) -> Cell) -> Cell {
    v.map_or(Cell::Empty, f)
}

fn enum_text<E: ActiveEnum<Value = String>>(e: &E) -> Cell {
    Cell::Text(e.to_value())
}

impl Export {
    /// Its sheet name (at most 31 characters, as Excel allows).
    pub fn name(&self) -> String {
        match self {
            Self::Flags(_) => "flags".into(),
            Self::Financings(_) => "financings".into(),
            Self::Cartas(_) => "cartas".into(),
            Self::Table(t) => t.name.chars().take(28).collect(),
        }
    }

    /// The header row as `wording` asks: the columns' headers in a language, or their codes.
    pub fn header(&self, wording: Wording) -> Vec<String> {
        let columns = self.columns();
        match wording {
            Wording::Codes => columns,
            Wording::People(lang) => columns.iter().map(|c| crate::labels::header(c, lang)).collect(),
        }
    }

    /// The rows as `wording` asks: a coded value (`CONTRACTED`, `VIOLATION`) as people read it in their language, or
    /// as stored.
    pub fn worded(&self, wording: Wording, rows: &mut [Vec<Cell>]) {
        let Wording::People(lang) = wording else {
            return;
        };
        let columns = self.columns();
        for row in rows {
            for (cell, column) in row.iter_mut().zip(&columns) {
                if let Cell::Text(code) = cell
                    && let Some(v) = crate::labels::value(column, code, lang)
                {
                    *code = v;
                }
            }
        }
    }

    /// The column codes (`rule_code`).
    pub fn columns(&self) -> Vec<String> {
        let fixed: &[&str] = match self {
            Self::Table(t) => return t.columns.clone(),
            Self::Flags(_) => &[
                "number",
                "rule_code",
                "severity",
                "programme",
                "subject_kind",
                "subject_id",
                "occurrence",
                "due_on",
                "raised_at",
                "resolved_at",
                "resolved_by",
                "resolution",
                "source",
                "legal_basis",
                "message",
            ],
            Self::Financings(_) => &[
                "programme",
                "id",
                "bank",
                "borrower_document",
                "borrower",
                "municipality_code",
                "municipality",
                "amount",
                "status",
                "submitted_on",
                "decided_on",
                "contracted_on",
            ],
            Self::Cartas(_) => &[
                "id",
                "number",
                "bank",
                "borrower_document",
                "borrower",
                "municipality_code",
                "municipality",
                "line",
                "activity",
                "amount",
                "stage",
                "submitted_on",
                "decided_by",
                "decided_on",
                "approved_on",
                "contracted_on",
                "contracted_amount",
            ],
        };
        fixed.iter().map(|h| (*h).to_owned()).collect()
    }
}

/// How an export is worded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wording {
    /// For people: headers and coded values in a language (Portuguese by default).
    People(Lang),
    /// For scripts: column codes (`rule_code`) and values as stored (`CONTRACTED`), stable across releases.
    Codes,
}

impl Wording {
    /// The language of the texts a row carries (a flag's message): the people's, Portuguese for scripts (a message
    /// is no code).
    pub fn lang(self) -> Lang {
        match self {
            Self::People(lang) => lang,
            Self::Codes => Lang::PtBr,
        }
    }
}

impl Default for Wording {
    fn default() -> Self {
        Self::People(Lang::PtBr)
    }
}

/// Where the reading stands: the last key read.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cursor {
    programme: u8,
    after: i64,
    done: bool,
}

/// Names of the banks, borrowers and municipalities of a page, read once per page.
struct Names {
    banks: HashMap<i64, String>,
    parties: HashMap<i64, party::Model>,
    towns: HashMap<i32, String>,
}

async fn names(
    db: &impl ConnectionTrait,
    caller: &Caller,
    banks: Vec<i64>,
    parties: Vec<i64>,
    towns: Vec<i32>,
) -> Result<Names> {
    let mut parties = crate::facts::parties(db, &parties).await?;
    if let crate::caller::Scope::Bank(_) = caller.scope() {
        // A bank reads its borrowers under the names it filed itself (`crate::visible::as_filed`).
        let seen = crate::visible::parties(db, caller, parties.into_values().collect()).await?;
        parties = seen.into_iter().map(|p| (p.id, p.into_inner())).collect();
    }
    Ok(Names {
        banks: crate::facts::banks(db, &banks)
            .await?
            .into_iter()
            .map(|(k, b)| (k, b.code))
            .collect(),
        parties,
        towns: crate::facts::municipalities(db, &towns)
            .await?
            .into_iter()
            .map(|(k, m): (i32, municipality::Model)| (k, m.name))
            .collect(),
    })
}

impl Names {
    fn bank(&self, id: i64) -> Cell {
        self.banks.get(&id).map_or(Cell::Empty, |c| text(c.clone()))
    }
    /// A party's document and name as `caller` may see them on a row of `programme` (a person's masked for a caller
    /// without the right: `crate::privacy`).
    fn party(&self, caller: &Caller, programme: Programme, id: i64) -> (Cell, Cell) {
        self.parties.get(&id).map_or((Cell::Empty, Cell::Empty), |p| {
            let (doc, name) = crate::privacy::shown(caller, p, &[programme], p.document.clone());
            (text(doc), text(name))
        })
    }
    fn town(&self, code: i32) -> Cell {
        self.towns.get(&code).map_or(Cell::Empty, |n| text(n.clone()))
    }
}

/// The next page of rows after `cursor` (none when every row was read).
pub async fn next_page(
    db: &impl ConnectionTrait,
    caller: &Caller,
    export: &Export,
    wording: Wording,
    cursor: &mut Cursor,
) -> Result<Option<Vec<Vec<Cell>>>> {
    if cursor.done {
        return Ok(None);
    }
    let rows = match export {
        Export::Flags(filter) => flags_page(db, filter, wording.lang(), cursor).await?,
        Export::Financings(q) => financings_page(db, caller, q, cursor).await?,
        Export::Cartas(q) => cartas_page(db, caller, q, cursor).await?,
        Export::Table(t) if cursor.after == 0 => {
            cursor.after = 1;
            t.rows.clone()
        }
        Export::Table(_) => Vec::new(),
    };
    if rows.is_empty() {
        cursor.done = true;
        return Ok(None);
    }
    Ok(Some(rows))
}

async fn flags_page(
    db: &impl ConnectionTrait,
    filter: &FlagFilter,
    lang: Lang,
    cursor: &mut Cursor,
) -> Result<Vec<Vec<Cell>>> {
    use compliance_flag::Column as C;
    let page = compliance_flag::Entity::find()
        .filter(filter.condition())
        .filter(C::Id.gt(cursor.after))
        .order_by_asc(C::Id)
        .limit(PAGE)
        .all(db)
        .await?;
    if let Some(last) = page.last() {
        cursor.after = last.id;
    }
    Ok(page
        .into_iter()
        .map(|f| {
            // Rendered when read, in the export's language (stored as a message id and values, or as text).
            let message = crate::l10n::flag_message(&f, lang);
            let resolution = crate::l10n::flag_resolution(&f, lang);
            vec![
                Cell::Int(f.id),
                text(f.rule_code),
                text(f.severity),
                enum_text(&f.programme),
                text(f.subject_kind),
                Cell::Int(f.subject_id),
                text(f.occurrence),
                opt(f.due_on, Cell::Date),
                Cell::Time(f.raised_at),
                opt(f.resolved_at, Cell::Time),
                opt(f.resolved_by, text),
                opt(resolution, text),
                text(f.source),
                Cell::Text(crate::l10n::legal_basis(&f.legal_basis, lang)),
                text(message),
            ]
        })
        .collect())
}

async fn financings_page(
    db: &impl ConnectionTrait,
    caller: &Caller,
    q: &Query,
    cursor: &mut Cursor,
) -> Result<Vec<Vec<Cell>>> {
    use financing::Column as C;
    let programmes = [Programme::SocialFuel, Programme::FcoRural];
    while let Some(programme) = programmes.get(usize::from(cursor.programme)) {
        let page = financing::Entity::find()
            .filter(financings::condition_of(q)?)
            .filter(C::Programme.eq(*programme))
            .filter(C::RecordId.gt(cursor.after))
            .order_by_asc(C::RecordId)
            .limit(PAGE)
            .all(db)
            .await?;
        let Some(last) = page.last() else {
            cursor.programme += 1;
            cursor.after = 0;
            continue;
        };
        cursor.after = last.record_id;
        let n = names(
            db,
            caller,
            page.iter().map(|f| f.bank_id).collect(),
            page.iter().map(|f| f.party_id).collect(),
            page.iter().map(|f| f.municipality_code).collect(),
        )
        .await?;
        return Ok(page
            .into_iter()
            .map(|f| {
                let (doc, name) = n.party(caller, f.programme, f.party_id);
                vec![
                    enum_text(&f.programme),
                    Cell::Int(f.record_id),
                    n.bank(f.bank_id),
                    doc,
                    name,
                    Cell::Int(i64::from(f.municipality_code)),
                    n.town(f.municipality_code),
                    Cell::Money(f.amount.cents()),
                    enum_text(&f.status),
                    opt(f.submitted_on, Cell::Date),
                    opt(f.decided_on, Cell::Date),
                    opt(f.contracted_on, Cell::Date),
                ]
            })
            .collect());
    }
    Ok(Vec::new())
}

async fn cartas_page(
    db: &impl ConnectionTrait,
    caller: &Caller,
    q: &Query,
    cursor: &mut Cursor,
) -> Result<Vec<Vec<Cell>>> {
    use fco_carta::Column as C;
    let matching = financing::Entity::find()
        .select_only()
        .column(financing::Column::RecordId)
        .filter(financings::condition_of(q)?)
        .filter(financing::Column::Programme.eq(Programme::FcoRural))
        .into_query();
    let page = fco_carta::Entity::find()
        .filter(
            Condition::all()
                .add(C::Id.in_subquery(matching))
                .add(C::Id.gt(cursor.after)),
        )
        .order_by_asc(C::Id)
        .limit(PAGE)
        .all(db)
        .await?;
    if let Some(last) = page.last() {
        cursor.after = last.id;
    }
    let n = names(
        db,
        caller,
        page.iter().map(|c| c.bank_id).collect(),
        page.iter().map(|c| c.party_id).collect(),
        page.iter().map(|c| c.municipality_code).collect(),
    )
    .await?;
    Ok(page
        .into_iter()
        .map(|c| {
            let (doc, name) = n.party(caller, Programme::FcoRural, c.party_id);
            vec![
                Cell::Int(c.id),
                text(c.number),
                n.bank(c.bank_id),
                doc,
                name,
                Cell::Int(i64::from(c.municipality_code)),
                n.town(c.municipality_code),
                enum_text(&c.line),
                enum_text(&c.activity),
                Cell::Money(c.financed_amount.cents()),
                enum_text(&c.stage),
                opt(c.submitted_on, Cell::Date),
                opt(c.decided_by, text),
                opt(c.decided_on, Cell::Date),
                opt(c.approved_on, Cell::Date),
                opt(c.contracted_on, Cell::Date),
                opt(c.contracted_amount, |m: Money| Cell::Money(m.cents())),
            ]
        })
        .collect())
}

/// How a CSV is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CsvStyle {
    /// What separates the fields.
    pub separator: Separator,
    /// A byte-order mark first, so Excel reads UTF-8.
    pub bom: bool,
    /// Its headers and coded values.
    pub wording: Wording,
}

/// What separates a CSV's fields.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Separator {
    /// `,`, with a decimal point.
    #[default]
    Comma,
    /// `;`, with a decimal comma (money and percentages), as Brazilian Excel reads them.
    Semicolon,
    /// A tab, with a decimal point.
    Tab,
}

impl Separator {
    /// Of a `sep` parameter: `comma` (`,`), `semicolon` (`;`) or `tab`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "comma" | "," => Some(Self::Comma),
            "semicolon" | ";" => Some(Self::Semicolon),
            "tab" | "\t" => Some(Self::Tab),
            _ => None,
        }
    }

    fn char(self) -> char {
        match self {
            Self::Comma => ',',
            Self::Semicolon => ';',
            Self::Tab => '\t',
        }
    }

    fn point(self) -> char {
        if self == Self::Semicolon { ',' } else { '.' }
    }
}

impl CsvStyle {
    /// The start of the file: the BOM, if asked, and the header line.
    pub fn head(self, header: &[String]) -> Vec<u8> {
        let mut out = Vec::new();
        if self.bom {
            out.extend_from_slice("\u{feff}".as_bytes());
        }
        let cells: Vec<Cell> = header.iter().map(|h| text(h.clone())).collect();
        self.line(&cells, &mut out);
        out
    }

    /// One line, ended by CRLF (RFC 4180).
    pub fn line(self, row: &[Cell], out: &mut Vec<u8>) {
        let sep = self.separator.char();
        for (i, c) in row.iter().enumerate() {
            if i > 0 {
                out.push(sep as u8);
            }
            let s = c.text(self.separator.point());
            if s.contains([sep, '"', '\n', '\r']) {
                out.push(b'"');
                out.extend_from_slice(s.replace('"', "\"\"").as_bytes());
                out.push(b'"');
            } else {
                out.extend_from_slice(s.as_bytes());
            }
        }
        out.extend_from_slice(b"\r\n");
    }
}

/// Writes the whole export as CSV to `out`, a page at a time; the rows written.
pub async fn write_csv(
    db: &impl ConnectionTrait,
    caller: &Caller,
    export: &Export,
    style: CsvStyle,
    out: &mut impl Write,
) -> Result<u64> {
    out.write_all(&style.head(&export.header(style.wording))).map_err(io)?;
    let mut cursor = Cursor::default();
    let mut n = 0;
    while let Some(mut rows) = next_page(db, caller, export, style.wording, &mut cursor).await? {
        export.worded(style.wording, &mut rows);
        let mut buf = Vec::with_capacity(rows.len() * 128);
        for r in &rows {
            style.line(r, &mut buf);
        }
        out.write_all(&buf).map_err(io)?;
        n += rows.len() as u64;
    }
    Ok(n)
}

/// A decimal as a spreadsheet number.
fn fraction(v: Decimal) -> f64 {
    rust_decimal::prelude::ToPrimitive::to_f64(&v).unwrap_or(0.0)
}

fn io(e: impl std::fmt::Display) -> ServiceError {
    ServiceError::Internal(format!("writing the export: {e}"))
}

/// Excel's last row (1-based); a sheet holds the header and this many less one data rows.
pub const EXCEL_ROWS: u32 = 1_048_576;

/// Writes the whole export as XLSX to the file at `path` (each worksheet kept on disk, not in memory); the rows
/// written. Past `rows_per_sheet` data rows (Excel's limit by default) the rows continue on a new sheet.
pub async fn write_xlsx(
    db: &impl ConnectionTrait,
    caller: &Caller,
    export: &Export,
    path: &std::path::Path,
    rows_per_sheet: Option<u32>,
    wording: Wording,
) -> Result<u64> {
    use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
    let per_sheet = rows_per_sheet.unwrap_or(EXCEL_ROWS - 1).max(1);
    let header = export.header(wording);
    let percent = Format::new().set_num_format("0.00%");
    let decimal = Format::new().set_num_format("0.00");
    let bold = Format::new().set_bold();
    let money = Format::new().set_num_format("#,##0.00");
    let date = Format::new().set_num_format("yyyy-mm-dd");
    let time = Format::new().set_num_format("yyyy-mm-dd hh:mm:ss");
    let mut book = Workbook::new();
    let mut sheets = 0u32;
    let mut row_in_sheet = per_sheet; // starts a sheet at the first row
    let mut n = 0u64;
    let mut cursor = Cursor::default();
    let last_col = u16::try_from(header.len().saturating_sub(1)).unwrap_or(0);
    while let Some(mut rows) = next_page(db, caller, export, wording, &mut cursor).await? {
        export.worded(wording, &mut rows);
        for r in rows {
            if row_in_sheet == per_sheet {
                // Close the autofilter of the sheet just filled, start the next one with its header.
                if sheets > 0
                    && let Ok(ws) = book.worksheet_from_index((sheets - 1) as usize)
                {
                    ws.autofilter(0, 0, per_sheet, last_col).map_err(io)?;
                }
                sheets += 1;
                let ws = book.add_worksheet_with_constant_memory().map_err(io)?;
                ws.set_name(format!(
                    "{}{}",
                    export.name(),
                    if sheets > 1 {
                        format!(" {sheets}")
                    } else {
                        String::new()
                    }
                ))
                .map_err(io)?;
                for (c, h) in header.iter().enumerate() {
                    ws.write_string_with_format(0, c as u16, h, &bold).map_err(io)?;
                }
                ws.set_freeze_panes(1, 0).map_err(io)?;
                row_in_sheet = 0;
            }
            row_in_sheet += 1;
            let ws = book.worksheet_from_index((sheets - 1) as usize).map_err(io)?;
            for (c, cell) in r.into_iter().enumerate() {
                let c = c as u16;
                match cell {
                    Cell::Text(t) => ws.write_string(row_in_sheet, c, t).map(|_| ()),
                    Cell::Int(i) => ws.write_number(row_in_sheet, c, i as f64).map(|_| ()),
                    Cell::Money(cents) => ws
                        .write_number_with_format(row_in_sheet, c, cents as f64 / 100.0, &money)
                        .map(|_| ()),
                    Cell::Date(d) => {
                        use chrono::Datelike;
                        let x = ExcelDateTime::from_ymd(d.year() as u16, d.month() as u8, d.day() as u8).map_err(io)?;
                        ws.write_datetime_with_format(row_in_sheet, c, x, &date).map(|_| ())
                    }
                    Cell::Percent(v) => ws
                        .write_number_with_format(row_in_sheet, c, fraction(v / Decimal::ONE_HUNDRED), &percent)
                        .map(|_| ()),
                    Cell::Decimal(v) => ws
                        .write_number_with_format(row_in_sheet, c, fraction(v), &decimal)
                        .map(|_| ()),
                    Cell::Time(t) => {
                        use chrono::{Datelike, Timelike};
                        // Brasília's wall time: the header says so (`horário de Brasília`).
                        let t = Authority::Mda.local(t);
                        let x = ExcelDateTime::from_ymd(t.year() as u16, t.month() as u8, t.day() as u8)
                            .and_then(|x| x.and_hms(t.hour() as u16, t.minute() as u8, t.second()))
                            .map_err(io)?;
                        ws.write_datetime_with_format(row_in_sheet, c, x, &time).map(|_| ())
                    }
                    Cell::Empty => Ok(()),
                }
                .map_err(io)?;
            }
            n += 1;
        }
    }
    if sheets == 0 {
        let ws = book.add_worksheet();
        ws.set_name(export.name()).map_err(io)?;
        for (c, h) in header.iter().enumerate() {
            ws.write_string_with_format(0, c as u16, h, &bold).map_err(io)?;
        }
        ws.autofilter(0, 0, 0, last_col).map_err(io)?;
    } else if let Ok(ws) = book.worksheet_from_index((sheets - 1) as usize) {
        ws.autofilter(0, 0, row_in_sheet, last_col).map_err(io)?;
    }
    book.save(path).map_err(io)?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn csv_lines_quote_what_needs_it_and_write_money_for_each_style() {
        let row = vec![
            text("Fazenda \"Boa\", Sorriso"),
            Cell::Money(123_456_789),
            Cell::Money(5),
            Cell::Date(NaiveDate::from_ymd_opt(2026, 4, 6).unwrap_or_default()),
            Cell::Percent(Decimal::new(4675, 2)),
            Cell::Empty,
        ];
        let mut plain = Vec::new();
        CsvStyle::default().line(&row, &mut plain);
        assert_eq!(
            String::from_utf8_lossy(&plain),
            "\"Fazenda \"\"Boa\"\", Sorriso\",1234567.89,0.05,2026-04-06,46.75,\r\n"
        );
        let mut br = Vec::new();
        CsvStyle {
            separator: Separator::Semicolon,
            ..CsvStyle::default()
        }
        .line(&row, &mut br);
        assert_eq!(
            String::from_utf8_lossy(&br),
            "\"Fazenda \"\"Boa\"\", Sorriso\";1234567,89;0,05;2026-04-06;46,75;\r\n"
        );
        let head = CsvStyle {
            separator: Separator::Semicolon,
            bom: true,
            ..CsvStyle::default()
        }
        .head(&["a".to_owned(), "b".to_owned()]);
        assert_eq!(head, "\u{feff}a;b\r\n".as_bytes());
    }
}
