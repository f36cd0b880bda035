//! The rules' explanations in English for the rules' own tests: the service renders them (`service::l10n`); these
//! tests, which cannot reach it, render the English catalogue's `explanations.ftl` the same way (values as Fluent
//! sees them, a clause rendered and placed, a list joined with `and`), so they assert on the sentences people read.

use super::Explanation;
use fluent_bundle::types::FluentNumber;
use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};

thread_local! {
    static BUNDLE: FluentBundle<FluentResource> = bundle();
}

fn bundle() -> FluentBundle<FluentResource> {
    let text = include_str!("../../../service/locales/en/explanations.ftl");
    let resource = FluentResource::try_new(text.to_owned()).unwrap_or_else(|(r, _)| r);
    let mut bundle = FluentBundle::new(vec!["en".parse().unwrap_or_default()]);
    bundle.set_use_isolating(false);
    let _ = bundle.add_resource(resource);
    let raw = |positional: &[FluentValue<'_>]| match positional.first() {
        Some(FluentValue::String(s)) => s.to_string(),
        Some(FluentValue::Number(n)) => n.as_string().into_owned(),
        _ => String::new(),
    };
    // English dates are ISO, as stored; legal bases as the catalogue writes them; numbers as stored.
    let _ = bundle.add_function("DATE", move |p, _| FluentValue::from(raw(p)));
    let _ = bundle.add_function("LEGAL", move |p, _| FluentValue::from(raw(p)));
    let _ = bundle.add_function("NUMBER", move |p, _| FluentValue::from(raw(p)));
    let _ = bundle.add_function("PERCENT", move |p, _| {
        let text = raw(p);
        match text.parse::<rust_decimal::Decimal>() {
            Ok(v) => FluentValue::from(format!("{} %", v.round_dp(2).normalize())),
            Err(_) => FluentValue::from(text),
        }
    });
    let _ = bundle.add_function("MONEY", move |p, _| {
        let Ok(v) = raw(p).parse::<rust_decimal::Decimal>() else {
            return FluentValue::from(raw(p));
        };
        let mut v = v.round_dp(2);
        v.rescale(2);
        let text = v.abs().to_string();
        let (whole, fraction) = text.split_once('.').unwrap_or((&text, "00"));
        let mut grouped = String::new();
        for (i, c) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i).is_multiple_of(3) {
                grouped.push(',');
            }
            grouped.push(c);
        }
        let sign = if v.is_sign_negative() && !v.is_zero() { "-" } else { "" };
        FluentValue::from(format!("R$ {sign}{grouped}.{fraction}"))
    });
    bundle
}

/// `e` in English.
pub fn english(e: &Explanation) -> String {
    e.render_with(
        &|_, id, values| {
            BUNDLE.with(|b| {
                let Some(pattern) = b.get_message(id).and_then(|m| m.value()) else {
                    return format!("<no English text for {id}>");
                };
                let mut fargs = FluentArgs::new();
                for (k, v) in values {
                    let value = match v.parse::<FluentNumber>() {
                        Ok(n) if n.as_string() == v.as_str() => FluentValue::Number(n),
                        _ => FluentValue::from(v.clone()),
                    };
                    fargs.set(*k, value);
                }
                let mut errors = Vec::new();
                b.format_pattern(pattern, Some(&fargs), &mut errors).into_owned()
            })
        },
        &|items, semicolons| match (items.as_slice(), semicolons) {
            (_, true) => items.join("; "),
            ([], _) => String::new(),
            ([one], _) => one.clone(),
            ([init @ .., last], _) => format!("{} and {last}", init.join(", ")),
        },
    )
}
