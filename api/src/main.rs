//! The `fomento` command: parse the command line, start the logs, and dispatch (`fomento_api::commands`).

use clap::Parser;

/// mimalloc rather than glibc's malloc: the server and the jobs allocate many small, short-lived values.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = fomento_api::config::Cli::parse();
    let _telemetry = fomento_api::telemetry::init(&cli.log, cli.log_format, cli.otlp_endpoint.as_deref())?;
    fomento_api::commands::run(cli).await
}
