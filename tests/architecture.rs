//! The layout rules of DESIGN.md checked on the sources: no import circle among the
//! children of any module folder of the search and engine crates (each file or
//! subfolder a node, `crate::`, `super::` and `self::` paths and `use` items its edges,
//! followed through re-exports to where an item lives), and one definition each of the
//! shared vocabulary (`Outcome` and the side-to-move type `Player`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The code of a source file without its comments and its test module.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    strip(&text)
}

/// `text` without its comments, without a `#[cfg(test)]` module (from it to the end
/// of the file, where test modules stand) and without the other `#[cfg(test)]`
/// attributes (the item they mark is kept).
fn strip(text: &str) -> String {
    let text = text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        rest = &rest[i + "#[cfg(test)]".len()..];
        let next = rest.trim_start();
        if next.starts_with("mod ") || next.starts_with("pub mod ") || next.starts_with("pub(crate) mod ") {
            return out;
        }
    }
    out.push_str(rest);
    out
}

/// A module's path from its crate's root (`[]` is the root, `["phantom", "player"]` is
/// `crate::phantom::player`).
type ModPath = Vec<String>;

/// The module tree of a crate as far as imports go: every file's module and code, and
/// the names each module binds with `use`.
struct Crate {
    /// Each source file's module and code (comments and tests left out).
    files: Vec<(ModPath, String)>,
    /// Every module (a file's module and the folders above it).
    modules: BTreeSet<ModPath>,
    /// Per module, the names its `use` items bind and the paths they stand for.
    bindings: BTreeMap<ModPath, BTreeMap<String, ModPath>>,
}

/// The module of the file at `rel` (a path under `src/`): `a/b.rs` and `a/b/mod.rs` are
/// `a::b`; `lib.rs` and `main.rs` at the top are the root.
fn module_of(rel: &Path) -> ModPath {
    let mut parts: ModPath = rel.iter().map(|p| p.to_string_lossy().to_string()).collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs").to_string();
        let root_file = parts.is_empty() && (stem == "lib" || stem == "main");
        if stem != "mod" && !root_file {
            parts.push(stem);
        }
    }
    parts
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths of a `use` tree or a path expression at the start of `text` (`a::b::{c, d::e
/// as f, self}`), each with the name it binds (the last segment, its alias, or for
/// `self` the module's name; `None` for `*`).
fn path_tree(text: &str) -> Vec<(Vec<String>, Option<String>)> {
    fn parse(s: &mut &str, prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) {
        let mut segs = prefix.to_vec();
        loop {
            *s = s.trim_start();
            if let Some(rest) = s.strip_prefix('{') {
                *s = rest;
                loop {
                    *s = s.trim_start();
                    if let Some(rest) = s.strip_prefix('}') {
                        *s = rest;
                        return;
                    }
                    if s.is_empty() {
                        return;
                    }
                    let before = s.len();
                    parse(s, &segs, out);
                    *s = s.trim_start();
                    if let Some(rest) = s.strip_prefix(',') {
                        *s = rest;
                    } else if s.len() == before {
                        // Not a path: give up on the group.
                        return;
                    }
                }
            }
            if let Some(rest) = s.strip_prefix('*') {
                *s = rest;
                out.push((segs, None));
                return;
            }
            let ident: String = s.chars().take_while(|c| is_ident(*c)).collect();
            if ident.is_empty() {
                if segs.len() > prefix.len() {
                    let name = segs.last().cloned();
                    out.push((segs, name));
                }
                return;
            }
            *s = &s[ident.len()..];
            if ident == "self" && segs.len() == prefix.len() && !prefix.is_empty() {
                let name = segs.last().cloned();
                out.push((segs, name));
                return;
            }
            segs.push(ident);
            if let Some(rest) = s.strip_prefix("::") {
                *s = rest;
                continue;
            }
            let after = s.trim_start();
            let name = match after.strip_prefix("as ") {
                Some(alias) => {
                    let alias: String = alias.trim_start().chars().take_while(|c| is_ident(*c)).collect();
                    *s = after.trim_start_matches("as ").trim_start();
                    *s = &s[alias.len()..];
                    Some(alias)
                }
                None => segs.last().cloned(),
            };
            out.push((segs, name));
            return;
        }
    }
    let mut s = text;
    let mut out = Vec::new();
    parse(&mut s, &[], &mut out);
    out
}

/// `path` (starting with `crate`, `super` or `self`) from the module `here`, or `None`
/// for a path that starts elsewhere.
fn absolute(here: &[String], path: &[String]) -> Option<ModPath> {
    let (first, rest) = path.split_first()?;
    let mut base: ModPath = match first.as_str() {
        "crate" => Vec::new(),
        "self" => here.to_vec(),
        "super" => here[..here.len().saturating_sub(1)].to_vec(),
        _ => return None,
    };
    let mut rest = rest;
    while let Some(("super", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
        base.pop();
        rest = tail;
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

impl Crate {
    /// The crate made of `files` (each a path under `src/` and its code).
    fn new(files: Vec<(PathBuf, String)>) -> Crate {
        let files: Vec<(ModPath, String)> = files.into_iter().map(|(rel, text)| (module_of(&rel), text)).collect();
        let mut modules = BTreeSet::new();
        for (m, _) in &files {
            for n in 0..=m.len() {
                modules.insert(m[..n].to_vec());
            }
        }
        let mut krate = Crate { files, modules, bindings: BTreeMap::new() };
        let mut bindings: BTreeMap<ModPath, BTreeMap<String, ModPath>> = BTreeMap::new();
        for (here, text) in &krate.files {
            for (path, name) in krate.use_items(here, text) {
                if let Some(name) = name {
                    bindings.entry(here.clone()).or_default().insert(name, path);
                }
            }
        }
        krate.bindings = bindings;
        krate
    }

    /// The crate whose sources are under `src`.
    fn read(src: &Path) -> Crate {
        let mut files = Vec::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let rel = path.strip_prefix(src).expect("under src").to_path_buf();
                    files.push((rel, code(&path)));
                }
            }
        }
        Crate::new(files)
    }

    /// The paths the `use` items of the module `here` bring in (absolute, with the names
    /// they bind); a path into another crate is left out.
    fn use_items(&self, here: &[String], text: &str) -> Vec<(ModPath, Option<String>)> {
        let mut out = Vec::new();
        for (i, _) in text.match_indices("use ") {
            let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
            let before = text[line_start..i].trim();
            if !(before.is_empty() || before == "pub" || before.starts_with("pub(")) {
                continue;
            }
            let statement = &text[i + 4..text[i..].find(';').map_or(text.len(), |n| i + n)];
            for (path, name) in path_tree(statement) {
                let resolved = absolute(here, &path).or_else(|| {
                    // A bare path names a child module of `here` (or another crate).
                    let mut child = here.to_vec();
                    child.push(path.first()?.clone());
                    self.modules.contains(&child).then(|| here.iter().chain(&path).cloned().collect())
                });
                if let Some(resolved) = resolved {
                    out.push((resolved, name));
                }
            }
        }
        out
    }

    /// Every path the file of the module `here` names (`crate::…`, `super::…`,
    /// `self::…` anywhere in its code, and its `use` items), absolute and followed
    /// through the `use` bindings of the modules on the way to where the item lives.
    fn references(&self, here: &[String], text: &str) -> Vec<ModPath> {
        let mut out: Vec<ModPath> = self.use_items(here, text).into_iter().map(|(p, _)| p).collect();
        for prefix in ["crate::", "super::", "self::"] {
            for (i, _) in text.match_indices(prefix) {
                let previous = text[..i].chars().next_back();
                if previous.is_some_and(|c| is_ident(c) || c == ':') {
                    continue;
                }
                out.extend(path_tree(&text[i..]).into_iter().filter_map(|(p, _)| absolute(here, &p)));
            }
        }
        out.into_iter().map(|p| self.resolve(p)).collect()
    }

    /// `path` followed through `use` bindings: where the named item is defined (as far
    /// as the sources tell).
    fn resolve(&self, mut path: ModPath) -> ModPath {
        for _ in 0..16 {
            // The longest module at the start of `path`, and the name after it.
            let Some(k) = (0..=path.len()).rev().find(|&k| self.modules.contains(&path[..k])) else {
                return path;
            };
            let Some(name) = path.get(k) else { return path };
            let Some(target) = self.bindings.get(&path[..k]).and_then(|b| b.get(name)) else {
                return path;
            };
            let mut next = target.clone();
            next.extend(path[k + 1..].iter().cloned());
            if next == path {
                return path;
            }
            path = next;
        }
        path
    }

    /// The import graph among the children of the module `folder`: each child (a file
    /// or a folder, read through all its files) → the children it names. A name that
    /// the folder's own file defines is not a child.
    fn graph(&self, folder: &[String]) -> BTreeMap<String, BTreeSet<String>> {
        let d = folder.len();
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for m in &self.modules {
            if m.len() == d + 1 && m.starts_with(folder) {
                g.entry(m[d].clone()).or_default();
            }
        }
        for (here, text) in &self.files {
            if here.len() <= d || !here.starts_with(folder) {
                continue;
            }
            let from = &here[d];
            for r in self.references(here, text) {
                if r.len() > d && r.starts_with(folder) && &r[d] != from && self.modules.contains(&r[..=d]) {
                    g.entry(from.clone()).or_default().insert(r[d].clone());
                }
            }
        }
        g
    }

    /// Every module with children (the folders, and the root).
    fn folders(&self) -> Vec<ModPath> {
        self.modules
            .iter()
            .filter(|m| self.modules.iter().any(|c| c.len() == m.len() + 1 && c.starts_with(m)))
            .cloned()
            .collect()
    }

    /// The first import circle in any folder of the crate, with the folder.
    fn first_circle(&self) -> Option<(String, Vec<String>)> {
        self.folders()
            .into_iter()
            .find_map(|f| circle(&self.graph(&f)).map(|c| (format!("crate::{}", f.join("::")), c)))
    }
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

#[test]
fn search_modules_import_no_circle() {
    let krate = Crate::read(&root().join("search/src"));
    let folders = krate.folders();
    for folder in ["othello", "go", "phantom", "chaosclock"] {
        assert!(folders.contains(&vec![folder.to_string()]), "{folders:?}");
    }
    assert!(krate.graph(&["othello".to_string()]).len() >= 10);
    assert_eq!(krate.first_circle(), None, "an import circle in the search crate");
}

#[test]
fn engine_modules_import_no_circle() {
    let krate = Crate::read(&root().join("engine/src"));
    let top = krate.graph(&[]);
    let folders = krate.folders();
    for folder in ["arena", "games", "protocols", "tools"] {
        assert!(top.contains_key(folder), "{top:?}");
        assert!(folders.contains(&vec![folder.to_string()]), "{folders:?}");
    }
    assert!(krate.graph(&["protocols".to_string()]).contains_key("ugi"));
    assert!(krate.graph(&["tools".to_string()]).len() >= 10);
    assert_eq!(krate.first_circle(), None, "an import circle in the engine");
}

#[test]
fn the_checker_finds_a_circle() {
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    g.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(circle(&g), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));

    // A fake crate: in the folder `m`, `a` uses `b` through the folder's re-export,
    // `b` uses `c` by a `crate::` path inside code, `c` uses `a` by `super::`; `m`
    // also has a folder `d` whose file uses `e`, a sibling, through `super::super`.
    let file = |path: &str, text: &str| (PathBuf::from(path), strip(text));
    let fake = |c_text: &str| {
        Crate::new(vec![
            file("lib.rs", "pub mod m;\npub mod e;"),
            file("e.rs", "pub fn e() {}"),
            file("m/mod.rs", "mod a;\nmod b;\nmod c;\nmod d;\npub use b::{B, Bee as Be};"),
            file("m/a.rs", "use super::{Be, d::D};\npub struct A;"),
            file("m/b.rs", "pub struct B;\npub struct Bee;\nfn f() { crate::m::c::g(); }"),
            file("m/c.rs", c_text),
            file("m/d/mod.rs", "mod x;"),
            file("m/d/x.rs", "use super::super::super::e::e;\npub struct D;"),
        ])
    };
    let krate =
        fake("pub fn g() {\n    let _ = super::a::A; // super::b\n}\n#[cfg(test)]\nmod t { use super::super::d; }");
    let g = krate.graph(&["m".to_string()]);
    assert_eq!(g["a"], BTreeSet::from(["b".to_string(), "d".to_string()]), "{g:?}");
    assert_eq!(g["b"], BTreeSet::from(["c".to_string()]), "{g:?}");
    assert_eq!(g["c"], BTreeSet::from(["a".to_string()]), "{g:?}");
    assert!(g["d"].is_empty(), "{g:?}");
    assert_eq!(krate.graph(&[])["m"], BTreeSet::from(["e".to_string()]));
    let (folder, found) = krate.first_circle().expect("the circle a → b → c → a");
    assert_eq!((folder.as_str(), found), ("crate::m", vec!["a".into(), "b".into(), "c".into(), "a".into()]));
    // Without `c`'s use of `a` there is no circle (comments and tests do not count).
    assert_eq!(fake("// super::a\npub fn g() {}\n#[cfg(test)]\nmod t { use super::super::a; }").first_circle(), None);
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

/// Each text vocabulary has one definition: a token that only its definition writes,
/// and the files (from the workspace root) allowed to hold it in their code (comments
/// and test modules left out). A second parser, name table or word list written
/// elsewhere puts the token in another file.
const ONE_DEFINITION: [(&str, &str, &[&str]); 12] = [
    ("the GTP column letters", "\"ABCDEFGHJ", &["bitboards/src/go/coords.rs"]),
    ("the GTP vertex and move parsers", "fn from_gtp", &["bitboards/src/go/coords.rs", "bitboards/src/go/game.rs"]),
    (
        "a GTP move (`pass` or a vertex) read: bitboards' Move::from_gtp; the Phantom platform's replies \
         (letters) are another format",
        ".eq_ignore_ascii_case(\"pass\")",
        &["bitboards/src/go/game.rs", "protocol/src/phantom.rs"],
    ),
    (
        "a move's text with `pass`: Go's Move::to_gtp and Othello's Move::name",
        "Pass => \"pass\"",
        &["bitboards/src/go/game.rs", "bitboards/src/othello/rules.rs"],
    ),
    ("the game names (GameSpec)", "\"phantomgo\"", &["engine/src/games/registry.rs"]),
    ("the game names (GameSpec)", "\"chaosclock\"", &["engine/src/games/registry.rs"]),
    (
        "a game's own arena option (RefereeRules::options)",
        "\"solve_empties\"",
        &["engine/src/games/referee/othello.rs"],
    ),
    ("a game's own arena option (RefereeRules::options)", "\"phantom_rules\"", &["engine/src/games/phantom.rs"]),
    ("the match table's outcome words", "\"1/2-1/2\"", &["bitboards/src/player.rs"]),
    ("UGI+'s outcome words", "\"p1win\"", &["bitboards/src/player.rs"]),
    ("UGI+'s outcome words", "\"bothwin\"", &["bitboards/src/player.rs"]),
    (
        "the match table's outcome words and Chaos Clock's position flags",
        "\"both-win\"",
        &["bitboards/src/player.rs", "bitboards/src/chaosclock/rules.rs"],
    ),
];

/// The files of `files` (path from the workspace root, code) that hold `token`.
fn holding(files: &[(String, String)], token: &str) -> BTreeSet<String> {
    files.iter().filter(|(_, text)| text.contains(token)).map(|(path, _)| path.clone()).collect()
}

#[test]
fn each_text_vocabulary_is_defined_once() {
    let files: Vec<(String, String)> = sources()
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(root()).unwrap_or(&p).to_string_lossy().replace('\\', "/");
            (rel.trim_start_matches("./").to_string(), code(&p))
        })
        .collect();
    for (what, token, allowed) in ONE_DEFINITION {
        let found = holding(&files, token);
        let allowed: BTreeSet<String> = allowed.iter().map(|s| s.to_string()).collect();
        assert_eq!(found, allowed, "{what}: `{token}` is written in other files than its definition's");
    }
}

#[test]
fn the_vocabulary_check_finds_a_second_definition() {
    let files = vec![
        ("engine/src/games/mod.rs".to_string(), strip("GameKind::PHANTOM_GO => \"phantomgo\",")),
        ("engine/src/x.rs".to_string(), strip("match k { GameKind::PHANTOM_GO => \"phantomgo\" }")),
        ("engine/src/y.rs".to_string(), strip("// \"phantomgo\"\n#[cfg(test)]\nmod tests { \"phantomgo\" }")),
    ];
    let found = holding(&files, "\"phantomgo\"");
    assert_eq!(found, BTreeSet::from(["engine/src/games/mod.rs".to_string(), "engine/src/x.rs".to_string()]));
}

/// The built-in games' names in code (`GameKind::GO`): a branch on one game.
const GAME_BRANCHES: [&str; 4] = ["GameKind::OTHELLO", "GameKind::GO", "GameKind::PHANTOM_GO", "GameKind::CHAOS_CLOCK"];

#[test]
fn no_branch_on_a_game_outside_the_games_folder() {
    let mut found: BTreeMap<String, usize> = BTreeMap::new();
    for path in sources() {
        let rel = path.strip_prefix(root()).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let rel = rel.trim_start_matches("./").to_string();
        if !rel.starts_with("engine/src/") || rel.starts_with("engine/src/games/") {
            continue;
        }
        let text = code(&path);
        let count: usize = GAME_BRANCHES
            .iter()
            .map(|name| {
                // `GameKind::GO` and not the start of `GameKind::GOOD`.
                text.match_indices(name)
                    .filter(|(i, _)| !text[i + name.len()..].starts_with(|c: char| c == '_' || c.is_alphanumeric()))
                    .count()
            })
            .sum();
        if count > 0 {
            found.insert(rel, count);
        }
    }
    // The arena, the report, the protocols and the tools ask the game's `GameSpec`.
    assert_eq!(found, BTreeMap::new(), "a branch on one game outside engine/src/games/: ask its GameSpec instead");
}
