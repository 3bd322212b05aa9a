//! SIGINT, SIGTERM and SIGHUP end the program without leaving a temporary
//! output file behind: the handler only writes the signal's number to a
//! pipe (async-signal-safe); a thread waiting on that pipe removes the
//! temporary files ([`sudolab::remove_temporaries`]), then restores
//! the default action and raises the signal again, so the caller sees the
//! program killed by it, as before.
//!
//! A run that streams its rows into a file (`-f jsonl -o FILE`, new,
//! resumed or replacing an earlier file: see [`KeepRows`]) is stopped
//! instead: the first signal sets [`interrupted`], the batch starts no new
//! puzzle, the puzzles in progress finish and their rows are written (a
//! file they replace is kept beside them under a fresh name), and the
//! command says how many rows the file keeps and exits 128 + the signal's
//! number, as the program ended by it would (130 for SIGINT; `--resume`
//! continues it). A second signal ends the program at once, as above; the
//! rows already written in place stay, and those a temporary file holds
//! (a run replacing an earlier file) are kept under a name of their own
//! (`out.unfinished.jsonl`), both said on stderr. SIGXFSZ is ignored, so a
//! file grown past `ulimit -f` fails to write and is reported.

use std::path::Path;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

/// Runs whose rows a signal should keep ([`KeepRows`] guards alive).
static KEEP_ROWS: AtomicUsize = AtomicUsize::new(0);

/// The signal that asked a [`KeepRows`] run to stop (0: none).
static INTERRUPTED: AtomicI32 = AtomicI32::new(0);

/// While alive, a signal stops the batch (see [`interrupted`]) instead of
/// ending the program: for a run whose finished rows go to a file.
pub(super) struct KeepRows(());

impl KeepRows {
    pub(super) fn new() -> KeepRows {
        KEEP_ROWS.fetch_add(1, Ordering::SeqCst);
        KeepRows(())
    }
}

impl Drop for KeepRows {
    fn drop(&mut self) {
        KEEP_ROWS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// True once a signal asked a [`KeepRows`] run to stop.
pub(super) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst) != 0
}

/// The error of a batch stopped by a signal, to keep its rows.
#[derive(Debug, thiserror::Error)]
#[error("interrupted by a signal")]
pub(super) struct Interrupted;

/// True when `e` is [`Interrupted`].
pub(super) fn is_interrupted(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.is::<Interrupted>())
}

/// What the signal thread does with signal `sig`: true to stop the batch
/// and keep its rows (the first signal of a [`KeepRows`] run), false to end
/// the program.
fn keep_rows_on(sig: i32) -> bool {
    KEEP_ROWS.load(Ordering::SeqCst) > 0
        && INTERRUPTED
            .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
}

#[cfg(unix)]
mod imp {
    use std::sync::atomic::{AtomicI32, Ordering};

    /// Write end of the pipe the handler writes to (-1 before `install`).
    static PIPE: AtomicI32 = AtomicI32::new(-1);

    extern "C" fn on_signal(sig: libc::c_int) {
        let fd = PIPE.load(Ordering::Relaxed);
        let byte = sig as u8;
        // SAFETY: write(2) is async-signal-safe; the buffer is one byte on
        // this stack frame.
        unsafe {
            libc::write(fd, (&byte as *const u8).cast(), 1);
        }
    }

    pub(super) fn install() {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe(2) fills the two descriptors of a valid array.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return;
        }
        let [read_end, write_end] = fds;
        PIPE.store(write_end, Ordering::Relaxed);
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let mut byte = 0u8;
                loop {
                    // SAFETY: reads one byte into a local from our own pipe.
                    let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
                    if n != 1 {
                        return;
                    }
                    if !super::keep_rows_on(libc::c_int::from(byte)) {
                        break;
                    }
                    note!(
                        "sudolab: interrupted: finishing the puzzles in progress and keeping every finished row (interrupt again to stop at once)"
                    );
                }
                let again = super::interrupted();
                super::say_what_is_kept(again, &sudolab::remove_temporaries());
                let sig = libc::c_int::from(byte);
                // SAFETY: restoring the default action and raising the
                // signal ends the process as the signal would have.
                unsafe {
                    libc::signal(sig, libc::SIG_DFL);
                    libc::raise(sig);
                }
            });
        if spawned.is_err() {
            return;
        }
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: the handler only loads an atomic and calls write(2).
            unsafe {
                libc::signal(sig, on_signal as *const () as libc::sighandler_t);
            }
        }
    }
}

/// Says, as a signal ends the program, what it keeps: the rows of a
/// streamed output kept under a name of their own (`kept`), else that no
/// output was replaced (every file keeps what it held; `again`: a second
/// signal, where the rows a file received in place stay too).
fn say_what_is_kept(again: bool, kept: &[sudolab::KeptRows]) {
    for rows in kept {
        note!(
            "sudolab: stopped at once: {} finished row(s) of this run are kept as {}; {} keeps what it held before",
            rows.rows,
            rows.kept.display(),
            rows.output.display()
        );
    }
    if kept.is_empty() {
        let written = if again {
            "; the rows already written in place stay"
        } else {
            ""
        };
        note!(
            "sudolab: stopped by a signal: no output was replaced (each keeps what it held before, temporary files removed){written}"
        );
    }
}

/// Ignores SIGXFSZ (a file grown past `ulimit -f`): the write fails with
/// EFBIG instead, and is reported, its temporary file and lock removed,
/// as a full disk is.
fn ignore_file_size_limit() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to ignore.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Installs the handlers (Unix; elsewhere nothing).
pub(super) fn install() {
    ignore_file_size_limit();
    #[cfg(unix)]
    imp::install();
}

/// The exit code of a run a signal stopped, as a shell reports a program
/// ended by it: 128 + its number (130 for SIGINT, 143 for SIGTERM).
pub(super) fn exit_code() -> u8 {
    let sig = INTERRUPTED.load(Ordering::SeqCst);
    u8::try_from(128 + sig).unwrap_or(super::EXIT_INTERRUPTED)
}

/// True when standard output is a pipe whose reader has gone (`sudolab rate
/// | head -1` after `head` exits): a batch then stops at once instead of
/// computing rows that nothing will read. Linux reports it as `POLLERR` on
/// the pipe's write end, without writing; elsewhere this says no and the
/// first write fails instead.
pub(super) fn stdout_reader_gone() -> bool {
    #[cfg(target_os = "linux")]
    {
        // Only a pipe loses its reader: a file or a terminal is not asked
        // again for every puzzle.
        static IS_PIPE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let is_pipe = *IS_PIPE.get_or_init(|| {
            use std::os::unix::fs::FileTypeExt;
            std::fs::metadata("/proc/self/fd/1").is_ok_and(|m| m.file_type().is_fifo())
        });
        if !is_pipe {
            return false;
        }
        let mut fd = libc::pollfd {
            fd: 1,
            events: 0,
            revents: 0,
        };
        // SAFETY: poll(2) on one valid pollfd, without waiting.
        let n = unsafe { libc::poll(&mut fd, 1, 0) };
        n == 1 && fd.revents & libc::POLLERR != 0
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Removes `path` too when a signal ends the program (a lock file, a
/// folder the run created: when empty).
pub(crate) fn remove_on_signal(path: &Path) {
    sudolab::track_temporary(path);
}

/// `path` is no longer removed on a signal.
pub(crate) fn forget_on_signal(path: &Path) {
    sudolab::forget_temporary(path);
}
