//! One rule for every path a command writes ("nothing lost").
//!
//! A command declares, before any work, the files it reads (its input,
//! `--model`, `--reference`, `--remove-edges`, a results table, the shards
//! of `merge` and their run records) and the files it writes (`-o`, the
//! side files it derives from `-o` such as a streamed output's run record
//! `FILE.run.json`, `--emit-graph`, `--emit-samples`, `--plot`,
//! `--model-out`, the files of an output folder) in one [`PathPlan`], and
//! [`PathPlan::check`] refuses:
//!
//! * an output that is a file the command reads: the same file after
//!   links, compared by device and inode, so another name, a hard link or a
//!   symbolic link is found;
//! * two outputs on one path: one would silently replace the other;
//! * an output that cannot be written: a folder, a link to nothing, a
//!   write-protected file, a folder that does not exist or takes no new
//!   file.
//!
//! Side files the user never named are written by [`write_side_file`]
//! (temporary file and rename, so a symbolic link planted at their path is
//! replaced, never followed) and only once there is something to describe,
//! so a run that fails before its first result leaves none behind; an
//! output folder the run created is removed again when the run fails
//! ([`OutputFolder`]).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use sudolab::{OutputTarget, refuse_write_protected};

/// What a run may not do with its paths: each message names the flag and
/// the path, and what to do instead.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PathError {
    /// An output is a file the command reads.
    #[error(
        "{output} the input file {input} (same file): writing it would destroy the input; choose another output"
    )]
    InputAsOutput {
        /// The output, as its flag and path name it ("-o x.txt: this is").
        output: String,
        /// The input, as its flag and path name it.
        input: String,
    },
    /// Two outputs are one file.
    #[error(
        "{second} the same file as {first}: one output would replace the other; choose another path for one of them"
    )]
    TwoOutputs {
        /// The earlier output, as its flag and path name it.
        first: String,
        /// The later one.
        second: String,
    },
    /// An output cannot be written.
    #[error("{flag} {}: {why}", path.display())]
    Unwritable {
        /// The flag naming the output.
        flag: String,
        /// The output.
        path: PathBuf,
        /// Why not.
        why: String,
    },
    /// Another run holds an output's lock (`lock.rs`).
    #[error("{0}")]
    Locked(String),
}

/// How a written path came to be written.
#[derive(Debug, Clone)]
enum Origin {
    /// Named by the user with this flag.
    Named,
    /// Written beside the output of `flag` (its run record or lock): what
    /// it is, and the output it belongs to.
    Side { what: String, of: PathBuf },
    /// A file of the output folder of `flag`, which already exists.
    InFolder { folder: PathBuf },
}

/// One path of a plan: the flag that names it (or the output it derives
/// from), the path, and for an input, what reads it.
#[derive(Debug, Clone)]
struct Declared {
    flag: String,
    path: PathBuf,
    origin: Origin,
}

/// The paths a command reads and writes, checked by one rule
/// ([`PathPlan::check`]).
#[derive(Debug, Default, Clone)]
pub(crate) struct PathPlan {
    inputs: Vec<Declared>,
    outputs: Vec<Declared>,
    /// The output folders, locked as a whole.
    folders: Vec<PathBuf>,
}

/// `-` names standard input or output.
pub(crate) fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

impl PathPlan {
    /// An empty plan.
    pub(crate) fn new() -> PathPlan {
        PathPlan::default()
    }

    /// A file the command reads, named by `flag` (`INPUT` and other
    /// positional names for the main input, else the flag); `-` is
    /// standard input, whatever it was redirected from. `None`: not given.
    pub(crate) fn input(mut self, flag: &str, path: Option<&Path>) -> PathPlan {
        if let Some(path) = path {
            self.inputs.push(Declared {
                flag: flag.into(),
                path: path.into(),
                origin: Origin::Named,
            });
        }
        self
    }

    /// A file the command reads beside the input `of` (a shard's run
    /// record): `what` it is.
    pub(crate) fn side_input(mut self, what: &str, path: &Path, of: &Path) -> PathPlan {
        self.inputs.push(Declared {
            flag: String::new(),
            path: path.into(),
            origin: Origin::Side {
                what: what.into(),
                of: of.into(),
            },
        });
        self
    }

    /// A file the command writes, named by `flag`; `None` or `-` (standard
    /// output) declares nothing.
    /// Its lock (`lock.rs`) is declared with it, as a side file: a run
    /// reading the lock file as an input is refused like one reading the
    /// output.
    pub(crate) fn output(mut self, flag: &str, path: Option<&Path>) -> PathPlan {
        if let Some(path) = path.filter(|p| !is_stdio(p)) {
            self.outputs.push(Declared {
                flag: flag.into(),
                path: path.into(),
                origin: Origin::Named,
            });
            // A device or FIFO is not locked.
            if let Ok(OutputTarget::File(_)) = OutputTarget::of(path) {
                let lock = super::lock::lock_path(path);
                self = self.side_output(flag, "lock", &lock, path);
            }
        }
        self
    }

    /// A file written beside the output `of` (named by `flag`) that the
    /// user did not name: `what` it is ("run record").
    pub(crate) fn side_output(
        mut self,
        flag: &str,
        what: &str,
        path: &Path,
        of: &Path,
    ) -> PathPlan {
        self.outputs.push(Declared {
            flag: flag.into(),
            path: path.into(),
            origin: Origin::Side {
                what: what.into(),
                of: of.into(),
            },
        });
        self
    }

    /// An output folder (named by `flag`) whose files are those whose names
    /// `member` accepts: each that exists already is an output. The folder
    /// itself must be a folder, if it exists.
    pub(crate) fn folder(
        mut self,
        flag: &str,
        folder: &Path,
        member: impl Fn(&str) -> bool,
    ) -> Result<PathPlan, PathError> {
        let unwritable = |why: String| PathError::Unwritable {
            flag: flag.into(),
            path: folder.into(),
            why,
        };
        let lock = super::lock::lock_path(&outermost_missing(folder));
        self = self.side_output(flag, "lock", &lock, folder);
        if folder.exists() && !folder.is_dir() {
            return Err(unwritable(
                "not a folder (a path ending in / names a folder for one file per puzzle)".into(),
            ));
        }
        self.folders.push(folder.into());
        for path in members(folder, member).map_err(|e| unwritable(e.to_string()))? {
            self.outputs.push(Declared {
                flag: flag.into(),
                path,
                origin: Origin::InFolder {
                    folder: folder.into(),
                },
            });
        }
        Ok(self)
    }

    /// Checks the plan, before any work: no output is a file the command
    /// reads, no two outputs are one file, and every named output can be
    /// written; then takes the lock of every named output and output folder
    /// for the rest of the run (`lock.rs`), refusing one another run holds.
    pub(crate) fn check(&self) -> Result<(), PathError> {
        self.check_paths()?;
        let named = self
            .outputs
            .iter()
            .filter(|o| matches!(o.origin, Origin::Named));
        let folders = self.folders.iter().map(|f| outermost_missing(f));
        for path in named.map(|o| o.path.clone()).chain(folders) {
            super::lock::take(&path).map_err(|e| PathError::Locked(format!("{e:#}")))?;
        }
        Ok(())
    }

    /// [`PathPlan::check`] without the locks.
    fn check_paths(&self) -> Result<(), PathError> {
        for output in &self.outputs {
            let written = output.identity();
            // A side file replaces a link at its path: the link itself,
            // given as an input, is what it would replace.
            let side_place = match output.origin {
                Origin::Side { .. } => in_folder(&output.path),
                _ => None,
            };
            if let Some(input) = self.inputs.iter().find(|i| {
                (written.is_some() && identity(&i.path) == written)
                    || (side_place.is_some() && in_folder(&i.path) == side_place)
            }) {
                return Err(PathError::InputAsOutput {
                    output: output.subject(),
                    input: input.as_input(),
                });
            }
        }
        for (i, second) in self.outputs.iter().enumerate() {
            let place = location(second);
            let id = second.identity();
            if let Some(first) = self.outputs[..i].iter().find(|first| {
                (place.is_some() && location(first) == place)
                    || (id.is_some() && first.identity() == id)
            }) {
                return Err(PathError::TwoOutputs {
                    first: first.name(),
                    second: second.subject(),
                });
            }
        }
        for output in &self.outputs {
            if matches!(output.origin, Origin::Named) {
                check_target(&output.flag, &output.path)?;
            }
        }
        Ok(())
    }
}

impl Declared {
    /// The file an output writes: for a side file the entry at its path
    /// (a symbolic link there is replaced, not followed), for any other the
    /// file its links lead to.
    fn identity(&self) -> Option<Identity> {
        match self.origin {
            Origin::Side { .. } => entry_identity(&self.path),
            _ => identity(&self.path),
        }
    }

    /// The output as the start of a sentence ending in "the input file …".
    fn subject(&self) -> String {
        match &self.origin {
            Origin::Named => format!("{} {}: this is", self.flag, self.path.display()),
            Origin::Side { what, of } => format!(
                "{} {}: its {what} {} is",
                self.flag,
                of.display(),
                self.path.display()
            ),
            Origin::InFolder { folder } => format!(
                "{} {}: {} is",
                self.flag,
                folder.display(),
                self.path.display()
            ),
        }
    }

    /// The output as a name ("-o x.jsonl", "the run record x.jsonl.run.json
    /// of -o x.jsonl").
    fn name(&self) -> String {
        match &self.origin {
            Origin::Named | Origin::InFolder { .. } => {
                format!("{} {}", self.flag, self.path.display())
            }
            Origin::Side { what, of } => format!(
                "the {what} {} of {} {}",
                self.path.display(),
                self.flag,
                of.display()
            ),
        }
    }

    /// The input after "the input file".
    fn as_input(&self) -> String {
        let path = self.path.display();
        match &self.origin {
            Origin::Side { what, of } => format!("{path}, the {what} of {}", of.display()),
            _ if self.flag.starts_with('-') => format!("{path} of {}", self.flag),
            _ => path.to_string(),
        }
    }
}

/// What makes two paths one file: (device, inode) on Unix.
#[cfg(unix)]
type Identity = (u64, u64);
#[cfg(not(unix))]
type Identity = PathBuf;

/// The regular file a path leads to (links followed; `-` is whatever
/// standard input is), as its [`Identity`]: two paths with the same
/// identity are one file, whatever hard or symbolic links lead there.
#[cfg(unix)]
fn identity(path: &Path) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    let path = if is_stdio(path) {
        Path::new("/dev/stdin")
    } else {
        path
    };
    fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(path: &Path) -> Option<Identity> {
    fs::canonicalize(path).ok().filter(|p| p.is_file())
}

/// The regular file at `path` itself, a symbolic link not followed (a
/// link has none).
#[cfg(unix)]
fn entry_identity(path: &Path) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    fs::symlink_metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn entry_identity(path: &Path) -> Option<Identity> {
    fs::symlink_metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .and_then(|_| fs::canonicalize(path).ok())
}

/// The entry `path` names, as an absolute path with its last component as
/// given (a link there not followed); `None` for `-` or a folder that
/// cannot be resolved.
fn in_folder(path: &Path) -> Option<PathBuf> {
    if is_stdio(path) {
        return None;
    }
    let folder = fs::canonicalize(sudolab::folder_of(path)).ok()?;
    Some(folder.join(path.file_name()?))
}

/// Where an output lands, as an absolute path: a named output's symbolic
/// link is followed (the file it names is written), a side file's is not
/// (it is replaced). `None` for what is not a regular or new file (a
/// device or FIFO takes any number of writers) or a folder that cannot be
/// resolved.
fn location(output: &Declared) -> Option<PathBuf> {
    let path = match output.origin {
        Origin::Named => match OutputTarget::of(&output.path).ok()? {
            OutputTarget::File(p) => p,
            OutputTarget::Special(_) => return None,
        },
        _ => output.path.clone(),
    };
    in_folder(&path)
}

/// The files of `folder` whose names `member` accepts (none for a folder
/// that does not exist yet).
fn members(folder: &Path, member: impl Fn(&str) -> bool) -> io::Result<Vec<PathBuf>> {
    let entries = match fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry?;
        if entry.file_name().to_str().is_some_and(&member) {
            found.push(folder.join(entry.file_name()));
        }
    }
    found.sort();
    Ok(found)
}

/// The files of `folder` whose names `member` accepts that are not among
/// `written`: what an earlier run left there and this run does not
/// replace.
pub(crate) fn stale_members(
    folder: &Path,
    member: impl Fn(&str) -> bool,
    written: &[PathBuf],
) -> io::Result<Vec<PathBuf>> {
    let written: Vec<Option<&std::ffi::OsStr>> = written.iter().map(|p| p.file_name()).collect();
    Ok(members(folder, member)?
        .into_iter()
        .filter(|p| !written.contains(&p.file_name()))
        .collect())
}

/// Checks that `path` (given to `flag`) can be written: a device or FIFO
/// (written directly), or a regular or new file (through a symbolic link
/// too) in a folder that exists and takes new files. A folder, a link to
/// nothing or a write-protected file is refused.
fn check_target(flag: &str, path: &Path) -> Result<(), PathError> {
    let unwritable = |why: String| PathError::Unwritable {
        flag: flag.into(),
        path: path.into(),
        why,
    };
    let target = OutputTarget::of(path).map_err(|e| unwritable(e.to_string()))?;
    let OutputTarget::File(file) = target else {
        return Ok(());
    };
    refuse_write_protected(&file).map_err(|e| unwritable(e.to_string()))?;
    let dir = sudolab::folder_of(&file);
    if !dir.is_dir() {
        return Err(unwritable(format!(
            "the folder {} does not exist",
            dir.display()
        )));
    }
    // A temporary file that removes itself: the folder takes new files.
    tempfile::tempfile_in(dir)
        .map(drop)
        .map_err(|e| unwritable(format!("cannot write in {}: {e}", dir.display())))
}

/// Writes a side file (a run record) that the user did not name,
/// atomically: a temporary file beside it, flushed and renamed over it.
/// A symbolic link planted at `path` is replaced by the file, never
/// followed, and an interruption leaves the earlier file whole (the
/// temporary file is removed on a signal, as every output's).
pub(crate) fn write_side_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut tmp = sudolab::new_temp_beside(path)?;
    let temporary = tmp.path().to_path_buf();
    let done = tmp
        .write_all(bytes)
        .and_then(|()| tmp.flush())
        .and_then(|()| tmp.as_file().sync_all())
        .and_then(|()| tmp.persist(path).map(drop).map_err(|e| e.error));
    sudolab::forget_temporary(&temporary);
    done
}

/// The folder a run creates to make `folder` (the outermost that does not
/// exist; `folder` itself when it exists): its lock, beside it, can be
/// taken before any folder is made.
fn outermost_missing(folder: &Path) -> PathBuf {
    let mut at = folder;
    while let Some(parent) = at
        .parent()
        .filter(|p| !p.as_os_str().is_empty() && !at.exists() && !p.exists())
    {
        at = parent;
    }
    at.to_path_buf()
}

/// An output folder, created for a run if it did not exist: dropped
/// before [`OutputFolder::keep`] (the run failed), the folders it created
/// are removed again when empty, so a failed run leaves nothing behind.
pub(crate) struct OutputFolder {
    /// The folders this run created, outermost first.
    created: Vec<PathBuf>,
}

impl OutputFolder {
    /// Creates `folder` and the folders above it that do not exist.
    pub(crate) fn create(folder: &Path) -> io::Result<OutputFolder> {
        let mut missing = Vec::new();
        let mut at = Some(folder);
        while let Some(p) = at.filter(|p| !p.as_os_str().is_empty() && !p.exists()) {
            missing.push(p.to_path_buf());
            at = p.parent();
        }
        missing.reverse();
        let mut made = OutputFolder {
            created: Vec::new(),
        };
        for p in missing {
            match fs::create_dir(&p) {
                Ok(()) => {
                    // A signal removes it too, when empty (after the
                    // temporary files made in it).
                    super::signals::remove_on_signal(&p);
                    made.created.push(p);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && p.is_dir() => {}
                Err(e) => return Err(e),
            }
        }
        Ok(made)
    }

    /// The run succeeded: the folder stays.
    pub(crate) fn keep(mut self) {
        for p in self.created.drain(..) {
            super::signals::forget_on_signal(&p);
        }
    }
}

impl Drop for OutputFolder {
    fn drop(&mut self) {
        for p in self.created.iter().rev() {
            super::signals::forget_on_signal(p);
            // Only an empty folder goes: whatever else was put there stays.
            let _ = fs::remove_dir(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_is_an_input_or_another_output_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let input = d.join("in.txt");
        fs::write(&input, "x").unwrap();
        let e = PathPlan::new()
            .input("--model", Some(&input))
            .output("-o", Some(&input))
            .check()
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "-o {0}: this is the input file {0} of --model (same file): writing it would destroy the input; choose another output",
                input.display()
            )
        );
        let out = d.join("new.txt");
        let e = PathPlan::new()
            .output("-o", Some(&out))
            .output("--plot", Some(&d.join(".").join("new.txt")))
            .check()
            .unwrap_err()
            .to_string();
        assert!(e.contains("the same file as -o"), "{e}");
        let record = d.join("y.run.json");
        fs::write(&record, "x").unwrap();
        let e = PathPlan::new()
            .input("INPUT", Some(&record))
            .side_output("-o", "run record", &record, &d.join("y"))
            .check()
            .unwrap_err()
            .to_string();
        assert!(e.contains(": its run record"), "{e}");
        let lock = d.join(".y.lock");
        fs::write(&lock, "1").unwrap();
        let e = PathPlan::new()
            .input("INPUT", Some(&lock))
            .output("-o", Some(&d.join("y")))
            .check()
            .unwrap_err()
            .to_string();
        assert!(e.contains(": its lock"), "{e}");
        assert!(
            PathPlan::new()
                .input("INPUT", Some(&input))
                .output("-o", Some(&out))
                .check()
                .is_ok()
        );
    }

    #[test]
    fn a_side_file_replaces_a_planted_link() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(d.join("victim"), "keep").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(d.join("victim"), d.join("side")).unwrap();
        write_side_file(&d.join("side"), b"record").unwrap();
        assert_eq!(fs::read_to_string(d.join("victim")).unwrap(), "keep");
        assert_eq!(fs::read_to_string(d.join("side")).unwrap(), "record");
        assert!(!fs::symlink_metadata(d.join("side")).unwrap().is_symlink());
    }

    #[test]
    fn a_failed_run_removes_the_folders_it_created() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b");
        drop(OutputFolder::create(&deep).unwrap());
        assert!(!dir.path().join("a").exists());
        OutputFolder::create(&deep).unwrap().keep();
        assert!(deep.is_dir());
    }
}
