//! The command line, end to end.

use crate::common;

use common::sudolab;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[test]
fn clauses_on_embedded_examples_json_fields() {
    let (code, out, _) = sudolab(&["clauses", "--format", "jsonl"], "");
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 11);
    for v in &lines {
        for key in [
            "puzzle",
            "label",
            "encoding",
            "variables",
            "clauses",
            "alo_lengths",
            "short_pct",
            "medium_pct",
            "long_pct",
        ] {
            assert!(v.get(key).is_some(), "missing {key}");
        }
        assert_eq!(v["variables"], 729);
        assert_eq!(v["alo_lengths"].as_array().unwrap().len(), 9);
        let sum = v["short_pct"].as_f64().unwrap()
            + v["medium_pct"].as_f64().unwrap()
            + v["long_pct"].as_f64().unwrap();
        assert!((sum - 100.0).abs() < 1e-6);
    }
}

#[test]
fn check_count_solve_fields_and_engines() {
    let input = format!("{EASY}\tmy label\n{}\n", ".".repeat(81));
    let (code, out, _) = sudolab(
        &["check", "-", "--format", "jsonl", "--engine", "all"],
        &input,
    );
    assert_eq!(code, 0);
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["status"], "unique");
    assert_eq!(rows[0]["label"], "my label");
    assert_eq!(rows[1]["status"], "multiple");
    assert_eq!(rows[1]["solutions"], 2);

    let (code, out, _) = sudolab(&["count", "-", "--format", "csv", "--cap", "7"], &input);
    assert_eq!(code, 0);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("puzzle,label,solutions,capped"));
    assert!(lines.next().unwrap().ends_with(",my label,1,false"));
    assert!(lines.next().unwrap().ends_with(",,7,true"));

    let (code, out, _) = sudolab(&["solve", "-", "--format", "json", "--engine", "sat"], EASY);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["solution"], SOLVED);
}

#[test]
fn contradictory_puzzle_is_none_with_reason_and_refused_by_clauses() {
    let bad = format!("11{}", ".".repeat(79));
    let (code, out, _) = sudolab(&["check", "-", "--format", "jsonl"], &bad);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["status"], "none");
    assert_eq!(v["reason"], "digit 1 appears twice in row 1");
    let (code, _, err) = sudolab(&["clauses", "-"], &bad);
    assert_eq!(code, 1);
    assert!(
        err.contains("line 1: puzzle is contradictory: digit 1 appears twice in row 1"),
        "{err}"
    );
    let (code, _, err) = sudolab(&["encode", "-", "--encoding", "min"], &bad);
    assert_eq!(code, 1);
    assert!(err.contains("contradictory"));
}

#[test]
fn bad_lines_named_and_keep_going() {
    let input = format!("{EASY}\n{}\n{EASY}x\n{EASY}\n", &EASY[..80]);
    let (code, out, err) = sudolab(&["check", "-"], &input);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("line 2: expected 81 cells"), "{err}");
    let (code, out, err) = sudolab(&["check", "-", "--keep-going", "--format", "jsonl"], &input);
    assert_eq!(code, 3);
    assert_eq!(out.lines().count(), 2);
    assert!(err.contains("2 input line(s) rejected"), "{err}");
    assert!(
        err.contains("line 3: column 82: invalid character 'x'"),
        "{err}"
    );
}

#[test]
fn encode_decode_round_trip_through_files() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.cnf");
    let (code, _, _) = sudolab(
        &["encode", "-", "-e", "max", "-o", one.to_str().unwrap()],
        EASY,
    );
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&one).unwrap();
    assert!(text.contains(&format!("p cnf 729 {}", 11988 + 30)));
    assert!(text.starts_with("c sudolab encoding=max\nc puzzle "));
    // A model in competition format: the solution's true literals.
    let vars: Vec<String> = SOLVED
        .bytes()
        .enumerate()
        .map(|(i, b)| (i * 9 + (b - b'0') as usize).to_string())
        .collect();
    let model = format!("s SATISFIABLE\nv {} 0\n", vars.join(" "));
    let (code, out, _) = sudolab(&["decode", "--puzzle", EASY], &model);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), SOLVED);
    // Several puzzles go to a directory (a path ending in /), one file per input line.
    let outdir = dir.path().join("many");
    let input = format!("# c\n{EASY}\n{EASY}\n");
    let dir_arg = format!("{}/", outdir.display());
    let (code, _, err) = sudolab(&["encode", "-", "-o", &dir_arg], &input);
    assert_eq!(code, 0, "{err}");
    assert!(outdir.join("line2.cnf").exists() && outdir.join("line3.cnf").exists());
    // A file name with several puzzles is refused, and no directory appears.
    let file = dir.path().join("x.cnf");
    let (code, _, err) = sudolab(&["encode", "-", "-o", file.to_str().unwrap()], &input);
    assert_eq!(code, 1);
    assert!(err.contains("-o DIR/"), "{err}");
    assert!(!file.exists());
    // `-o -` is stdout, not a file named `-`.
    let (code, out, _) = sudolab(&["encode", "-", "-o", "-"], &format!("{EASY}\n"));
    assert_eq!(code, 0);
    assert!(out.starts_with("c sudolab encoding=min"));
    // Without -o several puzzles are an error, not a mixed stream.
    let (code, _, err) = sudolab(&["encode", "-"], &input);
    assert_eq!(code, 1);
    assert!(err.contains("-o DIR"));
}

#[test]
fn decode_rejects_wrong_model() {
    let (code, _, err) = sudolab(&["decode", "--puzzle", EASY], "v 19 20 0\n");
    assert_eq!(code, 1);
    assert!(err.contains("two values"), "{err}");
}

#[test]
fn relax_fields_samples_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let samples = dir.path().join("s.jsonl");
    let input = format!("{EASY}\tone\n");
    let (code, out, err) = sudolab(
        &[
            "relax",
            "-",
            "--k",
            "30",
            "--samples",
            "40",
            "--seed",
            "5",
            "--engine",
            "all",
            "-f",
            "json",
            "--emit-samples",
            samples.to_str().unwrap(),
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &v[0];
    for key in [
        "puzzle",
        "label",
        "k",
        "samples",
        "seed",
        "cap",
        "mean_solutions",
        "median_solutions",
        "mean_extra",
        "p_unique",
        "p_unique_low",
        "p_unique_high",
        "mean_fixed",
        "mean_fixed_se",
        "mean_fixed_low",
        "mean_fixed_high",
        "capped",
        "p_nothing",
        "saw_nothing",
        "relaxation_onset_k",
        "verified",
        "fixedness",
    ] {
        assert!(r.get(key).is_some(), "missing {key}");
    }
    assert_eq!(r["verified"], 40, "--engine all re-checks every sample");
    assert_eq!(r["fixedness"].as_array().unwrap().len(), 81);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&samples)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 40);
    for key in ["sample", "removed", "solutions", "capped", "fixed"] {
        assert!(lines[0].get(key).is_some(), "missing {key}");
    }
    assert_eq!(lines[0]["removed"].as_array().unwrap().len(), 30);
    // One emitted sample re-analyzed on its own gives the same answer.
    let one = dir.path().join("one.json");
    let dot = dir.path().join("g.dot");
    std::fs::write(&one, serde_json::to_string(&lines[3]).unwrap()).unwrap();
    let (code, out, _) = sudolab(
        &[
            "backbone",
            "-",
            "--remove-edges",
            one.to_str().unwrap(),
            "--engine",
            "all",
            "-f",
            "jsonl",
            "--emit-graph",
            dot.to_str().unwrap(),
        ],
        EASY,
    );
    assert_eq!(code, 0);
    let b: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(b["solutions"], lines[3]["solutions"]);
    assert_eq!(b["fixed"], lines[3]["fixed"]);
    // The drawn graph: 81 cells, all 810 edges, the 30 removed ones dashed.
    let dot = std::fs::read_to_string(&dot).unwrap();
    assert!(dot.starts_with("graph relaxed {"));
    assert_eq!(dot.lines().filter(|l| l.contains(" -- ")).count(), 810);
    assert_eq!(dot.lines().filter(|l| l.contains("dashed")).count(), 30);
    assert_eq!(dot.lines().filter(|l| l.contains("pos=")).count(), 81);
    // Streaming JSONL with --resume skips what is already there.
    let outp = dir.path().join("r.jsonl");
    let two = format!(
        "{EASY}\n{}\n",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    );
    let args = [
        "relax",
        "-",
        "--samples",
        "20",
        "-f",
        "jsonl",
        "-o",
        outp.to_str().unwrap(),
    ];
    let (code, _, _) = sudolab(&args, EASY);
    assert_eq!(code, 0);
    let mut resume = args.to_vec();
    resume.push("--resume");
    let (code, _, _) = sudolab(&resume, &two);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&outp).unwrap().lines().count(), 2);
}

#[test]
fn sweep_writes_table_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("p.svg");
    let (code, out, _) = sudolab(
        &[
            "relax",
            "-",
            "--sweep",
            "0:20:10",
            "--samples",
            "30",
            "--plot",
            plot.to_str().unwrap(),
        ],
        EASY,
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("mean_solutions") && out.contains("fit"),
        "{out}"
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("polyline"));
}

#[test]
fn rate_and_eval_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let res = dir.path().join("rate.jsonl");
    let (code, _, err) = sudolab(
        &[
            "rate",
            "--model",
            "nishio,weights,baseline",
            // The score's SE-equivalent without serate's nesting levels 3–5
            // (seconds, not minutes, for the famous hardest puzzles).
            "--serate-budget",
            "0",
            "-f",
            "jsonl",
            "-o",
            res.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&res).unwrap();
    assert_eq!(text.lines().count(), 11);
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    for key in [
        "puzzle",
        "label",
        "givens",
        "backtracks",
        "nishio4",
        "weights_score",
        "weights_level",
        "status",
    ] {
        assert!(first.get(key).is_some(), "missing {key}");
    }
    let (code, out, err) = sudolab(
        &[
            "eval",
            res.to_str().unwrap(),
            "--label",
            "givens",
            "--metrics",
            "nishio4,backtracks",
            "--bootstrap",
            "50",
            "-f",
            "csv",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("metric,n,pearson,spearman,kendall_tau_b,gk_gamma"),
        "{out}"
    );
}

/// `order` (Pelánek Fig. 6): both predicted fill orders of each puzzle, the
/// givens left out, and a bad puzzle refused on its line.
#[test]
fn order_prints_both_fill_orders() {
    let input = format!("{EASY}\tmy label\n{}\n", ".".repeat(81));
    let args = [
        "order",
        "-",
        "--samples",
        "40",
        "--runs",
        "5",
        "-f",
        "jsonl",
    ];
    let (code, out, err) = sudolab(&args, &input);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 2"), "{err}");
    let mut keep_going = args.to_vec();
    keep_going.push("--keep-going");
    let (code, out2, err) = sudolab(&keep_going, &input);
    assert_eq!(code, 3, "{err}");
    // Rows are written as they come: the row before the refused line is
    // out, as with every command that streams.
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("\"label\":\"my label\""), "{out}");
    let rows: Vec<serde_json::Value> = out2
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["label"], "my label");
    for field in ["model_step", "model_rank", "fixedness", "fixedness_rank"] {
        let cells = rows[0][field].as_array().unwrap();
        assert_eq!(cells.len(), 81, "{field}");
        assert_eq!(cells.iter().filter(|v| v.is_null()).count(), 30, "{field}");
    }
    let rho = rows[0]["spearman"].as_f64().unwrap();
    assert!(rho > 0.0 && rho <= 1.0, "{rho}");
    // Fig. 7: one step per empty cell, the last cell the only one left.
    let steps = rows[0]["possibilities"].as_array().unwrap();
    assert_eq!(steps.len(), 51);
    assert_eq!(steps[50].as_f64(), Some(1.0));
    assert!(steps.iter().all(|v| v.as_f64().unwrap() >= 0.0));
}

/// On the command line: at k = 45 AI Escargot's row says it saw
/// nothing (a note under the map, `saw_nothing` and the onset in JSON);
/// `--k auto` relaxes at that onset and the note is gone; `--precision`
/// stops early and says so; `--k auto` with `--sweep` and a precision of 0
/// are refused.
#[test]
fn relax_says_when_it_saw_nothing_and_k_auto_relaxes_at_the_onset() {
    let escargot =
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..\n";
    let (code, out, err) = sudolab(&["relax", "-", "--samples", "100"], escargot);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("relaxes this puzzle past what the method can show"),
        "{out}"
    );
    let (code, out, err) = sudolab(&["relax", "-", "--samples", "100", "-f", "jsonl"], escargot);
    assert_eq!(code, 0, "{err}");
    let at45: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(at45["saw_nothing"], true, "{at45}");
    // The first 30 samples establish saturation: the run stops there and
    // says so; --all-samples draws every one.
    assert_eq!(
        (&at45["samples"], &at45["stopped_saturated"]),
        (&30.into(), &true.into()),
        "{at45}"
    );
    let (code, out, err) = sudolab(&["relax", "-", "--samples", "100"], escargot);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("k = 45, 30 samples (stopped: these already show saturation; --all-samples draws them all)"), "{out}");
    let (code, out, err) = sudolab(
        &[
            "relax",
            "-",
            "--samples",
            "100",
            "--all-samples",
            "-f",
            "jsonl",
        ],
        escargot,
    );
    assert_eq!(code, 0, "{err}");
    let every: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(every["samples"], 100, "{every}");
    assert!(every.get("stopped_saturated").is_none(), "{every}");
    let k0 = at45["relaxation_onset_k"].as_u64().unwrap();
    let (code, out, err) = sudolab(
        &[
            "relax",
            "-",
            "--k",
            "auto",
            "--samples",
            "100",
            "-f",
            "jsonl",
        ],
        escargot,
    );
    assert_eq!(code, 0, "{err}");
    let auto: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(auto["k"], k0, "{auto}");
    assert_eq!(auto["relaxation_onset_k"], k0, "{auto}");
    assert_eq!(auto["saw_nothing"], false, "{auto}");
    let (code, out, err) = sudolab(&["relax", "-", "--k", "auto", "--samples", "100"], escargot);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("k = {k0}, 100 samples")), "{out}");
    assert!(!out.contains("NOTE"), "{out}");
    let (code, out, err) = sudolab(&["relax", "-", "--precision", "1", "-f", "jsonl"], escargot);
    assert_eq!(code, 0, "{err}");
    let row: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(row["precision"], 1.0);
    assert_eq!(row["samples"], 30, "{row}");
    let (code, _, err) = sudolab(
        &["relax", "-", "--k", "auto", "--sweep", "0:10:5"],
        escargot,
    );
    assert_eq!(code, 1);
    assert!(err.contains("cannot go with --sweep"), "{err}");
    let (code, _, err) = sudolab(&["relax", "-", "--precision", "0"], escargot);
    assert_eq!(code, 1);
    assert!(
        err.contains("precision 0: expected a positive number of cells"),
        "{err}"
    );
    let (code, _, err) = sudolab(&["relax", "-", "--k", "many"], escargot);
    assert_ne!(code, 0);
    assert!(err.contains("expected a number of edges or auto"), "{err}");
}

/// `rate -m berthier`'s text table shows Berthier's ratings as columns (W and
/// B 0 for Fletcher's Cinch, which BRT solves; BxB and BxBB out of range);
/// without the model the table has no such column.
#[test]
fn rate_text_shows_berthier_columns_when_the_model_ran() {
    let cinch = sudolab::Puzzle::examples()[0].to_line();
    let (code, out, err) = sudolab(&["rate", "-", "-m", "berthier", "--no-score"], &cinch);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let row: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    // Every field up to the status (empty here) is one word.
    assert_eq!(row.len(), header.len() - 1, "{out}");
    assert_eq!(
        (row[at("w_rating")], row[at("b_rating")]),
        ("0", "0"),
        "{out}"
    );
    assert_eq!((row[at("bxb")], row[at("bxbb")]), ("-", "-"), "{out}");
    let (code, out, _) = sudolab(&["rate", "-", "-m", "weights", "--no-score"], &cinch);
    assert_eq!(code, 0);
    assert!(!out.contains("w_rating"), "{out}");
}
