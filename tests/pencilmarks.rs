//! Pencilmark grids on the command line (`docs/methods.md` §0.1): `check`,
//! `count`, `solve`, `encode` and `rate -m serate` read them; every other
//! command refuses them with one message that names the line and the
//! commands that read them.

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

#[test]
fn other_commands_refuse_a_pencilmark_grid_naming_the_line() {
    let (grid, _) = sukaku();
    let input = format!("# a comment\n{grid}\n");
    for args in [
        &["relax", "-", "--samples", "5"][..],
        &["score", "-"],
        &["canon", "-"],
        &["rate", "-", "-m", "sisus"],
        &["analyze", "-", "--metrics", "clauses"],
        &["backbone", "-"],
        &["order", "-"],
    ] {
        let (code, _, err) = sudolab(args, &input);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("line 2: a pencilmark grid, which this command does not read"),
            "{args:?}: {err}"
        );
    }
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
