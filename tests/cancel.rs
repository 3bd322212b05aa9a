//! The cancel flag (`Cancellable::cancel_all`, what the Python package raises on
//! Ctrl-C) stops a long computation inside its search, not only between
//! samples or puzzles. In its own test binary: the flag is process-wide,
//! and would stop the other tests of a shared one.

use std::time::{Duration, Instant};
use sudolab::{Cancellable, RateOptions, RelaxError, RelaxOptions, parse_puzzle, rate, relax};

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// A minimal 16×16 puzzle (`sudolab generate --order 4 --seed 1`, the
/// second): Sudoku Explainer's chains on it run for minutes without a budget.
const MINIMAL_16: &str = "27C1...F.....6E....A.4.CE...B......B.1A6.G.....2..9....D8.F...5...G....4..5..D...D.F65.9..B.7..1.43.A.......CB..A..9C...4.DEF...5..GB.2..1..D7............C.AF....A849..6.G.1........D.7...8...6.5.2G...F..36..7..7.D29..C...3B.BC..F.65.D8....AG.14...A.62.....";

/// Runs `work` as a cancellable call, cancels it after half a second and
/// returns its result with the seconds it took past the cancel.
fn cancelled_after_half_a_second<T: Send>(work: impl FnOnce() -> T + Send) -> (T, f64) {
    let call = Cancellable::start();
    let (result, late) = std::thread::scope(|s| {
        let handle = s.spawn(work);
        std::thread::sleep(Duration::from_millis(500));
        let asked = Instant::now();
        Cancellable::cancel_all();
        let result = handle.join().unwrap();
        (result, asked.elapsed().as_secs_f64())
    });
    assert!(call.cancelled());
    drop(call);
    assert!(
        !Cancellable::start().cancelled(),
        "the flag is lowered when the last call ends"
    );
    (result, late)
}

#[test]
fn a_cancel_stops_one_long_count_and_one_long_rating() {
    // Without a call in progress a cancel does nothing.
    Cancellable::cancel_all();
    assert!(!Cancellable::start().cancelled());
    // One sample whose exact count (k = 200, no cap) runs for minutes.
    let p = parse_puzzle(EASY).unwrap();
    let opts = RelaxOptions {
        k: 200,
        samples: 1,
        cap: 0,
        ..RelaxOptions::default()
    };
    let (r, late) = cancelled_after_half_a_second(|| relax(&p, &opts));
    assert!(matches!(r, Err(RelaxError::Interrupted)), "{r:?}");
    assert!(late < 30.0, "the count went on {late} s after the cancel");
    // A 16×16 rating with no budget to speak of: the cancel ends it as
    // a spent budget would.
    let p = parse_puzzle(MINIMAL_16).unwrap();
    let mut opts = RateOptions::for_models("serate").unwrap();
    opts.serate_budget = u64::MAX;
    let (row, late) = cancelled_after_half_a_second(|| rate(&p, &opts));
    assert_eq!(
        row.ratings.status().get("serate").map(String::as_str),
        Some("over budget")
    );
    assert!(late < 30.0, "the rating went on {late} s after the cancel");
    // The next call starts clean.
    let opts = RelaxOptions {
        k: 20,
        samples: 3,
        ..RelaxOptions::default()
    };
    assert_eq!(
        relax(&parse_puzzle(EASY).unwrap(), &opts).unwrap().1.len(),
        3
    );
}
