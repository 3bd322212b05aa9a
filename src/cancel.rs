//! Cancelling long library calls from outside: one flag that the engines'
//! long loops poll (the bitset search's relaxed counting, Sudoku
//! Explainer's chain producers through their work counter, the batch
//! driver between puzzles, relaxation between samples), so a call that
//! runs for minutes stops within moments of a Ctrl-C.
//!
//! The Python package raises it when `Python::check_signals` reports a
//! signal during a native call ([`Cancellable`] around the call, then
//! [`Cancellable::cancel_all`]); the call's partial result is thrown away (the caller checks
//! [`Cancellable::cancelled`] and raises `KeyboardInterrupt`). A signal is
//! process-wide, and so is the flag: every call in progress stops. It is
//! lowered when the last [`Cancellable`] ends, so the next call starts
//! clean. The command line does not raise it: a signal there ends the
//! program, or (a streamed file written in place) lets the puzzles in
//! progress finish so that their rows are kept.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Raised by [`Cancellable::cancel_all`], lowered when the last [`Cancellable`] ends.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Calls in progress that may be cancelled.
static CALLS: AtomicUsize = AtomicUsize::new(0);

/// True once [`Cancellable::cancel_all`] was called during a
/// [`Cancellable`] call: a long loop that sees it stops at once (its partial
/// result is thrown away).
pub(crate) fn cancelled() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// A call that may be cancelled, from its start to its end (drop).
pub struct Cancellable(());

impl Cancellable {
    /// Marks the start of a call that [`Cancellable::cancel_all`] may stop.
    pub fn start() -> Cancellable {
        CALLS.fetch_add(1, Ordering::SeqCst);
        Cancellable(())
    }

    /// Whether the call was cancelled: its result is then partial.
    pub fn cancelled(&self) -> bool {
        cancelled()
    }

    /// Asks every cancellable call in progress to stop (nothing when none
    /// is in progress).
    pub fn cancel_all() {
        if CALLS.load(Ordering::SeqCst) > 0 {
            REQUESTED.store(true, Ordering::SeqCst);
        }
    }
}

impl Drop for Cancellable {
    fn drop(&mut self) {
        if CALLS.fetch_sub(1, Ordering::SeqCst) == 1 {
            REQUESTED.store(false, Ordering::SeqCst);
        }
    }
}
