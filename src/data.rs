//! Where the shared data sets live (the labelled puzzle collections listed
//! in `../shared/data/PROVENANCE.md`, read at run time and never vendored):
//! the folder `SUDOLAB_DATA` names, else `../shared/data` beside this
//! crate's manifest. Tests, benchmarks and examples all look there through
//! [`data_dir`], so one variable redirects every one of them.

use std::path::PathBuf;

/// The shared data folder: `$SUDOLAB_DATA` when set, else `../shared/data`
/// relative to the crate's `Cargo.toml` (fixed at compile time, which suits
/// tests, benches and examples run from a checkout). The folder may not
/// exist; callers say what is missing.
pub(crate) fn data_dir() -> PathBuf {
    std::env::var_os("SUDOLAB_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}
