//! Logging: one `tracing` subscriber, filtered by `--log`, as text (coloured only on a terminal) or as one JSON
//! object per line (`--log-format json`) for log collectors.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines; colours only when standard error is a terminal.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// Installs the subscriber on standard error.
pub fn init(filter: &str, format: LogFormat) -> anyhow::Result<()> {
    let builder = tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_new(filter)?)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => builder.json().with_ansi(false).init(),
    }
    Ok(())
}
