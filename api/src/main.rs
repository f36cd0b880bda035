//! The `fomento` command: parse the configuration, then serve, migrate or print the schema.

use clap::Parser;
use fomento_api::{
    config::{Cli, Command},
    startup::{Application, Settings, connect, migrate},
};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_new(&cli.log)?)
        .with_writer(std::io::stderr)
        .init();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            let args = cli.serve;
            let app = Application::build(Settings {
                database_url: cli.database_url,
                listen: args.listen,
                demo: args.demo,
            })
            .await?;
            tracing::info!("serving GraphQL at http://{}:{}/graphql", args.listen.ip(), app.port());
            app.run_until_stopped().await?;
        }
        Command::Migrate { action } => {
            let (db, _) = connect(&cli.database_url).await?;
            for line in migrate(&db, action).await? {
                println!("{line}");
            }
        }
        Command::Schema => print!("{}", fomento_api::graphql::sdl()),
    }
    Ok(())
}
