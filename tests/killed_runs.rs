//! Runs that do not end well keep what they finished and say so (issue
//! 58, "nothing lost"): a run killed by SIGKILL, one interrupted twice,
//! one past `ulimit -f`, an interrupted `encode -o DIR/`, two resumes
//! racing through two names of one file, and the refusals of `--resume`.
//!
//! A run fed on a standard input that stays open ([`common::spawn_fed`])
//! computes its first window (256 puzzles) and then waits for more input:
//! the signal reaches it at a known point, whatever the machine's speed.

use crate::common;

use common::{files_in, lines_of, sudolab_in};
use std::fs;
use std::path::Path;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// `n` copies of EASY, one a line.
fn puzzles(n: usize) -> String {
    format!("{EASY}\n").repeat(n)
}

/// `analyze INPUT --metrics clauses -o OUT`, the run most of these tests
/// interrupt or resume.
fn analyze_clauses<'a>(input: &'a str, out: &'a str) -> Vec<&'a str> {
    vec!["analyze", input, "--metrics", "clauses", "-o", out]
}

/// The temporary files (`.NAME.XXXXXX.tmp`) in `d`.
fn temporaries(d: &Path) -> Vec<String> {
    files_in(d)
        .into_iter()
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// `analyze - --metrics clauses -o sk.jsonl` replacing an earlier
/// `sk.jsonl`, fed 300 puzzles on an open stdin: returned once its first
/// window's 256 rows are in its temporary file.
#[cfg(unix)]
fn a_replacing_run_waiting_for_input(d: &Path) -> (std::process::Child, std::process::ChildStdin) {
    fs::write(d.join("sk.jsonl"), "{\"earlier\":1}\n").unwrap();
    let args = analyze_clauses("-", "sk.jsonl");
    let (mut child, stdin) = common::spawn_fed(d, &args, &puzzles(300));
    common::wait_until(&mut child, "its first window's rows", || {
        temporaries(d)
            .iter()
            .any(|t| fs::read(d.join(t)).is_ok_and(|b| b.ends_with(b"\n") && lines(&b) == 256))
    });
    (child, stdin)
}

/// Lines of `bytes`.
fn lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// SIGKILL on a run replacing `sk.jsonl` leaves its finished rows in a
/// temporary file; the next run writing `sk.jsonl` keeps them as
/// `sk.unfinished.jsonl` and says how many (issue 58: the orphan stayed,
/// offered to nobody).
#[cfg(unix)]
#[test]
fn a_killed_runs_rows_are_kept_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (child, stdin) = a_replacing_run_waiting_for_input(d);
    common::signal(&child, libc::SIGKILL);
    drop(stdin);
    let (status, _) = common::wait_for_stderr(child);
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(9)
    );
    let orphan = temporaries(d);
    assert_eq!(orphan.len(), 1, "{:?}", files_in(d));
    let rows = fs::read_to_string(d.join(&orphan[0])).unwrap();
    fs::write(d.join("in.txt"), puzzles(2)).unwrap();
    let args = analyze_clauses("in.txt", "sk.jsonl");
    let (code, _, err) = sudolab_in(d, &args, b"");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "sk.jsonl: a run killed before it completed left 256 finished row(s) in .sk.jsonl.{}: kept as sk.unfinished.jsonl",
            &orphan[0][10..]
        )),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(d.join("sk.unfinished.jsonl")).unwrap(),
        rows
    );
    assert_eq!(lines_of(&d.join("sk.jsonl")), [1, 2]);
    assert!(temporaries(d).is_empty(), "{:?}", files_in(d));
}

/// A second SIGINT stops at once, but the rows this run finished into a
/// temporary file are kept (`sk.unfinished.jsonl`) and said; the file it
/// was replacing keeps what it held (issue 58: they were dropped without
/// a word).
#[cfg(unix)]
#[test]
fn a_second_interrupt_keeps_this_runs_rows_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (mut child, stdin) = a_replacing_run_waiting_for_input(d);
    common::signal(&child, libc::SIGINT);
    // The first signal is taken (said on stderr) before the second comes.
    let mut err = String::new();
    {
        use std::io::Read;
        let stderr = child.stderr.as_mut().unwrap();
        let mut byte = [0u8];
        while !err.contains("interrupt again") && stderr.read(&mut byte).unwrap() == 1 {
            err.push(byte[0] as char);
        }
    }
    common::signal(&child, libc::SIGINT);
    let (status, rest) = common::wait_for_stderr(child);
    drop(stdin);
    err.push_str(&rest);
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(2),
        "{err}"
    );
    assert!(
        err.contains("256 finished row(s) of this run are kept as sk.unfinished.jsonl; sk.jsonl keeps what it held before"),
        "{err}"
    );
    assert_eq!(lines_of(&d.join("sk.unfinished.jsonl")).len(), 256);
    assert_eq!(
        fs::read_to_string(d.join("sk.jsonl")).unwrap(),
        "{\"earlier\":1}\n"
    );
    assert_eq!(files_in(d), ["sk.jsonl", "sk.unfinished.jsonl"]);
}

/// An output grown past `ulimit -f` fails with a message, as a full disk
/// does: the temporary file and the lock go, the earlier file stays
/// (issue 58: SIGXFSZ killed the run, leaving both, and said nothing).
#[cfg(unix)]
#[test]
fn a_file_size_limit_is_reported_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("p.txt"), puzzles(3000)).unwrap();
    fs::write(d.join("keep.jsonl"), "keep\n").unwrap();
    let script = format!(
        "ulimit -f 100; exec '{}' check p.txt -o keep.jsonl",
        env!("CARGO_BIN_EXE_sudolab")
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .current_dir(d)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot write keep.jsonl: File too large"),
        "{err}"
    );
    assert_eq!(files_in(d), ["keep.jsonl", "p.txt"]);
    assert_eq!(fs::read_to_string(d.join("keep.jsonl")).unwrap(), "keep\n");
}

/// `encode -o ed/` interrupted with its first files staged: no temporary
/// file is left, the folder it created goes, and stderr says nothing was
/// replaced (issue 58: `.line<N>.cnf.XXXX.tmp` left, stderr empty).
#[cfg(unix)]
#[test]
fn an_interrupted_encode_leaves_no_temporary_file_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (mut child, stdin) = common::spawn_fed(d, &["encode", "-", "-o", "ed/"], &puzzles(300));
    common::kill_if_hung(&child);
    common::wait_until(&mut child, "its first window staged", || {
        fs::read_dir(d.join("ed")).is_ok_and(|e| e.count() == 256)
    });
    let (status, err) = common::interrupt_for_stderr(child);
    drop(stdin);
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(2),
        "{err}"
    );
    assert!(
        err.contains("stopped by a signal: no output was replaced"),
        "{err}"
    );
    assert_eq!(files_in(d), Vec::<String>::new());
}

/// `encode` of several puzzles without `-o DIR/` refuses at the second
/// puzzle, before reading the rest (issue 58: the whole input was read
/// first; here the bad line after it is never reached).
#[test]
fn encode_without_a_folder_refuses_at_the_second_puzzle() {
    let text = format!("{}not a puzzle\n", puzzles(2));
    let (code, out, err) = common::sudolab(&["encode", "-"], &text);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("more than one puzzle: give -o DIR/"), "{err}");
    assert_eq!(out, "");
}

/// `encode -o ed/` replaces a `line<N>.cnf` already in the folder, as
/// `-o FILE` replaces a file: whole, through a temporary file.
#[test]
fn encode_replaces_a_line_file_in_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("ed")).unwrap();
    fs::write(d.join("ed/line2.cnf"), "mine\n").unwrap();
    let (code, _, err) = sudolab_in(d, &["encode", "-", "-o", "ed/"], puzzles(2).as_bytes());
    assert_eq!(code, 0, "{err}");
    let (code, one, _) = common::sudolab(&["encode", "-"], &puzzles(1));
    assert_eq!(code, 0);
    assert_eq!(fs::read_to_string(d.join("ed/line2.cnf")).unwrap(), one);
    assert_eq!(files_in(&d.join("ed")), ["line1.cnf", "line2.cnf"]);
}

/// Two `--resume` runs started together through two names of one file (a
/// symbolic link and its target): one runs, the other refuses naming the
/// run that holds the lock, never "a hard link"; no lock file is left and
/// the file ends whole, each row once.
#[cfg(unix)]
#[test]
fn racing_resumes_through_two_names_run_one_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), puzzles(40)).unwrap();
    std::os::unix::fs::symlink("tgt.jsonl", d.join("lk.jsonl")).unwrap();
    let args = |out: &'static str| {
        [
            "analyze",
            "in.txt",
            "--metrics",
            "clauses,relax",
            "--samples",
            "20",
            "-o",
            out,
            "--resume",
        ]
    };
    for _ in 0..3 {
        fs::write(d.join("tgt.jsonl"), "").unwrap();
        let _ = fs::remove_file(d.join("tgt.jsonl.run.json"));
        let first = common::spawn_in(d, &args("tgt.jsonl"));
        let second = common::spawn_in(d, &args("lk.jsonl"));
        let mut ran = 0;
        for (status, err) in [first, second].map(common::wait_for_stderr) {
            match status.code() {
                Some(0) => ran += 1,
                _ => assert!(
                    err.contains("is being written by another sudolab run")
                        && !err.contains("hard link"),
                    "{status}: {err}"
                ),
            }
        }
        assert!(ran >= 1);
        assert_eq!(
            lines_of(&d.join("tgt.jsonl")),
            (1..=40).collect::<Vec<u64>>()
        );
        assert_eq!(
            files_in(d),
            ["in.txt", "lk.jsonl", "tgt.jsonl", "tgt.jsonl.run.json"]
        );
    }
}

/// `--resume` of a file whose rows hold other puzzles than this input's
/// says only the refusal, not "N row(s) already done" before it.
#[test]
fn a_refused_resume_says_only_the_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = analyze_clauses("-", "o.jsonl");
    let (code, _, err) = sudolab_in(d, &args, puzzles(3).as_bytes());
    assert_eq!(code, 0, "{err}");
    let other = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    let (code, _, err) = sudolab_in(d, &resumed, format!("{}{other}\n", puzzles(2)).as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 3"), "{err}");
    assert!(!err.contains("already done"), "{err}");
    // A resume that goes on says what it keeps.
    let (code, _, err) = sudolab_in(d, &resumed, puzzles(3).as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("3 row(s) already done"), "{err}");
}

/// A blank line among a resumed file's rows is refused, naming the line:
/// no run writes one (issue 58: it was accepted and kept).
#[test]
fn resume_refuses_a_blank_line_among_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), puzzles(3)).unwrap();
    let args = analyze_clauses("in.txt", "o.jsonl");
    let (code, _, err) = sudolab_in(d, &args, b"");
    assert_eq!(code, 0, "{err}");
    let text = fs::read_to_string(d.join("o.jsonl")).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    let edited = format!("{}\n\n{}\n", rows[0], rows[1]);
    fs::write(d.join("o.jsonl"), &edited).unwrap();
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    let (code, _, err) = sudolab_in(d, &resumed, b"");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("o.jsonl line 2: a blank line"), "{err}");
    assert_eq!(fs::read_to_string(d.join("o.jsonl")).unwrap(), edited);
}

/// A file with rows but no run record, resumed through a symbolic link:
/// the message names the record's place beside the file the link names.
#[cfg(unix)]
#[test]
fn no_run_record_names_the_record_beside_the_linked_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), puzzles(2)).unwrap();
    let args = analyze_clauses("in.txt", "tgt.jsonl");
    let (code, _, err) = sudolab_in(d, &args, b"");
    assert_eq!(code, 0, "{err}");
    fs::remove_file(d.join("tgt.jsonl.run.json")).unwrap();
    std::os::unix::fs::symlink("tgt.jsonl", d.join("lk.jsonl")).unwrap();
    let mut resumed = analyze_clauses("in.txt", "lk.jsonl");
    resumed.push("--resume");
    let (code, _, err) = sudolab_in(d, &resumed, b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("lk.jsonl has rows but no run record (")
            && err.contains("tgt.jsonl.run.json)")
            && !err.contains("lk.jsonl.run.json"),
        "{err}"
    );
}
