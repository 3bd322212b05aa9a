//! A user's runs: an interrupted run keeps its finished
//! rows and `--resume` completes them, help written to a full disk fails,
//! a damaged or concurrently resumed output is refused.

use crate::common;

use common::{files_in, lines_of, sudolab_in};
use std::fs;
use std::path::Path;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// SIGINT during `analyze -f jsonl -o FILE` after its
/// first rows: every finished row is in the file, in input order, stderr
/// says how many and that `--resume` continues, the exit code is 130, and
/// `--resume` completes the file to exactly an uninterrupted run's.
#[cfg(unix)]
#[test]
fn sigint_keeps_the_finished_rows_and_resume_completes_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let puzzles = 200;
    fs::write(d.join("in.txt"), format!("{EASY}\n").repeat(puzzles)).unwrap();
    let args = |out: &str| -> Vec<String> {
        [
            "analyze",
            "in.txt",
            "--metrics",
            "clauses,relax",
            "--samples",
            "200",
            "-f",
            "jsonl",
            "-o",
            out,
        ]
        .map(String::from)
        .to_vec()
    };
    let args_out = args("out.jsonl");
    let argv: Vec<&str> = args_out.iter().map(String::as_str).collect();
    let mut child = common::spawn_in(d, &argv);
    let out = d.join("out.jsonl");
    // Rows arrive one by one, not a window at a time.
    let finished_lines = || {
        fs::read(&out)
            .unwrap_or_default()
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
    };
    common::wait_until(&mut child, "its first rows were seen", || {
        finished_lines() >= 3
    });
    let (status, err) = common::interrupt_for_stderr(child);
    assert_eq!(status.code(), Some(130), "{status}: {err}");
    let kept = lines_of(&out);
    assert!(
        kept.len() >= 3 && kept.len() < puzzles,
        "{} rows",
        kept.len()
    );
    assert_eq!(kept, (1..=kept.len() as u64).collect::<Vec<_>>());
    assert!(
        err.contains(&format!("keeps {} finished row(s)", kept.len())) && err.contains("--resume"),
        "{err}"
    );
    // No `-f jsonl`: the extension says JSON Lines.
    let mut resumed = args("out.jsonl");
    resumed.retain(|a| a != "-f" && a != "jsonl");
    resumed.push("--resume".into());
    let resumed: Vec<&str> = resumed.iter().map(String::as_str).collect();
    let (code, _, err) = sudolab_in(d, &resumed, b"");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("{} row(s) already done", kept.len())),
        "{err}"
    );
    let whole: Vec<String> = args("whole.jsonl");
    let whole: Vec<&str> = whole.iter().map(String::as_str).collect();
    let (code, _, err) = sudolab_in(d, &whole, b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        fs::read_to_string(&out).unwrap(),
        fs::read_to_string(d.join("whole.jsonl")).unwrap()
    );
    assert_eq!(lines_of(&out).len(), puzzles);
}

/// Help and version written to a full disk exit 1, as the
/// README's exit codes promise for an output that cannot be written.
#[cfg(target_os = "linux")]
#[test]
fn help_to_a_full_disk_fails() {
    use std::process::{Command, Stdio};
    for args in [&["--help"][..], &["--version"], &["check", "--help"]] {
        let status = Command::new(env!("CARGO_BIN_EXE_sudolab"))
            .args(args)
            .stdout(fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(1), "{args:?}");
    }
    let (code, out, _) = common::sudolab(&["--version"], "");
    assert_eq!((code, out.starts_with("sudolab ")), (0, true), "{out}");
}

/// The arguments of a streamed run of 200 puzzles to `dr.jsonl` in `d`,
/// and that run started, once its first row is in the file.
#[cfg(unix)]
fn a_streaming_run(d: &Path) -> ([&'static str; 8], std::process::Child) {
    fs::write(d.join("in.txt"), format!("{EASY}\n").repeat(200)).unwrap();
    let args = [
        "analyze",
        "in.txt",
        "--metrics",
        "clauses,relax",
        "--samples",
        "200",
        "-o",
        "dr.jsonl",
    ];
    let mut first = common::spawn_in(d, &args);
    common::wait_until(&mut first, "its first rows were seen", || {
        fs::read(d.join("dr.jsonl")).is_ok_and(|b| b.contains(&b'\n'))
    });
    (args, first)
}

/// `err` refuses `dr.jsonl` because the streaming run `first` writes it.
#[cfg(unix)]
fn assert_refused_by(err: &str, first: &std::process::Child, what: &str) {
    let want = format!(
        "dr.jsonl is being written by another sudolab run (process {})",
        first.id()
    );
    assert!(err.contains(&want), "{what}: {err}");
}

/// Interrupts `run` (our own child), which ends with exit code 130.
#[cfg(unix)]
fn interrupt(mut run: std::process::Child) {
    // SAFETY: signals our own child process.
    unsafe { libc::kill(run.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(run.wait().unwrap().code(), Some(130));
}

/// A second run on an output another run is streaming to
/// refuses, naming the first (its process id); the lock file goes with the
/// first run.
#[cfg(unix)]
#[test]
fn a_second_run_on_a_streamed_output_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (args, first) = a_streaming_run(d);
    let mut again = args.to_vec();
    again.push("--resume");
    let (code, _, err) = sudolab_in(d, &again, b"");
    assert_eq!(code, 1, "{err}");
    assert_refused_by(&err, &first, "--resume");
    interrupt(first);
    assert_eq!(files_in(d), ["dr.jsonl", "dr.jsonl.run.json", "in.txt"]);
}

/// Another command writing the file a run is streaming into (`check -o`,
/// `solve -o`, `relax --plot`) refuses, naming the run, and writes nothing:
/// the streaming run's rows are all kept (issue 58: `check -o` renamed its
/// output over the file and every streamed row went into a deleted file).
#[cfg(unix)]
#[test]
fn every_writer_of_a_streamed_output_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_, first) = a_streaming_run(d);
    let writers: [&[&str]; 3] = [
        &["check", "in.txt", "-o", "dr.jsonl"],
        &["solve", "in.txt", "-o", "dr.jsonl"],
        &[
            "relax", "in.txt", "--sweep", "40:45:5", "--plot", "dr.jsonl",
        ],
    ];
    for args in writers {
        let (code, _, err) = sudolab_in(d, args, b"");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_refused_by(&err, &first, &format!("{args:?}"));
    }
    interrupt(first);
    let lines = lines_of(&d.join("dr.jsonl"));
    assert!(!lines.is_empty());
    assert_eq!(lines, (1..=lines.len() as u64).collect::<Vec<_>>());
    assert_eq!(files_in(d), ["dr.jsonl", "dr.jsonl.run.json", "in.txt"]);
}

/// Through another name: a second run resuming the streamed
/// output through a symbolic link (its run record linked too) takes the
/// same lock and refuses, so no row is written twice.
#[cfg(unix)]
#[test]
fn a_second_run_through_a_link_to_a_streamed_output_refuses() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (args, first) = a_streaming_run(d);
    symlink("dr.jsonl", d.join("link.jsonl")).unwrap();
    symlink("dr.jsonl.run.json", d.join("link.jsonl.run.json")).unwrap();
    let mut again = args.to_vec();
    again[7] = "link.jsonl";
    again.push("--resume");
    let (code, _, err) = sudolab_in(d, &again, b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "link.jsonl is being written by another sudolab run (process {})",
            first.id()
        )),
        "{err}"
    );
    interrupt(first);
    let text = fs::read_to_string(d.join("dr.jsonl")).unwrap();
    let lines: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["line"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(lines, (1..=lines.len() as u64).collect::<Vec<_>>());
}

/// A run through a hard link to a streamed output (its own lock file, its
/// own run record) refuses: the first run holds a lock on the file itself.
#[cfg(unix)]
#[test]
fn a_second_run_through_a_hard_link_to_a_streamed_output_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (args, first) = a_streaming_run(d);
    fs::hard_link(d.join("dr.jsonl"), d.join("hard.jsonl")).unwrap();
    fs::copy(d.join("dr.jsonl.run.json"), d.join("hard.jsonl.run.json")).unwrap();
    let mut again = args.to_vec();
    again[7] = "hard.jsonl";
    again.push("--resume");
    let (code, _, err) = sudolab_in(d, &again, b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("hard.jsonl is being written by another sudolab run under another name"),
        "{err}"
    );
    // The refused run's lock file goes with it (issue 58: a 0-byte
    // `.hard.jsonl.lock` was left).
    assert!(!d.join(".hard.jsonl.lock").exists(), "{:?}", files_in(d));
    interrupt(first);
}

/// A file of the user's own in the place of an output's lock file is not
/// taken for a stale lock: the run refuses and the file is kept.
#[cfg(unix)]
#[test]
fn a_users_file_in_the_lock_files_place_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), format!("{EASY}\n")).unwrap();
    fs::write(d.join(".o.jsonl.lock"), "my notes\n").unwrap();
    let args = ["analyze", "in.txt", "--metrics", "clauses", "-o", "o.jsonl"];
    let (code, _, err) = sudolab_in(d, &args, b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("holds something else than a process id"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(d.join(".o.jsonl.lock")).unwrap(),
        "my notes\n"
    );
    // A lock left by a killed run (a process id) is taken over.
    fs::write(d.join(".o.jsonl.lock"), "4242").unwrap();
    let (code, _, err) = sudolab_in(d, &args, b"");
    assert_eq!(code, 0, "{err}");
    assert!(!d.join(".o.jsonl.lock").exists());
}

/// `--resume` refuses a file with a duplicated row, as merge
/// does, naming the file lines.
#[test]
fn resume_refuses_a_duplicated_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), format!("{EASY}\n").repeat(3)).unwrap();
    let args = ["analyze", "in.txt", "--metrics", "clauses", "-o", "o.jsonl"];
    let (code, _, err) = sudolab_in(d, &args, b"");
    assert_eq!(code, 0, "{err}");
    let text = fs::read_to_string(d.join("o.jsonl")).unwrap();
    let first = text.lines().next().unwrap();
    fs::write(d.join("o.jsonl"), format!("{first}\n{first}\n")).unwrap();
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    let (code, _, err) = sudolab_in(d, &resumed, b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("o.jsonl line 2: input line 1 again (first at line 1)"),
        "{err}"
    );
}

/// `rate`'s text table shows `serate`, `se_equivalent` and
/// `minutes` under their CSV names, with the CSV's values; `rate --help`
/// explains the columns.
#[test]
fn the_rate_table_shows_the_answers_under_their_csv_names() {
    let (code, text, err) = common::sudolab(&["rate", "-", "-m", "serate"], &format!("{EASY}\n"));
    assert_eq!(code, 0, "{err}");
    let (code, csv, err) = common::sudolab(
        &["rate", "-", "-m", "serate", "-f", "csv"],
        &format!("{EASY}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let header: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
    let row: Vec<&str> = text.lines().nth(1).unwrap().split_whitespace().collect();
    let csv_header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let csv_row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let csv_value = |name: &str| -> f64 {
        let i = csv_header.iter().position(|h| *h == name).unwrap();
        csv_row[i].parse().unwrap()
    };
    // The score column holds the score and its level: one word more.
    let text_value = |name: &str| -> &str {
        let i = header.iter().position(|h| *h == name).unwrap();
        let past_score = header
            .iter()
            .position(|h| *h == "score")
            .is_some_and(|s| i > s);
        row[i + usize::from(past_score)]
    };
    for (name, decimals) in [("serate", 1), ("se_equivalent", 1), ("minutes", 1)] {
        assert_eq!(
            text_value(name),
            format!("{:.decimals$}", csv_value(name)),
            "{name}: {text}"
        );
    }
    let (code, help, _) = common::sudolab(&["rate", "--help"], "");
    assert_eq!(code, 0);
    for name in ["se_equivalent", "serate", "sisus_refutation_sum"] {
        assert!(help.contains(&format!("\n  {name} ")), "{name}: {help}");
    }
    assert!(help.contains("minutes: predicted"), "{help}");
}

/// A user's file at a run record's path is not a run record: the run
/// refuses, keeps it and writes no output (issue 58: it was replaced).
#[test]
fn a_users_file_in_the_run_records_place_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), format!("{EASY}\n")).unwrap();
    let runs: [(&str, &[&str]); 2] = [
        (
            "o.jsonl",
            &["analyze", "in.txt", "--metrics", "clauses", "-o", "o.jsonl"],
        ),
        (
            "r.jsonl",
            &[
                "relax",
                "in.txt",
                "--samples",
                "3",
                "-f",
                "jsonl",
                "-o",
                "r.jsonl",
            ],
        ),
    ];
    for (out, args) in runs {
        let record = d.join(format!("{out}.run.json"));
        fs::write(&record, "keep\n").unwrap();
        let (code, _, err) = sudolab_in(d, args, b"");
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "{out}.run.json is in the place of {out}'s run record and is not one"
            )),
            "{args:?}: {err}"
        );
        assert_eq!(fs::read_to_string(&record).unwrap(), "keep\n");
        assert!(!d.join(out).exists(), "{args:?}");
    }
}

/// A run record belongs beside the file a symbolic link names: written
/// through the link, resumed through the file's own name, and the reverse
/// (issue 58: "has rows but no run record").
#[cfg(unix)]
#[test]
fn a_run_record_sits_beside_the_file_a_link_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), format!("{EASY}\n{EASY}\n")).unwrap();
    fs::write(d.join("tgt.jsonl"), "").unwrap();
    std::os::unix::fs::symlink("tgt.jsonl", d.join("lk.jsonl")).unwrap();
    let run = |out: &str, resume: bool| {
        let mut args = vec!["analyze", "in.txt", "--metrics", "clauses", "-o", out];
        if resume {
            args.push("--resume");
        }
        sudolab_in(d, &args, b"")
    };
    let (code, _, err) = run("lk.jsonl", false);
    assert_eq!(code, 0, "{err}");
    assert!(d.join("tgt.jsonl.run.json").exists());
    assert!(!d.join("lk.jsonl.run.json").exists());
    for out in ["tgt.jsonl", "lk.jsonl"] {
        let (code, _, err) = run(out, true);
        assert_eq!(code, 0, "{out}: {err}");
    }
    assert_eq!(lines_of(&d.join("tgt.jsonl")), [1, 2]);
}
