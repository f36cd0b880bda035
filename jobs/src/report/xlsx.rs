//! Workbooks Fomento writes for banks: the template of the monthly report, and a report's own rows with an errors
//! column and the bad cells marked.

use super::{
    columns::{ACTIVITY_NAMES, Column, LINE_NAMES, TEMPLATE},
    messages::{Lang, Message, code},
    read::Cell,
    rows::RowError,
};
use rust_xlsxwriter::{Color, DataValidation, Format, Formula, Workbook, XlsxError};
use std::collections::HashMap;

/// The template: the header row, a notes row, and list validation where the vocabulary is closed.
pub fn template() -> Result<Vec<u8>, XlsxError> {
    let mut wb = Workbook::new();
    // The closed vocabularies live on a hidden sheet: Excel caps an inline list at 255 characters.
    let lists: [(&str, &[&str]); 4] = [
        ("Atividades", ACTIVITY_NAMES),
        ("Linhas", LINE_NAMES),
        ("UF", &["MT"]),
        ("Finalidades", &["Investimento", "Custeio"]),
    ];
    let bold = Format::new().set_bold().set_background_color(Color::RGB(0xDDEBF7));
    let note = Format::new().set_italic().set_font_color(Color::Gray);
    {
        let ws = wb.add_worksheet();
        ws.set_name("Relatório mensal")?;
        for (i, (column, header, required, hint, _)) in TEMPLATE.iter().enumerate() {
            let col = i as u16;
            ws.write_string_with_format(0, col, *header, &bold)?;
            let text = format!(
                "{}{hint}",
                if *required {
                    "obrigatório — "
                } else {
                    "opcional — "
                }
            );
            ws.write_string_with_format(1, col, text, &note)?;
            ws.set_column_width(col, 22)?;
            let list = match column {
                Column::Activity => Some(0),
                Column::Line => Some(1),
                Column::Uf => Some(2),
                Column::Purpose => Some(3),
                _ => None,
            };
            if let Some(l) = list {
                let (_, values) = lists[l];
                let letter = (b'A' + l as u8) as char;
                let formula = Formula::new(format!("=Listas!${letter}$2:${letter}${}", values.len() + 1));
                let dv = DataValidation::new().allow_list_formula(formula);
                ws.add_data_validation(2, col, 1_048_575, col, &dv)?;
            }
        }
    }
    let ws = wb.add_worksheet();
    ws.set_name("Listas")?;
    for (j, (title, values)) in lists.iter().enumerate() {
        ws.write_string_with_format(0, j as u16, *title, &bold)?;
        for (i, v) in values.iter().enumerate() {
            ws.write_string(1 + i as u32, j as u16, *v)?;
        }
    }
    ws.set_hidden(true);
    wb.save_to_buffer()
}

/// The bank's own rows, as read, with a last column listing each row's errors (in `lang`) and the bad cells in red. A
/// file that could not be read at all gets one sheet with that error.
pub fn errors_workbook(
    cells: Option<&[Vec<Cell>]>,
    header_row: Option<usize>,
    errors: &[RowError],
    file_error: Option<&Message>,
    lang: Lang,
) -> Result<Vec<u8>, XlsxError> {
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet();
    let errors_title = Message::new(code::ERRORS_COLUMN).render(lang);
    ws.set_name(&errors_title)?;
    let bad = Format::new()
        .set_background_color(Color::RGB(0xFFC7CE))
        .set_font_color(Color::RGB(0x9C0006));
    let bold = Format::new().set_bold();
    let (Some(cells), Some(header_row)) = (cells, header_row) else {
        ws.write_string_with_format(0, 0, &errors_title, &bold)?;
        let unreadable = Message::new(code::FILE_UNREADABLE);
        ws.write_string(1, 0, file_error.unwrap_or(&unreadable).render(lang))?;
        return wb.save_to_buffer();
    };
    let width = cells.iter().map(Vec::len).max().unwrap_or(0) as u16;
    let headers: HashMap<String, u16> = cells
        .get(header_row)
        .map(|h| {
            h.iter()
                .enumerate()
                .map(|(i, c)| (c.display().trim().to_owned(), i as u16))
                .collect()
        })
        .unwrap_or_default();
    let mut by_row: HashMap<u32, Vec<&RowError>> = HashMap::new();
    for e in errors {
        by_row.entry(e.row).or_default().push(e);
    }
    for (i, row) in cells.iter().enumerate() {
        let r = i as u32;
        let row_errors = by_row.get(&(r + 1));
        let bad_cols: Vec<u16> = row_errors
            .map(|es| {
                es.iter()
                    .filter_map(|e| e.column.as_ref().and_then(|c| headers.get(c.trim())).copied())
                    .collect()
            })
            .unwrap_or_default();
        for (j, c) in row.iter().enumerate() {
            let col = j as u16;
            let text = c.display();
            match (c, bad_cols.contains(&col)) {
                (Cell::Number(n), false) => drop(ws.write_number(r, col, *n)?),
                (Cell::Int(n), false) => drop(ws.write_number(r, col, *n as f64)?),
                (_, true) => drop(ws.write_string_with_format(r, col, text, &bad)?),
                _ if !text.is_empty() => drop(ws.write_string(r, col, text)?),
                _ => {}
            }
        }
        if i == header_row {
            ws.write_string_with_format(r, width, &errors_title, &bold)?;
        } else if let Some(es) = row_errors {
            let text = es
                .iter()
                .map(|e| match (&e.column, &e.rule_code) {
                    (Some(c), Some(code)) => format!("{c}: {} [{code}]", e.message.render(lang)),
                    (Some(c), None) => format!("{c}: {}", e.message.render(lang)),
                    (None, _) => e.message.render(lang),
                })
                .collect::<Vec<_>>()
                .join("; ");
            ws.write_string_with_format(r, width, text, &bad)?;
        }
    }
    wb.save_to_buffer()
}

/// A value of a row written in the template's layout.
#[derive(Debug, Clone, PartialEq)]
pub enum TemplateValue {
    /// Text.
    Text(String),
    /// Money, in centavos.
    Money(i64),
    /// A day.
    Date(chrono::NaiveDate),
    /// A whole number.
    Int(i64),
}

/// Rows in the template's layout: its header (the template's columns, in its order) on the first row, then each row's
/// values by column, so that a bank can edit the file and send it as its list.
pub fn in_template_layout(rows: &[HashMap<Column, TemplateValue>]) -> Result<Vec<u8>, XlsxError> {
    use chrono::Datelike;
    let mut wb = Workbook::new();
    let bold = Format::new().set_bold().set_background_color(Color::RGB(0xDDEBF7));
    let date = Format::new().set_num_format("dd/mm/yyyy");
    let money = Format::new().set_num_format("#,##0.00");
    let ws = wb.add_worksheet();
    ws.set_name("Relatório mensal")?;
    for (i, (column, header, ..)) in TEMPLATE.iter().enumerate() {
        let col = i as u16;
        ws.write_string_with_format(0, col, *header, &bold)?;
        ws.set_column_width(col, 22)?;
        for (r, row) in rows.iter().enumerate() {
            let r = r as u32 + 1;
            match row.get(column) {
                Some(TemplateValue::Text(t)) => {
                    ws.write_string(r, col, t)?;
                }
                Some(TemplateValue::Money(c)) => {
                    ws.write_number_with_format(r, col, *c as f64 / 100.0, &money)?;
                }
                Some(TemplateValue::Date(d)) => {
                    let day =
                        rust_xlsxwriter::ExcelDateTime::from_ymd(d.year() as u16, d.month() as u8, d.day() as u8)?;
                    ws.write_datetime_with_format(r, col, &day, &date)?;
                }
                Some(TemplateValue::Int(n)) => {
                    ws.write_number(r, col, *n as f64)?;
                }
                None => {}
            }
        }
    }
    ws.set_freeze_panes(1, 0)?;
    wb.save_to_buffer()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{
        read::{Limits, read},
        rows::find_header,
    };

    #[test]
    fn the_template_is_recognised_by_the_reader() {
        let bytes = template().expect("template");
        let cells = read(&bytes, &Limits::default()).expect("reads");
        let header = find_header(&cells).expect("header");
        assert_eq!(header.row, 0);
        assert_eq!(header.columns.len(), TEMPLATE.len());
    }
}
