//! Limits checked on the parsed query, before it is validated or run: its size, and its cost — each field counts 1,
//! and a field's selection counts as many times as the page it asks for (`first`/`last`, 20 for a connection without
//! them). One request of 30 aliases of a 100-item page with every rule's outcome would cost ~36,000 and is refused
//! with `QUERY_TOO_COSTLY` before anything runs; the heaviest page a front-end asks for costs a few thousand.

use async_graphql::{
    ErrorExtensions, ServerResult, Variables,
    extensions::{Extension, ExtensionContext, ExtensionFactory, NextParseQuery},
    parser::types::{ExecutableDocument, Selection, SelectionSet},
};
use std::sync::Arc;

/// The largest cost accepted.
pub const MAX_COST: u64 = 10_000;

/// The longest query text accepted, in bytes.
pub const MAX_QUERY_BYTES: usize = 64 * 1024;

/// The page a connection serves when neither `first` nor `last` is given.
const DEFAULT_PAGE: u64 = 20;

/// How deep fragments may nest before the query is taken as costly (validation refuses cycles later).
const MAX_NESTING: u32 = 64;

/// The extension.
pub struct Limits;

impl ExtensionFactory for Limits {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(LimitQuery)
    }
}

struct LimitQuery;

fn refuse(code: &'static str, message: String) -> async_graphql::ServerError {
    async_graphql::Error::new(message)
        .extend_with(|_, e| e.set("code", code))
        .into_server_error(async_graphql::Pos::default())
}

#[async_trait::async_trait]
impl Extension for LimitQuery {
    async fn parse_query(
        &self,
        ctx: &ExtensionContext<'_>,
        query: &str,
        variables: &Variables,
        next: NextParseQuery<'_>,
    ) -> ServerResult<ExecutableDocument> {
        check_size(query)?;
        let doc = next.run(ctx, query, variables).await?;
        check_cost(&doc, variables)?;
        Ok(doc)
    }
}

/// Refuses a query text over [`MAX_QUERY_BYTES`] (`QUERY_TOO_LARGE`).
pub fn check_size(query: &str) -> ServerResult<()> {
    if query.len() > MAX_QUERY_BYTES {
        return Err(refuse(
            "QUERY_TOO_LARGE",
            format!(
                "the query is {} bytes, over the limit of {MAX_QUERY_BYTES}",
                query.len()
            ),
        ));
    }
    Ok(())
}

/// Refuses a parsed query costing over [`MAX_COST`] (`QUERY_TOO_COSTLY`).
pub fn check_cost(doc: &ExecutableDocument, variables: &Variables) -> ServerResult<()> {
    let total = doc
        .operations
        .iter()
        .map(|(_, op)| cost(doc, &op.node.selection_set.node, variables, 0))
        .fold(0u64, u64::saturating_add);
    if total > MAX_COST {
        return Err(refuse(
            "QUERY_TOO_COSTLY",
            format!(
                "the query would cost {total} (each field 1, times the page sizes it asks for), over the limit of \
                 {MAX_COST}: ask for fewer aliases, smaller pages or fewer fields"
            ),
        ));
    }
    Ok(())
}

/// The page size a field asks for: its `first` or `last` (a literal or a variable), 20 for a connection without
/// them, 1 for any other field.
fn page(field: &async_graphql::parser::types::Field, variables: &Variables) -> u64 {
    let asked = field
        .arguments
        .iter()
        .filter(|(name, _)| matches!(name.node.as_str(), "first" | "last"))
        .filter_map(|(_, v)| {
            let value = v
                .node
                .clone()
                .into_const_with(|name| variables.get(&name).cloned().ok_or(()))
                .ok()?;
            match value {
                async_graphql::Value::Number(n) => n.as_u64(),
                _ => None,
            }
        })
        .max();
    let connection = field
        .selection_set
        .node
        .items
        .iter()
        .any(|s| matches!(&s.node, Selection::Field(f) if matches!(f.node.name.node.as_str(), "nodes" | "edges")));
    asked.unwrap_or(if connection { DEFAULT_PAGE } else { 1 }).max(1)
}

fn cost(doc: &ExecutableDocument, set: &SelectionSet, variables: &Variables, depth: u32) -> u64 {
    if depth > MAX_NESTING {
        return MAX_COST + 1;
    }
    set.items
        .iter()
        .map(|s| match &s.node {
            Selection::Field(f) => {
                let inner = cost(doc, &f.node.selection_set.node, variables, depth + 1);
                1u64.saturating_add(page(&f.node, variables).saturating_mul(inner))
            }
            Selection::FragmentSpread(spread) => doc
                .fragments
                .get(&spread.node.fragment_name.node)
                .map_or(0, |d| cost(doc, &d.node.selection_set.node, variables, depth + 1)),
            Selection::InlineFragment(i) => cost(doc, &i.node.selection_set.node, variables, depth + 1),
        })
        .fold(0u64, u64::saturating_add)
}
