//! Fomento's domain model: the sea-orm entities of both programmes and the pure value types and rules over them.
//! No HTTP, no GraphQL, no scheduler here.

pub mod domain;
pub mod entities;
pub mod rules;

pub use entities::versioned::Versioned;
pub use entities::*;
