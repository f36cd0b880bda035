//! Listing financings: the GraphQL filters and windows, mapped onto `service::financings` (the one financing query),
//! and the nodes of a page loaded in one query per programme.

use super::{
    error::{Served, gql},
    ids::{self, NodeKind},
    loader,
    loaders::{FcoCartaLoader, SocialFuelProjectLoader},
    pagination::{PageArgs, PageInfo},
    prefetched::Prefetched,
    scalars::{Date, Decimal},
    types::{
        FcoCartaConnection, Financing, FinancingConnection, SocialFuelProjectConnection,
        enums::{FcoCartaStage, FinancingStatus, OrderDirection, Programme, Region, SocialFuelStage, Uf},
        financing::{FcoCarta, SocialFuelProject},
    },
};
use async_graphql::Result;
use async_graphql::{Context, Enum, ID, InputObject};
use entity::{domain, fco_carta, financing, social_fuel_project, vocab};
use service::financings::{self as fin, Whose};
use service::visible::{self, Financed};
/// Filters common to both programmes. Every given field must match; a list matches any of its values.
#[derive(InputObject, Default, Debug, Clone)]
pub struct FinancingFilter {
    /// Only these programmes.
    pub programmes: Option<Vec<Programme>>,
    /// Only through these banks (global IDs).
    pub bank_ids: Option<Vec<ID>>,
    /// Only in these municipalities (IBGE codes).
    pub municipality_codes: Option<Vec<i32>>,
    /// Only in these federative units.
    pub ufs: Option<Vec<Uf>>,
    /// Only in these regions.
    pub regions: Option<Vec<Region>>,
    /// Only in these cross-programme statuses.
    pub statuses: Option<Vec<FinancingStatus>>,
    /// Submitted on or after this date.
    pub submitted_from: Option<Date>,
    /// Submitted on or before this date.
    pub submitted_to: Option<Date>,
    /// Decided (an FCO carta approved or not, a social-fuel project's MDA decision) on or after this date.
    pub decided_from: Option<Date>,
    /// Decided on or before this date.
    pub decided_to: Option<Date>,
    /// Contracted (an FCO carta), or its financing approved (a social-fuel project), on or after this date.
    pub contracted_from: Option<Date>,
    /// Contracted, or its financing approved, on or before this date.
    pub contracted_to: Option<Date>,
    /// Amount at least this many reais.
    pub amount_min: Option<Decimal>,
    /// Amount at most this many reais.
    pub amount_max: Option<Decimal>,
    /// Only of this CPF or CNPJ, in any punctuation; a CNPJ matches every branch of the company (same root).
    pub document: Option<String>,
    /// Only of borrowers whose name contains this, accents and case ignored (`joao` finds João).
    pub borrower_name: Option<String>,
}

/// Filters for social-fuel projects.
#[derive(InputObject, Default, Debug, Clone)]
pub struct SocialFuelProjectFilter {
    /// Only in these stages.
    pub stages: Option<Vec<SocialFuelStage>>,
    /// Only through these banks (global IDs).
    pub bank_ids: Option<Vec<ID>>,
    /// Only with the plant in these municipalities (IBGE codes).
    pub municipality_codes: Option<Vec<i32>>,
    /// Only with the plant in these federative units.
    pub ufs: Option<Vec<Uf>>,
    /// Only with the plant in these regions.
    pub regions: Option<Vec<Region>>,
    /// Only in these cross-programme statuses.
    pub statuses: Option<Vec<FinancingStatus>>,
    /// `submittedOn` (the filing with MDA) on or after this date.
    pub submitted_from: Option<Date>,
    /// `submittedOn` (the filing with MDA) on or before this date.
    pub submitted_to: Option<Date>,
    /// Filed on or after this date; `submittedFrom` wins when both are given.
    #[graphql(deprecation = "Use `submittedFrom`, named for the field it filters; removed on 2027-06-30.")]
    pub filed_from: Option<Date>,
    /// Filed on or before this date; `submittedTo` wins when both are given.
    #[graphql(deprecation = "Use `submittedTo`, named for the field it filters; removed on 2027-06-30.")]
    pub filed_to: Option<Date>,
    /// Financing sought at least this many reais.
    pub amount_min: Option<Decimal>,
    /// Financing sought at most this many reais.
    pub amount_max: Option<Decimal>,
    /// Only of this CNPJ (any branch of the company), in any punctuation.
    pub document: Option<String>,
    /// Only of producers whose name contains this, accents and case ignored.
    pub borrower_name: Option<String>,
}

/// Filters for FCO cartas.
#[derive(InputObject, Default, Debug, Clone)]
pub struct FcoCartaFilter {
    /// Only in these stages.
    pub stages: Option<Vec<FcoCartaStage>>,
    /// Only through these banks (global IDs).
    pub bank_ids: Option<Vec<ID>>,
    /// Only in these municipalities (IBGE codes).
    pub municipality_codes: Option<Vec<i32>>,
    /// Only in these cross-programme statuses.
    pub statuses: Option<Vec<FinancingStatus>>,
    /// Submitted on or after this date.
    pub submitted_from: Option<Date>,
    /// Submitted on or before this date.
    pub submitted_to: Option<Date>,
    /// Decided (an FCO carta approved or not, a social-fuel project's MDA decision) on or after this date.
    pub decided_from: Option<Date>,
    /// Decided on or before this date.
    pub decided_to: Option<Date>,
    /// Contracted (an FCO carta), or its financing approved (a social-fuel project), on or after this date.
    pub contracted_from: Option<Date>,
    /// Contracted, or its financing approved, on or before this date.
    pub contracted_to: Option<Date>,
    /// Financed value at least this many reais.
    pub amount_min: Option<Decimal>,
    /// Financed value at most this many reais.
    pub amount_max: Option<Decimal>,
    /// Only of this CPF or CNPJ (a CNPJ matches every branch), in any punctuation.
    pub document: Option<String>,
    /// Only of borrowers whose name contains this, accents and case ignored (`joao` finds João).
    pub borrower_name: Option<String>,
}

/// What to sort financings by.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq, Default)]
pub enum FinancingOrderField {
    /// Filing or submission date (undated last).
    #[default]
    SubmittedOn,
    /// Decision date (undecided last).
    DecidedOn,
    /// Financing approval or contracting date (not yet last).
    ContractedOn,
    /// Amount.
    Amount,
}

/// Sort order of financings; ties are broken by programme and then creation order, so pages are stable.
#[derive(InputObject, Copy, Clone, Debug, Default)]
pub struct FinancingOrder {
    /// What to sort by.
    pub field: FinancingOrderField,
    /// Which way.
    #[graphql(default)]
    pub direction: OrderDirection,
}

/// A listing request, as the resolvers receive it.
#[derive(Debug, Clone, Default)]
pub struct FinancingArgs {
    filter: FinancingFilter,
    order: FinancingOrder,
    page: PageArgs,
}

impl FinancingArgs {
    /// Gathers the GraphQL arguments.
    pub fn new(
        filter: Option<FinancingFilter>,
        order: Option<FinancingOrder>,
        first: Option<i32>,
        after: Option<String>,
        last: Option<i32>,
        before: Option<String>,
    ) -> Self {
        Self {
            filter: filter.unwrap_or_default(),
            order: order.unwrap_or_default(),
            page: PageArgs::new(first, after, last, before),
        }
    }
}

fn bank_keys(ids: Option<Vec<ID>>) -> Result<Option<Vec<i64>>> {
    ids.map(|ids| {
        ids.iter()
            .map(|id| ids::arg(id, NodeKind::Bank, "filter.bankIds"))
            .collect::<Result<Vec<_>>>()
    })
    .transpose()
}

impl FinancingFilter {
    /// The service's filter (for the exports too).
    pub(crate) fn into_service(self) -> Result<fin::Filter> {
        // Each of `ufs` and `regions` is one condition: a financing in any of its ranges.
        let mut code_ranges = Vec::new();
        if let Some(ufs) = &self.ufs {
            code_ranges.push(ufs.iter().map(|u| domain::Uf::from(*u).code_range()).collect());
        }
        if let Some(regions) = &self.regions {
            code_ranges.push(regions.iter().map(|r| domain::Region::from(*r).code_range()).collect());
        }
        Ok(fin::Filter {
            programmes: self.programmes.map(|p| p.into_iter().map(Into::into).collect()),
            bank_ids: bank_keys(self.bank_ids)?,
            municipality_codes: self.municipality_codes,
            code_ranges,
            statuses: self.statuses.map(|s| s.into_iter().map(Into::into).collect()),
            submitted_from: self.submitted_from.map(|d| d.0),
            submitted_to: self.submitted_to.map(|d| d.0),
            decided_from: self.decided_from.map(|d| d.0),
            decided_to: self.decided_to.map(|d| d.0),
            contracted_from: self.contracted_from.map(|d| d.0),
            contracted_to: self.contracted_to.map(|d| d.0),
            amount_min: self.amount_min.map(|d| d.0),
            amount_max: self.amount_max.map(|d| d.0),
            document: self.document,
            borrower_name: self.borrower_name,
            party_ids: None,
            project_stages: None,
            carta_stages: None,
        })
    }
}

fn query(filter: fin::Filter, order: FinancingOrder, whose: Whose) -> fin::Query {
    fin::Query {
        filter,
        whose,
        order: match order.field {
            FinancingOrderField::SubmittedOn => fin::OrderField::SubmittedOn,
            FinancingOrderField::DecidedOn => fin::OrderField::DecidedOn,
            FinancingOrderField::ContractedOn => fin::OrderField::ContractedOn,
            FinancingOrderField::Amount => fin::OrderField::Amount,
        },
        descending: order.direction == OrderDirection::Desc,
        bank_scope: None,
    }
}

/// Whether the client selected the connection's `totalCount` (it is counted only then).
fn wants_total(ctx: &Context<'_>) -> bool {
    ctx.look_ahead().field("totalCount").exists()
}

/// The page arguments checked and their cursors read for the query's ordering, before anything is read (a bad
/// request costs no statement).
fn seek(ctx: &Context<'_>, q: &fin::Query, page: &PageArgs) -> Result<fin::Seek> {
    fin::seek(
        q.order,
        page.first,
        page.after.as_deref(),
        page.last,
        page.before.as_deref(),
    )
    .served(ctx)
}

/// The query as the caller may run it: checked, scoped, its borrower name resolved.
async fn resolved(ctx: &Context<'_>, q: &fin::Query) -> Result<fin::Query> {
    let db = super::db(ctx);
    fin::check(q).served(ctx)?;
    let mut q = q.clone();
    fin::resolve(db, &super::caller(ctx), &mut q).await.served(ctx)?;
    Ok(q)
}

/// Reads one page of the query over both programmes (the `financing` view): the count when it is asked for, then
/// the rows.
async fn page(ctx: &Context<'_>, q: &fin::Query, page: &PageArgs) -> Result<(PageInfo, u64, Vec<financing::Model>)> {
    let seek = seek(ctx, q, page)?;
    let db = super::db(ctx);
    let q = &resolved(ctx, q).await?;
    let total = if wants_total(ctx) {
        fin::count(db, q).await.served(ctx)?
    } else {
        0
    };
    let slice = fin::rows(db, q, &seek).await.served(ctx)?;
    let info = PageInfo::of(&slice, |r| fin::cursor(q.order, r));
    Ok((info, total, slice.rows))
}

/// The relations of a typed list's nodes that the client selected, joined into the page's statement when the request
/// can hold what they bring ([`Prefetched`]).
fn joined(ctx: &Context<'_>) -> fin::Joined {
    if ctx.data_opt::<Prefetched>().is_none() {
        return fin::Joined::default();
    }
    let la = ctx.look_ahead();
    let (edges, nodes) = (la.field("edges").field("node"), la.field("nodes"));
    let asks = |f: &str| edges.field(f).exists() || nodes.field(f).exists();
    fin::Joined {
        bank: asks("bank"),
        party: asks("party"),
        municipality: asks("municipality"),
    }
}

/// One programme's page read from its own table, the selected relations joined in and kept for the nodes' fields,
/// and the total read in the same statement when it is asked for. The nodes come with their cursors.
async fn typed_page<E>(
    ctx: &Context<'_>,
    q: fin::Query,
    page_args: &PageArgs,
) -> Result<(PageInfo, u64, Vec<(String, visible::Seen<E::Model>)>)>
where
    E: fin::Listed,
    E::Model: visible::Financed + fin::Sorted,
{
    let seek = seek(ctx, &q, page_args)?;
    let joined = joined(ctx);
    let db = super::db(ctx);
    let q = &resolved(ctx, &q).await?;
    let slice = fin::listed_rows::<E>(db, q, &seek, joined, wants_total(ctx))
        .await
        .served(ctx)?;
    let info = PageInfo::of(&slice, |r| fin::cursor(q.order, &r.model));
    let total = slice.total.unwrap_or(0);
    // Each row passes the caller's scope here, and its related rows with it: its bank and municipality (public) and
    // its borrower (seen through it).
    let caller = super::caller(ctx);
    let mut seen = Vec::with_capacity(slice.rows.len());
    let mut related = Vec::with_capacity(slice.rows.len());
    for r in slice.rows {
        let cursor = fin::cursor(q.order, &r.model);
        let Some(m) = visible::of_bank(&caller, r.model) else {
            continue;
        };
        let party = r
            .party
            .and_then(|p| visible::borrower(&caller, &m, p))
            .map(|p| (m.financing(), p));
        related.push((r.bank.map(visible::public), party, r.municipality.map(visible::public)));
        seen.push((cursor, m));
    }
    if let Some(p) = ctx.data_opt::<Prefetched>() {
        p.keep(related.into_iter());
    }
    Ok((info, total, seen))
}

/// Whose financings a listing covers.
pub type Scope = Whose;

/// Lists financings of both programmes: a count, a page, and one query per programme for the nodes.
pub async fn list_financings(ctx: &Context<'_>, args: FinancingArgs, whose: Whose) -> Result<FinancingConnection> {
    let q = query(args.filter.into_service()?, args.order, whose);
    let (info, total, rows) = page(ctx, &q, &args.page).await?;
    let ids_of =
        |p: vocab::Programme| -> Vec<i64> { rows.iter().filter(|r| r.programme == p).map(|r| r.record_id).collect() };
    let (project_ids, carta_ids) = (ids_of(vocab::Programme::SocialFuel), ids_of(vocab::Programme::FcoRural));
    let (projects, cartas) = futures::try_join!(
        async {
            if project_ids.is_empty() {
                Ok(Default::default())
            } else {
                loader::<SocialFuelProjectLoader>(ctx).load_many(project_ids).await
            }
        },
        async {
            if carta_ids.is_empty() {
                Ok(Default::default())
            } else {
                loader::<FcoCartaLoader>(ctx).load_many(carta_ids).await
            }
        },
    )
    .map_err(gql)?;
    // A row deleted between the page query and the load is skipped, not an error.
    let caller = super::caller(ctx);
    let edges = rows
        .iter()
        .filter_map(|r| {
            let node = match r.programme {
                vocab::Programme::SocialFuel => projects
                    .get(&r.record_id)
                    .cloned()
                    .and_then(|m| visible::of_bank(&caller, m))
                    .map(|m| Financing::SocialFuelProject(SocialFuelProject(m))),
                vocab::Programme::FcoRural => cartas
                    .get(&r.record_id)
                    .cloned()
                    .and_then(|m| visible::of_bank(&caller, m))
                    .map(|m| Financing::FcoCarta(FcoCarta(m))),
            };
            node.map(|n| (fin::cursor(q.order, r), n))
        })
        .collect();
    Ok(FinancingConnection::build(info, total, edges))
}

/// Lists social-fuel projects.
pub async fn list_social_fuel_projects(
    ctx: &Context<'_>,
    filter: SocialFuelProjectFilter,
    order: FinancingOrder,
    page_args: PageArgs,
) -> Result<SocialFuelProjectConnection> {
    let common = FinancingFilter {
        programmes: None,
        bank_ids: filter.bank_ids,
        municipality_codes: filter.municipality_codes,
        ufs: filter.ufs,
        regions: filter.regions,
        statuses: filter.statuses,
        submitted_from: filter.submitted_from.or(filter.filed_from),
        submitted_to: filter.submitted_to.or(filter.filed_to),
        decided_from: None,
        decided_to: None,
        contracted_from: None,
        contracted_to: None,
        amount_min: filter.amount_min,
        amount_max: filter.amount_max,
        document: filter.document,
        borrower_name: filter.borrower_name,
    };
    let mut f = common.into_service()?;
    f.programmes = Some(vec![vocab::Programme::SocialFuel]);
    f.project_stages = filter.stages.map(|s| s.into_iter().map(Into::into).collect());
    let (info, total, nodes) =
        typed_page::<social_fuel_project::Entity>(ctx, query(f, order, Whose::All), &page_args).await?;
    Ok(SocialFuelProjectConnection::build(
        info,
        total,
        nodes.into_iter().map(|(c, n)| (c, SocialFuelProject(n))).collect(),
    ))
}

/// Lists FCO cartas.
pub async fn list_fco_cartas(
    ctx: &Context<'_>,
    filter: FcoCartaFilter,
    order: FinancingOrder,
    page_args: PageArgs,
) -> Result<FcoCartaConnection> {
    let common = FinancingFilter {
        programmes: None,
        bank_ids: filter.bank_ids,
        municipality_codes: filter.municipality_codes,
        ufs: None,
        regions: None,
        statuses: filter.statuses,
        submitted_from: filter.submitted_from,
        submitted_to: filter.submitted_to,
        decided_from: filter.decided_from,
        decided_to: filter.decided_to,
        contracted_from: filter.contracted_from,
        contracted_to: filter.contracted_to,
        amount_min: filter.amount_min,
        amount_max: filter.amount_max,
        document: filter.document,
        borrower_name: filter.borrower_name,
    };
    let mut f = common.into_service()?;
    f.programmes = Some(vec![vocab::Programme::FcoRural]);
    f.carta_stages = filter.stages.map(|s| s.into_iter().map(Into::into).collect());
    let (info, total, nodes) = typed_page::<fco_carta::Entity>(ctx, query(f, order, Whose::All), &page_args).await?;
    Ok(FcoCartaConnection::build(
        info,
        total,
        nodes.into_iter().map(|(c, n)| (c, FcoCarta(n))).collect(),
    ))
}
