//! What the analysts read on the dashboard page and in the export files: table titles, column headers, the values of
//! coded columns and the page's own words, in Brazilian Portuguese (the default) and English, in the locales' Fluent
//! files (`service/locales/*/labels.ftl`). Keys: `table.{name}` (a table's title), `column.{code}` (a column's
//! header), `value.{column}.{CODE}` (a coded value), `page.…` (the dashboard page); [`crate::l10n::id`] makes them
//! Fluent identifiers. The vocabulary's Portuguese names (`FcoActivity::name_pt`, …) are the entity's, read from there.

use crate::messages::{Lang, Message};
use entity::vocab::{FcoActivity, FcoCartaStage, FcoLine, SocialFuelStage};
use sea_orm::ActiveEnum;

/// A label by its key, with its values, in `lang`; `None` when there is no such key.
pub fn get(key: &str, lang: Lang) -> Option<String> {
    crate::l10n::has(key, lang).then(|| Message::new(key).render(lang))
}

/// A label with values (`{name}`) by its key, in `lang`.
pub fn with(key: &str, args: &[(&str, String)], lang: Lang) -> String {
    args.iter()
        .fold(Message::new(key), |m, (k, v)| m.arg(k, v))
        .render(lang)
}

/// A label without values, in `lang` (the key itself when there is none).
pub fn text(key: &str, lang: Lang) -> String {
    get(key, lang).unwrap_or_else(|| key.to_owned())
}

/// A column's header in `lang` (its code when it has no label).
pub fn header(column: &str, lang: Lang) -> String {
    get(&format!("column.{column}"), lang).unwrap_or_else(|| column.to_owned())
}

/// A coded value of `column` as people read it in `lang`: the label's, else the vocabulary's Portuguese name or, in
/// English, the code in words (`BEEF_CATTLE` → `Beef cattle`); `None` when the column holds no codes.
pub fn value(column: &str, code: &str, lang: Lang) -> Option<String> {
    if let Some(v) = get(&format!("value.{column}.{code}"), lang) {
        return Some(v);
    }
    let pt = match column {
        "activity" => FcoActivity::try_from_value(&code.to_owned())
            .ok()
            .map(FcoActivity::name_pt),
        "line" => FcoLine::try_from_value(&code.to_owned()).ok().map(FcoLine::name_pt),
        "stage" => FcoCartaStage::try_from_value(&code.to_owned())
            .ok()
            .map(FcoCartaStage::name_pt)
            .or_else(|| {
                SocialFuelStage::try_from_value(&code.to_owned())
                    .ok()
                    .map(SocialFuelStage::name_pt)
            }),
        _ => None,
    }?;
    Some(match lang {
        Lang::PtBr => capitalised(pt),
        Lang::En => capitalised(&code.replace('_', " ").to_lowercase()),
    })
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A whole number of `unit`s (`day`) with the unit's plural by the language's plural rules (`1 dia`, `2 dias`;
/// `1 day`, `2 days`); the number and the unit as given when the unit has no text.
pub fn count(n: i64, unit: &str, lang: Lang) -> String {
    crate::l10n::render(&format!("unit.{unit}"), [("count", n.to_string().as_str())], lang)
        .unwrap_or_else(|| format!("{n} {unit}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coded_values_read_as_words_in_each_language() {
        assert_eq!(value("activity", "GRAINS", Lang::PtBr).as_deref(), Some("Grãos"));
        assert_eq!(
            value("activity", "BEEF_CATTLE", Lang::En).as_deref(),
            Some("Beef cattle")
        );
        assert_eq!(value("stage", "CONTRACTED", Lang::PtBr).as_deref(), Some("Contratada"));
        assert_eq!(value("severity", "VIOLATION", Lang::PtBr).as_deref(), Some("Violação"));
        assert_eq!(value("bank", "SICREDI", Lang::PtBr), None);
        assert_eq!(header("amount", Lang::En), "Amount (R$)");
        assert_eq!(count(1, "day", Lang::PtBr), "1 dia");
        assert_eq!(count(1, "day", Lang::En), "1 day");
        assert_eq!(count(3, "day", Lang::En), "3 days");
    }
}
