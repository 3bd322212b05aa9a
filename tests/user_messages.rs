//! What a user meets: `--k auto` in every command that takes a
//! `k`, the legend under the relaxation's text, the report's notes and
//! percentiles, the hints of `generate --level`, `clauses --summary`,
//! `decode --puzzle FILE` and the short `relax -h`.

use crate::common;

use common::sudolab;

const ESCARGOT: &str =
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
const CINCH: &str =
    "....2..48.....536....13....7..3.....69....5.75....2.8..675...9.8..97641..452.....";

fn one_row(out: &str) -> serde_json::Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The onset `relax --k auto` finds for AI Escargot with `samples`.
fn escargot_onset(samples: &str) -> u64 {
    let (code, out, err) = sudolab(
        &[
            "relax",
            "-",
            "--k",
            "auto",
            "--samples",
            samples,
            "-f",
            "jsonl",
        ],
        &format!("{ESCARGOT}\n"),
    );
    assert_eq!(code, 0, "{err}");
    one_row(&out)["k"].as_u64().unwrap()
}

/// `analyze --k auto` relaxes each puzzle at the onset `relax --k auto`
/// finds, records it in the row's `k` (and `relaxation_onset_k`) and `auto`
/// in its params; the text table shows the k and ends with the legend.
#[test]
fn analyze_k_auto_records_the_resolved_k() {
    let k0 = escargot_onset("40");
    assert!((5..45).contains(&k0), "{k0}");
    let input = format!("{ESCARGOT}\n{CINCH}\n");
    let args = [
        "analyze",
        "-",
        "--metrics",
        "relax",
        "--k",
        "auto",
        "--samples",
        "40",
    ];
    let (code, out, err) = sudolab(&[&args[..], &["-f", "jsonl"]].concat(), &input);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = out.lines().map(one_row).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["k"], k0, "{}", rows[0]);
    assert_eq!(rows[0]["relaxation_onset_k"], k0);
    assert_eq!(rows[0]["params"]["k"], "auto");
    // Each puzzle its own: the easy Cinch relaxes later than Escargot.
    let k_cinch = rows[1]["k"].as_u64().unwrap();
    assert_eq!(rows[1]["relaxation_onset_k"], k_cinch);
    assert!(k_cinch > k0, "{k_cinch} vs {k0}");
    let (code, text, err) = sudolab(&args, &input);
    assert_eq!(code, 0, "{err}");
    let header = text.lines().next().unwrap();
    assert!(header.split_whitespace().any(|h| h == "k"), "{text}");
    assert!(text.contains(&format!(" {k0} ")), "{text}");
    assert!(text.contains("Legend (docs/relaxation.md)"), "{text}");
    // A k that is neither is refused by name.
    let (code, _, err) = sudolab(&["analyze", "-", "--k", "many"], &input);
    assert_eq!(code, 64, "{err}");
    assert!(err.contains("expected a number of edges or auto"), "{err}");
}

/// `report --k auto` (once `invalid digit found in string`) relaxes the
/// heatmap at the onset and records `auto` in its options; the relaxation's
/// percentiles are left out with a note (the reference relaxed at 45), the
/// score's and serate's are filled from the embedded reference.
#[test]
fn report_k_auto_and_the_score_percentiles() {
    let k0 = escargot_onset("30");
    let (code, out, err) = sudolab(
        &[
            "report",
            "-",
            "--k",
            "auto",
            "--samples",
            "30",
            "--sweep",
            "0:10:10",
            "--sweep-samples",
            "5",
            "--verify",
            "1",
            "-f",
            "json",
        ],
        &format!("{ESCARGOT}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let r = one_row(&out);
    assert_eq!(r["options"]["k"], "auto");
    let p = &r["puzzles"][0];
    assert_eq!(p["relax"]["k"], k0, "{}", p["relax"]);
    assert_eq!(p["relax"]["relaxation_onset_k"], k0);
    let notes = p["notes"].to_string();
    assert!(
        notes.contains(&format!(
            "the reference relaxed at k = 45, this puzzle at k = {k0}"
        )),
        "{notes}"
    );
    let pct = |metric: &str| {
        p["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["metric"] == metric)
            .unwrap_or_else(|| panic!("no {metric}"))["percentile"]
            .clone()
    };
    assert_eq!(pct("mean_fixed"), serde_json::Value::Null);
    for metric in ["score", "se_equivalent", "serate", "fowler", "trial_rating"] {
        let q = pct(metric).as_f64();
        // AI Escargot is among the hardest of the SE-rated sample.
        assert!(q.is_some_and(|q| q > 90.0), "{metric}: {q:?}");
    }
}

/// A map that shows 0 % on every empty cell says so on the page and
/// offers `--k auto`.
#[test]
fn report_says_when_a_map_is_all_zero() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("p.html");
    let (code, _, err) = sudolab(
        &[
            "report",
            "-",
            "--k",
            "300",
            "--samples",
            "10",
            "--sweep",
            "0:10:10",
            "--sweep-samples",
            "5",
            "--verify",
            "1",
            "-o",
            page.to_str().unwrap(),
        ],
        &format!("{ESCARGOT}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("Every empty cell is fixed in 0 % of the samples"),
        "no all-zero note"
    );
    assert!(html.contains("<code>sudolab report --k auto</code>"));
}

/// The relaxation's text ends with one legend naming k, fixed, mean extra
/// and capped and the documentation; JSON Lines has none.
#[test]
fn relax_text_ends_with_a_legend() {
    let input = format!("{ESCARGOT}\n{CINCH}\n");
    let (code, out, err) = sudolab(&["relax", "-", "--samples", "20"], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("Legend (docs/relaxation.md)").count(), 1);
    let legend = &out[out.find("Legend").unwrap()..];
    for word in ["k ", "samples", "fixed", "mean extra", "capped", "--k auto"] {
        assert!(legend.contains(word), "{word}: {legend}");
    }
    assert!(out.trim_end().ends_with("the means are then lower bounds"));
    let (code, out, err) = sudolab(&["relax", "-", "--samples", "20", "-f", "jsonl"], &input);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("Legend"), "{out}");
    assert_eq!(out.lines().count(), 2);
}

/// `generate --level Expert` points to the score's levels as a target.
#[test]
fn generate_level_names_the_score_target() {
    let (code, _, err) = sudolab(&["generate", "--level", "Expert"], "");
    assert_eq!(code, 64, "{err}");
    assert!(err.contains("invalid value 'Expert'"), "{err}");
    assert!(
        err.contains("hint: Expert is a level of the difficulty score")
            && err.contains("-t 'score_level=Expert'"),
        "{err}"
    );
    let (code, _, err) = sudolab(&["generate", "--level", "nightmare"], "");
    assert_eq!(code, 64);
    assert!(err.contains("-t 'score_level=Expert'"), "{err}");
    // Levels are read in any case; one the default method does not take
    // names both ways to it at once.
    let (code, _, err) = sudolab(&["generate", "--level", "Hard"], "");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("use --method xu --level hard, or --target 'score_level=Hard'"),
        "{err}"
    );
}

/// `clauses --summary` gives only the mean distribution.
#[test]
fn clauses_summary_is_the_mean_alone() {
    let input = format!("{ESCARGOT}\n{CINCH}\n");
    let (code, out, err) = sudolab(&["clauses", "-", "--summary", "-f", "json"], &input);
    assert_eq!(code, 0, "{err}");
    let m = one_row(&out);
    assert_eq!(m["puzzles"], 2, "{m}");
    let pct = m["mean_length_pct"].as_array().unwrap();
    assert_eq!(pct.len(), 9);
    let sum: f64 = pct.iter().map(|v| v.as_f64().unwrap()).sum();
    assert!((sum - 100.0).abs() < 1e-9, "{sum}");
    let (code, text, err) = sudolab(&["clauses", "-", "--summary"], &input);
    assert_eq!(code, 0, "{err}");
    assert!(text.starts_with("mean over 2 puzzles:"), "{text}");
    assert!(!text.contains(ESCARGOT), "{text}");
    let (code, out, err) = sudolab(&["clauses", "-", "--summary", "-f", "jsonl"], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
}

/// `decode --puzzle FILE` reads the file's one puzzle (it once read the
/// file name as a puzzle) and refuses a file with two.
#[test]
fn decode_reads_the_puzzle_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    // The puzzle whose solution SOLVED is.
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
    let one = dir.path().join("one.txt");
    std::fs::write(&one, puzzle).unwrap();
    // The model: var(r, c, d) = 81(r-1) + 9(c-1) + d true for the solution.
    let model: String = SOLVED
        .bytes()
        .enumerate()
        .map(|(i, d)| format!("{} ", 9 * i + usize::from(d - b'0')))
        .collect::<String>()
        + "0\n";
    let (code, out, err) = sudolab(&["decode", "--puzzle", one.to_str().unwrap()], &model);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), SOLVED);
    let two = dir.path().join("two.txt");
    std::fs::write(&two, format!("{CINCH}\n{ESCARGOT}\n")).unwrap();
    let (code, _, err) = sudolab(&["decode", "--puzzle", two.to_str().unwrap()], &model);
    assert_eq!(code, 1);
    assert!(
        err.contains("more than one puzzle (lines 1 and 2)"),
        "{err}"
    );
}

/// `relax -h` is short (the verification's internals are in `--help`);
/// each command's help says the sample defaults differ.
#[test]
fn short_help_is_short_and_samples_defaults_are_said() {
    let (_, short, _) = sudolab(&["relax", "-h"], "");
    let (_, long, _) = sudolab(&["relax", "--help"], "");
    assert!(!short.contains("incremental solver"), "{short}");
    assert!(!short.contains("--verify-by"), "{short}");
    assert!(long.contains("incremental solver"), "{long}");
    assert!(short.lines().count() < 30, "{}", short.lines().count());
    assert!(short.contains("analyze and report 200"), "{short}");
    for cmd in ["analyze", "report"] {
        let (_, help, _) = sudolab(&[cmd, "-h"], "");
        assert!(help.contains("relax 1000"), "{cmd}: {help}");
    }
}

/// A target the tries do not reach: the note says how many reached it, how
/// many missed, within what, and what to do.
#[test]
fn generate_says_how_many_missed_and_why() {
    let (code, out, err) = sudolab(
        &[
            "generate",
            "-t",
            "givens<=17",
            "-n",
            "2",
            "--max-tries",
            "2",
            "--seed",
            "3",
        ],
        "",
    );
    assert_eq!(code, 3, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        err.contains("0 of 2 puzzle(s) reached the level/targets; 2 missed within --max-tries 2 attempts each"),
        "{err}"
    );
    assert!(err.contains("raise --max-tries or --time-limit"), "{err}");
}

/// The minimal encoding's header declares the whole numbering (729
/// variables for 9×9) and a comment says why MiniSat warns of the unused
/// ones; MiniSat's model (when MiniSat is installed) decodes to the
/// solution through `decode --puzzle FILE`.
#[test]
fn minimal_encoding_says_why_minisat_warns_and_its_model_decodes() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("p.txt");
    std::fs::write(
        &puzzle,
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n",
    )
    .unwrap();
    let (code, cnf, err) = sudolab(&["encode", puzzle.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert!(cnf.contains("\nc the header declares all 729 variables of this numbering; the minimal encoding uses the candidates' only, so MiniSat warns"), "{cnf}");
    assert!(cnf.lines().any(|l| l.starts_with("p cnf 729 ")), "{cnf}");
    if !common::external_tool("minisat") {
        return;
    }
    let cnf_path = dir.path().join("p.cnf");
    let model = dir.path().join("model.txt");
    std::fs::write(&cnf_path, &cnf).unwrap();
    let out = std::process::Command::new("minisat")
        .arg(&cnf_path)
        .arg(&model)
        .output()
        .unwrap();
    // MiniSat exits 10 for satisfiable.
    assert_eq!(out.status.code(), Some(10), "{out:?}");
    let (code, solved, err) = sudolab(
        &[
            "decode",
            "--puzzle",
            puzzle.to_str().unwrap(),
            model.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(solved.trim(), SOLVED);
}

/// `analyze` says how many relaxed puzzles saw nothing: in the text table
/// (a `saw_nothing` column and a note under it) and, when the rows go to a
/// file or another format, on standard error.
#[test]
fn analyze_says_how_many_rows_saw_nothing() {
    let input = format!("{ESCARGOT}\n{CINCH}\n");
    let args = ["analyze", "-", "--metrics", "relax", "--samples", "40"];
    let (code, out, err) = sudolab(&args, &input);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().next().unwrap().contains("saw_nothing"), "{out}");
    let note = "NOTE: 1 of 2 relaxed puzzles (50.0 %) saw nothing at k = 45";
    assert!(out.contains(note), "{out}");
    assert!(!err.contains(note), "{err}");
    let (code, out, err) = sudolab(&[&args[..], &["-f", "jsonl"]].concat(), &input);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(note), "{err}");
    assert!(!out.contains("NOTE"), "{out}");
}
