//! Completes an executed response as the GraphQL specification's "Response" section says, where async-graphql 7.2
//! falls short: a field whose resolver failed is `null` in `data` (async-graphql leaves its key out), the null
//! propagates to the nearest nullable parent when the field is non-null, and an object whose selection picked no field
//! (`... on FcoCarta { id }` on a social-fuel project) is `{}`, not `null`. Generated clients rely on every selected
//! key being present.

use async_graphql::parser::types::{
    BaseType, ExecutableDocument, FragmentDefinition, OperationDefinition, OperationType, Selection, SelectionSet,
    Type, TypeKind, TypeSystemDefinition,
};
use serde_json::Value;
use std::collections::HashMap;

/// Each object and interface type's fields with their declared types and arguments, each input object's fields and
/// the enums' names, read from the schema's SDL.
#[derive(Debug, Default)]
pub struct TypeInfo {
    fields: HashMap<String, HashMap<String, Type>>,
    arguments: HashMap<(String, String), HashMap<String, Type>>,
    inputs: HashMap<String, HashMap<String, Type>>,
    enums: std::collections::HashSet<String>,
    roots: [String; 3],
}

/// One step of a response path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// An object's key.
    Key(String),
    /// A list's index.
    Index(usize),
}

impl TypeInfo {
    /// Reads the types out of SDL.
    pub fn from_sdl(sdl: &str) -> Self {
        let mut info = TypeInfo {
            roots: ["Query".into(), "Mutation".into(), "Subscription".into()],
            ..Default::default()
        };
        let Ok(doc) = async_graphql::parser::parse_schema(sdl) else {
            return info;
        };
        for def in doc.definitions {
            match def {
                TypeSystemDefinition::Type(t) => {
                    let t = t.node;
                    let fields = match t.kind {
                        TypeKind::Object(o) => o.fields,
                        TypeKind::Interface(i) => i.fields,
                        TypeKind::InputObject(i) => {
                            info.inputs.insert(
                                t.name.node.to_string(),
                                i.fields
                                    .into_iter()
                                    .map(|f| (f.node.name.node.to_string(), f.node.ty.node))
                                    .collect(),
                            );
                            continue;
                        }
                        TypeKind::Enum(_) => {
                            info.enums.insert(t.name.node.to_string());
                            continue;
                        }
                        _ => continue,
                    };
                    for f in &fields {
                        info.arguments.insert(
                            (t.name.node.to_string(), f.node.name.node.to_string()),
                            f.node
                                .arguments
                                .iter()
                                .map(|a| (a.node.name.node.to_string(), a.node.ty.node.clone()))
                                .collect(),
                        );
                    }
                    info.fields.insert(
                        t.name.node.to_string(),
                        fields
                            .into_iter()
                            .map(|f| (f.node.name.node.to_string(), f.node.ty.node))
                            .collect(),
                    );
                }
                TypeSystemDefinition::Schema(s) => {
                    let s = s.node;
                    for (i, root) in [s.query, s.mutation, s.subscription].into_iter().enumerate() {
                        if let Some(r) = root {
                            info.roots[i] = r.node.to_string();
                        }
                    }
                }
                TypeSystemDefinition::Directive(_) => {}
            }
        }
        info
    }

    /// The root type of operations of `kind`.
    pub fn root(&self, kind: OperationType) -> &str {
        match kind {
            OperationType::Query => &self.roots[0],
            OperationType::Mutation => &self.roots[1],
            OperationType::Subscription => &self.roots[2],
        }
    }

    /// The declared type of argument `arg` of `parent.field`.
    pub fn argument_type(&self, parent: &str, field: &str, arg: &str) -> Option<&Type> {
        self.arguments.get(&(parent.to_owned(), field.to_owned()))?.get(arg)
    }

    /// The declared type of field `field` of input object `input`.
    pub fn input_field_type(&self, input: &str, field: &str) -> Option<&Type> {
        self.inputs.get(input)?.get(field)
    }

    /// Whether `name` is an enum of the schema.
    pub fn is_enum(&self, name: &str) -> bool {
        self.enums.contains(name)
    }

    /// The declared type of `parent.field` (`__typename` included).
    pub fn field_type(&self, parent: &str, field: &str) -> Option<Type> {
        if field == "__typename" {
            return Some(Type {
                base: BaseType::Named(async_graphql::Name::new("String")),
                nullable: false,
            });
        }
        self.fields.get(parent)?.get(field).cloned()
    }
}

/// The fields a selection set selects under one response key: for each, the type it is looked up on (a fragment's
/// type condition, or the parent's) and its field name and sub-selection.
struct Selected<'a> {
    on: String,
    name: String,
    selection: &'a SelectionSet,
}

fn collect<'a>(
    fragments: &'a HashMap<async_graphql::Name, async_graphql::Positioned<FragmentDefinition>>,
    set: &'a SelectionSet,
    on: &str,
    out: &mut Vec<(String, Selected<'a>)>,
    depth: usize,
) {
    if depth > 64 {
        return;
    }
    for item in &set.items {
        match &item.node {
            Selection::Field(f) => out.push((
                f.node.response_key().node.to_string(),
                Selected {
                    on: on.to_owned(),
                    name: f.node.name.node.to_string(),
                    selection: &f.node.selection_set.node,
                },
            )),
            Selection::InlineFragment(fr) => {
                let on = fr
                    .node
                    .type_condition
                    .as_ref()
                    .map(|c| c.node.on.node.to_string())
                    .unwrap_or_else(|| on.to_owned());
                collect(fragments, &fr.node.selection_set.node, &on, out, depth + 1);
            }
            Selection::FragmentSpread(s) => {
                if let Some(fr) = fragments.get(&s.node.fragment_name.node) {
                    let on = fr.node.type_condition.node.on.node.to_string();
                    collect(fragments, &fr.node.selection_set.node, &on, out, depth + 1);
                }
            }
        }
    }
}

/// Puts every object of `data` in the order of its selection, as the specification's "Serialized Map Ordering" asks:
/// async-graphql 7.2 gathers an object's fields as their futures finish (async-graphql issue 612), so a field that
/// waited on the database came after one that did not. Objects already in order are left as they are.
pub fn order(doc: &ExecutableDocument, operation_name: Option<&str>, data: &mut async_graphql::Value) {
    if let Some(op) = operation(doc, operation_name) {
        order_value(&doc.fragments, data, &[&op.selection_set.node]);
    }
}

fn order_value(
    fragments: &HashMap<async_graphql::Name, async_graphql::Positioned<FragmentDefinition>>,
    value: &mut async_graphql::Value,
    sets: &[&SelectionSet],
) {
    match value {
        async_graphql::Value::List(items) => {
            for item in items {
                order_value(fragments, item, sets);
            }
        }
        async_graphql::Value::Object(map) => {
            let mut fields = Vec::new();
            for set in sets {
                collect(fragments, set, "", &mut fields, 0);
            }
            // Each response key once, where it first appears, with every sub-selection made under it.
            let mut keys: Vec<(String, Vec<&SelectionSet>)> = Vec::with_capacity(fields.len());
            for (key, selected) in fields {
                match keys.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, subs)) => subs.push(selected.selection),
                    None => keys.push((key, vec![selected.selection])),
                }
            }
            let place = |name: &str| keys.iter().position(|(k, _)| k == name).unwrap_or(usize::MAX);
            if !map.keys().map(|k| place(k)).is_sorted() {
                map.sort_by_cached_key(|k, _| place(k));
            }
            for (key, subs) in &keys {
                if subs.iter().any(|s| !s.items.is_empty())
                    && let Some(v) = map.get_mut(key.as_str())
                {
                    order_value(fragments, v, subs);
                }
            }
        }
        _ => {}
    }
}

/// The operation a request runs: the only one, or the one named.
/// Whether a response to `doc` may need completing even without errors: an object none of whose selected fields
/// applied comes back `null` from async-graphql, which takes a type condition (a fragment) or a directive
/// (`@skip`, `@include`) somewhere in the document. Without them every object has a field that applies.
pub fn needs_document(doc: &ExecutableDocument) -> bool {
    !doc.fragments.is_empty()
        || doc
            .operations
            .iter()
            .any(|(_, op)| !op.node.directives.is_empty() || !plain(&op.node.selection_set.node))
}

pub fn operation<'a>(doc: &'a ExecutableDocument, name: Option<&str>) -> Option<&'a OperationDefinition> {
    use async_graphql::parser::types::DocumentOperations;
    match (&doc.operations, name) {
        (DocumentOperations::Single(op), _) => Some(&op.node),
        (DocumentOperations::Multiple(ops), Some(name)) => {
            ops.iter().find(|(n, _)| n.as_str() == name).map(|(_, op)| &op.node)
        }
        (DocumentOperations::Multiple(ops), None) if ops.len() == 1 => ops.values().next().map(|op| &op.node),
        (DocumentOperations::Multiple(_), None) => None,
    }
}

/// Completes `data` for the operation: fills the keys of failed fields with `null` and propagates nulls per the
/// fields' declared types, and turns empty objects async-graphql left `null` into `{}`. `error_paths` are the paths of
/// the field errors.
pub fn complete(
    info: &TypeInfo,
    doc: &ExecutableDocument,
    operation_name: Option<&str>,
    data: &mut Value,
    error_paths: &[Vec<Step>],
) {
    let Some(op) = operation(doc, operation_name) else {
        return;
    };
    let root = info.root(op.ty);
    let walker = Walker {
        info,
        fragments: &doc.fragments,
    };
    walker.empty_objects(data, &op.selection_set.node, root, &mut Vec::new(), error_paths);
    if data.is_null() && error_paths.iter().any(|p| !p.is_empty()) {
        // Every root field failed: async-graphql left nothing; the failed fields are put back below.
        *data = Value::Object(Default::default());
    }
    for path in error_paths.iter().filter(|p| !p.is_empty()) {
        let Some(types) = walker.types_along(&op.selection_set.node, root, path) else {
            continue;
        };
        if let Some(depth) = walker.null_out(data, path, &types) {
            // The key put back goes to its place in the selection, not after its siblings.
            if let Some(keys) = walker.keys_at(&op.selection_set.node, root, &path[..depth])
                && let Some(Value::Object(map)) = get_mut(data, &path[..depth])
            {
                let mut rest = std::mem::take(map);
                for key in keys {
                    if let Some(v) = rest.shift_remove(&key) {
                        map.insert(key, v);
                    }
                }
                map.extend(rest);
            }
        }
    }
}

struct Walker<'a> {
    info: &'a TypeInfo,
    fragments: &'a HashMap<async_graphql::Name, async_graphql::Positioned<FragmentDefinition>>,
}

/// Whether a position is at, under or above an error's path.
fn touches_error(position: &[Step], error_paths: &[Vec<Step>]) -> bool {
    error_paths
        .iter()
        .any(|p| p.starts_with(position) || position.starts_with(p))
}

impl Walker<'_> {
    /// The declared type at each prefix of `path` (one entry per step).
    fn types_along(&self, selection: &SelectionSet, root: &str, path: &[Step]) -> Option<Vec<Type>> {
        self.walk_to(selection, root, path).map(|(types, _, _)| types)
    }

    /// The response keys an object at `path` was asked for, in the order of the selection.
    fn keys_at(&self, selection: &SelectionSet, root: &str, path: &[Step]) -> Option<Vec<String>> {
        let (_, sets, parent) = self.walk_to(selection, root, path)?;
        let mut fields = Vec::new();
        for set in &sets {
            collect(self.fragments, set, &parent, &mut fields, 0);
        }
        let mut keys: Vec<String> = Vec::with_capacity(fields.len());
        for (key, _) in fields {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        Some(keys)
    }

    /// Along `path`: the declared type at each prefix, and the selections and type name at its end.
    fn walk_to<'s>(
        &'s self,
        selection: &'s SelectionSet,
        root: &str,
        path: &[Step],
    ) -> Option<(Vec<Type>, Vec<&'s SelectionSet>, String)> {
        let mut types = Vec::with_capacity(path.len());
        let mut sets: Vec<&SelectionSet> = vec![selection];
        let mut parent = root.to_owned();
        let mut current: Option<Type> = None;
        for step in path {
            match step {
                Step::Key(key) => {
                    let mut fields = Vec::new();
                    for set in &sets {
                        collect(self.fragments, set, &parent, &mut fields, 0);
                    }
                    let matching: Vec<&Selected> = fields.iter().filter(|(k, _)| k == key).map(|(_, s)| s).collect();
                    let first = matching.first()?;
                    let ty = self.info.field_type(&first.on, &first.name)?;
                    sets = matching.iter().map(|s| s.selection).collect();
                    parent = named(&ty).to_owned();
                    current = Some(ty.clone());
                    types.push(ty);
                }
                Step::Index(_) => {
                    let BaseType::List(inner) = &current.as_ref()?.base else {
                        return None;
                    };
                    let inner = (**inner).clone();
                    current = Some(inner.clone());
                    types.push(inner);
                }
            }
        }
        Some((types, sets, parent))
    }

    /// Puts `null` where the failed field's key is missing (or where the first missing key on its path is), then moves
    /// the null up while the type at the position is non-null, up to `data` itself.
    /// Answers the depth of the object a key was put into, if one was.
    fn null_out(&self, data: &mut Value, path: &[Step], types: &[Type]) -> Option<usize> {
        let mut depth = 0;
        let mut inserted = false;
        while depth < path.len() {
            if get_mut(data, &path[..=depth]).is_some() {
                depth += 1;
                continue;
            }
            if let (Some(Value::Object(map)), Step::Key(k)) = (get_mut(data, &path[..depth]), &path[depth]) {
                map.insert(k.clone(), Value::Null);
                depth += 1;
                inserted = true;
            }
            break;
        }
        let put_into = inserted.then(|| depth - 1);
        if !inserted && !get_mut(data, path).is_some_and(|v| v.is_null()) {
            return None;
        }
        while depth > 0 && !types[depth - 1].nullable {
            depth -= 1;
            match get_mut(data, &path[..depth]) {
                Some(v) => *v = Value::Null,
                None => break,
            }
        }
        put_into.filter(|d| get_mut(data, &path[..*d]).is_some_and(|v| v.is_object()))
    }

    /// Turns `null` into `{}` where the declared type is a non-null object (or a list of them) and no error explains
    /// the null: async-graphql answers `null` for an object none of whose selected fields applied.
    fn empty_objects(
        &self,
        value: &mut Value,
        selection: &SelectionSet,
        on: &str,
        position: &mut Vec<Step>,
        error_paths: &[Vec<Step>],
    ) {
        let Value::Object(map) = value else {
            return;
        };
        let mut fields = Vec::new();
        collect(self.fragments, selection, on, &mut fields, 0);
        let mut by_key: HashMap<&str, Vec<&Selected>> = HashMap::new();
        for (k, s) in &fields {
            by_key.entry(k.as_str()).or_default().push(s);
        }
        for (key, v) in map.iter_mut() {
            let Some(selected) = by_key.get(key.as_str()) else {
                continue;
            };
            let first = selected[0];
            let Some(ty) = self.info.field_type(&first.on, &first.name) else {
                continue;
            };
            position.push(Step::Key(key.clone()));
            self.fill(v, &ty, selected, position, error_paths);
            position.pop();
        }
    }

    fn fill(&self, v: &mut Value, ty: &Type, selected: &[&Selected], position: &mut Vec<Step>, errors: &[Vec<Step>]) {
        if errors.is_empty() && !v.is_null() && selected.iter().all(|s| plain(s.selection)) {
            // No error to place, and no fragment or directive below: every object below has a field that applied.
            return;
        }
        match (&ty.base, v) {
            (BaseType::List(inner), Value::Array(items)) => {
                for (i, item) in items.iter_mut().enumerate() {
                    position.push(Step::Index(i));
                    self.fill(item, inner, selected, position, errors);
                    position.pop();
                }
            }
            (BaseType::Named(name), v) => {
                let has_selection = selected.iter().any(|s| !s.selection.items.is_empty());
                if !has_selection {
                    return;
                }
                if v.is_null() && !ty.nullable && !touches_error(position, errors) {
                    *v = Value::Object(Default::default());
                }
                for s in selected {
                    self.empty_objects(v, s.selection, name, position, errors);
                }
            }
            _ => {}
        }
    }
}

/// Whether a selection has neither fragments nor directives anywhere in it: then async-graphql answers each object
/// it selects with at least one field.
fn plain(set: &SelectionSet) -> bool {
    set.items.iter().all(|s| match &s.node {
        Selection::Field(f) => f.node.directives.is_empty() && plain(&f.node.selection_set.node),
        Selection::InlineFragment(_) | Selection::FragmentSpread(_) => false,
    })
}

fn named(ty: &Type) -> &str {
    match &ty.base {
        BaseType::Named(n) => n.as_str(),
        BaseType::List(inner) => named(inner),
    }
}

fn get_mut<'v>(data: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    let mut v = data;
    for step in path {
        v = match (step, v) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SDL: &str = "
        type Query { a: Bank b: Bank c: Bank! list: [Thing!]! maybe: [Thing] }
        type Bank { id: ID! name: String! }
        union Thing = Bank | Other
        type Other { x: Int }
        schema { query: Query }";

    fn run(query: &str, mut data: Value, errors: &[Vec<Step>]) -> Value {
        let info = TypeInfo::from_sdl(SDL);
        let doc = async_graphql::parser::parse_query(query).expect("parses");
        complete(&info, &doc, None, &mut data, errors);
        data
    }

    fn key(k: &str) -> Step {
        Step::Key(k.into())
    }

    #[test]
    fn a_failed_field_is_put_back_in_its_place_in_the_selection() {
        let out = run(
            "{ c { id } a { name id } ... on Query { z: b { id } } b { id } }",
            json!({ "c": { "id": "1" }, "z": { "id": "3" }, "b": { "id": "4" } }),
            &[vec![key("a")]],
        );
        let keys: Vec<&String> = out.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["c", "a", "z", "b"], "{out}");
        assert_eq!(out["a"], Value::Null);
    }

    #[test]
    fn a_failed_nullable_field_is_null_beside_its_siblings() {
        let out = run(
            "{ a { id } b { id } }",
            json!({ "a": { "id": "1" } }),
            &[vec![key("b")]],
        );
        assert_eq!(out, json!({ "a": { "id": "1" }, "b": null }));
    }

    #[test]
    fn a_failed_non_null_field_nulls_its_nearest_nullable_parent() {
        let out = run(
            "{ a { id name } }",
            json!({ "a": { "id": "1" } }),
            &[vec![key("a"), key("name")]],
        );
        assert_eq!(out, json!({ "a": null }));
        // Up to `data` itself when every parent is non-null.
        let out = run("{ c { name } }", json!(null), &[vec![key("c"), key("name")]]);
        assert_eq!(out, json!(null));
    }

    #[test]
    fn empty_selections_of_non_null_objects_are_empty_objects() {
        let out = run(
            "{ list { ... on Other { x } } maybe { ... on Other { x } } }",
            json!({ "list": [null, { "x": 1 }], "maybe": [null] }),
            &[],
        );
        assert_eq!(out, json!({ "list": [{}, { "x": 1 }], "maybe": [null] }));
    }

    /// A selection with no fragment or directive is left as it is (it cannot hold an empty object), beside one that
    /// is completed.
    #[test]
    fn plain_selections_are_left_and_the_others_completed() {
        let out = run(
            "{ a { id name } list { ... on Other { x } } c { name @skip(if: true) id } }",
            json!({ "a": { "id": "1", "name": "BB" }, "list": [null], "c": { "id": "2" } }),
            &[],
        );
        assert_eq!(
            out,
            json!({ "a": { "id": "1", "name": "BB" }, "list": [{}], "c": { "id": "2" } })
        );
        assert!(plain(
            &async_graphql::parser::parse_query("{ a { id } }")
                .expect("parses")
                .operations
                .iter()
                .next()
                .expect("op")
                .1
                .node
                .selection_set
                .node
        ));
    }

    #[test]
    fn a_null_that_an_error_explains_stays_null() {
        let out = run(
            "{ maybe { ... on Bank { name } } }",
            json!({ "maybe": [null] }),
            &[vec![key("maybe"), Step::Index(0), key("name")]],
        );
        assert_eq!(out, json!({ "maybe": [null] }));
    }
}
