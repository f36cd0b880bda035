//! Query strings read strictly, as the graph reads its arguments: each parameter named once and known to the address,
//! days that exist, values among those allowed; what is wrong is answered in the one REST error shape
//! (`refusal::refuse`), in the reader's language.

use axum::{http::StatusCode, response::Response};
use chrono::NaiveDate;
use entity::vocab::Programme;
use service::messages::{Lang, Message, code};
use std::collections::BTreeMap;

/// The `name=value` pairs of a query string or a form body, percent-decoded (`+` a space), in order.
pub fn pairs(raw: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(raw.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// One query-string component percent-decoded (`+` a space; a malformed escape kept as written).
pub fn decode(component: &str) -> String {
    percent_encoding::percent_decode_str(&component.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

/// What [`encode`] leaves as it is: letters, digits, `-`, `_`, `.`, `~` (unreserved) and `/` (allowed in a query and
/// kept readable in a `next` path).
const KEPT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~')
    .remove(b'/');

/// A value percent-encoded for a query string or a cookie.
pub fn encode(value: &str) -> String {
    percent_encoding::utf8_percent_encode(value, KEPT).to_string()
}

/// A query string's parameters, by name.
#[derive(Debug, Default)]
pub struct Params(BTreeMap<String, String>);

/// A wrong parameter: its name and what is wrong.
pub type Wrong = (&'static str, Message);

impl Params {
    /// The parameters of `raw`, each of them among `allowed`.
    pub fn parse(raw: Option<&str>, allowed: &[&'static str]) -> Result<Self, Wrong> {
        let mut out = BTreeMap::new();
        for (k, v) in pairs(raw.unwrap_or("")) {
            let Some(known) = allowed.iter().find(|a| **a == k) else {
                return Err((
                    "query",
                    Message::new(code::PARAMETER_UNKNOWN)
                        .arg("name", k)
                        .arg("names", allowed.join(", ")),
                ));
            };
            if out.insert((*known).to_owned(), v).is_some() {
                return Err((known, Message::new(code::PARAMETER_REPEATED).arg("name", known)));
            }
        }
        Ok(Self(out))
    }

    /// The text of `name`, if given and not empty.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str).filter(|v| !v.is_empty())
    }

    /// The day `asOf` names (`YYYY-MM-DD`), if given: a day that does not exist (`2025-02-30`) is told apart from
    /// text that is no date.
    pub fn as_of(&self) -> Result<Option<NaiveDate>, Wrong> {
        let Some(v) = self.get("asOf") else {
            return Ok(None);
        };
        NaiveDate::parse_from_str(v, "%Y-%m-%d").map(Some).map_err(|e| {
            let code = if e.kind() == chrono::format::ParseErrorKind::OutOfRange {
                code::DAY_DOES_NOT_EXIST
            } else {
                code::DAY_FORMAT
            };
            ("asOf", Message::new(code).arg("value", v))
        })
    }

    /// The programme `programme` names (`SOCIAL_FUEL`, `FCO_RURAL`), if given.
    pub fn programme(&self) -> Result<Option<Programme>, Wrong> {
        self.choice(
            "programme",
            &[
                ("SOCIAL_FUEL", Programme::SocialFuel),
                ("FCO_RURAL", Programme::FcoRural),
            ],
        )
    }

    /// The language: `lang` (`pt-BR`, `en`) if given, else the `Accept-Language` header's.
    pub fn lang(&self, headers: &axum::http::HeaderMap) -> Result<Lang, Wrong> {
        match self.get("lang") {
            None => Ok(super::refusal::lang_of(headers)),
            Some(v) => Lang::from_tag(v).ok_or_else(|| {
                (
                    "lang",
                    Message::new(code::PARAMETER_CHOICE)
                        .arg("value", v)
                        .arg("choices", "pt-BR, en"),
                )
            }),
        }
    }

    /// `true` or `false` for `name`, if given.
    pub fn flag(&self, name: &'static str) -> Result<Option<bool>, Wrong> {
        self.choice(name, &[("true", true), ("false", false)])
    }

    /// One of `choices` for `name`, if given.
    pub fn choice<T: Copy>(&self, name: &'static str, choices: &[(&str, T)]) -> Result<Option<T>, Wrong> {
        let Some(v) = self.get(name) else {
            return Ok(None);
        };
        choices
            .iter()
            .find(|(k, _)| *k == v)
            .map(|(_, t)| Some(*t))
            .ok_or_else(|| {
                let names: Vec<&str> = choices.iter().map(|(k, _)| *k).collect();
                (
                    name,
                    Message::new(code::PARAMETER_CHOICE)
                        .arg("value", v)
                        .arg("choices", names.join(", ")),
                )
            })
    }
}

/// `400` for a wrong parameter, in the one error shape.
pub fn refuse((field, message): Wrong, lang: Lang) -> Response {
    super::refusal::refuse(StatusCode::BAD_REQUEST, Some(field), message, lang)
}

#[cfg(test)]
mod coding_tests {
    use super::{decode, encode, pairs};

    #[test]
    fn query_strings_are_decoded_as_browsers_encode_them() {
        assert_eq!(decode("%7B+a%20%7D"), "{ a }");
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz"), "%zz");
        assert_eq!(decode("S%C3%A3o+Paulo"), "São Paulo");
        assert_eq!(
            pairs("query=%7B+a+%7D&&flag&x=1%3D1"),
            [("query", "{ a }"), ("flag", ""), ("x", "1=1")].map(|(k, v)| (k.to_owned(), v.to_owned()))
        );
    }

    #[test]
    fn an_encoded_value_decodes_to_itself() {
        for value in [
            "/dashboard?asOf=2025-06-30&lang=en",
            "{\"programmes\":[\"FCO_RURAL\"]}",
            "Cuiabá + 50 %",
            "",
        ] {
            let encoded = encode(value);
            assert!(!encoded.contains(['&', '=', '+', ' ', '"', ';', '#']), "{encoded}");
            assert_eq!(decode(&encoded), value, "{encoded}");
            assert_eq!(
                pairs(&format!("next={encoded}")),
                [("next".to_owned(), value.to_owned())]
            );
        }
        assert_eq!(encode("/graphql#query={ a }"), "/graphql%23query%3D%7B%20a%20%7D");
    }
}
