//! Pencilmark grids on the command line (`docs/methods.md` §0.1): every
//! command that reads puzzles reads them (a model or the score defined on
//! givens gives its row a reason, `score` skips the line and goes on) but
//! `canon` and `generate --from`, which refuse them with one message that
//! names the line.

use crate::common::sudolab;

/// The first fixture grid and Sukaku Explainer's ER EP ED of it.
fn sukaku() -> (String, String) {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/sukaku_pencilmarks.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let line = text
        .lines()
        .find(|l| !l.starts_with('#') && l.contains(" 7."))
        .unwrap();
    let (grid, ratings) = line.split_once(' ').unwrap();
    (grid.to_string(), ratings.to_string())
}

#[test]
fn check_encode_and_serate_read_a_pencilmark_grid() {
    let (grid, ratings) = sukaku();
    let (code, out, err) = sudolab(&["check", "-", "--engine", "all", "-f", "csv"], &grid);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("{grid},,unique")), "{out}");
    let (code, out, err) = sudolab(&["count", "-", "--engine", "all", "-f", "csv"], &grid);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().nth(1).unwrap().ends_with(",1,false"), "{out}");
    for enc in ["min", "max", "lo-min"] {
        let (code, out, err) = sudolab(&["encode", "-e", enc, "-"], &grid);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(&format!("c puzzle {grid}")), "{out}");
        assert!(out.contains("p cnf 729 "));
    }
    let (code, out, err) = sudolab(
        &["rate", "-", "-m", "serate", "-f", "jsonl"],
        &format!("{grid}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let row: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let ours = format!(
        "{} {} {}",
        row["serate"], row["serate_ep"], row["serate_ed"]
    );
    assert_eq!(ours, ratings);
    // The score is a model over every rater: none for a pencilmark grid.
    assert!(row["score"].is_null(), "{row}");
}

#[test]
fn a_multi_line_candidate_grid_is_one_puzzle() {
    let (grid, _) = sukaku();
    let rows: Vec<String> = (0..9)
        .map(|r| {
            (0..9)
                .map(|c| {
                    let cell = &grid[(r * 9 + c) * 9..][..9];
                    let digits: String = cell.chars().filter(|ch| *ch != '.').collect();
                    format!("{digits:<9}")
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let block = format!("# one grid\n{}\n", rows.join("\n"));
    let (code, out, err) = sudolab(&["solve", "-", "-f", "csv"], &block);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        out.contains(&grid),
        "the row names the grid in its 729 form: {out}"
    );
}

/// Relaxation, the batch commands and the per-puzzle report read a
/// pencilmark grid beside a puzzle of givens: its rows carry its values,
/// and a model or the score defined on givens says why it is null; no
/// line stops the batch.
#[test]
fn relax_analyze_rate_and_score_read_a_pencilmark_grid() {
    let (grid, _) = sukaku();
    let easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let input = format!("{grid} pm\n{easy} easy\n");
    let rows = |args: &[&str]| -> Vec<serde_json::Value> {
        let (code, out, err) = sudolab(args, &input);
        assert_eq!(code, 0, "{args:?}: {err}");
        out.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let relaxed = rows(&[
        "relax",
        "-",
        "--samples",
        "30",
        "--engine",
        "all",
        "-f",
        "jsonl",
    ]);
    assert_eq!(relaxed.len(), 2);
    assert_eq!(relaxed[0]["puzzle"], grid.as_str());
    // Every sample analyzed by all three engines, which agree.
    assert_eq!(relaxed[0]["verified"], 30);
    assert_eq!(relaxed[0]["verified_by"], serde_json::json!(["dlx", "sat"]));
    assert!(relaxed[0]["mean_fixed"].as_f64().unwrap() > 0.0);
    let analyzed = rows(&["analyze", "-", "--samples", "30", "-f", "jsonl"]);
    assert_eq!(analyzed.len(), 2);
    let pm = &analyzed[0];
    assert!(pm["clauses"].as_u64().unwrap() > 0, "{pm}");
    assert!(pm["mean_fixed"].is_number(), "{pm}");
    assert!(pm["score"].is_null());
    assert_eq!(
        pm["errors"]["score"],
        "the score is fitted on puzzles of givens: a pencilmark grid has none"
    );
    assert!(analyzed[1]["score"].is_number());
    let rated = rows(&[
        "rate",
        "-",
        "-m",
        "sisus,baseline,trial,serate",
        "-f",
        "jsonl",
    ]);
    let pm = &rated[0];
    assert!(pm["sisus_refutation_sum"].is_number(), "{pm}");
    assert!(pm["backtracks"].is_number(), "{pm}");
    assert!(pm["trial_depth"].is_null(), "{pm}");
    assert_eq!(
        pm["status"]["trial"],
        "defined on givens: not run on a pencilmark grid"
    );
    assert!(rated[1]["status"].as_object().unwrap().is_empty());
    // `score` has no row for the grid: it names its line and goes on.
    let (code, out, err) = sudolab(&["score", "-", "-f", "csv"], &input);
    assert_eq!(code, 3, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.contains(",easy,"), "{out}");
    assert!(
        err.contains("line 1: the score is fitted on puzzles of givens"),
        "{err}"
    );
    let (code, out, err) = sudolab(&["backbone", "-", "-f", "csv"], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 3, "{out}");
    let (code, _, err) = sudolab(&["order", "-", "--samples", "20"], &input);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn canon_and_generate_refuse_a_pencilmark_grid_naming_the_line() {
    let (grid, _) = sukaku();
    let input = format!("# a comment\n{grid}\n");
    let (code, _, err) = sudolab(&["canon", "-"], &input);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("line 2: a pencilmark grid, which this command does not read"),
        "{err}"
    );
    let (code, _, err) = sudolab(&["generate", "--from", &grid, "-n", "1"], "");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("pencilmark grid"), "{err}");
    // With --keep-going the grid is skipped and the run goes on (exit 3).
    let easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let (code, out, err) = sudolab(
        &["canon", "-", "--keep-going"],
        &format!("{grid}\n{easy}\n"),
    );
    assert_eq!(code, 3, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
}
