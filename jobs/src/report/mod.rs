//! Banks' monthly reports (CDAE/MT 2019, art. 2 §5): reading, recognising columns, typed rows, and the ingestion job.

pub mod columns;
pub mod ingest;
/// The message catalogue, now in the service layer; kept here under its old path.
pub use service::messages;
pub mod read;
pub mod rows;
pub mod xlsx;
