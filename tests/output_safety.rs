//! Outputs never destroy what was there, and limits are checked before any
//! work: an output that is the input, a bad input after earlier results,
//! devices, FIFOs and links, a full disk, the ceilings of the count flags and
//! of `--k`, a line without end, a non-UTF-8 line; plus `score` naming the
//! contradiction `check` names and a closed standard output.

use crate::common;

use common::{sudolab, sudolab_in};
use std::fs;
use std::path::Path;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// EASY with a second 5 in row 1 (column 3): contradictory as given.
const TWO_FIVES: &str =
    "535.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// Runs `sudolab` in `dir` with no stdin.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    sudolab_in(dir, args, b"")
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// An output that is the input (same name, hard link, symbolic
/// link) is refused and the input is left whole.
#[cfg(unix)]
#[test]
fn output_that_is_the_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = format!("{EASY}\n");
    fs::write(d.join("x.txt"), &input).unwrap();
    fs::hard_link(d.join("x.txt"), d.join("hard.txt")).unwrap();
    std::os::unix::fs::symlink("x.txt", d.join("soft.txt")).unwrap();
    for args in [
        &[
            "analyze",
            "x.txt",
            "--metrics",
            "clauses",
            "-f",
            "jsonl",
            "-o",
            "x.txt",
        ][..],
        &["analyze", "x.txt", "--metrics", "clauses", "-o", "hard.txt"],
        &["check", "x.txt", "-o", "soft.txt"],
        &[
            "relax",
            "x.txt",
            "--samples",
            "3",
            "-f",
            "jsonl",
            "-o",
            "x.txt",
        ],
        &[
            "relax",
            "soft.txt",
            "--samples",
            "3",
            "--emit-samples",
            "hard.txt",
        ],
    ] {
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("is the input file"), "{args:?}: {err}");
        assert_eq!(
            fs::read_to_string(d.join("x.txt")).unwrap(),
            input,
            "{args:?}"
        );
    }
    assert!(
        fs::symlink_metadata(d.join("soft.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// Earlier results survive a run whose input turns out bad, in every
/// output mode (streamed JSONL, a whole-file format, emitted samples).
#[test]
fn earlier_results_survive_a_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let earlier = "{\"line\":1,\"earlier\":true}\n";
    fs::write(d.join("len80.txt"), format!("{}\n", &EASY[..80])).unwrap();
    for (out, args) in [
        (
            "prev.jsonl",
            &[
                "analyze",
                "len80.txt",
                "--metrics",
                "clauses",
                "-f",
                "jsonl",
                "-o",
                "prev.jsonl",
            ][..],
        ),
        (
            "prev.csv",
            &[
                "analyze",
                "len80.txt",
                "--metrics",
                "clauses",
                "-f",
                "csv",
                "-o",
                "prev.csv",
            ],
        ),
        (
            "prev.jsonl",
            &[
                "relax",
                "len80.txt",
                "--samples",
                "3",
                "-f",
                "jsonl",
                "-o",
                "prev.jsonl",
            ],
        ),
        (
            "samples.jsonl",
            &[
                "relax",
                "len80.txt",
                "--samples",
                "3",
                "--emit-samples",
                "samples.jsonl",
            ],
        ),
    ] {
        fs::write(d.join(out), earlier).unwrap();
        let (code, _, err) = run_in(d, args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("line 1: expected 81 cells"), "{args:?}: {err}");
        assert_eq!(
            fs::read_to_string(d.join(out)).unwrap(),
            earlier,
            "{args:?}"
        );
    }
    // A puzzle refused during the run (contradictory, not a parse error)
    // after other rows were written: the earlier file is still whole.
    fs::write(d.join("mixed.txt"), format!("{EASY}\n{TWO_FIVES}\n")).unwrap();
    fs::write(d.join("prev.jsonl"), earlier).unwrap();
    let (code, _, err) = run_in(
        d,
        &[
            "relax",
            "mixed.txt",
            "--samples",
            "3",
            "-f",
            "jsonl",
            "-o",
            "prev.jsonl",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 2"), "{err}");
    assert_eq!(fs::read_to_string(d.join("prev.jsonl")).unwrap(), earlier);
    assert_eq!(
        names(d),
        [
            "len80.txt",
            "mixed.txt",
            "prev.csv",
            "prev.jsonl",
            "samples.jsonl"
        ]
    );
    // A good run replaces it.
    let (code, _, err) = run_in(
        d,
        &[
            "relax",
            "-",
            "--samples",
            "3",
            "-f",
            "jsonl",
            "-o",
            "prev.jsonl",
        ],
    );
    assert_eq!(code, 1, "empty stdin: {err}");
    fs::write(d.join("good.txt"), format!("{EASY}\n")).unwrap();
    let (code, _, err) = run_in(
        d,
        &[
            "relax",
            "good.txt",
            "--samples",
            "3",
            "-f",
            "jsonl",
            "-o",
            "prev.jsonl",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let rows = fs::read_to_string(d.join("prev.jsonl")).unwrap();
    assert_eq!(rows.lines().count(), 1);
    assert!(rows.starts_with("{\"line\":1,\"puzzle\":\"53..7"), "{rows}");
    // The failed runs above wrote no run record; the good one that replaced
    // the file wrote its record beside it once complete.
    let record = fs::read_to_string(d.join("prev.jsonl.run.json")).unwrap();
    assert!(record.contains("\"command\": \"relax\""), "{record}");
}

/// A device or FIFO is written directly, never replaced by a
/// regular file; a symbolic link is followed in every format (the link
/// stays, the file it names gets the output); a link to nothing is refused.
#[cfg(unix)]
#[test]
fn devices_fifos_and_symbolic_links_are_written_through() {
    use std::os::unix::fs::{FileTypeExt, symlink};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("p.txt"), format!("{EASY}\n")).unwrap();

    // A link to a device (/dev/zero discards what is written): the device
    // is written, the link stays.
    let is_device = |p: &str| fs::metadata(p).is_ok_and(|m| m.file_type().is_char_device());
    if is_device("/dev/zero") {
        symlink("/dev/zero", d.join("zero")).unwrap();
        let (code, _, err) = run_in(d, &["check", "p.txt", "-o", "zero"]);
        assert_eq!(code, 0, "{err}");
        assert!(
            fs::symlink_metadata(d.join("zero"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(is_device("/dev/zero"));
        // Streamed to the device: no run record is made beside it.
        let args = [
            "relax",
            "p.txt",
            "--samples",
            "3",
            "-f",
            "jsonl",
            "-o",
            "zero",
        ];
        let (code, _, err) = run_in(d, &args);
        assert_eq!(code, 0, "{err}");
        assert!(!d.join("zero.run.json").exists());
    }

    // A link to a file, in a whole-file format and streamed: one behaviour.
    for format in ["text", "jsonl"] {
        fs::write(d.join("real.txt"), "old\n").unwrap();
        symlink("real.txt", d.join("link.txt")).unwrap();
        let (code, _, err) = run_in(
            d,
            &[
                "relax",
                "p.txt",
                "--samples",
                "3",
                "-f",
                format,
                "-o",
                "link.txt",
            ],
        );
        assert_eq!(code, 0, "{format}: {err}");
        assert!(
            fs::symlink_metadata(d.join("link.txt"))
                .unwrap()
                .file_type()
                .is_symlink(),
            "{format}: the link was replaced"
        );
        let written = fs::read_to_string(d.join("real.txt")).unwrap();
        assert!(written.contains("53..7"), "{format}: {written}");
        fs::remove_file(d.join("link.txt")).unwrap();
    }

    // A link to nothing.
    symlink("missing/nowhere.txt", d.join("dangling")).unwrap();
    let (code, _, err) = run_in(d, &["check", "p.txt", "-o", "dangling"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("a symbolic link to missing/nowhere.txt"),
        "{err}"
    );

    // A FIFO: its reader gets the output, the FIFO stays a FIFO.
    let fifo = d.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    let (code, _, err) = run_in(d, &["check", "p.txt", "-f", "jsonl", "-o", "fifo"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(),
        "replaced"
    );
    let read = reader.join().unwrap();
    assert!(read.contains("\"status\":\"unique\""), "{read}");
}

/// Runs `sudolab` with a file-size limit of a few hundred bytes (writing
/// past it fails as a full disk does: SIGXFSZ ignored, the write gets an
/// error).
#[cfg(unix)]
fn run_with_small_disk(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 1 && trap '' XFSZ && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A full disk (a file-size limit; `/dev/full`) ends the run with
/// exit 1, no temporary file left, and the earlier file whole.
#[cfg(unix)]
#[test]
fn full_disk_leaves_no_temporary_file_and_the_earlier_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let puzzles = format!("{EASY}\n").repeat(40);
    fs::write(d.join("big.txt"), &puzzles).unwrap();
    let earlier = "earlier\n";
    for (out, args) in [
        (
            "out.txt",
            &["check", "big.txt", "-f", "json", "-o", "out.txt"][..],
        ),
        (
            "out.jsonl",
            &["check", "big.txt", "-f", "jsonl", "-o", "out.jsonl"],
        ),
        (
            "rows.jsonl",
            &[
                "relax",
                "big.txt",
                "--samples",
                "2",
                "-f",
                "jsonl",
                "-o",
                "rows.jsonl",
            ],
        ),
        (
            "s.jsonl",
            &[
                "relax",
                "big.txt",
                "--samples",
                "20",
                "--emit-samples",
                "s.jsonl",
                "-f",
                "jsonl",
            ],
        ),
    ] {
        fs::write(d.join(out), earlier).unwrap();
        let (code, _, err) = run_with_small_disk(d, args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("File too large"), "{args:?}: {err}");
        assert_eq!(
            fs::read_to_string(d.join(out)).unwrap(),
            earlier,
            "{args:?}"
        );
        let mut left = names(d);
        left.retain(|n| n != "big.txt" && n != out);
        assert!(left.is_empty(), "{args:?} left {left:?}");
        fs::remove_file(d.join(out)).unwrap();
    }
    // /dev/full through a link: written directly, its error reported.
    let is_device = |p: &str| {
        use std::os::unix::fs::FileTypeExt;
        fs::metadata(p).is_ok_and(|m| m.file_type().is_char_device())
    };
    if is_device("/dev/full") {
        std::os::unix::fs::symlink("/dev/full", d.join("full")).unwrap();
        let (code, _, err) = run_in(d, &["check", "big.txt", "-o", "full"]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("No space left on device"), "{err}");
        assert!(
            fs::symlink_metadata(d.join("full"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
}

/// Every count flag has a ceiling, checked before any work: a
/// one-line error and exit 1, not an allocation failure.
#[test]
fn absurd_counts_are_refused_before_any_work() {
    for (flag, args) in [
        ("--samples", &["relax", "-", "--samples", "1000000000"][..]),
        ("--samples", &["analyze", "-", "--samples", "1000000000"]),
        ("--samples", &["report", "-", "--samples", "1000000000"]),
        (
            "--sweep-samples",
            &["report", "-", "--sweep-samples", "1000000000"],
        ),
        ("--runs", &["report", "-", "--runs", "1000000000"]),
        ("--runs", &["rate", "-", "--runs", "1000000000"]),
        ("-n", &["generate", "-n", "1000000000"]),
        (
            "--samples",
            &[
                "generate",
                "-t",
                "mean_fixed>=10",
                "--samples",
                "1000000000",
            ],
        ),
        (
            "--bootstrap",
            &["eval", "-", "--label", "x", "--bootstrap", "1000000000"],
        ),
    ] {
        let (code, out, err) = sudolab(args, &format!("{EASY}\n"));
        assert_eq!(code, 1, "{args:?}: {err}");
        // The parameter is named as the options' check names it, the same
        // from Python: without dashes, `count` for `-n`.
        let name = match flag {
            "-n" => "count",
            "--sweep-samples" => "sweep samples",
            f => f.trim_start_matches('-'),
        };
        assert_eq!(
            err.trim_end(),
            format!(
                "sudolab: error: {name} 1000000000: at most {} (the documented ceiling of {name})",
                if flag.contains("runs") {
                    10_000
                } else if flag == "-n" || flag == "--bootstrap" {
                    1_000_000
                } else {
                    100_000
                }
            ),
            "{args:?}"
        );
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

/// `--k` and `--sweep` are checked against the graph's edge count
/// (810 on 9×9) before any row is computed.
#[test]
fn k_beyond_the_graph_is_refused_up_front() {
    for args in [
        &[
            "analyze",
            "-",
            "--metrics",
            "relax",
            "--k",
            "811",
            "-f",
            "jsonl",
        ][..],
        &["report", "-", "--k", "811", "-f", "json"],
        &["report", "-", "--sweep", "0:900:100", "-f", "json"],
        &["relax", "-", "--k", "811", "--samples", "2", "-f", "jsonl"],
        &[
            "relax",
            "-",
            "--sweep",
            "0:900:100",
            "--samples",
            "2",
            "-f",
            "jsonl",
        ],
    ] {
        let (code, out, err) = sudolab(args, &format!("{EASY}\n"));
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("exceeds the 810 edges of the 9×9 Sudoku graph (the grid of the puzzle on input line 1)"),
            "{args:?}: {err}"
        );
        assert!(out.is_empty(), "{args:?} wrote rows: {out}");
    }
    // 810 itself is fine (checked in the next test).
}

/// With every edge removed, the exact count of EASY's relaxation
/// is 9^51-ish, past 2^64: flagged as saturated (and capped), never
/// 18446744073709551615 as an exact count.
#[test]
fn counts_past_two_to_the_64_say_they_saturated() {
    let (code, out, err) = sudolab(
        &[
            "relax",
            "-",
            "--k",
            "810",
            "--cap",
            "0",
            "--samples",
            "3",
            "--verify",
            "0",
            "-f",
            "jsonl",
        ],
        &format!("{EASY}\n"),
    );
    assert_eq!(code, 0, "{err}");
    let row: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(row["k"], 810);
    assert_eq!(row["saturated"], 3, "{row}");
    assert_eq!(row["capped"], 3, "{row}");
    assert_eq!(row["p_unique"], 0.0);
    let (code, out, err) = sudolab(
        &[
            "relax",
            "-",
            "--k",
            "810",
            "--cap",
            "0",
            "--samples",
            "3",
            "--verify",
            "0",
        ],
        &format!("{EASY}\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(lower bound)"), "{out}");
    assert!(
        out.contains("capped 3 (3 past 2^64 - 1: counts saturated, not exact)"),
        "{out}"
    );
    // An exact count below 2^64 carries no flag (the field is absent).
    let (code, out, err) = sudolab(
        &[
            "relax",
            "-",
            "--k",
            "45",
            "--cap",
            "0",
            "--samples",
            "3",
            "-f",
            "jsonl",
        ],
        &format!("{EASY}\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("saturated"), "{out}");
}

/// A line without end is refused once it passes the longest
/// possible puzzle line, with its line number: never buffered whole.
#[test]
fn a_line_without_end_is_refused_while_reading() {
    let mut input = format!("{EASY}\n").into_bytes();
    input.extend(std::iter::repeat_n(b'0', 1 << 20));
    for extra in [&[][..], &["--keep-going"]] {
        let mut args = vec!["check", "-"];
        args.extend_from_slice(extra);
        let (code, out, err) = sudolab_in(Path::new("."), &args, &input);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("line 2: longer than 65536 bytes without a line end"),
            "{err}"
        );
        assert!(out.is_empty() || extra.is_empty(), "{out}");
    }
    // `check /dev/zero`: the same error, and the run ends (a guard kills it
    // after two minutes rather than let it fill the memory).
    if Path::new("/dev/zero").exists() {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sudolab"))
            .args(["check", "/dev/zero"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut waited = 0;
        while child.try_wait().unwrap().is_none() {
            if waited > 1200 {
                child.kill().unwrap();
                panic!("check /dev/zero is still reading");
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
            waited += 1;
        }
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("line 1: longer than 65536 bytes"), "{err}");
    }
}

/// `report --keep-going` skips a non-UTF-8 line and names it.
#[test]
fn report_keep_going_names_a_line_that_is_not_utf8() {
    let mut input = format!("{EASY}\n").into_bytes();
    input.extend_from_slice(b"caf\xe9\n");
    let args = [
        "report",
        "-",
        "--keep-going",
        "-f",
        "json",
        "--samples",
        "4",
        "--sweep",
        "0:10:10",
        "--sweep-samples",
        "2",
        "--runs",
        "1",
        "--verify",
        "0",
    ];
    let (code, out, err) = sudolab_in(Path::new("."), &args, &input);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("line 2: column 4: not valid UTF-8"), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["puzzles"].as_array().unwrap().len(), 1);
    // Without --keep-going: the same line named, exit 1.
    let (code, _, err) = sudolab_in(Path::new("."), &args[..2], &input);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 2: column 4: not valid UTF-8"), "{err}");
}

/// `score` names the contradiction of the puzzle as given (the one `check`
/// names), not one of its canonical form.
#[test]
fn score_names_the_contradiction_check_names() {
    let (code, out, err) = sudolab(&["check", "-", "-f", "jsonl"], &format!("{TWO_FIVES}\n"));
    assert_eq!(code, 0, "{err}");
    let row: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let reason = row["reason"].as_str().unwrap().to_string();
    assert_eq!(reason, "digit 5 appears twice in row 1");
    let (code, _, err) = sudolab(&["score", "-"], &format!("{TWO_FIVES}\n"));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&reason), "score: {err}\ncheck: {reason}");
}

/// `check >&-`: results written nowhere are an error, not exit 0.
#[cfg(unix)]
#[test]
fn closed_standard_output_is_an_error() {
    let run = |redirect: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s\\n' \"$1\" | \"$0\" check - {redirect}"))
            .arg(env!("CARGO_BIN_EXE_sudolab"))
            .arg(EASY)
            .output()
            .unwrap()
    };
    let closed = run(">&-");
    assert_eq!(closed.status.code(), Some(1));
    let err = String::from_utf8_lossy(&closed.stderr);
    assert!(err.contains("standard output is closed"), "{err}");
    // Discarding on purpose is fine.
    let null = run(">/dev/null");
    assert_eq!(null.status.code(), Some(0));
}
