//! The GraphQL schema: one graph over both programmes.

pub mod error;
pub mod ids;
pub mod list;
pub mod loaders;
pub mod pagination;
pub mod query;
pub mod scalars;
pub mod types;

use async_graphql::{Context, EmptyMutation, EmptySubscription, Schema, dataloader::DataLoader};
use sea_orm::DatabaseConnection;

/// The schema type.
pub type AppSchema = Schema<query::QueryRoot, EmptyMutation, EmptySubscription>;

/// Who is calling. Access control by role and bank comes later; for now every caller is anonymous.
#[derive(Debug, Clone, Default)]
pub enum Caller {
    /// No identity was presented.
    #[default]
    Anonymous,
}

/// Builds the schema with its DataLoaders over `db`.
pub fn build_schema(db: DatabaseConnection) -> AppSchema {
    use loaders::*;
    Schema::build(
        query::QueryRoot::default(),
        EmptyMutation,
        EmptySubscription,
    )
    .limit_depth(16)
    .limit_recursive_depth(32)
    .data(DataLoader::new(BankLoader(db.clone()), tokio::spawn))
    .data(DataLoader::new(PartyLoader(db.clone()), tokio::spawn))
    .data(DataLoader::new(
        EconomicGroupLoader(db.clone()),
        tokio::spawn,
    ))
    .data(DataLoader::new(
        MunicipalityLoader(db.clone()),
        tokio::spawn,
    ))
    .data(DataLoader::new(
        SocialFuelProjectLoader(db.clone()),
        tokio::spawn,
    ))
    .data(DataLoader::new(FcoCartaLoader(db.clone()), tokio::spawn))
    .data(DataLoader::new(
        AcquisitionsByProject(db.clone()),
        tokio::spawn,
    ))
    .data(DataLoader::new(
        ProposalsByProject(db.clone()),
        tokio::spawn,
    ))
    .data(DataLoader::new(
        DocumentsByProject(db.clone()),
        tokio::spawn,
    ))
    .data(DataLoader::new(ItemsByCarta(db.clone()), tokio::spawn))
    .data(DataLoader::new(AmendmentsByCarta(db.clone()), tokio::spawn))
    .data(db)
    .finish()
}

/// The SDL of the schema, as checked in at `schema.graphql`.
pub fn sdl() -> String {
    Schema::build(
        query::QueryRoot::default(),
        EmptyMutation,
        EmptySubscription,
    )
    .finish()
    .sdl()
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
