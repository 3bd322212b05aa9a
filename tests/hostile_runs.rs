//! Runs a hostile user makes: `merge` onto its own shards, model files
//! with absurd numbers, columns near the largest float, old Mac line ends,
//! an unwritable standard error, write-protected outputs, uncapped counts,
//! `--dedup` across shards, signals during a replacing run, a 25×25 puzzle,
//! the bootstrap's ceiling and a reader that goes away: nothing is lost and
//! every refusal says why.

use crate::common;

use common::{sudolab, sudolab_in};
use std::fs;
use std::path::Path;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Runs `sudolab` in `dir` with no stdin.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    sudolab_in(dir, args, b"")
}

/// Three puzzles (EASY and two relabellings) in `dir/in.txt` and the two
/// shards of an `analyze --metrics clauses` run over it.
fn two_shards(dir: &Path) {
    let swap = |a: char, b: char| -> String {
        EASY.chars()
            .map(|c| {
                if c == a {
                    b
                } else if c == b {
                    a
                } else {
                    c
                }
            })
            .collect()
    };
    fs::write(
        dir.join("in.txt"),
        format!("{EASY}\n{}\n{}\n", swap('1', '2'), swap('3', '4')),
    )
    .unwrap();
    for i in 1..=2 {
        let (code, _, err) = run_in(
            dir,
            &[
                "analyze",
                "in.txt",
                "--metrics",
                "clauses",
                "-f",
                "jsonl",
                "--shard",
                &format!("{i}/2"),
                "-o",
                &format!("s{i}.jsonl"),
            ],
        );
        assert_eq!(code, 0, "{err}");
    }
}

/// A file of the user's at the run record's place of `merge`'s output is
/// not a run record: `merge` refuses before writing, keeps it and writes
/// no output (issue 58: it was replaced).
#[test]
fn merge_keeps_a_users_file_in_the_run_records_place() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    two_shards(d);
    fs::write(d.join("m.jsonl.run.json"), "keep\n").unwrap();
    let (code, _, err) = run_in(
        d,
        &[
            "merge", "m.jsonl", "s1.jsonl", "s2.jsonl", "--input", "in.txt",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("m.jsonl.run.json is in the place of m.jsonl's run record and is not one"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(d.join("m.jsonl.run.json")).unwrap(),
        "keep\n"
    );
    assert!(!d.join("m.jsonl").exists());
    assert!(
        !names(d)
            .iter()
            .any(|n| n.ends_with(".tmp") || n.ends_with(".lock"))
    );
}

/// `merge` refuses an output that is one of the shards or
/// the `--input` file, and leaves it whole.
#[test]
fn merge_refuses_an_output_that_is_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    two_shards(d);
    let s1 = fs::read(d.join("s1.jsonl")).unwrap();
    let input = fs::read(d.join("in.txt")).unwrap();
    // `merge s*.jsonl` without OUT.
    let (code, _, err) = run_in(d, &["merge", "s1.jsonl", "s2.jsonl"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("results file of shard 1/2"), "{err}");
    let (code, _, err) = run_in(d, &["merge", "s1.jsonl", "s1.jsonl", "s2.jsonl"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is the input file s1.jsonl"), "{err}");
    assert_eq!(fs::read(d.join("s1.jsonl")).unwrap(), s1);
    // The output is the `--input` file.
    let (code, _, err) = run_in(
        d,
        &[
            "merge", "in.txt", "s1.jsonl", "s2.jsonl", "--input", "in.txt",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is the input file in.txt"), "{err}");
    assert_eq!(fs::read(d.join("in.txt")).unwrap(), input);
    // A distinct output still merges.
    let (code, _, err) = run_in(
        d,
        &[
            "merge", "m.jsonl", "s1.jsonl", "s2.jsonl", "--input", "in.txt",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        fs::read_to_string(d.join("m.jsonl"))
            .unwrap()
            .lines()
            .count(),
        3
    );
}

/// The shipped model with `edit` applied, written to `dir/name`.
fn model_with(dir: &Path, name: &str, edit: impl FnOnce(&mut serde_json::Value)) {
    let text = include_str!("../src/score/model.json");
    let mut model: serde_json::Value = serde_json::from_str(text).unwrap();
    edit(&mut model);
    fs::write(dir.join(name), model.to_string()).unwrap();
}

/// A model file whose weights overflow, or whose parameters the
/// flags would refuse, is an error about the model file naming the field;
/// no panic, no level beside a missing score, never "line 1".
#[test]
fn score_model_files_are_checked_as_the_flags_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), format!("{EASY}\n")).unwrap();
    model_with(d, "all.json", |m| {
        for v in ["full", "fast"] {
            for t in m[v]["terms"].as_array_mut().unwrap() {
                t["weight"] = 1e308.into();
            }
        }
    });
    model_with(d, "one.json", |m| {
        m["full"]["terms"][0]["weight"] = 1e308.into();
    });
    model_with(d, "samples.json", |m| {
        m["params"]["samples"] = 100_000_000.into()
    });
    model_with(d, "k.json", |m| m["params"]["k"] = 100_000.into());
    model_with(d, "zero.json", |m| m["params"]["samples"] = 0.into());
    // An uncapped count at a huge k, and a search cap
    // past rate's, are bounded as the flags are.
    model_with(d, "cap.json", |m| {
        m["params"]["cap"] = 0.into();
        m["params"]["k"] = 200.into();
    });
    model_with(d, "backtrack.json", |m| {
        m["params"]["backtrack_cap"] = 1_000_000_000_000_000_000u64.into()
    });
    for (file, says) in [
        ("cap.json", "params.cap 0"),
        ("backtrack.json", "params.backtrack_cap"),
        ("all.json", "weight 1e308"),
        ("one.json", "weight 1e308"),
        (
            "samples.json",
            "params.samples 100000000: at most 100000 (the documented ceiling of params.samples)",
        ),
        ("k.json", "params.k 100000"),
        ("zero.json", "params.samples 0"),
    ] {
        for format in ["text", "jsonl"] {
            let (code, out, err) = run_in(
                d,
                &[
                    "score",
                    "in.txt",
                    "--model",
                    file,
                    "-f",
                    format,
                    "--keep-going",
                ],
            );
            assert_eq!(code, 1, "{file}: {err}");
            assert!(
                err.contains(&format!("--model {file}")) && err.contains(says),
                "{file}: {err}"
            );
            assert!(!err.contains("line 1"), "{file}: {err}");
            assert!(!err.contains("panicked"), "{file}: {err}");
            assert!(out.is_empty(), "{file}: {out}");
        }
    }
}

/// A results column holding ±1e308 gets finite, bounded histogram
/// and scatter axes (the report is written, its numbers finite).
#[test]
fn report_draws_columns_near_the_largest_float() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let rows: String = [1e308, -1e308, 1.0, 2.0, 3.0, 1.7e308]
        .iter()
        .enumerate()
        .map(|(i, x)| {
            format!(
                "{}\n",
                serde_json::json!({"line": i + 1, "puzzle": EASY, "x": x, "y": i as f64})
            )
        })
        .collect();
    fs::write(d.join("big.jsonl"), rows).unwrap();
    for extra in [&[][..], &["--label", "y"]] {
        let mut args = vec!["report", "big.jsonl", "-o", "big.html"];
        args.extend_from_slice(extra);
        let (code, _, err) = run_in(d, &args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let html = fs::read_to_string(d.join("big.html")).unwrap();
        assert!(html.contains("e308"), "{args:?}: the axis labels");
        assert!(!html.contains("NaN"), "{args:?}");
    }
    let (code, out, err) = run_in(d, &["report", "big.jsonl", "-f", "json"]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let x = report["dataset"]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == "x")
        .unwrap_or_else(|| panic!("{out}"));
    let bins: u64 = x["bins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .sum();
    assert_eq!(bins, 6, "{x}");
    assert!(x["mean"].as_f64().unwrap().is_finite(), "{x}");
}

/// CR-only line ends (old Mac files) end lines: three puzzles are
/// three rows, each with its own label and line number.
#[test]
fn a_lone_carriage_return_ends_a_line() {
    let text = format!("{EASY} a\r{EASY} b\r{EASY} c\r");
    let (code, out, err) = sudolab(&["check", "-", "-f", "jsonl"], &text);
    assert_eq!(code, 0, "{err}");
    let labels: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["label"].to_string())
        .collect();
    assert_eq!(labels, ["\"a\"", "\"b\"", "\"c\""], "{out}");
    // The line numbers count CR-ended lines.
    let text = format!("{EASY} a\r{}\r{EASY} c\r", &EASY[..80]);
    let (code, out, err) = sudolab(&["check", "-", "-f", "jsonl", "--keep-going"], &text);
    assert_eq!(code, 3, "{err}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(err.contains("line 2: expected"), "{err}");
}

/// When standard error cannot be written (`2>/dev/full`), an error
/// still exits 1 (a rejected line 3), quietly: no panic, no exit 101.
#[cfg(target_os = "linux")]
#[test]
fn an_unwritable_standard_error_is_not_a_panic() {
    use std::process::{Command, Stdio};
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        common::skip("/dev/full", "a Linux device");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("in.txt"), format!("{EASY}\nxyz\n{EASY}\n")).unwrap();
    for (args, expected) in [
        (&["check", "missing.txt"][..], 1),
        (&["check", "in.txt"], 1),
        (&["check", "in.txt", "--keep-going"], 3),
        (&["check", "--no-such-flag"], 64),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_sudolab"))
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(full.try_clone().unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(expected), "{args:?}");
    }
}

/// EASY with a second 5 in row 1: contradictory as given (`-e min` refuses it).
const TWO_FIVES: &str =
    "535.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// `encode -o DIR/` keeps the `-o` promise: a run refused on its
/// second puzzle leaves the earlier `line1.cnf` as it was and no temporary
/// file; a complete run writes every file.
#[test]
fn encode_to_a_folder_writes_all_files_or_none() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("out")).unwrap();
    fs::write(d.join("out/line1.cnf"), "earlier\n").unwrap();
    fs::write(d.join("in.txt"), format!("{EASY}\n{TWO_FIVES}\n")).unwrap();
    let (code, _, err) = run_in(d, &["encode", "in.txt", "-o", "out/"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 2"), "{err}");
    assert_eq!(
        fs::read_to_string(d.join("out/line1.cnf")).unwrap(),
        "earlier\n"
    );
    assert_eq!(names(&d.join("out")), ["line1.cnf"]);
    fs::write(d.join("in.txt"), format!("{EASY}\n{EASY}\n")).unwrap();
    let (code, _, err) = run_in(d, &["encode", "in.txt", "-o", "out/"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(names(&d.join("out")), ["line1.cnf", "line2.cnf"]);
    assert!(
        fs::read_to_string(d.join("out/line1.cnf"))
            .unwrap()
            .contains("p cnf")
    );
}

/// A write-protected output (mode 400) is refused before any work
/// and left as it was, as the shell's `>` refuses it; a writable one keeps
/// its mode (640 stays 640 whatever the umask).
#[cfg(unix)]
#[test]
fn an_output_keeps_its_mode_or_is_refused_when_write_protected() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("in.txt"), format!("{EASY}\n")).unwrap();
    let mode = |name: &str| fs::metadata(d.join(name)).unwrap().permissions().mode() & 0o777;
    for (name, m) in [("keep.txt", 0o400), ("keep.jsonl", 0o444)] {
        fs::write(d.join(name), "keep\n").unwrap();
        fs::set_permissions(d.join(name), fs::Permissions::from_mode(m)).unwrap();
        let format = if name.ends_with("jsonl") {
            "jsonl"
        } else {
            "text"
        };
        let (code, _, err) = run_in(d, &["check", "in.txt", "-f", format, "-o", name]);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(err.contains("write-protected"), "{err}");
        assert_eq!(fs::read_to_string(d.join(name)).unwrap(), "keep\n");
        assert_eq!(mode(name), m);
    }
    for m in [0o640, 0o600, 0o666] {
        fs::write(d.join("out.txt"), "earlier\n").unwrap();
        fs::set_permissions(d.join("out.txt"), fs::Permissions::from_mode(m)).unwrap();
        let (code, _, err) = run_in(d, &["check", "in.txt", "-o", "out.txt"]);
        assert_eq!(code, 0, "{err}");
        assert!(
            fs::read_to_string(d.join("out.txt"))
                .unwrap()
                .contains("unique")
        );
        assert_eq!(mode("out.txt"), m, "{m:o}");
    }
    assert_eq!(names(d), ["in.txt", "keep.jsonl", "keep.txt", "out.txt"]);
}

/// Spawns `sudolab args` with `stdin`, reads its standard error until a
/// line contains `wanted` (or it ends), then stops it; returns that line.
fn stderr_line_then_kill(args: &[&str], stdin: &str, wanted: &str) -> Option<String> {
    use std::io::{BufRead, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let err = std::io::BufReader::new(child.stderr.take().unwrap());
    let found = err
        .lines()
        .map_while(Result::ok)
        .find(|l| l.contains(wanted));
    let _ = child.kill();
    let _ = child.wait();
    found
}

/// `--cap 0` where the counts are past a million says so before
/// the long work, as `count` does (`backbone`, `relax`); a count that hits
/// 2^64 − 1 is `saturated: true` (and capped) in `backbone` and `count`.
#[test]
fn uncapped_counts_warn_and_saturated_counts_say_so() {
    let empty = ".".repeat(81);
    for (args, input) in [
        (&["backbone", "-", "--cap", "0"][..], &empty),
        (
            &["relax", "-", "--k", "400", "--cap", "0", "--samples", "3"][..],
            &EASY.to_string(),
        ),
    ] {
        let line = stderr_line_then_kill(args, &format!("{input}\n"), "more than 1000000");
        let line = line.unwrap_or_else(|| panic!("{args:?}: no warning"));
        assert!(line.contains("--cap N bounds it"), "{line}");
    }
    let edges: Vec<[usize; 2]> = sudolab::Geometry::of(3)
        .edges()
        .into_iter()
        .map(|(a, b)| [a, b])
        .collect();
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("all.json"),
        serde_json::to_string(&edges).unwrap(),
    )
    .unwrap();
    let (code, out, err) = sudolab_in(
        dir.path(),
        &[
            "backbone",
            "-",
            "--remove-edges",
            "all.json",
            "--cap",
            "0",
            "-f",
            "jsonl",
        ],
        format!("{EASY}\n").as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let row: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(row["saturated"], true, "{}", &out[out.len() - 100..]);
    assert_eq!(row["capped"], true);
    // An exact count carries no flag.
    let (code, out, err) = sudolab(
        &["count", "-", "--cap", "0", "-f", "jsonl"],
        &format!("{EASY}\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("saturated"), "{out}");
}

/// `--dedup` with `--shard`: the shards skip the lines the
/// unsharded run skips, `merge --input` expects no row for them, and the
/// merged file is the unsharded run's, byte for byte.
#[test]
fn dedup_shards_merge_to_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let relabelled: String = EASY
        .chars()
        .map(|c| match c {
            '1' => '2',
            '2' => '1',
            c => c,
        })
        .collect();
    let other = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    fs::write(
        d.join("in.txt"),
        format!("{EASY}\n{relabelled}\n{other}\n{EASY}\n{other}\n"),
    )
    .unwrap();
    let analyze = |extra: &[&str], out: &str| {
        let mut args = vec![
            "analyze",
            "in.txt",
            "--metrics",
            "clauses",
            "--dedup",
            "-f",
            "jsonl",
            "-o",
            out,
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = run_in(d, &args);
        assert_eq!(code, 0, "{err}");
    };
    analyze(&[], "whole.jsonl");
    for i in 1..=2 {
        analyze(&["--shard", &format!("{i}/2")], &format!("s{i}.jsonl"));
    }
    let (code, _, err) = run_in(
        d,
        &[
            "merge", "m.jsonl", "s1.jsonl", "s2.jsonl", "--input", "in.txt",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let merged = fs::read_to_string(d.join("m.jsonl")).unwrap();
    assert_eq!(merged, fs::read_to_string(d.join("whole.jsonl")).unwrap());
    assert_eq!(merged.lines().count(), 2, "{merged}");
}

/// SIGINT or SIGTERM while a streamed run replaces an existing
/// file through a temporary one: no temporary file is left, nothing is
/// lost: the finished rows take the file, the earlier file is
/// kept whole beside it, and the run exits 128 + the signal's number
/// (130, 143).
#[cfg(unix)]
#[test]
fn a_signal_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A first window of quick rows, then a long second one.
    let mut input = format!("{EASY}\n").repeat(256);
    input.push_str(&format!("{EASY} slow\n").repeat(2000));
    fs::write(d.join("in.txt"), input).unwrap();
    for sig in [libc::SIGINT, libc::SIGTERM] {
        for name in names(d).iter().filter(|n| n.starts_with("out")) {
            fs::remove_file(d.join(name)).unwrap();
        }
        fs::write(d.join("out.jsonl"), "{\"earlier\":1}\n").unwrap();
        let mut child = common::spawn_in(
            d,
            &[
                "analyze",
                "in.txt",
                "--metrics",
                "clauses,relax",
                "--samples",
                "5",
                "-f",
                "jsonl",
                "-o",
                "out.jsonl",
            ],
        );
        common::wait_until(&mut child, "a temporary file was seen", || {
            names(d).into_iter().any(|n| n.ends_with(".tmp"))
        });
        // SAFETY: signals our own child process.
        unsafe { libc::kill(child.id() as libc::pid_t, sig) };
        let status = child.wait().unwrap();
        // 128 + the signal, as a shell reports a program it ended.
        assert_eq!(status.code(), Some(128 + sig), "{status}");
        assert_eq!(
            names(d),
            [
                "in.txt",
                "out.earlier.jsonl",
                "out.jsonl",
                "out.jsonl.run.json"
            ],
            "signal {sig}"
        );
        assert_eq!(
            fs::read_to_string(d.join("out.earlier.jsonl")).unwrap(),
            "{\"earlier\":1}\n"
        );
    }
}

/// A 25×25 puzzle with 260 givens (several solutions) on which the bitset
/// search runs for minutes and SAT answers at once.
const HARD_25: &str = "91....H....8.BE.F.O.J..P.....D.8.L.291.73H....C....N.......1DM.IJ..E.6A...H8..B..FC.N.H..A.MJDP7G219.KA34..I...FNC5...21..L....9P....B........F3.M.C..2..1G...3A...........P..DO...C8.1G....P9.L.BEF..A.4.......IJ..5....8..H..E.LEH.B....5....FPD..J81G72......J2..M....L7....4.3...PD..7L....G2.4E.H3..FC...K.HP..M.F.C....1.....B7JG1...E4H..7.L.OA.FC.DMI....L...OF...34.D5P....9.J...71O.........5.D.M2J...I.2J....6H..8.L...K..5...BH4.6DC....3FA.J...9.....3..A.2..P..C.5D7G.1..E.......NL..1...9J..B..H..KF..DI.5B.87...2.G.6...C..O..O.....9J25.DMI..B..3...6...9..6H.471..BF.C..IM.D.....E..M....OFC...J2.87L.....7.K..O...H.MNI.D..J.P";

/// `check` with the default engine answers a 25×25 puzzle (SAT is
/// the default at that size); the guard only ends a hang.
#[test]
fn the_default_engine_answers_a_25x25_puzzle() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("p.txt"), format!("{HARD_25}\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(["check", "p.txt", "-f", "jsonl"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut waited = 0;
    while child.try_wait().unwrap().is_none() {
        waited += 1;
        if waited > 3000 {
            let _ = child.kill();
            panic!("check with the default engine did not answer a 25×25 puzzle");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let row: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(row["status"], "multiple", "{row}");
}

/// The bootstrap's ceiling bounds the work (resamples × rows), not
/// only the flag: refused before any work, naming the largest value that fits.
#[test]
fn the_bootstrap_ceiling_bounds_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let rows: String = (0..3000)
        .map(|i| format!("{},{}\n", i % 7, (i * 13) % 11))
        .collect();
    fs::write(dir.path().join("t.csv"), format!("x,y\n{rows}")).unwrap();
    let (code, _, err) = run_in(
        dir.path(),
        &["eval", "t.csv", "--label", "y", "--bootstrap", "1000000"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--bootstrap 1000000 on 3000 rows") && err.contains("--bootstrap 666666"),
        "{err}"
    );
    let (code, _, err) = run_in(
        dir.path(),
        &[
            "eval",
            "t.csv",
            "--label",
            "y",
            "--bootstrap",
            "100",
            "-f",
            "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
}

/// Text output into a reader that goes away (`| head -1`) stops
/// the run, as JSON Lines do: rows go out window by window, and once the
/// reader has gone no further puzzle is computed. The input would take
/// a quarter of an hour or more to compute in full (20 000 puzzles rated by
/// every model, or relaxed 5000 times each), its first rows seconds; the
/// run must end, with success, soon after them (the wait below is a hang
/// guard an eighth of the full run: it asserts no speed).
#[test]
fn text_output_stops_when_its_reader_goes_away() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("many.txt");
    fs::write(&input, format!("{EASY}\n").repeat(20_000)).unwrap();
    let path = input.to_str().unwrap();
    for args in [
        vec!["rate", "-m", "all", path],
        vec!["relax", path, "--samples", "5000"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sudolab"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        // The reader (and with it the pipe's only read end) is gone here.
        assert!(
            first.starts_with(EASY) || first.starts_with("puzzle"),
            "{args:?}: {first}"
        );
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("{args:?} went on computing after its reader went away");
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        };
        assert!(status.success(), "{args:?}: {status}");
    }
}
