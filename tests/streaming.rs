//! Outputs stream: a batch writes its rows window by window wherever they
//! go (stdout or `-o FILE`, every format, `rate --explain` too), so memory
//! does not grow with the input; rejected lines under `--keep-going` are
//! counted, the first 20 listed. Memory itself is measured, not tested
//! (docs/performance.md, "Memory").

use crate::common;

use common::sudolab_in;
use std::fs;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// 600 puzzles: more than two windows of the batch driver (256 each).
fn many() -> String {
    (0..600)
        .map(|i| format!("{}\n", if i % 3 == 0 { HARD } else { EASY }))
        .collect()
}

#[test]
fn an_output_file_holds_the_bytes_stdout_gets_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), many()).unwrap();
    for (args, name) in [
        (&["check", "in.txt"][..], "check"),
        // The catalogue's path alone: SE's path after a stuck one would
        // make this a test of serate's speed.
        (
            &["rate", "in.txt", "--explain", "-m", "weights"][..],
            "explain",
        ),
    ] {
        for format in ["text", "json", "jsonl", "csv"] {
            let mut to_stdout = args.to_vec();
            to_stdout.extend(["-f", format]);
            let (code, stdout, err) = sudolab_in(d, &to_stdout, b"");
            assert_eq!(code, 0, "{name} {format}: {err}");
            let out = format!("out.{format}");
            let mut to_file = to_stdout.clone();
            to_file.extend(["-o", &out]);
            let (code, printed, err) = sudolab_in(d, &to_file, b"");
            assert_eq!((code, printed.as_str()), (0, ""), "{name} {format}: {err}");
            let written = fs::read_to_string(d.join(&out)).unwrap();
            assert_eq!(written, stdout, "{name} {format}");
            match format {
                "jsonl" => assert_eq!(written.lines().count(), 600, "{name}"),
                "json" => {
                    let v: serde_json::Value = serde_json::from_str(&written).unwrap();
                    assert_eq!(v.as_array().map(Vec::len), Some(600), "{name}");
                }
                "csv" if name == "check" => assert_eq!(written.lines().count(), 601),
                // A table's header is written once, whatever the windows.
                "text" if name == "check" => {
                    let header = written.lines().next().unwrap();
                    assert!(header.starts_with("puzzle "), "{header}");
                    assert_eq!(written.lines().filter(|l| *l == header).count(), 1);
                    assert_eq!(written.lines().count(), 601);
                }
                _ => {}
            }
        }
    }
}

#[test]
fn a_run_that_fails_late_leaves_the_earlier_file_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), format!("{}bad line\n", many())).unwrap();
    fs::write(d.join("out.csv"), "earlier\n").unwrap();
    let (code, _, err) = sudolab_in(d, &["check", "in.txt", "-o", "out.csv"], b"");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 601"), "{err}");
    assert_eq!(fs::read_to_string(d.join("out.csv")).unwrap(), "earlier\n");
    let mut names: Vec<String> = fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["in.txt", "out.csv"]);
}

#[test]
fn keep_going_counts_every_bad_line_and_lists_the_first_twenty() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input: String = (1..=5000)
        .map(|i| {
            if i == 2500 {
                format!("{EASY}\n")
            } else {
                "123\n".into()
            }
        })
        .collect();
    fs::write(d.join("in.txt"), input).unwrap();
    let (code, out, err) = sudolab_in(d, &["check", "in.txt", "--keep-going", "-f", "jsonl"], b"");
    assert_eq!(code, 3, "{err}");
    assert_eq!(out.lines().count(), 1);
    assert!(err.contains("4999 input line(s) rejected"), "{err}");
    assert!(err.contains("  line 20: expected 81 cells"), "{err}");
    assert!(!err.contains("  line 21:"), "{err}");
    assert!(err.contains("... and 4979 more"), "{err}");
}
