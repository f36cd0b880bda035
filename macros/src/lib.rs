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

use proc_macro::TokenStream;
use proc_macro2::{Group, TokenStream as Tokens, TokenTree};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, ImplItem, Item, ItemEnum, ItemImpl, LitStr, Macro, MetaNameValue, Token, parse_quote};

/// `asOf`: the day a financing is judged on.
const AS_OF: &str = "The date to judge on; today in Brasília by default (the day of `knownAt` when given).";
/// `knownAt` of `compliance` and `deadlines`.
const KNOWN_AT: &str = "As the record stood at this instant: what the system knew then (facts, versions, acts and rule \
                        parameters recorded by then; an instant given to the second covers that second).";
/// `knownAt` of `history`.
const RECORDED_BY: &str = "Only the rows recorded by this instant (an instant given to the second covers that second).";

/// Writes out the placeholders of an `#[Object]` impl, or of the `Financing` interface's `#[graphql(…)]` (the crate's
/// documentation lists them).
#[proc_macro_attribute]
pub fn shared_fields(attr: TokenStream, item: TokenStream) -> TokenStream {
    let attr = Tokens::from(attr);
    let out = if attr.is_empty() {
        match syn::parse_macro_input!(item as Item) {
            Item::Impl(imp) => expand_impl(imp),
            Item::Enum(e) => Ok(expand_interface(e)),
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
            ImplItem::Macro(m) if m.mac.path.is_ident("judged_fields") => items.extend(judged(&m.mac)?),
            ImplItem::Macro(m) if m.mac.path.is_ident("financing_fields") => items.extend(financing(&m.mac)?),
            ImplItem::Macro(m) if m.mac.path.is_ident("financings_field") => items.push(financings(&m.mac)?),
            ImplItem::Macro(m) if m.mac.path.is_ident("received_file_fields") => items.extend(received_file()),
            ImplItem::Macro(m) if m.mac.path.is_ident("numbered_fields") => items.extend(numbered_fields(&m.mac)?),
            ImplItem::Macro(m) if m.mac.path.is_ident("versioned_fact_fields") => {
                items.extend(versioned_fact_fields(&m.mac)?)
            }
            ImplItem::Macro(m) if m.mac.path.is_ident("versioned_fact_mutations") => {
                items.extend(versioned_fact_mutations(&m.mac)?)
            }
            _ => items.push(item),
        }
    }
    imp.items = items;
    Ok(quote!(#imp))
}

/// `judged_fields!(Carta, FcoRural, "carta")`.
struct JudgedArgs {
    judged: Ident,
    programme: Ident,
    noun: LitStr,
}

impl Parse for JudgedArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let judged = input.parse()?;
        input.parse::<Token![,]>()?;
        let programme = input.parse()?;
        input.parse::<Token![,]>()?;
        let noun = input.parse()?;
        input.parse::<Option<Token![,]>>()?;
        Ok(JudgedArgs {
            judged,
            programme,
            noun,
        })
    }
}

fn judged(mac: &Macro) -> syn::Result<Vec<ImplItem>> {
    let JudgedArgs {
        judged,
        programme,
        noun,
    } = mac.parse_body()?;
    let noun = noun.value();
    let compliance = doc(&format!(
        "Every rule of the programme on this {noun} as of `asOf`: code, status, legal basis and the numbers used."
    ));
    let deadlines = doc(&format!(
        "The legal deadlines of this {noun} as of `asOf`, with how each was counted."
    ));
    let history = doc(&format!("Every transition of this {noun}, oldest first (append-only)."));
    Ok(vec![
        parse_quote! {
            #compliance
            pub(crate) async fn compliance(
                &self,
                ctx: &::async_graphql::Context<'_>,
                #[graphql(desc = #AS_OF)] as_of: Option<crate::graphql::scalars::Date>,
                #[graphql(desc = #KNOWN_AT)] known_at: Option<crate::graphql::scalars::DateTime>,
            ) -> ::async_graphql::Result<crate::graphql::plain::List<crate::graphql::rules::RuleOutcome>> {
                let judged = crate::graphql::rules::Judged::#judged(&self.0).at(ctx, as_of, known_at).await?;
                Ok(crate::graphql::plain::List(judged.0))
            }
        },
        parse_quote! {
            #deadlines
            pub(crate) async fn deadlines(
                &self,
                ctx: &::async_graphql::Context<'_>,
                #[graphql(desc = #AS_OF)] as_of: Option<crate::graphql::scalars::Date>,
                #[graphql(desc = #KNOWN_AT)] known_at: Option<crate::graphql::scalars::DateTime>,
            ) -> ::async_graphql::Result<crate::graphql::plain::List<crate::graphql::rules::Deadline>> {
                let judged = crate::graphql::rules::Judged::#judged(&self.0).at(ctx, as_of, known_at).await?;
                Ok(crate::graphql::plain::List(judged.1))
            }
        },
        parse_quote! {
            #history
            pub(crate) async fn history(
                &self,
                ctx: &::async_graphql::Context<'_>,
                #[graphql(desc = #RECORDED_BY)] known_at: Option<crate::graphql::scalars::DateTime>,
            ) -> ::async_graphql::Result<Vec<crate::graphql::history::Transition>> {
                crate::graphql::history::history(ctx, entity::vocab::Programme::#programme, self.0.id, known_at).await
            }
        },
    ])
}

/// The interface's declarations of the fields `financing_fields!` and `judged_fields!` write, in place of
/// `financing_fields!()` and `judged_fields!()` in its `#[graphql(…)]`.
fn expand_interface(mut e: ItemEnum) -> Tokens {
    let shared = FINANCING_FIELDS.iter().map(|f| {
        let (name, ty, desc) = (f.name, f.ty, f.interface);
        quote!(field(name = #name, ty = #ty, desc = #desc))
    });
    let shared = quote!(#(#shared),*);
    let fields = quote! {
        field(
            name = "compliance",
            ty = "async_graphql::Result<crate::graphql::plain::List<crate::graphql::rules::RuleOutcome>>",
            desc = "Every rule of its programme judged on it as of `asOf`, with why.",
            arg(name = "as_of", ty = "Option<crate::graphql::scalars::Date>", desc = #AS_OF),
            arg(name = "known_at", ty = "Option<crate::graphql::scalars::DateTime>", desc = #KNOWN_AT)
        ),
        field(
            name = "deadlines",
            ty = "async_graphql::Result<crate::graphql::plain::List<crate::graphql::rules::Deadline>>",
            desc = "Its legal deadlines as of `asOf`, with how each was counted.",
            arg(name = "as_of", ty = "Option<crate::graphql::scalars::Date>", desc = #AS_OF),
            arg(name = "known_at", ty = "Option<crate::graphql::scalars::DateTime>", desc = #KNOWN_AT)
        ),
        field(
            name = "history",
            ty = "async_graphql::Result<Vec<crate::graphql::history::Transition>>",
            desc = "Its lifecycle's steps, oldest first.",
            arg(name = "known_at", ty = "Option<crate::graphql::scalars::DateTime>", desc = #RECORDED_BY)
        )
    };
    for attr in &mut e.attrs {
        if let syn::Meta::List(list) = &mut attr.meta
            && list.path.is_ident("graphql")
        {
            let tokens = replace_placeholder(std::mem::take(&mut list.tokens), "financing_fields", &shared);
            list.tokens = replace_placeholder(tokens, "judged_fields", &fields);
        }
    }
    quote!(#e)
}

/// `tokens` with every `name!(…)` replaced by `by`.
fn replace_placeholder(tokens: Tokens, name: &str, by: &Tokens) -> Tokens {
    let mut out = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(tt) = iter.next() {
        match tt {
            TokenTree::Ident(ref id) if id == name => {
                let mut ahead = iter.clone();
                if matches!(ahead.next(), Some(TokenTree::Punct(ref p)) if p.as_char() == '!')
                    && matches!(ahead.next(), Some(TokenTree::Group(_)))
                {
                    iter = ahead;
                    out.extend(by.clone());
                } else {
                    out.push(tt);
                }
            }
            TokenTree::Group(g) => {
                let mut inner = Group::new(g.delimiter(), replace_placeholder(g.stream(), name, by));
                inner.set_span(g.span());
                out.push(TokenTree::Group(inner));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

/// A field of the `Financing` interface that both financings resolve alike (`financing_fields!`): its name, its type
/// as the interface declares it, and the interface's description.
struct SharedField {
    name: &'static str,
    ty: &'static str,
    interface: &'static str,
}

/// The `Financing` interface's own fields, in the order the interface and both financings declare them (`stage`
/// follows `status` in each financing, with its own type, and is not the interface's).
const FINANCING_FIELDS: [SharedField; 10] = [
    shared("id", "ID", "Opaque global ID."),
    shared("programme", "Programme", "Which programme."),
    shared("bank", "async_graphql::Result<Bank>", "The bank."),
    shared(
        "party",
        "async_graphql::Result<Party>",
        "The producer (social fuel) or borrower (FCO).",
    ),
    shared(
        "municipality",
        "async_graphql::Result<Municipality>",
        "Municipality of the plant or property.",
    ),
    shared(
        "amount",
        "Decimal",
        "Financing sought (social fuel) or financed value (FCO), in reais.",
    ),
    shared("status", "FinancingStatus", "Cross-programme status."),
    shared("submitted_on", "Option<Date>", "Filing or submission date."),
    shared("decided_on", "Option<Date>", "Decision date."),
    shared(
        "contracted_on",
        "Option<Date>",
        "Financing approval (social fuel) or contracting (FCO) date.",
    ),
];

const fn shared(name: &'static str, ty: &'static str, interface: &'static str) -> SharedField {
    SharedField { name, ty, interface }
}

/// `financing_fields!(kind = FcoCarta, programme = FcoRural, stage = FcoCartaStage, bank = "…", party = "…",
/// municipality = (municipality_code, "…"), amount = (financed_amount, "…"), submitted_on = (submitted_on, "…"),
/// decided_on = (decided_on, "…"), contracted_on = (contracted_on, "…"))`: a financing's fields of the interface, and
/// its `stage`; each of the last six names its description and, where the financings' columns differ, its column.
struct FinancingArgs {
    kind: Ident,
    programme: Ident,
    stage: Ident,
    bank: String,
    party: String,
    /// `municipality`, `amount`, `submitted_on`, `decided_on` and `contracted_on`: the column and the description.
    columns: Vec<(Ident, String)>,
}

impl Parse for FinancingArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let pairs = Pairs::parse("financing_fields!", input)?;
        let columns = ["municipality", "amount", "submitted_on", "decided_on", "contracted_on"]
            .iter()
            .map(|key| match pairs.find(key)? {
                Expr::Tuple(t) if t.elems.len() == 2 => Ok((ident_of(&t.elems[0])?, text_of(&t.elems[1])?)),
                other => Err(syn::Error::new_spanned(
                    other,
                    format!("`{key}` is (column, \"description\")"),
                )),
            })
            .collect::<syn::Result<_>>()?;
        Ok(FinancingArgs {
            kind: ident_of(pairs.find("kind")?)?,
            programme: ident_of(pairs.find("programme")?)?,
            stage: ident_of(pairs.find("stage")?)?,
            bank: text_of(pairs.find("bank")?)?,
            party: text_of(pairs.find("party")?)?,
            columns,
        })
    }
}

/// The `key = value` pairs of a placeholder.
struct Pairs {
    placeholder: &'static str,
    pairs: Punctuated<MetaNameValue, Token![,]>,
    span: proc_macro2::Span,
}

impl Pairs {
    fn parse(placeholder: &'static str, input: ParseStream) -> syn::Result<Self> {
        Ok(Pairs {
            placeholder,
            span: input.span(),
            pairs: Punctuated::parse_terminated(input)?,
        })
    }

    fn find(&self, key: &str) -> syn::Result<&Expr> {
        self.pairs
            .iter()
            .find(|p| p.path.is_ident(key))
            .map(|p| &p.value)
            .ok_or_else(|| syn::Error::new(self.span, format!("{} needs `{key} = …`", self.placeholder)))
    }
}

fn ident_of(e: &Expr) -> syn::Result<Ident> {
    match e {
        Expr::Path(p) if p.path.get_ident().is_some() => Ok(p.path.get_ident().cloned().expect("an ident")),
        other => Err(syn::Error::new_spanned(other, "a name is expected here")),
    }
}

fn text_of(e: &Expr) -> syn::Result<String> {
    match e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s), ..
        }) => Ok(s.value()),
        other => Err(syn::Error::new_spanned(other, "a string is expected here")),
    }
}

/// `SocialFuel` → `SOCIAL_FUEL`, the enum value's name in the schema.
fn screaming(camel: &str) -> String {
    snake(camel).to_uppercase()
}

fn financing(mac: &Macro) -> syn::Result<Vec<ImplItem>> {
    let FinancingArgs {
        kind,
        programme,
        stage,
        bank,
        party,
        columns,
    } = mac.parse_body()?;
    let always = doc(&format!("Always `{}`.", screaming(&programme.to_string())));
    let (bank, party) = (doc(&bank), doc(&party));
    let [municipality, amount, submitted, decided, contracted] = <[(Ident, String); 5]>::try_from(columns)
        .map_err(|_| syn::Error::new_spanned(&mac.path, "five columns"))?
        .map(|(col, text)| (col, doc(&text)));
    let date = |(name, (col, text)): (&str, &(Ident, Tokens))| -> ImplItem {
        let name = format_ident!("{name}");
        parse_quote! {
            #text
            pub(crate) async fn #name(&self) -> Option<crate::graphql::scalars::Date> {
                self.0.#col.map(crate::graphql::scalars::Date)
            }
        }
    };
    let (m_col, m_doc) = &municipality;
    let (a_col, a_doc) = &amount;
    let mut items: Vec<ImplItem> = vec![
        parse_quote! {
            /// Opaque global ID.
            pub async fn id(&self) -> ::async_graphql::ID {
                crate::graphql::ids::encode(crate::graphql::ids::NodeKind::#kind, self.0.id)
            }
        },
        parse_quote! {
            #always
            pub(crate) async fn programme(&self) -> crate::graphql::types::enums::Programme {
                crate::graphql::types::enums::Programme::#programme
            }
        },
        parse_quote! {
            #bank
            pub(crate) async fn bank(
                &self,
                ctx: &::async_graphql::Context<'_>,
            ) -> ::async_graphql::Result<crate::graphql::types::objects::Bank> {
                crate::graphql::types::financing::bank_of(ctx, self.0.bank_id).await
            }
        },
        parse_quote! {
            #party
            pub(crate) async fn party(
                &self,
                ctx: &::async_graphql::Context<'_>,
            ) -> ::async_graphql::Result<crate::graphql::types::objects::Party> {
                crate::graphql::types::financing::borrower_of(ctx, &self.0).await
            }
        },
        parse_quote! {
            #m_doc
            pub(crate) async fn municipality(
                &self,
                ctx: &::async_graphql::Context<'_>,
            ) -> ::async_graphql::Result<crate::graphql::types::objects::Municipality> {
                crate::graphql::types::financing::municipality_of(ctx, self.0.#m_col).await
            }
        },
        parse_quote! {
            #a_doc
            pub(crate) async fn amount(&self) -> crate::graphql::scalars::Decimal {
                self.0.#a_col.to_decimal().into()
            }
        },
        parse_quote! {
            /// Cross-programme status.
            pub(crate) async fn status(&self) -> crate::graphql::types::enums::FinancingStatus {
                self.0.status.into()
            }
        },
        parse_quote! {
            /// Lifecycle stage.
            pub(crate) async fn stage(&self) -> crate::graphql::types::enums::#stage {
                self.0.stage.into()
            }
        },
    ];
    items.extend(
        [
            ("submitted_on", &submitted),
            ("decided_on", &decided),
            ("contracted_on", &contracted),
        ]
        .into_iter()
        .map(date),
    );
    Ok(items)
}

/// `numbered_fields!(node = BankReport, number = "The number used in …")`.
fn numbered_fields(mac: &Macro) -> syn::Result<Vec<ImplItem>> {
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
fn versioned_fact_fields(mac: &Macro) -> syn::Result<Vec<ImplItem>> {
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
fn received_file() -> Vec<ImplItem> {
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

/// `financings_field!("Its description.", scope)`.
struct FinancingsArgs {
    doc: LitStr,
    scope: Expr,
}

impl Parse for FinancingsArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let doc = input.parse()?;
        input.parse::<Token![,]>()?;
        let scope = input.parse()?;
        input.parse::<Option<Token![,]>>()?;
        Ok(FinancingsArgs { doc, scope })
    }
}

fn financings(mac: &Macro) -> syn::Result<ImplItem> {
    let FinancingsArgs { doc: text, scope } = mac.parse_body()?;
    let described = doc(&text.value());
    Ok(parse_quote! {
        #described
        #[allow(clippy::too_many_arguments)]
        async fn financings(
            &self,
            ctx: &::async_graphql::Context<'_>,
            #[graphql(desc = "Only financings matching this filter.")]
            filter: Option<crate::graphql::list::FinancingFilter>,
            #[graphql(desc = "Sort order; latest submission first by default.")]
            order_by: Option<crate::graphql::list::FinancingOrder>,
            #[graphql(
                desc = "Page forward: at most this many items (at most 100; 20 when neither first nor last is given)."
            )]
            first: Option<i32>,
            #[graphql(desc = "Page forward: items after this cursor.")] after: Option<String>,
            #[graphql(desc = "Page backward: at most this many items (at most 100).")] last: Option<i32>,
            #[graphql(desc = "Page backward: items before this cursor.")] before: Option<String>,
        ) -> ::async_graphql::Result<crate::graphql::types::FinancingConnection> {
            let scope: crate::graphql::list::Scope = #scope;
            let args = crate::graphql::list::FinancingArgs::new(filter, order_by, first, after, last, before);
            crate::graphql::list::list_financings(ctx, args, scope).await
        }
    })
}

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

/// `text` as the `#[doc]` lines of a comment wrapped as the sources wrap theirs (at most 119 characters a line with
/// `    /// `), so that the schema's descriptions read as those written by hand.
fn doc(text: &str) -> Tokens {
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
fn snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

fn versioned_fact_mutations(mac: &Macro) -> syn::Result<Vec<ImplItem>> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
