//! Errors made where the request's language is not at hand (an argument's ID decoded before any context, a lookup
//! that finds nothing) carry their catalogue message as code and values; [`render`] says each in the request's
//! language (`Accept-Language`, Portuguese by default) once the request is done, and async-graphql's own messages too.

use async_graphql::{ErrorExtensions, Response, Value};
use service::messages::{Lang, Message, code};

/// The extension names of the message an error carries until it is rendered.
const CODE: &str = "messageCode";
const ARGS: &str = "messageArgs";

/// A GraphQL error with `code` (`BAD_USER_INPUT`, `NOT_FOUND`) whose text is `message` in the request's language.
pub fn error(code: &'static str, message: Message) -> async_graphql::Error {
    let args: async_graphql::indexmap::IndexMap<async_graphql::Name, Value> = message
        .args
        .iter()
        .map(|(k, v)| (async_graphql::Name::new(k), Value::from(v.as_str())))
        .collect();
    async_graphql::Error::new(message.render(Lang::default())).extend_with(|_, e| {
        e.set("code", code);
        e.set(CODE, message.code.as_str());
        e.set(ARGS, Value::Object(args));
    })
}

/// Renders `response`'s errors in `lang`: Fomento's own (carried as code and values) and async-graphql's (by their
/// shapes, [`graphql_message`]). Every door calls it on the answer it sends (`graphql::request::finished`).
pub fn render(response: &mut Response, lang: Lang) {
    for e in &mut response.errors {
        if let Some(ext) = e.extensions.as_mut()
            && let Some(Value::String(code)) = ext.get(CODE).cloned()
        {
            let mut message = Message::new(&code);
            if let Some(Value::Object(args)) = ext.get(ARGS) {
                for (k, v) in args {
                    if let Value::String(v) = v {
                        message = message.arg(k.as_str(), v);
                    }
                }
            }
            e.message = message.render(lang);
            ext.unset(CODE);
            ext.unset(ARGS);
        }
        // Its code is decided on async-graphql's own words, before they are said in the reader's language.
        if is_bad_input(&e.message) {
            let ext = e.extensions.get_or_insert_with(Default::default);
            if ext.get("code").is_none() {
                ext.set("code", "BAD_USER_INPUT");
            }
        }
        if let Some(text) = graphql_message(&e.message, lang) {
            e.message = text;
        }
    }
}

/// Whether an error without a code is about a value the client sent: an argument or variable value the schema's
/// validation refused (`Invalid value for argument …`), or one a scalar or input type could not parse during execution
/// (`Failed to parse "Date": …`): `BAD_USER_INPUT`, read on async-graphql's own (English) words.
pub fn is_bad_input(message: &str) -> bool {
    message.starts_with("Invalid value for argument") || message.starts_with("Failed to parse ")
}

/// async-graphql's own messages (parse, validation, operation selection, values a scalar or input type could not
/// read), which it gives only as English text, by their shape, each with the catalogue code that says it in the
/// reader's language: `{name}` captures a value up to the text that follows it in the shape (the last, to the end),
/// passed as the value `name`; a `reason` or `hint` captured is itself looked up here (the reason of an invalid
/// argument, a suggestion), and left as it is when it has no shape of its own. A message of no shape here is left as
/// it is; its `extensions.code` is never changed.
const SHAPES: &[(&str, &str)] = &[
    (
        r#"Unknown field "{field}" on type "{type}".{hint}"#,
        code::GRAPHQL_UNKNOWN_FIELD,
    ),
    (
        r#"Unknown argument "{argument}" on field "{field}" of type "{type}".{hint}"#,
        code::GRAPHQL_UNKNOWN_ARGUMENT,
    ),
    (
        r#"Invalid value for argument "{argument}", {reason}"#,
        code::GRAPHQL_INVALID_ARGUMENT,
    ),
    (r#"Failed to parse "{type}": {reason}"#, code::GRAPHQL_FAILED_TO_PARSE),
    (
        r#"Field "{field}" argument "{argument}" of type "{type}" is required but not provided"#,
        code::GRAPHQL_ARGUMENT_REQUIRED,
    ),
    (
        r#"Field "{field}" must not have a selection since type "{type}" has no subfields"#,
        code::GRAPHQL_NO_SUBFIELDS,
    ),
    (
        r#"Field "{field}" of type "{type}" must have a selection of subfields"#,
        code::GRAPHQL_NEEDS_SUBFIELDS,
    ),
    (
        r#"Variable "${name}" is not defined by operation "{operation}""#,
        code::GRAPHQL_VARIABLE_NOT_DEFINED_BY,
    ),
    (
        r#"Variable "${name}" is not defined"#,
        code::GRAPHQL_VARIABLE_NOT_DEFINED,
    ),
    (
        r#"Variable "${name}" is not used by operation "{operation}""#,
        code::GRAPHQL_VARIABLE_NOT_USED_BY,
    ),
    (r#"Variable "${name}" is not used"#, code::GRAPHQL_VARIABLE_NOT_USED),
    (
        r#"Variable "{name}" of type "{type}" used in position expecting type "{expected}""#,
        code::GRAPHQL_VARIABLE_POSITION,
    ),
    (r#"Unknown fragment: "{name}""#, code::GRAPHQL_UNKNOWN_FRAGMENT),
    (r#"Fragment "{name}" is never used"#, code::GRAPHQL_FRAGMENT_UNUSED),
    (r#"Unknown type "{name}""#, code::GRAPHQL_UNKNOWN_TYPE),
    (r#"Unknown directive "{name}""#, code::GRAPHQL_UNKNOWN_DIRECTIVE),
    (r#"Unknown operation named "{name}""#, code::GRAPHQL_UNKNOWN_OPERATION),
    (
        "Operation name required in request.",
        code::GRAPHQL_OPERATION_NAME_REQUIRED,
    ),
    // The reasons and hints placed in the messages above.
    (r#"expected type "{type}""#, code::GRAPHQL_EXPECTED_TYPE),
    (
        r#"enumeration type "{type}" does not contain the value "{value}""#,
        code::GRAPHQL_ENUM_VALUE,
    ),
    (
        r#"field "{field}" of type "{type}" is required but not provided"#,
        code::GRAPHQL_INPUT_FIELD_REQUIRED,
    ),
    (
        r#"unknown field "{field}" of type "{type}""#,
        code::GRAPHQL_INPUT_FIELD_UNKNOWN,
    ),
    (
        "Only integers from {min} to {max} are accepted.",
        code::GRAPHQL_INTEGER_RANGE,
    ),
    (
        r#"Expected input type "{type}", found {value}."#,
        code::GRAPHQL_EXPECTED_INPUT,
    ),
    (
        r#"{reason} (occurred while parsing "{type}")"#,
        code::GRAPHQL_WHILE_PARSING,
    ),
    (" Did you mean {names}?", code::GRAPHQL_DID_YOU_MEAN),
    // Fomento's own scalars (`scalars.rs`), whose texts async-graphql places after `Failed to parse "Date": `.
    (
        "{value} is not a date in the form YYYY-MM-DD that exists",
        code::GRAPHQL_NOT_A_DATE,
    ),
    (
        r#"{value} is not a decimal number written as "1234.56" (digits, an optional point, no spaces, separators or exponent)"#,
        code::GRAPHQL_NOT_A_DECIMAL,
    ),
    ("{value} is out of the decimal range", code::GRAPHQL_DECIMAL_RANGE),
    ("{value} is not an RFC 3339 timestamp", code::GRAPHQL_NOT_A_TIMESTAMP),
    // The parser's (pest's) syntax error, as async-graphql writes it.
    (
        " --> {line}:{column}\n{excerpt}= expected {expected}",
        code::GRAPHQL_SYNTAX,
    ),
];

/// The values `shape` captures from `text`, or `None` when `text` is not of that shape.
fn captures<'a>(shape: &'a str, text: &'a str) -> Option<Vec<(&'a str, &'a str)>> {
    let mut out = Vec::new();
    let (mut shape, mut text) = (shape, text);
    loop {
        let Some(open) = shape.find('{') else {
            return (text == shape).then_some(out);
        };
        text = text.strip_prefix(&shape[..open])?;
        let close = open + shape[open..].find('}')?;
        let name = &shape[open + 1..close];
        shape = &shape[close + 1..];
        let literal = &shape[..shape.find('{').unwrap_or(shape.len())];
        let end = if literal.len() == shape.len() {
            // The shape's last literal ends the text.
            text.len()
                .checked_sub(literal.len())
                .filter(|e| text.ends_with(literal) && text.is_char_boundary(*e))?
        } else if literal.is_empty() {
            return None;
        } else {
            text.find(literal)?
        };
        out.push((name, &text[..end]));
        text = &text[end..];
    }
}

/// One of async-graphql's own messages in `lang`, by its shape in [`SHAPES`]; `None` when it has no shape there.
pub fn graphql_message(text: &str, lang: Lang) -> Option<String> {
    SHAPES.iter().find_map(|(shape, code)| {
        let values = captures(shape, text)?;
        let mut message = Message::new(code);
        for (name, value) in values {
            let value = match name {
                "reason" | "hint" if !value.is_empty() => {
                    graphql_message(value, lang).unwrap_or_else(|| value.to_owned())
                }
                "expected" if *code == code::GRAPHQL_SYNTAX => value.replace('_', " "),
                _ => value.to_owned(),
            };
            message = message.arg(name, value);
        }
        Some(message.render(lang))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn async_graphqls_messages_are_said_in_the_readers_language_by_their_shape() {
        let pt = |t: &str| graphql_message(t, Lang::PtBr);
        let en = |t: &str| graphql_message(t, Lang::En);
        assert_eq!(
            pt(r#"Unknown field "financingz" on type "QueryRoot". Did you mean "financings"?"#).as_deref(),
            Some(r#"campo desconhecido "financingz" no tipo "QueryRoot". Você quis dizer "financings"?"#)
        );
        assert_eq!(
            en(r#"Unknown field "x" on type "QueryRoot"."#).as_deref(),
            Some(r#"unknown field "x" on type "QueryRoot"."#)
        );
        assert_eq!(
            pt(r#"Invalid value for argument "first", expected type "Int""#).as_deref(),
            Some(r#"valor inválido para o argumento "first": o tipo esperado é "Int""#)
        );
        assert_eq!(
            pt(r#"Invalid value for argument "filter.stages.0", enumeration type "FcoCartaStage" does not contain the value "X""#)
                .as_deref(),
            Some(r#"valor inválido para o argumento "filter.stages.0": a enumeração "FcoCartaStage" não tem o valor "X""#)
        );
        assert_eq!(
            pt(r#"Failed to parse "Int": Only integers from -2147483648 to 2147483647 are accepted."#).as_deref(),
            Some(r#"não foi possível ler "Int": só se aceitam inteiros de -2147483648 a 2147483647"#)
        );
        assert_eq!(
            pt(r#"Failed to parse "Date": "2026-13-01" is not a date in the form YYYY-MM-DD that exists (occurred while parsing "NewFcoCarta")"#)
                .as_deref(),
            Some(r#"não foi possível ler "Date": "2026-13-01" não é uma data existente na forma AAAA-MM-DD (ao ler "NewFcoCarta")"#)
        );
        assert_eq!(
            pt(r#"Field "node" argument "id" of type "Query" is required but not provided"#).as_deref(),
            Some(r#"o argumento "id" do campo "node", do tipo "Query", é obrigatório e não foi informado"#)
        );
        assert_eq!(
            pt(r#"Variable "$x" is not defined by operation "Q""#).as_deref(),
            Some(r#"a variável "$x" não está definida pela operação "Q""#)
        );
        assert_eq!(
            pt(r#"Unknown operation named "Nope""#).as_deref(),
            Some(r#"nenhuma operação se chama "Nope""#)
        );
        // A message of no known shape is left as it is.
        assert_eq!(pt("something else entirely"), None);
        assert_eq!(pt(r#"Unknown field "x" on type"#), None);
    }

    #[test]
    fn a_shape_captures_up_to_the_text_that_follows() {
        assert_eq!(
            captures(r#"Unknown "{a}" on "{b}".{c}"#, r#"Unknown "x" on "y"."#),
            Some(vec![("a", "x"), ("b", "y"), ("c", "")])
        );
        assert_eq!(captures("{v} is out", "\"1e9\" is out"), Some(vec![("v", "\"1e9\"")]));
        assert_eq!(captures("exact", "exact"), Some(vec![]));
        assert_eq!(captures("exact", "exactly"), None);
    }
}
