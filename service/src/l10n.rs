//! The localisation layer: every text a person reads is a Project Fluent message in a resource file per locale
//! (`service/locales/pt-BR/*.ftl`, `service/locales/en/*.ftl`), which a translator edits without Rust; the files are
//! embedded in the binary. Brazilian Portuguese is the default, English on request. Plurals are the library's (CLDR
//! plural rules: `{ $count -> [one] … *[other] … }`); numbers, money, percentages and dates are formatted per locale
//! by the functions `NUMBER`, `MONEY`, `PERCENT` and `DATE` a text calls on a value.
//!
//! Size: the localisation layer and its every-message tests, which walk every id in both locales.

use fluent_bundle::types::FluentNumber;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue, concurrent::FluentBundle};
use rust_decimal::Decimal;
use std::sync::LazyLock;

/// The language a message is rendered in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// Brazilian Portuguese, the default.
    #[default]
    PtBr,
    /// English, on request.
    En,
}

impl Lang {
    /// The language an `Accept-Language` header prefers among the two, by its quality values; Portuguese when it
    /// names neither (or is absent).
    pub fn from_accept_language(header: Option<&str>) -> Self {
        let mut best: Option<(f32, Lang)> = None;
        for range in header.unwrap_or("").split(',') {
            let mut parts = range.split(';');
            let tag = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = parts
                .find_map(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .map(|v| v.trim().parse::<f32>().unwrap_or(0.0))
                })
                .unwrap_or(1.0);
            let lang = match tag.split('-').next().unwrap_or("") {
                "pt" => Lang::PtBr,
                "en" => Lang::En,
                _ => continue,
            };
            if q > 0.0 && best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, l)| l).unwrap_or_default()
    }

    /// The language a `lang` parameter names (`pt`, `pt-BR`, `en`, `en-US`, …), if it names one of the two.
    pub fn from_tag(tag: &str) -> Option<Self> {
        match tag.trim().to_ascii_lowercase().split(['-', '_']).next().unwrap_or("") {
            "pt" => Some(Lang::PtBr),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The tag for `Content-Language`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::PtBr => "pt-BR",
            Lang::En => "en",
        }
    }
}

/// The resource files of a locale: `(file name, text)`.
type Files = &'static [(&'static str, &'static str)];

const PT_BR: Files = &[
    ("messages.ftl", include_str!("../locales/pt-BR/messages.ftl")),
    ("labels.ftl", include_str!("../locales/pt-BR/labels.ftl")),
    ("rules.ftl", include_str!("../locales/pt-BR/rules.ftl")),
    ("explanations.ftl", include_str!("../locales/pt-BR/explanations.ftl")),
    ("pages.ftl", include_str!("../locales/pt-BR/pages.ftl")),
    ("cli.ftl", include_str!("../locales/pt-BR/cli.ftl")),
];

const EN: Files = &[
    ("messages.ftl", include_str!("../locales/en/messages.ftl")),
    ("labels.ftl", include_str!("../locales/en/labels.ftl")),
    ("rules.ftl", include_str!("../locales/en/rules.ftl")),
    ("explanations.ftl", include_str!("../locales/en/explanations.ftl")),
    ("pages.ftl", include_str!("../locales/en/pages.ftl")),
    ("cli.ftl", include_str!("../locales/en/cli.ftl")),
];

type Bundle = FluentBundle<FluentResource>;

/// A function a text calls on a value (`DATE($day)`): the value written for a language, `None` when it is no such value.
type Formatter = fn(&str, Lang) -> Option<String>;

/// A locale's bundle and what went wrong building it (a file that does not parse, an id given twice), for the tests.
struct Built {
    bundle: Bundle,
    problems: Vec<String>,
}

static PT: LazyLock<Built> = LazyLock::new(|| build(Lang::PtBr));
static ENGLISH: LazyLock<Built> = LazyLock::new(|| build(Lang::En));

fn built(lang: Lang) -> &'static Built {
    match lang {
        Lang::PtBr => &PT,
        Lang::En => &ENGLISH,
    }
}

/// The resource files of `lang`.
pub fn files(lang: Lang) -> Files {
    match lang {
        Lang::PtBr => PT_BR,
        Lang::En => EN,
    }
}

fn build(lang: Lang) -> Built {
    let locale = lang.tag().parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![locale]);
    // The texts go into JSON, spreadsheets and logs, not into bidirectional text: no isolation marks around values.
    bundle.set_use_isolating(false);
    let mut problems = Vec::new();
    for (name, text) in files(lang) {
        let resource = FluentResource::try_new((*text).to_owned()).unwrap_or_else(|(resource, errors)| {
            problems.extend(errors.iter().map(|e| format!("{}/{name}: {e:?}", lang.tag())));
            resource
        });
        if let Err(errors) = bundle.add_resource(resource) {
            problems.extend(errors.iter().map(|e| format!("{}/{name}: {e}", lang.tag())));
        }
    }
    let functions: [(&str, Formatter); 5] = [
        ("DATE", |s, l| s.parse().ok().map(|d| date(d, l))),
        ("LEGAL", |s, l| Some(legal_basis(s, l))),
        ("MONEY", |s, l| s.parse().ok().map(|v| money(v, l))),
        ("PERCENT", |s, l| s.parse().ok().map(|v| percent(v, l))),
        ("NUMBER", |s, l| s.parse().ok().map(|v| number(v, l))),
    ];
    for (name, format) in functions {
        let added = bundle.add_function(name, move |positional, _named| {
            let raw = match positional.first() {
                Some(FluentValue::String(s)) => s.to_string(),
                Some(FluentValue::Number(n)) => n.as_string().into_owned(),
                _ => return FluentValue::Error,
            };
            FluentValue::from(format(&raw, lang).unwrap_or(raw))
        });
        if let Err(e) = added {
            problems.push(format!("{}: {name}: {e}", lang.tag()));
        }
    }
    if !problems.is_empty() {
        tracing::error!(?problems, "a locale's resource files have errors");
    }
    Built { bundle, problems }
}

/// The Fluent identifier of a key: a catalogue code (`AMOUNT_MISSING`) or a rule code (`FCO-CEILING`) is its own; a
/// label key's dots become dashes (`table.deadlines` → `table-deadlines`) and any other character a Fluent identifier
/// cannot hold its code point (`?` → `_x3f`).
pub fn id(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    for c in key.chars() {
        match c {
            '.' => out.push('-'),
            c if c.is_ascii_alphanumeric() || c == '_' || c == '-' => out.push(c),
            c => out.push_str(&format!("_x{:x}", c as u32)),
        }
    }
    out
}

/// Whether `lang` has a text for `key`.
pub fn has(key: &str, lang: Lang) -> bool {
    built(lang).bundle.has_message(&id(key))
}

/// A value as Fluent sees it: a number when the text is one written as Fluent writes it back (so a plural can be
/// chosen by it, and `05` or a 20-digit number stay as written), text otherwise.
fn value(text: &str) -> FluentValue<'_> {
    match text.parse::<FluentNumber>() {
        Ok(n) if n.as_string() == text => FluentValue::Number(n),
        _ => FluentValue::from(text),
    }
}

/// The text of `key` in `lang` with its values, and what went wrong (a value missing, a function unknown); `None`
/// when `lang` has no such text.
pub fn render_checked<'a>(
    key: &str,
    args: impl IntoIterator<Item = (&'a str, &'a str)>,
    lang: Lang,
) -> Option<(String, Vec<String>)> {
    let bundle = &built(lang).bundle;
    let pattern = bundle.get_message(&id(key))?.value()?;
    let mut fluent_args = FluentArgs::new();
    for (k, v) in args {
        fluent_args.set(k, value(v));
    }
    let mut errors = Vec::new();
    let text = bundle
        .format_pattern(pattern, Some(&fluent_args), &mut errors)
        .into_owned();
    Some((text, errors.iter().map(ToString::to_string).collect()))
}

/// The text of `key` in `lang` with its values; `None` when `lang` has no such text.
pub fn render<'a>(key: &str, args: impl IntoIterator<Item = (&'a str, &'a str)>, lang: Lang) -> Option<String> {
    render_checked(key, args, lang).map(|(text, _)| text)
}

/// The text of `key` in `lang` with its values given as owned texts; the key itself when `lang` has no such text (the
/// command line's words, `cli.ftl`).
pub fn text(key: &str, values: &[(&str, String)], lang: Lang) -> String {
    render(key, values.iter().map(|(k, v)| (*k, v.as_str())), lang).unwrap_or_else(|| key.to_owned())
}

/// What went wrong building the bundles (empty when every file parses and no id is given twice).
pub fn problems() -> Vec<String> {
    [Lang::PtBr, Lang::En]
        .into_iter()
        .flat_map(|l| built(l).problems.clone())
        .collect()
}

/// The identifiers a locale's files define, in file order.
pub fn ids(lang: Lang) -> Vec<String> {
    files(lang)
        .iter()
        .flat_map(|(_, text)| text.lines())
        .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))
        .filter_map(|l| l.split_once(" =").map(|(id, _)| id.trim().to_owned()))
        .collect()
}

/// The values (`$name`) the text of `id` reads in `lang`.
pub fn variables(id: &str, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    for (_, text) in files(lang) {
        let mut inside = false;
        for line in text.lines() {
            if line.starts_with(|c: char| c.is_ascii_alphabetic()) {
                inside = line.split_once(" =").is_some_and(|(i, _)| i.trim() == id);
            } else if line.is_empty() || line.starts_with('#') {
                inside = false;
            }
            if !inside {
                continue;
            }
            for part in line.split('$').skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                    .collect();
                if !name.is_empty() && !out.contains(&name) {
                    out.push(name);
                }
            }
        }
    }
    out.sort();
    out
}

/// A rule's explanation in `lang`: a catalogue message rendered with its values (a clause it places rendered in the
/// same language, a list joined with the language's words), an English text as it is.
pub fn explanation(e: &entity::rules::Explanation, lang: Lang) -> String {
    e.render_with(
        &|node, id, values| {
            render(id, values.iter().map(|(k, v)| (*k, v.as_str())), lang).unwrap_or_else(|| node.to_string())
        },
        &|items, semicolons| list(items, semicolons, lang),
    )
}

/// Items joined as `lang` writes a list: `a, b e c` in Portuguese, `a, b and c` in English (the word is the catalogue's
/// `list-and`); long clauses (`semicolons`) by `; `.
pub fn list(items: Vec<String>, semicolons: bool, lang: Lang) -> String {
    if semicolons {
        return items.join("; ");
    }
    match items.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => {
            let and = render("list-and", [], lang).unwrap_or_else(|| "and".into());
            format!("{} {and} {last}", init.join(", "))
        }
    }
}

/// An explanation as stored with a flag (language-free JSON: `{"id": …, "args": {…}}`, a clause as such an object, a
/// list as `{"list": […]}` or `{"clauses": […]}`, an English text as `{"text": …}`), to be rendered when read.
pub fn explanation_json(e: &entity::rules::Explanation) -> serde_json::Value {
    use entity::rules::Explanation;
    match e {
        Explanation::English(text) => serde_json::json!({ "text": text }),
        Explanation::Message { id, args } => serde_json::json!({ "id": id, "args": args_json(args) }),
    }
}

/// The values of a message as stored: by name, a text as a string, a clause as an object, a list as `{"list": […]}`.
pub fn args_json(args: &[(&'static str, entity::rules::Arg)]) -> serde_json::Value {
    use entity::rules::Arg;
    let mut out = serde_json::Map::new();
    for (k, v) in args {
        let value = match v {
            Arg::Text(t) => serde_json::Value::String(t.clone()),
            Arg::Nested(e) => explanation_json(e),
            Arg::List { items, semicolons } => {
                let items: Vec<serde_json::Value> = items.iter().map(explanation_json).collect();
                if *semicolons {
                    serde_json::json!({ "clauses": items })
                } else {
                    serde_json::json!({ "list": items })
                }
            }
        };
        out.insert((*k).to_owned(), value);
    }
    serde_json::Value::Object(out)
}

/// A stored message (its id and its values as [`args_json`] wrote them) in `lang`; `None` when `lang` has no such
/// message or the values are not what [`args_json`] writes.
pub fn stored(id: &str, args: &serde_json::Value, lang: Lang) -> Option<String> {
    let values: Vec<(String, String)> = args
        .as_object()?
        .iter()
        .map(|(k, v)| Some((k.clone(), stored_value(v, lang)?)))
        .collect::<Option<_>>()?;
    render(id, values.iter().map(|(k, v)| (k.as_str(), v.as_str())), lang)
}

/// A stored value ([`args_json`]'s, or [`explanation_json`]'s) in `lang`.
pub fn stored_value(v: &serde_json::Value, lang: Lang) -> Option<String> {
    Some(match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::Object(o) => {
            if let Some(text) = o.get("text").and_then(|t| t.as_str()) {
                text.to_owned()
            } else if let Some(id) = o.get("id").and_then(|t| t.as_str()) {
                stored(id, o.get("args")?, lang)?
            } else {
                let (items, semicolons) = match (o.get("list"), o.get("clauses")) {
                    (Some(l), _) => (l, false),
                    (_, Some(l)) => (l, true),
                    _ => return None,
                };
                let items = items
                    .as_array()?
                    .iter()
                    .map(|i| stored_value(i, lang))
                    .collect::<Option<Vec<_>>>()?;
                list(items, semicolons, lang)
            }
        }
        _ => return None,
    })
}

/// A message stored as its id and its values' JSON text ([`args_json`]'s) in `lang`: the one reading of the stored
/// messages (flags' messages and resolutions, history notes); `None` when `lang` has no such message or the values do
/// not read.
fn stored_text(id: &str, args: Option<&str>, lang: Lang) -> Option<String> {
    let args = args
        .and_then(|a| serde_json::from_str(a).ok())
        .unwrap_or_else(|| serde_json::json!({}));
    stored(id, &args, lang)
}

/// A flag's message in `lang`: its stored id and values rendered (a change of language or wording needs no migration),
/// or, for a flag stored as text (raised before migration 57, or by a rule not converted yet), that text.
pub fn flag_message(f: &entity::compliance_flag::Model, lang: Lang) -> String {
    f.message_id
        .as_deref()
        .and_then(|id| stored_text(id, f.message_args.as_deref(), lang))
        .unwrap_or_else(|| f.message.clone())
}

/// Why a flag was resolved, in `lang`: a reason Fomento gave (the flag pass's, migration 60; a later list's) rendered
/// from its stored id and values, or the text stored (a person's reason, or Fomento's before); `None` while it is open.
pub fn flag_resolution(f: &entity::compliance_flag::Model, lang: Lang) -> Option<String> {
    match &f.resolution_id {
        Some(id) => Some(
            stored_text(id, f.resolution_args.as_deref(), lang)
                .unwrap_or_else(|| f.resolution.clone().unwrap_or_default()),
        ),
        None => f.resolution.clone(),
    }
}

/// A history row's note in `lang`: a note Fomento wrote itself rendered from its stored id and values (migration 61),
/// or the text stored (a person's note as written, or Fomento's before migration 61); `None` when it has none.
pub fn history_note(t: &entity::financing_transition::Model, lang: Lang) -> Option<String> {
    match &t.note_id {
        Some(id) => {
            Some(stored_text(id, t.note_args.as_deref(), lang).unwrap_or_else(|| t.note.clone().unwrap_or_default()))
        }
        None => t.note.clone(),
    }
}

/// A rule's title in `lang` (the catalogue's English title when the locale has none).
pub fn rule_title(rule: &entity::rules::Rule, lang: Lang) -> String {
    render(rule.code.as_str(), [], lang).unwrap_or_else(|| rule.title.to_owned())
}

/// Groups the digits of a whole number by thousands with `sep`.
fn grouped(digits: &str, sep: char) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// A decimal as written in `lang`, with its own decimals: `1.234,5` in Portuguese, `1,234.5` in English.
pub fn number(v: Decimal, lang: Lang) -> String {
    let (group, point) = match lang {
        Lang::PtBr => ('.', ','),
        Lang::En => (',', '.'),
    };
    let text = v.abs().to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::new();
    if v.is_sign_negative() && !v.is_zero() {
        out.push('-');
    }
    out.push_str(&grouped(whole, group));
    if !fraction.is_empty() {
        out.push(point);
        out.push_str(fraction);
    }
    out
}

/// Reais with centavos: `R$ 1.234,56` in Portuguese, `R$ 1,234.56` in English.
pub fn money(v: Decimal, lang: Lang) -> String {
    let mut v = v.round_dp(2);
    v.rescale(2);
    format!("R$ {}", number(v, lang))
}

/// A percentage with at most two decimals: `46,75 %` in Portuguese, `46.75 %` in English.
pub fn percent(v: Decimal, lang: Lang) -> String {
    format!("{} %", number(v.round_dp(2).normalize(), lang))
}

/// A legal basis as the language cites it: the catalogue's English citation (`IN CDAE/MT 2019, art. 3, sole §`) as it
/// is in English; in Portuguese with ordinals up to the ninth article or paragraph and the words of Brazilian legal
/// writing (`IN CDAE/MT 2019, art. 3º, parágrafo único`; `art. 6, §6–8` → `art. 6º, §§ 6º a 8º`; `annex I` → `anexo I`).
pub fn legal_basis(text: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return text.to_owned();
    }
    let text = text.replace("sole §", "parágrafo único").replace("annex", "anexo");
    // A number as cited: ordinal (`3º`) from 1 to 9, cardinal from 10.
    let cited = |digits: &str| match digits.parse::<u32>() {
        Ok(n) if (1..10).contains(&n) => format!("{n}º"),
        _ => digits.to_owned(),
    };
    let digits_at = |s: &str| -> usize { s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()) };
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text.as_str();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("art. ") {
            let n = digits_at(after);
            out.push_str("art. ");
            out.push_str(&cited(&after[..n]));
            rest = &after[n..];
        } else if let Some(after) = rest.strip_prefix('§') {
            let n = digits_at(after);
            if n == 0 {
                out.push('§');
                rest = after;
                continue;
            }
            let first = cited(&after[..n]);
            let tail = &after[n..];
            match tail.strip_prefix('–') {
                Some(range) if digits_at(range) > 0 => {
                    let m = digits_at(range);
                    out.push_str(&format!("§§ {first} a {}", cited(&range[..m])));
                    rest = &range[m..];
                }
                _ => {
                    out.push_str(&format!("§ {first}"));
                    rest = tail;
                }
            }
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// A day: `05/12/2026` in Portuguese, `2026-12-05` in English.
pub fn date(d: chrono::NaiveDate, lang: Lang) -> String {
    match lang {
        Lang::PtBr => d.format("%d/%m/%Y").to_string(),
        Lang::En => d.format("%Y-%m-%d").to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        s.parse().unwrap_or_default()
    }

    #[test]
    fn numbers_money_percentages_and_dates_are_written_per_locale() {
        assert_eq!(money(dec("1234.56"), Lang::PtBr), "R$ 1.234,56");
        assert_eq!(money(dec("1234.56"), Lang::En), "R$ 1,234.56");
        assert_eq!(money(dec("1000000"), Lang::PtBr), "R$ 1.000.000,00");
        assert_eq!(money(dec("-5.1"), Lang::PtBr), "R$ -5,10");
        assert_eq!(percent(dec("46.75"), Lang::PtBr), "46,75 %");
        assert_eq!(percent(dec("46.7512"), Lang::En), "46.75 %");
        assert_eq!(percent(dec("30.00"), Lang::PtBr), "30 %");
        assert_eq!(number(dec("1234567"), Lang::PtBr), "1.234.567");
        assert_eq!(number(dec("123"), Lang::En), "123");
        let d = chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap_or_default();
        assert_eq!(date(d, Lang::PtBr), "05/12/2026");
        assert_eq!(date(d, Lang::En), "2026-12-05");
    }

    #[test]
    fn legal_bases_are_cited_as_each_language_cites_them() {
        let pt = |s| legal_basis(s, Lang::PtBr);
        assert_eq!(
            pt("IN CDAE/MT 2019, art. 3, sole §"),
            "IN CDAE/MT 2019, art. 3º, parágrafo único"
        );
        assert_eq!(
            pt("IN CDAE/MT 2019, art. 6, §6–8; art. 7, §5–7"),
            "IN CDAE/MT 2019, art. 6º, §§ 6º a 8º; art. 7º, §§ 5º a 7º"
        );
        assert_eq!(
            pt("IN MDA nº 2/2005, art. 8, annex I"),
            "IN MDA nº 2/2005, art. 8º, anexo I"
        );
        assert_eq!(
            pt("IN MDA nº 2/2005, art. 11, I, §1"),
            "IN MDA nº 2/2005, art. 11, I, § 1º"
        );
        assert_eq!(
            pt("IN CDAE/MT 2019, art. 6, I, a; art. 7, I, a"),
            "IN CDAE/MT 2019, art. 6º, I, a; art. 7º, I, a"
        );
        assert_eq!(
            legal_basis("IN CDAE/MT 2019, art. 3, sole §", Lang::En),
            "IN CDAE/MT 2019, art. 3, sole §"
        );
        for rule in entity::rules::RULES {
            let text = pt(rule.legal_basis);
            assert!(!text.contains("sole") && !text.contains("annex"), "{text}");
        }
    }

    /// Lower-case words that are English and not Portuguese: one of them in a Portuguese text is a text left
    /// untranslated.
    const ENGLISH_WORDS: &[&str] = &[
        "the", "is", "are", "not", "and", "with", "for", "from", "was", "were", "has", "have", "this", "that", "which",
        "must", "cannot", "missing", "file", "sheet", "row", "rows", "date", "amount", "bank", "of", "to", "by", "on",
        "at", "or", "it", "its", "be", "been", "will", "should", "there", "than", "more", "only", "after", "before",
        "day", "days", "month", "months", "year", "name", "value", "write", "give", "yes", "none", "any", "all",
        "each", "every", "report", "reports", "open", "closed", "overdue", "due", "between", "until", "since",
    ];

    /// Words of a Portuguese text that the list above would take for English: proper nouns, codes and names a
    /// client types (a GraphQL argument, a file name), quoted in the text.
    const ALLOWED: &[&str] = &[];

    /// The lower-case words of `text` outside `«…»`, backticks and quotes (names and values quoted as typed).
    fn words(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut quoted: Option<char> = None;
        let mut word = String::new();
        for c in text.chars().chain([' ']) {
            match (quoted, c) {
                (None, '«') => quoted = Some('»'),
                (None, '`') => quoted = Some('`'),
                (None, '"') => quoted = Some('"'),
                (Some(q), c) if c == q => quoted = None,
                (Some(_), _) => {}
                (None, c) if c.is_alphabetic() || c == '\'' => word.push(c),
                (None, _) => {
                    if !word.is_empty() && word.chars().all(|c| c.is_lowercase() || c == '\'') {
                        out.push(std::mem::take(&mut word));
                    }
                    word.clear();
                }
            }
        }
        out
    }

    /// Every message id is rendered in both locales with values for all it reads: it fails on an id one locale lacks,
    /// a value one locale reads and the other does not (or that a text reads and is not given), a file that does not
    /// parse, and an English word left in a Portuguese text.
    #[test]
    fn every_message_renders_in_both_locales_with_its_values_and_portuguese_has_no_english_word() {
        assert_eq!(problems(), Vec::<String>::new());
        let pt = ids(Lang::PtBr);
        let en = ids(Lang::En);
        let only_pt: Vec<&String> = pt.iter().filter(|i| !en.contains(i)).collect();
        let only_en: Vec<&String> = en.iter().filter(|i| !pt.contains(i)).collect();
        assert!(
            only_pt.is_empty() && only_en.is_empty(),
            "only in pt-BR: {only_pt:?}; only in en: {only_en:?}"
        );
        let mut english_left = Vec::new();
        for id in &pt {
            let names = variables(id, Lang::PtBr);
            assert_eq!(
                names,
                variables(id, Lang::En),
                "{id}: the locales read different values"
            );
            // One and two (a plural's both forms), a day and an amount.
            for sample in ["1", "2", "2026-12-05", "1234.5"] {
                for lang in [Lang::PtBr, Lang::En] {
                    let args = names.iter().map(|n| (n.as_str(), sample));
                    let Some((text, errors)) = render_checked(id, args, lang) else {
                        panic!("{id} has no text in {}", lang.tag());
                    };
                    assert!(errors.is_empty(), "{id} in {}: {errors:?}", lang.tag());
                    assert!(
                        !text.contains('{') && !text.trim().is_empty(),
                        "{id} in {}: {text}",
                        lang.tag()
                    );
                    if lang == Lang::PtBr {
                        for w in words(&text) {
                            if ENGLISH_WORDS.contains(&w.as_str()) && !ALLOWED.contains(&w.as_str()) {
                                english_left.push(format!("{id}: {w:?} in {text:?}"));
                            }
                            english_left.dedup_by(|a, b| a.split(':').next() == b.split(':').next());
                        }
                    }
                }
            }
        }
        english_left.dedup();
        assert!(
            english_left.is_empty(),
            "English left in Portuguese texts:\n{}",
            english_left.join("\n")
        );
    }

    /// The source of `id`'s text in `lang`, every variant of its selections included, without its syntax (values,
    /// variant keys, functions): what a reader may see of it whichever values it is given.
    fn every_variant(id: &str, lang: Lang) -> String {
        let mut out = String::new();
        for (_, text) in files(lang) {
            let mut inside = false;
            for line in text.lines() {
                if line.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    inside = line.split_once(" =").is_some_and(|(i, _)| i.trim() == id);
                    if inside {
                        out.push_str(line.split_once(" =").map_or("", |(_, t)| t));
                        out.push(' ');
                        continue;
                    }
                } else if line.is_empty() || line.starts_with('#') {
                    inside = false;
                }
                if inside {
                    out.push_str(line);
                    out.push(' ');
                }
            }
        }
        let mut plain = String::with_capacity(out.len());
        let mut chars = out.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                // A value's or a function's name, a variant's key, the selector's arrow: syntax, not words.
                '$' => {
                    while chars
                        .peek()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                    {
                        chars.next();
                    }
                }
                '[' => {
                    for c in chars.by_ref() {
                        if c == ']' {
                            break;
                        }
                    }
                }
                '{' | '}' | '*' => plain.push(' '),
                '-' if chars.peek() == Some(&'>') => {
                    chars.next();
                }
                c => plain.push(c),
            }
        }
        plain
    }

    /// No English word in a Portuguese text whatever its values: every variant of every selection is read (the
    /// every-message test renders one per sample), over the whole catalogue: refusals (`REFUSE_*`) and every error code,
    /// rule texts and explanations, the history notes Fomento writes (`history-*`), the pages and the command line.
    #[test]
    fn no_portuguese_variant_of_any_text_holds_an_english_word() {
        let mut english_left = Vec::new();
        for id in ids(Lang::PtBr) {
            let text = every_variant(&id, Lang::PtBr);
            for w in words(&text) {
                if ENGLISH_WORDS.contains(&w.as_str()) && !ALLOWED.contains(&w.as_str()) {
                    english_left.push(format!("{id}: {w:?} in {text:?}"));
                }
            }
        }
        english_left.dedup_by(|a, b| a.split(':').next() == b.split(':').next());
        assert!(
            english_left.is_empty(),
            "English left in Portuguese texts:\n{}",
            english_left.join("\n")
        );
        // The walk sees a variant no sample renders: the refusal of a statement over a contracted carta.
        assert!(
            every_variant("REFUSE_STATEMENT", Lang::PtBr).contains("um financiamento contratado muda por alteração")
        );
        assert!(every_variant("history-expired", Lang::PtBr).contains("nenhuma apresentação está registrada"));
        // And the texts of issue 43's last pass: the notes an act writes, the jobs' summaries, the transport's refusals
        // (variants no sample value reaches among them).
        assert!(every_variant("history-schedule", Lang::PtBr).contains("atraso aceito pelo MDA em"));
        assert!(every_variant("history-bank-framing", Lang::PtBr).contains("analisada pelo banco"));
        assert!(every_variant("JOB_FLAGS_DONE", Lang::PtBr).contains("mantidos pela decisão de uma pessoa"));
        assert!(every_variant("GRAPHQL_MULTIPART_INVALID", Lang::PtBr).contains("não é um mapa válido de arquivos"));
        assert!(every_variant("GRAPHQL_NO_QUERY", Lang::PtBr).contains("precisa do parâmetro"));
        assert!(words(&every_variant("REFUSE_STATEMENT", Lang::En)).contains(&"contracted".to_owned()));
    }

    #[test]
    fn a_missing_value_is_reported() {
        let (text, errors) = render_checked("DATE_SERIAL", [("value", "5")], Lang::PtBr).unwrap_or_default();
        assert_eq!(errors.len(), 1, "{text}");
    }

    #[test]
    fn every_rule_code_has_a_portuguese_title_of_its_own() {
        for rule in entity::rules::RULES {
            let pt = render(rule.code.as_str(), [], Lang::PtBr);
            let en = render(rule.code.as_str(), [], Lang::En);
            assert!(pt.is_some(), "{} has no Portuguese title", rule.code);
            assert_ne!(pt, en, "{}: the Portuguese title is the English one", rule.code);
            assert_eq!(
                en.as_deref(),
                Some(rule.title),
                "{}: the English title is the catalogue's",
                rule.code
            );
        }
    }

    #[test]
    fn plurals_are_chosen_by_the_language() {
        assert_eq!(crate::labels::count(1, "day", Lang::PtBr), "1 dia");
        assert_eq!(crate::labels::count(2, "day", Lang::PtBr), "2 dias");
        assert_eq!(crate::labels::count(1, "day", Lang::En), "1 day");
        assert_eq!(crate::labels::count(0, "day", Lang::En), "0 days");
    }

    #[test]
    fn label_keys_become_fluent_identifiers() {
        assert_eq!(id("AMOUNT_MISSING"), "AMOUNT_MISSING");
        assert_eq!(id("FCO-CEILING"), "FCO-CEILING");
        assert_eq!(id("value.decided_by.?"), "value-decided_by-_x3f");
    }
}
