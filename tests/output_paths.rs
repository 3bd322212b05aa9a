//! One rule for every path a command writes:
//! every command's every path flag with an output that is one of its
//! inputs (by name, a hard link, a symbolic link) is refused with a message
//! naming the flag and the path, and the input is left byte for byte; two
//! outputs on one path are refused; a side file (the run record) follows
//! no planted link; a failed run leaves nothing behind; `encode -o DIR/`
//! keeps a run's files together; a signal keeps a replacing run's rows and
//! the earlier file beside them.

use crate::common;

use common::sudolab_in;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// Every argument that names a file, as `COMMAND ARGUMENT` (clap's ids):
/// the same list as `PATH_ARGUMENTS` in src/cli/app.rs, whose test finds
/// them in the command line's definition. Each is walked below.
const PATH_ARGUMENTS: &[&str] = &[
    "analyze input",
    "analyze output",
    "backbone emit_graph",
    "backbone input",
    "backbone output",
    "backbone remove_edges",
    "canon input",
    "canon output",
    "check input",
    "check output",
    "classify output",
    "classify results",
    "clauses input",
    "clauses output",
    "count emit_graph",
    "count input",
    "count output",
    "count remove_edges",
    "decode model",
    "decode output",
    "decode puzzle",
    "encode input",
    "encode output",
    "eval output",
    "eval results",
    "fit model_out",
    "fit output",
    "fit results",
    "generate from",
    "generate output",
    "merge input",
    "merge out",
    "merge shards",
    "order input",
    "order output",
    "rate input",
    "rate output",
    "relax emit_samples",
    "relax input",
    "relax output",
    "relax plot",
    "report input",
    "report output",
    "report reference",
    "score input",
    "score model",
    "score output",
    "solve input",
    "solve output",
];

/// An output that is an input: the command (`OUT` stands for the output's
/// path, `IN` for the input's), the flag that names the output, the input
/// file, and the two arguments walked (output, input).
struct Case {
    args: &'static [&'static str],
    flag: &'static str,
    covers: [&'static str; 2],
}

const CASES: &[Case] = &[
    Case {
        args: &["analyze", "IN", "--metrics", "clauses", "-o", "OUT"],
        flag: "-o",
        covers: ["analyze output", "analyze input"],
    },
    Case {
        args: &["backbone", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["backbone output", "backbone input"],
    },
    Case {
        args: &[
            "backbone",
            "-",
            "--remove-edges",
            "IN",
            "--emit-graph",
            "OUT",
        ],
        flag: "--emit-graph",
        covers: ["backbone emit_graph", "backbone remove_edges"],
    },
    Case {
        args: &["canon", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["canon output", "canon input"],
    },
    Case {
        args: &["check", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["check output", "check input"],
    },
    Case {
        args: &["classify", "IN", "--metric", "givens", "-o", "OUT"],
        flag: "-o",
        covers: ["classify output", "classify results"],
    },
    Case {
        args: &["clauses", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["clauses output", "clauses input"],
    },
    Case {
        args: &["count", "-", "--remove-edges", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["count output", "count remove_edges"],
    },
    Case {
        args: &[
            "count",
            "IN",
            "--remove-edges",
            "[[0,1]]",
            "--emit-graph",
            "OUT",
        ],
        flag: "--emit-graph",
        covers: ["count emit_graph", "count input"],
    },
    Case {
        args: &["decode", "--puzzle", EASY, "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["decode output", "decode model"],
    },
    Case {
        args: &["decode", "--puzzle", "IN", "-", "-o", "OUT"],
        flag: "-o",
        covers: ["decode puzzle", "decode output"],
    },
    Case {
        args: &["encode", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["encode output", "encode input"],
    },
    Case {
        args: &["eval", "IN", "--label", "label", "-o", "OUT"],
        flag: "-o",
        covers: ["eval output", "eval results"],
    },
    Case {
        args: &[
            "fit",
            "IN",
            "--label",
            "givens",
            "--metrics",
            "givens",
            "-o",
            "OUT",
        ],
        flag: "-o",
        covers: ["fit output", "fit results"],
    },
    Case {
        args: &[
            "fit",
            "IN",
            "--score",
            "--label",
            "givens",
            "--model-out",
            "OUT",
        ],
        flag: "--model-out",
        covers: ["fit model_out", "fit results"],
    },
    Case {
        args: &["generate", "-m", "pseudo", "--from", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["generate output", "generate from"],
    },
    Case {
        args: &["merge", "OUT", "IN"],
        flag: "merge OUT",
        covers: ["merge out", "merge shards"],
    },
    Case {
        args: &["merge", "OUT", "shard.jsonl", "--input", "IN"],
        flag: "merge OUT",
        covers: ["merge out", "merge input"],
    },
    Case {
        args: &["order", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["order output", "order input"],
    },
    Case {
        args: &["rate", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["rate output", "rate input"],
    },
    Case {
        args: &["relax", "IN", "-f", "jsonl", "-o", "OUT"],
        flag: "-o",
        covers: ["relax output", "relax input"],
    },
    Case {
        args: &["relax", "IN", "--emit-samples", "OUT"],
        flag: "--emit-samples",
        covers: ["relax emit_samples", "relax input"],
    },
    Case {
        args: &["relax", "IN", "--sweep", "0:10:5", "--plot", "OUT"],
        flag: "--plot",
        covers: ["relax plot", "relax input"],
    },
    Case {
        args: &["report", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["report output", "report input"],
    },
    Case {
        args: &["report", "-", "--reference", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["report output", "report reference"],
    },
    Case {
        args: &["score", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["score output", "score input"],
    },
    Case {
        args: &["score", "-", "--model", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["score output", "score model"],
    },
    Case {
        args: &["solve", "IN", "-o", "OUT"],
        flag: "-o",
        covers: ["solve output", "solve input"],
    },
];

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Runs `sudolab` in `dir` with the puzzle on stdin.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    sudolab_in(dir, args, format!("{EASY}\n").as_bytes())
}

#[test]
fn the_walk_covers_every_path_argument() {
    let covered: BTreeSet<&str> = CASES.iter().flat_map(|c| c.covers).collect();
    let listed: BTreeSet<&str> = PATH_ARGUMENTS.iter().copied().collect();
    assert_eq!(covered, listed);
}

/// Every path flag of every command: an output that is the input by name,
/// by a hard link or by a symbolic link is refused (exit 1), the message
/// names the flag and the path, and the input is left byte for byte.
#[cfg(unix)]
#[test]
fn an_output_that_is_an_input_is_refused_for_every_path_flag() {
    let input = format!("{EASY}\n");
    for case in CASES {
        for how in ["name", "hard link", "symbolic link"] {
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path();
            fs::write(d.join("in.txt"), &input).unwrap();
            fs::write(d.join("shard.jsonl"), "").unwrap();
            let out = match how {
                "name" => "in.txt",
                "hard link" => {
                    fs::hard_link(d.join("in.txt"), d.join("hard.txt")).unwrap();
                    "hard.txt"
                }
                _ => {
                    std::os::unix::fs::symlink("in.txt", d.join("soft.txt")).unwrap();
                    "soft.txt"
                }
            };
            let args: Vec<&str> = case
                .args
                .iter()
                .map(|&a| match a {
                    "IN" => "in.txt",
                    "OUT" => out,
                    a => a,
                })
                .collect();
            let (code, _, err) = run_in(d, &args);
            assert_eq!(code, 1, "{args:?} ({how}): {err}");
            let said = format!("{} {out}: this is the input file in.txt", case.flag);
            assert!(
                err.contains(&said) && err.contains("writing it would destroy the input"),
                "{args:?} ({how}): {err}"
            );
            assert_eq!(
                fs::read_to_string(d.join("in.txt")).unwrap(),
                input,
                "{args:?} ({how})"
            );
            if how == "symbolic link" {
                assert!(fs::symlink_metadata(d.join(out)).unwrap().is_symlink());
            }
        }
    }
}

/// Side files are outputs too: a streamed output's run record that is the
/// input, `merge`'s record that is `--input` or a shard's record, and an
/// `encode -o DIR/` file that is the input are refused.
#[test]
fn a_side_file_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = format!("{EASY}\n");
    fs::write(d.join("y.run.json"), &input).unwrap();
    for command in ["analyze", "relax"] {
        let args = [command, "y.run.json", "-f", "jsonl", "-o", "y"];
        let (code, _, err) = run_in(d, &args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains(
                "-o y: its run record y.run.json is the input file y.run.json (same file)"
            ),
            "{err}"
        );
    }
    let (code, _, err) = run_in(d, &["merge", "y", "s.jsonl", "--input", "y.run.json"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "merge OUT y: its run record y.run.json is the input file y.run.json of --input"
        ),
        "{err}"
    );
    fs::write(d.join("s.jsonl"), "").unwrap();
    fs::write(d.join("s.jsonl.run.json"), "{}").unwrap();
    let (code, _, err) = run_in(d, &["merge", "s.jsonl.run.json", "s.jsonl"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("merge OUT s.jsonl.run.json: this is the input file s.jsonl.run.json, the run record of s.jsonl"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(d.join("s.jsonl.run.json")).unwrap(),
        "{}"
    );
    fs::create_dir(d.join("h")).unwrap();
    fs::write(d.join("h/line1.cnf"), &input).unwrap();
    let (code, _, err) = run_in(d, &["encode", "h/line1.cnf", "-o", "h/"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("-o h/: h/line1.cnf is the input file h/line1.cnf (same file)"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(d.join("h/line1.cnf")).unwrap(), input);
    assert_eq!(fs::read_to_string(d.join("y.run.json")).unwrap(), input);
}

/// Two outputs on one path are refused before any work, and `count
/// --emit-graph` without `--remove-edges` (which writes no graph) says so.
#[test]
fn two_outputs_on_one_path_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("r.jsonl"), "").unwrap();
    for (args, said) in [
        (
            &["backbone", "-", "--emit-graph", "x", "-o", "x"][..],
            "--emit-graph x: this is the same file as -o x",
        ),
        (
            &["relax", "-", "--emit-samples", "x", "-o", "x"],
            "--emit-samples x: this is the same file as -o x",
        ),
        (
            &["relax", "-", "--sweep", "0:10:5", "--plot", "x", "-o", "x"],
            "--plot x: this is the same file as -o x",
        ),
        (
            &[
                "fit",
                "r.jsonl",
                "--score",
                "--label",
                "givens",
                "--model-out",
                "x",
                "-o",
                "./x",
            ],
            "--model-out x: this is the same file as -o ./x",
        ),
        (
            &[
                "relax",
                "-",
                "-f",
                "jsonl",
                "-o",
                "o.jsonl",
                "--emit-samples",
                "o.jsonl.run.json",
            ],
            "-o o.jsonl: its run record o.jsonl.run.json is the same file as --emit-samples o.jsonl.run.json",
        ),
        (
            &["count", "-", "--emit-graph", "g.dot"],
            "--emit-graph g.dot: count writes no graph without --remove-edges",
        ),
    ] {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert_eq!(names(d), ["r.jsonl"], "{args:?}");
    }
}

/// A symbolic link planted where a streamed output's run record or lock
/// goes is replaced, not followed: the file it names is left as it was.
#[cfg(unix)]
#[test]
fn a_planted_link_at_a_side_file_is_not_followed() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("A")).unwrap();
    fs::create_dir(d.join("B")).unwrap();
    fs::write(d.join("in.txt"), format!("{EASY}\n")).unwrap();
    for (command, extra) in [("analyze", "--metrics=clauses"), ("relax", "--samples=3")] {
        fs::write(d.join("B/victim.txt"), "victim\n").unwrap();
        let _ = fs::remove_file(d.join("A/out.jsonl"));
        let _ = fs::remove_file(d.join("A/out.jsonl.run.json"));
        symlink("../B/victim.txt", d.join("A/out.jsonl.run.json")).unwrap();
        symlink("../B/victim.txt", d.join("A/.out.jsonl.lock")).unwrap();
        let args = [command, "in.txt", extra, "-f", "jsonl", "-o", "A/out.jsonl"];
        let (code, _, err) = run_in(d, &args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(
            fs::read_to_string(d.join("B/victim.txt")).unwrap(),
            "victim\n"
        );
        let record = d.join("A/out.jsonl.run.json");
        assert!(!fs::symlink_metadata(&record).unwrap().is_symlink());
        let text = fs::read_to_string(&record).unwrap();
        assert!(
            text.contains(&format!("\"command\": \"{command}\"")),
            "{text}"
        );
        assert_eq!(names(&d.join("A")), ["out.jsonl", "out.jsonl.run.json"]);
    }
}

/// A symbolic link planted in an `encode -o DIR/` folder where the run
/// writes its `line<N>.cnf` is replaced by the file, not followed: the
/// file it names is left as it was.
#[cfg(unix)]
#[test]
fn a_planted_link_in_an_encode_folder_is_not_followed() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("cnf")).unwrap();
    fs::write(d.join("victim.txt"), "victim\n").unwrap();
    symlink("../victim.txt", d.join("cnf/line1.cnf")).unwrap();
    let (code, _, err) = run_in(d, &["encode", "-", "-o", "cnf/"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        fs::read_to_string(d.join("victim.txt")).unwrap(),
        "victim\n"
    );
    let written = d.join("cnf/line1.cnf");
    assert!(!fs::symlink_metadata(&written).unwrap().is_symlink());
    let text = fs::read_to_string(&written).unwrap();
    assert!(text.starts_with("c sudolab encoding="), "{text}");
    assert_eq!(names(&d.join("cnf")), ["line1.cnf"]);
}

/// A run that fails before its first result leaves nothing behind: no
/// output, no run record, no folder it created.
#[test]
fn a_failed_run_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("empty.txt"), "").unwrap();
    // A second 5 in row 1: contradictory, refused by the minimal encoding
    // after the first puzzle's file is staged.
    let two_fives = EASY.replacen("53.", "535", 1);
    fs::write(d.join("bad2.txt"), format!("{EASY}\n{two_fives}\n")).unwrap();
    for (args, said) in [
        (
            &["analyze", "empty.txt", "-f", "jsonl", "-o", "ef.jsonl"][..],
            "no puzzle found in empty.txt",
        ),
        (
            &["relax", "empty.txt", "-f", "jsonl", "-o", "ef.jsonl"],
            "no puzzle found in empty.txt",
        ),
        (
            &["encode", "bad2.txt", "-o", "new/deeper/"],
            "line 2: puzzle is contradictory",
        ),
    ] {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert_eq!(names(d), ["bad2.txt", "empty.txt"], "{args:?}");
    }
}

/// `encode -o DIR/` keeps a run's files together: a folder holding
/// `line<N>.cnf` files of an earlier run that this run does not write is
/// refused (nothing written), and `--clean` removes them, saying so.
#[test]
fn encode_keeps_a_runs_files_together() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("p28.txt"), format!("{EASY}\n").repeat(28)).unwrap();
    fs::write(d.join("p3.txt"), format!("{EASY}\n").repeat(3)).unwrap();
    let (code, _, err) = run_in(d, &["encode", "p28.txt", "-o", "ed/"]);
    assert_eq!(code, 0, "{err}");
    fs::write(d.join("ed/notes.txt"), "mine").unwrap();
    let before = names(&d.join("ed"));
    assert_eq!(before.len(), 29);
    let (code, _, err) = run_in(d, &["encode", "p3.txt", "-o", "ed/"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("-o ed/: holds 25 line<N>.cnf file(s) of an earlier run that this run does not write (line4.cnf, line5.cnf, line6.cnf, … 22 more)")
            && err.contains("--clean"),
        "{err}"
    );
    assert_eq!(names(&d.join("ed")), before);
    let (code, _, err) = run_in(d, &["encode", "p3.txt", "-o", "ed/", "--clean"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--clean: removed 25 line<N>.cnf file(s)"),
        "{err}"
    );
    assert_eq!(
        names(&d.join("ed")),
        ["line1.cnf", "line2.cnf", "line3.cnf", "notes.txt"]
    );
    // The same run again writes the same files: nothing is stale.
    let (code, _, err) = run_in(d, &["encode", "p3.txt", "-o", "ed/"]);
    assert_eq!(code, 0, "{err}");
}

/// SIGINT while a streamed run replaces an existing file: nothing is lost.
/// The finished rows take the file (exit 130, `--resume` continues them),
/// and the earlier file is kept beside it under a fresh name, which stderr
/// names.
#[cfg(unix)]
#[test]
fn a_signal_keeps_a_replacing_runs_rows_and_the_earlier_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let puzzles = 200;
    fs::write(d.join("in.txt"), format!("{EASY}\n").repeat(puzzles)).unwrap();
    let earlier = "{\"line\":1,\"earlier\":true}\n";
    fs::write(d.join("out.jsonl"), earlier).unwrap();
    let args = [
        "analyze",
        "in.txt",
        "--metrics",
        "clauses,relax",
        "--samples",
        "200",
        "-o",
        "out.jsonl",
    ];
    let mut child = common::spawn_in(d, &args);
    // The rows go to a temporary file until the run completes.
    let rows_in_temporary = || {
        names(d)
            .iter()
            .filter(|n| n.ends_with(".tmp"))
            .map(|n| {
                fs::read(d.join(n))
                    .unwrap_or_default()
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count()
            })
            .sum::<usize>()
    };
    common::wait_until(&mut child, "its first rows were seen", || {
        rows_in_temporary() >= 3
    });
    let (status, err) = common::interrupt_for_stderr(child);
    assert_eq!(status.code(), Some(130), "{status}: {err}");
    assert_eq!(
        names(d),
        [
            "in.txt",
            "out.earlier.jsonl",
            "out.jsonl",
            "out.jsonl.run.json"
        ]
    );
    assert_eq!(
        fs::read_to_string(d.join("out.earlier.jsonl")).unwrap(),
        earlier
    );
    let kept = fs::read_to_string(d.join("out.jsonl"))
        .unwrap()
        .lines()
        .count();
    assert!(kept >= 3 && kept < puzzles, "{kept} rows");
    assert!(
        err.contains(&format!("out.jsonl keeps {kept} finished row(s) ({kept} from this run); the file it held before is kept as out.earlier.jsonl"))
            && err.contains("--resume"),
        "{err}"
    );
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    let (code, _, err) = sudolab_in(d, &resumed, b"");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("{kept} row(s) already done")),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(d.join("out.jsonl"))
            .unwrap()
            .lines()
            .count(),
        puzzles
    );
}
