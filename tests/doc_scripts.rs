//! The scripts that write the docs' figures (`docs/*.sh`) still run: each
//! runs on a sample of its data (`SAMPLE=N`, every N-th puzzle) with this
//! build's binary (`SUDOLAB_BIN`), writing into a temporary directory
//! (`DOCS_OUT`) so the committed docs and `src/score/model.json` are left
//! alone. A change in the code that breaks a script, or a column a script
//! reads, fails here; the figures themselves change only when a script is
//! rerun in full and its output committed.
//!
//! The scripts read `../shared/data` (never copied into the repository) and
//! need `bash`, `python3` and `jq`: without them a test prints a note and passes,
//! unless `CI` is set (see `common::skip`).

use crate::common;

use std::path::Path;
use std::process::Command;

/// Runs `docs/SCRIPT` on every `sample`-th puzzle; returns the output directory.
fn run_script(script: &str, sample: u32, data: &[&str]) -> Option<tempfile::TempDir> {
    run_script_with(script, sample, data, &[])
}

/// [`run_script`] with more environment variables.
fn run_script_with(
    script: &str,
    sample: u32,
    data: &[&str],
    env: &[(&str, &str)],
) -> Option<tempfile::TempDir> {
    if !common::external_tool("bash")
        || !common::external_tool("python3")
        || !common::external_tool("jq")
    {
        return None;
    }
    for rel in data {
        common::shared_data_path(rel)?;
    }
    let out = tempfile::tempdir().expect("temporary directory");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let result = Command::new("bash")
        .arg(root.join("docs").join(script))
        .current_dir(root)
        .env("SAMPLE", sample.to_string())
        .env("DOCS_OUT", out.path())
        .env("SUDOLAB_BIN", env!("CARGO_BIN_EXE_sudolab"))
        .env("SUDOLAB_DATA", common::data_dir())
        .envs(env.iter().copied())
        .output()
        .expect("bash runs");
    assert!(
        result.status.success(),
        "docs/{script} failed ({}):\n{}",
        result.status,
        String::from_utf8_lossy(&result.stderr)
    );
    // What the script printed, for the scripts that print their tables.
    std::fs::write(out.path().join("stdout.md"), &result.stdout).expect("a temporary file");
    Some(out)
}

fn read(dir: &tempfile::TempDir, name: &str) -> String {
    let path = dir.path().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn papers_script_writes_every_section() {
    let Some(out) = run_script(
        "papers.sh",
        40,
        &[
            "website-projectpatti/patti.tsv",
            "website-nyt/nyt.tsv",
            "website-krazydad/krazydad.tsv",
            "human-cloudsudoku-train/cloudsudoku_train.tsv",
            "se-ratings-sukakuexplainer/se_ratings.tsv",
            "se-sudokuexchange/diabolical_se.tsv",
            "se-ratings-hard/top1465_se_train.tsv",
            "se-ratings-17clue/royle17_ser_train.tsv",
        ],
    ) else {
        return;
    };
    let md = read(&out, "papers.md");
    assert!(
        md.contains("| published ER | puzzles | ours = published |"),
        "{md}"
    );
    assert!(md.contains("**Sample run: every 40th puzzle only"), "{md}");
    for section in 1..=11 {
        assert!(
            md.contains(&format!("\n## {section}. ")),
            "section {section}:\n{md}"
        );
    }
    // The paper's own arithmetic does not depend on the sample.
    assert!(md.contains("1449.9"), "{md}");
    assert!(md.contains("needs `αN̄ + βH̄` = 13.47"), "{md}");
    // The famous puzzles are not sampled: seed 0 gives the documented means.
    assert!(md.contains("| Platinum Blonde | 1544 |"), "{md}");
    assert!(!md.contains("NaN") && !md.contains("None"), "{md}");
}

#[test]
fn evaluation_script_writes_its_tables() {
    let Some(out) = run_script("evaluation.sh", 30, &["website-projectpatti/patti.tsv"]) else {
        return;
    };
    let md = read(&out, "evaluation.md");
    assert!(md.contains("**Sample run: every 30th puzzle only"), "{md}");
    for heading in ["## (a)", "## (b)", "## (c)", "## (d)"] {
        assert!(md.contains(heading), "{heading}:\n{md}");
    }
    assert!(
        md.contains("### Extreme_Sudoku") && md.contains("nishio4_heuristic"),
        "{md}"
    );
}

#[test]
fn score_script_fits_a_model_outside_the_source_tree() {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/score/model.json");
    let before = std::fs::read(&model).expect("the shipped model");
    // Every 50th labelled puzzle, every 10th of the forum's anchors, and
    // the SE-rated puzzles of step 4 with serate's nesting levels bounded
    // (the forum's SE 11 puzzles take a minute each at the default budget);
    // SUDOLAB_FULL_TESTS=1 takes every anchor and the default budget.
    let sampled: &[(&str, &str)] = &[("ANCHOR_SAMPLE", "10"), ("SERATE_BUDGET", "5000")];
    let Some(out) = run_script_with(
        "score.sh",
        50,
        &[
            "se-ratings-sukakuexplainer/se_ratings.tsv",
            "website-nyt/nyt.tsv",
            "website-projectpatti/patti.tsv",
            "website-krazydad/krazydad.tsv",
            "qqwing-generated/qqwing_levels.tsv",
            "se-sudokuexchange/diabolical_se.tsv",
            "human-cloudsudoku-train/cloudsudoku_train.tsv",
        ],
        common::full_or(&[], sampled),
    ) else {
        return;
    };
    let fit = read(&out, "fit.txt");
    assert!(fit.contains("held out: qqwing"), "{fit}");
    let fitted: serde_json::Value =
        serde_json::from_str(&read(&out, "model.json")).expect("the fitted model is JSON");
    assert!(fitted.is_object());
    assert_eq!(
        std::fs::read(&model).unwrap(),
        before,
        "src/score/model.json changed"
    );
}

/// The outputs `docs/guide.md` shows are what today's binary prints
/// (`python3 docs/guide.py` rewrites them; a block needing what this machine
/// lacks, minisat or the shared data, is left as written).
#[test]
fn the_guide_shows_what_todays_binary_prints() {
    if !common::external_tool("python3") || !common::external_tool("bash") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let result = Command::new("python3")
        .arg(root.join("docs").join("guide.py"))
        .arg("--check")
        .current_dir(root)
        .env("SUDOLAB_BIN", env!("CARGO_BIN_EXE_sudolab"))
        .env("SUDOLAB_DATA", common::data_dir())
        .output()
        .expect("python3 runs");
    assert!(
        result.status.success(),
        "docs/guide.md is stale (python3 docs/guide.py rewrites it):\n{}\n{}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
}

/// `docs/berthier.sh` (papers.md §12) tabulates W and BxB beside the
/// published values, on two puzzles of each W value and one of each BxB
/// value, with the example binary `cargo test` built (`examples/berthier.rs`).
#[test]
fn berthier_script_writes_its_tables() {
    let bin = Path::new(env!("CARGO_BIN_EXE_sudolab"))
        .parent()
        .expect("the binary's folder")
        .join("examples")
        .join("berthier");
    if !bin.exists() {
        common::skip(
            &bin.display().to_string(),
            "cargo test builds the examples; cargo build --release --example berthier",
        );
        return;
    }
    let Some(out) = run_script_with(
        "berthier.sh",
        1,
        &[
            "berthier-ratings/royle17_w_train.tsv",
            "berthier-ratings/eleven_bxb_train.tsv",
        ],
        &[
            ("PER_W", "2"),
            ("PER_BXB", "1"),
            ("BERTHIER_BIN", bin.to_str().expect("a UTF-8 path")),
        ],
    ) else {
        return;
    };
    let md = read(&out, "stdout.md");
    for heading in ["| published W |", "| published BxB |", "| all |"] {
        assert!(md.contains(heading), "{heading}:\n{md}");
    }
    // Every sampled puzzle gets the published rating (the full lists are
    // checked by the berthier module's ignored tests).
    for line in md.lines().filter(|l| l.starts_with("| all |")) {
        assert!(line.ends_with("| 100.0 % |"), "{line}");
    }
}

/// Every command the guide runs (`$ …` lines) reads only what a fresh clone
/// has: the data it names are under `examples/` or `tests/`, never the
/// shared data sets beside the repository; and every sample of
/// `examples/data/` is described in its README.
#[test]
fn the_guides_commands_run_from_a_fresh_clone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/guide.md")).unwrap();
    for command in guide.lines().filter(|l| l.starts_with("$ ")) {
        assert!(
            !command.contains("shared/data"),
            "the guide runs a command a fresh clone cannot: {command}"
        );
        for word in command.split_whitespace() {
            if word.starts_with("examples/") || word.starts_with("tests/") {
                assert!(root.join(word).exists(), "{command}: no {word}");
            }
        }
    }
    let readme = std::fs::read_to_string(root.join("examples/data/README.md")).unwrap();
    for entry in std::fs::read_dir(root.join("examples/data")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".tsv") {
            assert!(
                readme.contains(&format!("`{name}`")),
                "{name} is not in examples/data/README.md"
            );
        }
    }
}
