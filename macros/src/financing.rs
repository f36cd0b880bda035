//! The fields of the two financings and of their `Financing` interface: `financing_fields!`, `judged_fields!` and
//! `financings_field!`, and the interface's declarations of the same fields.

use crate::args::{Pairs, doc, ident_of, screaming, text_of};
use proc_macro2::{Group, TokenStream as Tokens, TokenTree};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{Expr, Ident, ImplItem, ItemEnum, LitStr, Macro, Token, parse_quote};

/// `asOf`: the day a financing is judged on.
const AS_OF: &str = "The date to judge on; today in Brasília by default (the day of `knownAt` when given).";
/// `knownAt` of `compliance` and `deadlines`.
const KNOWN_AT: &str = "As the record stood at this instant: what the system knew then (facts, versions, acts and rule \
                        parameters recorded by then; an instant given to the second covers that second).";
/// `knownAt` of `history`.
const RECORDED_BY: &str = "Only the rows recorded by this instant (an instant given to the second covers that second).";

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

pub(crate) fn judged(mac: &Macro) -> syn::Result<Vec<ImplItem>> {
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
pub(crate) fn expand_interface(mut e: ItemEnum) -> Tokens {
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

pub(crate) fn financing(mac: &Macro) -> syn::Result<Vec<ImplItem>> {
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

pub(crate) fn financings(mac: &Macro) -> syn::Result<ImplItem> {
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
