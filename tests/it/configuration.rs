//! The configuration file (`--config`, `FOMENTO_CONFIG`): TOML whose keys are the options' long names, beneath the
//! flags and the environment, checked whole at start-up by the options' own parsers.

use fomento_api::config::{Cli, LoadError};
use std::path::PathBuf;

fn file(text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("fomento-config-{}.toml", uuid::Uuid::new_v4().simple()));
    std::fs::write(&path, text).expect("the file");
    path
}

fn load(args: &[&str], variable: Option<&PathBuf>) -> Result<Cli, LoadError> {
    Cli::try_load_from(
        std::iter::once("fomento").chain(args.iter().copied()),
        variable.map(|p| p.clone().into_os_string()),
    )
}

#[tokio::test]
async fn the_files_settings_apply_beneath_the_flags_and_above_the_defaults() {
    let path = file(
        r#"
listen = "127.0.0.1:9999"
rate-limit = 7
cors-origin = ["https://a.example.gov.br", "https://b.example.gov.br"]
no-introspection = true
schedule = ["flag-deadlines=0 0 5 * * *@America/Sao_Paulo"]
retain-raw-files = "18m"
lease-seconds = 60
"#,
    );
    let p = path.display().to_string();
    let cli = load(&["--config", &p, "--rate-limit", "9", "serve"], None).expect("loads");
    assert_eq!(cli.serve.rate_limit, 9, "the flag wins over the file");
    assert_eq!(cli.serve.listen.to_string(), "127.0.0.1:9999");
    assert_eq!(
        cli.serve.cors_origins,
        ["https://a.example.gov.br", "https://b.example.gov.br"]
    );
    assert!(cli.serve.no_introspection);
    assert_eq!(cli.schedules, ["flag-deadlines=0 0 5 * * *@America/Sao_Paulo"]);
    assert_eq!(cli.lease_seconds, 60);
    assert_eq!(cli.retain_raw_files, "18m".parse().expect("a retention"));
    // Named by the variable, after the subcommand, or with `=`: the same file.
    for cli in [
        load(&["serve"], Some(&path)).expect("by the variable"),
        load(&["serve", &format!("--config={p}")], None).expect("after the subcommand"),
    ] {
        assert_eq!((cli.serve.rate_limit, cli.lease_seconds), (7, 60));
    }
    // Without the file, the defaults.
    let cli = load(&["serve"], None).expect("loads");
    assert_eq!(
        (cli.serve.rate_limit, cli.lease_seconds),
        (fomento_api::config::DEFAULT_RATE_LIMIT, 300)
    );
    assert!(!cli.serve.no_introspection && !cli.serve.no_jobs);
    let _ = std::fs::remove_file(path);
}

#[tokio::test]
async fn the_example_file_in_deploy_is_accepted() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/fomento.toml");
    let cli = load(&["--config", example, "serve"], None).unwrap_or_else(|e| panic!("{e}"));
    assert!(cli.serve.no_jobs && cli.serve.no_introspection);
    assert_eq!(cli.serve.metrics_listen.map(|a| a.port()), Some(9464));
}

#[tokio::test]
async fn an_unknown_key_or_a_value_its_option_refuses_stops_the_start_naming_the_key() {
    use service::messages::Lang;
    let cases: &[(&str, &str, &str)] = &[
        ("rate-limt = 5", "«rate-limt»", "não é uma configuração do Fomento"),
        // A subcommand's option, the file itself and the help are not settings.
        ("bank = \"BB\"", "«bank»", "não é uma configuração"),
        ("config = \"outro.toml\"", "«config»", "não é uma configuração"),
        ("rate_limit = 5", "«rate_limit»", "nomes longos das opções"),
        ("rate-limit = \"muitos\"", "«rate-limit»", "\"muitos\""),
        ("rate-limit = -1", "«rate-limit»", "-1"),
        ("listen = 8080", "«listen»", "8080"),
        ("log-format = \"xml\"", "«log-format»", "[text, json]"),
        ("request-timeout = 0", "«request-timeout»", "0"),
        ("retain-raw-files = \"cinco anos\"", "«retain-raw-files»", "cinco anos"),
        ("no-introspection = \"sim\"", "«no-introspection»", "true ou false"),
        ("listen = [\"127.0.0.1:1\"]", "«listen»", "um valor só"),
        ("cors-origin = [[\"x\"]]", "«cors-origin»", "uma lista de textos"),
        ("[serve]\nlisten = \"127.0.0.1:1\"", "«serve»", "não é uma configuração"),
        ("rate-limit = ", "não pôde ser lido", "line 1"),
    ];
    for (text, key, said) in cases {
        let path = file(text);
        let err = match load(&["--config", &path.display().to_string(), "serve"], None) {
            Err(LoadError::File(e)) => e,
            other => panic!("{text:?}: {other:?}"),
        };
        let pt = err.to_string();
        assert!(pt.contains(key) && pt.contains(said), "{text:?}: {pt}");
        assert!(
            pt.contains(&path.display().to_string()),
            "{text:?} names the file: {pt}"
        );
        let en = err.message().render(Lang::En);
        assert!(en.starts_with("the configuration file"), "{text:?}: {en}");
        let _ = std::fs::remove_file(path);
    }
    let missing = std::env::temp_dir().join("fomento-no-such-config.toml");
    match load(&["--config", &missing.display().to_string(), "serve"], None) {
        Err(LoadError::File(e)) => assert!(e.to_string().contains("não pôde ser lido"), "{e}"),
        other => panic!("{other:?}"),
    }
}
