//! sudolab: why is a Sudoku hard?
//!
//! A puzzle is parsed into a [`Puzzle`]; three engines ([`Engine::Sat`],
//! [`Engine::Dlx`], [`Engine::Bitset`]) count its solutions and check each
//! other through [`Engines`]; [`relax`] removes random edges of its Sudoku
//! graph and measures how the solutions multiply (Pelánek §3.2); [`human`]
//! rates it with models of human solving; [`cnf`] encodes it for any SAT
//! solver.
//!
//! ```
//! use sudolab::{Engines, Status, grid::parse_puzzle, relax::{RelaxOptions, relax}};
//!
//! let p = parse_puzzle(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! // Every engine agrees that the solution is unique.
//! assert_eq!(Engines::all().status(&p)?, Status::Unique);
//! // Remove 45 random edges, 20 times: more solutions, fewer fixed cells.
//! let opts = RelaxOptions { k: 45, samples: 20, ..RelaxOptions::default() };
//! let (report, samples) = relax(&p, &opts)?;
//! assert_eq!(samples.len(), 20);
//! assert!(report.summary.mean_solutions >= 1.0);
//! assert!(report.summary.mean_fixed <= 51.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod analyze;
pub mod answers;
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
pub mod relax;
pub mod report;
pub mod sat;
pub mod score;
pub mod seed;
pub(crate) mod util;

pub use answers::{Count, InstanceAnalysis, Status, SudokuEngine};
pub use data::data_dir;
pub use engine::{Disagreement, Engine, Engines};
pub use grid::{Geometry, Puzzle, Solution};
pub use seed::SeededRng;
