//! Resume and merge check the identity of a run: a
//! results file's run record (`FILE.run.json`) names the command, every
//! parameter that changes a row and the input's identity; a resumed run or a
//! merge with anything else is refused, naming what differs, and nothing is
//! appended or written.

use crate::common;

use common::sudolab;
use std::path::Path;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const OTHER: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const THIRD: &str =
    "..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759..";

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `relax FILE -f jsonl -o OUT --samples 4` with `extra` flags.
fn relax(input: &Path, out: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec![
        "relax",
        s(input),
        "--samples",
        "4",
        "-f",
        "jsonl",
        "-o",
        s(out),
    ];
    args.extend(extra);
    let (code, _, err) = sudolab(&args, "");
    (code, err)
}

#[test]
fn resume_refuses_another_k_engine_or_input_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{EASY}\n{OTHER}\n")).unwrap();
    let out = dir.path().join("r.jsonl");
    let (code, err) = relax(&input, &out, &["--k", "45"]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read(&out).unwrap();
    assert_eq!(lines(&out), 2);

    let refused = |extra: &[&str], input: &Path, why: &str| {
        let (code, err) = relax(input, &out, extra);
        assert_eq!(code, 1, "{extra:?}: {err}");
        assert!(err.contains(why), "{extra:?}: {err}");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            written,
            "{extra:?} changed the file"
        );
    };
    refused(
        &["--k", "44", "--resume"],
        &input,
        "k = 45, this run has 44",
    );
    refused(
        &["--k", "45", "--engine", "dlx", "--resume"],
        &input,
        r#"engine = "bitset", this run has "dlx""#,
    );
    refused(
        &["--sweep", "45:45:1", "--resume"],
        &input,
        "sweep = null, this run has [45]",
    );
    // Another file with the same first lines, one more: another input.
    let longer = dir.path().join("longer.txt");
    std::fs::write(&longer, format!("{EASY}\n{OTHER}\n{THIRD}\n")).unwrap();
    refused(&["--k", "45", "--resume"], &longer, "input = \"fnv1a64:");

    // The same run resumes: nothing to add.
    let (code, err) = relax(&input, &out, &["--k", "45", "--resume"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2 row(s) already done"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), written);

    // A file without its run record cannot be checked: refused.
    std::fs::remove_file(dir.path().join("r.jsonl.run.json")).unwrap();
    refused(&["--k", "45", "--resume"], &input, "no run record");
}

#[test]
fn resume_refuses_side_outputs_that_would_miss_the_kept_rows() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{EASY}\n{OTHER}\n")).unwrap();
    let out = dir.path().join("r.jsonl");
    let samples = dir.path().join("s.jsonl");
    let plot = dir.path().join("p.svg");
    // Killed after the first row.
    let (code, err) = relax(&input, &out, &["--sweep", "10:20:10"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let first: String = text.lines().take(1).map(|l| format!("{l}\n")).collect();
    std::fs::write(&out, &first).unwrap();

    for (flag, path) in [("--emit-samples", &samples), ("--plot", &plot)] {
        let (code, err) = relax(
            &input,
            &out,
            &["--sweep", "10:20:10", "--resume", flag, s(path)],
        );
        assert_eq!(code, 1, "{flag}: {err}");
        assert!(
            err.contains(&format!(
                "{flag} with --resume: the 1 row(s) already in the output"
            )),
            "{flag}: {err}"
        );
        assert!(!path.exists(), "{flag} wrote a partial side output");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    }
    // Resuming a file with no rows yet: the side outputs cover everything.
    std::fs::write(&out, "").unwrap();
    let (code, err) = relax(
        &input,
        &out,
        &[
            "--sweep",
            "10:20:10",
            "--resume",
            "--emit-samples",
            s(&samples),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&out), 4);
    assert_eq!(
        lines(&samples),
        4 * 4,
        "4 samples for each of 2 puzzles × 2 k"
    );
}

/// Shards `1/2` and `2/2` of `analyze` over `input`; their paths.
fn shards(dir: &Path, input: &Path, name: &str) -> Vec<String> {
    (1..=2)
        .map(|i| {
            let out = dir.join(format!("{name}{i}.jsonl"));
            let shard = format!("{i}/2");
            let (code, _, err) = sudolab(
                &[
                    "analyze",
                    s(input),
                    "--metrics",
                    "clauses",
                    "--shard",
                    &shard,
                    "-f",
                    "jsonl",
                    "-o",
                    s(&out),
                ],
                "",
            );
            assert_eq!(code, 0, "{err}");
            out.display().to_string()
        })
        .collect()
}

#[test]
fn merge_refuses_shards_that_do_not_cover_the_input_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let long = dir.path().join("long.txt");
    std::fs::write(&long, format!("{EASY}\n{OTHER}\n{THIRD}\n{EASY}\n")).unwrap();
    let short = dir.path().join("short.txt");
    std::fs::write(&short, format!("{EASY}\n{OTHER}\n")).unwrap();
    let parts = shards(dir.path(), &long, "s");
    let merged = dir.path().join("m.jsonl");
    let merge = |input: &Path| {
        let mut args = vec!["merge", s(&merged)];
        args.extend(parts.iter().map(String::as_str));
        args.extend(["--input", s(input)]);
        sudolab(&args, "")
    };
    let (code, _, err) = merge(&short);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("has a row for input line 3, which the input does not have"),
        "{err}"
    );
    assert!(err.contains("has a row for input line 4,"), "{err}");
    assert!(
        err.contains("the shards read an input with identity"),
        "{err}"
    );
    assert!(!merged.exists(), "nothing written");

    let (code, _, err) = merge(&long);
    assert_eq!(code, 0, "{err}");
    assert_eq!(lines(&merged), 4);
    // The merged file carries the run record, without a shard.
    let record = std::fs::read_to_string(dir.path().join("m.jsonl.run.json")).unwrap();
    assert!(
        record.contains("\"analyze\"") && !record.contains("shard"),
        "{record}"
    );
}

#[test]
fn merge_of_shards_with_other_parameters_exits_3_and_names_the_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{EASY}\n{OTHER}\n{THIRD}\n")).unwrap();
    let first = shards(dir.path(), &input, "a");
    let out = dir.path().join("b2.jsonl");
    let (code, _, err) = sudolab(
        &[
            "analyze",
            s(&input),
            "--metrics",
            "clauses,relax",
            "--samples",
            "3",
            "--shard",
            "2/2",
            "-f",
            "jsonl",
            "-o",
            s(&out),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let merged = dir.path().join("m.jsonl");
    let (code, _, err) = sudolab(
        &[
            "merge",
            s(&merged),
            &first[0],
            s(&out),
            "--input",
            s(&input),
        ],
        "",
    );
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains(r#"b2.jsonl was computed with metrics = "clauses,relax", "#),
        "{err}"
    );
    assert!(
        err.contains("shards of one run share their parameters"),
        "{err}"
    );
    assert!(!merged.exists());
}
