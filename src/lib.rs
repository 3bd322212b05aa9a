//! sudolab: why is a Sudoku hard?
//!
//! A puzzle is parsed into a [`Puzzle`]; [`cnf`] encodes it for any SAT
//! solver; three engines ([`Engine::Sat`], [`Engine::Dlx`],
//! [`Engine::Bitset`]) count its solutions and check each other through
//! [`Engines`]; [`relax`] removes random edges of its Sudoku graph and
//! measures how the solutions multiply (Pelánek §3.2); [`human`] rates it
//! with models of human solving; [`metrics`] names and computes every
//! metric; [`score`] is one calibrated difficulty score over them;
//! [`analyze`] assembles rows for a data set; [`generate`] makes puzzles;
//! [`report`] renders rows. The layers and the data flow are drawn in
//! `docs/architecture.md`.
//!
//! Open a puzzle, check it with every engine, and encode it:
//!
//! ```
//! use sudolab::{Engines, Status, grid::parse_puzzle};
//! use sudolab::cnf::{Encoding, encode};
//!
//! let p = parse_puzzle(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! assert_eq!(p.givens(), 30);
//! // Every engine agrees that the solution is unique.
//! assert_eq!(Engines::all().status(&p)?, Status::Unique);
//! // The maximal encoding: 729 variables, 11988 clauses plus one per given.
//! let cnf = encode(&p, Encoding::Max)?;
//! assert_eq!((cnf.num_vars(), cnf.num_clauses()), (729, 11988 + 30));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Relax it, rate it with the human models, and score it:
//!
//! ```
//! use sudolab::grid::parse_puzzle;
//! use sudolab::human::{RateOptions, Technique, rate};
//! use sudolab::relax::{RelaxOptions, relax};
//! use sudolab::score::{ScoreOptions, score};
//!
//! let p = parse_puzzle(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! // Remove 45 random edges, 20 times: more solutions, fewer fixed cells.
//! let opts = RelaxOptions { k: 45, samples: 20, ..RelaxOptions::default() };
//! let (report, samples) = relax(&p, &opts)?;
//! assert_eq!(samples.len(), 20);
//! assert!(report.summary.mean_solutions >= 1.0);
//! assert!(report.summary.mean_fixed <= 51.0);
//! // Singles alone solve this one: its hardest technique is a naked single.
//! let row = rate(&p, &RateOptions::for_models("weights,baseline")?);
//! assert_eq!(row.ratings.hardest_technique, Some(Technique::NakedSingle));
//! // One score, its level and its Sukaku Explainer equivalent.
//! let s = score(&p, ScoreOptions::shipped())?;
//! assert_eq!(s.score.score_level, "Easy");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod analyze;
pub mod answers;
pub mod batch;
pub mod bitset;
pub mod cnf;
pub mod data;
pub mod dlx;
pub mod engine;
pub mod eval;
pub mod examples;
pub mod generate;
pub mod graph;
pub mod grid;
pub mod human;
pub mod limits;
pub mod metrics;
pub mod relax;
pub mod report;
pub mod sat;
pub mod score;
pub mod seed;
pub mod stats;
pub(crate) mod util;

/// A line on standard error that never fails: `eprintln!` panics when
/// stderr cannot be written (`2>/dev/full`, a closed terminal); a note that
/// cannot be shown is dropped and the exit code still says what happened.
#[cfg(feature = "cli")]
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// The command line (the `cli` feature): the binary calls [`cli::main`].
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;

pub use answers::{Count, InstanceAnalysis, Status, SudokuEngine};
pub use data::data_dir;
pub use engine::{Disagreement, Engine, Engines};
pub use grid::{Geometry, Puzzle, Solution};
pub use seed::SeededRng;

/// Whether this CPU runs what the build was compiled for, else why not: on
/// x86-64 the build uses the POPCNT instruction (`.cargo/config.toml`).
/// `is_x86_feature_detected!` answers from the build flags when a feature is
/// on at compile time, so this asks CPUID (leaf 1, ECX bit 23). The command
/// line and the Python module call it before anything else.
pub fn cpu_check() -> Result<(), String> {
    #[cfg(all(target_arch = "x86_64", target_feature = "popcnt"))]
    {
        #[allow(unused_unsafe)]
        let ecx = unsafe { std::arch::x86_64::__cpuid(1) }.ecx;
        if ecx >> 23 & 1 == 0 {
            return Err(
                "this build of sudolab uses the POPCNT instruction, which this CPU \
                 lacks; rebuild it with RUSTFLAGS=\"-C target-feature=-popcnt\""
                    .to_string(),
            );
        }
    }
    Ok(())
}
