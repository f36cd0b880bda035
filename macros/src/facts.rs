//! The mutations of a fact kept in versions (`versioned_fact_mutations!`): add, correct and remove, by number and by
//! global ID.

use crate::args::{Pairs, doc, ident_of, snake, text_of};
use quote::format_ident;
use syn::parse::{Parse, ParseStream};
use syn::{Expr, Ident, ImplItem, Macro, parse_quote};

/// `versioned_fact_mutations!(kind = Items, name = "FcoCartaItem", parent = carta_id, parent_noun = "carta",
/// fact = item, noun = "item", a_noun = "an item", decision = "the decision", list = "items", add = "Adds …")`.
struct FactArgs {
    kind: Expr,
    name: String,
    parent: Ident,
    parent_noun: String,
    fact: Ident,
    noun: String,
    a_noun: String,
    decision: String,
    list: String,
    add: String,
}

impl Parse for FactArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let pairs = Pairs::parse("versioned_fact_mutations!", input)?;
        let text = |key: &str| text_of(pairs.find(key)?);
        let field = |key: &str| ident_of(pairs.find(key)?);
        Ok(FactArgs {
            kind: pairs.find("kind")?.clone(),
            name: text("name")?,
            parent: field("parent")?,
            parent_noun: text("parent_noun")?,
            fact: field("fact")?,
            noun: text("noun")?,
            a_noun: text("a_noun")?,
            decision: text("decision")?,
            list: text("list")?,
            add: text("add")?,
        })
    }
}

pub(crate) fn versioned_fact_mutations(mac: &Macro) -> syn::Result<Vec<ImplItem>> {
    let FactArgs {
        kind,
        name,
        parent,
        parent_noun,
        fact,
        noun,
        a_noun,
        decision,
        list,
        add,
    } = mac.parse_body()?;
    let stem = snake(&name);
    let (add_fn, add_input) = (format_ident!("add_{stem}"), format_ident!("Add{name}Input"));
    let add_doc = doc(&add);
    let add_arg = format!("The {parent_noun}, the {noun} and, after {decision}, why.");
    let (update, remove) = (format_ident!("update_{stem}"), format_ident!("remove_{stem}"));
    let (correction, removal) = (
        format_ident!("record_{stem}_correction"),
        format_ident!("record_{stem}_removal"),
    );
    let (update_input, remove_input) = (format_ident!("Update{name}Input"), format_ident!("Remove{name}Input"));
    let correction_input = format_ident!("Record{name}CorrectionInput");
    let removal_input = format_ident!("Record{name}RemovalInput");
    let payload = format_ident!("{name}Payload");
    let id = format_ident!("{fact}_id");

    let versions = format!(
        "a new version, the old one kept (`{list}(includeSuperseded: true)`); after {decision} with the `reason`. \
         `compliance(asOf:)` of an earlier day reads the version that held that day."
    );
    let removed = format!("kept and marked removed; after {decision} with the `reason`.");
    let update_doc = doc(&format!("Changes {a_noun}: {versions}"));
    let remove_doc = doc(&format!("Removes {a_noun}: {removed}"));
    let correction_doc = doc(&format!("Corrects {a_noun}, named by its global ID: {versions}"));
    let removal_doc = doc(&format!("Removes {a_noun}, named by its global ID: {removed}"));
    let deprecated = |by: &str| {
        format!("Use `record{name}{by}(input:)`, which names the version by its global ID; removed on 2027-06-30.")
    };
    let (update_deprecation, remove_deprecation) = (deprecated("Correction"), deprecated("Removal"));
    let change_arg = format!("The version to change, the {noun} as it should be and, after {decision}, why.");
    let correct_arg = format!("The version to correct, the {noun} as it should be and, after {decision}, why.");
    let remove_arg = format!("The version to remove and, after {decision}, why.");

    Ok(vec![
        parse_quote! {
            #add_doc
            async fn #add_fn(
                &self,
                ctx: &::async_graphql::Context<'_>,
                #[graphql(desc = #add_arg)] input: #add_input,
            ) -> ::async_graphql::Result<#payload> {
                add_fact::<#kind>(ctx, &input.#parent, input.#fact, input.reason, input.effective_on).await
            }
        },
        parse_quote! {
            #update_doc
            #[graphql(deprecation = #update_deprecation)]
            async fn #update(
                &self,
                ctx: &::async_graphql::Context<'_>,
                #[graphql(desc = #change_arg)] input: #update_input,
            ) -> ::async_graphql::Result<#payload> {
                correct_fact::<#kind>(ctx, input.#id, input.#fact, input.reason, input.effective_on).await
            }
        },
        parse_quote! {
            #remove_doc
            #[graphql(deprecation = #remove_deprecation)]
            async fn #remove(
                &self,
                ctx: &::async_graphql::Context<'_>,
                #[graphql(desc = #remove_arg)] input: #remove_input,
            ) -> ::async_graphql::Result<#payload> {
                remove_fact::<#kind>(ctx, input.#id, input.reason, input.effective_on).await
            }
        },
        parse_quote! {
            #correction_doc
            async fn #correction(
                &self,
                ctx: &::async_graphql::Context<'_>,
                #[graphql(desc = #correct_arg)] input: #correction_input,
            ) -> ::async_graphql::Result<#payload> {
                let id = version::<#kind>(&input.#id)?;
                correct_fact::<#kind>(ctx, id, input.#fact, input.reason, input.effective_on).await
            }
        },
        parse_quote! {
            #removal_doc
            async fn #removal(
                &self,
                ctx: &::async_graphql::Context<'_>,
                #[graphql(desc = #remove_arg)] input: #removal_input,
            ) -> ::async_graphql::Result<#payload> {
                let id = version::<#kind>(&input.#id)?;
                remove_fact::<#kind>(ctx, id, input.reason, input.effective_on).await
            }
        },
    ])
}
