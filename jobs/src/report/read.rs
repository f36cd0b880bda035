//! Reading a bank's file into rows of cells: xlsx, xlsm, xlsb, xls and ods through calamine, CSV (`;` or `,`, UTF-8
//! with or without BOM, or Latin-1) by hand. Files that cannot be read at all get one clear [`FileError`].

use calamine::{Data, DataRef, Reader, Xlsx, open_workbook_auto_from_rs};
use chrono::NaiveDate;
use std::{io::Cursor, ops::ControlFlow};

/// One cell, as the file gave it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// Text.
    Text(String),
    /// A number (money, counts, or an Excel date serial in an unformatted cell).
    Number(f64),
    /// A whole number.
    Int(i64),
    /// A date cell.
    Date(NaiveDate),
    /// A true/false cell.
    Bool(bool),
    /// A spreadsheet error (`#N/A`).
    Error(String),
}

impl Cell {
    /// The cell as the bank would read it, for error messages.
    pub fn display(&self) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::Text(s) => s.clone(),
            Cell::Number(f) => f.to_string(),
            Cell::Int(i) => i.to_string(),
            Cell::Date(d) => d.format("%d/%m/%Y").to_string(),
            Cell::Bool(b) => b.to_string(),
            Cell::Error(e) => e.clone(),
        }
    }

    /// Whether the cell holds nothing but blanks.
    pub fn is_blank(&self) -> bool {
        match self {
            Cell::Empty => true,
            Cell::Text(s) => s.trim().is_empty(),
            _ => false,
        }
    }
}

/// Limits on what a file may be.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest file accepted, in bytes.
    pub max_bytes: usize,
    /// Most data rows accepted.
    pub max_rows: usize,
    /// Largest total uncompressed size of a zipped workbook, in bytes.
    pub max_unzipped_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: service::store::DEFAULT_MAX_UPLOAD_BYTES,
            max_rows: 2_000_000,
            max_unzipped_bytes: 2 * 1024 * 1024 * 1024,
        }
    }
}

/// How far the reading of a file has got, for a progress bar: the sheet row reached and the sheet's last row when
/// the file says it (an xlsx sheet's dimension; the row count of the other formats). Shared with another thread.
#[derive(Debug, Default)]
pub struct Progress {
    /// Rows (of the sheet, 1-based) read so far.
    pub rows: std::sync::atomic::AtomicU64,
    /// The sheet's row count, or 0 while unknown.
    pub expected: std::sync::atomic::AtomicU64,
}

impl Progress {
    /// Starts over for a new file.
    pub fn reset(&self) {
        use std::sync::atomic::Ordering::Relaxed;
        self.rows.store(0, Relaxed);
        self.expected.store(0, Relaxed);
    }

    /// `(rows read, rows expected or 0)`.
    pub fn get(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.rows.load(Relaxed), self.expected.load(Relaxed))
    }
}

/// Why a file cannot be read at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// No bytes.
    #[error("the file is empty")]
    Empty,
    /// Over the size limit.
    #[error("the file has {size} bytes; at most {max} are accepted")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        max: usize,
    },
    /// Over the row limit.
    #[error("the sheet has more than {0} rows")]
    TooManyRows(usize),
    /// A zip that expands far beyond reason.
    #[error("the workbook would expand to {0} bytes; this looks like a decompression bomb and is refused")]
    DecompressionBomb(u64),
    /// An encrypted workbook.
    #[error("the workbook is password-protected; save it without a password and send it again")]
    PasswordProtected,
    /// Not a spreadsheet this reader knows.
    #[error("the file is not a spreadsheet Fomento reads (xlsx, xlsm, xlsb, xls, ods or CSV): {0}")]
    NotASpreadsheet(String),
    /// A file of another kind (a PDF, an image, an archive), named as a spreadsheet.
    #[error("the file is a {0}, not a spreadsheet")]
    OtherFormat(&'static str),
    /// A workbook without sheets or rows.
    #[error("the workbook has no sheet with data")]
    NoData,
}

impl FileError {
    /// The error for the bank.
    pub fn message(&self) -> super::messages::Message {
        use super::messages::{Message, code};
        match self {
            Self::Empty => Message::new(code::FILE_EMPTY),
            Self::TooLarge { size, max } => Message::new(code::FILE_TOO_LARGE).arg("size", size).arg("max", max),
            Self::TooManyRows(max) => Message::new(code::FILE_TOO_MANY_ROWS).arg("max", max),
            Self::DecompressionBomb(bytes) => Message::new(code::FILE_BOMB).arg("bytes", bytes),
            Self::PasswordProtected => Message::new(code::FILE_PASSWORD),
            Self::NotASpreadsheet(detail) => Message::new(code::FILE_NOT_A_SPREADSHEET).arg("detail", detail),
            Self::OtherFormat(format) => Message::new(code::FILE_OTHER_FORMAT).arg("format", format),
            Self::NoData => Message::new(code::FILE_NO_DATA),
        }
    }
}

fn check_size(bytes: &[u8], limits: &Limits) -> Result<(), FileError> {
    if bytes.is_empty() {
        return Err(FileError::Empty);
    }
    if bytes.len() > limits.max_bytes {
        return Err(FileError::TooLarge {
            size: bytes.len(),
            max: limits.max_bytes,
        });
    }
    Ok(())
}

/// Runs a spreadsheet reader over a bank's bytes, turning a panic inside it into the file's error: the readers
/// (calamine) trust what a damaged file says, and fuzzing found an `.xls` whose records make one subtract past zero.
/// A bank gets "a damaged workbook" and the report ends `REJECTED`, not a crashed job.
fn guarded<T>(read: impl FnOnce() -> Result<T, FileError>) -> Result<T, FileError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)).unwrap_or_else(|_| {
        Err(FileError::NotASpreadsheet(
            "a damaged workbook (its records contradict each other)".into(),
        ))
    })
}

/// The rows of the first sheet (or the CSV), top to bottom; row `i` is the sheet's row `i + 1`.
pub fn read(bytes: &[u8], limits: &Limits) -> Result<Vec<Vec<Cell>>, FileError> {
    guarded(|| read_unguarded(bytes, limits))
}

fn read_unguarded(bytes: &[u8], limits: &Limits) -> Result<Vec<Vec<Cell>>, FileError> {
    check_size(bytes, limits)?;
    let rows = if bytes.starts_with(b"PK\x03\x04") {
        let unzipped =
            zip_uncompressed_size(bytes).ok_or_else(|| FileError::NotASpreadsheet("a damaged zip archive".into()))?;
        if unzipped > limits.max_unzipped_bytes {
            return Err(FileError::DecompressionBomb(unzipped));
        }
        workbook(bytes, limits)?
    } else if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        if contains_utf16(bytes, "EncryptedPackage") || contains_utf16(bytes, "EncryptionInfo") {
            return Err(FileError::PasswordProtected);
        }
        workbook(bytes, limits)?
    } else {
        csv(bytes, limits)?
    };
    if rows.iter().all(|r| r.iter().all(Cell::is_blank)) {
        return Err(FileError::NoData);
    }
    Ok(rows)
}

/// Streams the rows of the first sheet (or the CSV) to `f` as `(row index, cells)`, top to bottom, skipping rows
/// with no cell, until `f` breaks. An xlsx sheet is read cell by cell, so the whole sheet is never held in memory; the
/// other formats are read whole (their files are small). Returns how many rows were seen.
pub fn for_each_row(
    bytes: &[u8],
    limits: &Limits,
    progress: &Progress,
    f: impl FnMut(usize, Vec<Cell>) -> ControlFlow<()>,
) -> Result<usize, FileError> {
    guarded(|| for_each_row_unguarded(bytes, limits, progress, f))
}

fn for_each_row_unguarded(
    bytes: &[u8],
    limits: &Limits,
    progress: &Progress,
    mut f: impl FnMut(usize, Vec<Cell>) -> ControlFlow<()>,
) -> Result<usize, FileError> {
    use std::sync::atomic::Ordering::Relaxed;
    check_size(bytes, limits)?;
    if bytes.starts_with(b"PK\x03\x04") {
        let unzipped =
            zip_uncompressed_size(bytes).ok_or_else(|| FileError::NotASpreadsheet("a damaged zip archive".into()))?;
        if unzipped > limits.max_unzipped_bytes {
            return Err(FileError::DecompressionBomb(unzipped));
        }
        if let Ok(mut xlsx) = Xlsx::new(Cursor::new(bytes)) {
            let Some(name) = xlsx.sheet_names().first().cloned() else {
                return Err(FileError::NoData);
            };
            let mut reader = xlsx
                .worksheet_cells_reader(&name)
                .map_err(|e| FileError::NotASpreadsheet(e.to_string()))?;
            // A sheet without a dimension element says (0, 0): unknown, not one row.
            let last = reader.dimensions().end.0;
            progress
                .expected
                .store(if last > 0 { u64::from(last) + 1 } else { 0 }, Relaxed);
            let mut current: Option<(u32, Vec<Cell>)> = None;
            let mut seen = 0usize;
            let mut any = false;
            while let Some(c) = reader
                .next_cell()
                .map_err(|e| FileError::NotASpreadsheet(e.to_string()))?
            {
                let (r, col) = c.get_position();
                let value = cell_ref(c.get_value());
                if value.is_blank() {
                    continue;
                }
                any = true;
                if current.as_ref().is_some_and(|(cr, _)| *cr != r)
                    && let Some((cr, cells)) = current.take()
                {
                    seen += 1;
                    if seen > limits.max_rows + 50 {
                        return Err(FileError::TooManyRows(limits.max_rows));
                    }
                    progress.rows.store(u64::from(cr) + 1, Relaxed);
                    if f(cr as usize, cells).is_break() {
                        return Ok(seen);
                    }
                }
                let (_, cells) = current.get_or_insert_with(|| (r, Vec::new()));
                let col = col as usize;
                if cells.len() <= col {
                    cells.resize(col + 1, Cell::Empty);
                }
                cells[col] = value;
            }
            if let Some((cr, cells)) = current.take() {
                seen += 1;
                progress.rows.store(u64::from(cr) + 1, Relaxed);
                let _ = f(cr as usize, cells);
            }
            if !any {
                return Err(FileError::NoData);
            }
            return Ok(seen);
        }
    }
    let rows = read(bytes, limits)?;
    let n = rows.len();
    progress.expected.store(n as u64, Relaxed);
    for (i, row) in rows.into_iter().enumerate() {
        progress.rows.store(i as u64 + 1, Relaxed);
        if !row.iter().all(Cell::is_blank) && f(i, row).is_break() {
            break;
        }
    }
    Ok(n)
}

fn cell_ref(d: &DataRef<'_>) -> Cell {
    match d {
        DataRef::Empty => Cell::Empty,
        DataRef::String(s) => Cell::Text(s.clone()),
        DataRef::SharedString(s) => Cell::Text((*s).to_owned()),
        DataRef::Float(f) => Cell::Number(*f),
        DataRef::Int(i) => Cell::Int(*i),
        DataRef::Bool(b) => Cell::Bool(*b),
        DataRef::DateTime(dt) => date_cell(dt),
        DataRef::DateTimeIso(s) => iso_cell(s),
        DataRef::DurationIso(s) => Cell::Text(s.clone()),
        DataRef::Error(e) => Cell::Error(format!("{e:?}")),
    }
}

fn contains_utf16(bytes: &[u8], name: &str) -> bool {
    let needle: Vec<u8> = name.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    bytes.windows(needle.len()).any(|w| w == needle.as_slice())
}

/// Sums the uncompressed sizes in a zip's central directory, without inflating anything.
fn zip_uncompressed_size(bytes: &[u8]) -> Option<u64> {
    let tail_start = bytes.len().saturating_sub(65_557);
    let eocd = (tail_start..bytes.len().saturating_sub(21))
        .rev()
        .find(|&i| bytes[i..i + 4] == [0x50, 0x4b, 0x05, 0x06])?;
    let u16_at = |i: usize| Some(u16::from_le_bytes(bytes.get(i..i + 2)?.try_into().ok()?));
    let u32_at = |i: usize| Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?));
    let entries = u16_at(eocd + 10)?;
    let mut at = u32_at(eocd + 16)? as usize;
    let mut total: u64 = 0;
    for _ in 0..entries {
        if u32_at(at)? != 0x0201_4b50 {
            return None;
        }
        let size = u32_at(at + 24)?;
        // ZIP64 entries say 0xFFFFFFFF here: count them as 4 GiB, which is over any sane limit.
        total += u64::from(size);
        let (name, extra, comment) = (
            u16_at(at + 28)? as usize,
            u16_at(at + 30)? as usize,
            u16_at(at + 32)? as usize,
        );
        at += 46 + name + extra + comment;
    }
    Some(total)
}

fn workbook(bytes: &[u8], limits: &Limits) -> Result<Vec<Vec<Cell>>, FileError> {
    let mut wb = open_workbook_auto_from_rs(Cursor::new(bytes.to_vec())).map_err(|e| {
        let text = e.to_string();
        if text.to_lowercase().contains("password") || text.to_lowercase().contains("encrypt") {
            FileError::PasswordProtected
        } else {
            FileError::NotASpreadsheet(text)
        }
    })?;
    let range = match wb.worksheet_range_at(0) {
        Some(Ok(r)) => r,
        Some(Err(e)) => return Err(FileError::NotASpreadsheet(e.to_string())),
        None => return Err(FileError::NoData),
    };
    if range.height() > limits.max_rows + 50 {
        return Err(FileError::TooManyRows(limits.max_rows));
    }
    // Rows above the range's start are empty in the sheet: keep sheet row numbers right.
    let (start_row, start_col) = range.start().unwrap_or((0, 0));
    let mut rows: Vec<Vec<Cell>> = vec![Vec::new(); start_row as usize];
    for r in range.rows() {
        let mut row = vec![Cell::Empty; start_col as usize];
        row.extend(r.iter().map(cell));
        rows.push(row);
    }
    Ok(rows)
}

/// A date cell (1900 or 1904 system, as the workbook says); a time-only cell (under one day) stays the fraction of a
/// day it is.
fn date_cell(dt: &calamine::ExcelDateTime) -> Cell {
    if (0.0..1.0).contains(&dt.as_f64()) {
        return Cell::Number(dt.as_f64());
    }
    let (y, m, day, ..) = dt.to_ymd_hms_milli();
    NaiveDate::from_ymd_opt(i32::from(y), u32::from(m), u32::from(day)).map_or(Cell::Number(dt.as_f64()), Cell::Date)
}

fn iso_cell(s: &str) -> Cell {
    NaiveDate::parse_from_str(s.get(..10).unwrap_or(s), "%Y-%m-%d")
        .map_or_else(|_| Cell::Text(s.to_owned()), Cell::Date)
}

fn cell(d: &Data) -> Cell {
    match d {
        Data::Empty => Cell::Empty,
        Data::String(s) => Cell::Text(s.clone()),
        Data::Float(f) => Cell::Number(*f),
        Data::Int(i) => Cell::Int(*i),
        Data::Bool(b) => Cell::Bool(*b),
        Data::DateTime(dt) => date_cell(dt),
        Data::DateTimeIso(s) => iso_cell(s),
        Data::DurationIso(s) => Cell::Text(s.clone()),
        Data::Error(e) => Cell::Error(format!("{e:?}")),
    }
}

/// CSV: UTF-8 (BOM or not) or Latin-1; `;` or `,` as separator, whichever the header-like lines use more.
/// The formats a bank sends by mistake under a spreadsheet's name, by their first bytes.
const OTHER_FORMATS: &[(&[u8], &str)] = &[
    (b"%PDF-", "PDF"),
    (b"\x89PNG", "PNG"),
    (b"\xFF\xD8\xFF", "JPEG"),
    (b"GIF8", "GIF"),
    (b"\x1F\x8B", "gzip"),
    (b"Rar!", "RAR"),
    (b"7z\xBC\xAF", "7z"),
    (b"{\\rtf", "RTF"),
];

fn csv(bytes: &[u8], limits: &Limits) -> Result<Vec<Vec<Cell>>, FileError> {
    if let Some((_, format)) = OTHER_FORMATS.iter().find(|(magic, _)| bytes.starts_with(magic)) {
        return Err(FileError::OtherFormat(format));
    }
    if bytes.iter().take(4096).any(|b| *b == 0) {
        return Err(FileError::NotASpreadsheet(
            "binary content that is not a known workbook".into(),
        ));
    }
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.to_owned(),
        Err(_) => bytes.iter().map(|b| *b as char).collect(),
    };
    let head: Vec<&str> = text.lines().take(20).collect();
    let count = |c: char| head.iter().map(|l| l.matches(c).count()).max().unwrap_or(0);
    let sep = if count(';') >= count(',') && count(';') > 0 {
        ';'
    } else {
        ','
    };
    let mut rows = Vec::new();
    for line in text.lines() {
        if rows.len() > limits.max_rows + 50 {
            return Err(FileError::TooManyRows(limits.max_rows));
        }
        rows.push(
            split_csv(line, sep)
                .into_iter()
                .map(|f| if f.is_empty() { Cell::Empty } else { Cell::Text(f) })
                .collect(),
        );
    }
    Ok(rows)
}

/// Splits one CSV line on `sep`, honouring double quotes (`""` is a quote inside a quoted field).
pub fn split_csv(line: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.trim_end_matches('\r').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if c == sep && !quoted => out.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    out.push(field);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pdf_named_as_a_spreadsheet_is_told_it_is_no_spreadsheet() {
        let e = read(
            b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<< /Type /Catalog >>\n",
            &Limits::default(),
        );
        assert!(matches!(e, Err(FileError::OtherFormat("PDF"))), "{e:?}");
    }

    #[test]
    fn csv_in_latin1_with_semicolons_is_read() {
        let bytes: Vec<u8> = b"T\xedtulo\nN\xba da Carta;Tomador\n\"MT-1\";Jo\xe3o\n".to_vec();
        let rows = read(&bytes, &Limits::default()).expect("reads");
        assert_eq!(
            rows[1],
            vec![Cell::Text("Nº da Carta".into()), Cell::Text("Tomador".into())]
        );
        assert_eq!(rows[2][1], Cell::Text("João".into()));
    }

    #[test]
    fn csv_with_bom_and_commas_in_quotes() {
        let rows = read("\u{feff}a,b\n\"R$ 1.234,56\",x\n".as_bytes(), &Limits::default()).expect("reads");
        assert_eq!(rows[1][0], Cell::Text("R$ 1.234,56".into()));
    }

    #[test]
    fn unreadable_files_get_one_clear_error() {
        let l = Limits::default();
        assert_eq!(read(b"", &l), Err(FileError::Empty));
        assert_eq!(read(b"\n \n", &l), Err(FileError::NoData));
        assert!(matches!(
            read(b"PK\x03\x04garbage", &l),
            Err(FileError::NotASpreadsheet(_))
        ));
        assert!(matches!(
            read(&[0x7f, b'E', b'L', b'F', 0, 0, 1], &l),
            Err(FileError::NotASpreadsheet(_))
        ));
        let small = Limits { max_bytes: 3, ..l };
        assert_eq!(read(b"abcd", &small), Err(FileError::TooLarge { size: 4, max: 3 }));
        let few = Limits { max_rows: 1, ..l };
        let many = "a\n".repeat(60);
        assert_eq!(read(many.as_bytes(), &few), Err(FileError::TooManyRows(1)));
    }

    /// A reader whose consumer is gone stops: `f` breaking ends the reading, of a streamed xlsx sheet as of a CSV.
    #[test]
    fn reading_stops_when_the_row_callback_breaks() {
        let mut wb = rust_xlsxwriter::Workbook::new();
        let ws = wb.add_worksheet();
        for r in 0..1000u32 {
            ws.write_number(r, 0, f64::from(r)).expect("cell");
        }
        let xlsx = wb.save_to_buffer().expect("xlsx");
        let csv = "n\n".repeat(1000);
        for bytes in [&xlsx[..], csv.as_bytes()] {
            let progress = Progress::default();
            let mut called = 0;
            let seen = for_each_row(bytes, &Limits::default(), &progress, |i, _| {
                called += 1;
                if i == 9 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .expect("reads");
            assert_eq!(called, 10);
            assert_eq!(
                progress.rows.load(std::sync::atomic::Ordering::Relaxed),
                10,
                "read up to the tenth row (of {seen} counted)"
            );
        }
    }
}
