//! Every promise of the guide's "Exit codes" and "Outputs" sections
//! (`docs/guide.md`) is tested by name: each clause of the two sections (a table cell, a list
//! item, a sentence, a part between semicolons) holds a phrase of
//! [`PROMISES`], and each phrase names the tests (functions under `tests/`
//! or `src/`) that check it. A promise added to the guide without a test,
//! or a test renamed away, fails here.

use crate::common;

use common::sudolab;
use std::fs;
use std::path::Path;

/// A phrase of the guide's two sections and the tests that check it.
const PROMISES: &[(&str, &[&str])] = &[
    // Exit codes.
    (
        "also when the reader of a pipe goes away",
        &["text_output_stops_when_its_reader_goes_away"],
    ),
    (
        "bad input line without `--keep-going`",
        &["bad_lines_named_and_keep_going"],
    ),
    (
        "a line longer than 64 KiB",
        &["a_line_without_end_is_refused_while_reading"],
    ),
    ("unreadable file", &["an_unreadable_file_exits_1"]),
    (
        "a count flag above its ceiling",
        &["absurd_counts_are_refused_before_any_work"],
    ),
    (
        "an option out of its range such as `score --scale 1`",
        &["option_errors_are_the_options_check_messages"],
    ),
    (
        "a `--k` or `--sweep` beyond the graph's edges",
        &["k_beyond_the_graph_is_refused_up_front"],
    ),
    (
        "an output that is the input",
        &["an_output_that_is_an_input_is_refused_for_every_path_flag"],
    ),
    (
        "an output that cannot be written (a full disk or a closed standard output included)",
        &[
            "output_target_is_checked_before_the_work",
            "full_disk_leaves_no_temporary_file_and_the_earlier_file_whole",
            "closed_standard_output_is_an_error",
        ],
    ),
    ("the engines disagreed", &["an_engine_disagreement_exits_2"]),
    (
        "some input lines or puzzles were rejected under `--keep-going`",
        &["bad_lines_named_and_keep_going"],
    ),
    (
        "`generate` missed a level or target",
        &["cli_generate_errors_and_missed_targets"],
    ),
    (
        "`merge` found missing, duplicated or extra rows, or shards of different runs",
        &["merge_refuses_shards_that_do_not_cover_the_input_exactly"],
    ),
    (
        "a command-line usage error",
        &["usage_errors_exit_64_and_help_exits_0"],
    ),
    (
        "128 + the signal's number for every command",
        &["a_signal_leaves_no_temporary_file"],
    ),
    (
        "interrupted (SIGINT/SIGTERM/SIGHUP) while a streamed output was written",
        &["sigint_keeps_the_finished_rows_and_resume_completes_them"],
    ),
    (
        "the same command with `--resume` continues",
        &["sigint_keeps_the_finished_rows_and_resume_completes_them"],
    ),
    (
        "an earlier file the run was replacing is kept beside them",
        &[
            "a_signal_keeps_a_replacing_runs_rows_and_the_earlier_file",
            "a_signal_leaves_no_temporary_file",
        ],
    ),
    (
        "Parameters are checked before any work",
        &["absurd_counts_are_refused_before_any_work"],
    ),
    (
        "`eval --bootstrap` times the table's rows at most",
        &["the_bootstrap_ceiling_bounds_the_work"],
    ),
    (
        "the Python package refuses the same values with the same message",
        &["option_errors_are_the_options_check_messages"],
    ),
    // Outputs.
    (
        "One rule holds for every path a command writes",
        &[
            "the_walk_covers_every_path_argument",
            "every_path_argument_is_walked",
        ],
    ),
    (
        "an output that is a file the command reads",
        &[
            "an_output_that_is_an_input_is_refused_for_every_path_flag",
            "a_side_file_that_is_an_input_is_refused",
        ],
    ),
    (
        "the same file by name, hard link or symbolic link",
        &["an_output_that_is_an_input_is_refused_for_every_path_flag"],
    ),
    (
        "two outputs on one path",
        &["two_outputs_on_one_path_are_refused"],
    ),
    (
        "`-o FILE` never destroys what was there",
        &["earlier_results_survive_a_bad_input"],
    ),
    (
        "A file is opened only when the first result is ready",
        &["earlier_results_survive_a_bad_input"],
    ),
    (
        "Every batch command writes its rows as they are done",
        &["an_output_file_holds_the_bytes_stdout_gets_in_every_format"],
    ),
    (
        "so memory does not grow with the input",
        &["an_output_file_holds_the_bytes_stdout_gets_in_every_format"],
    ),
    (
        "a text table to stdout or a pipe too",
        &["analyze_text_to_stdout_comes_window_by_window"],
    ),
    (
        "What is held whole in memory, growing with the rows",
        &["the_list_of_what_is_held_whole_names_every_command_that_holds_rows"],
    ),
    (
        "the first 20 rejected lines are listed with their reason",
        &["keep_going_counts_every_bad_line_and_lists_the_first_twenty"],
    ),
    (
        "A regular file is replaced through a temporary file",
        &["full_disk_leaves_no_temporary_file_and_the_earlier_file_whole"],
    ),
    (
        "The replaced file keeps its mode",
        &["an_output_keeps_its_mode_or_is_refused_when_write_protected"],
    ),
    (
        "a write-protected file",
        &["an_output_keeps_its_mode_or_is_refused_when_write_protected"],
    ),
    (
        "files all or none",
        &["encode_to_a_folder_writes_all_files_or_none"],
    ),
    (
        "a symbolic link planted at one is replaced, not followed",
        &["a_planted_link_in_an_encode_folder_is_not_followed"],
    ),
    (
        "a folder holding `line<N>.cnf` files of an earlier run",
        &["encode_keeps_a_runs_files_together"],
    ),
    (
        "a folder the run created is removed again when it fails",
        &["a_failed_run_leaves_nothing_behind"],
    ),
    (
        "SIGINT, SIGTERM or SIGHUP removes the temporary file",
        &["a_signal_leaves_no_temporary_file"],
    ),
    (
        "stderr says that no output was replaced",
        &["an_interrupted_encode_leaves_no_temporary_file_and_says_so"],
    ),
    (
        "A second signal ends a streamed run at once",
        &["a_second_interrupt_keeps_this_runs_rows_and_says_so"],
    ),
    (
        "the finished rows of a run replacing an earlier file are kept as `out.unfinished.jsonl`",
        &["a_second_interrupt_keeps_this_runs_rows_and_says_so"],
    ),
    (
        "A run killed outright (SIGKILL, a power cut) leaves its temporary file",
        &["a_killed_runs_rows_are_kept_by_the_next_run"],
    ),
    (
        "the next run writing `out.jsonl` keeps its finished rows",
        &["a_killed_runs_rows_are_kept_by_the_next_run"],
    ),
    (
        "A file grown past `ulimit -f` fails to write",
        &["a_file_size_limit_is_reported_and_leaves_nothing"],
    ),
    (
        "a `line<N>.cnf` already in the folder is replaced whole",
        &["encode_replaces_a_line_file_in_its_folder"],
    ),
    (
        "without `-o DIR/`, a second puzzle is refused as soon as it is read",
        &["encode_without_a_folder_refuses_at_the_second_puzzle"],
    ),
    (
        "of two runs started together through two names of one file, one runs",
        &[
            "racing_resumes_through_two_names_run_one_at_a_time",
            "a_second_run_through_a_hard_link_to_a_streamed_output_refuses",
        ],
    ),
    (
        "it refuses a blank line among the rows",
        &[
            "resume_refuses_a_blank_line_among_the_rows",
            "a_refused_resume_says_only_the_refusal",
        ],
    ),
    (
        "A new file of a streamed `-f jsonl` run is written in place, row by row",
        &["sigint_keeps_the_finished_rows_and_resume_completes_them"],
    ),
    (
        "`-o FILE.jsonl` without `-f` is JSON Lines",
        &["sigint_keeps_the_finished_rows_and_resume_completes_them"],
    ),
    (
        "Every command locks every output it names",
        &["every_writer_of_a_streamed_output_refuses"],
    ),
    (
        "the record sits beside the file a symbolic link names",
        &["a_run_record_sits_beside_the_file_a_link_names"],
    ),
    (
        "a file in the record's place that is not a run record is yours",
        &["a_users_file_in_the_run_records_place_is_kept"],
    ),
    (
        "a lock (`.FILE.lock` beside it",
        &["a_second_run_on_a_streamed_output_refuses"],
    ),
    (
        "under any link's name",
        &["a_second_run_through_a_link_to_a_streamed_output_refuses"],
    ),
    (
        "a run through a hard link refuses too",
        &["a_second_run_through_a_hard_link_to_a_streamed_output_refuses"],
    ),
    (
        "a file of yours in the lock file's place is kept",
        &["a_users_file_in_the_lock_files_place_is_kept"],
    ),
    (
        "`--resume` refuses a file with a duplicated row, rows out of input order",
        &[
            "resume_refuses_a_duplicated_row",
            "resume_refuses_other_parameters_and_foreign_files",
        ],
    ),
    (
        "A device or FIFO",
        &["devices_fifos_and_symbolic_links_are_written_through"],
    ),
    (
        "A symbolic link is followed, in every format",
        &["devices_fifos_and_symbolic_links_are_written_through"],
    ),
    (
        "a link to nothing is refused",
        &["devices_fifos_and_symbolic_links_are_written_through"],
    ),
    (
        "writes its run record `FILE.run.json` beside a regular file",
        &["earlier_results_survive_a_bad_input"],
    ),
    (
        "with its first row, so a run that fails before leaves none",
        &["a_failed_run_leaves_nothing_behind"],
    ),
    (
        "without following a symbolic link planted at their paths",
        &["a_planted_link_at_a_side_file_is_not_followed"],
    ),
    (
        "`--resume` and `merge` refuse a file or shard of another run",
        &[
            "resume_refuses_another_k_engine_or_input_file",
            "merge_refuses_shards_that_do_not_cover_the_input_exactly",
        ],
    ),
];

/// The guide's section headed `heading` (up to the next heading), as its
/// units (table rows, list items, paragraphs), each with its lines joined
/// by single spaces.
fn section(guide: &str, heading: &str) -> Vec<String> {
    let at = guide
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/guide.md has no section {heading:?}"));
    let text = &guide[at + heading.len() + 2..];
    let end = text.find("\n#").unwrap_or(text.len());
    let mut units: Vec<String> = Vec::new();
    let mut open = false;
    for line in text[..end].lines() {
        let starts = line.starts_with('|') || line.starts_with("- ") || line.is_empty();
        if starts || !open {
            units.push(String::new());
        }
        open = !line.is_empty() && !line.starts_with('|');
        let unit = units.last_mut().expect("a unit was opened");
        unit.push(' ');
        unit.push_str(line.strip_prefix("- ").unwrap_or(line));
    }
    units
        .iter()
        .map(|u| u.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|u| !u.is_empty())
        .collect()
}

/// Every `.rs` file under `dir`, read.
fn sources(dir: &Path, out: &mut String) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push_str(&fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn every_promise_of_the_guide_names_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = fs::read_to_string(root.join("docs").join("guide.md")).unwrap();
    let units: Vec<String> = ["## Exit codes", "## Outputs"]
        .iter()
        .flat_map(|h| section(&guide, h))
        .collect();
    let mut code = String::new();
    sources(&root.join("tests"), &mut code);
    sources(&root.join("src"), &mut code);
    for (phrase, tests) in PROMISES {
        assert!(
            units.iter().any(|u| u.contains(phrase)),
            "the guide's sections no longer say {phrase:?}"
        );
        for test in *tests {
            assert!(
                code.contains(&format!("fn {test}()")),
                "{phrase:?}: no test {test}"
            );
        }
    }
    // Every clause holds a promise with its tests.
    // A table's header, its rule and its first column (the exit code) are
    // no promise.
    let no_promise = |c: &str| {
        c.is_empty()
            || matches!(c, "code" | "meaning" | "---")
            || c.bytes().all(|b| b.is_ascii_digit())
    };
    for unit in &units {
        // "e.g. " ends no sentence, and `\|` is a bar inside a cell.
        let unit = unit.replace("e.g. ", "e.g.\u{a0}").replace("\\|", "\u{a0}");
        for clause in unit
            .split('|')
            .flat_map(|c| c.split("; "))
            .flat_map(|c| c.split(". "))
            .map(str::trim)
            .filter(|c| !no_promise(c))
        {
            assert!(
                PROMISES.iter().any(|(phrase, _)| clause.contains(phrase)
                    || phrase.contains(clause.trim_end_matches('.'))),
                "no test names the guide's promise {clause:?}"
            );
        }
    }
}

/// The guide, "Exit codes": 1 for an unreadable file, named.
#[test]
fn an_unreadable_file_exits_1() {
    let (code, _, err) = sudolab(&["check", "no-such-file.txt"], "");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot open no-such-file.txt"), "{err}");
}
