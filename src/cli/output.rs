//! Files written all or none ([`StagedFiles`], `encode -o DIR/`), on the
//! library's atomic writer ([`sudolab::OutputStream`]).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use sudolab::write_atomic;
use sudolab::{OutputTarget, forget_temporary, new_temp_beside, temp_beside};

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
