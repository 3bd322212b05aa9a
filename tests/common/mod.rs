#![allow(dead_code)]
//! Helpers shared by the integration tests.

use sudolab::grid::{Puzzle, read_puzzles};

pub fn fixture(name: &str) -> Vec<Puzzle> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_puzzles(&text)
        .into_iter()
        .map(|r| r.expect("fixture parses").1)
        .collect()
}

/// A file of `../shared/data`, or `None` (with a note) when it is absent.
pub fn shared_data(rel: &str) -> Option<String> {
    let path = format!("{}/../shared/data/{rel}", env!("CARGO_MANIFEST_DIR"));
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(_) => {
            eprintln!("note: {path} not found; skipping the part of the test that needs it");
            None
        }
    }
}

/// Deterministic xorshift generator for tests.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
