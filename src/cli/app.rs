//! The command line's entry: the subcommands, parsing, and the exit code of an error.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::Write as _;
use std::process::ExitCode;

/// sudolab: why is a Sudoku hard? CNF encodings, SAT and Dancing Links
/// engines, constraint relaxation and models of human solving.
#[derive(Debug, Parser)]
#[command(name = "sudolab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write the CNF encoding of puzzles in DIMACS format.
    Encode(super::encode::EncodeArgs),
    /// Clause-length distribution of the at-least-one clauses.
    Clauses(super::clauses::ClausesArgs),
    /// Solve puzzles.
    Solve(super::engines::EngineArgs),
    /// Count solutions (up to a cap).
    Count(super::engines::CountArgs),
    /// Is each puzzle valid with a unique solution? (unique | multiple | none)
    Check(super::engines::EngineArgs),
    /// Decode a SAT solver's model to a grid.
    Decode(super::decode::DecodeArgs),
    /// Solution count and fixed cells (backbone), optionally with edges removed.
    Backbone(super::engines::CountArgs),
    /// Constraint relaxation: remove k random edges, count solutions and fixed cells.
    Relax(super::relax::RelaxArgs),
    /// Human-model ratings: SiSuS, oracle, hsolve, Nishio cycles, technique weights, baselines, singles, Serate/Fowler-like, annealing, harmony search.
    Rate(super::rate::RateArgs),
    /// Every metric (clauses, relax, rate) for every puzzle of a data set, streamed and resumable.
    Analyze(super::analyze::AnalyzeArgs),
    /// Correlate metric columns of a results file with a label column.
    Eval(super::eval::EvalArgs),
    /// Universal Easy/Medium/Hard classes by equal-count bins or the paper's cut points.
    Classify(super::eval::ClassifyArgs),
    /// Least-squares combination of metrics, trained on one half, tested on the other; with --score, fit and validate the difficulty score.
    Fit(super::eval::FitArgs),
    /// One difficulty score per puzzle, with its level, SE-equivalent and predicted minutes.
    ///
    /// `score`: 0 and 10 are the 1st and 99th percentiles of the puzzles the model was
    /// fitted on (0: newspaper puzzles singles solve; 10: about SE 9); the forum's hardest
    /// puzzles reach about 13. `se_equivalent` is on Sukaku Explainer's scale, 1.0–11.9:
    /// serate's rating (SE's rules rebuilt) where it finishes without nested
    /// assumptions; the hardest puzzles are placed by their trial depth (nested
    /// assumptions: SE 10.5 and up); `--fast` places every puzzle by its score and trial depth. `extrapolated: true` marks a puzzle above everything the model was fitted
    /// on. `minutes` is the typical mean time of Cloud Sudoku players (fitted on puzzles up to
    /// SE 8.2); `minutes_extrapolated: true` marks a score above every puzzle of that
    /// population, where the time is a guess (docs/score.md).
    Score(super::score::ScoreArgs),
    /// Generate puzzles: minimal unique, Fletcher's Algorithm 2, Xu's no-brute-force, hsolve-levelled or pseudo (our designs after Chang), or to targets.
    Generate(super::generate::GenerateArgs),
    /// Canonical form of puzzles under the Sudoku symmetries.
    Canon(super::canon::CanonArgs),
    /// The order in which cells are filled, as the SiSuS model and
    /// relaxation fixedness predict it (Pelánek Fig. 6), and the SiSuS
    /// possibilities per step (Fig. 7).
    Order(super::order::OrderArgs),
    /// Merge the JSON Lines outputs of `--shard I/N` runs into one file in input order.
    Merge(super::shard::MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff; `sudolab man | man -l -`).
    Man,
    /// Self-contained HTML report of puzzles or a data set (charts, ratings, percentiles).
    Report(super::report::ReportArgs),
}

/// True when the error comes from writing to a pipe whose reader has gone
/// (e.g. `sudolab check | head`): the run ends quietly and successfully.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// True when the error is an engine disagreement (a bug, with its
/// reproducible case), which exits 2 from every command.
fn is_disagreement(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|c| c.downcast_ref::<sudolab::Disagreement>().is_some())
}

/// The error and its causes, each said once: many library errors already
/// include their source's text in their own message.
fn message(e: &anyhow::Error) -> String {
    let mut msg = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !msg.contains(&c) {
            msg.push_str(": ");
            msg.push_str(&c);
        }
    }
    msg
}

/// A hint under a usage error that clap cannot give: `generate --level`
/// takes the generators' own levels, while the difficulty score's levels
/// (Easy … Expert) are a target on `score_level`.
fn usage_hint(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::InvalidValue {
        return None;
    }
    let arg = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => s.as_str(),
        _ => return None,
    };
    if !arg.starts_with("--level") {
        return None;
    }
    let value = match e.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(s)) => s.as_str(),
        _ => "",
    };
    let score_level = (2..=5)
        .flat_map(sudolab::score_level_names)
        .find(|n| n.eq_ignore_ascii_case(value));
    Some(match score_level {
        Some(name) => format!(
            "hint: {name} is a level of the difficulty score; generate towards it with a target: -t 'score_level={name}' (--level takes the generators' own levels, see docs/generation.md)"
        ),
        None => "hint: --level takes the generators' own levels; the difficulty score's levels (Easy, Medium, Hard, Expert) are a target: -t 'score_level=Expert'".to_string(),
    })
}

/// The `sudolab` command: parse the arguments, run the subcommand, and
/// return its exit code (0 ok, 1 error, 2 engine disagreement, 3 no answer, 64 usage).
pub fn main() -> ExitCode {
    if let Err(why) = sudolab::cpu_check() {
        note!("sudolab: {why}");
        return ExitCode::from(super::EXIT_ERROR);
    }
    super::signals::install();
    // A negative number for a numeric flag is an invalid value, not a flag
    // to quote with `--`.
    let command = Cli::command().mut_subcommands(|s| s.allow_negative_numbers(true));
    let parsed = command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print to stdout and succeed; a usage error
            // gets EX_USAGE, so that exit code 2 keeps meaning "engines disagreed".
            // Help or a version that cannot be written (`> /dev/full`) is
            // an error, as for every other output.
            let printed = e.print().and_then(|()| std::io::stdout().flush());
            if let Some(hint) = usage_hint(&e) {
                note!("{hint}");
            }
            return ExitCode::from(if e.use_stderr() {
                super::EXIT_USAGE
            } else if printed.is_err() {
                super::EXIT_ERROR
            } else {
                super::EXIT_OK
            });
        }
    };
    let result = match cli.command {
        Command::Encode(a) => super::encode::run(a),
        Command::Clauses(a) => super::clauses::run(a),
        Command::Solve(a) => super::engines::solve(a),
        Command::Count(a) => super::engines::count(a),
        Command::Check(a) => super::engines::check(a),
        Command::Decode(a) => super::decode::run(a),
        Command::Relax(a) => super::relax::run(a),
        Command::Backbone(a) => super::engines::backbone(a),
        Command::Rate(a) => super::rate::run(a),
        Command::Score(a) => super::score::run(a),
        Command::Analyze(a) => super::analyze::run(a),
        Command::Eval(a) => super::eval::run_eval(a),
        Command::Classify(a) => super::eval::run_classify(a),
        Command::Fit(a) => super::eval::run_fit(a),
        Command::Generate(a) => super::generate::run(a),
        // The canonical form is of givens (docs/methods.md §0.1).
        Command::Canon(mut a) => {
            a.common.pencilmarks = false;
            super::canon::run(a)
        }
        Command::Order(a) => super::order::run(a),
        Command::Merge(a) => super::shard::run(a),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "sudolab", &mut out);
            super::write_stdout(&out).map(|()| super::EXIT_OK)
        }
        Command::Man => {
            let mut out = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut out)
                .map_err(anyhow::Error::from)
                .and_then(|()| super::write_stdout(&out))
                .map(|()| super::EXIT_OK)
        }
        Command::Report(a) => super::report::run(a),
    };
    // Statics are not dropped at exit: the output's lock file goes now.
    super::lock::release_lock();
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::from(super::EXIT_OK),
        Err(e) if is_disagreement(&e) => {
            match e.downcast_ref::<sudolab::BatchError>() {
                Some(at_line) => note!("sudolab: ENGINE DISAGREEMENT (bug) {at_line}"),
                None => note!("sudolab: ENGINE DISAGREEMENT (bug): {}", message(&e)),
            }
            ExitCode::from(super::EXIT_DISAGREE)
        }
        Err(e) => {
            note!("sudolab: error: {}", message(&e));
            ExitCode::from(super::EXIT_ERROR)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_of_every_command_is_described() {
        let cmd = Cli::command();
        let mut missing = Vec::new();
        for sub in cmd.get_subcommands() {
            for arg in sub.get_arguments() {
                if arg.get_help().is_none() {
                    missing.push(format!("{} {}", sub.get_name(), arg.get_id()));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "options without a description: {missing:?}"
        );
        cmd.debug_assert();
    }

    /// Every argument that names a file, as `COMMAND ARGUMENT`. Each goes
    /// through the one path rule (`crate::cli::paths`), and
    /// tests/output_paths.rs walks each: a new one belongs in both lists.
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

    /// The guide, "Exit codes": 2 the engines disagreed. No engine
    /// disagrees on purpose, so the test is of the error that `main` turns
    /// into exit code 2, however deep in a chain it comes.
    #[test]
    fn an_engine_disagreement_exits_2() {
        let d = sudolab::Disagreement {
            what: "count".into(),
            puzzle: "1.".into(),
            answers: vec![
                (sudolab::Engine::Bitset, "1".into()),
                (sudolab::Engine::Sat, "2".into()),
            ],
        };
        let e = anyhow::Error::from(d).context("line 3");
        assert!(is_disagreement(&e));
        assert!(!is_disagreement(&anyhow::anyhow!("line 3: bad")));
        assert_eq!(super::super::EXIT_DISAGREE, 2);
    }

    #[test]
    fn every_path_argument_is_walked() {
        let mut found = Vec::new();
        for sub in Cli::command().get_subcommands() {
            for arg in sub.get_arguments() {
                let path = arg.get_value_parser().type_id()
                    == std::any::TypeId::of::<std::path::PathBuf>();
                let file = arg
                    .get_value_names()
                    .is_some_and(|names| names.iter().any(|n| n.contains("FILE")));
                if path || file {
                    found.push(format!("{} {}", sub.get_name(), arg.get_id()));
                }
            }
        }
        found.sort();
        assert_eq!(found, PATH_ARGUMENTS);
    }
}
