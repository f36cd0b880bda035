//! Access decided on every object (issue 40): the schema itself is walked, from every root field a key can reach,
//! through every field that returns objects, and nothing the key may not see comes back. The walk reads the schema
//! by introspection, so a relation added later is walked without editing this test.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::helpers::{TestApp, client_with, on_each_backend};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};

/// A type of the schema, as introspection describes it.
#[derive(Debug, Default)]
struct TypeDef {
    kind: String,
    fields: Vec<FieldDef>,
    possible: Vec<String>,
}

#[derive(Debug)]
struct FieldDef {
    name: String,
    /// The named type it returns (lists and non-null unwrapped).
    returns: String,
    /// Its arguments: name, whether required, named type.
    args: Vec<(String, bool, String)>,
}

/// The schema's types by name, and the query root's name.
struct Schema {
    types: HashMap<String, TypeDef>,
    query: String,
}

const INTROSPECTION: &str = "{ __schema { queryType { name } types { name kind possibleTypes { name }
    fields { name args { name defaultValue type { ...T } } type { ...T } } } } }
    fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }";

fn named(t: &Value) -> String {
    let mut t = t;
    while t["name"].is_null() && t["ofType"].is_object() {
        t = &t["ofType"];
    }
    t["name"].as_str().unwrap_or("").to_owned()
}

async fn schema(app: &TestApp) -> Schema {
    let data = app.data(INTROSPECTION, json!({})).await;
    let mut types = HashMap::new();
    for t in data["__schema"]["types"].as_array().expect("types") {
        let name = t["name"].as_str().unwrap_or("").to_owned();
        let fields = t["fields"]
            .as_array()
            .map(|fs| {
                fs.iter()
                    .map(|f| FieldDef {
                        name: f["name"].as_str().unwrap_or("").to_owned(),
                        returns: named(&f["type"]),
                        args: f["args"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|a| {
                                let required = a["type"]["kind"] == "NON_NULL" && a["defaultValue"].is_null();
                                (a["name"].as_str().unwrap_or("").to_owned(), required, named(&a["type"]))
                            })
                            .collect(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let possible = t["possibleTypes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["name"].as_str().map(str::to_owned))
            .collect();
        types.insert(
            name,
            TypeDef {
                kind: t["kind"].as_str().unwrap_or("").to_owned(),
                fields,
                possible,
            },
        );
    }
    Schema {
        types,
        query: data["__schema"]["queryType"]["name"]
            .as_str()
            .unwrap_or("Query")
            .to_owned(),
    }
}

/// A selection as a tree: its leaves (scalars) and its children (a field with its own selection, or an inline
/// fragment), so that a selection too costly to ask at once can be split into several requests.
#[derive(Clone, Debug, Default)]
struct Sel {
    leaves: Vec<String>,
    children: Vec<(String, Sel)>,
}

impl Sel {
    fn render(&self) -> String {
        let mut out = String::from("{ __typename");
        for l in &self.leaves {
            out.push(' ');
            out.push_str(l);
        }
        for (head, sel) in &self.children {
            out.push(' ');
            out.push_str(head);
            out.push(' ');
            out.push_str(&sel.render());
        }
        out.push_str(" }");
        out
    }

    /// The same selection in parts that ask for fewer relations each, every part keeping the leaves.
    fn split(&self) -> Vec<Sel> {
        match self.children.len() {
            0 => Vec::new(),
            1 => {
                let (head, only) = &self.children[0];
                only.split()
                    .into_iter()
                    .map(|part| Sel {
                        leaves: self.leaves.clone(),
                        children: vec![(head.clone(), part)],
                    })
                    .collect()
            }
            _ => self
                .children
                .iter()
                .map(|c| Sel {
                    leaves: self.leaves.clone(),
                    children: vec![c.clone()],
                })
                .collect(),
        }
    }
}

/// A page of items, an edge or page information: read through without counting a level.
fn is_wrapper(ty: &str) -> bool {
    ty.ends_with("Connection") || ty.ends_with("Edge") || ty == "PageInfo"
}

/// The type an ID names (`FcoCarta` of `base64("FcoCarta:12")`).
fn kind_of(id: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(id)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|s| s.split(':').next().map(str::to_owned))
        .unwrap_or_default()
}

impl Schema {
    fn is_composite(&self, ty: &str) -> bool {
        self.types
            .get(ty)
            .is_some_and(|t| matches!(t.kind.as_str(), "OBJECT" | "INTERFACE" | "UNION"))
    }

    /// Every field of `ty` that needs no argument, to `depth` levels of relations (a page of 2 where a field pages).
    fn selection(&self, ty: &str, depth: u32) -> Sel {
        let mut sel = Sel::default();
        let Some(t) = self.types.get(ty) else {
            return sel;
        };
        if t.kind != "OBJECT" {
            for p in &t.possible {
                sel.children.push((format!("... on {p}"), self.selection(p, depth)));
            }
            return sel;
        }
        for f in &t.fields {
            if f.name.starts_with("__") || f.args.iter().any(|(_, required, _)| *required) {
                continue;
            }
            if !self.is_composite(&f.returns) {
                sel.leaves.push(f.name.clone());
                continue;
            }
            let head = if f.args.iter().any(|(n, ..)| n == "first") {
                format!("{}(first: 2)", f.name)
            } else {
                f.name.clone()
            };
            // A page and its edges are wrappers, not a level of relations.
            if is_wrapper(&f.returns) {
                sel.children.push((head, self.selection(&f.returns, depth)));
            } else if depth > 0 {
                sel.children.push((head, self.selection(&f.returns, depth - 1)));
            }
        }
        sel
    }
}

/// What a key may not receive: objects by ID, texts (documents, names), whole types, and banks whose reporting record
/// is not its own.
#[derive(Default)]
struct Forbidden {
    ids: HashSet<String>,
    texts: HashSet<String>,
    types: HashSet<&'static str>,
    /// Bank codes whose `deadlines` the key may not see.
    banks: HashSet<String>,
}

/// Where the walk found something it may not.
fn check(v: &Value, path: &str, no: &Forbidden, found: &mut Vec<String>, objects: &mut usize) {
    match v {
        Value::Object(map) => {
            *objects += 1;
            if let Some(t) = map.get("__typename").and_then(Value::as_str)
                && no.types.contains(t)
            {
                found.push(format!("{path}: a {t}"));
            }
            if let Some(id) = map.get("id").and_then(Value::as_str)
                && no.ids.contains(id)
            {
                found.push(format!("{path}: object {id}"));
            }
            if map.get("__typename").and_then(Value::as_str) == Some("Bank")
                && let Some(code) = map.get("code").and_then(Value::as_str)
                && no.banks.contains(code)
                && map
                    .get("deadlines")
                    .and_then(Value::as_array)
                    .is_some_and(|d| !d.is_empty())
            {
                found.push(format!("{path}: bank {code}'s deadlines"));
            }
            for (k, v) in map {
                check(v, &format!("{path}.{k}"), no, found, objects);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                check(v, &format!("{path}[{i}]"), no, found, objects);
            }
        }
        Value::String(s) => {
            for t in &no.texts {
                if s.contains(t.as_str()) {
                    found.push(format!("{path}: {t:?} in {s:?}"));
                }
            }
        }
        _ => {}
    }
}

/// The arguments a root field needs, from what the walk knows: every ID, document, bank code, municipality, name.
#[derive(Default)]
struct Known {
    ids: Vec<String>,
    documents: Vec<String>,
    codes: Vec<String>,
    municipalities: Vec<i64>,
    names: Vec<String>,
}

impl Known {
    fn values(&self, arg: &str, ty: &str) -> Option<Vec<String>> {
        let quoted = |v: &[String]| v.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>();
        Some(match (arg, ty) {
            (_, "ID") => quoted(&self.ids),
            ("document", _) => quoted(&self.documents),
            ("code", _) => quoted(&self.codes),
            ("search", _) => quoted(&self.names),
            ("filter", "PartyFilter") => self.names.iter().map(|n| format!("{{ name: {n:?} }}")).collect(),
            (_, "Int") => self.municipalities.iter().map(i64::to_string).collect(),
            _ => return None,
        })
    }
}

/// Walks every root field as `key`: each root with its arguments from `known`, each to three levels of relations
/// (split into several requests where one would cost too much). Returns what was found that should not have been,
/// and how many objects were read.
async fn walk(app: &TestApp, key: &str, known: &Known, no: &Forbidden) -> (Vec<String>, usize, Vec<String>) {
    let schema = schema(app).await;
    let client = client_with(key);
    let mut found = Vec::new();
    let mut objects = 0;
    let mut unwalked = Vec::new();
    let root = &schema.types[&schema.query];
    for f in &root.fields {
        if !schema.is_composite(&f.returns) {
            continue;
        }
        // The root's calls: its required arguments from what is known (every value, one alias each).
        let required: Vec<&(String, bool, String)> = f.args.iter().filter(|(_, r, _)| *r).collect();
        let calls: Vec<String> = match required.as_slice() {
            [] if f.args.iter().any(|(n, ..)| n == "first") => vec![format!("{}(first: 5)", f.name)],
            [] => vec![f.name.clone()],
            [(arg, _, ty)] => match known.values(arg, ty) {
                // An ID of the kind the field returns (any kind for `node`).
                Some(vs) => vs
                    .into_iter()
                    .filter(|v| {
                        ty != "ID"
                            || schema.types[&f.returns].kind != "OBJECT"
                            || kind_of(v.trim_matches('"')) == f.returns
                    })
                    .map(|v| format!("{}({arg}: {v})", f.name))
                    .collect(),
                None => {
                    unwalked.push(f.name.clone());
                    continue;
                }
            },
            _ => {
                unwalked.push(f.name.clone());
                continue;
            }
        };
        let selection = schema.selection(&f.returns, 3);
        for call in calls {
            let mut pending = vec![selection.clone()];
            while let Some(sel) = pending.pop() {
                let query = format!("{{ {call} {} }}", sel.render());
                let body: Value = client
                    .post(format!("{}/graphql", app.base))
                    .json(&json!({ "query": query }))
                    .send()
                    .await
                    .expect("answer")
                    .json()
                    .await
                    .expect("JSON");
                let codes: Vec<&str> = body["errors"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|e| e["extensions"]["code"].as_str())
                    .collect();
                if codes.contains(&"QUERY_TOO_COSTLY") {
                    let parts = sel.split();
                    assert!(!parts.is_empty(), "{call}: a selection of leaves only costs too much");
                    pending.extend(parts);
                    continue;
                }
                check(&body["data"], &call, no, &mut found, &mut objects);
                // The messages of errors are read too (a message quoting what the key may not see is a leak), but
                // for the arguments the key sent itself.
                let mut quoted = Vec::new();
                check(&body["errors"], &call, no, &mut quoted, &mut 0);
                found.extend(quoted.into_iter().filter(|q| {
                    !no.texts
                        .iter()
                        .any(|t| call.contains(t.as_str()) && q.contains(t.as_str()))
                }));
            }
        }
    }
    (found, objects, unwalked)
}

/// Every financing as the administrator sees it: `(id, bank code, party id, document, name, document kind)`.
async fn financings(app: &TestApp) -> Vec<(String, String, String, String, String, String)> {
    let mut out = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let data = app
            .data(
                "query($after: String) { financings(first: 100, after: $after) {
                    pageInfo { hasNextPage endCursor }
                    nodes { id bank { code } party { id document name documentKind } } } }",
                json!({ "after": after }),
            )
            .await;
        let conn = &data["financings"];
        for n in conn["nodes"].as_array().expect("nodes") {
            let s = |v: &Value| v.as_str().unwrap_or("").to_owned();
            out.push((
                s(&n["id"]),
                s(&n["bank"]["code"]),
                s(&n["party"]["id"]),
                s(&n["party"]["document"]),
                s(&n["party"]["name"]),
                s(&n["party"]["documentKind"]),
            ));
        }
        if conn["pageInfo"]["hasNextPage"] != true {
            return out;
        }
        after = conn["pageInfo"]["endCursor"].as_str().map(str::to_owned);
    }
}

/// The global IDs of a keyset list, as the administrator reads it.
async fn ids_of(app: &TestApp, field: &str, extra: &str) -> Vec<Value> {
    let data = app
        .data(
            &format!("{{ {field}(first: 100) {{ nodes {{ id {extra} }} }} }}"),
            json!({}),
        )
        .await;
    data[field]["nodes"].as_array().cloned().unwrap_or_default()
}

/// The demo with a report of Banco do Brasil (with a row whose CPF is wrong) ingested, and the deadline flags raised.
async fn populated(app: &TestApp) {
    use crate::reports::{C, good_row, upload, workbook};
    let mut bad = good_row("WALK-2", "123.456.789-00".into(), 12_000.0);
    bad[1] = C::T("Maria Oculta da Silva");
    let rows = vec![good_row("WALK-1", crate::reports::cpf(9001), 10_000.0), bad];
    let (status, body) = upload(app, "BB", "2019-05", "walk.xlsx", workbook(&rows)).await;
    assert_eq!(status, 201, "{body}");
    jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now())
        .await
        .expect("ingest");
    let spec = jobs::registry::find("flag-deadlines").expect("registered");
    fomento_api::runtime::run_job_as_of(&app.runtime, spec, "test:walk", None)
        .await
        .expect("the job runs");
}

#[tokio::test]
async fn a_bank_key_walking_every_relation_of_the_schema_reaches_nothing_of_another_bank() {
    on_each_backend(true, |app| async move {
        populated(&app).await;
        let own = "SICREDI";
        let all = financings(&app).await;
        let mine: HashSet<&str> = all.iter().filter(|f| f.1 == own).map(|f| f.2.as_str()).collect();
        assert!(
            !mine.is_empty() && all.iter().any(|f| f.1 != own),
            "the demo has cartas of several banks"
        );
        let mut no = Forbidden {
            types: HashSet::from(["FactImport", "JobRun", "AuditLine"]),
            ..Forbidden::default()
        };
        let mut known = Known::default();
        let own_names: HashSet<&str> = all.iter().filter(|f| f.1 == own).map(|f| f.4.as_str()).collect();
        for (id, bank, party, document, name, kind) in &all {
            known.ids.push(id.clone());
            if bank != own {
                no.ids.insert(id.clone());
            }
            if !mine.contains(party.as_str()) {
                no.ids.insert(party.clone());
                no.texts.insert(document.clone());
                if kind == "CPF" && !own_names.contains(name.as_str()) {
                    no.texts.insert(name.clone());
                }
            }
        }
        known.documents = all
            .iter()
            .map(|f| f.3.clone())
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        known.names = ["Silva".to_owned(), "Agro".to_owned()].to_vec();
        for b in ids_of(&app, "banks", "code").await {
            let code = b["code"].as_str().unwrap_or("").to_owned();
            if code != own {
                no.banks.insert(code.clone());
            }
            known.codes.push(code);
            known.ids.push(b["id"].as_str().unwrap_or("").to_owned());
        }
        for r in ids_of(&app, "bankReports", "bank { code }").await {
            let id = r["id"].as_str().unwrap_or("").to_owned();
            if r["bank"]["code"] != own {
                no.ids.insert(id.clone());
            }
            known.ids.push(id);
        }
        // Flags on another bank's financing or report, or on another bank.
        let flags = ids_of(
            &app,
            "complianceFlags",
            "subject { __typename ... on FcoCarta { id } ... on SocialFuelProject { id } ... on BankReport { id }
             ... on Bank { code } }",
        )
        .await;
        assert!(!flags.is_empty(), "the walk reads flags");
        for f in flags {
            let id = f["id"].as_str().unwrap_or("").to_owned();
            let s = &f["subject"];
            let foreign =
                s["id"].as_str().is_some_and(|i| no.ids.contains(i)) || s["code"].as_str().is_some_and(|c| c != own);
            if foreign {
                no.ids.insert(id.clone());
            }
            known.ids.push(id);
        }
        let imports = app.data("{ factImports(first: 100) { id } }", json!({})).await;
        for i in imports["factImports"].as_array().into_iter().flatten() {
            known.ids.push(i["id"].as_str().unwrap_or("").to_owned());
        }
        known.municipalities = vec![5107925, 5103403];
        // Chamber meetings, reached from the cartas.
        let meetings = app
            .data(
                "{ fcoCartas(first: 100) { nodes { chamberMeeting { id } } } }",
                json!({}),
            )
            .await;
        for m in meetings["fcoCartas"]["nodes"].as_array().into_iter().flatten() {
            if let Some(id) = m["chamberMeeting"]["id"].as_str() {
                known.ids.push(id.to_owned());
            }
        }
        known.ids.sort();
        known.ids.dedup();
        // Each kind of ID a few times over (every ID would take minutes; the kinds are what differ).
        let mut per_kind: BTreeMap<String, usize> = BTreeMap::new();
        known.ids.retain(|id| {
            let n = per_kind.entry(kind_of(id)).or_default();
            *n += 1;
            *n <= 6 || (no.ids.contains(id) && *n <= 12)
        });
        known.documents.truncate(40);

        let key = app.key_of("bank", Some(own)).await;
        let (found, objects, unwalked) = walk(&app, &key, &known, &no).await;
        assert!(
            found.is_empty(),
            "{} leaks, the first: {:#?}",
            found.len(),
            &found[..found.len().min(20)]
        );
        assert!(objects > 500, "the walk read {objects} objects");
        assert!(unwalked.is_empty(), "root fields left unwalked: {unwalked:?}");
    })
    .await;
}

#[tokio::test]
async fn an_analyst_walking_every_relation_of_the_schema_reads_no_whole_cpf_nor_any_persons_name() {
    on_each_backend(true, |app| async move {
        populated(&app).await;
        let all = financings(&app).await;
        let mut no = Forbidden::default();
        let mut known = Known::default();
        for (id, _, _, document, name, kind) in &all {
            known.ids.push(id.clone());
            if kind == "CPF" {
                no.texts.insert(document.clone());
                no.texts.insert(document.chars().filter(char::is_ascii_digit).collect());
                no.texts.insert(name.clone());
                known.documents.push(document.clone());
            }
        }
        // The person of the report's row with a wrong CPF: neither the name nor the CPF's hidden digits.
        no.texts.insert("Maria Oculta da Silva".into());
        no.texts.insert("123.456.789-00".into());
        no.texts.insert("esperados 09".into());
        assert!(no.texts.len() > 10, "the demo has persons");
        for r in ids_of(&app, "bankReports", "").await {
            known.ids.push(r["id"].as_str().unwrap_or("").to_owned());
        }
        known.ids.truncate(60);
        known.documents.truncate(20);
        known.codes = vec!["BB".into(), "SICREDI".into()];
        known.names = vec!["Silva".into(), "Maria".into()];
        known.municipalities = vec![5107925];
        let key = app.key_of("analyst", None).await;
        let (found, objects, unwalked) = walk(&app, &key, &known, &no).await;
        assert!(
            found.is_empty(),
            "{} leaks, the first: {:#?}",
            found.len(),
            &found[..found.len().min(20)]
        );
        assert!(objects > 500, "the walk read {objects} objects");
        assert!(unwalked.is_empty(), "root fields left unwalked: {unwalked:?}");
    })
    .await;
}

fn code(body: &Value) -> &str {
    body["errors"][0]["extensions"]["code"].as_str().unwrap_or("OK")
}

#[tokio::test]
async fn a_meeting_a_group_and_another_banks_record_show_a_bank_only_what_is_its_own() {
    on_each_backend(true, |app| async move {
        let sicredi = app.key_of("bank", Some("SICREDI")).await;
        // The acceptance report's walk: from its own cartas to their meetings' agendas.
        let body = app.gql_as(&sicredi,
            "{ fcoCartas(first: 100) { nodes { chamberMeeting { agendaSize cartas { number bank { code } party { document } } } } } }",
            json!({}),
        )
        .await;
        assert_eq!(code(&body), "OK", "{body}");
        let meetings: Vec<&Value> = body["data"]["fcoCartas"]["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .map(|n| &n["chamberMeeting"])
            .filter(|m| m.is_object())
            .collect();
        assert!(!meetings.is_empty(), "SICREDI's cartas went to the chamber: {body}");
        let mut others_on_agendas = false;
        for m in meetings {
            let cartas = m["cartas"].as_array().expect("cartas");
            assert!(cartas.iter().all(|c| c["bank"]["code"] == "SICREDI"), "{m}");
            others_on_agendas |= m["agendaSize"].as_u64().unwrap_or(0) > cartas.len() as u64;
        }
        assert!(others_on_agendas, "the meetings also hold other banks' cartas, counted but not shown");
        // An economic group lists the members the bank finances.
        let body = app.gql_as(&sicredi,
            "{ fcoCartas(first: 100) { nodes { party { economicGroup { members { id financings(first: 1) { totalCount } } } } } } }",
            json!({}),
        )
        .await;
        let members: Vec<&Value> = body["data"]["fcoCartas"]["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .flat_map(|n| n["party"]["economicGroup"]["members"].as_array().into_iter().flatten())
            .collect();
        assert!(!members.is_empty(), "{body}");
        assert!(
            members.iter().all(|m| m["financings"]["totalCount"].as_u64() > Some(0)),
            "every member shown is SICREDI's borrower: {body}"
        );
        // Another bank's reporting record, by code and by ID; its own is there.
        let body = app.gql_as(&sicredi,
            "{ bb: bankByCode(code: \"BB\") { deadlines { ruleCode } } own: bankByCode(code: \"SICREDI\") { deadlines { ruleCode } } }",
            json!({}),
        )
        .await;
        assert_eq!(body["data"]["bb"]["deadlines"], json!([]), "{body}");
        assert!(
            body["data"]["own"]["deadlines"].as_array().is_some_and(|d| !d.is_empty()),
            "{body}"
        );
        // The operators' records.
        let body = app.gql_as(&sicredi, "{ jobRuns(first: 5) { totalCount nodes { job } } }", json!({})).await;
        assert_eq!(body["data"]["jobRuns"]["totalCount"], 0, "{body}");
        // A carta filed for somebody else's borrower does not hand over that person's group.
        let other = app
            .data(
                "{ fcoCartas(first: 100) { nodes { bank { id code } party { document name documentKind economicGroup { id } } } } }",
                json!({}),
            )
            .await;
        let grouped = other["fcoCartas"]["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .find(|n| {
                n["bank"]["code"] != "SICREDI"
                    && n["party"]["documentKind"] == "CPF"
                    && n["party"]["economicGroup"].is_object()
            })
            .expect("another bank's borrower, a person in a group")
            .clone();
        let sicredi_id = other["fcoCartas"]["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .find(|n| n["bank"]["code"] == "SICREDI")
            .map(|n| n["bank"]["id"].clone())
            .expect("SICREDI");
        let created = app.gql_as(&sicredi,
            "mutation($input: NewFcoCarta!) { createFcoCarta(input: $input) { bank { code }
                party { name economicGroup { members { document name } } } } }",
            json!({ "input": {
                "number": "WALK-GROUP-1", "bankId": sicredi_id, "borrowerDocument": grouped["party"]["document"],
                "borrowerName": "Nome Enviado Pelo Banco", "line": "RURAL", "activity": "GRAINS", "financedAmount": "1000.00",
                "municipalityCode": 5107925 } }),
        )
        .await;
        assert_eq!(code(&created), "OK", "{created}");
        // The payload shows the name the bank sent, not the one another bank recorded, wherever the person appears.
        let text = created.to_string();
        assert!(!text.contains(grouped["party"]["name"].as_str().unwrap_or("?")), "{created}");
        assert_eq!(created["data"]["createFcoCarta"]["party"]["name"], "Nome Enviado Pelo Banco", "{created}");
        // And so does every later read: the list, the carta's borrower, a look-up by CPF, a search by either name, a
        // filter by the recorded name, and the export.
        let stored = grouped["party"]["name"].as_str().expect("name").to_owned();
        let document = grouped["party"]["document"].clone();
        let later = app.gql_as(&sicredi,
            "query($d: String!, $stored: String!) {
                list: fcoCartas(first: 100, filter: { stages: [DRAFT] }) { nodes { number party { name } } }
                byDocument: party(document: $d) { name }
                sent: parties(search: \"enviado pelo\") { document name }
                recorded: parties(search: $stored) { document }
                filtered: fcoCartas(first: 100, filter: { borrowerName: $stored }) { nodes { number } } }",
            json!({ "d": document, "stored": stored }),
        )
        .await;
        assert_eq!(code(&later), "OK", "{later}");
        assert!(!later.to_string().contains(&stored), "{later}");
        let data = &later["data"];
        let listed = data["list"]["nodes"]
            .as_array()
            .and_then(|n| n.iter().find(|n| n["number"] == "WALK-GROUP-1"))
            .expect("the new carta is listed");
        assert_eq!(listed["party"]["name"], "Nome Enviado Pelo Banco", "{later}");
        assert_eq!(data["byDocument"]["name"], "Nome Enviado Pelo Banco", "{later}");
        assert!(
            data["sent"].as_array().is_some_and(|p| p.iter().any(|p| p["document"] == document)),
            "the bank finds the person by the name it sent: {later}"
        );
        assert!(
            data["recorded"].as_array().is_some_and(|p| p.iter().all(|p| p["document"] != document)),
            "the recorded name matches nothing of the bank's: {later}"
        );
        assert!(
            data["filtered"]["nodes"].as_array().is_some_and(|n| n.iter().all(|n| n["number"] != "WALK-GROUP-1")),
            "{later}"
        );
        let export = client_with(&sicredi)
            .get(format!("{}/exports/cartas.csv", app.base))
            .send()
            .await
            .expect("export");
        let csv = export.text().await.expect("csv");
        assert!(csv.contains("Nome Enviado Pelo Banco"), "{csv}");
        assert!(!csv.contains(&stored), "the export shows the bank's own name for the person");
        let financed: HashSet<String> = financings(&app)
            .await
            .into_iter()
            .filter(|f| f.1 == "SICREDI")
            .map(|f| f.3)
            .collect();
        let members = created["data"]["createFcoCarta"]["party"]["economicGroup"]["members"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(!members.is_empty(), "{created}");
        assert!(
            members.iter().all(|m| m["document"].as_str().is_some_and(|d| financed.contains(d))),
            "only the members SICREDI finances: {created}"
        );
        let all_members = app
            .data(
                "query($id: ID!) { node(id: $id) { ... on EconomicGroup { members { document } } } }",
                json!({ "id": grouped["party"]["economicGroup"]["id"] }),
            )
            .await;
        assert!(
            all_members["node"]["members"].as_array().map_or(0, Vec::len) > members.len(),
            "the group has members of other banks, not shown: {all_members}"
        );
    })
    .await;
}

#[tokio::test]
async fn a_role_that_sees_a_cpf_masked_cannot_look_it_up_filter_or_search_by_it() {
    on_each_backend(true, |app| async move {
        populated(&app).await;
        let all = financings(&app).await;
        let fco_person = all
            .iter()
            .find(|f| f.5 == "CPF" && f.0.starts_with("RmNv"))
            .expect("an FCO borrower who is a person")
            .clone();
        let (document, name) = (fco_person.3.clone(), fco_person.4.clone());
        let analyst = app.key_of("analyst", None).await;
        // By CPF: refused, with a code and the field named, for one alias or a thousand.
        let body = app
            .gql_as(
                &analyst,
                "query($d: String!) { party(document: $d) { document } }",
                json!({ "d": document }),
            )
            .await;
        assert_eq!(code(&body), "FORBIDDEN", "{body}");
        assert!(
            body["errors"][0]["message"].as_str().is_some_and(|m| m.contains("CPF")),
            "{body}"
        );
        let digits: String = document.chars().filter(char::is_ascii_digit).collect();
        let aliases: String = (0..50)
            .map(|i| {
                let candidate = format!("{:03}{}", (i * 7) % 1000, &digits[3..]);
                format!("a{i}: party(document: \"{candidate}\") {{ document }} ")
            })
            .collect();
        let body = app.gql_as(&analyst, &format!("{{ {aliases} }}"), json!({})).await;
        let answered = body["data"]
            .as_object()
            .map(|m| m.values().filter(|v| !v.is_null()).count())
            .unwrap_or(0);
        assert_eq!(answered, 0, "no alias answers: {body}");
        // Filters by CPF are refused; by a person's name they match nothing; a search finds no person.
        let body = app
            .gql_as(
                &analyst,
                "query($d: String) { financings(filter: {document: $d}) { totalCount } }",
                json!({ "d": document }),
            )
            .await;
        assert_eq!(code(&body), "FORBIDDEN", "{body}");
        let by_name = "query($n: String) { financings(filter: {borrowerName: $n}) { totalCount } }";
        let admin = app.data(by_name, json!({ "n": name })).await;
        assert!(admin["financings"]["totalCount"].as_u64() > Some(0), "{admin}");
        let body = app.gql_as(&analyst, by_name, json!({ "n": name })).await;
        assert_eq!(body["data"]["financings"]["totalCount"], 0, "{body}");
        let search = "query($n: String!) { parties(search: $n) { documentKind } }";
        let body = app.gql_as(&analyst, search, json!({ "n": name })).await;
        assert!(
            body["data"]["parties"]
                .as_array()
                .is_some_and(|ps| ps.iter().all(|p| p["documentKind"] == "CNPJ")),
            "{body}"
        );
        // MDA sees FCO's persons masked: such a person answers as an unknown CPF does; the chamber finds them.
        let mda = app.key_of("mda", None).await;
        let lookup = "query($d: String!) { party(document: $d) { document } }";
        let known = app.gql_as(&mda, lookup, json!({ "d": document })).await;
        let unknown = app
            .gql_as(&mda, lookup, json!({ "d": crate::reports::cpf(4242) }))
            .await;
        assert_eq!(
            (code(&known), code(&unknown)),
            ("NOT_FOUND", "NOT_FOUND"),
            "{known} {unknown}"
        );
        let council = app.key_of("council", None).await;
        let found = app.gql_as(&council, lookup, json!({ "d": document })).await;
        assert_eq!(found["data"]["party"]["document"], json!(document), "{found}");
        // A row error's message does not give away the check digits next to a masked CPF.
        let reports = app.data("{ bankReports(first: 5) { nodes { id } } }", json!({})).await;
        let id = reports["bankReports"]["nodes"][0]["id"].clone();
        let errors = "query($id: ID!) { bankReport(id: $id) { errors { message value } } }";
        let whole = app.data(errors, json!({ "id": id })).await.to_string();
        assert!(
            whole.contains("esperados 09"),
            "the administrator reads the digits: {whole}"
        );
        let masked = app.gql_as(&analyst, errors, json!({ "id": id })).await.to_string();
        assert!(
            !masked.contains("esperados 09") && masked.contains("esperados **"),
            "{masked}"
        );
        assert!(
            !masked.contains("123.456.789-00") && !masked.contains("Maria Oculta"),
            "{masked}"
        );
    })
    .await;
}
