//! Fomento's jobs, each a single testable step `run_once(ctx, now)`, wrapped by the scheduler elsewhere. Reading the
//! banks' spreadsheets lives here too.

pub mod report;
pub mod runs;
pub mod store;
