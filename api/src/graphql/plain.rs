//! Selections read at once. async-graphql resolves an object by boxing one future per selected field, polling them
//! in a `FuturesUnordered` and gathering the values into a map: for a page of 50 cartas with their bank, borrower and
//! municipality that is some 450 futures, each allocated, polled and freed, for values already in memory. When every
//! field a selection asks of an object is plain — a stored value, or a relation read with the page, with no argument,
//! directive or fragment — [`object`] builds the object's value in one synchronous walk instead; any other selection
//! is left to the executor, whole. Each field is read by calling the type's own resolver (the one the executor calls,
//! [`by_resolver`]) and taking its answer when it needs no waiting, so a field, a mask or a text is written once; a
//! test compares the two paths byte for byte on every plain field
//! (`graphql_http::plain_selections_answer_as_the_executor_does`). Which fields of which types are plain is said in
//! [`super::types::plain_fields`].
//!
//! A request takes this path when [`PlainReads`] is in its data (`--no-plain-reads` leaves it out). It relies on the
//! schema having no extension, whose per-field hooks a selection read at once would skip (`docs/decisions.md`).

use async_graphql::{
    ContextSelectionSet, OutputType, Positioned, ServerResult, Value,
    indexmap::IndexMap,
    parser::types::{Field, Selection},
    registry::Registry,
};
use futures::FutureExt;
use std::borrow::Cow;

/// In a request's data: its plain selections may be read at once.
#[derive(Debug, Default, Clone, Copy)]
pub struct PlainReads;

/// A type whose plain fields can be read without awaiting anything.
pub trait Plain {
    /// The GraphQL type's name (`__typename`).
    const TYPE: &'static str;

    /// The value of one selected field (no arguments, no directives), or `None` when the executor must resolve it
    /// (a field that reads the database, takes arguments, or may fail).
    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value>;
}

/// The object's value for the selection of `ctx`, when every selected field is plain; `None` otherwise.
pub fn object<T: Plain + ?Sized>(ctx: &ContextSelectionSet<'_>, value: &T) -> Option<Value> {
    let items = &ctx.item.node.items;
    let mut map = IndexMap::with_capacity(items.len());
    for selection in items {
        let Selection::Field(f) = &selection.node else {
            return None;
        };
        if !f.node.directives.is_empty() || !f.node.arguments.is_empty() {
            return None;
        }
        let key = &f.node.response_key().node;
        // The same key twice merges sub-selections in the executor: left to it.
        if map.contains_key(key) {
            return None;
        }
        let v = if f.node.name.node == "__typename" {
            Value::String(T::TYPE.to_owned())
        } else {
            value.field(ctx, f)?
        };
        map.insert(key.clone(), v);
    }
    // An empty selection is the executor's to answer (and, for the specification, `complete`'s).
    (!map.is_empty()).then_some(Value::Object(map))
}

/// A field's object value read at once: `value`'s fields for the field's own selection.
pub fn nested<T: Plain + ?Sized>(ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>, value: &T) -> Option<Value> {
    object(&ctx.with_selection_set(&field.node.selection_set), value)
}

/// A field's list of objects read at once.
pub fn list<'a, T: Plain + 'a>(
    ctx: &ContextSelectionSet<'_>,
    field: &Positioned<Field>,
    items: impl ExactSizeIterator<Item = &'a T>,
) -> Option<Value> {
    let ctx = ctx.with_selection_set(&field.node.selection_set);
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(object(&ctx, item)?);
    }
    Some(Value::List(out))
}

/// A string's value.
pub fn text(s: &str) -> Value {
    Value::String(s.to_owned())
}

/// An optional string's value.
pub fn opt_text(s: Option<&str>) -> Value {
    s.map_or(Value::Null, text)
}

/// `T` in the schema, read at once when its selection is plain and the request allows it ([`PlainReads`]), by the
/// executor otherwise. The schema does not see the wrapper: it names, describes and registers `T`.
pub struct Resolved<T>(pub T);

impl<T: OutputType + Plain> OutputType for Resolved<T> {
    fn type_name() -> Cow<'static, str> {
        T::type_name()
    }

    fn qualified_type_name() -> String {
        T::qualified_type_name()
    }

    fn introspection_type_name(&self) -> Cow<'static, str> {
        self.0.introspection_type_name()
    }

    fn create_type_info(registry: &mut Registry) -> String {
        T::create_type_info(registry)
    }

    async fn resolve(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> ServerResult<Value> {
        if ctx.data_opt::<PlainReads>().is_some()
            && let Some(v) = object(ctx, &self.0)
        {
            return Ok(v);
        }
        self.0.resolve(ctx, field).await
    }
}

/// A list of `T` in the schema (`[T!]!`), each item read at once when the selection is plain and the request allows
/// it, all of them by the executor otherwise (a judged financing's 40 outcomes were 40 objects of futures).
pub struct List<T>(pub Vec<T>);

impl<T: OutputType + Plain> OutputType for List<T> {
    fn type_name() -> Cow<'static, str> {
        Vec::<T>::type_name()
    }

    fn qualified_type_name() -> String {
        Vec::<T>::qualified_type_name()
    }

    fn create_type_info(registry: &mut Registry) -> String {
        Vec::<T>::create_type_info(registry)
    }

    async fn resolve(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> ServerResult<Value> {
        if ctx.data_opt::<PlainReads>().is_some() {
            let mut out = Vec::with_capacity(self.0.len());
            for item in &self.0 {
                match object(ctx, item) {
                    Some(v) => out.push(v),
                    None => return self.0.resolve(ctx, field).await,
                }
            }
            return Ok(Value::List(out));
        }
        self.0.resolve(ctx, field).await
    }
}

/// Implements [`Plain`] for a connection and its edge (`connection!`), over a node type that is [`Plain`].
macro_rules! plain_connection {
    ($conn:ty, $edge:ty, $conn_name:literal, $edge_name:literal) => {
        impl $crate::graphql::plain::Plain for $conn {
            const TYPE: &'static str = $conn_name;

            fn field(
                &self,
                ctx: &async_graphql::ContextSelectionSet<'_>,
                field: &async_graphql::Positioned<async_graphql::parser::types::Field>,
            ) -> Option<async_graphql::Value> {
                use $crate::graphql::plain;
                Some(match field.node.name.node.as_str() {
                    "edges" => plain::list(ctx, field, self.edges.iter())?,
                    "nodes" => plain::list(ctx, field, self.edges.iter().map(|e| &e.node))?,
                    "pageInfo" => plain::nested(ctx, field, &self.page_info)?,
                    "totalCount" => async_graphql::Value::from(self.total_count),
                    _ => return None,
                })
            }
        }

        impl $crate::graphql::plain::Plain for $edge {
            const TYPE: &'static str = $edge_name;

            fn field(
                &self,
                ctx: &async_graphql::ContextSelectionSet<'_>,
                field: &async_graphql::Positioned<async_graphql::parser::types::Field>,
            ) -> Option<async_graphql::Value> {
                use $crate::graphql::plain;
                Some(match field.node.name.node.as_str() {
                    "cursor" => plain::text(&self.cursor),
                    "node" => plain::nested(ctx, field, &self.node)?,
                    _ => return None,
                })
            }
        }
    };
}
pub(crate) use plain_connection;

impl Plain for super::pagination::PageInfo {
    const TYPE: &'static str = "PageInfo";

    fn field(&self, _: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        Some(match field.node.name.node.as_str() {
            "hasPreviousPage" => Value::Boolean(self.has_previous_page),
            "hasNextPage" => Value::Boolean(self.has_next_page),
            "startCursor" => opt_text(self.start_cursor.as_deref()),
            "endCursor" => opt_text(self.end_cursor.as_deref()),
            _ => return None,
        })
    }
}

/// A leaf field's value as its resolver (the one the executor calls) gives it, when the resolver answers without
/// waiting; `None` otherwise (a resolver that reads the database, or fails), and the executor answers the object.
pub fn leaf<T: OutputType>(
    ctx: &ContextSelectionSet<'_>,
    field: &Positioned<Field>,
    resolver: impl Future<Output = T>,
) -> Option<Value> {
    let value = resolver.now_or_never()?;
    value.resolve(ctx, field).now_or_never()?.ok()
}

/// The leaf fields read by their own resolvers, `"graphqlName" => method`, each called with the field's context as the
/// executor calls it (`#[Object]` gives every resolver one).
macro_rules! by_resolver {
    ($value:expr, $ctx:expr, $field:expr, { $($name:literal => $method:ident),* $(,)? }) => {
        match $field.node.name.node.as_str() {
            $($name => return $crate::graphql::plain::leaf($ctx, $field, $value.$method(&$ctx.with_field($field))),)*
            _ => {}
        }
    };
}
pub(crate) use by_resolver;
