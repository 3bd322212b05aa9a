//! The integration tests, one binary: the public API and the `sudolab`
//! binary end to end, one module a theme (`cargo test --release --test
//! integration MODULE::` runs one). `common` holds the helpers they share.
//! The cancel flag's tests are a binary of their own (`tests/cancel.rs`):
//! the flag is process-wide and would stop the tests beside it.
//!
//! Heavy variants (the full data sets, every embedded puzzle at the default
//! budgets) run when `SUDOLAB_FULL_TESTS=1` is set ([`common::full`]); by
//! default each checks the same property on a sample it names.

mod common;

mod commands;
mod dimacs_stream;
mod doc_scripts;
mod eval_shared_data;
mod fuzz_input;
mod generate;
mod golden_dimacs;
mod hostile_runs;
mod interrupted_runs;
mod killed_runs;
mod layering;
mod levels;
mod number_edges;
mod odd_input;
mod output_paths;
mod output_safety;
mod patti_clauses;
mod pencilmarks;
mod promises;
mod python;
mod report_html;
mod run_identity;
mod score;
mod streaming;
mod user_messages;
