//! The unified graph over the demo data: both programmes in one list, parties across branches, filters, pages,
//! nodes, DataLoaders, and clear errors for bad input.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

use crate::helpers::{TestApp, on_each_backend};
use serde_json::{Value, json};
use std::collections::HashSet;

#[tokio::test]
async fn financings_list_both_programmes_with_bank_and_amount() {
    on_each_backend(true, |app| async move {
        let data = app
            .data(
                "{ financings(first: 50, orderBy: { field: SUBMITTED_ON, direction: ASC }) { totalCount edges { node { __typename amount bank { name } } } } }",
                json!({}),
            )
            .await;
        let edges = data["financings"]["edges"].as_array().expect("edges");
        assert_eq!(edges.len(), 50);
        assert_eq!(data["financings"]["totalCount"], 340, "40 projects and 300 cartas");
        // The demo's projects were filed from 2018 to May 2021 (IN MDA nº 2/2005 was then revoked), its cartas from
        // 2024: the 50 oldest hold both.
        let kinds: HashSet<&str> = edges.iter().filter_map(|e| e["node"]["__typename"].as_str()).collect();
        assert_eq!(
            kinds,
            HashSet::from(["SocialFuelProject", "FcoCarta"]),
            "both kinds on one page"
        );
        for e in edges {
            assert!(e["node"]["bank"]["name"].as_str().is_some_and(|n| !n.is_empty()));
            let amount = e["node"]["amount"].as_str().expect("amount is a decimal string");
            assert!(
                amount.split_once('.').is_some_and(|(_, c)| c.len() == 2),
                "money has centavos: {amount}"
            );
        }
    })
    .await;
}

const PARTY: &str = "query P($d: String!) { party(document: $d) { name document cnpjRoot branches { document }
  financings(first: 100) { totalCount nodes { __typename party { document } } } } }";

#[tokio::test]
async fn a_company_shows_its_financings_of_both_programmes_across_branches() {
    on_each_backend(true, |app| async move {
        for doc in ["11.222.333/0001-81", "11222333000181", " 11 222 333 0001 81 "] {
            let data = app.data(PARTY, json!({ "d": doc })).await;
            let party = &data["party"];
            assert_eq!(party["document"], "11.222.333/0001-81", "{doc:?}");
            assert_eq!(party["cnpjRoot"], "11222333");
            let nodes = party["financings"]["nodes"].as_array().expect("nodes");
            let kinds: HashSet<&str> = nodes.iter().filter_map(|n| n["__typename"].as_str()).collect();
            assert_eq!(kinds, HashSet::from(["SocialFuelProject", "FcoCarta"]), "{doc:?}");
            let holders: HashSet<&str> = nodes.iter().filter_map(|n| n["party"]["document"].as_str()).collect();
            assert!(
                holders.contains(cnpj("112223330002").as_str()),
                "the Sorriso branch's cartas count too: {holders:?}"
            );
            assert_eq!(party["financings"]["totalCount"].as_u64(), Some(nodes.len() as u64));
        }
        // The branch itself finds the same company-wide list.
        let branch = app.data(PARTY, json!({ "d": cnpj("112223330002") })).await;
        assert_eq!(branch["party"]["branches"][0]["document"], "11.222.333/0001-81");
        // A branch that is not registered still finds the company by its root.
        let unknown_branch = app.data(PARTY, json!({ "d": cnpj("112223330099") })).await;
        assert_eq!(unknown_branch["party"]["cnpjRoot"], "11222333");
        // The alphanumeric CNPJ of the demo, in lower case.
        let alpha = app
            .data(PARTY, json!({ "d": cnpj("12ABC3450001").to_lowercase() }))
            .await;
        assert_eq!(alpha["party"]["cnpjRoot"], "12ABC345");
    })
    .await;
}

/// A valid punctuated CNPJ from its first 12 characters.
fn cnpj(first12: &str) -> String {
    entity::domain::document::cnpj_with_check_digits(first12)
        .expect("valid")
        .to_string()
}

#[tokio::test]
async fn bad_documents_unknown_parties_and_bad_ids_get_coded_errors() {
    on_each_backend(true, |app| async move {
        let cases = [
            (
                PARTY,
                json!({ "d": "11.222.333/0001-82" }),
                "BAD_USER_INPUT",
                "check digits do not match",
                "dígitos verificadores não conferem",
            ),
            (
                PARTY,
                json!({ "d": "123" }),
                "BAD_USER_INPUT",
                "this one has 3",
                "este tem 3",
            ),
            (
                PARTY,
                json!({ "d": "529.982.247-25" }),
                "NOT_FOUND",
                "no party with document 529.982.247-25",
                "nenhuma parte com o documento 529.982.247-25",
            ),
            (
                "{ node(id: \"garbage\") { id } }",
                json!({}),
                "BAD_USER_INPUT",
                "is not an ID",
                "não é um ID válido",
            ),
            (
                "{ bank(id: \"QmFuazo5OTk5\") { name } }",
                json!({}),
                "NOT_FOUND",
                "no bank with ID",
                "não há banco com o ID",
            ),
            (
                "{ financings(first: 101) { totalCount } }",
                json!({}),
                "BAD_USER_INPUT",
                "`first` may be at most 100",
                "`first` pode ser no máximo 100",
            ),
            (
                "{ financings(last: -1) { totalCount } }",
                json!({}),
                "BAD_USER_INPUT",
                "`last` must not be negative",
                "`last` não pode ser negativo",
            ),
            (
                "{ financings(after: \"zzz\") { totalCount } }",
                json!({}),
                "BAD_USER_INPUT",
                "`after` is not a cursor",
                "`after` não é um cursor",
            ),
            (
                "{ financings(filter: { bankIds: [\"x\"] }) { totalCount } }",
                json!({}),
                "BAD_USER_INPUT",
                "filter.bankIds",
                "filter.bankIds",
            ),
            (
                "{ financings(filter: { municipalityCodes: [123] }) { totalCount } }",
                json!({}),
                "BAD_USER_INPUT",
                "filter.municipalityCodes: 123",
                "filter.municipalityCodes: 123",
            ),
            (
                "{ financings(filter: { amountMin: \"10.005\" }) { totalCount } }",
                json!({}),
                "BAD_USER_INPUT",
                "filter.amountMin: 10.005 has more than 2 decimal places",
                "filter.amountMin: 10.005 tem mais de 2 casas decimais",
            ),
            (
                "{ financings(filter: { document: \"abc\" }) { totalCount } }",
                json!({}),
                "BAD_USER_INPUT",
                "filter.document",
                "filter.document",
            ),
            (
                "{ municipality(ibgeCode: 9999999) { name } }",
                json!({}),
                "NOT_FOUND",
                "no municipality with IBGE code 9999999",
                "nenhum município tem o código IBGE 9999999",
            ),
        ];
        // Without `Accept-Language` the messages are Portuguese, the language of Fomento's users; the code is the same.
        let (message, got) = app
            .error_in(
                None,
                "query P($d: String!) { party(document: $d) { name } }",
                json!({ "d": "11.222.333/0001-82" }),
            )
            .await;
        assert_eq!(got, "BAD_USER_INPUT");
        assert!(message.contains("dígitos verificadores não conferem"), "{message}");
        // English on request, Portuguese by default: the same code, each text in its language.
        for (query, vars, code, english, portuguese) in cases {
            for (lang, fragment) in [(Some("en"), english), (None, portuguese)] {
                let (message, got) = app.error_in(lang, query, vars.clone()).await;
                assert_eq!(got, code, "{query} {vars}: {message}");
                assert!(
                    message.contains(fragment),
                    "{query} {vars} in {lang:?}: {message:?} should contain {fragment:?}"
                );
            }
        }
        // A well-formed ID of a deleted or never-existing object.
        let (status, body) = app
            .gql(
                "query N($id: ID!) { node(id: $id) { id } }",
                json!({ "id": bank_id(999) }),
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(body["data"]["node"], Value::Null);
        assert_eq!(body["errors"][0]["extensions"]["code"], "NOT_FOUND");
    })
    .await;
}

fn bank_id(n: i64) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("Bank:{n}"))
}

async fn walk(app: &TestApp, filter: Value, page: u64) -> (u64, Vec<String>) {
    let q = "query W($f: FinancingFilter, $n: Int, $a: String) { financings(filter: $f, first: $n, after: $a,
      orderBy: { field: AMOUNT, direction: ASC }) { totalCount pageInfo { hasNextPage endCursor } nodes { id amount } } }";
    let mut after = Value::Null;
    let mut ids = Vec::new();
    let mut total;
    let mut last_amount = rust_decimal::Decimal::MIN;
    loop {
        let data = app.data(q, json!({ "f": filter, "n": page, "a": after })).await;
        let conn = &data["financings"];
        total = conn["totalCount"].as_u64().expect("count");
        for n in conn["nodes"].as_array().expect("nodes") {
            let amount: rust_decimal::Decimal = n["amount"].as_str().and_then(|a| a.parse().ok()).expect("amount");
            assert!(amount >= last_amount, "ordered by amount ascending");
            last_amount = amount;
            ids.push(n["id"].as_str().expect("id").to_owned());
        }
        if !conn["pageInfo"]["hasNextPage"].as_bool().expect("bool") {
            break;
        }
        after = conn["pageInfo"]["endCursor"].clone();
    }
    (total, ids)
}

#[tokio::test]
async fn paging_forward_visits_every_financing_once_and_backward_pages_match() {
    on_each_backend(true, |app| async move {
        let (total, ids) = walk(&app, json!(null), 37).await;
        assert_eq!(total, 340);
        assert_eq!(ids.len(), 340);
        assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 340, "no item twice");

        // The last 20 through `last`, and the 20 before them through `before`.
        let q = "query B($b: String) { financings(last: 20, before: $b, orderBy: { field: AMOUNT, direction: ASC }) {
          pageInfo { hasPreviousPage hasNextPage startCursor } nodes { id } } }";
        let tail = app.data(q, json!({ "b": null })).await;
        let tail_ids: Vec<&str> = tail["financings"]["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .filter_map(|n| n["id"].as_str())
            .collect();
        assert_eq!(tail_ids, ids[320..].iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(tail["financings"]["pageInfo"]["hasNextPage"], false);
        assert_eq!(tail["financings"]["pageInfo"]["hasPreviousPage"], true);
        let before = app
            .data(q, json!({ "b": tail["financings"]["pageInfo"]["startCursor"] }))
            .await;
        let before_ids: Vec<&str> = before["financings"]["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .filter_map(|n| n["id"].as_str())
            .collect();
        assert_eq!(before_ids, ids[300..320].iter().map(String::as_str).collect::<Vec<_>>());

        // Without first or last the page holds 20.
        let d = app.data("{ financings { nodes { id } } }", json!({})).await;
        assert_eq!(d["financings"]["nodes"].as_array().map(Vec::len), Some(20));
    })
    .await;
}

#[tokio::test]
async fn filters_narrow_the_list_to_matching_financings() {
    on_each_backend(true, |app| async move {
        let q = "query F($f: FinancingFilter) { financings(filter: $f, first: 100) { totalCount nodes {
            __typename amount status submittedOn municipality { uf region } bank { code } } } }";
        let all = app.data(q, json!({ "f": null })).await["financings"]["totalCount"]
            .as_u64()
            .expect("count");
        type Check = fn(&Value) -> bool;
        let cases: [(Value, Check, &str); 8] = [
            (
                json!({ "programmes": ["SOCIAL_FUEL"] }),
                |n| n["__typename"] == "SocialFuelProject",
                "programme",
            ),
            (json!({ "ufs": ["MT"] }), |n| n["municipality"]["uf"] == "MT", "UF"),
            (
                json!({ "regions": ["NORTHEAST"] }),
                |n| n["municipality"]["region"] == "NORTHEAST",
                "region",
            ),
            (
                json!({ "statuses": ["ACTIVE", "ENDED"] }),
                |n| n["status"] == "ACTIVE" || n["status"] == "ENDED",
                "status",
            ),
            (
                json!({ "amountMin": "1000000.00" }),
                |n| {
                    n["amount"]
                        .as_str()
                        .and_then(|a| a.parse::<rust_decimal::Decimal>().ok())
                        .is_some_and(|a| a >= rust_decimal::Decimal::from(1_000_000))
                },
                "amount",
            ),
            (
                json!({ "submittedFrom": "2026-01-01", "submittedTo": "2026-06-30" }),
                |n| {
                    n["submittedOn"]
                        .as_str()
                        .is_some_and(|d| ("2026-01-01"..="2026-06-30").contains(&d))
                },
                "dates",
            ),
            (
                json!({ "municipalityCodes": [5106505] }),
                |n| n["municipality"]["uf"] == "MT",
                "municipality",
            ),
            (
                json!({ "document": cnpj("223334440001") }),
                |n| n["bank"]["code"].is_string(),
                "document",
            ),
        ];
        for (filter, check, why) in cases {
            let data = app.data(q, json!({ "f": filter })).await;
            let conn = &data["financings"];
            let count = conn["totalCount"].as_u64().expect("count");
            assert!(count > 0 && count < all, "{why}: {count} of {all}");
            for n in conn["nodes"].as_array().expect("nodes") {
                assert!(check(n), "{why}: {n}");
            }
        }
        let (message, code) = app
            .error(
                q,
                json!({ "f": { "submittedFrom": "2026-02-01", "submittedTo": "2026-01-01" } }),
            )
            .await;
        assert_eq!(
            (code.as_str(), message.as_str()),
            ("BAD_USER_INPUT", "filter.submittedFrom: is after filter.submittedTo")
        );
    })
    .await;
}

#[tokio::test]
async fn typed_queries_filter_by_stage_and_nodes_come_back_by_id() {
    on_each_backend(true, |app| async move {
        let sf = app
            .data("{ socialFuelProjects(first: 100, filter: { stages: [FILED, OPERATING] }) { totalCount nodes { id stage title acquisitions { supplierKind cost } documents { kind } } } }", json!({}))
            .await;
        assert_eq!(sf["socialFuelProjects"]["totalCount"], 8, "four projects in each of two stages");
        for n in sf["socialFuelProjects"]["nodes"].as_array().expect("nodes") {
            assert!(n["stage"] == "FILED" || n["stage"] == "OPERATING", "{n}");
            assert!(n["acquisitions"].as_array().is_some_and(|a| a.len() >= 3));
            assert_eq!(n["documents"].as_array().map(Vec::len), Some(6), "filed projects carry the six documents");
        }
        let fco = app
            .data("{ fcoCartas(first: 5, filter: { stages: [CONTRACTED] }) { totalCount nodes { id number stage contractedOn items { kind investmentClass value } } } }", json!({}))
            .await;
        assert_eq!(
            fco["fcoCartas"]["totalCount"], 49,
            "fifty planned; the chamber refused one over its borrower's ceiling (FCO-CEILING)"
        );
        let carta = &fco["fcoCartas"]["nodes"][0];
        assert_eq!(carta["stage"], "CONTRACTED");
        assert!(carta["contractedOn"].is_string());
        assert!(carta["items"].as_array().is_some_and(|i| !i.is_empty()));

        // Every kind of node comes back through node(id:).
        let ids = app
            .data("{ banks(first: 1) { nodes { id } } financings(first: 1) { nodes { id party { id economicGroup { id } } municipality { id } } } }", json!({}))
            .await;
        let node_ids = [
            ids["banks"]["nodes"][0]["id"].clone(),
            ids["financings"]["nodes"][0]["id"].clone(),
            ids["financings"]["nodes"][0]["party"]["id"].clone(),
            ids["financings"]["nodes"][0]["municipality"]["id"].clone(),
            sf["socialFuelProjects"]["nodes"][0]["id"].clone(),
            carta["id"].clone(),
        ];
        for id in node_ids {
            let data = app.data("query N($id: ID!) { node(id: $id) { __typename id } }", json!({ "id": id })).await;
            assert_eq!(data["node"]["id"], id);
        }
    })
    .await;
}

/// The nested query over a page of financings runs a fixed number of statements whatever the page size.
#[tokio::test]
async fn nested_financing_queries_run_a_fixed_number_of_statements() {
    on_each_backend(true, |app| async move {
        // From 2021, oldest first: the demo's six projects filed in 2021, then cartas, so every page holds both kinds.
        let q = "query N($n: Int) { financings(first: $n, filter: { submittedFrom: \"2021-01-01\" }, orderBy: { field: SUBMITTED_ON, direction: ASC })
            { totalCount edges { node { __typename amount bank { name } party { name document } municipality { name uf } } } } }";
        let mut counts = Vec::new();
        for n in [10, 50, 100] {
            // The fewest of up to thirty runs (ending early once a larger page takes no more statements than the
            // first): a DataLoader sends what it gathered after 5 ms, so on a machine busy enough to pause the
            // resolving thread that long (the rest of the suite runs beside this test), one run can split a batch in
            // two; a query per item would show in every run, and the count would never come down to the first's.
            let mut fewest = u64::MAX;
            for _ in 0..30 {
                let before = app.statements.get();
                let data = app.data(q, json!({ "n": n })).await;
                assert_eq!(data["financings"]["edges"].as_array().map(Vec::len), Some(n as usize));
                fewest = fewest.min(app.statements.get() - before);
                if counts.first().is_some_and(|first| fewest <= *first) {
                    break;
                }
            }
            counts.push(fewest);
        }
        eprintln!("statements for 10, 50, 100 financings on {:?}: {counts:?}", app.backend);
        assert_eq!(counts[0], counts[1], "does not grow with the page: {counts:?}");
        assert_eq!(counts[1], counts[2], "does not grow with the page: {counts:?}");
        assert_eq!(
            counts[1], 7,
            "count, page, projects, cartas, banks, parties, municipalities: {counts:?}"
        );
    })
    .await;
}

/// A typed list reads its own table in one statement, its `totalCount` in the same statement, from either end (a
/// second statement counts past the last row, where no row carries the count); the bank, borrower and municipality
/// a query selects are joined into that statement. What comes back is what the list over
/// both programmes (through its lookups) returns for the same cartas and projects.
#[tokio::test]
async fn typed_lists_run_one_statement_and_join_the_selected_relations() {
    on_each_backend(true, |app| async move {
        let statements = async |q: &str| {
            // The fewest of three runs, as above (other work of the server could add a statement to one run).
            let (mut fewest, mut data) = (u64::MAX, Value::Null);
            for _ in 0..3 {
                let before = app.statements.get();
                data = app.data(q, json!({})).await;
                fewest = fewest.min(app.statements.get() - before);
            }
            (fewest, data)
        };
        let nested = "bank { name code } party { name document } municipality { name uf }";
        let shapes = [
            ("fcoCartas(first: 20) { edges { node { amount } } }".to_owned(), 1),
            ("fcoCartas(first: 20) { totalCount edges { node { amount } } }".to_owned(), 1),
            (format!("fcoCartas(first: 50) {{ edges {{ node {{ amount {nested} }} }} }}"), 1),
            (format!("fcoCartas(first: 50) {{ totalCount edges {{ node {{ amount {nested} }} }} }}"), 1),
            (format!("fcoCartas(first: 50) {{ totalCount nodes {{ number {nested} }} }}"), 1),
            (format!("socialFuelProjects(first: 20) {{ nodes {{ title {nested} }} }}"), 1),
            (format!("socialFuelProjects(first: 20) {{ totalCount nodes {{ title {nested} }} }}"), 1),
            // Nothing matches: the empty first window's total is 0, without a count.
            ("fcoCartas(first: 20, filter: { amountMin: \"999999999999\" }) { totalCount nodes { id } }".to_owned(), 1),
            // From the end: the rows read backwards carry the count too.
            ("fcoCartas(last: 5) { totalCount nodes { id } }".to_owned(), 1),
        ];
        for (shape, expected) in &shapes {
            let (n, data) = statements(&format!("{{ {shape} }}")).await;
            eprintln!("{n} statements on {:?}: {shape}", app.backend);
            assert_eq!(n, *expected, "{shape}: {data}");
        }
        // The joined relations are those the lookups find, item by item, in the same order.
        for (typed, programme, fields) in [
            ("fcoCartas", "FCO_RURAL", "... on FcoCarta { number }"),
            ("socialFuelProjects", "SOCIAL_FUEL", "... on SocialFuelProject { title }"),
        ] {
            let (_, joined) = statements(&format!(
                "{{ {typed}(first: 100) {{ totalCount nodes {{ id amount {nested} }} }} }}"
            ))
            .await;
            let (_, looked_up) = statements(&format!(
                "{{ financings(first: 100, filter: {{ programmes: [{programme}] }}) {{ totalCount nodes {{ id amount {fields} {nested} }} }} }}"
            ))
            .await;
            let (a, b) = (&joined[typed], &looked_up["financings"]);
            assert_eq!(a["totalCount"], b["totalCount"], "{typed}");
            let nodes = a["nodes"].as_array().expect("nodes");
            assert!(!nodes.is_empty(), "{typed}");
            for (x, y) in nodes.iter().zip(b["nodes"].as_array().expect("nodes")) {
                for f in ["id", "amount", "bank", "party", "municipality"] {
                    assert_eq!(x[f], y[f], "{typed} {f}");
                }
            }
        }
        // Without `totalCount`, `hasNextPage` still tells the last page: paging through every carta finds the count.
        let (_, total) = statements("{ fcoCartas { totalCount } }").await;
        let total = total["fcoCartas"]["totalCount"].as_u64().expect("count");
        let (_, empty) = statements("{ fcoCartas(first: 20, filter: { amountMin: \"999999999999\" }) { totalCount } }").await;
        assert_eq!(empty["fcoCartas"]["totalCount"], 0);
        // Past the last row the total is counted apart, and is the whole list's.
        let (_, last) = statements("{ fcoCartas(last: 1) { edges { cursor } } }").await;
        let end = last["fcoCartas"]["edges"][0]["cursor"].clone();
        let past = app
            .data(
                "query P($after: String) { fcoCartas(first: 5, after: $after) { totalCount pageInfo { hasNextPage hasPreviousPage } nodes { id } } }",
                json!({ "after": end }),
            )
            .await;
        assert_eq!(past["fcoCartas"]["totalCount"], total, "{past}");
        assert_eq!(past["fcoCartas"]["nodes"], json!([]));
        assert_eq!(past["fcoCartas"]["pageInfo"]["hasNextPage"], false);
        assert_eq!(past["fcoCartas"]["pageInfo"]["hasPreviousPage"], true);
        let (mut after, mut seen, mut pages) = (Value::Null, 0u64, 0);
        loop {
            let data = app
                .data(
                    "query P($after: String, $counted: Boolean!) { fcoCartas(first: 30, after: $after) { totalCount @include(if: $counted) pageInfo { hasNextPage hasPreviousPage endCursor } nodes { id } } }",
                    json!({ "after": after, "counted": pages % 2 == 1 }),
                )
                .await;
            let page = &data["fcoCartas"];
            if pages % 2 == 1 {
                // Counted with its rows: the same total, and the same pages.
                assert_eq!(page["totalCount"], total, "page {pages}");
            }
            seen += page["nodes"].as_array().map_or(0, |n| n.len() as u64);
            assert_eq!(page["pageInfo"]["hasPreviousPage"], json!(pages > 0));
            pages += 1;
            if page["pageInfo"]["hasNextPage"] != json!(true) {
                break;
            }
            after = page["pageInfo"]["endCursor"].clone();
        }
        assert_eq!(seen, total, "every carta once, over {pages} pages");
        assert!(pages > 1);
        // From the end: the last five cartas, with nothing after them.
        let data = app
            .data("{ fcoCartas(last: 5) { pageInfo { hasNextPage hasPreviousPage } nodes { id } } }", json!({}))
            .await;
        assert_eq!(data["fcoCartas"]["nodes"].as_array().map(Vec::len), Some(5));
        assert_eq!(data["fcoCartas"]["pageInfo"]["hasNextPage"], false);
        assert_eq!(data["fcoCartas"]["pageInfo"]["hasPreviousPage"], true);
    })
    .await;
}

/// A query that reads no rule's text (`explanation`, `countingNote`) is judged without writing them: every code,
/// status, basis and due date is the one a query reading the texts gets, and that query gets its texts.
#[tokio::test]
async fn outcomes_without_their_texts_are_those_with_them() {
    on_each_backend(true, |app| async move {
        let ask = async |texts: bool, day: &str| {
            let (explanation, note) = if texts { ("explanation", "countingNote") } else { ("", "") };
            let fields = format!(
                "compliance(asOf: \"{day}\") {{ ruleCode status legalBasis {explanation} }} \
                 deadlines(asOf: \"{day}\") {{ ruleCode status legalBasis dueDate dueAt {note} }}"
            );
            let q = format!(
                "{{ financings(first: 100) {{ nodes {{ ... on FcoCarta {{ id {fields} }} ... on SocialFuelProject {{ id {fields} }} }} }} }}"
            );
            app.data(&q, json!({})).await["financings"]["nodes"].clone()
        };
        let mut judged = 0;
        for day in ["2020-03-02", "2024-06-03", "2026-12-04"] {
            let quiet = ask(false, day).await;
            let loud = ask(true, day).await;
            let (quiet, loud) = (quiet.as_array().expect("nodes"), loud.as_array().expect("nodes"));
            assert_eq!(quiet.len(), loud.len());
            for (q, l) in quiet.iter().zip(loud) {
                for list in ["compliance", "deadlines"] {
                    let (qs, ls) = (q[list].as_array().expect("list"), l[list].as_array().expect("list"));
                    assert_eq!(qs.len(), ls.len(), "{list} of {}", q["id"]);
                    for (a, b) in qs.iter().zip(ls) {
                        let mut b = b.clone();
                        let text = b.as_object_mut().and_then(|o| o.remove("explanation").or_else(|| o.remove("countingNote")));
                        assert!(text.and_then(|t| t.as_str().map(|t| !t.is_empty())).unwrap_or(false), "a text is written when read: {b}");
                        assert_eq!(a, &b, "{list} of {} on {day}", q["id"]);
                        judged += 1;
                    }
                }
            }
        }
        assert!(judged > 1000, "{judged} outcomes compared");
    })
    .await;
}

/// Judging a page of financings (every rule and deadline of each) runs a bounded number of statements whatever the
/// page size: what the rules need of other tables is loaded for the whole page at once.
#[tokio::test]
async fn compliance_over_a_page_runs_a_bounded_number_of_statements() {
    on_each_backend(true, |app| async move {
        let q = "fragment J on Financing { __typename }
            query N($n: Int, $d: Date) { financings(first: $n) { edges { node { ...J
            ... on FcoCarta { compliance(asOf: $d) { ruleCode status } deadlines(asOf: $d) { ruleCode status } }
            ... on SocialFuelProject { compliance(asOf: $d) { ruleCode status } deadlines(asOf: $d) { ruleCode status } }
            } } } }";
        let mut counts = Vec::new();
        for n in [10, 50, 100] {
            let before = app.statements.get();
            let data = app.data(q, json!({ "n": n, "d": "2024-06-03" })).await;
            let edges = data["financings"]["edges"].as_array().cloned().unwrap_or_default();
            assert_eq!(edges.len(), n as usize);
            assert!(
                edges.iter().all(|e| e["node"]["compliance"].as_array().is_some_and(|c| !c.is_empty())),
                "every financing is judged"
            );
            counts.push(app.statements.get() - before);
        }
        eprintln!("statements for compliance of 10, 50, 100 financings on {:?}: {counts:?}", app.backend);
        // One statement per kind of fact (a page, its projects and cartas; a project's acquisitions, proposals,
        // documents, plan, semi-arid periods, change notices; a carta's items, amendments, meeting, attendance,
        // group, resubmitted carta; confirmations; parameters and calendar), each for the whole page; a kind no
        // financing of the page needs is not asked. It was 8–9 statements per financing.
        assert!(counts.iter().all(|&c| c <= 30), "a fixed bound, whatever the page: {counts:?}");
    })
    .await;
}

/// What the page-wide loaders gather for FCO-CEILING and FCO-WEANED-2000 (the borrower group's committed cartas and
/// their weaned heads) equals what the one-carta query (`service::facts::committed_by_group`, on the same day) finds,
/// for every demo carta. Judged as of a date after every demo act, so that both see the same committed cartas (`asOf`
/// leaves out what was approved later).
#[tokio::test]
async fn group_figures_from_page_loaders_match_the_one_carta_query() {
    use entity::{bank, fco_carta, fco_carta_item, vocab::ItemKind};
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    on_each_backend(true, |app| async move {
        let q = "query P($after: String) { fcoCartas(first: 100, after: $after) { pageInfo { hasNextPage endCursor }
            nodes { number bank { code } compliance(asOf: \"2030-01-01\") { ruleCode explanation } } } }";
        let (mut after, mut checked, mut in_groups) = (Value::Null, 0, 0);
        loop {
            let data = app.data(q, json!({ "after": after })).await;
            let page = &data["fcoCartas"];
            for node in page["nodes"].as_array().expect("nodes") {
                let code = node["bank"]["code"].as_str().expect("code");
                let b = bank::Entity::find()
                    .filter(bank::Column::Code.eq(code))
                    .one(&app.db)
                    .await
                    .expect("query")
                    .expect("bank");
                let c = fco_carta::Entity::find()
                    .filter(fco_carta::Column::BankId.eq(b.id))
                    .filter(fco_carta::Column::Number.eq(node["number"].as_str().expect("number")))
                    .one(&app.db)
                    .await
                    .expect("query")
                    .expect("carta");
                let day = chrono::NaiveDate::from_ymd_opt(2030, 1, 1).expect("day");
                let others = service::facts::committed_by_group(&app.db, &c, day)
                    .await
                    .expect("group");
                in_groups += usize::from(!others.is_empty());
                let exposure = others.iter().fold(c.financed_amount, |acc, o| {
                    acc.checked_add(o.financed_amount).expect("sum")
                });
                let heads = |ids: Vec<i64>| {
                    let db = app.db.clone();
                    async move {
                        fco_carta_item::Entity::find()
                            .filter(fco_carta_item::Column::CartaId.is_in(ids))
                            .filter(fco_carta_item::Column::Kind.eq(ItemKind::WeanedCalf))
                            .all(&db)
                            .await
                            .expect("items")
                            .iter()
                            .map(|i| i64::from(i.head_count.unwrap_or(0)))
                            .sum::<i64>()
                    }
                };
                let own = heads(vec![c.id]).await;
                let group = own + heads(others.iter().map(|o| o.id).collect()).await;
                let explanation = |code: &str| {
                    node["compliance"]
                        .as_array()
                        .and_then(|o| o.iter().find(|r| r["ruleCode"] == code))
                        .and_then(|r| r["explanation"].as_str())
                        .unwrap_or_default()
                        .to_string()
                };
                let ceiling = explanation("FCO-CEILING");
                assert!(
                    ceiling.contains(&format!("somam {exposure} ")),
                    "{}: {ceiling}",
                    c.number
                );
                if own > 0 {
                    let weaned = explanation("FCO-WEANED-2000");
                    assert!(
                        weaned.starts_with(&format!("{group} cabeças desmamadas")),
                        "{}: {weaned}",
                        c.number
                    );
                }
                checked += 1;
            }
            if page["pageInfo"]["hasNextPage"] != true {
                break;
            }
            after = page["pageInfo"]["endCursor"].clone();
        }
        assert_eq!(checked, 300, "every demo carta");
        assert!(in_groups > 0, "some demo cartas share a borrower group");
    })
    .await;
}

/// The flag pass's group commitments, read once for every borrower on the pass's day (`GroupCommitments::whole`: the
/// settled cartas summed per borrower, the rest one by one), tell what a carta's group adds up to besides it
/// (`Committed::others`) exactly as the group commitments read per batch of borrowers do (the graph's and the
/// dashboard's), and as adding up the group's other cartas committed that day gives. Days before the demo groups were
/// formed (every act later: nothing settled), within and after them (everything settled but the cartas with heads); and
/// the pass's group commitments asked for another day read as a batch does.
#[tokio::test]
async fn committed_cartas_read_once_for_a_pass_equal_those_read_per_batch() {
    use entity::fco_carta;
    use sea_orm::EntityTrait;
    on_each_backend(true, |app| async move {
        let cartas = fco_carta::Entity::find().all(&app.db).await.expect("cartas");
        let days = ["2015-01-01", "2024-06-03", "2030-01-01"].map(|d| d.parse::<chrono::NaiveDate>().expect("day"));
        // The group commitments a batch of borrowers reads (the graph's and the dashboard's).
        let read_per_batch = |keys: &[(i64, chrono::NaiveDate)]| {
            let (db, keys) = (app.db.clone(), keys.to_vec());
            async move {
                service::facts::GroupCommitments::default()
                    .commitments(&db, &keys)
                    .await
                    .expect("read per batch")
            }
        };
        let (mut shared, mut settled_and_later) = (0, [false; 2]);
        for day in days {
            let keys: Vec<(i64, chrono::NaiveDate)> = cartas
                .iter()
                .map(|c| (c.party_id, day))
                .collect::<HashSet<_>>()
                .into_iter()
                .collect();
            let mut whole = service::facts::GroupCommitments::whole(&app.db, day)
                .await
                .expect("whole");
            let once = whole.commitments(&app.db, &keys).await.expect("read once");
            let per_batch = read_per_batch(&keys).await;
            for c in &cartas {
                let group = &per_batch[&(c.party_id, day)];
                let (mut amount, mut weaned, mut dams) = (0i128, 0i64, 0i64);
                for o in group
                    .cartas
                    .iter()
                    .filter(|o| o.id != c.id && fco_carta::COMMITTED.contains(&o.stage_on(day)))
                {
                    amount += i128::from(o.financed_amount.cents());
                    weaned += group.weaned.get(&o.id).copied().unwrap_or(0);
                    if o.party_id == c.party_id {
                        dams += group.pantanal_dams.get(&o.id).copied().unwrap_or(0);
                    }
                }
                assert_eq!(
                    group.others(&fco_carta::JudgedCarta::from(c), day),
                    (amount, weaned, dams),
                    "{} on {day}, per batch",
                    c.number
                );
                let read_once = &once[&(c.party_id, day)];
                assert_eq!(
                    read_once.others(&fco_carta::JudgedCarta::from(c), day),
                    (amount, weaned, dams),
                    "{} on {day}, read once",
                    c.number
                );
                shared += usize::from(group.cartas.iter().any(|o| o.party_id != c.party_id) && amount > 0);
                if fco_carta::COMMITTED.contains(&c.stage) {
                    settled_and_later[usize::from(c.acts().after(day))] = true;
                }
            }
            // Asked for a day it was not read for, the pass's group commitments read the borrowers' cartas as a batch
            // does.
            let other_day = day.succ_opt().expect("next day");
            let other_keys: Vec<(i64, chrono::NaiveDate)> = keys.iter().map(|k| (k.0, other_day)).collect();
            let elsewhere = whole.commitments(&app.db, &other_keys).await.expect("another day");
            let as_a_batch = read_per_batch(&other_keys).await;
            for k in &other_keys {
                assert_eq!(elsewhere.get(k), as_a_batch.get(k), "borrower and day {k:?}");
            }
        }
        assert!(shared > 0, "some demo cartas count other borrowers' committed cartas");
        assert_eq!(
            settled_and_later,
            [true, true],
            "committed cartas both settled and with later acts on some day"
        );
    })
    .await;
}

/// `compliance` and `deadlines` selected together (judged once per financing and day in a query) answer what each
/// answers alone, for every carta and project of a page, on two days.
#[tokio::test]
async fn compliance_and_deadlines_together_answer_what_each_answers_alone() {
    on_each_backend(true, |app| async move {
        for day in ["2024-06-03", "2030-01-01"] {
            let fields = |f: &str| {
                format!(
                    "query J($d: Date) {{ financings(first: 40) {{ nodes {{ id ... on FcoCarta {{ {f} }} ... on SocialFuelProject {{ {f} }} }} }} }}"
                )
            };
            let c = "compliance(asOf: $d) { ruleCode status explanation }";
            let d = "deadlines(asOf: $d) { ruleCode status dueDate countingNote }";
            let vars = json!({ "d": day });
            let both = app.data(&fields(&format!("{c} {d} again: deadlines(asOf: $d) {{ ruleCode }}")), vars.clone()).await;
            let alone_c = app.data(&fields(c), vars.clone()).await;
            let alone_d = app.data(&fields(d), vars.clone()).await;
            let nodes = both["financings"]["nodes"].as_array().expect("nodes");
            assert_eq!(nodes.len(), 40);
            for (i, n) in nodes.iter().enumerate() {
                assert!(n["compliance"].as_array().is_some_and(|a| !a.is_empty()), "{n}");
                assert_eq!(n["compliance"], alone_c["financings"]["nodes"][i]["compliance"], "{day} {i}");
                assert_eq!(n["deadlines"], alone_d["financings"]["nodes"][i]["deadlines"], "{day} {i}");
                assert_eq!(
                    n["again"].as_array().map(Vec::len),
                    n["deadlines"].as_array().map(Vec::len),
                    "an alias of the same judgement"
                );
            }
        }
    })
    .await;
}

/// A programme's own table answers nothing for a query naming only the other programme, or the other programme's
/// stages (the service's typed reads, beside what the graph sends them).
#[tokio::test]
async fn a_typed_read_asked_for_the_other_programme_finds_nothing() {
    use entity::vocab::{FcoCartaStage, Programme, SocialFuelStage};
    use service::financings::{self as fin, Joined};
    on_each_backend(true, |app| async move {
        let mut q = fin::Query::default();
        let all = fin::listed_count::<entity::fco_carta::Entity>(&app.db, &q)
            .await
            .expect("count");
        assert!(all > 0);
        let five = fin::seek(q.order, Some(5), None, None, None).expect("a page of five");
        assert_eq!(
            fin::listed_rows::<entity::fco_carta::Entity>(&app.db, &q, &five, Joined::default(), false)
                .await
                .expect("rows")
                .rows
                .len(),
            5
        );
        q.filter.programmes = Some(vec![Programme::SocialFuel]);
        assert_eq!(
            fin::listed_count::<entity::fco_carta::Entity>(&app.db, &q)
                .await
                .expect("count"),
            0
        );
        assert!(
            fin::listed_rows::<entity::fco_carta::Entity>(&app.db, &q, &five, Joined::default(), false)
                .await
                .expect("rows")
                .rows
                .is_empty()
        );
        assert!(
            fin::listed_count::<entity::social_fuel_project::Entity>(&app.db, &q)
                .await
                .expect("count")
                > 0
        );
        q.filter.programmes = None;
        q.filter.project_stages = Some(vec![SocialFuelStage::Filed]);
        assert_eq!(
            fin::listed_count::<entity::fco_carta::Entity>(&app.db, &q)
                .await
                .expect("count"),
            0
        );
        assert!(
            fin::listed_count::<entity::social_fuel_project::Entity>(&app.db, &q)
                .await
                .expect("count")
                > 0,
            "filed projects in the demo"
        );
        // The `financing` view reads a programme's stages through a sub-query on its own table: the same count.
        for stages in [
            (Some(vec![SocialFuelStage::Filed]), None),
            (None, Some(vec![FcoCartaStage::Contracted])),
        ] {
            (q.filter.project_stages, q.filter.carta_stages) = stages;
            let own = fin::listed_count::<entity::fco_carta::Entity>(&app.db, &q)
                .await
                .expect("count")
                + fin::listed_count::<entity::social_fuel_project::Entity>(&app.db, &q)
                    .await
                    .expect("count");
            assert!(own > 0, "{:?} in the demo", q.filter);
            assert_eq!(
                fin::count(&app.db, &q).await.expect("the view's count"),
                own,
                "{:?}",
                q.filter
            );
        }
    })
    .await;
}

/// A financing as the cursor walks know it: its programme (`FCO_RURAL`, `SOCIAL_FUEL`) and id.
type Key = (String, i64);

/// A value of a sort field to write: a date (or none), or an amount in centavos.
#[derive(Debug, Clone, Copy)]
enum SortValue {
    Date(Option<chrono::NaiveDate>),
    Cents(i64),
}

fn day(s: &str) -> Option<chrono::NaiveDate> {
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
}

/// What the walks do to the database, and the financings it holds.
struct Walker<'a> {
    app: &'a TestApp,
    bank: Value,
    /// The financings that exist now.
    live: Vec<Key>,
    /// How many financings were created (their numbers).
    created: usize,
}

impl Walker<'_> {
    /// Creates a financing of `programme` through the graph, its `field` then set to `value` in the database (the
    /// mutations create drafts, undated).
    async fn create(&mut self, programme: &str, field: &str, value: SortValue) -> Key {
        self.created += 1;
        let n = self.created;
        let amount = match value {
            SortValue::Cents(c) if field == "amount" => format!("{}.{:02}", c / 100, c % 100),
            _ => "300000.00".to_owned(),
        };
        let id = if programme == "FCO_RURAL" {
            let create = "mutation C($i: NewFcoCarta!) { createFcoCarta(input: $i) { id } }";
            let input = json!({ "i": { "number": format!("WALK-{n}"), "bankId": self.bank,
                "borrowerDocument": "529.982.247-25", "borrowerName": "João Silva", "line": "RURAL",
                "activity": "BEEF_CATTLE", "financedAmount": amount, "municipalityCode": 5107909 } });
            self.app.data(create, input).await["createFcoCarta"]["id"].clone()
        } else {
            let create = "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }";
            let input = json!({ "i": { "title": format!("Usina {n}"), "bankId": self.bank,
                "producerDocument": "11.222.333/0001-81", "producerName": "Biodiesel Cerrado S.A.",
                "plantMunicipalityCode": 2611101, "requestedAmount": amount } });
            self.app.data(create, input).await["createSocialFuelProject"]["id"].clone()
        };
        let key = key_of(id.as_str().expect("an ID"));
        if field != "amount" {
            self.set(&key, field, value).await;
        }
        self.live.push(key.clone());
        key
    }

    /// Writes a financing's sort field straight into its table.
    async fn set(&self, (programme, id): &Key, field: &str, value: SortValue) {
        use entity::{domain::Money, fco_carta, social_fuel_project};
        use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, sea_query::Expr};
        let v: sea_orm::Value = match value {
            SortValue::Date(d) => d.into(),
            SortValue::Cents(c) => Money(c).into(),
        };
        if programme == "FCO_RURAL" {
            use fco_carta::Column as C;
            let column = match field {
                "submittedOn" => C::SubmittedOn,
                "decidedOn" => C::DecidedOn,
                "contractedOn" => C::ContractedOn,
                _ => C::FinancedAmount,
            };
            fco_carta::Entity::update_many()
                .col_expr(column, Expr::value(v))
                .filter(C::Id.eq(*id))
                .exec(&self.app.db)
                .await
                .expect("update a carta");
        } else {
            use social_fuel_project::Column as C;
            let column = match field {
                "submittedOn" => C::FiledOn,
                "decidedOn" => C::DecidedOn,
                "contractedOn" => C::FinancingApprovedOn,
                _ => C::RequestedAmount,
            };
            social_fuel_project::Entity::update_many()
                .col_expr(column, Expr::value(v))
                .filter(C::Id.eq(*id))
                .exec(&self.app.db)
                .await
                .expect("update a project");
        }
    }

    /// Deletes a financing from its table.
    async fn delete(&mut self, key: &Key) {
        use entity::{fco_carta, social_fuel_project};
        use sea_orm::EntityTrait;
        let (programme, id) = key;
        if programme == "FCO_RURAL" {
            fco_carta::Entity::delete_by_id(*id)
                .exec(&self.app.db)
                .await
                .expect("delete a carta");
        } else {
            social_fuel_project::Entity::delete_by_id(*id)
                .exec(&self.app.db)
                .await
                .expect("delete a project");
        }
        self.live.retain(|k| k != key);
    }
}

/// The programme and id of a global ID.
fn key_of(id: &str) -> Key {
    use base64::Engine;
    let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(id)
        .expect("base64");
    let text = String::from_utf8(raw).expect("text");
    let (kind, n) = text.split_once(':').expect("Kind:id");
    let programme = if kind == "FcoCarta" { "FCO_RURAL" } else { "SOCIAL_FUEL" };
    (programme.to_owned(), n.parse().expect("an id"))
}

/// A node's place in a list sorted by `field` (`desc` or not, unset last), then programme, then id.
fn place(node: &Value, field: &str) -> (Option<String>, Key) {
    let value = node[field].as_str().map(|v| {
        if field == "amount" {
            // Centavos, zero-padded, so that text order is numeric order.
            let cents = v.parse::<rust_decimal::Decimal>().expect("an amount") * rust_decimal::Decimal::from(100);
            format!("{:020}", cents.trunc())
        } else {
            v.to_owned()
        }
    });
    (value, key_of(node["id"].as_str().expect("id")))
}

fn in_order(a: &(Option<String>, Key), b: &(Option<String>, Key), desc: bool) -> bool {
    use std::cmp::Ordering;
    let by_value = match (&a.0, &b.0) {
        (Some(x), Some(y)) if desc => y.cmp(x),
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    by_value.then_with(|| a.1.cmp(&b.1)) == Ordering::Less
}

/// Every list pages by its rows' sort values, not their positions: walking forward (`first`/`after`) and backward
/// (`last`/`before`) through each list in every ordering, with two financings created (one sorted before the walk's
/// cursor, one after it, or tied with it), the cursor's own row deleted, another row deleted and another moved to a
/// new value between every two pages, every row that was there throughout and left alone is seen exactly once, no
/// row twice, in the list's order; `totalCount` and `pageInfo` follow the changes.
#[tokio::test]
async fn cursor_walks_with_inserts_and_deletes_between_every_page_in_every_ordering_and_direction_skip_and_repeat_no_row()
 {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let mut w = Walker {
            app: &app,
            bank,
            live: Vec::new(),
            created: 0,
        };
        let fields = [
            ("SUBMITTED_ON", "submittedOn"),
            ("DECIDED_ON", "decidedOn"),
            ("CONTRACTED_ON", "contractedOn"),
            ("AMOUNT", "amount"),
        ];
        // Financings whose values tie (within and across programmes) and are often unset.
        let dates = [
            None,
            day("2024-01-10"),
            day("2024-01-10"),
            day("2024-03-05"),
            None,
            day("2025-07-01"),
            day("2023-11-30"),
        ];
        let amounts = [100_000, 250_000, 250_000, 1_000_000, 5_000_000].map(|reais: i64| reais * 100);
        let mut seeded = 0usize;
        let mut seed = async |w: &mut Walker<'_>, programme: &str| {
            let i = seeded;
            seeded += 1;
            let key = w
                .create(programme, "amount", SortValue::Cents(amounts[(i * 3) % 5]))
                .await;
            for (f, (_, field)) in fields.iter().enumerate().take(3) {
                w.set(&key, field, SortValue::Date(dates[(i * (f + 3) + f) % 7])).await;
            }
        };
        let lists = [
            ("financings", &["FCO_RURAL", "SOCIAL_FUEL"][..]),
            ("fcoCartas", &["FCO_RURAL"][..]),
            ("socialFuelProjects", &["SOCIAL_FUEL"][..]),
        ];
        let mut walks = 0;
        for (list, programmes) in lists {
            let q = format!(
                "query W($n: Int, $a: String, $l: Int, $b: String, $o: FinancingOrder) {{ {list}(first: $n, after: $a,
                  last: $l, before: $b, orderBy: $o) {{ totalCount pageInfo {{ hasNextPage hasPreviousPage startCursor
                  endCursor }} edges {{ cursor node {{ id amount submittedOn decidedOn contractedOn }} }} }} }}"
            );
            for (order, field) in fields {
                for direction in ["ASC", "DESC"] {
                    for backward in [false, true] {
                        let why = format!(
                            "{list} by {order} {direction}, {}",
                            if backward { "backward" } else { "forward" }
                        );
                        let ours = |k: &Key| programmes.contains(&k.0.as_str());
                        // At least 16 of each programme, so that every walk takes several pages.
                        for programme in programmes {
                            while w.live.iter().filter(|k| k.0 == *programme).count() < 16 {
                                seed(&mut w, programme).await;
                            }
                        }
                        let at_start: Vec<Key> = w.live.iter().filter(|k| ours(k)).cloned().collect();
                        let (mut touched, mut pages, mut cursor) =
                            (HashSet::new(), Vec::<Vec<Value>>::new(), Value::Null);
                        loop {
                            let step = pages.len();
                            let o = json!({ "field": order, "direction": direction });
                            let vars = if backward {
                                json!({ "l": 4, "b": cursor, "o": o })
                            } else {
                                json!({ "n": 4, "a": cursor, "o": o })
                            };
                            let data = app.data(&q, vars).await;
                            let conn = &data[list];
                            assert_eq!(
                                conn["totalCount"],
                                w.live.iter().filter(|k| ours(k)).count(),
                                "{why}, page {step}"
                            );
                            let edges = conn["edges"].as_array().expect("edges").clone();
                            let info = &conn["pageInfo"];
                            assert_eq!(
                                info["startCursor"],
                                edges.first().map_or(Value::Null, |e| e["cursor"].clone())
                            );
                            assert_eq!(
                                info["endCursor"],
                                edges.last().map_or(Value::Null, |e| e["cursor"].clone())
                            );
                            let (more, earlier) = if backward {
                                (&info["hasPreviousPage"], &info["hasNextPage"])
                            } else {
                                (&info["hasNextPage"], &info["hasPreviousPage"])
                            };
                            assert_eq!(earlier, &json!(step > 0), "{why}, page {step}: {info}");
                            pages.push(edges.iter().map(|e| e["node"].clone()).collect());
                            if more != &json!(true) {
                                break;
                            }
                            assert!(step < 100, "{why}: the walk ends");
                            cursor = if backward {
                                info["startCursor"].clone()
                            } else {
                                info["endCursor"].clone()
                            };
                            // Between the pages: two new financings, at two of four places...
                            let edge = edges[if backward { 0 } else { edges.len() - 1 }]["node"].clone();
                            let tie = match field {
                                "amount" => {
                                    SortValue::Cents(place(&edge, field).0.and_then(|c| c.parse().ok()).unwrap_or(1))
                                }
                                _ => SortValue::Date(edge[field].as_str().and_then(day)),
                            };
                            let values = if field == "amount" {
                                [
                                    SortValue::Cents(14_000_000 * 100),
                                    SortValue::Cents(1),
                                    tie,
                                    SortValue::Cents(250_000 * 100),
                                ]
                            } else {
                                [
                                    SortValue::Date(day("2030-01-01")),
                                    SortValue::Date(day("2000-01-01")),
                                    tie,
                                    SortValue::Date(None),
                                ]
                            };
                            for (i, k) in [step % 4, (step + 2) % 4].into_iter().enumerate() {
                                w.create(programmes[i % programmes.len()], field, values[k]).await;
                            }
                            // ...the cursor's own row deleted, another row deleted (one not yet seen, or every other
                            // page one seen already), and a row not yet seen moved to another value.
                            let seen: HashSet<Key> = pages
                                .iter()
                                .flatten()
                                .map(|n| key_of(n["id"].as_str().expect("id")))
                                .collect();
                            let edge_key = key_of(edge["id"].as_str().expect("id"));
                            touched.insert(edge_key.clone());
                            w.delete(&edge_key).await;
                            let others: Vec<Key> = w
                                .live
                                .iter()
                                .filter(|k| ours(k) && !touched.contains(*k))
                                .cloned()
                                .collect();
                            let (seen_rows, unseen): (Vec<Key>, Vec<Key>) =
                                others.into_iter().partition(|k| seen.contains(k));
                            let pool = if step % 2 == 1 && !seen_rows.is_empty() {
                                &seen_rows
                            } else {
                                &unseen
                            };
                            if let Some(gone) = pool.get((step * 7) % pool.len().max(1)).cloned() {
                                touched.insert(gone.clone());
                                w.delete(&gone).await;
                            }
                            if let Some(moved) = unseen
                                .get((step * 7 + 3) % unseen.len().max(1))
                                .filter(|m| !touched.contains(*m))
                            {
                                touched.insert(moved.clone());
                                w.set(moved, field, values[(step + 1) % 4]).await;
                            }
                        }
                        if backward {
                            pages.reverse();
                        }
                        let seen: Vec<Value> = pages.concat();
                        let mut times: std::collections::HashMap<Key, usize> = Default::default();
                        for n in &seen {
                            *times.entry(key_of(n["id"].as_str().expect("id"))).or_default() += 1;
                        }
                        let twice: Vec<_> = times.iter().filter(|(_, n)| **n > 1).collect();
                        assert!(twice.is_empty(), "{why}: seen twice {twice:?}");
                        let missed: Vec<_> = at_start
                            .iter()
                            .filter(|k| !touched.contains(*k) && !times.contains_key(*k))
                            .collect();
                        assert!(missed.is_empty(), "{why}: skipped {missed:?}");
                        let desc = direction == "DESC";
                        for pair in seen.windows(2) {
                            let (a, b) = (place(&pair[0], field), place(&pair[1], field));
                            assert!(in_order(&a, &b, desc), "{why}: {a:?} then {b:?}");
                        }
                        assert!(pages.len() > 3, "{why}: several pages");
                        walks += 1;
                    }
                }
            }
        }
        assert_eq!(walks, 48);
    })
    .await;
}

/// A cursor of the old kind (a position, `o:<n>`) is refused with `BAD_USER_INPUT`, in Portuguese unless English is
/// asked for, naming the argument and saying to start again from the first page; so is a cursor issued for another
/// ordering of the list.
#[tokio::test]
async fn an_old_position_cursor_is_refused_with_a_message_to_start_again_from_the_first_page() {
    use base64::Engine;
    on_each_backend(false, |app| async move {
        let old = |n: u32| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("o:{n}"));
        assert_eq!(old(0), "bzow", "the cursor every first page used to end with");
        let cases = [
            ("query Q($c: String) { financings(first: 5, after: $c) { totalCount } }", "after"),
            ("query Q($c: String) { fcoCartas(last: 5, before: $c) { nodes { id } } }", "before"),
            ("query Q($c: String) { socialFuelProjects(after: $c) { nodes { id } } }", "after"),
            ("query Q($c: String) { party(document: \"11222333000181\") { financings(after: $c) { totalCount } } }", "after"),
            ("query Q($c: String) { banks(after: $c) { nodes { id } } }", "after"),
        ];
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        app.data(
            "mutation C($i: NewSocialFuelProject!) { createSocialFuelProject(input: $i) { id } }",
            json!({ "i": { "title": "Usina", "bankId": bank, "producerDocument": "11.222.333/0001-81",
                "producerName": "Biodiesel Cerrado S.A.", "plantMunicipalityCode": 2611101, "requestedAmount": "1000.00" } }),
        )
        .await;
        for (query, arg) in cases {
            for cursor in [old(0), old(40)] {
                let vars = json!({ "c": cursor });
                let (message, code) = app.error_in(None, query, vars.clone()).await;
                assert_eq!(code, "BAD_USER_INPUT", "{query}: {message}");
                assert!(
                    message.starts_with(&format!("{arg}: `{arg}` é um cursor antigo"))
                        && message.contains("comece de novo pela primeira página"),
                    "{query}: {message}"
                );
                let (message, code) = app.error(query, vars).await;
                assert_eq!(code, "BAD_USER_INPUT");
                assert!(message.contains("start again from the first page"), "{query}: {message}");
            }
        }
        // A cursor of the list by amount, given to the list by submission date.
        let by_amount = app
            .data("{ socialFuelProjects(first: 1, orderBy: { field: AMOUNT }) { pageInfo { endCursor } } }", json!({}))
            .await["socialFuelProjects"]["pageInfo"]["endCursor"]
            .clone();
        let (message, code) = app
            .error(
                "query Q($c: String) { socialFuelProjects(first: 1, after: $c) { nodes { id } } }",
                json!({ "c": by_amount }),
            )
            .await;
        assert_eq!(code, "BAD_USER_INPUT");
        assert!(message.contains("ordered by AMOUNT, not by SUBMITTED_ON"), "{message}");
        // The same cursor reads in the list over both programmes, by the same ordering.
        let next = app
            .data(
                "query Q($c: String) { financings(first: 1, after: $c, orderBy: { field: AMOUNT }) { nodes { id } pageInfo { hasPreviousPage } } }",
                json!({ "c": by_amount }),
            )
            .await;
        assert_eq!(next["financings"]["nodes"], json!([]), "nothing after the only financing");
        assert_eq!(next["financings"]["pageInfo"]["hasPreviousPage"], true);
    })
    .await;
}
