//! Writes the reference quantiles of `sudolab report` (101 quantiles of
//! every numeric metric of an `analyze` results file, no puzzle) as JSON, the
//! content of `src/eval/reference.json`:
//!
//! ```text
//! cargo run --release --example report_reference -- RESULTS.jsonl "SOURCE TEXT" > src/eval/reference.json
//! ```
//!
//! `docs/guide.md` ("report") gives the exact commands that made the
//! embedded file from the SE-rated puzzles of the shared data sets.

use std::path::Path;
use sudolab::Reference;
use sudolab::ResultsTable;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(source)) = (args.next(), args.next()) else {
        return Err("usage: report_reference RESULTS.jsonl \"SOURCE TEXT\"".into());
    };
    let table = ResultsTable::from_path(Path::new(&path))?;
    let reference = Reference::from_table(&table, &source)?;
    println!("{}", serde_json::to_string(&reference)?);
    Ok(())
}
