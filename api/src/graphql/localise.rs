//! Errors made where the request's language is not at hand (an argument's ID decoded before any context, a lookup
//! that finds nothing) carry their catalogue message as code and values; this extension renders each in the
//! request's language (`Accept-Language`, Portuguese by default) once the request is done ([`render`]).

use async_graphql::{ErrorExtensions, Response, Value};
use service::messages::{Lang, Message};

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

/// Renders the messages of `response`'s errors in `lang`: every door calls it on the answer it sends.
pub fn render(response: &mut Response, lang: Lang) {
    for e in &mut response.errors {
        let Some(ext) = e.extensions.as_mut() else {
            continue;
        };
        let Some(Value::String(code)) = ext.get(CODE).cloned() else {
            continue;
        };
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
}
