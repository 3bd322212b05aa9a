//! The `sudolab` command line: a thin layer over the library.

mod cli;

use clap::{Parser, Subcommand};
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
    Encode(cli::encode::EncodeArgs),
    /// Clause-length distribution of the at-least-one clauses.
    Clauses(cli::clauses::ClausesArgs),
    /// Solve puzzles.
    Solve(cli::engines::EngineArgs),
    /// Count solutions (up to a cap).
    Count(cli::engines::CountArgs),
    /// Is each puzzle valid with a unique solution? (unique | multiple | none)
    Check(cli::engines::EngineArgs),
    /// Decode a SAT solver's model to a grid.
    Decode(cli::decode::DecodeArgs),
    /// Solution count and fixed cells (backbone), optionally with edges removed.
    Backbone(cli::engines::CountArgs),
    /// Constraint relaxation: remove k random edges, count solutions and fixed cells.
    Relax(cli::relax::RelaxArgs),
    /// Human-model ratings: SiSuS, oracle, hsolve, Nishio cycles, technique weights, baselines.
    Rate(cli::rate::RateArgs),
    /// Every metric (clauses, relax, rate) for every puzzle of a data set, streamed and resumable.
    Analyze(cli::analyze::AnalyzeArgs),
    /// Correlate metric columns of a results file with a label column.
    Eval(cli::eval::EvalArgs),
    /// Universal Easy/Medium/Hard classes by equal-count bins or the paper's cut points.
    Classify(cli::eval::ClassifyArgs),
    /// Least-squares combination of metrics, trained on one half, tested on the other.
    Fit(cli::eval::FitArgs),
    /// Generate puzzles: minimal unique, Fletcher's Algorithm 2, Xu's no-brute-force, Chang's pseudo, or to targets.
    Generate(cli::generate::GenerateArgs),
    /// Canonical form of puzzles under the Sudoku symmetries.
    Canon(cli::canon::CanonArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Encode(a) => cli::encode::run(a),
        Command::Clauses(a) => cli::clauses::run(a),
        Command::Solve(a) => cli::engines::solve(a),
        Command::Count(a) => cli::engines::count(a),
        Command::Check(a) => cli::engines::check(a),
        Command::Decode(a) => cli::decode::run(a),
        Command::Relax(a) => cli::relax::run(a),
        Command::Backbone(a) => cli::engines::backbone(a),
        Command::Rate(a) => cli::rate::run(a),
        Command::Analyze(a) => cli::analyze::run(a),
        Command::Eval(a) => cli::eval::run_eval(a),
        Command::Classify(a) => cli::eval::run_classify(a),
        Command::Fit(a) => cli::eval::run_fit(a),
        Command::Generate(a) => cli::generate::run(a),
        Command::Canon(a) => cli::canon::run(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("sudolab: error: {e:#}");
            ExitCode::from(cli::EXIT_ERROR)
        }
    }
}
