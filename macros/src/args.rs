//! What every placeholder shares: its `key = value` arguments read, and the descriptions and names it writes.

use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, MetaNameValue, Token};

/// The `key = value` pairs of a placeholder.
pub(crate) struct Pairs {
    placeholder: &'static str,
    pairs: Punctuated<MetaNameValue, Token![,]>,
    span: proc_macro2::Span,
}

impl Pairs {
    pub(crate) fn parse(placeholder: &'static str, input: ParseStream) -> syn::Result<Self> {
        Ok(Pairs {
            placeholder,
            span: input.span(),
            pairs: Punctuated::parse_terminated(input)?,
        })
    }

    pub(crate) fn find(&self, key: &str) -> syn::Result<&Expr> {
        self.pairs
            .iter()
            .find(|p| p.path.is_ident(key))
            .map(|p| &p.value)
            .ok_or_else(|| syn::Error::new(self.span, format!("{} needs `{key} = …`", self.placeholder)))
    }
}

pub(crate) fn ident_of(e: &Expr) -> syn::Result<Ident> {
    match e {
        Expr::Path(p) if p.path.get_ident().is_some() => Ok(p.path.get_ident().cloned().expect("an ident")),
        other => Err(syn::Error::new_spanned(other, "a name is expected here")),
    }
}

pub(crate) fn text_of(e: &Expr) -> syn::Result<String> {
    match e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s), ..
        }) => Ok(s.value()),
        other => Err(syn::Error::new_spanned(other, "a string is expected here")),
    }
}

/// `SocialFuel` → `SOCIAL_FUEL`, the enum value's name in the schema.
pub(crate) fn screaming(camel: &str) -> String {
    snake(camel).to_uppercase()
}

/// `text` as the `#[doc]` lines of a comment wrapped as the sources wrap theirs (at most 119 characters a line with
/// `    /// `), so that the schema's descriptions read as those written by hand.
pub(crate) fn doc(text: &str) -> Tokens {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && line.len() + 1 + word.len() > 111 {
            lines.push(word.to_owned());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines.iter().map(|l| quote!(#[doc = #l])).collect()
}

/// `FcoCartaItem` → `fco_carta_item`.
pub(crate) fn snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::TokenTree;

    #[test]
    fn a_type_name_becomes_the_mutations_snake_case_stem() {
        assert_eq!(snake("FcoCartaItem"), "fco_carta_item");
        assert_eq!(snake("ContractProposal"), "contract_proposal");
    }

    #[test]
    fn a_programme_becomes_its_enum_value_in_the_schema() {
        assert_eq!(screaming("SocialFuel"), "SOCIAL_FUEL");
        assert_eq!(screaming("FcoRural"), "FCO_RURAL");
    }

    #[test]
    fn a_description_is_wrapped_as_the_sources_wrap_their_comments() {
        let text = "Changes an item: a new version, the old one kept (`items(includeSuperseded: true)`); after the \
                    decision with the `reason`.";
        let lines: Vec<String> = doc(text)
            .into_iter()
            .filter_map(|t| match t {
                TokenTree::Group(g) => Some(g.stream().to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].ends_with("after the decision with\""), "{lines:?}");
        assert!(lines[1].contains("\"the `reason`.\""), "{lines:?}");
    }
}
