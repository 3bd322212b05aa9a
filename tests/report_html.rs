//! `sudolab report` end to end, in a real browser: a puzzle report and a
//! data-set report are rendered, opened in headless Chromium (the DOM is
//! dumped and checked for the expected headings and numbers, the console
//! must stay silent) and screenshot to `<target>/report-screenshots/*.png`.
//! Without `chromium` on `PATH` the browser part is skipped with a note, or
//! fails when `CI` is set (`.ci/run` installs it).

use crate::common;

use common::{external_tool, sudolab_in};
use std::path::{Path, PathBuf};
use std::process::Command;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// Small sample counts: the numbers are checked for shape, not precision.
const FAST: [&str; 8] = [
    "--samples",
    "60",
    "--sweep",
    "0:40:10",
    "--sweep-samples",
    "30",
    "--runs",
    "2",
];

fn screenshot_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is <target>/tmp, whatever CARGO_TARGET_DIR says.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .map_or_else(|| PathBuf::from("target"), Path::to_path_buf)
        .join("report-screenshots");
    std::fs::create_dir_all(&dir).expect("create the screenshot folder");
    dir
}

/// What the page must not do: fetch anything, run any script.
fn assert_self_contained(html: &str) {
    for bad in ["<script", "<link", "src=\"", "@import", "url(", "<iframe"] {
        assert!(!html.contains(bad), "the page contains {bad:?}");
    }
    assert!(html.starts_with("<!DOCTYPE html>"));
}

/// Runs headless Chromium on `page` with `extra` arguments; returns stdout
/// and the console lines of its log (any console line is a failure: the
/// page has no script, so only an error would print one).
fn chromium(page: &Path, extra: &[&str]) -> (String, Vec<String>) {
    let profile = tempfile::tempdir().expect("a profile folder");
    let url = format!("file://{}", page.display());
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let console = stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(str::to_string)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), console)
}

/// Dumps the DOM (checked against `expected`), checks the console and
/// writes a screenshot named `name.png`.
fn check_in_browser(page: &Path, name: &str, expected: &[&str]) {
    if !external_tool("chromium") {
        return;
    }
    let (dom, console) = chromium(page, &["--dump-dom"]);
    assert!(console.is_empty(), "console messages: {console:#?}");
    for text in expected {
        assert!(dom.contains(text), "rendered DOM lacks {text:?}");
    }
    let png = screenshot_dir().join(format!("{name}.png"));
    let _ = std::fs::remove_file(&png);
    let shot = format!("--screenshot={}", png.display());
    let (_, console) = chromium(page, &[&shot, "--window-size=1200,3000"]);
    assert!(console.is_empty(), "console messages: {console:#?}");
    let bytes = std::fs::read(&png).expect("the screenshot is written");
    assert!(bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000);
}

#[test]
fn the_console_check_catches_a_script_error() {
    if !external_tool("chromium") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("bad.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><h1>x</h1><script>throw new Error('boom')</script>",
    )
    .unwrap();
    let (dom, console) = chromium(&page, &["--dump-dom"]);
    assert!(dom.contains("<h1>x</h1>"));
    assert!(
        console.iter().any(|l| l.contains("boom")),
        "an uncaught error must reach the log: {console:?}"
    );
}

#[test]
fn puzzle_report_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.txt"),
        format!("{EASY}\tWikipedia example\n"),
    )
    .unwrap();
    let mut args = vec!["report", "p.txt", "-o", "p.html"];
    args.extend(FAST);
    let (code, _, err) = sudolab_in(dir.path(), &args, b"");
    assert_eq!(code, 0, "{err}");
    let page = dir.path().join("p.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_self_contained(&html);
    assert!(html.contains("<svg"), "charts are inline SVG");

    // The same numbers as JSON: one report object.
    let mut args = vec!["report", "p.txt", "-f", "json"];
    args.extend(FAST);
    let (code, out, err) = sudolab_in(dir.path(), &args, b"");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let p = &v["puzzles"][0];
    assert_eq!(p["label"], "Wikipedia example");
    assert_eq!(p["engines"]["agree"], true);
    assert_eq!(p["engines"]["answers"].as_array().unwrap().len(), 3);
    assert_eq!(p["relax"]["k"], 45);
    assert_eq!(p["relax"]["fixedness"].as_array().unwrap().len(), 81);
    assert_eq!(p["sweep"]["points"].as_array().unwrap().len(), 5);
    let encodings: Vec<&str> = p["clauses"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["encoding"].as_str())
        .collect();
    assert_eq!(encodings, ["min", "max"]);
    let hsolve = p["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == "hsolve")
        .expect("an hsolve rating");
    let pct = hsolve["percentile"].as_f64().expect("a percentile");
    assert!((0.0..=100.0).contains(&pct));
    // The score's rows, with the flag of a puzzle inside the fitting data.
    let score_row = |metric: &str| {
        p["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["model"] == "score" && r["metric"] == metric)
            .unwrap_or_else(|| panic!("a score row {metric}"))
            .clone()
    };
    assert_eq!(score_row("extrapolated")["value"], 0.0);
    assert!(score_row("se_equivalent")["value"].as_f64().unwrap() < 3.0);
    assert!(
        html.contains("1.0–11.9"),
        "the page says what the SE scale is"
    );
    assert_eq!(p["path_status"], "solved by the techniques alone");
    let steps = p["path"].as_array().unwrap().len();
    assert_eq!(steps, 81 - 30, "one placement per empty cell");

    let fit = &p["sweep"]["fit"];
    let lambda = format!("λ = {:.3}", fit["lambda"].as_f64().unwrap());
    check_in_browser(
        &page,
        "puzzle",
        &[
            "Puzzle 1: Wikipedia example",
            "Fixedness heatmap",
            "Clause-length histogram",
            "Relaxation sweep (Pelánek Fig. 8)",
            &lambda,
            "Ratings and reference percentiles",
            "All engines agree.",
            "re-analyzed by dlx, sat",
            &format!("Solving path ({steps} steps)"),
        ],
    );
}

#[test]
fn dataset_report_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    // Embedded examples as a data set, labelled by their order of difficulty
    // in the example file (Fletcher's four levels first).
    let (code, out, err) = sudolab_in(
        dir.path(),
        &[
            "analyze",
            "--metrics",
            "clauses,relax,rate:nishio,weights,hsolve",
            "--samples",
            "40",
            "-f",
            "jsonl",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let labelled: String = out
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["rank"] = serde_json::json!(i + 1);
            format!("{v}\n")
        })
        .collect();
    std::fs::write(dir.path().join("results.jsonl"), labelled).unwrap();
    let (code, _, err) = sudolab_in(
        dir.path(),
        &["report", "results.jsonl", "--label", "rank", "-o", "d.html"],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let page = dir.path().join("d.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_self_contained(&html);

    let (code, out, err) = sudolab_in(
        dir.path(),
        &["report", "results.jsonl", "--label", "rank", "-f", "json"],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d = &v["dataset"];
    assert_eq!(d["rows"], 11);
    assert_eq!(d["labelled"], 11);
    let names: Vec<&str> = d["correlation"]["names"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert_eq!(names.last(), Some(&"label: rank"));
    assert!(names.contains(&"nishio4") && names.contains(&"short_pct"));
    let n = names.len();
    let rho = d["correlation"]["rho"].as_array().unwrap();
    assert_eq!(rho.len(), n);
    for (i, row) in rho.iter().enumerate() {
        let diagonal = row[i].as_f64().unwrap_or(f64::NAN);
        assert!(
            (diagonal - 1.0).abs() < 1e-9,
            "diagonal of {}: {diagonal}",
            names[i]
        );
    }
    assert_eq!(d["scatter"].as_array().unwrap().len(), n - 1);
    let classes = d["classes"].as_array().unwrap();
    let short = classes.iter().find(|c| c["metric"] == "short_pct").unwrap();
    assert_eq!(short["direction"], "lower-is-harder");
    let total: u64 = short["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c[2].as_u64().unwrap())
        .sum();
    assert_eq!(total, 11);
    // The famous hard puzzles saturate at k = 45 (their maps say so one by
    // one); the data set says how many.
    let sat = &d["saturation"];
    assert_eq!(sat["relaxed"], 11, "{sat}");
    let saw_nothing = sat["saw_nothing"].as_u64().unwrap();
    assert_eq!(saw_nothing, 7, "{sat}");
    assert!(
        html.contains(&format!("{saw_nothing} of 11 relaxed rows")),
        "the page names the share"
    );

    check_in_browser(
        &page,
        "dataset",
        &[
            "Data set",
            "11 rows from",
            "Metric histograms",
            "Spearman correlations",
            "label: rank",
            "Metrics against the label",
            "Universal Easy / Medium / Hard",
            "relaxed rows",
        ],
    );
}

#[test]
fn report_refuses_csv_and_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = sudolab_in(dir.path(), &["report", "-f", "csv"], b"");
    assert_eq!(code, 1);
    assert!(err.contains("not csv"), "{err}");
    let (code, _, err) = sudolab_in(dir.path(), &["report", "--sweep", "9:1:1"], b"");
    assert_eq!(code, 1);
    assert!(err.contains("--sweep"), "{err}");
    let (code, _, err) = sudolab_in(dir.path(), &["report", "--runs", "0"], b"");
    assert_eq!(code, 1);
    assert!(err.contains("runs"), "{err}");
}

#[test]
fn puzzles_as_a_data_set_and_a_reference_file() {
    let dir = tempfile::tempdir().unwrap();
    let examples: Vec<&str> = include_str!("../examples/puzzles.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(4)
        .collect();
    std::fs::write(dir.path().join("four.txt"), examples.join("\n") + "\n").unwrap();
    let (code, out, err) = sudolab_in(
        dir.path(),
        &[
            "report",
            "four.txt",
            "--dataset",
            "--samples",
            "20",
            "-f",
            "json",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["puzzles"].as_array().unwrap().len(), 0);
    assert_eq!(v["dataset"]["rows"], 4);
    let metrics: Vec<&str> = v["dataset"]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["metric"].as_str())
        .collect();
    for m in [
        "short_pct",
        "mean_fixed",
        "hsolve",
        "nishio4",
        "weights_score",
    ] {
        assert!(metrics.contains(&m), "{m} missing from {metrics:?}");
    }
    assert!(
        !metrics
            .iter()
            .any(|m| m.ends_with("_sd") || m.starts_with("params."))
    );

    // The same rows as a reference: the first puzzle's givens rank among them.
    let (code, out, err) = sudolab_in(
        dir.path(),
        &[
            "analyze",
            "four.txt",
            "--metrics",
            "rate:baseline",
            "-f",
            "jsonl",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    std::fs::write(dir.path().join("ref.jsonl"), out).unwrap();
    let mut args = vec![
        "report",
        "four.txt",
        "--max-puzzles",
        "4",
        "--reference",
        "ref.jsonl",
        "-f",
        "json",
    ];
    args.extend(FAST);
    let (code, out, err) = sudolab_in(dir.path(), &args, b"");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["reference"], "ref.jsonl (4 rows)");
    let puzzles = v["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 4);
    for p in puzzles {
        let ratings = p["ratings"].as_array().unwrap();
        let givens = ratings.iter().find(|r| r["metric"] == "givens").unwrap();
        assert!(givens["percentile"].as_f64().is_some());
        let hsolve = ratings.iter().find(|r| r["metric"] == "hsolve").unwrap();
        assert!(hsolve["percentile"].is_null(), "not in this reference");
    }
}

/// Two puzzles, small sample counts.
fn two_puzzles() -> Vec<sudolab::Puzzle> {
    sudolab::Puzzle::examples().into_iter().take(2).collect()
}

#[test]
fn report_draws_its_own_json_again_without_computing() {
    let dir = tempfile::tempdir().unwrap();
    let two: Vec<String> = two_puzzles()
        .iter()
        .map(|p| format!("{}\t{}", p.to_line(), p.label.clone().unwrap_or_default()))
        .collect();
    std::fs::write(dir.path().join("two.txt"), two.join("\n") + "\n").unwrap();
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(FAST);
        let (code, out, err) = sudolab_in(dir.path(), &all, b"");
        assert_eq!(code, 0, "{args:?}: {err}");
        out
    };
    let page = run(&["report", "two.txt"]);
    assert!(page.matches("<h2").count() >= 2, "two puzzle sections");
    for format in ["json", "jsonl"] {
        let numbers = run(&["report", "two.txt", "-f", format]);
        let file = format!("two.{format}");
        std::fs::write(dir.path().join(&file), &numbers).unwrap();
        assert_eq!(run(&["report", &file]), page, "{format}");
        // Read back, the numbers are written again unchanged.
        assert_eq!(run(&["report", &file, "-f", format]), numbers, "{format}");
    }

    // What the page shows comes from the file, not from a computation.
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("two.json")).unwrap())
            .unwrap();
    v["puzzles"][1]["path_status"] = "read from the file".into();
    std::fs::write(dir.path().join("edited.txt"), v.to_string()).unwrap();
    let edited = run(&["report", "edited.txt", "--title", "Edited"]);
    assert!(edited.contains("read from the file"));
    assert!(edited.contains("<title>Edited</title>"));

    // A data-set report reads back too.
    let rows: String = (1..=12)
        .map(|i| {
            format!(
                "{{\"line\":{i},\"a\":{},\"b\":{},\"rank\":{i}}}\n",
                i * i,
                0.1 / f64::from(i)
            )
        })
        .collect();
    std::fs::write(dir.path().join("rows.jsonl"), rows).unwrap();
    let page = run(&["report", "rows.jsonl", "--label", "rank"]);
    let numbers = run(&["report", "rows.jsonl", "--label", "rank", "-f", "jsonl"]);
    std::fs::write(dir.path().join("d.jsonl"), numbers).unwrap();
    assert_eq!(run(&["report", "d.jsonl"]), page);

    // A report's fields with values that are no report's are an error.
    std::fs::write(
        dir.path().join("bad.json"),
        "{\"title\":1,\"reference\":\"\",\"puzzles\":[],\"dataset\":null,\"options\":{}}",
    )
    .unwrap();
    let (code, _, err) = sudolab_in(dir.path(), &["report", "bad.json"], b"");
    assert_eq!(code, 1);
    assert!(err.contains("bad.json"), "{err}");
}

/// The first puzzle of the forum's list rated SE 11.0 or more (its time is
/// above every Cloud Sudoku puzzle's).
const FORUM_11: &str =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

#[test]
fn score_flags_are_words_on_the_page() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.txt"),
        format!("{EASY}\tWikipedia example\n{FORUM_11}\tforum SE 11+\n"),
    )
    .unwrap();
    let mut args = vec!["report", "p.txt", "-f", "json", "-o", "p.json"];
    args.extend(FAST);
    let (code, _, err) = sudolab_in(dir.path(), &args, b"");
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = sudolab_in(dir.path(), &["report", "p.json", "-o", "p.html"], b"");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("p.json")).unwrap()).unwrap();
    let html = std::fs::read_to_string(dir.path().join("p.html")).unwrap();
    let sections: Vec<&str> = html.split("id=\"puzzle-").skip(1).collect();
    assert_eq!(sections.len(), 2);
    let flag = |i: usize, metric: &str| -> f64 {
        v["puzzles"][i]["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["model"] == "score" && r["metric"] == metric)
            .and_then(|r| r["value"].as_f64())
            .unwrap_or_else(|| panic!("puzzle {i}: a value of {metric}"))
    };
    // The numbers keep 1/0; the page says yes/no, each as the numbers say.
    assert_eq!(flag(0, "extrapolated"), 0.0);
    assert_eq!(flag(0, "minutes_extrapolated"), 0.0);
    assert_eq!(flag(1, "minutes_extrapolated"), 1.0);
    for (i, section) in sections.iter().enumerate() {
        for metric in ["extrapolated", "minutes_extrapolated"] {
            let word = if flag(i, metric) == 1.0 { "yes" } else { "no" };
            let cell =
                format!("<td>{metric}</td><td><span class=\"flag {word}\">{word}</span></td>");
            assert!(
                section.contains(&cell),
                "puzzle {i}: {metric} is not {word:?}"
            );
            let number = format!("<td>{metric}</td><td class=\"num\">");
            assert!(
                !section.contains(&number),
                "puzzle {i}: {metric} as a number"
            );
        }
    }
    check_in_browser(
        &dir.path().join("p.html"),
        "score-flags",
        &[
            "<span class=\"flag yes\">yes</span>",
            "<span class=\"flag no\">no</span>",
        ],
    );
}
