//! The layout rules of DESIGN.md checked on the sources: no import circle among the
//! modules of `search/src/othello` or of the engine crate, and one definition each of
//! the shared vocabulary (`Outcome` and the side-to-move type `Player`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The code of a source file without its comments and its `#[cfg(test)]` part.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The module names `prefix`NAME mentions in `code` (e.g. `super::` or `crate::`).
fn mentioned(code: &str, prefix: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        rest = &rest[i + prefix.len()..];
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if modules.contains(&name) {
            out.insert(name);
        }
        // `super::{a, b}` and `crate::{a, b}` name several.
        if rest.starts_with('{') {
            let group = &rest[1..rest.find('}').unwrap_or(rest.len())];
            for part in group.split(',') {
                let name: String = part.trim().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if modules.contains(&name) {
                    out.insert(name);
                }
            }
        }
    }
    out
}

/// The first circle in `graph` (module → modules it imports), if any.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|n| n == node) {
            let mut c = path[i..].to_vec();
            c.push(node.to_string());
            return Some(c);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

/// The import graph of the `.rs` files of `dir` (a folder counts as one module, read
/// through its files), by `prefix` (`super::` or `crate::`).
fn graph(dir: &Path, prefix: &str, skip: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let mut files: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("source folder").flatten() {
        let path = entry.path();
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        if skip.contains(&name.as_str()) {
            continue;
        }
        if path.is_dir() {
            let inner = std::fs::read_dir(&path).expect("module folder").flatten().map(|e| e.path());
            files.entry(name).or_default().extend(inner.filter(|p| p.extension().is_some_and(|e| e == "rs")));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.entry(name).or_default().push(path);
        }
    }
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    files
        .iter()
        .map(|(name, paths)| {
            let mut uses = BTreeSet::new();
            for p in paths {
                uses.extend(mentioned(&code(p), prefix, &modules));
            }
            uses.remove(name);
            (name.clone(), uses)
        })
        .collect()
}

#[test]
fn othello_search_modules_import_no_circle() {
    let g = graph(&root().join("search/src/othello"), "super::", &["mod"]);
    assert!(g.len() >= 10, "{g:?}");
    assert_eq!(circle(&g), None, "an import circle in search/src/othello: {g:#?}");
}

#[test]
fn engine_modules_import_no_circle() {
    let g = graph(&root().join("engine/src"), "crate::", &["main"]);
    assert!(g.contains_key("arena") && g.contains_key("ugi"), "{g:?}");
    assert_eq!(circle(&g), None, "an import circle in the engine: {g:#?}");
}

#[test]
fn the_checker_finds_a_circle() {
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    g.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(circle(&g), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
    let modules = BTreeSet::from(["x".to_string(), "y".to_string()]);
    assert_eq!(mentioned("use super::{x::A, y};", "super::", &modules), modules);
}

/// Every `.rs` file under the workspace's crates.
fn sources() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> =
        ["bitboards", "search", "protocol", "engine", "ffo", "benches"].iter().map(|c| root().join(c)).collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("target") {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out
}

#[test]
fn the_shared_vocabulary_is_defined_once() {
    let mut found: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for path in sources() {
        let text = code(&path);
        for definition in ["enum Outcome", "struct Outcome", "enum Player", "enum Color", "enum Side", "enum Colour"] {
            if text.lines().any(|l| l.trim_start().trim_start_matches("pub ").starts_with(definition)) {
                found.entry(definition).or_default().push(path.display().to_string());
            }
        }
    }
    assert_eq!(found.get("enum Outcome").map(Vec::len), Some(1), "{found:#?}");
    assert_eq!(found.get("enum Player").map(Vec::len), Some(1), "{found:#?}");
    for other in ["struct Outcome", "enum Color", "enum Side", "enum Colour"] {
        assert!(!found.contains_key(other), "{other} defined again: {found:#?}");
    }
}
