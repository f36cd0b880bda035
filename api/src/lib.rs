//! Fomento's HTTP/GraphQL gateway: configuration, start-up, the GraphQL-over-HTTP layer, and the demo dataset.

pub mod commands;
pub mod config;
pub mod demo;
pub mod export_request;
pub mod graphql;
pub mod http;
pub mod metrics;
pub mod rules_import;
pub mod runtime;
pub mod startup;
pub mod telemetry;
