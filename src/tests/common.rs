#![allow(dead_code)]
//! Helpers shared by the tests of the library's internals.

use crate::{Puzzle, read_puzzles};

pub(crate) use crate::data::data_dir;

#[path = "../../tests/common/support.rs"]
mod support;
pub(crate) use support::*;

/// Deterministic xorshift generator for tests (the crate's
/// [`crate::seed::xorshift64`]).
pub(crate) struct Rng(pub u64);
impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        crate::seed::xorshift64(&mut self.0)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
