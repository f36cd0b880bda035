//! Limits checked on the parsed query, before it is validated or run: its size, and its cost — each field counts 1,
//! and a field's selection counts as many times as the page it asks for (`first`/`last`, 20 for a connection without
//! them). One request of 30 aliases of a 100-item page with every rule's outcome would cost ~36,000 and is refused
//! with `QUERY_TOO_COSTLY` before anything runs; the heaviest page a front-end asks for costs a few thousand.
//!
//! Fragments are measured once each, not expanded where they are spread, so the check itself takes time in
//! proportion to the text; fragments spread within themselves are refused first, naming the cycle; and a bound on
//! the selections the operations stand for once spread bounds what async-graphql's parse step and validation walk.
//!
//! Size: one walk of the parsed document measuring size, depth, cost and fragment cycles, with its unit tests.

use async_graphql::{
    ErrorExtensionValues, Name, Pos, Positioned, ServerError, ServerResult, Variables,
    parser::types::{ExecutableDocument, Field, Selection, SelectionSet},
};
use service::messages::{Lang, Message};
use std::collections::HashMap;

/// The largest cost accepted.
pub const MAX_COST: u64 = 10_000;

/// The longest query text accepted, in bytes.
pub const MAX_QUERY_BYTES: usize = 64 * 1024;

/// The most selections (fields, fragment spreads and inline fragments) the operations may stand for once every
/// fragment spread is replaced by its fragment: what validation walks. A query within [`MAX_COST`] has at most that
/// many fields; this bounds the spreads and inline fragments around them too.
pub const MAX_SELECTIONS: u64 = 50_000;

/// The page a connection serves when neither `first` nor `last` is given.
const DEFAULT_PAGE: u64 = 20;

/// How deep fields and fragments may nest (async-graphql's own limits, 16 fields and 32 levels, are checked later).
const MAX_NESTING: u32 = 64;

/// A refusal of the whole request: no `locations`, as it concerns no one place in the document.
fn refuse(code: &'static str, message: String) -> ServerError {
    refuse_at(code, message, None)
}

fn refuse_at(code: &'static str, message: String, pos: Option<Pos>) -> ServerError {
    let mut e = ServerError::new(message, pos);
    let mut ext = ErrorExtensionValues::default();
    ext.set("code", code);
    e.extensions = Some(ext);
    e
}

/// Refuses a query text over [`MAX_QUERY_BYTES`] (`QUERY_TOO_LARGE`), in `lang`.
pub fn check_size(query: &str, lang: Lang) -> ServerResult<()> {
    if query.len() > MAX_QUERY_BYTES {
        let message = Message::new(service::messages::code::QUERY_TOO_LARGE)
            .arg("bytes", query.len())
            .arg("max", MAX_QUERY_BYTES);
        return Err(refuse("QUERY_TOO_LARGE", message.render(lang)));
    }
    Ok(())
}

/// Checks a parsed document before anything else walks it: a fragment spread within itself is refused naming the
/// cycle (`GRAPHQL_VALIDATION_FAILED`); a document nesting over 64 levels, whose operations stand for over
/// [`MAX_SELECTIONS`] selections, or costing over [`MAX_COST`] is refused (`QUERY_TOO_COSTLY`). Each fragment is
/// measured once however often it is spread, so this takes time in proportion to the document's text. The limits'
/// refusals are in `lang`.
pub fn check_document(doc: &ExecutableDocument, variables: &Variables, lang: Lang) -> ServerResult<()> {
    check_cycles(doc)?;
    check_enum_literals(doc, super::type_info(), lang)?;
    let mut measure = Measure {
        doc,
        variables,
        fragments: HashMap::new(),
        lang,
    };
    let mut total = Size::default();
    for (_, op) in doc.operations.iter() {
        let size = measure.selection_set(&op.node.selection_set.node, 0)?;
        total.cost = total.cost.saturating_add(size.cost);
        total.selections = total.selections.saturating_add(size.selections);
    }
    if total.selections > MAX_SELECTIONS {
        let message = Message::new(service::messages::code::QUERY_TOO_MANY_SELECTIONS)
            .arg("selections", total.selections)
            .arg("max", MAX_SELECTIONS);
        return Err(refuse("QUERY_TOO_COSTLY", message.render(lang)));
    }
    if total.cost > MAX_COST {
        let message = Message::new(service::messages::code::QUERY_TOO_COSTLY)
            .arg("cost", total.cost)
            .arg("max", MAX_COST);
        return Err(refuse("QUERY_TOO_COSTLY", message.render(lang)));
    }
    Ok(())
}

/// Refuses an enum value written in the query's text as a string (`stages: ["DRAFT"]`, also in a variable's default
/// value), naming the argument (`BAD_USER_INPUT`): the GraphQL specification writes enum values bare (`DRAFT`).
/// async-graphql accepts a string where an enum is expected because JSON variables carry enum values as strings,
/// which stay accepted: only literals are checked here. Arguments of unknown fields are left to validation.
pub fn check_enum_literals(doc: &ExecutableDocument, info: &super::complete::TypeInfo, lang: Lang) -> ServerResult<()> {
    use async_graphql::parser::types::BaseType;
    use async_graphql::{Value, parser::types::Type};
    fn value(info: &super::complete::TypeInfo, v: &Value, ty: &Type, path: &str) -> Option<(String, String, String)> {
        match (&ty.base, v) {
            (BaseType::List(inner), Value::List(items)) => items.iter().find_map(|i| value(info, i, inner, path)),
            (BaseType::List(inner), v) => value(info, v, inner, path),
            (BaseType::Named(name), Value::String(s)) if info.is_enum(name) => {
                Some((path.to_owned(), s.clone(), name.to_string()))
            }
            (BaseType::Named(name), Value::Object(fields)) => fields.iter().find_map(|(k, v)| {
                let ty = info.input_field_type(name, k)?;
                value(info, v, ty, &format!("{path}.{k}"))
            }),
            _ => None,
        }
    }
    type Found = ((String, String, String), Pos);
    fn set(info: &super::complete::TypeInfo, selections: &SelectionSet, parent: &str) -> Option<Found> {
        selections.items.iter().find_map(|item| match &item.node {
            Selection::Field(f) => {
                let f = &f.node;
                let name = f.name.node.as_str();
                let in_arguments = f.arguments.iter().find_map(|(arg, v)| {
                    let ty = info.argument_type(parent, name, arg.node.as_str())?;
                    // Variables stand for JSON values, where an enum value is a string: they are not checked.
                    let literal = v.node.clone().into_const_with(|_| Ok::<_, ()>(Value::Null)).ok()?;
                    value(info, &literal, ty, arg.node.as_str()).map(|found| (found, v.pos))
                });
                in_arguments.or_else(|| {
                    let ty = info.field_type(parent, name)?;
                    let mut base = &ty.base;
                    while let BaseType::List(inner) = base {
                        base = &inner.base;
                    }
                    let BaseType::Named(inner) = base else { return None };
                    set(info, &f.selection_set.node, inner.as_str())
                })
            }
            Selection::InlineFragment(i) => {
                let on = i
                    .node
                    .type_condition
                    .as_ref()
                    .map_or(parent, |c| c.node.on.node.as_str());
                set(info, &i.node.selection_set.node, on)
            }
            // Fragments are checked once each, from their definitions.
            Selection::FragmentSpread(_) => None,
        })
    }
    let mut found = None;
    for (_, op) in doc.operations.iter() {
        let op = &op.node;
        found = op
            .variable_definitions
            .iter()
            .find_map(|d| {
                let default = d.node.default_value.as_ref()?;
                value(
                    info,
                    &default.node,
                    &d.node.var_type.node,
                    &format!("${}", d.node.name.node),
                )
                .map(|f| (f, default.pos))
            })
            .or_else(|| set(info, &op.selection_set.node, info.root(op.ty)));
        if found.is_some() {
            break;
        }
    }
    if found.is_none() {
        found = doc.fragments.values().find_map(|f| {
            set(
                info,
                &f.node.selection_set.node,
                f.node.type_condition.node.on.node.as_str(),
            )
        });
    }
    let Some(((arg, text, enumeration), pos)) = found else {
        return Ok(());
    };
    let message = Message::new(service::messages::code::ENUM_AS_STRING)
        .arg("arg", arg)
        .arg("value", text)
        .arg("enum", enumeration);
    Err(refuse_at("BAD_USER_INPUT", message.render(lang), Some(pos)))
}

/// The fragments spread anywhere inside a selection set (under its fields too), with where each spread is.
fn spreads(set: &SelectionSet) -> Vec<(&Name, Pos)> {
    let mut out = Vec::new();
    let mut stack = vec![set];
    while let Some(set) = stack.pop() {
        for item in &set.items {
            match &item.node {
                Selection::Field(f) => stack.push(&f.node.selection_set.node),
                Selection::InlineFragment(i) => stack.push(&i.node.selection_set.node),
                Selection::FragmentSpread(s) => out.push((&s.node.fragment_name.node, item.pos)),
            }
        }
    }
    out
}

/// Refuses a fragment spread within itself, directly or through others, naming the cycle at the spread that closes
/// it. A depth-first walk of the fragments (each once), without recursion.
fn check_cycles(doc: &ExecutableDocument) -> ServerResult<()> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Open,
        Done,
    }
    let edges: HashMap<&Name, Vec<(&Name, Pos)>> = doc
        .fragments
        .iter()
        .map(|(name, f)| (name, spreads(&f.node.selection_set.node)))
        .collect();
    let mut state: HashMap<&Name, State> = HashMap::new();
    let mut names: Vec<&Name> = doc.fragments.keys().collect();
    names.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    for start in names {
        if state.contains_key(start) {
            continue;
        }
        // The path being walked: each fragment with the index of its next spread to follow.
        let mut path: Vec<(&Name, usize)> = vec![(start, 0)];
        state.insert(start, State::Open);
        while let Some(top) = path.last_mut() {
            let name = top.0;
            let out = edges.get(name).map_or(&[][..], Vec::as_slice);
            let Some(&(to, pos)) = out.get(top.1) else {
                state.insert(name, State::Done);
                path.pop();
                continue;
            };
            top.1 += 1;
            match state.get(to) {
                Some(State::Done) => {}
                Some(State::Open) => {
                    let from = path.iter().position(|(n, _)| *n == to).unwrap_or(0);
                    let cycle: Vec<&str> = path[from..]
                        .iter()
                        .map(|(n, _)| n.as_str())
                        .chain(std::iter::once(to.as_str()))
                        .collect();
                    return Err(refuse_at(
                        "GRAPHQL_VALIDATION_FAILED",
                        format!("Cannot spread fragment \"{to}\" within itself: {}", cycle.join(" → ")),
                        Some(pos),
                    ));
                }
                None if edges.contains_key(to) => {
                    state.insert(to, State::Open);
                    path.push((to, 0));
                }
                // An unknown fragment: validation names it.
                None => {}
            }
        }
    }
    Ok(())
}

/// What a selection set stands for once its fragments are spread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Size {
    /// Its cost: each field 1, a field's selection times its page.
    cost: u64,
    /// How many selections (fields, fragment spreads, inline fragments) it holds, spread.
    selections: u64,
    /// How many levels of selection sets it nests below itself (a field's empty selection counts as one).
    height: u32,
}

/// Measures selection sets, each fragment once: a fragment's size does not depend on where it is spread (its pages
/// come from literals and the request's variables), so a document of fragments each spreading the one before twice
/// is measured in time proportional to its text, not to the 2ⁿ fields it stands for. Fragments are known to be
/// acyclic ([`check_cycles`]).
struct Measure<'a> {
    doc: &'a ExecutableDocument,
    variables: &'a Variables,
    fragments: HashMap<&'a Name, Size>,
    /// The language of the refusals.
    lang: Lang,
}

impl<'a> Measure<'a> {
    fn too_deep(&self) -> ServerError {
        let message = Message::new(service::messages::code::QUERY_TOO_DEEP).arg("max", MAX_NESTING);
        refuse("QUERY_TOO_COSTLY", message.render(self.lang))
    }

    /// The size of `set`, found `depth` levels below an operation's root.
    fn selection_set(&mut self, set: &'a SelectionSet, depth: u32) -> ServerResult<Size> {
        if depth > MAX_NESTING {
            return Err(self.too_deep());
        }
        let mut size = Size::default();
        for item in &set.items {
            let inner = match &item.node {
                Selection::Field(f) => {
                    let inner = self.selection_set(&f.node.selection_set.node, depth + 1)?;
                    Some(Size {
                        cost: 1u64.saturating_add(page(&f.node, self.variables).saturating_mul(inner.cost)),
                        ..inner
                    })
                }
                Selection::InlineFragment(i) => Some(self.selection_set(&i.node.selection_set.node, depth + 1)?),
                Selection::FragmentSpread(s) => match self.doc.fragments.get(&s.node.fragment_name.node) {
                    Some(fragment) => Some(self.fragment(&s.node.fragment_name.node, fragment, depth + 1)?),
                    // An unknown fragment: validation refuses it.
                    None => None,
                },
            };
            size.selections = size.selections.saturating_add(1);
            if let Some(inner) = inner {
                size.cost = size.cost.saturating_add(inner.cost);
                size.selections = size.selections.saturating_add(inner.selections);
                size.height = size.height.max(inner.height.saturating_add(1));
            }
        }
        Ok(size)
    }

    /// The size of a fragment's selection set, measured the first time it is spread.
    fn fragment(
        &mut self,
        name: &'a Name,
        fragment: &'a Positioned<async_graphql::parser::types::FragmentDefinition>,
        depth: u32,
    ) -> ServerResult<Size> {
        let size = match self.fragments.get(name) {
            Some(size) => *size,
            None => {
                let size = self.selection_set(&fragment.node.selection_set.node, depth)?;
                self.fragments.insert(name, size);
                size
            }
        };
        if depth.saturating_add(size.height) > MAX_NESTING {
            return Err(self.too_deep());
        }
        Ok(size)
    }
}

/// The page size a field asks for: its `first` or `last` (a literal or a variable), 20 for a connection without
/// them, 1 for any other field.
fn page(field: &Field, variables: &Variables) -> u64 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use async_graphql::parser::parse_query;

    /// The cost as it was defined before fragments were measured once: every spread expanded where it stands, over
    /// 64 levels taken as too costly. The memoised measure must agree with it wherever it can run.
    fn expanded_cost(doc: &ExecutableDocument, set: &SelectionSet, variables: &Variables, depth: u32) -> u64 {
        if depth > MAX_NESTING {
            return MAX_COST + 1;
        }
        set.items
            .iter()
            .map(|s| match &s.node {
                Selection::Field(f) => {
                    let inner = expanded_cost(doc, &f.node.selection_set.node, variables, depth + 1);
                    1u64.saturating_add(page(&f.node, variables).saturating_mul(inner))
                }
                Selection::FragmentSpread(spread) => {
                    doc.fragments.get(&spread.node.fragment_name.node).map_or(0, |d| {
                        expanded_cost(doc, &d.node.selection_set.node, variables, depth + 1)
                    })
                }
                Selection::InlineFragment(i) => expanded_cost(doc, &i.node.selection_set.node, variables, depth + 1),
            })
            .fold(0u64, u64::saturating_add)
    }

    fn memoised_cost(doc: &ExecutableDocument, variables: &Variables) -> u64 {
        let mut measure = Measure {
            doc,
            variables,
            fragments: HashMap::new(),
            lang: Lang::En,
        };
        doc.operations
            .iter()
            .map(|(_, op)| {
                measure
                    .selection_set(&op.node.selection_set.node, 0)
                    .map_or(MAX_COST + 1, |s| s.cost)
            })
            .fold(0u64, u64::saturating_add)
    }

    fn variables(json: serde_json::Value) -> Variables {
        Variables::from_json(json)
    }

    fn code(e: &ServerError) -> String {
        e.extensions
            .as_ref()
            .and_then(|x| x.get("code"))
            .map(ToString::to_string)
            .unwrap_or_default()
            .trim_matches('"')
            .to_owned()
    }

    /// A document of `levels` fragments, each spreading the one before twice: `F{levels}` stands for 2^levels
    /// copies of `F0`.
    fn doubling(levels: usize) -> String {
        let mut q = format!("{{ banks {{ nodes {{ ...F{levels} }} }} }} fragment F0 on Bank {{ id code }}");
        for i in 1..=levels {
            q.push_str(&format!(" fragment F{i} on Bank {{ ...F{} ...F{} }}", i - 1, i - 1));
        }
        q
    }

    #[test]
    fn fragments_measured_once_cost_what_expanding_them_cost() {
        let cases: Vec<(String, serde_json::Value)> = vec![
            ("{ banks { nodes { id code } } }".into(), serde_json::json!({})),
            (
                "{ a: banks(first: 5) { nodes { id } } b: banks(last: 7) { edges { node { id } } } }".into(),
                serde_json::json!({}),
            ),
            (
                "query Q($n: Int, $m: Int) { banks(first: $n) { nodes { ...B } } x: banks(last: $m) { nodes { ...B } } } \
                 fragment B on Bank { id deadlines { ruleCode } cartas(first: 3) { nodes { number } } }".into(),
                serde_json::json!({ "n": 40, "m": 2 }),
            ),
            (
                "query Q($n: Int) { banks(first: $n) { ...C } } fragment C on BankConnection { nodes { ...B } totalCount } \
                 fragment B on Bank { a: id b: id ... on Bank { code } }".into(),
                serde_json::json!({}),
            ),
            (
                "{ fcoCartas(first: 50) { nodes { ...Carta chamberMeeting { cartas { ...Carta } } } } } \
                 fragment Carta on FcoCarta { number bank { code } party { ...Party } } \
                 fragment Party on Party { name document economicGroup { members { ...Party2 } } } \
                 fragment Party2 on Party { name }".into(),
                serde_json::json!({}),
            ),
            (
                "query One { a: banks(first: 100) { nodes { ...B } } } query Other { b: banks { nodes { ...B } } } \
                 fragment B on Bank { id }".into(),
                serde_json::json!({}),
            ),
            ("{ banks { nodes { ...Missing } } }".into(), serde_json::json!({})),
            (doubling(6), serde_json::json!({})),
            (doubling(12), serde_json::json!({})),
        ];
        for (query, vars) in cases {
            let doc = parse_query(&query).expect("parses");
            let vars = variables(vars);
            let expanded = doc
                .operations
                .iter()
                .map(|(_, op)| expanded_cost(&doc, &op.node.selection_set.node, &vars, 0))
                .fold(0u64, u64::saturating_add);
            assert_eq!(memoised_cost(&doc, &vars), expanded, "{query}");
        }
    }

    #[test]
    fn nesting_past_the_limit_is_refused_as_before_whether_or_not_a_fragment_was_measured_already() {
        // A chain of 70 fragments: the deepest is past 64 levels.
        let mut q = String::from("{ banks { nodes { ...F69 } } } fragment F0 on Bank { id }");
        for i in 1..70 {
            q.push_str(&format!(" fragment F{i} on Bank {{ ...F{} }}", i - 1));
        }
        let doc = parse_query(&q).expect("parses");
        let vars = Variables::default();
        assert!(
            expanded_cost(
                &doc,
                &doc.operations.iter().next().expect("op").1.node.selection_set.node,
                &vars,
                0
            ) > MAX_COST
        );
        let e = check_document(&doc, &vars, Lang::En).expect_err("too deep");
        assert_eq!(code(&e), "QUERY_TOO_COSTLY");
        // F30 measured shallow first (3 levels down, 31 below), then spread 35 levels down through F60: refused all
        // the same, as expanding it would.
        let mut q = String::from(
            "{ a: banks { nodes { ...F30 } } b: banks { nodes { x: cartas { nodes { ...F60 } } } } } fragment F0 on Bank { id }",
        );
        for i in 1..=60 {
            q.push_str(&format!(" fragment F{i} on Bank {{ ...F{} }}", i - 1));
        }
        let doc = parse_query(&q).expect("parses");
        assert!(
            expanded_cost(
                &doc,
                &doc.operations.iter().next().expect("op").1.node.selection_set.node,
                &vars,
                0
            ) > MAX_COST
        );
        assert_eq!(
            code(&check_document(&doc, &vars, Lang::En).expect_err("too deep")),
            "QUERY_TOO_COSTLY"
        );
        // One level shallower it passes, under both definitions.
        let q = q.replace("x: cartas { nodes { ...F60 } }", "...F60");
        let doc = parse_query(&q).expect("parses");
        assert!(
            expanded_cost(
                &doc,
                &doc.operations.iter().next().expect("op").1.node.selection_set.node,
                &vars,
                0
            ) <= MAX_COST
        );
        check_document(&doc, &vars, Lang::En).expect("within the nesting");
    }

    #[test]
    fn doubling_fragments_are_refused_at_once_however_many_levels() {
        for levels in [30, 60, 200] {
            let doc = parse_query(doubling(levels)).expect("parses");
            let started = std::time::Instant::now();
            let e = check_document(&doc, &Variables::default(), Lang::En).expect_err("refused");
            assert_eq!(code(&e), "QUERY_TOO_COSTLY", "F{levels}: {}", e.message);
            assert!(e.locations.is_empty(), "about no one place: {:?}", e.locations);
            assert!(
                started.elapsed() < std::time::Duration::from_secs(1),
                "F{levels}: {:?}",
                started.elapsed()
            );
        }
    }

    /// Spreads and inline fragments count too: 5,000 spreads of a fragment holding one field under 20 inline
    /// fragments cost 5,000 but stand for 110,000 selections, which validation would walk.
    #[test]
    fn a_document_standing_for_too_many_selections_is_refused_though_it_costs_little() {
        let mut q = String::from("{ ");
        q.push_str(&"...A ".repeat(5_000));
        q.push_str("} fragment A on Query { ");
        q.push_str(&"... on Query { ".repeat(20));
        q.push_str("__typename");
        q.push_str(&" }".repeat(20));
        q.push_str(" }");
        let doc = parse_query(&q).expect("parses");
        assert!(memoised_cost(&doc, &Variables::default()) <= MAX_COST);
        let e = check_document(&doc, &Variables::default(), Lang::En).expect_err("refused");
        assert_eq!(code(&e), "QUERY_TOO_COSTLY");
        assert!(e.message.contains("110000 selections"), "{}", e.message);
    }

    #[test]
    fn a_fragment_spread_within_itself_is_refused_naming_the_cycle() {
        let cases = [
            ("{ banks { nodes { ...A } } } fragment A on Bank { id ...A }", "A → A"),
            (
                "{ banks { nodes { ...A } } } fragment A on Bank { id ...B } fragment B on Bank { code ... on Bank { x: deadlines { ...C } } } fragment C on Deadline { bank { ...A } }",
                "A → B → C → A",
            ),
            // Unused, still a cycle; and reached only through a doubling chain, still found at once.
            (
                "{ __typename } fragment U on Query { ...V } fragment V on Query { ...U }",
                "U → V → U",
            ),
        ];
        for (query, cycle) in cases {
            let doc = parse_query(query).expect("parses");
            let e = check_document(&doc, &Variables::default(), Lang::En).expect_err("a cycle");
            assert_eq!(code(&e), "GRAPHQL_VALIDATION_FAILED", "{query}");
            assert!(e.message.contains(cycle), "{query}: {}", e.message);
            assert!(
                e.locations.first().is_some_and(|p| p.line >= 1 && p.column >= 1),
                "{:?}",
                e.locations
            );
        }
    }

    #[test]
    fn a_legitimate_query_with_fragments_passes() {
        let doc = parse_query(
            "query Q($n: Int) { banks(first: $n) { nodes { ...B } } } fragment B on Bank { id code cartas(first: 10) { nodes { number } } }",
        )
        .expect("parses");
        check_document(&doc, &variables(serde_json::json!({ "n": 50 })), Lang::En).expect("within the limits");
    }
}
