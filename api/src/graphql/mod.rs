//! The GraphQL schema: one graph over both programmes.

pub mod acts;
pub mod audit;
pub mod chamber;
pub mod complete;
pub mod dashboard;
pub mod error;
pub mod evaluation;
pub mod facts;
pub mod flags;
pub mod guard;
pub mod history;
pub mod ids;
pub mod imports;
pub mod keys;
pub mod lifecycle;
pub mod limits;
pub mod list;
pub mod loaders;
pub mod localise;
pub mod pagination;
pub mod payloads;
pub mod plain;
pub mod prefetched;
pub mod query;
pub mod reports;
pub mod request;
pub mod rules;
pub mod scalars;
pub mod types;
pub mod webhooks;

use async_graphql::{Context, Schema, dataloader::DataLoader};
use service::Db as DatabaseConnection;

/// The schema type.
pub type AppSchema = Schema<
    guard::Guarded<query::QueryRoot>,
    guard::Guarded<query::MutationRoot>,
    guard::Guarded<flags::FlagsSubscription>,
>;

pub use service::Caller;

/// The caller of the request (built at the door from its key).
pub fn caller(ctx: &Context<'_>) -> Caller {
    ctx.data_opt::<Caller>().cloned().unwrap_or_default()
}

/// An object a mutation acted on, as its payload: passed through the caller's scope like every object the graph
/// hands out (the use case has checked it already; one outside the scope would answer as not found).
pub fn seen<T: service::visible::OfBank>(
    ctx: &Context<'_>,
    value: T,
) -> async_graphql::Result<service::visible::Seen<T>> {
    service::visible::of_bank(&caller(ctx), value).ok_or_else(|| unseen(ctx))
}

/// The answer for an object outside the caller's scope: `NOT_FOUND`, as if it did not exist.
pub fn unseen(ctx: &Context<'_>) -> async_graphql::Error {
    let message = service::messages::Message::new(service::messages::code::OBJECT_UNSEEN).render(error::lang(ctx));
    error::gql(error::ApiError::NotFound(message))
}

/// Builds the schema with its DataLoaders over `db`.
pub fn build_schema(db: DatabaseConnection, runtime: Option<crate::runtime::JobsRuntime>) -> AppSchema {
    build_schema_with(db, runtime, true)
}

/// [`build_schema`], answering introspection or not (`--no-introspection`, for production).
///
/// One schema for every request, with no async-graphql extension: while any is registered, the executor builds a
/// `ResolveInfo` and runs the hooks for every field of every item. What extensions would do is done once per request
/// or once per root field instead: the doors check the document's limits and render the errors' messages
/// ([`door`]), and the root types check and audit their own fields ([`guard::Guarded`]).
pub fn build_schema_with(
    db: DatabaseConnection,
    runtime: Option<crate::runtime::JobsRuntime>,
    introspection: bool,
) -> AppSchema {
    use loaders::*;
    let mut builder = Schema::build(
        guard::Guarded(query::QueryRoot::default()),
        guard::Guarded(query::MutationRoot::default()),
        guard::Guarded(flags::FlagsSubscription),
    );
    if let Some(i) = runtime {
        builder = builder.data(i);
    }
    if !introspection {
        builder = builder.disable_introspection();
    }
    builder
        .limit_depth(16)
        .limit_recursive_depth(32)
        .data(loader_of(BankLoader(db.clone())))
        .data(loader_of(PartyLoader(db.clone())))
        .data(loader_of(EconomicGroupLoader(db.clone())))
        .data(loader_of(MunicipalityLoader(db.clone())))
        .data(loader_of(SocialFuelProjectLoader(db.clone())))
        .data(loader_of(FcoCartaLoader(db.clone())))
        .data(loader_of(AcquisitionsByProject(db.clone())))
        .data(loader_of(ProposalsByProject(db.clone())))
        .data(loader_of(DocumentsByProject(db.clone())))
        .data(loader_of(ItemsByCarta(db.clone())))
        .data(loader_of(AmendmentsByCarta(db.clone())))
        .data(loader_of(CyclesByCarta(db.clone())))
        .data(loader_of(StatementsByCarta(db.clone())))
        .data(loader_of(ChamberMeetingLoader(db.clone())))
        .data(loader_of(PlansByProject(db.clone())))
        .data(loader_of(ChangeNoticesByProject(db.clone())))
        .data(loader_of(FindingsByProject(db.clone())))
        .data(loader_of(ConfirmationsByFinancing(db.clone())))
        .data(loader_of(SemiAridByMunicipality(db.clone())))
        .data(loader_of(AttendanceLoader(db.clone())))
        .data(loader_of(GroupCommitmentsByParty(db.clone())))
        .data(loader_of(FlagsByFinancing(db.clone())))
        .data(db)
        .finish()
}

/// How long a DataLoader waits to gather keys into one batch. Long enough that every item of a page asks before
/// the batch leaves, even in a debug build on a busy machine; short next to a database round trip.
const BATCH_DELAY: std::time::Duration = std::time::Duration::from_millis(5);

fn loader_of<K, T>(l: T) -> DataLoader<T>
where
    K: Send + Sync + std::hash::Hash + Eq + Clone + 'static,
    T: async_graphql::dataloader::Loader<K> + Send + Sync + 'static,
{
    // A batch runs in a task of its own, in the span of the resolver that asked first: its SQL stays in the
    // request's trace.
    DataLoader::new(l, |batch| tokio::spawn(tracing::Instrument::in_current_span(batch))).delay(BATCH_DELAY)
}

/// The SDL of the schema, as checked in at `schema.graphql`.
pub fn sdl() -> String {
    Schema::build(
        guard::Guarded(query::QueryRoot::default()),
        guard::Guarded(query::MutationRoot::default()),
        guard::Guarded(flags::FlagsSubscription),
    )
    .finish()
    .sdl()
}

/// The schema's types, read once from its SDL, for completing responses ([`complete`]).
pub fn type_info() -> &'static complete::TypeInfo {
    static INFO: std::sync::OnceLock<complete::TypeInfo> = std::sync::OnceLock::new();
    INFO.get_or_init(|| complete::TypeInfo::from_sdl(&sdl()))
}

/// The database connection of the request.
pub fn db<'a>(ctx: &Context<'a>) -> &'a DatabaseConnection {
    // The schema is always built with the connection by `build_schema`.
    ctx.data_unchecked::<DatabaseConnection>()
}

/// A DataLoader registered by `build_schema`.
pub fn loader<'a, T: Send + Sync + 'static>(ctx: &Context<'a>) -> &'a DataLoader<T> {
    ctx.data_unchecked::<DataLoader<T>>()
}
