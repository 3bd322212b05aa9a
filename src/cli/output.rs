//! The output-file machinery only the command line uses, on the library's
//! atomic writer ([`crate::report::OutputStream`]): files written all or
//! none ([`StagedFiles`], `encode -o DIR/`), a streamed output that
//! `--resume` appends to, and an interrupted run that keeps its rows and
//! the file they replace.

use crate::report::{
    OutputStream, OutputTarget, StreamState, forget_temporary, new_temp_beside, temp_beside,
    write_atomic,
};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Files written all or none: each is staged in a temporary file beside
/// it ([`StagedFiles::stage`]) and only [`StagedFiles::commit`] renames
/// them over their targets, so a run that fails on its 10th file leaves
/// the earlier 9 targets as they were (`encode -o DIR/`). Dropped without
/// `commit`, the temporary files are removed.
#[derive(Default)]
pub(crate) struct StagedFiles {
    staged: Vec<(tempfile::TempPath, PathBuf)>,
}

impl StagedFiles {
    /// Writes `bytes` to a temporary file beside `path` (closed: no file
    /// descriptor is held per staged file). A device or FIFO is written
    /// directly, as [`write_atomic`] does.
    pub(crate) fn stage(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        match OutputTarget::of(path)? {
            OutputTarget::Special(_) => write_atomic(path, bytes),
            OutputTarget::File(p) => {
                let tmp = temp_beside(&p)?;
                self.stage_in(tmp, p, bytes)
            }
        }
    }

    /// [`StagedFiles::stage`] for a file the run names itself in an output
    /// folder (`encode -o DIR/`'s `line<N>.cnf`): a symbolic link planted
    /// at `path` is replaced by the file, never followed, as a side file's
    /// ([`super::paths::write_side_file`]).
    pub(crate) fn stage_in_folder(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            let tmp = new_temp_beside(path)?;
            self.stage_in(tmp, path.to_path_buf(), bytes)
        } else {
            self.stage(path, bytes)
        }
    }

    /// Writes `bytes` to `tmp`, flushed and closed, to be renamed over
    /// `target` by [`StagedFiles::commit`].
    fn stage_in(
        &mut self,
        mut tmp: tempfile::NamedTempFile,
        target: PathBuf,
        bytes: &[u8],
    ) -> io::Result<()> {
        tmp.write_all(bytes)?;
        tmp.flush()?;
        tmp.as_file().sync_all()?;
        self.staged.push((tmp.into_temp_path(), target));
        Ok(())
    }

    /// Renames every staged file over its target.
    pub(crate) fn commit(mut self) -> io::Result<()> {
        for (tmp, path) in std::mem::take(&mut self.staged) {
            let temporary = tmp.to_path_buf();
            let done = tmp.persist(&path).map_err(|e| e.error);
            forget_temporary(&temporary);
            done?;
        }
        Ok(())
    }
}

impl Drop for StagedFiles {
    fn drop(&mut self) {
        for (tmp, _) in &self.staged {
            forget_temporary(tmp);
        }
    }
}

impl OutputStream {
    /// True when the output is written in place (a new or empty file, a
    /// resumed one, a device or FIFO): what is written is there at once.
    /// False for a file that replaces an earlier one, renamed over it by
    /// [`OutputStream::finish`].
    pub(crate) fn in_place(&self) -> bool {
        !self.replaces
    }

    /// An output appended to the existing file at `path` (opened now).
    pub(crate) fn append(path: &Path) -> io::Result<OutputStream> {
        let target = OutputTarget::of(path)?;
        let file = match &target {
            OutputTarget::File(p) | OutputTarget::Special(p) => {
                fs::OpenOptions::new().append(true).open(p)?
            }
        };
        Ok(OutputStream {
            target,
            replaces: false,
            state: StreamState::Direct(file),
        })
    }

    /// Completes an output that a signal interrupted, losing nothing: the
    /// rows written so far take the target, and a file they replace is
    /// kept under a fresh name beside it ([`super::paths::earlier_name`]), which
    /// is returned. Nothing written yet: the earlier file stays as it was.
    pub(crate) fn finish_keeping_earlier(self) -> io::Result<Option<PathBuf>> {
        match &self.state {
            StreamState::Closed => return Ok(None),
            StreamState::Direct(_) => return self.finish().map(|()| None),
            StreamState::Temp(_) => {}
        }
        let OutputTarget::File(path) = &self.target else {
            unreachable!("only a regular file is written through a temporary file")
        };
        let path = path.clone();
        let mut kept = None;
        if path.exists() {
            for n in 1.. {
                let name = super::paths::earlier_name(&path, n);
                // A hard link is made only where nothing is: an earlier
                // kept file is never replaced.
                match fs::hard_link(&path, &name) {
                    Ok(()) => {
                        kept = Some(name);
                        break;
                    }
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                    // No hard links on this file system: a copy.
                    Err(_) => match fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .open(&name)
                    {
                        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                        Err(e) => return Err(e),
                        Ok(mut to) => {
                            io::copy(&mut fs::File::open(&path)?, &mut to)?;
                            to.sync_all()?;
                            kept = Some(name);
                            break;
                        }
                    },
                }
            }
        }
        self.finish()?;
        Ok(kept)
    }
}
