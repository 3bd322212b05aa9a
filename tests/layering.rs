//! The library's modules form layers (`docs/architecture.md`): each imports
//! only modules of lower layers, so there is no circle and nothing reaches
//! back up. This test reads every source file under `src/` (`lib.rs`, which
//! re-exports the public API, sits on top; the binary's `main.rs` and the
//! command line in `cli/` are no part of the library) and fails on an import
//! of a module at the same layer or above (unit-test modules and the tests
//! of internals in `src/tests/`, which may check a module against a higher
//! one, are left out). An import of a name lib.rs re-exports
//! (`crate::Status`) hides its module's layer and fails too.
//!
//! The command line is a client of the library: the library never names it
//! (no `mod cli`, no `cli::` path, no `cli` feature), `cli/` is mounted by
//! `main.rs` alone, and the command line reaches the library only through
//! its public face (`sudolab::NAME`, never `sudolab::module::…`).

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

/// Lines of `text` outside comments.
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim_start)
        .filter(|l| !l.starts_with("//"))
        .map(|l| l.split("//").next().unwrap_or(""))
}

/// The files of the library (every file under `src/` but `main.rs` and
/// `cli/`) that name the command line, with the line.
fn library_mentions_of_cli(src: &Path, files: &[PathBuf]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src/");
        if rel.starts_with("cli") || rel == Path::new("main.rs") {
            continue;
        }
        let text = fs::read_to_string(file).expect("a readable source file");
        for line in text.lines() {
            let named = line.contains("mod cli")
                || line.contains("cli::")
                || line.contains("cli/")
                || line.contains("feature = \"cli\"");
            if named {
                found.push(format!("{}: {}", rel.display(), line.trim()));
            }
        }
    }
    found
}

#[test]
fn the_library_never_names_the_command_line() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let found = library_mentions_of_cli(&src, &files);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_command_line_is_mounted_by_main_alone() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let main = fs::read_to_string(src.join("main.rs")).expect("src/main.rs");
    assert!(
        code_lines(&main).any(|l| l.trim() == "mod cli;"),
        "src/main.rs declares `mod cli;`"
    );
    assert!(
        src.join("cli/mod.rs").is_file(),
        "the command line lives in src/cli/"
    );
    let lib = fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    assert!(
        !code_lines(&lib).any(|l| l.contains("mod cli")),
        "src/lib.rs declares no `cli` module"
    );
}

#[test]
fn the_command_line_uses_only_the_public_face() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("cli"), &mut files);
    files.push(src.join("main.rs"));
    assert!(
        files.len() > 20,
        "only {} files of the command line",
        files.len()
    );
    let modules: Vec<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    let mut violations = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("a readable source file");
        for line in code_lines(&text) {
            let mut rest = line;
            while let Some(at) = rest.find("sudolab::") {
                let after = &rest[at + "sudolab::".len()..];
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if modules.contains(&name.as_str()) && after[name.len()..].starts_with("::") {
                    violations.push(format!(
                        "{}: sudolab::{name}::…",
                        file.strip_prefix(&src).expect("under src/").display()
                    ));
                }
                rest = after;
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_checks_see_the_command_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let src = dir.path();
    fs::create_dir_all(src.join("grid")).expect("a folder");
    fs::create_dir_all(src.join("cli")).expect("a folder");
    let named = src.join("grid/mod.rs");
    fs::write(&named, "use crate::cli::text;\n").expect("a file");
    let commented = src.join("grid/parse.rs");
    fs::write(&commented, "//! The `sudolab` binary parses.\n").expect("a file");
    let own = src.join("cli/mod.rs");
    fs::write(&own, "use crate::cli::text;\n").expect("a file");
    let found = library_mentions_of_cli(src, &[named, commented, own]);
    assert_eq!(found, ["grid/mod.rs: use crate::cli::text;"]);
}
