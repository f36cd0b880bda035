//! Fomento's jobs, each a single testable step `run_once(ctx, now)`, wrapped by the scheduler elsewhere. Reading the
//! banks' spreadsheets lives here too.

pub mod dashboards;
pub mod expire;
pub mod flag_deadlines;
pub mod import;
pub mod registry;
pub mod report;
pub mod runs;
pub mod webhooks;
/// Raw files, now in the service layer; kept here under its old path.
pub use service::store;
