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

/// `analyze`'s text table to a pipe comes window by window: the header
/// and the first window's 256 rows are out while the run still waits for
/// more input (issue 58: the whole table was made at the end, its memory
/// growing with the rows).
#[cfg(unix)]
#[test]
fn analyze_text_to_stdout_comes_window_by_window() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(["analyze", "-", "--metrics", "clauses"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{EASY}\n").repeat(300).as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    // A run that never writes is ended: the test fails on the lines it got.
    common::kill_if_hung(&child);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = Vec::new();
    let mut line = String::new();
    while first.len() < 257 && out.read_line(&mut line).unwrap() > 0 {
        first.push(std::mem::take(&mut line));
    }
    assert_eq!(first.len(), 257, "{first:?}");
    assert!(first[0].starts_with("line  puzzle"), "{}", first[0]);
    assert!(child.try_wait().unwrap().is_none());
    drop(stdin);
    let rest: Vec<String> = out.lines().map(Result::unwrap).collect();
    assert_eq!(rest.len(), 44, "{rest:?}");
    assert!(child.wait().unwrap().success());
}

/// The guide's list of what is held whole in memory names every command
/// whose code holds all rows (reads its whole input, renders all rows at
/// once, reads a results file whole or keeps every sweep): a new such
/// place fails here until the list (and this table) names it.
#[test]
fn the_list_of_what_is_held_whole_names_every_command_that_holds_rows() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = fs::read_to_string(root.join("docs/guide.md")).unwrap();
    let at = guide
        .find("- What is held whole in memory")
        .expect("the guide lists what is held whole");
    let list = &guide[at..at + guide[at..].find("\n- ").unwrap()];
    // The source file and the name the list gives its command.
    let holders = [
        ("analyze.rs", "`analyze --dedup`"),
        ("clauses.rs", "`clauses`"),
        ("generate.rs", "`generate`"),
        ("relax.rs", "`relax --plot`"),
        ("report/mod.rs", "`report`"),
        ("shard.rs", "`merge`"),
        ("sink.rs", "`--resume`"),
    ];
    let markers = [
        "load(&",
        "load_input(",
        "ResultsFile::read(",
        ".emit(&rows",
        "sweeps.push(",
    ];
    let cli = root.join("src/cli");
    let mut files = Vec::new();
    let mut dirs = vec![cli.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n != "mod.rs")
                || path.parent() != Some(cli.as_path())
            {
                files.push(path);
            }
        }
    }
    for path in files {
        let code = fs::read_to_string(&path).unwrap();
        let code = code.split("#[cfg(test)]").next().unwrap();
        if !markers.iter().any(|m| code.contains(m)) {
            continue;
        }
        let name = path
            .strip_prefix(&cli)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let Some((_, named)) = holders.iter().find(|(file, _)| *file == name) else {
            panic!("src/cli/{name} holds rows whole: name it in the guide's list and here");
        };
        assert!(
            list.contains(named),
            "the guide's list does not name {named}: {list}"
        );
    }
}
