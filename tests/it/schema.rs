//! The checked-in schema and its documentation.

use crate::helpers::on_each_backend;
use serde_json::{Value, json};

#[test]
fn checked_in_schema_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../schema.graphql");
    let checked_in = std::fs::read_to_string(path).unwrap_or_default();
    let generated = fomento_api::graphql::sdl();
    if checked_in != generated {
        let line = checked_in
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map(|i| i + 1);
        panic!(
            "schema.graphql differs from the code (first difference near line {line:?}); regenerate it with\n\
             cargo run -q -p fomento-api --bin fomento -- schema > schema.graphql"
        );
    }
}

const INTROSPECTION: &str = "{ __schema { types { name kind description
  fields(includeDeprecated: true) { name description args { name description } }
  inputFields { name description }
  enumValues(includeDeprecated: true) { name description } } } }";

#[tokio::test]
async fn every_public_type_field_argument_and_value_is_described() {
    on_each_backend(false, |app| async move {
        let data = app.data(INTROSPECTION, json!({})).await;
        let mut missing = Vec::new();
        let blank = |v: &Value| v.as_str().is_none_or(|s| s.trim().is_empty());
        for t in data["__schema"]["types"].as_array().expect("types") {
            let name = t["name"].as_str().unwrap_or("");
            if name.starts_with("__") || ["String", "Int", "Float", "Boolean", "ID"].contains(&name) {
                continue;
            }
            if blank(&t["description"]) {
                missing.push(name.to_owned());
            }
            for f in t["fields"]
                .as_array()
                .into_iter()
                .flatten()
                .chain(t["inputFields"].as_array().into_iter().flatten())
            {
                if blank(&f["description"]) {
                    missing.push(format!("{name}.{}", f["name"]));
                }
                for a in f["args"].as_array().into_iter().flatten() {
                    if blank(&a["description"]) {
                        missing.push(format!("{name}.{}({})", f["name"], a["name"]));
                    }
                }
            }
            for v in t["enumValues"].as_array().into_iter().flatten() {
                if blank(&v["description"]) {
                    missing.push(format!("{name}.{}", v["name"]));
                }
            }
        }
        assert!(missing.is_empty(), "undescribed: {missing:?}");
    })
    .await;
}
