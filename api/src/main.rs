//! The `fomento` command: read the command line and the configuration file, start the logs, and dispatch
//! (`fomento_api::commands`).

/// mimalloc rather than glibc's malloc: the server and the jobs allocate many small, short-lived values.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    fomento_api::commands::main().await
}
