//! Listing financings over the `financing` view: typed filters, explicit ordering, Relay windows, and the nodes of
//! a page loaded in one query per programme.

use super::{
    db,
    error::{ApiError, gql},
    ids::{self, NodeKind},
    loader,
    loaders::{FcoCartaLoader, SocialFuelProjectLoader},
    pagination::{self, PageArgs, Window},
    scalars::{Date, Decimal},
    types::{
        enums::{FcoCartaStage, FinancingStatus, OrderDirection, Programme, Region, SocialFuelStage, Uf},
        financing::{
            FcoCarta, FcoCartaConnection, Financing, FinancingConnection, SocialFuelProject,
            SocialFuelProjectConnection,
        },
    },
};
use async_graphql::Result;
use async_graphql::{Context, Enum, ID, InputObject};
use entity::{
    domain::{self, Document, Money},
    fco_carta, financing, party, social_fuel_project, vocab,
};
use sea_orm::{
    ColumnTrait, Condition, EntityTrait, Order, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, QueryTrait,
    sea_query::NullOrdering,
};

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
    /// Amount at least this many reais.
    pub amount_min: Option<Decimal>,
    /// Amount at most this many reais.
    pub amount_max: Option<Decimal>,
    /// Only of this CPF or CNPJ, in any punctuation; a CNPJ matches every branch of the company (same root).
    pub document: Option<String>,
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
    /// Filed on or after this date.
    pub filed_from: Option<Date>,
    /// Filed on or before this date.
    pub filed_to: Option<Date>,
    /// Financing sought at least this many reais.
    pub amount_min: Option<Decimal>,
    /// Financing sought at most this many reais.
    pub amount_max: Option<Decimal>,
    /// Only of this CNPJ (any branch of the company), in any punctuation.
    pub document: Option<String>,
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
    /// Financed value at least this many reais.
    pub amount_min: Option<Decimal>,
    /// Financed value at most this many reais.
    pub amount_max: Option<Decimal>,
    /// Only of this CPF or CNPJ (a CNPJ matches every branch), in any punctuation.
    pub document: Option<String>,
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

/// Whose financings are listed.
#[derive(Debug, Clone)]
pub enum Scope {
    /// Everyone's.
    All,
    /// One bank's.
    Bank(i64),
    /// One CPF party's.
    Party(i64),
    /// Every branch of one company.
    CnpjRoot(String),
}

/// A listing request, as the resolvers receive it.
#[derive(Debug, Clone, Default)]
pub struct FinancingArgs {
    filter: FinancingFilter,
    order: FinancingOrder,
    page: PageArgs,
    extra: Option<Condition>,
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
            page: PageArgs {
                first,
                after,
                last,
                before,
            },
            extra: None,
        }
    }
}

fn bad(field: &str, message: impl std::fmt::Display) -> async_graphql::Error {
    gql(ApiError::BadUserInput(format!("{field}: {message}")))
}

fn money(field: &str, d: Decimal) -> Result<Money> {
    Money::from_decimal(d.0).map_err(|e| bad(field, e))
}

fn party_ids_of(document: &Document) -> sea_orm::sea_query::SelectStatement {
    let q = party::Entity::find().select_only().column(party::Column::Id);
    match document.cnpj_root() {
        Some(root) => q.filter(party::Column::CnpjRoot.eq(root)),
        None => q.filter(party::Column::Document.eq(document.as_str())),
    }
    .into_query()
}

fn code_ranges(ranges: impl Iterator<Item = (i32, i32)>) -> Condition {
    ranges.fold(Condition::any(), |c, (lo, hi)| {
        c.add(financing::Column::MunicipalityCode.between(lo, hi))
    })
}

/// Builds the SQL condition of a filter, refusing bad values with the field named.
fn condition(f: &FinancingFilter, scope: &Scope) -> Result<Condition> {
    use financing::Column as C;
    let mut c = Condition::all();
    if let Some(p) = &f.programmes {
        c = c.add(C::Programme.is_in(p.iter().map(|p| vocab::Programme::from(*p))));
    }
    if let Some(banks) = &f.bank_ids {
        let ids = banks
            .iter()
            .map(|id| ids::arg(id, NodeKind::Bank, "filter.bankIds"))
            .collect::<Result<Vec<_>>>()?;
        c = c.add(C::BankId.is_in(ids));
    }
    if let Some(codes) = &f.municipality_codes {
        for code in codes {
            u32::try_from(*code)
                .ok()
                .and_then(|c| domain::IbgeCode::new(c).ok())
                .ok_or_else(|| {
                    bad(
                        "filter.municipalityCodes",
                        format!("{code} is not an IBGE municipality code"),
                    )
                })?;
        }
        c = c.add(C::MunicipalityCode.is_in(codes.iter().copied()));
    }
    if let Some(ufs) = &f.ufs {
        c = c.add(code_ranges(ufs.iter().map(|u| domain::Uf::from(*u).code_range())));
    }
    if let Some(regions) = &f.regions {
        c = c.add(code_ranges(
            regions.iter().map(|r| domain::Region::from(*r).code_range()),
        ));
    }
    if let Some(s) = &f.statuses {
        c = c.add(C::Status.is_in(s.iter().map(|s| vocab::FinancingStatus::from(*s))));
    }
    if let (Some(from), Some(to)) = (f.submitted_from, f.submitted_to)
        && from > to
    {
        return Err(bad("filter.submittedFrom", "is after filter.submittedTo"));
    }
    if let Some(d) = f.submitted_from {
        c = c.add(C::SubmittedOn.gte(d.0));
    }
    if let Some(d) = f.submitted_to {
        c = c.add(C::SubmittedOn.lte(d.0));
    }
    if let Some(d) = f.amount_min {
        c = c.add(C::Amount.gte(money("filter.amountMin", d)?));
    }
    if let Some(d) = f.amount_max {
        c = c.add(C::Amount.lte(money("filter.amountMax", d)?));
    }
    if let Some(doc) = &f.document {
        let document = Document::parse(doc).map_err(|e| bad("filter.document", e))?;
        c = c.add(C::PartyId.in_subquery(party_ids_of(&document)));
    }
    match scope {
        Scope::All => {}
        Scope::Bank(id) => c = c.add(C::BankId.eq(*id)),
        Scope::Party(id) => c = c.add(C::PartyId.eq(*id)),
        Scope::CnpjRoot(root) => {
            let q = party::Entity::find()
                .select_only()
                .column(party::Column::Id)
                .filter(party::Column::CnpjRoot.eq(root.as_str()))
                .into_query();
            c = c.add(C::PartyId.in_subquery(q));
        }
    }
    Ok(c)
}

/// Reads one page of the view: the count, then the rows of the window.
async fn page(ctx: &Context<'_>, args: &FinancingArgs, scope: &Scope) -> Result<(Window, u64, Vec<financing::Model>)> {
    use financing::Column as C;
    pagination::check(&args.page).map_err(gql)?;
    let mut cond = condition(&args.filter, scope)?;
    if let Some(extra) = &args.extra {
        cond = cond.add(extra.clone());
    }
    let select = financing::Entity::find().filter(cond);
    let total = select.clone().count(db(ctx)).await.map_err(gql)?;
    let window = pagination::window(&args.page, total).map_err(gql)?;
    if window.limit == 0 {
        return Ok((window, total, Vec::new()));
    }
    let column = match args.order.field {
        FinancingOrderField::SubmittedOn => C::SubmittedOn,
        FinancingOrderField::DecidedOn => C::DecidedOn,
        FinancingOrderField::ContractedOn => C::ContractedOn,
        FinancingOrderField::Amount => C::Amount,
    };
    let order = match args.order.direction {
        OrderDirection::Asc => Order::Asc,
        OrderDirection::Desc => Order::Desc,
    };
    let rows = select
        .order_by_with_nulls(column, order, NullOrdering::Last)
        .order_by_asc(C::Programme)
        .order_by_asc(C::RecordId)
        .offset(window.offset)
        .limit(window.limit)
        .all(db(ctx))
        .await
        .map_err(gql)?;
    Ok((window, total, rows))
}

/// Lists financings of both programmes: a count, a page, and one query per programme for the nodes.
pub async fn list_financings(ctx: &Context<'_>, args: FinancingArgs, scope: Scope) -> Result<FinancingConnection> {
    let (window, total, rows) = page(ctx, &args, &scope).await?;
    let project_ids: Vec<i64> = rows
        .iter()
        .filter(|r| r.programme == vocab::Programme::SocialFuel)
        .map(|r| r.record_id)
        .collect();
    let carta_ids: Vec<i64> = rows
        .iter()
        .filter(|r| r.programme == vocab::Programme::FcoRural)
        .map(|r| r.record_id)
        .collect();
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
    let nodes = rows
        .iter()
        .filter_map(|r| match r.programme {
            vocab::Programme::SocialFuel => projects
                .get(&r.record_id)
                .cloned()
                .map(|m| Financing::SocialFuelProject(SocialFuelProject(m))),
            vocab::Programme::FcoRural => cartas
                .get(&r.record_id)
                .cloned()
                .map(|m| Financing::FcoCarta(FcoCarta(m))),
        })
        .collect();
    Ok(FinancingConnection::build(window, total, nodes))
}

/// Lists social-fuel projects.
pub async fn list_social_fuel_projects(
    ctx: &Context<'_>,
    filter: SocialFuelProjectFilter,
    order: FinancingOrder,
    page_args: PageArgs,
) -> Result<SocialFuelProjectConnection> {
    let mut extra = Condition::all().add(financing::Column::Programme.eq(vocab::Programme::SocialFuel));
    if let Some(stages) = &filter.stages {
        let q = social_fuel_project::Entity::find()
            .select_only()
            .column(social_fuel_project::Column::Id)
            .filter(social_fuel_project::Column::Stage.is_in(stages.iter().map(|s| vocab::SocialFuelStage::from(*s))))
            .into_query();
        extra = extra.add(financing::Column::RecordId.in_subquery(q));
    }
    let common = FinancingFilter {
        programmes: None,
        bank_ids: filter.bank_ids,
        municipality_codes: filter.municipality_codes,
        ufs: filter.ufs,
        regions: filter.regions,
        statuses: filter.statuses,
        submitted_from: filter.filed_from,
        submitted_to: filter.filed_to,
        amount_min: filter.amount_min,
        amount_max: filter.amount_max,
        document: filter.document,
    };
    let args = FinancingArgs {
        filter: common,
        order,
        page: page_args,
        extra: Some(extra),
    };
    let (window, total, rows) = page(ctx, &args, &Scope::All).await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.record_id).collect();
    let found = loader::<SocialFuelProjectLoader>(ctx)
        .load_many(ids.clone())
        .await
        .map_err(gql)?;
    let nodes = ids
        .iter()
        .filter_map(|id| found.get(id).cloned().map(SocialFuelProject))
        .collect();
    Ok(SocialFuelProjectConnection::build(window, total, nodes))
}

/// Lists FCO cartas.
pub async fn list_fco_cartas(
    ctx: &Context<'_>,
    filter: FcoCartaFilter,
    order: FinancingOrder,
    page_args: PageArgs,
) -> Result<FcoCartaConnection> {
    let mut extra = Condition::all().add(financing::Column::Programme.eq(vocab::Programme::FcoRural));
    if let Some(stages) = &filter.stages {
        let q = fco_carta::Entity::find()
            .select_only()
            .column(fco_carta::Column::Id)
            .filter(fco_carta::Column::Stage.is_in(stages.iter().map(|s| vocab::FcoCartaStage::from(*s))))
            .into_query();
        extra = extra.add(financing::Column::RecordId.in_subquery(q));
    }
    let common = FinancingFilter {
        programmes: None,
        bank_ids: filter.bank_ids,
        municipality_codes: filter.municipality_codes,
        ufs: None,
        regions: None,
        statuses: filter.statuses,
        submitted_from: filter.submitted_from,
        submitted_to: filter.submitted_to,
        amount_min: filter.amount_min,
        amount_max: filter.amount_max,
        document: filter.document,
    };
    let args = FinancingArgs {
        filter: common,
        order,
        page: page_args,
        extra: Some(extra),
    };
    let (window, total, rows) = page(ctx, &args, &Scope::All).await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.record_id).collect();
    let found = loader::<FcoCartaLoader>(ctx)
        .load_many(ids.clone())
        .await
        .map_err(gql)?;
    let nodes = ids
        .iter()
        .filter_map(|id| found.get(id).cloned().map(FcoCarta))
        .collect();
    Ok(FcoCartaConnection::build(window, total, nodes))
}
