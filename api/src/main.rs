//! The `fomento` command: parse the configuration, then serve, migrate or print the schema.

use clap::Parser;
use fomento_api::{
    config::{Cli, Command, RulesAction},
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
        Command::Rules {
            action: RulesAction::Import { file },
        } => {
            let text =
                std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
            let (db, _) = connect(&cli.database_url).await?;
            fomento_api::startup::migrate_up(&db).await?;
            match fomento_api::rules_import::import(&db, &text).await {
                Ok(n) => println!("{n} parameter versions added from {}", file.display()),
                Err(problems) => {
                    for p in &problems {
                        eprintln!("{}: {p}", file.display());
                    }
                    anyhow::bail!("nothing imported: {} problem(s)", problems.len());
                }
            }
        }
        Command::Schema => print!("{}", fomento_api::graphql::sdl()),
    }
    Ok(())
}
