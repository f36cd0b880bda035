//! The modules' import circles (issue 44): the modules of `entity`, `service`, `jobs`, `api` and `macros` that refer
//! to one another in a circle, found from their sources (`crate::…` and `super::…` paths, test modules left out; a
//! module reaching its own ancestor is not a circle). The circles there are today are listed; a new circle, or a
//! listed one that grew, fails, and so does a listed one that is gone (take it off the list).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The circles there are, each as its modules (`crate::module::path`), to be taken apart and taken off this list.
const KNOWN: &[&[&str]] = &[
    // The graph's object types, whose fields reach one another as the schema's do (`Bank.financings` → `FcoCarta`
    // → `flags` → `ComplianceFlag` → its report → `Bank`); async-graphql wants each type's resolvers in one `impl`.
    &[
        "api::graphql::chamber",
        "api::graphql::flags",
        "api::graphql::list",
        "api::graphql::prefetched",
        "api::graphql::reports",
        "api::graphql::types",
        "api::graphql::types::financing",
        "api::graphql::types::objects",
    ],
];

/// A crate's modules: path (`a::b`, the root empty) → file.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src").with_extension("");
            let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            if parts == ["lib"] || parts == ["main"] {
                parts.clear();
            }
            out.insert(parts.join("::"), path);
        }
    }
    out
}

/// The paths a `use` tree or path starting at `s` names (`a::{b, c::d}` gives `a::b` and `a::c::d`).
fn paths(s: &[u8], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    if s.get(i) == Some(&b'{') {
        i += 1;
        loop {
            while s.get(i).is_some_and(|c| b" \n\t\r,".contains(c)) {
                i += 1;
            }
            match s.get(i) {
                None => return i,
                Some(b'}') => return i + 1,
                _ => {
                    let next = paths(s, i, prefix.clone(), out);
                    i = if next == i { i + 1 } else { next };
                    // A renaming (`code as msg`) names nothing more.
                    if s[i..].starts_with(b" as ") {
                        i += 4;
                        while s.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
                            i += 1;
                        }
                    }
                }
            }
        }
    }
    let start = i;
    while s.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
        i += 1;
    }
    if i == start {
        return i;
    }
    let mut path = prefix;
    path.push(String::from_utf8_lossy(&s[start..i]).into_owned());
    if s.get(i..i + 2) == Some(b"::") {
        return paths(s, i + 2, path, out);
    }
    out.push(path);
    i
}

/// The source without its comments and its test module.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a source file");
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(cut) => &text[..cut],
        None => &text[..],
    };
    text.lines()
        .map(|l| l.find("//").map_or(l, |c| &l[..c]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where a path starting at `at` with `word` (`crate::` or `super::`) in module `here` begins: the module it names
/// first and where the rest of the path starts, each `super::` one module up (`super::super::x` from `a::b::c` is
/// `a::x`). `None` for a word inside another path or name (the second `super::` of `super::super::`, `my_crate::`).
fn reach(here: &[String], code: &str, at: usize, word: &str) -> Option<(Vec<String>, usize)> {
    let bytes = code.as_bytes();
    if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
        return None;
    }
    let mut start = at + word.len();
    if word == "crate::" {
        return Some((Vec::new(), start));
    }
    let mut base = here[..here.len().saturating_sub(1)].to_vec();
    while code[start..].starts_with("super::") {
        base.pop();
        start += "super::".len();
    }
    Some((base, start))
}

/// Every module's references to the other modules of its crate (`crate::module`).
fn graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for krate in ["entity", "service", "jobs", "api", "macros"] {
        let mods = modules(&root.join(krate).join("src"));
        for (module, file) in &mods {
            let here: Vec<String> = if module.is_empty() {
                Vec::new()
            } else {
                module.split("::").map(str::to_owned).collect()
            };
            let code = code_of(file);
            let bytes = code.as_bytes();
            let mut edges = BTreeSet::new();
            for (at, word) in code.match_indices("crate::").chain(code.match_indices("super::")) {
                let Some((base, start)) = reach(&here, &code, at, word) else {
                    continue;
                };
                let mut found = Vec::new();
                paths(bytes, start, base, &mut found);
                for full in found {
                    let target = (1..=full.len())
                        .rev()
                        .map(|k| full[..k].join("::"))
                        .find(|candidate| mods.contains_key(candidate));
                    // A module reaching its own ancestor (the items of the module that declares it) is no circle.
                    if let Some(t) =
                        target.filter(|t| t != module && !format!("{module}::").starts_with(&format!("{t}::")))
                    {
                        edges.insert(format!("{krate}::{t}"));
                    }
                }
            }
            let name = if module.is_empty() {
                krate.to_owned()
            } else {
                format!("{krate}::{module}")
            };
            graph.insert(name, edges);
        }
    }
    graph
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: BTreeSet<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for w in &s.graph[v] {
            let Some((w, _)) = s.graph.get_key_value(w.as_str()) else {
                continue;
            };
            if !s.index.contains_key(w.as_str()) {
                visit(s, w);
                let low = s.low[v].min(s.low[w.as_str()]);
                s.low.insert(v, low);
            } else if s.on.contains(w.as_str()) {
                let low = s.low[v].min(s.index[w.as_str()]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                component.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.insert(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: BTreeSet::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_new_import_circle_between_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let found = circles(&graph(&root));
    let known: BTreeSet<Vec<String>> = KNOWN
        .iter()
        .map(|c| c.iter().map(|m| (*m).to_owned()).collect())
        .collect();
    let new: Vec<_> = found.difference(&known).collect();
    let gone: Vec<_> = known.difference(&found).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "import circles changed.\nnew or grown (take them apart: move what both sides use to a module both can \
         reach):\n{new:#?}\nno longer there (take them off KNOWN in tests/it/architecture.rs):\n{gone:#?}"
    );
}

#[test]
fn the_circle_finder_sees_a_circle_and_not_a_child_reaching_its_parent() {
    let edges = |list: &[(&str, &[&str])]| -> BTreeMap<String, BTreeSet<String>> {
        list.iter()
            .map(|(m, to)| ((*m).to_owned(), to.iter().map(|t| (*t).to_owned()).collect()))
            .collect()
    };
    let g = edges(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"]), ("d", &["a"])]);
    assert_eq!(
        circles(&g),
        BTreeSet::from([vec!["a".to_owned(), "b".to_owned(), "c".to_owned()]])
    );
    let mut found = Vec::new();
    paths(
        b"{Caller, compliance::{self, Basis}, messages::code as msg}",
        0,
        Vec::new(),
        &mut found,
    );
    let here = ["graphql".to_owned(), "types".to_owned(), "financing".to_owned()];
    let code = "use super::super::plain::List;";
    let at = code.find("super::").expect("a super");
    let (base, start) = reach(&here, code, at, "super::").expect("a path");
    let mut reached = Vec::new();
    paths(code.as_bytes(), start, base, &mut reached);
    assert_eq!(
        reached,
        vec![vec!["graphql".to_owned(), "plain".to_owned(), "List".to_owned()]]
    );
    assert_eq!(reach(&here, code, at + "super::".len(), "super::"), None);
    let firsts: BTreeSet<String> = found.iter().map(|p| p[0].clone()).collect();
    assert_eq!(
        firsts,
        BTreeSet::from(["Caller".into(), "compliance".into(), "messages".into()])
    );
}

/// A module over 600 lines says at its top why it is that long (a `Size:` line in its `//!` documentation): a table
/// of data, alike items kept together, or one thing that must read as one. Any other long module is split.
#[test]
fn a_long_module_says_why_at_its_top() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut unexplained = Vec::new();
    // Every crate's sources (each folder of the workspace with a `src`), and the integration tests.
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("the workspace")
        .map(|e| e.expect("an entry").path().join("src"))
        .filter(|src| src.is_dir())
        .collect();
    dirs.push(root.join("tests/it"));
    assert!(dirs.len() >= 8, "the workspace's crates: {dirs:?}");
    for dir in dirs {
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).expect("a source directory") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("a source file");
                    let says_why = text
                        .lines()
                        .take_while(|l| l.starts_with("//!"))
                        .any(|l| l.starts_with("//! Size:"));
                    if text.lines().count() > 600 && !says_why {
                        unexplained.push(path.strip_prefix(&root).unwrap_or(&path).display().to_string());
                    }
                }
            }
        }
    }
    unexplained.sort();
    assert!(
        unexplained.is_empty(),
        "modules over 600 lines without a `//! Size:` line saying why: split them, or say why\n{}",
        unexplained.join("\n")
    );
}
