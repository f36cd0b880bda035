//! The `fomento` command as the tests run it in processes of its own (several servers and a worker on one database,
//! the configuration file): the same entry point as `api/src/main.rs`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    fomento_api::commands::main().await
}
