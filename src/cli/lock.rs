//! One advisory lock for every writer of a path: two runs writing one
//! file would lose one's rows (a second command renaming its output over a
//! file a run streams into leaves that run writing into a deleted file), so
//! every command holds `flock(2)` on a lock file beside each output it
//! names (`-o`, `--emit-*`, `--plot`, `--model-out`, an output folder:
//! `.NAME.lock` beside the file a symbolic link names, holding the run's
//! process id), taken by [`super::paths::PathPlan::check`] before the first
//! byte is written (and for a streamed output before the file is read for
//! `--resume`) and held until the run ends, after its output is renamed
//! into place; a second run refuses with a message naming the first and
//! writes nothing. It also holds `flock(2)` on the output file itself, when
//! there is one, so a run through another name of the same file (a hard
//! link, whose lock file is another) refuses too. The lock file is removed
//! at the end (and on a signal, with the temporary files); one left by a
//! killed run holds no lock and is taken over, but a file in its place that
//! holds anything but a process id is the user's, and the run refuses
//! rather than overwrite it. Elsewhere than Unix there is no lock.

use anyhow::{Result, bail};
use std::path::{Path, PathBuf};

/// The locks this process holds on its outputs, held until the process
/// ends (every output a command names, [`take`]): released and their files
/// removed by [`release_lock`] at the end of the run.
static LOCKS: std::sync::Mutex<Vec<OutputLock>> = std::sync::Mutex::new(Vec::new());

/// The locks held, whatever a panicking holder left.
fn held() -> std::sync::MutexGuard<'static, Vec<OutputLock>> {
    LOCKS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Takes the lock of `output` for the rest of the run, before its first
/// byte is written (already held by this run: nothing to do). Refuses when
/// another run holds it.
pub(super) fn take(output: &Path) -> Result<()> {
    let path = lock_path(output);
    if held().iter().any(|l| l.path == path) {
        return Ok(());
    }
    if let Some(lock) = lock(output)? {
        held().push(lock);
        keep_orphaned_rows(output)?;
    }
    Ok(())
}

/// Keeps what a run killed before its rename (SIGKILL, a power cut) left
/// in a temporary file beside `output` (`.NAME.XXXXXX.tmp`), once this
/// run holds the lock (so no live run is writing it): its finished rows
/// go to `NAME.unfinished.EXT` ([`sudolab::keep_unfinished_rows`]), said on stderr.
fn keep_orphaned_rows(output: &Path) -> Result<()> {
    use anyhow::Context;
    let Ok(sudolab::OutputTarget::File(file)) = sudolab::OutputTarget::of(output) else {
        return Ok(());
    };
    for orphan in sudolab::orphaned_temporaries(&file) {
        let kept = sudolab::keep_unfinished_rows(&orphan, &file).with_context(|| {
            format!(
                "cannot keep the rows a killed run left in {}",
                orphan.display()
            )
        })?;
        note!(
            "sudolab: {}: a run killed before it completed left {} finished row(s) in {}: kept as {} ({} holds what it held before that run)",
            output.display(),
            kept.rows,
            orphan.display(),
            kept.kept.display(),
            output.display()
        );
    }
    Ok(())
}

/// Locks the streamed output file itself, once its first rows have created
/// it (see this module's documentation).
pub(super) fn hold_output_lock(output: &Path) -> Result<()> {
    let path = lock_path(output);
    match held().iter_mut().find(|l| l.path == path) {
        Some(lock) => lock.hold_output(output),
        None => Ok(()),
    }
}

/// Releases every output's lock (and removes its file).
pub(super) fn release_lock() {
    held().clear();
}

/// The lock of one output; released and its file removed when dropped.
pub(super) struct OutputLock {
    path: PathBuf,
    #[cfg(unix)]
    _file: std::fs::File,
    /// The output file itself, locked while the run lasts.
    #[cfg(unix)]
    output: Option<std::fs::File>,
}

impl OutputLock {
    /// Locks the output file itself once the run has created it (a new
    /// file has nothing to lock when the lock is taken).
    pub(super) fn hold_output(&mut self, output: &Path) -> Result<()> {
        #[cfg(unix)]
        if self.output.is_none() {
            self.output = lock_output(output)?;
        }
        #[cfg(not(unix))]
        let _ = output;
        Ok(())
    }
}

/// The lock file of `output`: `.NAME.lock` beside the file it names. A
/// symbolic link is followed, as the output's rows are: two runs that
/// write one file through two names take one lock.
pub(super) fn lock_path(output: &Path) -> PathBuf {
    let output = match sudolab::OutputTarget::of(output) {
        Ok(sudolab::OutputTarget::File(file)) => file,
        _ => output.to_path_buf(),
    };
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    output.with_file_name(format!(".{name}.lock"))
}

/// Locks `output` for this run; `None` for an output that is not a regular
/// or new file or a folder (a device or FIFO replaces nothing). Refuses
/// when another run holds it.
#[cfg(unix)]
pub(super) fn lock(output: &Path) -> Result<Option<OutputLock>> {
    use anyhow::Context;
    use std::io::{Read, Seek, Write};
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    use std::os::unix::io::AsRawFd;
    if std::fs::metadata(output).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return Ok(None);
    }
    let path = lock_path(output);
    // A lock file removed by the run that held it between our open and
    // our lock is no longer the one others lock: open it again.
    for _ in 0..100 {
        // A symbolic link planted at the lock's path is removed, never
        // followed: the file it names is not the lock's to truncate.
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            std::fs::remove_file(&path).with_context(|| {
                format!(
                    "cannot remove the link {} (in the lock's place)",
                    path.display()
                )
            })?;
        }
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .with_context(|| format!("cannot create the lock file {}", path.display()))?;
        // SAFETY: flock(2) on a descriptor this function owns.
        let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
        if !locked {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            let who = if holder.is_empty() {
                "another sudolab run".to_string()
            } else {
                format!("another sudolab run (process {holder})")
            };
            bail!(
                "{} is being written by {who}, which holds {}: wait for it to end, or write to another file",
                output.display(),
                path.display()
            );
        }
        let same = match (file.metadata(), std::fs::metadata(&path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        };
        if !same {
            continue;
        }
        let mut held = String::new();
        let _ = file.read_to_string(&mut held);
        if !held.trim().bytes().all(|b| b.is_ascii_digit()) {
            bail!(
                "{} is in the place of {}'s lock and holds something else than a process id: move it away, or write to another file",
                path.display(),
                output.display()
            );
        }
        // Refused under another name of the output (a hard link): the
        // lock file this run holds goes, so none is left behind.
        let output_file = lock_output(output).inspect_err(|_| {
            let _ = std::fs::remove_file(&path);
        })?;
        file.set_len(0)?;
        file.rewind()?;
        write!(file, "{}", std::process::id())?;
        super::signals::remove_on_signal(&path);
        return Ok(Some(OutputLock {
            path,
            _file: file,
            output: output_file,
        }));
    }
    bail!(
        "cannot lock {}: its lock file keeps changing",
        output.display()
    )
}

/// `flock(2)` on the output file itself (when it exists), which every name
/// of the file shares: `None` for a new file.
#[cfg(unix)]
fn lock_output(output: &Path) -> Result<Option<std::fs::File>> {
    use std::os::unix::io::AsRawFd;
    let Ok(file) = std::fs::File::open(output) else {
        return Ok(None);
    };
    // SAFETY: flock(2) on a descriptor this function owns.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        bail!(
            "{} is being written by another sudolab run under another name of the same file (a hard link): wait for it to end, or write to another file",
            output.display()
        );
    }
    Ok(Some(file))
}

#[cfg(not(unix))]
pub(super) fn lock(output: &Path) -> Result<Option<OutputLock>> {
    let _ = lock_path(output);
    Ok(None)
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        super::signals::forget_on_signal(&self.path);
        // The output file is unlocked first: a run that opens a new lock
        // file once this one is gone must find the output free, not take
        // this run for one writing another name of it (a hard link).
        #[cfg(unix)]
        drop(self.output.take());
        // Removed while still locked: a run waiting on this file finds it
        // gone and opens a new one.
        let _ = std::fs::remove_file(&self.path);
    }
}
