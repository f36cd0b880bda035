//! `fomento rules import FILE`: new rule-parameter versions from a CSV file, all or nothing.
//!
//! The header names the columns, in any order: `key,value,unit,effective_from,effective_to,legal_source`
//! (`effective_to` may be empty). Fields with commas are quoted (`"IN MDA nº 01/2009, art. 3"`); `;` also separates
//! fields when the header uses it. Every row is checked before anything is written; one bad row writes nothing.

use chrono::NaiveDate;
use sea_orm::DatabaseConnection;
use service::{
    ServiceError,
    parameters::{NewVersion, add_version},
};

/// Splits one CSV line, honouring quotes, with the fields trimmed.
fn split(line: &str, sep: char) -> Vec<String> {
    jobs::report::read::split_csv(line, sep)
        .into_iter()
        .map(|f| f.trim().to_owned())
        .collect()
}

/// A checked row.
struct Row {
    key: String,
    value: String,
    unit: String,
    from: NaiveDate,
    to: Option<NaiveDate>,
    source: String,
}

/// Imports the versions in `text`; returns how many were added, or every problem found (nothing is written then).
pub async fn import(db: &DatabaseConnection, text: &str) -> Result<usize, Vec<String>> {
    let text = text.trim_start_matches('\u{feff}');
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((_, header)) = lines.next() else {
        return Err(vec!["the file is empty".into()]);
    };
    let sep = if header.contains(';') { ';' } else { ',' };
    let names = split(header, sep);
    let col = |name: &str| names.iter().position(|n| n.eq_ignore_ascii_case(name));
    let required = ["key", "value", "unit", "effective_from", "legal_source"];
    let missing: Vec<&str> = required.iter().copied().filter(|n| col(n).is_none()).collect();
    if !missing.is_empty() {
        return Err(vec![format!("line 1: the header lacks {}", missing.join(", "))]);
    }
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in lines {
        let n = i + 1;
        let fields = split(line, sep);
        let get = |name: &str| col(name).and_then(|c| fields.get(c)).cloned().unwrap_or_default();
        let date = |name: &str, v: &str| {
            NaiveDate::parse_from_str(v, "%Y-%m-%d")
                .map_err(|_| format!("line {n}, {name}: {v:?} is not a date YYYY-MM-DD"))
        };
        let from = date("effective_from", &get("effective_from"));
        let to = match get("effective_to") {
            t if t.is_empty() => Ok(None),
            t => date("effective_to", &t).map(Some),
        };
        let (key, value, unit, source) = (get("key"), get("value"), get("unit"), get("legal_source"));
        match (from, to) {
            (Ok(from), Ok(to)) => {
                if let Err(e) = entity::rules::params::validate_new_version(&key, &value, &unit, from, to) {
                    errors.push(format!("line {n}: {e}"));
                } else if source.is_empty() {
                    errors.push(format!(
                        "line {n}, legal_source: name the instrument that sets the value"
                    ));
                } else {
                    rows.push(Row {
                        key,
                        value,
                        unit,
                        from,
                        to,
                        source,
                    });
                }
            }
            (Err(e), _) | (_, Err(e)) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let txn = service::txn::write(db)
        .await
        .map_err(|e| vec![format!("database: {e}")])?;
    for r in &rows {
        let version = NewVersion {
            key: &r.key,
            value: &r.value,
            unit: &r.unit,
            from: r.from,
            to: r.to,
            source: &r.source,
        };
        add_version(&txn, service::Clock::System, version)
            .await
            .map_err(|e| match e {
                ServiceError::Internal(d) => vec![format!("database: {d}")],
                other => vec![format!(
                    "{}: {}",
                    other.field().unwrap_or(""),
                    other.render(service::messages::Lang::En)
                )],
            })?;
    }
    txn.commit().await.map_err(|e| vec![format!("database: {e}")])?;
    Ok(rows.len())
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn quoted_fields_keep_their_commas() {
        assert_eq!(split(r#"a,"IN MDA, art. 3",c"#, ','), ["a", "IN MDA, art. 3", "c"]);
        assert_eq!(split(r#""say ""hi""";x"#, ';'), [r#"say "hi""#, "x"]);
    }
}
