//! The graph's fields that several types share, declared once. `#[shared_fields]`, written over an `#[Object]` impl
//! (above `#[Object]`), replaces each placeholder in it with the resolvers it stands for, arguments and descriptions
//! included, so that every type answers those fields alike:
//!
//! - `financing_fields!(kind = FcoCarta, programme = FcoRural, stage = FcoCartaStage, bank = "…", party = "…",
//!   municipality = (municipality_code, "…"), amount = (financed_amount, "…"), submitted_on = (submitted_on, "…"),
//!   decided_on = (decided_on, "…"), contracted_on = (contracted_on, "…"));`: the fields of the `Financing` interface
//!   (`id`, `programme`, `bank`, `party`, `municipality`, `amount`, `status`, the three dates) and `stage`, each
//!   described for this programme and read from the columns named;
//! - `judged_fields!(Carta, FcoRural, "carta");`: `compliance`, `deadlines` and `history` of a financing
//!   (`rules::Judged::Carta`, `vocab::Programme::FcoRural`, "this carta" in their descriptions);
//! - `financings_field!("Its description.", scope);`: `financings`, the list of financings in `scope` (a
//!   `list::Scope`, which may read `self`);
//! - `received_file_fields!();`: `fileName`, `byteSize`, `sha256` and `receivedAt` of a file received and kept in the
//!   store (a bank's monthly list, a sheet of facts), from the row's columns of those names;
//! - `numbered_fields!(node = BankReport, number = "The number used in …");`: `id` (the global ID, of
//!   `NodeKind::BankReport`) and `number` (the row's number, as the commands and pages name it) of a record kept by
//!   number;
//! - `versioned_fact_fields!(node = CartaItem, name = "FcoCartaItem", number = item_id, clock = cdae);`: the `id`
//!   (the version's global ID, of `NodeKind::CartaItem`), the version's number (`itemId`) and `version` (its
//!   `FactVersion`, its instants on the `DateTime::cdae` clock) of a fact kept in versions, described by the mutations
//!   that take them;
//! - `versioned_fact_mutations!(kind = Items, name = "FcoCartaItem", parent = carta_id, parent_noun = "carta",
//!   fact = item, noun = "item", a_noun = "an item", decision = "the decision", list = "items", add = "Adds …");`: the
//!   mutations that add a fact kept in versions to its parent (`add…`, described by `add`), change a version and remove
//!   one (`update…`, `remove…`, `record…Correction`, `record…Removal`), in `api::graphql::facts`, whose `add_fact`,
//!   `correct_fact`, `remove_fact` and `version` they call.
//!
//! Over the `Financing` interface's enum, `financing_fields!()` and `judged_fields!()` inside its `#[graphql(…)]`
//! become the declarations of the same fields, with the same types and arguments: a field both financings share is
//! written once, here, for the interface and for both.
//!
//! The generated code names the API crate's items by their paths from `crate`: it is written for `fomento-api` alone.

//! The placeholders live in modules by what they declare: [`financing`] (the fields of the two financings and their
//! interface), [`records`] (the fields of records kept by number, in versions, or as received files), [`facts`] (the
//! mutations of a fact kept in versions); [`args`] reads their arguments and writes their descriptions.

mod args;
mod facts;
mod financing;
mod records;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::{ImplItem, Item, ItemImpl};

/// Writes out the placeholders of an `#[Object]` impl, or of the `Financing` interface's `#[graphql(…)]` (the crate's
/// documentation lists them).
#[proc_macro_attribute]
pub fn shared_fields(attr: TokenStream, item: TokenStream) -> TokenStream {
    let attr = Tokens::from(attr);
    let out = if attr.is_empty() {
        match syn::parse_macro_input!(item as Item) {
            Item::Impl(imp) => expand_impl(imp),
            Item::Enum(e) => Ok(financing::expand_interface(e)),
            other => Err(syn::Error::new_spanned(
                other,
                "#[shared_fields] goes over an impl or an interface's enum",
            )),
        }
    } else {
        Err(syn::Error::new_spanned(attr, "#[shared_fields] takes no arguments"))
    };
    out.unwrap_or_else(syn::Error::into_compile_error).into()
}

fn expand_impl(mut imp: ItemImpl) -> syn::Result<Tokens> {
    let mut items = Vec::with_capacity(imp.items.len());
    for item in std::mem::take(&mut imp.items) {
        match &item {
            ImplItem::Macro(m) if m.mac.path.is_ident("judged_fields") => items.extend(financing::judged(&m.mac)?),
            ImplItem::Macro(m) if m.mac.path.is_ident("financing_fields") => {
                items.extend(financing::financing(&m.mac)?)
            }
            ImplItem::Macro(m) if m.mac.path.is_ident("financings_field") => items.push(financing::financings(&m.mac)?),
            ImplItem::Macro(m) if m.mac.path.is_ident("received_file_fields") => items.extend(records::received_file()),
            ImplItem::Macro(m) if m.mac.path.is_ident("numbered_fields") => {
                items.extend(records::numbered_fields(&m.mac)?)
            }
            ImplItem::Macro(m) if m.mac.path.is_ident("versioned_fact_fields") => {
                items.extend(records::versioned_fact_fields(&m.mac)?)
            }
            ImplItem::Macro(m) if m.mac.path.is_ident("versioned_fact_mutations") => {
                items.extend(facts::versioned_fact_mutations(&m.mac)?)
            }
            _ => items.push(item),
        }
    }
    imp.items = items;
    Ok(quote!(#imp))
}
