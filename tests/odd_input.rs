//! The command line under odd input and interrupted runs: nothing lost,
//! nothing mixed silently, errors that name what was wrong.

use crate::common;

use common::{sudolab, sudolab_in};

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const OTHER: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn jsonl(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn usage_errors_exit_64_and_help_exits_0() {
    for args in [
        &["check", "--format", "xml"][..],
        &["relax", "--k", "-5"],
        &["check", "--no-such-flag"],
        &["nosuchcommand"],
    ] {
        let (code, _, err) = sudolab(args, "");
        assert_eq!(code, 64, "{args:?}: {err}");
    }
    let (code, out, _) = sudolab(&["check", "--help"], "");
    assert_eq!(code, 0);
    // Every format value is listed in --help.
    assert!(
        out.contains("text") && out.contains("jsonl") && out.contains("csv"),
        "{out}"
    );
}

#[test]
fn bom_is_skipped_and_bad_utf8_rejects_one_line_only() {
    let (code, out, err) = sudolab(&["check", "-"], &format!("\u{feff}{EASY}\n"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("unique"));
    let mut input = format!("{EASY}\n{OTHER} caf").into_bytes();
    input.extend_from_slice(&[0xE9, b'\n']);
    input.extend_from_slice(format!("{OTHER}\n{EASY}\n").as_bytes());
    let (code, out, err) = sudolab_in(
        std::path::Path::new("."),
        &["check", "-", "--keep-going", "-f", "jsonl"],
        &input,
    );
    assert_eq!(code, 3, "{err}");
    assert_eq!(jsonl(&out).len(), 3, "lines 1, 3 and 4 are kept");
    assert!(err.contains("line 2: column 86: not valid UTF-8"), "{err}");
}

/// The command line refuses an option with the message of the options'
/// own `check()`, the text the Python package raises for the same value.
#[test]
fn option_errors_are_the_options_check_messages() {
    use sudolab::RelaxOptions;
    use sudolab::ScoreOptions;
    let samples = RelaxOptions {
        samples: 1_000_000_000,
        ..RelaxOptions::default()
    }
    .check()
    .unwrap_err()
    .to_string();
    assert_eq!(
        samples,
        "samples 1000000000: at most 100000 (the documented ceiling of samples)"
    );
    let scale = ScoreOptions {
        scale: 1,
        ..ScoreOptions::default()
    }
    .check()
    .unwrap_err()
    .to_string();
    assert_eq!(scale, "scale 1: expected 2 to 10");
    for (args, says) in [
        (&["relax", "-", "--samples", "1000000000"][..], &samples),
        (&["analyze", "-", "--samples", "1000000000"], &samples),
        (&["score", "-", "--scale", "1"], &scale),
    ] {
        let (code, out, err) = sudolab(args, EASY);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(
            err.trim_end(),
            format!("sudolab: error: {says}"),
            "{args:?}"
        );
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

#[test]
fn parameter_errors_name_the_parameter_not_a_line() {
    let (code, _, err) = sudolab(&["relax", "-", "--samples", "0"], EASY);
    assert_eq!(code, 1);
    assert!(err.contains("samples 0: at least 1"), "{err}");
    let (code, _, err) = sudolab(&["relax", "-", "--k", "811", "--samples", "2"], EASY);
    assert_eq!(code, 1);
    assert!(
        err.contains("k 811: exceeds the 810 edges of the 9×9 Sudoku graph (the grid of the puzzle on input line 1)"),
        "{err}"
    );
    assert!(!err.contains("--keep-going"), "{err}");
    let (code, _, err) = sudolab(&["rate", "-", "--runs", "0"], EASY);
    assert_eq!(code, 1);
    assert!(err.contains("runs 0: at least 1"), "{err}");
    let (code, _, err) = sudolab(&["rate", "-", "--oracle-alpha", "NaN"], EASY);
    assert_eq!(code, 1);
    assert!(err.contains("alpha = NaN is not a finite number"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = sudolab(&["check", dir.path().to_str().unwrap()], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("is a directory") && !err.contains("line"),
        "{err}"
    );
}

#[test]
fn output_target_is_checked_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/folder/out.json");
    let (code, _, err) = sudolab(
        &[
            "relax",
            "-",
            "--samples",
            "5",
            "-o",
            missing.to_str().unwrap(),
        ],
        EASY,
    );
    assert_eq!(code, 1);
    assert!(err.contains("does not exist"), "{err}");
    let (code, _, err) = sudolab(&["check", "-", "-o", dir.path().to_str().unwrap()], EASY);
    assert_eq!(code, 1);
    assert!(err.contains("is a directory"), "{err}");
    // `-o -` is stdout for every command.
    let (code, out, _) = sudolab_in(dir.path(), &["check", "-", "-o", "-"], EASY.as_bytes());
    assert_eq!(code, 0);
    assert!(out.contains("unique"));
    assert!(!dir.path().join("-").exists());
}

#[test]
fn analyze_resume_drops_a_cut_record_keys_by_line_and_refuses_other_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.jsonl");
    let out_s = out.to_str().unwrap();
    // The same puzzle twice under two labels, as in the Patti set.
    let input = format!("{EASY}\tsite A\n{OTHER}\n{EASY}\tsite B\n");
    let args = [
        "analyze",
        "-",
        "--metrics",
        "clauses,relax",
        "--samples",
        "6",
        "-f",
        "jsonl",
        "-o",
        out_s,
    ];
    let (code, _, err) = sudolab(&args, &input);
    assert_eq!(code, 0, "{err}");
    let full = std::fs::read_to_string(&out).unwrap();
    let rows = jsonl(&full);
    assert_eq!(rows.len(), 3, "a fresh run gives one row per input line");
    assert_eq!(
        rows.iter()
            .map(|r| r["line"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert_eq!(rows[0]["params"]["samples"], 6);

    // Killed inside the third record: resume drops the partial line and redoes it.
    let cut = full.len() - 20;
    std::fs::write(&out, &full[..cut]).unwrap();
    let mut resume = args.to_vec();
    resume.push("--resume");
    let (code, _, err) = sudolab(&resume, &input);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("incomplete last line"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);

    // Other parameters: refused, file untouched.
    let mut other = resume.clone();
    other[5] = "7";
    let (code, _, err) = sudolab(&other, &input);
    assert_eq!(code, 1);
    assert!(err.contains("samples = 6, this run has 7"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);

    // Another input for the same file: refused.
    let (code, _, err) = sudolab(&resume, &format!("{OTHER}\n"));
    assert_eq!(code, 1);
    assert!(err.contains("another input"), "{err}");
}

/// `analyze --precision E`: the relaxation stops once the 95 % interval of
/// `mean_fixed` is within ± E cells (a 17-clue puzzle, nearly every sample
/// capped, needs few samples), the parameters carry the precision, a resumed
/// run must use the same, and a run without one has no `precision` key.
#[test]
fn analyze_to_a_precision_stops_early_and_resumes_only_with_the_same() {
    const SEVENTEEN: &str =
        ".................1.....2.3......425...6.......17....8.....7...64...6....9..8...1.";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.jsonl");
    let out_s = out.to_str().unwrap();
    let input = format!("{SEVENTEEN}\n{EASY}\n");
    let args = [
        "analyze",
        "-",
        "--metrics",
        "relax",
        "--precision",
        "1",
        "-f",
        "jsonl",
        "-o",
        out_s,
    ];
    let (code, _, err) = sudolab(&args, &input);
    assert_eq!(code, 0, "{err}");
    let full = std::fs::read_to_string(&out).unwrap();
    let rows = jsonl(&full);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r["params"]["precision"], 1.0);
        assert_eq!(r["params"]["samples"], 200, "the ceiling");
        let used = r["samples"].as_u64().unwrap();
        assert!((30..=200).contains(&used), "{r}");
        let width = r["mean_fixed_high"].as_f64().unwrap() - r["mean_fixed_low"].as_f64().unwrap();
        assert!(used == 200 || width <= 2.0, "stopped before ±1 cell: {r}");
    }
    assert!(rows[0]["samples"].as_u64().unwrap() < 200, "{}", rows[0]);

    let mut other = args.to_vec();
    other[5] = "2";
    other.push("--resume");
    let (code, _, err) = sudolab(&other, &input);
    assert_eq!(code, 1);
    assert!(err.contains("precision"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), full);

    let plain = [
        "analyze",
        "-",
        "--metrics",
        "relax",
        "--samples",
        "5",
        "-f",
        "jsonl",
    ];
    let (code, text, err) = sudolab(&plain, &input);
    assert_eq!(code, 0, "{err}");
    assert!(
        jsonl(&text)
            .iter()
            .all(|r| r["params"].get("precision").is_none())
    );
}

#[test]
fn relax_resume_keeps_k_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep.jsonl");
    let out_s = out.to_str().unwrap();
    let input = format!("{EASY}\n");
    let sweep = |range: &str, resume: bool| {
        let mut args = vec![
            "relax",
            "-",
            "--sweep",
            range,
            "--samples",
            "5",
            "-f",
            "jsonl",
            "-o",
            out_s,
        ];
        if resume {
            args.push("--resume");
        }
        let (code, _, err) = sudolab(&args, &input);
        assert_eq!(code, 0, "{err}");
    };
    sweep("0:10:5", false);
    sweep("0:20:5", true);
    let rows = jsonl(&std::fs::read_to_string(&out).unwrap());
    let ks: Vec<u64> = rows.iter().map(|r| r["k"].as_u64().unwrap()).collect();
    assert_eq!(ks, vec![0, 5, 10, 15, 20]);
    assert!(rows.iter().all(|r| r["line"] == 1));
}

#[test]
fn a_16x16_grid_in_0_to_f_needs_its_alphabet() {
    let digits = b"0123456789ABCDEF";
    let line: String = (0..16)
        .flat_map(|r| {
            (0..16).map(move |c| match c {
                0 => '.',
                _ => digits[(r * 4 + r / 4 + c) % 16] as char,
            })
        })
        .collect();
    let (code, _, err) = sudolab(&["check", "-"], &line);
    assert_eq!(code, 1);
    assert!(
        err.contains("line 1") && err.contains("--alphabet 0-f"),
        "{err}"
    );
    let (code, out, err) = sudolab(&["check", "-", "--alphabet", "0-f"], &line);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("unique"), "{out}");
}

#[test]
fn remove_edges_inline_checked_against_the_puzzle_and_said() {
    let (code, out, err) = sudolab(
        &[
            "backbone",
            "-",
            "--remove-edges",
            "[[0,1],[0,2]]",
            "-f",
            "jsonl",
        ],
        EASY,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("removing 2 edge(s) given in the command line"),
        "{err}"
    );
    assert_eq!(jsonl(&out)[0]["removed"].as_array().unwrap().len(), 2);
    // A sample drawn for another puzzle is refused for this one.
    let sample = format!(r#"{{"puzzle":"{OTHER}","sample":3,"removed":[[0,1]]}}"#);
    let (code, _, err) = sudolab(&["backbone", "-", "--remove-edges", &sample], EASY);
    assert_eq!(code, 1);
    assert!(err.contains("sampled for another puzzle"), "{err}");
    let (code, _, err) = sudolab(&["backbone", "-", "--remove-edges", &sample], OTHER);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("sample 3 of puzzle"), "{err}");
    // Several sample lines: say so rather than use the first.
    let dir = tempfile::tempdir().unwrap();
    let two = dir.path().join("two.jsonl");
    std::fs::write(&two, format!("{sample}\n{sample}\n")).unwrap();
    let (code, _, err) = sudolab(
        &["backbone", "-", "--remove-edges", two.to_str().unwrap()],
        OTHER,
    );
    assert_eq!(code, 1);
    assert!(err.contains("2 sample lines given"), "{err}");
    // Edges of a 9×9 grid on a 4×4 puzzle are not edges there.
    let (code, _, err) = sudolab(
        &["backbone", "-", "--remove-edges", "[[0,80]]"],
        "1234341221434321",
    );
    assert_eq!(code, 1);
    assert!(err.contains("is not an edge"), "{err}");
}

#[test]
fn solve_says_several_solutions_and_count_warns_before_a_long_exact_count() {
    let (code, out, _) = sudolab(&["solve", "-"], &".".repeat(81));
    assert_eq!(code, 0);
    assert!(out.contains("(one of several solutions)"), "{out}");
    let (_, out, _) = sudolab(&["solve", "-", "-f", "jsonl"], EASY);
    assert_eq!(jsonl(&out)[0]["status"], "unique");
    // A solved grid with its first 48 cells blanked: 1,115,760 solutions.
    let solved =
        "123456789456789123789123456231674895875912364694538217317265948542897631968341572";
    let puzzle = format!("{}{}", ".".repeat(48), &solved[48..]);
    let (code, out, err) = sudolab(&["count", "-", "--cap", "0", "-f", "jsonl"], &puzzle);
    assert_eq!(code, 0);
    assert!(err.contains("more than 1000000 solutions"), "{err}");
    assert_eq!(jsonl(&out)[0]["solutions"], 1_115_760);
    assert_eq!(jsonl(&out)[0]["capped"], false);
}

#[test]
fn eval_and_classify_say_things_once_and_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("r.jsonl");
    let (code, _, err) = sudolab(
        &["clauses", "-f", "jsonl", "-o", results.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let r = results.to_str().unwrap();
    let (code, out, _) = sudolab(
        &[
            "classify",
            r,
            "--metric",
            "short_pct",
            "--preset",
            "patti-short",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("lower is harder") && !out.contains("LowerIsHarder"),
        "{out}"
    );
    let (code, out, _) = sudolab(&["eval", r, "--label", "clauses", "--bootstrap", "0"], "");
    assert_eq!(code, 0);
    assert!(
        out.contains("no bootstrap intervals") && !out.contains("0 resamples"),
        "{out}"
    );
    let missing = dir.path().join("missing.jsonl");
    let (code, _, err) = sudolab(
        &["classify", missing.to_str().unwrap(), "--metric", "x"],
        "",
    );
    assert_eq!(code, 1);
    assert_eq!(err.matches("No such file").count(), 1, "{err}");
}

#[test]
fn analyze_text_is_a_table_and_rejections_come_in_input_order() {
    let (code, out, _) = sudolab(&["analyze", "-", "--metrics", "clauses"], EASY);
    assert_eq!(code, 0);
    assert!(out.starts_with("line  puzzle"), "{out}");
    assert!(!out.contains('{'), "{out}");
    // Line 3 is refused while reading, line 1 (two 5s in a row) by the command.
    let input = format!("55{}\n{OTHER}\nxyz\n", &EASY[2..]);
    let (code, _, err) = sudolab(&["clauses", "-", "--keep-going"], &input);
    assert_eq!(code, 3);
    let first = err.find("line 1:").expect("line 1 reported");
    let third = err.find("line 3:").expect("line 3 reported");
    assert!(first < third, "{err}");
}

#[test]
fn four_shards_merge_to_the_unsharded_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = format!("{}/tests/fixtures/unique.txt", env!("CARGO_MANIFEST_DIR"));
    let lines: Vec<&str> = std::fs::read_to_string(&fixture)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(10)
        .map(str::to_string)
        .collect::<Vec<_>>()
        .leak()
        .iter()
        .map(|s| s.as_str())
        .collect();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("# ten puzzles\n{}\n", lines.join("\n"))).unwrap();
    let input_s = input.to_str().unwrap();
    let run = |out: &str, shard: Option<&str>| {
        let mut args = vec![
            "analyze",
            input_s,
            "--metrics",
            "clauses,relax",
            "--samples",
            "5",
            "-f",
            "jsonl",
            "-o",
            out,
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        let (code, _, err) = sudolab(&args, "");
        assert_eq!(code, 0, "{err}");
    };
    let whole = dir.path().join("whole.jsonl");
    run(whole.to_str().unwrap(), None);
    let shards: Vec<String> = (1..=4)
        .map(|i| dir.path().join(format!("s{i}.jsonl")).display().to_string())
        .collect();
    for (i, s) in shards.iter().enumerate() {
        run(s, Some(&format!("{}/4", i + 1)));
    }
    let merged = dir.path().join("merged.jsonl");
    let mut args = vec!["merge", merged.to_str().unwrap()];
    args.extend(shards.iter().map(String::as_str));
    args.extend(["--input", input_s]);
    let (code, _, err) = sudolab(&args, "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap(),
        "merged shards differ from the unsharded run"
    );
    // A shard missing, or one given twice: named, nothing written.
    let missing = dir.path().join("missing.jsonl");
    let three: Vec<&str> = shards[..3].iter().map(String::as_str).collect();
    let mut args = vec!["merge", missing.to_str().unwrap()];
    args.extend(&three);
    args.extend(["--input", input_s]);
    let (code, _, err) = sudolab(&args, "");
    assert_eq!(code, 3);
    assert!(err.contains("is in no shard"), "{err}");
    assert!(!missing.exists());
    let mut args = vec!["merge", missing.to_str().unwrap(), &shards[0], &shards[0]];
    args.extend(["--input", input_s]);
    let (code, _, err) = sudolab(&args, "");
    assert_eq!(code, 3);
    assert!(err.contains("and again in"), "{err}");
}

#[test]
fn completions_and_man_page() {
    let (code, out, _) = sudolab(&["completions", "bash"], "");
    assert_eq!(code, 0);
    assert!(out.contains("_sudolab()") && out.contains("relax"));
    let (code, out, _) = sudolab(&["man"], "");
    assert_eq!(code, 0);
    assert!(out.contains(".TH sudolab 1") && out.contains("analyze"));
}

#[test]
fn analyze_resume_refuses_a_file_written_without_dedup() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.jsonl");
    let out_s = out.to_str().unwrap();
    let input = format!("{EASY}\n{OTHER}\n");
    let args = [
        "analyze",
        "-",
        "--metrics",
        "clauses",
        "-f",
        "jsonl",
        "-o",
        out_s,
    ];
    let (code, _, err) = sudolab(&args, &input);
    assert_eq!(code, 0, "{err}");
    let mut resume = args.to_vec();
    resume.extend(["--resume", "--dedup"]);
    let (code, _, err) = sudolab(&resume, &input);
    assert_eq!(code, 1);
    assert!(err.contains("dedup = false, this run has true"), "{err}");
}
