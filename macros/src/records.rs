//! The fields of the records kept by number (`numbered_fields!`), in versions (`versioned_fact_fields!`) or as files
//! received and kept in the store (`received_file_fields!`).

use crate::args::{Pairs, doc, ident_of, text_of};
use syn::parse::ParseStream;
use syn::{ImplItem, Macro, parse_quote};

/// `numbered_fields!(node = BankReport, number = "The number used in …")`.
pub(crate) fn numbered_fields(mac: &Macro) -> syn::Result<Vec<ImplItem>> {
    let (node, number) = mac.parse_body_with(|input: ParseStream| {
        let pairs = Pairs::parse("numbered_fields!", input)?;
        Ok((ident_of(pairs.find("node")?)?, doc(&text_of(pairs.find("number")?)?)))
    })?;
    Ok(vec![
        parse_quote! {
            /// Opaque global ID.
            pub async fn id(&self) -> ::async_graphql::ID {
                crate::graphql::ids::encode(crate::graphql::ids::NodeKind::#node, self.0.id)
            }
        },
        parse_quote! {
            #number
            async fn number(&self) -> i64 {
                self.0.id
            }
        },
    ])
}

/// `versioned_fact_fields!(node = CartaItem, name = "FcoCartaItem", number = item_id, clock = cdae)`.
pub(crate) fn versioned_fact_fields(mac: &Macro) -> syn::Result<Vec<ImplItem>> {
    let (node, name, number, clock) = mac.parse_body_with(|input: ParseStream| {
        let pairs = Pairs::parse("versioned_fact_fields!", input)?;
        Ok((
            ident_of(pairs.find("node")?)?,
            text_of(pairs.find("name")?)?,
            ident_of(pairs.find("number")?)?,
            ident_of(pairs.find("clock")?)?,
        ))
    })?;
    // One line each, as the hand-written descriptions were (a wrapped one would read with a line break).
    let id_doc = format!(
        "The version's global ID (`node(id:)` fetches it; `record{name}Correction` and `record{name}Removal` take it)."
    );
    let number_doc = format!("The version's number, for `update{name}` and `remove{name}`.");
    Ok(vec![
        parse_quote! {
            #[doc = #id_doc]
            pub(crate) async fn id(&self) -> ::async_graphql::ID {
                crate::graphql::ids::encode(crate::graphql::ids::NodeKind::#node, self.0.id)
            }
        },
        parse_quote! {
            #[doc = #number_doc]
            async fn #number(&self) -> i64 {
                self.0.id
            }
        },
        parse_quote! {
            /// Who recorded this version and when; when, by which version and why it was corrected or removed.
            async fn version(&self) -> crate::graphql::types::financing::FactVersion {
                crate::graphql::types::financing::FactVersion::of(crate::graphql::scalars::DateTime::#clock, &self.0)
            }
        },
    ])
}

/// `received_file_fields!()`.
pub(crate) fn received_file() -> Vec<ImplItem> {
    vec![
        parse_quote! {
            /// The file's name as sent.
            async fn file_name(&self) -> &str {
                &self.0.file_name
            }
        },
        parse_quote! {
            /// Size in bytes.
            async fn byte_size(&self) -> i64 {
                self.0.byte_size
            }
        },
        parse_quote! {
            /// SHA-256 of the raw bytes (hex): the file's address in the store.
            async fn sha256(&self) -> &str {
                &self.0.sha256
            }
        },
        parse_quote! {
            /// When it was received, on Cuiabá's clock.
            async fn received_at(&self) -> crate::graphql::scalars::DateTime {
                crate::graphql::scalars::DateTime::cdae(self.0.received_at)
            }
        },
    ]
}
