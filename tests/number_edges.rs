//! Numbers at the edges: intervals that contain their estimate,
//! a precision that was not reached said so, readable huge numbers.

use crate::common;

use common::sudolab;

const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
const ESCARGOT: &str =
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";

fn one_row(out: &str) -> serde_json::Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// `relax` of a solved grid at k = 0: every sample is unique, and the Wilson
/// interval of P(unique) ends at exactly 1; at a k where no sample is unique
/// it starts at exactly 0.
#[test]
fn p_unique_bounds_contain_p_unique() {
    let (code, out, err) = sudolab(
        &["relax", "-", "--k", "0", "--samples", "50", "-f", "jsonl"],
        &format!("{SOLVED}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let r = one_row(&out);
    assert_eq!(r["p_unique"], 1.0, "{r}");
    assert_eq!(r["p_unique_high"], 1.0, "{r}");
    let (code, out, err) = sudolab(
        &["relax", "-", "--k", "200", "--samples", "30", "-f", "jsonl"],
        &format!("{ESCARGOT}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let r = one_row(&out);
    assert_eq!(r["p_unique"], 0.0, "{r}");
    assert_eq!(r["p_unique_low"], 0.0, "{r}");
}

/// `--precision` with too few `--samples`: the row says it was not reached
/// and the text says so under the map; reached, the field is true.
#[test]
fn an_unreached_precision_is_said() {
    let input = format!("{ESCARGOT}\n");
    let args = [
        "relax",
        "-",
        "--k",
        "30",
        "--precision",
        "0.001",
        "--samples",
        "40",
    ];
    let (code, out, err) = sudolab(&[&args[..], &["-f", "jsonl"]].concat(), &input);
    assert_eq!(code, 0, "{err}");
    let r = one_row(&out);
    assert_eq!(r["samples"], 40, "{r}");
    assert_eq!(r["precision_reached"], false, "{r}");
    let (code, out, err) = sudolab(&args, &input);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("the precision ±0.001 cells was not reached within 40 samples"),
        "{out}"
    );
    let (code, out, err) = sudolab(
        &[
            "relax",
            "-",
            "--k",
            "30",
            "--precision",
            "50",
            "-f",
            "jsonl",
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    let r = one_row(&out);
    assert_eq!(r["precision_reached"], true, "{r}");
    assert_eq!(r["samples"], 30, "{r}");
    let (code, out, _) = sudolab(
        &["relax", "-", "--k", "30", "--samples", "5", "-f", "jsonl"],
        &input,
    );
    assert_eq!(code, 0);
    assert!(one_row(&out).get("precision_reached").is_none(), "{out}");
}

/// `analyze --precision` says so too: its row carries
/// `precision_reached` (false at the samples cap, true when reached, absent
/// without a precision) and the text table a note naming the lines.
#[test]
fn analyze_says_an_unreached_precision() {
    let input = format!("{ESCARGOT}\n");
    let args = [
        "analyze",
        "-",
        "--metrics",
        "relax",
        "--k",
        "30",
        "--precision",
        "0.001",
        "--samples",
        "40",
    ];
    let (code, out, err) = sudolab(&[&args[..], &["-f", "jsonl"]].concat(), &input);
    assert_eq!(code, 0, "{err}");
    let r = one_row(&out);
    assert_eq!(
        (r["samples"].clone(), r["precision_reached"].clone()),
        (40.into(), false.into()),
        "{r}"
    );
    let (code, out, err) = sudolab(&args, &input);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "NOTE: line(s) 1: the precision ±0.001 cells was not reached within 40 samples"
        ),
        "{out}"
    );
    let mut reached = args.to_vec();
    reached[7] = "50";
    let (code, out, err) = sudolab(&[&reached[..], &["-f", "jsonl"]].concat(), &input);
    assert_eq!(code, 0, "{err}");
    let r = one_row(&out);
    assert_eq!(
        (r["samples"].clone(), r["precision_reached"].clone()),
        (30.into(), true.into()),
        "{r}"
    );
    let (_, out, _) = sudolab(
        &[
            "analyze",
            "-",
            "--metrics",
            "relax",
            "--samples",
            "5",
            "-f",
            "jsonl",
        ],
        &input,
    );
    assert!(one_row(&out).get("precision_reached").is_none(), "{out}");
}

/// `classify` of a column near 1e200: its edges and class ranges print in
/// scientific notation, not as 200-digit integers.
#[test]
fn huge_values_print_readably() {
    let dir = tempfile::tempdir().unwrap();
    let rows: String = (0..40)
        .map(|i| {
            format!(
                "{{\"label\":\"x {}\",\"big\":{:e}}}\n",
                i % 3,
                (1.0 + i as f64) * 1e200
            )
        })
        .collect();
    std::fs::write(dir.path().join("r.jsonl"), rows).unwrap();
    let (code, out, err) = common::sudolab_in(
        dir.path(),
        &[
            "classify", "r.jsonl", "--metric", "big", "--label", "label:2",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("edges [1.4e201, 2.7e201]"), "{out}");
    assert!(!out.contains("0000000000000000"), "{out}");
}

/// `classify`'s group means of values near f64::MAX are their means, not
/// the infinity their sum overflows to, and their class is the one the
/// mean falls in.
#[test]
fn group_means_near_the_largest_number_are_finite() {
    let dir = tempfile::tempdir().unwrap();
    // Group g holds 10 values (g + 1)·4e307 (sums up to 1.2e309).
    let rows: String = (0..30)
        .map(|i| {
            let g = i % 3;
            format!(
                "{{\"label\":\"x {g}\",\"big\":{:e}}}\n",
                (1.0 + g as f64) * 4e307
            )
        })
        .collect();
    std::fs::write(dir.path().join("r.jsonl"), rows).unwrap();
    let (code, out, err) = common::sudolab_in(
        dir.path(),
        &[
            "classify", "r.jsonl", "--metric", "big", "--label", "label:2", "-f", "json",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let groups = report["groups"].as_array().unwrap();
    let expected = [
        ("0", 4e307, "easy"),
        ("1", 8e307, "medium"),
        ("2", 1.2e308, "hard"),
    ];
    assert_eq!(groups.len(), expected.len(), "{out}");
    for (g, (name, mean, class)) in groups.iter().zip(expected) {
        assert_eq!(
            (g["group"].as_str(), g["class_of_mean"].as_str()),
            (Some(name), Some(class)),
            "{g}"
        );
        let got = g["mean"].as_f64().unwrap_or(f64::NAN);
        assert!((got - mean).abs() <= mean * 1e-12, "{g}");
    }
}

/// Serate's nesting levels 3–5 run within `--serate-budget`: "over budget"
/// past it, never a silent number; off with budget 0 ("needs search", as
/// before they existed). Golden Nugget's first step is a level-3 chain
/// (within the default budget `tests/score.rs` rates it at the top of SE's
/// scale).
#[test]
fn serate_says_when_its_budget_ran_out() {
    let input =
        ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....\n";
    let status = |extra: &[&str]| {
        let args = [
            &["rate", "-", "-m", "serate", "--no-score", "-f", "jsonl"],
            extra,
        ]
        .concat();
        let (code, out, err) = sudolab(&args, input);
        assert_eq!(code, 0, "{err}");
        let r = one_row(&out);
        assert!(r["serate"].is_null(), "{r}");
        r["status"]["serate"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(status(&["--serate-budget", "0"]), "needs search");
    assert_eq!(status(&["--serate-budget", "1000"]), "over budget");
}

/// `rate --explain -m serate` prints Sudoku Explainer's path: each step with
/// its SE rating and rule, then ER, EP and ED. SE 1.2.1.3 (`serate
/// --format='%r %p %d'`) rates this 17-clue puzzle ER 8.3, EP 1.2, ED 1.2;
/// its first step is a hidden single in a box (1.2), its hardest region
/// forcing chains (multiple forcing chains, 8.0 + length).
#[test]
fn explain_with_serate_prints_ses_path() {
    let input =
        "..............1..2..3..4.5......3....16...7..7.......8....6.3......9.4..2..7.....\n";
    let (code, out, err) = sudolab(&["rate", "-", "-m", "serate", "--explain"], input);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| !l.is_empty()).collect();
    assert!(
        lines[1].starts_with(" 1. 1.2, hidden single (box): "),
        "{out}"
    );
    assert!(
        lines.last().unwrap().ends_with("; ER 8.3, EP 1.2, ED 1.2"),
        "{out}"
    );
    assert!(out.contains(", multiple forcing chain: "), "{out}");
    // As rows: the steps' ratings, whose largest is ER.
    let (code, out, err) = sudolab(
        &["rate", "-", "-m", "serate", "--explain", "-f", "json"],
        input,
    );
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let row = &rows[0];
    let max = row["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["rating"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!((max, row["serate"].as_f64().unwrap()), (8.3, 8.3));
    assert_eq!(row["status"]["kind"], "solved");
}

/// `rate --explain` without `-m`: the technique catalogue has no chains, so
/// on AI Escargot (an embedded example; the forum's list and SE 1.2.1.3 rate
/// it ER 10.5) it is stuck after one hidden single, and Sudoku Explainer's
/// whole path follows, to ER 10.5; as JSON, under `serate_path`.
#[test]
fn explain_goes_on_with_ses_path_where_the_catalogue_is_stuck() {
    let input =
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..\n";
    let (code, out, err) = sudolab(&["rate", "-", "--explain"], input);
    assert_eq!(code, 0, "{err}");
    let (catalogue, se) = out
        .split_once("Sudoku Explainer's path (rate -m serate --explain)")
        .unwrap_or_else(|| panic!("no SE path after the stuck catalogue:\n{out}"));
    assert!(
        catalogue.contains("stuck after 1 step: needs search"),
        "{out}"
    );
    let numbered = se
        .lines()
        .filter(|l| {
            l.trim_start()
                .split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .count();
    assert!(numbered > 20, "{numbered} SE steps:\n{out}");
    assert!(
        se.trim_end().ends_with("; ER 10.5, EP 1.2, ED 1.2"),
        "{out}"
    );
    let (code, out, err) = sudolab(&["rate", "-", "--explain", "-f", "json"], input);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["status"]["kind"], "needs_search");
    assert_eq!(rows[0]["serate_path"]["serate"], 10.5);
    // A puzzle the catalogue solves carries no SE path.
    let easy =
        "....2..48.....536....13....7..3.....69....5.75....2.8..675...9.8..97641..452.....\n";
    let (code, out, err) = sudolab(&["rate", "-", "--explain", "-f", "json"], easy);
    assert_eq!(code, 0, "{err}");
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["status"]["kind"], "solved");
    assert!(rows[0].get("serate_path").is_none(), "{out}");
    // `-m weights` asks for the catalogue's path alone.
    let (code, out, err) = sudolab(&["rate", "-", "--explain", "-m", "weights"], input);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("stuck after 1 step") && !out.contains(" 1. 1.2, "),
        "{out}"
    );
    assert!(
        out.contains("(rate -m serate --explain shows Sudoku Explainer's path"),
        "{out}"
    );
}
