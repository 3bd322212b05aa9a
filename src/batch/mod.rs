//! The batch driver: every command that reads a data set, and the Python
//! batch functions, run their puzzles through [`Driver::run`].
//!
//! A batch reads its [`Input`] (a puzzle file, the embedded examples or
//! puzzles already parsed) a window of at most [`WINDOW`] puzzles at a time,
//! keeps the puzzles of its [`Shard`], runs one job per puzzle (in parallel
//! over the window, or one after the other when the job is parallel itself),
//! and hands each window's rows, in input order, to a sink before the next
//! window is read, so memory does not grow with the input. The policies are
//! stated once, here:
//!
//! * **keep-going**: a bad input line or a puzzle the job refuses
//!   ([`JobError::Refused`]) stops the batch, or with `keep_going` is
//!   recorded in the [`Summary`] and skipped;
//! * **resume**: puzzles whose rows a results file already holds
//!   ([`DoneRows`]) are skipped, and a job with one row per key value (a
//!   sweep's `k`, [`Driver::run_keyed`]) is given only the values still to
//!   do (a line holding another puzzle than the file's is an error);
//! * **disagreement**: an engine [`Disagreement`] is a bug, never a bad
//!   puzzle: the rows before it are written, then the batch stops with
//!   [`BatchError::Disagreement`] naming the input line (the command line
//!   exits 2 on it, Python raises `EngineDisagreement`);
//! * **stop**: a caller's stop check (a reader that went away, a signal
//!   that keeps the rows) and the cancel flag ([`crate::cancel`], Ctrl-C
//!   in Python) are asked before every puzzle; the batch then ends with
//!   [`BatchError::Stopped`].
//!
//! Results files read back ([`results`]: the rows a resumed run skips) are
//! this module's; the command line writes them, with their run record.

pub(crate) mod results;

use crate::engine::Disagreement;
use crate::grid::{Alphabet, GIVENS_ONLY, ParseError, ParseErrorKind, Puzzle, PuzzleReader};
use crate::score::ScoreError;
use rayon::prelude::*;
use results::{DoneRows, ResultsError, RowKey};
use std::error::Error;
use std::fmt;
use std::io::BufRead;
use std::str::FromStr;

/// Puzzles per window: read, computed and written before the next window
/// is read.
pub(crate) const WINDOW: usize = 256;

/// An error of a job or a sink that is neither a refused puzzle nor a
/// disagreement: it stops the batch as it is.
pub(crate) type BoxError = Box<dyn Error + Send + Sync>;

/// Shard `index` (1-based) of `count`: the puzzles whose input line is
/// `index` modulo `count`, so `count` jobs cover an input exactly once and
/// sorted data is spread evenly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Whether the puzzle starting on input `line` (1-based) is this shard's.
    pub fn owns(self, line: usize) -> bool {
        (line - 1) % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("{s:?}: expected I/N with 1 <= I <= N, e.g. 2/8");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Where a batch's puzzles come from.
pub enum Source {
    /// The embedded example puzzles, numbered from line 1.
    Examples,
    /// Puzzle text read line by line (or as grid blocks); `name` names it in
    /// messages (a path, `-`).
    Text {
        /// The text.
        reader: Box<dyn BufRead>,
        /// Its name in messages.
        name: String,
    },
    /// Puzzles already parsed, with their 1-based line numbers.
    Parsed(Vec<(usize, Puzzle)>),
}

/// A batch's input: its source and how it is read.
pub struct Input {
    /// Where the puzzles come from.
    pub source: Source,
    /// The digits of the text (`None`: inferred, as `PuzzleReader` does).
    pub alphabet: Option<Alphabet>,
    /// Only this shard's puzzles.
    pub shard: Option<Shard>,
    /// Skip bad lines and refused puzzles (recorded in the [`Summary`])
    /// instead of stopping.
    pub keep_going: bool,
    /// Read pencilmark grids (`docs/methods.md` §0.1); when false, for the
    /// commands that read givens alone, such a puzzle is refused
    /// ([`GIVENS_ONLY`]).
    pub pencilmarks: bool,
}

impl Input {
    /// Every puzzle of `source`, unsharded, stopping at the first bad line,
    /// refusing pencilmark grids.
    pub fn of(source: Source) -> Input {
        Input {
            source,
            alphabet: None,
            shard: None,
            keep_going: false,
            pencilmarks: false,
        }
    }
}

/// Why a job did not give a row for one puzzle.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// The puzzle cannot be computed (contradictory, no score, …): the
    /// batch stops, or skips it with `keep_going`.
    #[error("{0}")]
    Refused(String),
    /// The puzzle is of a kind the job gives no row for (a pencilmark grid
    /// where the row is defined on givens, `docs/methods.md` §0.1): recorded
    /// with `why` and skipped, and the batch goes on, with or without
    /// `keep_going`.
    #[error("{0}")]
    Skipped(String),
    /// The engines disagreed: a bug; the batch stops.
    #[error(transparent)]
    Disagreement(#[from] Disagreement),
    /// Anything else (a model whose numbers overflow, a parameter that does
    /// not fit the puzzle): the batch stops with it.
    #[error(transparent)]
    Fatal(BoxError),
}

impl JobError {
    /// A refusal with `why`.
    pub fn refused(why: impl fmt::Display) -> JobError {
        JobError::Refused(why.to_string())
    }

    /// A fatal error.
    pub fn fatal(e: impl Into<BoxError>) -> JobError {
        JobError::Fatal(e.into())
    }
}

impl From<ScoreError> for JobError {
    /// A disagreement stays one; a model whose numbers overflow fails every
    /// puzzle (fatal); the other errors are this puzzle's.
    fn from(e: ScoreError) -> Self {
        match e {
            ScoreError::Disagreement(d) => d.into(),
            e @ ScoreError::NotFinite(_) => JobError::fatal(e),
            e @ ScoreError::Pencilmarks => JobError::Skipped(e.to_string()),
            e => JobError::refused(e),
        }
    }
}

/// Why a batch stopped before the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// A bad input line (without `keep_going`).
    #[error("{0}")]
    BadLine(ParseError),
    /// A puzzle the job refused (without `keep_going`).
    #[error("line {line}: {why}")]
    Refused {
        /// Its input line.
        line: usize,
        /// Why.
        why: String,
    },
    /// The input could not be read, or holds a line too long to be a
    /// puzzle: no `keep_going` skips that.
    #[error("{0}")]
    Input(ParseError),
    /// The input holds no puzzle at all.
    #[error("no puzzle found in {0}")]
    Empty(String),
    /// The engines disagreed on the puzzle of input line `line`.
    #[error("at input line {line}: {source}")]
    Disagreement {
        /// The input line.
        line: usize,
        /// The disagreement, with its reproducible case.
        #[source]
        source: Disagreement,
    },
    /// The results file being resumed does not fit this input.
    #[error(transparent)]
    Resume(#[from] ResultsError),
    /// A job's fatal error.
    #[error(transparent)]
    Job(BoxError),
    /// The sink could not take the rows.
    #[error(transparent)]
    Sink(BoxError),
    /// The caller's stop check asked to stop.
    #[error("stopped before the end of the input")]
    Stopped,
}

/// What a finished batch did.
#[derive(Debug, Default)]
pub struct Summary {
    /// Rejected input lines and refused puzzles (with `keep_going`).
    pub rejected: Rejections,
    /// Puzzles computed (not counting those skipped as already done).
    pub computed: usize,
}

/// The rejected input lines and refused puzzles of a batch: how many, and
/// the first [`Rejections::KEPT`] of them in input order with why. The
/// others are only counted, so a batch over junk (`--keep-going` on a
/// binary file) runs in the same memory however long its input.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Rejections {
    first: Vec<(usize, String)>,
    total: usize,
}

impl Rejections {
    /// How many rejections are kept with their reason.
    pub const KEPT: usize = 20;

    /// Records the rejection of input `line` for `why`.
    pub fn push(&mut self, line: usize, why: String) {
        self.total += 1;
        let at = self.first.partition_point(|(l, _)| *l <= line);
        if at < Self::KEPT {
            self.first.insert(at, (line, why));
            self.first.truncate(Self::KEPT);
        }
    }

    /// Adds the rejections of `other`.
    pub fn extend(&mut self, other: Rejections) {
        let more = other.total - other.first.len();
        for (line, why) in other.first {
            self.push(line, why);
        }
        self.total += more;
    }

    /// The first rejections kept (at most [`Rejections::KEPT`]), in input
    /// order: input line and why.
    pub fn first(&self) -> &[(usize, String)] {
        &self.first
    }

    /// How many input lines or puzzles were rejected.
    pub fn total(&self) -> usize {
        self.total
    }

    /// True when nothing was rejected.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }
}

/// How far a batch has come, for a progress display. Every method has a
/// default that does nothing.
pub trait Progress: Sync {
    /// `n` more puzzles are queued.
    fn queued(&self, _n: u64) {}
    /// `n` more puzzles are done.
    fn finished(&self, _n: u64) {}
    /// `n` puzzles of the input need no work (done in an earlier run).
    fn skipped(&self, _n: u64) {}
    /// Runs `f` (which writes to the terminal) with the display hidden.
    fn pause(&self, f: &mut dyn FnMut()) {
        f()
    }
}

/// No progress display.
pub struct NoProgress;

impl Progress for NoProgress {}

/// A window check: runs on every window before any of its puzzles.
type WindowCheck<'a> = &'a (dyn Fn(&[(usize, Puzzle)]) -> Result<(), JobError> + Sync);

/// The batch driver's settings; [`Driver::run`] runs a batch.
pub struct Driver<'a> {
    window: usize,
    parallel: bool,
    progress: &'a dyn Progress,
    stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    done: Option<&'a DoneRows>,
    check_window: Option<WindowCheck<'a>>,
    eager: bool,
    threads: Option<usize>,
}

impl Default for Driver<'_> {
    fn default() -> Self {
        Driver {
            window: WINDOW,
            parallel: true,
            progress: &NoProgress,
            stop: None,
            done: None,
            check_window: None,
            eager: false,
            threads: None,
        }
    }
}

impl<'a> Driver<'a> {
    /// Windows of `WINDOW` puzzles, computed in parallel, no progress.
    pub fn new() -> Self {
        Self::default()
    }

    /// Windows of at most `n` puzzles (at least 1): smaller windows write
    /// their rows sooner.
    pub fn window(mut self, n: usize) -> Self {
        self.window = n.max(1);
        self
    }

    /// One puzzle after the other, for a job that is parallel itself.
    pub fn sequential(mut self) -> Self {
        self.parallel = false;
        self
    }

    /// Reports progress to `p`.
    pub fn progress(mut self, p: &'a dyn Progress) -> Self {
        self.progress = p;
        self
    }

    /// Asks `stop` before every puzzle; when it says so the batch ends with
    /// [`BatchError::Stopped`].
    pub fn stop_when(mut self, stop: &'a (dyn Fn() -> bool + Sync)) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Skips the puzzles whose rows `done` holds (keyed by input line, and
    /// with [`Driver::run_keyed`] by the key values too).
    pub fn resume(mut self, done: &'a DoneRows) -> Self {
        self.done = Some(done);
        self
    }

    /// Computes on at most `n` threads (at least 1) instead of as many as
    /// the rayon pool has; with 1 every puzzle runs on the calling thread,
    /// so no row crosses threads.
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = Some(n.max(1));
        self
    }

    /// Hands rows to the sink as soon as they and every row before them
    /// are done (in input order), not window by window: a streamed file
    /// then holds every finished row within moments (from worker threads,
    /// rows of short puzzles in batches of at most 2 ms of work),
    /// so an interrupted or killed run loses only the puzzles in progress.
    pub fn rows_as_they_finish(mut self) -> Self {
        self.eager = true;
        self
    }

    /// Runs `check` on every window before its puzzles are computed (e.g. to
    /// refuse a parameter that does not fit a puzzle before any work).
    pub fn check_windows(mut self, check: WindowCheck<'a>) -> Self {
        self.check_window = Some(check);
        self
    }

    /// Runs `job` on every puzzle of `input` and hands each window's rows,
    /// with their input lines and in input order, to `sink`.
    pub fn run<R: Send>(
        &self,
        input: Input,
        job: impl Fn(usize, &Puzzle) -> Result<R, JobError> + Sync,
        sink: impl FnMut(Vec<(usize, R)>) -> Result<(), BoxError>,
    ) -> Result<Summary, BatchError> {
        self.run_keyed(input, &[], |line, p, _| job(line, p), sink)
    }

    /// [`Driver::run`] for a job that gives each puzzle one row per value
    /// of `keys` (a relaxation sweep's `k`, the key field of its rows): the
    /// job gets the values whose rows are still to do, all of them unless
    /// [`Driver::resume`] holds some, and a puzzle with none left is
    /// skipped. With no `keys`, a puzzle's row is keyed by its input line
    /// alone, as in [`Driver::run`].
    pub fn run_keyed<R: Send>(
        &self,
        input: Input,
        keys: &[u64],
        job: impl Fn(usize, &Puzzle, &[u64]) -> Result<R, JobError> + Sync,
        mut sink: impl FnMut(Vec<(usize, R)>) -> Result<(), BoxError>,
    ) -> Result<Summary, BatchError> {
        let keep_going = input.keep_going;
        let mut summary = Summary::default();
        let mut each = |summary: &mut Summary, window: Vec<(usize, Puzzle)>| {
            self.window_rows(window, keys, &job, &mut sink, keep_going, summary)
        };
        read_windows(input, self.window, &mut summary, &mut each)?;
        Ok(summary)
    }

    /// The values of `keys` whose rows of the puzzle `p` of input `line`
    /// are still to do (all unless resumed); `None` when none is, or with
    /// no `keys` when the line's row is done.
    fn keys_to_do(
        &self,
        line: usize,
        p: &Puzzle,
        keys: &[u64],
    ) -> Result<Option<Vec<u64>>, ResultsError> {
        let Some(done) = self.done else {
            return Ok(Some(keys.to_vec()));
        };
        let puzzle = p.to_line();
        if keys.is_empty() {
            let row_done = done.contains(&RowKey::new(line, &[]), &puzzle)?;
            return Ok((!row_done).then(Vec::new));
        }
        let mut to_do = Vec::with_capacity(keys.len());
        for &key in keys {
            if !done.contains(&RowKey::new(line, &[key]), &puzzle)? {
                to_do.push(key);
            }
        }
        Ok((!to_do.is_empty()).then_some(to_do))
    }

    /// Computes one window and hands its rows to `sink`, in input order:
    /// all at once at the end of the window, or (with
    /// [`Driver::rows_as_they_finish`]) each run of rows as soon as every
    /// row before it is done.
    fn window_rows<R: Send>(
        &self,
        window: Vec<(usize, Puzzle)>,
        keys: &[u64],
        job: &(impl Fn(usize, &Puzzle, &[u64]) -> Result<R, JobError> + Sync),
        sink: &mut impl FnMut(Vec<(usize, R)>) -> Result<(), BoxError>,
        keep_going: bool,
        summary: &mut Summary,
    ) -> Result<(), BatchError> {
        if let Some(check) = self.check_window {
            check(&window).map_err(|e| fatal(0, e))?;
        }
        let mut todo = Vec::with_capacity(window.len());
        let read = window.len();
        for (line, p) in window {
            if let Some(keys) = self.keys_to_do(line, &p, keys)? {
                todo.push((line, p, keys));
            }
        }
        self.progress.skipped((read - todo.len()) as u64);
        self.progress.queued(todo.len() as u64);
        let stop_asked = || crate::cancel::cancelled() || self.stop.is_some_and(|stop| stop());
        let one = |(line, p, keys): &(usize, Puzzle, Vec<u64>)| job(*line, p, keys);
        let mut order = InOrder {
            next: 0,
            pending: std::collections::BTreeMap::new(),
            rows: Vec::with_capacity(todo.len()),
            rejected: Rejections::default(),
            stopped: None,
            keep_going,
            eager: self.eager,
        };
        let mut computed = 0;
        let mut emit = |rows: Vec<(usize, R)>| -> Result<(), BatchError> {
            computed += rows.len();
            let mut sink_result = Ok(());
            let mut rows = Some(rows);
            self.progress.pause(&mut || {
                if let Some(rows) = rows.take() {
                    sink_result = sink(rows);
                }
            });
            sink_result.map_err(BatchError::Sink)
        };
        // Puzzles are started in input order and the stop check is asked
        // before a puzzle is taken, so when a batch stops every started
        // puzzle finishes and the rows written are a prefix of the window:
        // no finished row is lost behind one that was never started.
        let pool = self.threads.unwrap_or_else(rayon::current_num_threads);
        let threads = pool.min(todo.len());
        if self.parallel && rayon::current_thread_index().is_none() && threads > 1 {
            self.on_threads(threads, &todo, &one, &stop_asked, &mut order, &mut emit);
        } else if self.parallel && threads > 1 {
            // Already on the pool (a job of an outer batch): the window is
            // computed as a whole, then handed on in order.
            let results: Vec<Option<Result<R, JobError>>> = todo
                .par_iter()
                .map(|item| (!stop_asked()).then(|| one(item)))
                .collect();
            self.progress
                .finished(results.iter().filter(|r| r.is_some()).count() as u64);
            for (i, r) in results.into_iter().enumerate() {
                match r {
                    Some(r) => order.take(i, todo[i].0, r, &mut emit),
                    None => break,
                }
            }
        } else {
            // One thread (or one puzzle): on the calling thread, so no row
            // crosses threads; the progress display hears of the finished
            // puzzles in hand-overs, as from the worker threads.
            let mut finished = HandOver::new();
            for (i, item) in todo.iter().enumerate() {
                if order.stopped.is_some() || stop_asked() {
                    break;
                }
                let r = one(item);
                if finished.hold(()) {
                    self.progress.finished(finished.take().len() as u64);
                }
                order.take(i, item.0, r, &mut emit);
            }
            self.progress.finished(finished.take().len() as u64);
        }
        if order.stopped.is_none() && order.next < todo.len() {
            order.stopped = Some(BatchError::Stopped);
        }
        // The rows before a disagreement or a stop are kept.
        let written = order.flush(&mut emit);
        summary.computed += computed;
        summary.rejected.extend(order.rejected);
        match order.stopped {
            Some(e) => Err(e),
            None => written,
        }
    }
}

impl Driver<'_> {
    /// Computes the window `todo` on `threads` plain threads (not pool
    /// tasks: a job that is parallel inside, such as relaxation samples,
    /// would otherwise, while it waits for its own tasks, steal a whole
    /// worker loop onto its stack, and its row would wait for the rest of
    /// the window), and puts the rows in order on this thread, which alone
    /// calls the sink. Each worker hands its finished rows over in batches
    /// ([`HandOver`]): a puzzle longer than [`HAND_OVER`] crosses at once,
    /// short ones a batch at a time, so the hand-over (a channel send that
    /// wakes this thread) is not paid per row.
    fn on_threads<R: Send>(
        &self,
        threads: usize,
        todo: &[(usize, Puzzle, Vec<u64>)],
        one: &(impl Fn(&(usize, Puzzle, Vec<u64>)) -> Result<R, JobError> + Sync),
        stop_asked: &(impl Fn() -> bool + Sync),
        order: &mut InOrder<R>,
        emit: &mut impl FnMut(Vec<(usize, R)>) -> Result<(), BatchError>,
    ) {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
        let (next, abort) = (AtomicUsize::new(0), AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel::<Vec<(usize, usize, Result<R, JobError>)>>();
        let (next, abort) = (&next, &abort);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                let tx = tx.clone();
                scope.spawn(move || {
                    let mut done = HandOver::new();
                    while !abort.load(Relaxed) && !stop_asked() {
                        let i = next.fetch_add(1, Relaxed);
                        let Some(item) = todo.get(i) else { break };
                        if done.hold((i, item.0, one(item))) && !self.hand_over(&tx, &mut done) {
                            return;
                        }
                    }
                    self.hand_over(&tx, &mut done);
                });
            }
            drop(tx);
            for batch in rx {
                for (i, line, r) in batch {
                    order.take(i, line, r, emit);
                }
                if order.stopped.is_some() {
                    abort.store(true, Relaxed);
                }
            }
        });
    }

    /// Sends a worker's finished rows to the thread that orders them, and
    /// tells the progress display; false when that thread no longer listens.
    fn hand_over<T>(&self, tx: &std::sync::mpsc::Sender<Vec<T>>, done: &mut HandOver<T>) -> bool {
        let rows = done.take();
        if rows.is_empty() {
            return true;
        }
        self.progress.finished(rows.len() as u64);
        tx.send(rows).is_ok()
    }
}

/// How long finished results may wait to be handed on together (to the
/// thread that orders them, to the progress display): a puzzle that takes
/// longer goes alone and at once, so long jobs stream row by row, while
/// thousands of short ones a second cost a hand-over every few
/// milliseconds, not one a row. Rows held back are at most this much work:
/// a stop (a signal, a closed reader) hands them on before the batch ends,
/// and a killed run has at most that to redo when resumed.
const HAND_OVER: std::time::Duration = std::time::Duration::from_millis(2);

/// Finished results held back until [`HAND_OVER`] has passed since the
/// last hand-over.
struct HandOver<T> {
    held: Vec<T>,
    since: std::time::Instant,
}

impl<T> HandOver<T> {
    fn new() -> Self {
        HandOver {
            held: Vec::new(),
            since: std::time::Instant::now(),
        }
    }

    /// Holds `item`; true when the held results are due to be handed on.
    fn hold(&mut self, item: T) -> bool {
        self.held.push(item);
        self.since.elapsed() >= HAND_OVER
    }

    /// The held results, in the order held; the clock starts again.
    fn take(&mut self) -> Vec<T> {
        self.since = std::time::Instant::now();
        std::mem::take(&mut self.held)
    }
}

/// A window's results put back in input order as they arrive: what is
/// ready goes to the sink (at once when `eager`), the first error stops it.
struct InOrder<R> {
    /// Index (in the window's to-do list) of the next row to hand on.
    next: usize,
    /// Results that arrived before an earlier one.
    pending: std::collections::BTreeMap<usize, (usize, Result<R, JobError>)>,
    /// Rows ready, in order, not yet handed on.
    rows: Vec<(usize, R)>,
    /// Refused puzzles skipped (with `keep_going`).
    rejected: Rejections,
    stopped: Option<BatchError>,
    keep_going: bool,
    eager: bool,
}

impl<R> InOrder<R> {
    /// Takes result `i` (of input `line`) and hands on what is ready.
    fn take(
        &mut self,
        i: usize,
        line: usize,
        r: Result<R, JobError>,
        emit: &mut impl FnMut(Vec<(usize, R)>) -> Result<(), BatchError>,
    ) {
        if self.stopped.is_some() {
            return;
        }
        if i != self.next {
            // An earlier result is still to come: nothing new is ready.
            self.pending.insert(i, (line, r));
            return;
        }
        // The next one in order (always, on one thread): no stop in the map.
        let mut ready = Some((line, r));
        while let Some((line, r)) = ready {
            self.next += 1;
            match r {
                Ok(row) => self.rows.push((line, row)),
                Err(JobError::Skipped(why)) => {
                    self.rejected.push(line, format!("line {line}: {why}"));
                }
                Err(JobError::Refused(why)) if self.keep_going => {
                    self.rejected.push(line, format!("line {line}: {why}"));
                }
                Err(e) => {
                    self.stopped = Some(fatal(line, e));
                    self.pending.clear();
                    break;
                }
            }
            ready = self.pending.remove(&self.next);
        }
        if self.eager
            && let Err(e) = self.flush(emit)
        {
            self.stopped.get_or_insert(e);
        }
    }

    /// Hands on the ready rows.
    fn flush(
        &mut self,
        emit: &mut impl FnMut(Vec<(usize, R)>) -> Result<(), BatchError>,
    ) -> Result<(), BatchError> {
        if self.rows.is_empty() {
            return Ok(());
        }
        emit(std::mem::take(&mut self.rows))
    }
}

/// The batch error of a job error at input `line` (0: a window check).
fn fatal(line: usize, e: JobError) -> BatchError {
    match e {
        JobError::Refused(why) | JobError::Skipped(why) => BatchError::Refused { line, why },
        JobError::Disagreement(source) => BatchError::Disagreement { line, source },
        JobError::Fatal(e) => BatchError::Job(e),
    }
}

/// Every puzzle of `input` (its shard, without bad lines when
/// `keep_going`), read at once, and what was rejected: for the commands
/// that need the whole input (a deduplication, one graph of the first
/// puzzle) and small inputs.
///
/// ```
/// use sudolab::{Input, Puzzle, Source, read_whole_input};
///
/// let (puzzles, summary) = read_whole_input(Input::of(Source::Examples))?;
/// assert_eq!(puzzles.len(), Puzzle::examples().len());
/// assert!(summary.rejected.is_empty());
/// # Ok::<(), sudolab::BatchError>(())
/// ```
///
/// # Errors
/// A bad line (without `keep_going`), an input that cannot be read.
pub fn read_all(input: Input) -> Result<(Vec<(usize, Puzzle)>, Summary), BatchError> {
    let mut all = Vec::new();
    let mut summary = Summary::default();
    read_windows(input, usize::MAX, &mut summary, &mut |_, window| {
        all.extend(window);
        Ok(())
    })?;
    Ok((all, summary))
}

/// What [`read_windows`] hands each window to.
type EachWindow<'a> = dyn FnMut(&mut Summary, Vec<(usize, Puzzle)>) -> Result<(), BatchError> + 'a;

/// Reads `input` a window of at most `size` puzzles at a time and hands each
/// window, in input order, to `each`; bad lines stop the batch or, with
/// `keep_going`, go to `summary.rejected`.
fn read_windows(
    input: Input,
    size: usize,
    summary: &mut Summary,
    each: &mut EachWindow<'_>,
) -> Result<(), BatchError> {
    let mine = |line: usize| input.shard.is_none_or(|s| s.owns(line));
    let (keep_going, pencilmarks) = (input.keep_going, input.pencilmarks);
    // A pencilmark grid where givens alone are read: refused, or skipped.
    let refuse = |summary: &mut Summary, line: usize, p: &Puzzle| {
        if pencilmarks || !p.has_pencilmarks() {
            return Ok(false);
        }
        if !keep_going {
            let why = GIVENS_ONLY.to_string();
            return Err(BatchError::Refused { line, why });
        }
        summary
            .rejected
            .push(line, format!("line {line}: {GIVENS_ONLY}"));
        Ok(true)
    };
    let chunked = |puzzles: Vec<(usize, Puzzle)>,
                   summary: &mut Summary,
                   each: &mut EachWindow<'_>|
     -> Result<(), BatchError> {
        let mut mine_read = Vec::new();
        for (l, p) in puzzles.into_iter().filter(|(l, _)| mine(*l)) {
            if !refuse(summary, l, &p)? {
                mine_read.push((l, p));
            }
        }
        let mine = mine_read;
        let mut rest = mine.into_iter().peekable();
        while rest.peek().is_some() {
            let window: Vec<_> = rest.by_ref().take(size).collect();
            each(summary, window)?;
        }
        Ok(())
    };
    let (reader, name) = match input.source {
        Source::Examples => {
            let examples = crate::grid::Puzzle::examples()
                .into_iter()
                .enumerate()
                .map(|(i, p)| (i + 1, p))
                .collect();
            return chunked(examples, summary, each);
        }
        Source::Parsed(puzzles) => return chunked(puzzles, summary, each),
        Source::Text { reader, name } => (reader, name),
    };
    let mut read = 0;
    let mut window = Vec::new();
    for item in PuzzleReader::new(reader).with_alphabet(input.alphabet) {
        read += 1;
        match item {
            Ok(p) if mine(p.0) && !refuse(summary, p.0, &p.1)? => window.push(p),
            Err(e) if matches!(e.kind, ParseErrorKind::Io(_) | ParseErrorKind::LineTooLong) => {
                return Err(BatchError::Input(e));
            }
            Err(e) if mine(e.line) => {
                if !input.keep_going {
                    return Err(BatchError::BadLine(e));
                }
                summary.rejected.push(e.line, e.to_string());
            }
            _ => {}
        }
        if window.len() >= size {
            each(summary, std::mem::take(&mut window))?;
        }
    }
    if read == 0 {
        return Err(BatchError::Empty(name));
    }
    if !window.is_empty() {
        each(summary, window)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::parse_puzzle;

    const P: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn text(s: &str) -> Input {
        Input::of(Source::Text {
            reader: Box::new(std::io::Cursor::new(s.to_string())),
            name: "test".into(),
        })
    }

    fn lines(n: usize) -> String {
        (0..n).map(|_| format!("{P}\n")).collect()
    }

    #[test]
    fn rows_come_in_input_order_window_by_window() {
        let mut windows = Vec::new();
        let summary = Driver::new()
            .window(3)
            .run(
                text(&lines(8)),
                |line, p| Ok((line, p.givens())),
                |rows| {
                    windows.push(rows.iter().map(|(l, _)| *l).collect::<Vec<_>>());
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!(windows, [vec![1, 2, 3], vec![4, 5, 6], vec![7, 8]]);
        assert_eq!(summary.computed, 8);
    }

    #[test]
    fn rows_can_go_out_one_by_one_and_a_stop_keeps_a_prefix() {
        let mut calls = Vec::new();
        Driver::new()
            .window(3)
            .sequential()
            .rows_as_they_finish()
            .run(
                text(&lines(5)),
                |line, _| Ok(line),
                |rows| {
                    calls.push(rows.iter().map(|(l, _)| *l).collect::<Vec<_>>());
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!(calls, [vec![1], vec![2], vec![3], vec![4], vec![5]]);
        // In parallel, a stop asked after 40 puzzles were taken: the rows
        // written are lines 1..=n with no gap, and every taken puzzle's row
        // is among them.
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let stop = || asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst) >= 40;
        let mut rows = Vec::new();
        let e = Driver::new()
            .threads(2)
            .rows_as_they_finish()
            .stop_when(&stop)
            .run(
                text(&lines(100)),
                |line, _| Ok(line),
                |r| {
                    rows.extend(r.into_iter().map(|(l, _)| l));
                    Ok(())
                },
            )
            .unwrap_err();
        assert!(matches!(e, BatchError::Stopped));
        assert!(rows.len() >= 40 - 2, "{rows:?}");
        assert_eq!(rows, (1..=rows.len()).collect::<Vec<_>>());
    }

    #[test]
    fn one_thread_computes_on_the_calling_thread_and_two_on_two() {
        let caller = std::thread::current().id();
        let ran_on = |threads: usize| {
            let ids = std::sync::Mutex::new(std::collections::HashSet::new());
            let mut rows = Vec::new();
            Driver::new()
                .threads(threads)
                .window(600)
                .rows_as_they_finish()
                .run(
                    text(&lines(600)),
                    |line, _| {
                        ids.lock().unwrap().insert(std::thread::current().id());
                        Ok(line)
                    },
                    |r| {
                        rows.extend(r.into_iter().map(|(l, _)| l));
                        Ok(())
                    },
                )
                .unwrap();
            // Every row, once, in input order, however they were handed on.
            assert_eq!(rows, (1..=600).collect::<Vec<_>>());
            ids.into_inner().unwrap()
        };
        // No row crosses threads when one is asked.
        assert_eq!(ran_on(1), [caller].into());
        let two = ran_on(2);
        assert!(
            !two.contains(&caller) && (1..=2).contains(&two.len()),
            "{two:?}"
        );
    }

    #[test]
    fn a_keyed_job_gets_the_keys_a_resumed_file_lacks() {
        use crate::batch::results::{ResultsFile, RowSpec};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("done.jsonl");
        let row =
            |line: usize, k: u64| format!("{{\"line\":{line},\"puzzle\":\"{P}\",\"k\":{k}}}\n");
        std::fs::write(&path, row(1, 0) + &row(1, 20) + &row(2, 20)).unwrap();
        let spec = RowSpec {
            key: &["k"],
            params: Vec::new(),
        };
        let done = DoneRows::read(&ResultsFile::read(&path).unwrap(), &spec).unwrap();
        let mut rows = Vec::new();
        let summary = Driver::new()
            .resume(&done)
            .run_keyed(
                text(&lines(3)),
                &[0, 20],
                |line, _, keys| Ok((line, keys.to_vec())),
                |r| {
                    rows.extend(r.into_iter().map(|(_, row)| row));
                    Ok(())
                },
            )
            .unwrap();
        // Line 1 is done at both k and skipped; line 2 lacks k = 0.
        assert_eq!(rows, [(2, vec![0]), (3, vec![0, 20])]);
        assert_eq!(summary.computed, 2);
        // Unresumed, every puzzle gets every key.
        let mut all = Vec::new();
        Driver::new()
            .run_keyed(
                text(&lines(2)),
                &[0, 20],
                |_, _, keys| Ok(keys.to_vec()),
                |r| {
                    all.extend(r.into_iter().map(|(_, row)| row));
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!(all, [vec![0, 20], vec![0, 20]]);
    }

    #[test]
    fn shards_cover_the_input_once() {
        let mut seen = Vec::new();
        for i in 1..=3 {
            let mut input = text(&lines(10));
            input.shard = Some(format!("{i}/3").parse().unwrap());
            Driver::new()
                .run(
                    input,
                    |line, _| Ok(line),
                    |rows| {
                        seen.extend(rows.into_iter().map(|(l, _)| l));
                        Ok(())
                    },
                )
                .unwrap();
        }
        seen.sort();
        assert_eq!(seen, (1..=10).collect::<Vec<_>>());
        assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
    }

    #[test]
    fn keep_going_records_bad_lines_and_refusals_in_order() {
        let input = format!("{P}\n123\n{P}\n{P}\n");
        let job = |line: usize, _: &Puzzle| {
            if line == 4 {
                Err(JobError::refused("no"))
            } else {
                Ok(line)
            }
        };
        let e = Driver::new()
            .run(text(&input), job, |_| Ok(()))
            .unwrap_err();
        assert!(
            matches!(e, BatchError::BadLine(ref p) if p.line == 2),
            "{e}"
        );
        let mut kept = text(&input);
        kept.keep_going = true;
        let mut rows = Vec::new();
        let s = Driver::new()
            .run(kept, job, |r| {
                rows.extend(r);
                Ok(())
            })
            .unwrap();
        assert_eq!(rows, [(1, 1), (3, 3)]);
        assert_eq!(s.rejected.total(), 2);
        assert_eq!(s.rejected.first()[0].0, 2);
        assert_eq!(s.rejected.first()[1], (4, "line 4: no".to_string()));
        let e = Driver::new()
            .run(text(&format!("{P}\n{P}\n{P}\n{P}\n")), job, |_| Ok(()))
            .unwrap_err();
        assert_eq!(e.to_string(), "line 4: no");
    }

    #[test]
    fn rejections_keep_the_first_in_input_order_and_count_the_rest() {
        let mut r = Rejections::default();
        for line in (1..=30).rev() {
            r.push(line, format!("line {line}"));
        }
        let mut later = Rejections::default();
        for line in 100..1100 {
            later.push(line, String::new());
        }
        r.extend(later);
        assert_eq!(r.total(), 1030);
        assert_eq!(
            r.first().iter().map(|(l, _)| *l).collect::<Vec<_>>(),
            (1..=20).collect::<Vec<_>>()
        );
        // A batch over many bad lines keeps 20 and counts them all.
        let mut input = text(&"x\n".repeat(5000));
        input.keep_going = true;
        let e = Driver::new().run(input, |l, _| Ok(l), |_| Ok(())).unwrap();
        assert_eq!((e.rejected.total(), e.rejected.first().len()), (5000, 20));
        assert_eq!(e.rejected.first()[19].0, 20);
    }

    #[test]
    fn a_disagreement_keeps_the_rows_before_it_and_names_its_line() {
        let d = Disagreement {
            what: "count".into(),
            puzzle: P.into(),
            answers: Vec::new(),
        };
        let mut rows = Vec::new();
        let e = Driver::new()
            .run(
                text(&lines(5)),
                |line, _| {
                    if line == 3 {
                        Err(d.clone().into())
                    } else {
                        Ok(line)
                    }
                },
                |r| {
                    rows.extend(r);
                    Ok(())
                },
            )
            .unwrap_err();
        assert_eq!(rows, [(1, 1), (2, 2)]);
        assert!(matches!(e, BatchError::Disagreement { line: 3, .. }));
        assert!(e.source().is_some_and(|s| s.is::<Disagreement>()));
    }

    #[test]
    fn a_stop_check_ends_the_batch() {
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let stop = || asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= 2;
        let mut rows = Vec::new();
        let e = Driver::new()
            .sequential()
            .stop_when(&stop)
            .run(
                text(&lines(5)),
                |line, _| Ok(line),
                |r| {
                    rows.extend(r);
                    Ok(())
                },
            )
            .unwrap_err();
        assert!(matches!(e, BatchError::Stopped));
        assert_eq!(rows, [(1, 1), (2, 2)]);
    }

    #[test]
    fn empty_inputs_and_parsed_puzzles() {
        let e = Driver::new()
            .run(text(""), |l, _| Ok(l), |_| Ok(()))
            .unwrap_err();
        assert_eq!(e.to_string(), "no puzzle found in test");
        let p = parse_puzzle(P).unwrap();
        let (all, _) = read_all(Input::of(Source::Parsed(vec![(7, p.clone()), (9, p)]))).unwrap();
        assert_eq!(all.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [7, 9]);
        let (examples, _) = read_all(Input::of(Source::Examples)).unwrap();
        assert_eq!(examples.len(), crate::grid::Puzzle::examples().len());
    }
}
