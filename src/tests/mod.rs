//! Tests of the library's internals (engines, Dancing Links, statistics,
//! evaluation tables, the human models and techniques, relaxation and its
//! certificates, parsers): they call items that are not public API, so they
//! live in the crate; `tests/` checks the public API and the binary.

mod chain_links;
mod common;
mod dlx_common;
mod dlx_cover;
mod dlx_relaxed;
mod dlx_sudoku;
mod engines;
mod eval_report;
mod eval_stats;
mod eval_table;
mod external_solvers;
mod generate;
mod human_common;
mod human_models;
mod human_papers;
mod human_props;
mod human_soundness;
mod human_techniques;
mod levels;
mod parser_props;
mod pencilmarks;
mod relax;
mod relax_certificate;
mod relax_pencilmarks;
mod report_json;
mod score;
mod serate_aligned;
mod serate_chains;
mod serate_cycles;
mod serate_uniqueness;
