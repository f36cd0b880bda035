//! Root queries, one object per domain area, merged into the query root.

use super::types::enums::OrderDirection;
use super::{
    db,
    error::{Served, gql},
    ids::{self, NodeKind},
    list::{
        FcoCartaFilter, FinancingOrder, Scope, SocialFuelProjectFilter, list_fco_cartas, list_social_fuel_projects,
    },
    loader,
    loaders::{
        BankLoader, EconomicGroupLoader, FcoCartaLoader, MunicipalityLoader, PartyLoader, SocialFuelProjectLoader,
    },
    pagination::{PageArgs, PageInfo},
    types::{
        BankConnection, FcoCartaConnection, SocialFuelProjectConnection,
        financing::{FcoCarta, SocialFuelProject},
        objects::{Bank, EconomicGroup, Municipality, Party},
    },
};
use async_graphql::Result;
use async_graphql::{Context, ID, Interface, MergedObject, Object};
use service::visible;

/// The query root.
#[derive(MergedObject, Default)]
#[graphql(name = "Query")]
pub struct QueryRoot(
    CommonQuery,
    ProgrammeQuery,
    super::rules::RulesQuery,
    super::reports::ReportsQuery,
    super::flags::FlagsQuery,
    super::imports::ImportsQuery,
    super::webhooks::WebhooksQuery,
    super::dashboard::DashboardQuery,
    super::audit::AuditQuery,
);

/// The mutation root.
#[derive(MergedObject, Default)]
#[graphql(name = "Mutation")]
pub struct MutationRoot(
    super::lifecycle::LifecycleMutation,
    super::acts::ActsMutation,
    super::facts::FactsMutation,
    super::chamber::ChamberMutation,
    super::rules::RulesMutation,
    super::reports::ReportsMutation,
    super::imports::ImportsMutation,
    super::evaluation::EvaluationMutation,
    super::flags::FlagsMutation,
    super::keys::KeysMutation,
);

/// An object with an opaque global ID that `node(id:)` can fetch again.
#[derive(Interface, Clone, Debug)]
#[graphql(field(name = "id", ty = "ID", desc = "Opaque global ID."))]
pub enum Node {
    /// A bank.
    Bank(Bank),
    /// A party.
    Party(Party),
    /// An economic group.
    EconomicGroup(EconomicGroup),
    /// A municipality.
    Municipality(Municipality),
    /// A social-fuel project.
    SocialFuelProject(SocialFuelProject),
    /// An FCO carta.
    FcoCarta(FcoCarta),
    /// A bank's monthly report.
    BankReport(super::reports::BankReport),
    /// A meeting of the CPACR chamber.
    ChamberMeeting(super::chamber::ChamberMeeting),
    /// A bulk import of facts.
    FactImport(super::imports::FactImport),
    /// A compliance flag.
    ComplianceFlag(super::flags::ComplianceFlag),
    /// A version of a rule parameter.
    RuleParameter(super::rules::RuleParameter),
    /// A version of an FCO carta's item.
    CartaItem(super::types::financing::CartaItem),
    /// A version of a social-fuel project's feedstock acquisition.
    FeedstockAcquisition(super::types::financing::FeedstockAcquisition),
    /// A version of a social-fuel project's contract proposal.
    ContractProposal(super::types::financing::ContractProposal),
}

/// Which parties `partySearch` finds.
#[derive(async_graphql::InputObject, Clone, Debug)]
pub struct PartyFilter {
    /// Part of the name, at least 2 letters, accents and case ignored (`joao` finds João).
    pub name: String,
}

/// Sort order of `partySearch`.
#[derive(async_graphql::InputObject, Copy, Clone, Debug)]
pub struct PartyOrder {
    /// What to sort by.
    #[graphql(default)]
    pub field: PartyOrderField,
    /// Which way: `ASC` (the default) A to Z, `DESC` Z to A.
    #[graphql(default_with = "OrderDirection::Asc")]
    pub direction: OrderDirection,
}

impl Default for PartyOrder {
    fn default() -> Self {
        Self {
            field: PartyOrderField::Name,
            direction: OrderDirection::Asc,
        }
    }
}

/// What to sort `partySearch` by.
#[derive(async_graphql::Enum, Copy, Clone, Debug, Default, Eq, PartialEq)]
pub enum PartyOrderField {
    /// The name as the caller reads it, then the party's creation order.
    #[default]
    Name,
}

super::pagination::connection!(
    PartyConnection,
    PartyEdge,
    Party,
    "A page of parties found by name.",
    "A party with its cursor."
);

/// Queries over both programmes: nodes, financings, parties, banks, municipalities.
#[derive(Default)]
pub struct CommonQuery;

#[fomento_macros::shared_fields]
#[Object]
impl CommonQuery {
    /// Fetches any object by its opaque global ID (Relay). Unknown IDs give a `NOT_FOUND` error; malformed ones
    /// `BAD_USER_INPUT`.
    async fn node(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "A global ID from any `id` field.")] id: ID,
    ) -> Result<Option<Node>> {
        let (kind, key) = ids::decode(&id).ok_or_else(|| super::ids::bad_id("id", id.as_str(), None))?;
        // Each object passes the caller's scope where it is made: what lies outside answers as if it did not exist.
        let caller = super::caller(ctx);
        let db = db(ctx);
        let found = match kind {
            NodeKind::Bank => loader::<BankLoader>(ctx)
                .load_one(key)
                .await
                .map_err(gql)?
                .map(|m| Node::Bank(Bank(visible::public(m)))),
            NodeKind::Party => match loader::<PartyLoader>(ctx).load_one(key).await.map_err(gql)? {
                Some(m) => visible::party(db, &caller, m)
                    .await
                    .served(ctx)?
                    .map(|p| Node::Party(Party(p))),
                None => None,
            },
            NodeKind::EconomicGroup => match loader::<EconomicGroupLoader>(ctx).load_one(key).await.map_err(gql)? {
                Some(m) => visible::group(db, &caller, m)
                    .await
                    .served(ctx)?
                    .map(|g| Node::EconomicGroup(EconomicGroup(g))),
                None => None,
            },
            NodeKind::Municipality => match i32::try_from(key) {
                Ok(code) => loader::<MunicipalityLoader>(ctx)
                    .load_one(code)
                    .await
                    .map_err(gql)?
                    .map(|m| Node::Municipality(Municipality(visible::public(m)))),
                Err(_) => None,
            },
            NodeKind::SocialFuelProject => loader::<SocialFuelProjectLoader>(ctx)
                .load_one(key)
                .await
                .map_err(gql)?
                .and_then(|m| visible::of_bank(&caller, m))
                .map(|m| Node::SocialFuelProject(SocialFuelProject(m))),
            NodeKind::FcoCarta => loader::<FcoCartaLoader>(ctx)
                .load_one(key)
                .await
                .map_err(gql)?
                .and_then(|m| visible::of_bank(&caller, m))
                .map(|m| Node::FcoCarta(FcoCarta(m))),
            NodeKind::ChamberMeeting => loader::<super::loaders::ChamberMeetingLoader>(ctx)
                .load_one(key)
                .await
                .map_err(gql)?
                .map(|m| Node::ChamberMeeting(super::chamber::ChamberMeeting(visible::public(m)))),
            NodeKind::BankReport => service::reports::report(db, &caller, key)
                .await
                .served(ctx)?
                .and_then(|m| visible::of_bank(&caller, m))
                .map(|m| Node::BankReport(super::reports::BankReport(m))),
            NodeKind::FactImport => service::imports::get(db, key)
                .await
                .ok()
                .and_then(|m| visible::fact_import(&caller, m))
                .map(|m| Node::FactImport(super::imports::FactImport(m))),
            NodeKind::ComplianceFlag => match service::flags::get(db, key).await.served(ctx)? {
                Some(m) => visible::flag(db, &caller, m)
                    .await
                    .served(ctx)?
                    .map(|f| Node::ComplianceFlag(super::flags::ComplianceFlag(f))),
                None => None,
            },
            NodeKind::CartaItem => service::versions::visible::<entity::fco_carta_item::ActiveModel>(db, &caller, key)
                .await
                .served(ctx)?
                .map(|m| Node::CartaItem(super::types::financing::CartaItem(m))),
            NodeKind::FeedstockAcquisition => {
                service::versions::visible::<entity::feedstock_acquisition::ActiveModel>(db, &caller, key)
                    .await
                    .served(ctx)?
                    .map(|m| Node::FeedstockAcquisition(super::types::financing::FeedstockAcquisition(m)))
            }
            NodeKind::ContractProposal => {
                service::versions::visible::<entity::contract_proposal::ActiveModel>(db, &caller, key)
                    .await
                    .served(ctx)?
                    .map(|m| Node::ContractProposal(super::types::financing::ContractProposal(m)))
            }
            NodeKind::RuleParameter => service::parameters::version(db, key)
                .await
                .served(ctx)?
                .map(|m| Node::RuleParameter(m.into())),
        };
        match found {
            Some(n) => Ok(Some(n)),
            None => Err(ids::no_such(kind, &id)),
        }
    }

    financings_field!(
        "Financings of both programmes in one list: social-fuel projects and FCO cartas.",
        Scope::All
    );

    /// The party with this CPF or CNPJ, in any punctuation (`11.222.333/0001-81`, `11222333000181`). For a CNPJ
    /// whose branch is not registered, another branch of the same company (same root) is returned; its
    /// `financings` cover every branch.
    async fn party(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "A CPF or CNPJ, punctuated or not; alphanumeric CNPJs are accepted.")] document: String,
    ) -> Result<Option<Party>> {
        let p = service::financings::party_by_document(db(ctx), &super::caller(ctx), &document)
            .await
            .served(ctx)?;
        Ok(Some(Party(p)))
    }

    /// Parties whose name contains `filter.name`, accents and case ignored (`joao silva` finds João da Silva), by
    /// name, in keyset pages: for a person entering facts who knows a name, not a document. A bank's key finds only
    /// its borrowers, a person under the name the bank filed; a person whose name the caller may not read is not
    /// found by it.
    #[allow(clippy::too_many_arguments)]
    async fn party_search(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which parties: `name` is required.")] filter: PartyFilter,
        #[graphql(desc = "In which order: by name, A to Z, by default.")] order_by: Option<PartyOrder>,
        #[graphql(desc = "At most this many (at most 100; 20 by default), after `after`.")] first: Option<i32>,
        #[graphql(desc = "A cursor of a previous page.")] after: Option<String>,
        #[graphql(desc = "At most this many before `before`.")] last: Option<i32>,
        #[graphql(desc = "A cursor of a later page.")] before: Option<String>,
    ) -> Result<PartyConnection> {
        use service::financings::{name_seek, party_cursor, party_page};
        let seek = name_seek(first, after.as_deref(), last, before.as_deref()).served(ctx)?;
        let descending = order_by.unwrap_or_default().direction == OrderDirection::Desc;
        let caller = super::caller(ctx);
        let page = party_page(db(ctx), &caller, &filter.name, &seek, descending)
            .await
            .map_err(|e| match e {
                // The search is the filter's `name`.
                service::ServiceError::BadInput {
                    field: "search",
                    message,
                } => service::ServiceError::BadInput {
                    field: "filter.name",
                    message,
                },
                e => e,
            })
            .served(ctx)?;
        let info = PageInfo::of(&page, party_cursor);
        let total = if ctx.look_ahead().field("totalCount").exists() {
            let all = service::page::Seek {
                first: Some(u64::MAX - 1),
                ..Default::default()
            };
            party_page(db(ctx), &caller, &filter.name, &all, descending)
                .await
                .served(ctx)?
                .rows
                .len() as u64
        } else {
            0
        };
        let seen = visible::parties(db(ctx), &caller, page.rows).await.served(ctx)?;
        Ok(PartyConnection::build(
            info,
            total,
            seen.into_iter().map(|p| (party_cursor(&p), Party(p))).collect(),
        ))
    }

    /// Parties whose name contains `search`, accents and case ignored (`joao silva` finds João da Silva), by name:
    /// for a person entering facts who knows a name, not a document.
    #[graphql(
        deprecation = "Use `partySearch(filter: { name }, orderBy:)`, a connection with cursors; removed on 2027-06-30."
    )]
    async fn parties(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Part of the name, at least 2 letters.")] search: String,
        #[graphql(desc = "At most this many (20 by default, at most 100).", default = 20)] first: i32,
    ) -> Result<Vec<Party>> {
        let limit = service::page::bounded("first", first, service::page::MAX_PAGE_SIZE).served(ctx)?;
        let rows = service::financings::parties_by_name(db(ctx), &super::caller(ctx), &search, limit)
            .await
            .served(ctx)?;
        let seen = visible::parties(db(ctx), &super::caller(ctx), rows).await.served(ctx)?;
        Ok(seen.into_iter().map(Party).collect())
    }

    /// All banks, by name.
    async fn banks(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page forward: at most this many items (at most 100).")] first: Option<i32>,
        #[graphql(desc = "Page forward: items after this cursor.")] after: Option<String>,
        #[graphql(desc = "Page backward: at most this many items (at most 100).")] last: Option<i32>,
        #[graphql(desc = "Page backward: items before this cursor.")] before: Option<String>,
    ) -> Result<BankConnection> {
        use service::financings::{bank_count, bank_cursor, banks, name_seek};
        let seek = name_seek(first, after.as_deref(), last, before.as_deref()).served(ctx)?;
        let total = bank_count(db(ctx)).await.served(ctx)?;
        let page = banks(db(ctx), &seek).await.served(ctx)?;
        let info = PageInfo::of(&page, bank_cursor);
        Ok(BankConnection::build(
            info,
            total,
            page.rows
                .into_iter()
                .map(|b| (bank_cursor(&b), Bank(visible::public(b))))
                .collect(),
        ))
    }

    /// One bank by its global ID. A miss answers null with a `NOT_FOUND` error, keeping the rest of the response.
    async fn bank(&self, ctx: &Context<'_>, #[graphql(desc = "The bank's global ID.")] id: ID) -> Result<Option<Bank>> {
        let key = ids::arg(&id, NodeKind::Bank, "id")?;
        loader::<BankLoader>(ctx)
            .load_one(key)
            .await
            .map_err(gql)?
            .map(|b| Some(Bank(visible::public(b))))
            .ok_or_else(|| ids::no_such(NodeKind::Bank, &id))
    }

    /// One bank by its code (`BB`), as bank scripts know it. A miss answers null with a `NOT_FOUND` error, keeping the rest of the response.
    async fn bank_by_code(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The bank's code.")] code: String,
    ) -> Result<Option<Bank>> {
        let bank = service::intake::bank_by_code(db(ctx), &code).await.served(ctx)?;
        Ok(Some(Bank(visible::public(bank))))
    }

    /// One municipality by its 7-digit IBGE code. A miss answers null with a `NOT_FOUND` error, keeping the rest of the response.
    async fn municipality(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The IBGE code, e.g. 5103403 (Cuiabá).")] ibge_code: i32,
    ) -> Result<Option<Municipality>> {
        loader::<MunicipalityLoader>(ctx)
            .load_one(ibge_code)
            .await
            .map_err(gql)?
            .map(|m| Some(Municipality(visible::public(m))))
            .ok_or_else(|| {
                super::localise::error(
                    "NOT_FOUND",
                    service::messages::Message::new(service::messages::code::MUNICIPALITY_NOT_FOUND)
                        .arg("code", ibge_code),
                )
            })
    }
}

/// Queries of each programme's own list, with the programme's own filters.
#[derive(Default)]
pub struct ProgrammeQuery;

#[Object]
impl ProgrammeQuery {
    /// Social-fuel projects, with their own filters.
    #[allow(clippy::too_many_arguments)]
    async fn social_fuel_projects(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only projects matching this filter.")] filter: Option<SocialFuelProjectFilter>,
        #[graphql(desc = "Sort order; latest filing first by default.")] order_by: Option<FinancingOrder>,
        #[graphql(desc = "Page forward: at most this many items (at most 100).")] first: Option<i32>,
        #[graphql(desc = "Page forward: items after this cursor.")] after: Option<String>,
        #[graphql(desc = "Page backward: at most this many items (at most 100).")] last: Option<i32>,
        #[graphql(desc = "Page backward: items before this cursor.")] before: Option<String>,
    ) -> Result<super::plain::Resolved<SocialFuelProjectConnection>> {
        let page = PageArgs::new(first, after, last, before);
        list_social_fuel_projects(ctx, filter.unwrap_or_default(), order_by.unwrap_or_default(), page)
            .await
            .map(super::plain::Resolved)
    }

    /// FCO cartas-consultas, with their own filters.
    #[allow(clippy::too_many_arguments)]
    async fn fco_cartas(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only cartas matching this filter.")] filter: Option<FcoCartaFilter>,
        #[graphql(desc = "Sort order; latest submission first by default.")] order_by: Option<FinancingOrder>,
        #[graphql(desc = "Page forward: at most this many items (at most 100).")] first: Option<i32>,
        #[graphql(desc = "Page forward: items after this cursor.")] after: Option<String>,
        #[graphql(desc = "Page backward: at most this many items (at most 100).")] last: Option<i32>,
        #[graphql(desc = "Page backward: items before this cursor.")] before: Option<String>,
    ) -> Result<super::plain::Resolved<FcoCartaConnection>> {
        let page = PageArgs::new(first, after, last, before);
        list_fco_cartas(ctx, filter.unwrap_or_default(), order_by.unwrap_or_default(), page)
            .await
            .map(super::plain::Resolved)
    }
}
