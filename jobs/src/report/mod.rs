//! Banks' monthly reports (CDAE/MT 2019, art. 2 §5): reading, recognising columns, typed rows, and the ingestion job.

mod bulk;
pub mod columns;
pub mod ingest;
pub mod messages;
pub mod read;
pub mod rows;
pub mod xlsx;
