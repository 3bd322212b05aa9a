//! The library's modules form layers (`docs/architecture.md`): each imports
//! only modules of lower layers, so there is no circle and nothing reaches
//! back up. This test reads every source file under `src/` (`lib.rs`, which
//! re-exports the public API, the binary's `main.rs` and the command line in
//! `cli/` sit on top and may import anything) and fails on an import of a
//! module at the same layer or above (unit-test modules and the tests of
//! internals in `src/tests/`, which may check a module against a higher
//! one, are left out). An import of a name lib.rs re-exports
//! (`crate::Status`) hides its module's layer and fails too.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The library's top-level modules, lowest first; modules of one layer are
/// independent peers (the three engines, the relaxation and the human
/// models, the generators and the report); the batch driver runs any of
/// them.
const LAYERS: &[&[&str]] = &[
    &["util", "seed", "data", "limits", "cancel"],
    &["grid"],
    &["cnf", "graph", "examples"],
    &["answers"],
    &["sat", "dlx", "bitset"],
    &["engine"],
    &["stats", "berthier"],
    &["relax", "human", "se"],
    &["metrics"],
    &["eval"],
    &["score"],
    &["analyze"],
    &["generate", "report"],
    &["batch"],
];

/// Peers of one layer that import each other, with why: Sudoku Explainer's
/// solver (`se`) propagates on the human models' candidate grid and
/// technique catalogue (`human::board`, `human::techniques`), and the
/// `serate` and `fowler` models and the printed SE path of `human` read
/// that solver's path. The pair is one room split in two; no other module
/// may import a peer.
const PAIRED_PEERS: &[(&str, &str)] = &[("se", "human"), ("human", "se")];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a file names as `crate::NAME`, outside comments.
fn imports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let before = &rest[..at];
            // `sudolab::` inside the crate is never used; `$crate` in macros is.
            if !name.is_empty() && !before.ends_with('$') {
                out.insert(name);
            }
            rest = after;
        }
        // `use crate::{a::X, b::Y}` groups.
        if let Some(group) = code.strip_prefix("use crate::{") {
            for part in group.split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

#[test]
fn no_module_imports_its_own_layer_or_above() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src/");
        let first = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .expect("a UTF-8 path");
        let module = first.trim_end_matches(".rs");
        if matches!(module, "lib" | "main" | "cli" | "tests") {
            continue;
        }
        let Some(own) = layer_of(module) else {
            violations.push(format!(
                "{}: module {module} is in no layer of this test",
                rel.display()
            ));
            continue;
        };
        checked += 1;
        let text = fs::read_to_string(file).expect("a readable source file");
        // Unit tests may check against higher layers (e.g. generated puzzles).
        let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        for name in imports(text) {
            if name == module || PAIRED_PEERS.contains(&(module, name.as_str())) {
                continue;
            }
            match layer_of(&name) {
                Some(l) if l < own => {}
                Some(_) => violations.push(format!(
                    "{}: {module} (layer {own}) imports {name} (layer {})",
                    rel.display(),
                    layer_of(&name).unwrap_or(0)
                )),
                // A re-export of lib.rs (`crate::Engines`) hides the layer of
                // the module it comes from: inside the library, name the module.
                None => violations.push(format!(
                    "{}: {module} imports {name} through the crate root (name its module)",
                    rel.display()
                )),
            }
        }
    }
    assert!(checked > 50, "only {checked} files checked");
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_check_sees_imports() {
    let text = "use crate::score::Score;\n// crate::report in a comment\nuse crate::{human::Model, grid};\nlet x = crate::eval::f(); // crate::cli\nuse crate::{Count, Status};";
    let found: Vec<String> = imports(text).into_iter().collect();
    assert_eq!(found, ["Count", "Status", "eval", "grid", "human", "score"]);
    // Names that are no module are crate-root imports: the test refuses them.
    assert!(found.iter().filter(|n| layer_of(n).is_none()).count() == 2);
}
