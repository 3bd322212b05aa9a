//! The `sudolab` command line: a client of the library (`sudolab::…`, its
//! public face, as any user would call it) that parses arguments, reads
//! input, calls the library and renders its results.

/// A line on standard error that never fails: `eprintln!` panics when
/// stderr cannot be written (`2>/dev/full`, a closed terminal); a note that
/// cannot be shown is dropped and the exit code still says what happened.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;

/// The binary's allocator: SE's forcing chains make and free tens of
/// kilobytes a branch, and glibc's allocator was a quarter of their profile
/// (`docs/performance.md`, serate). The library and the Python extension keep
/// the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc's C API (`mimalloc.h`, version 3, which the `mimalloc` crate
// builds): an option's number is its place in `mi_option_e`.
unsafe extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}
/// `mi_option_purge_delay`: how long freed memory stays before it is given
/// back to the system; -1 keeps it. SE's forcing chains free and make the
/// same amount again many times a second, and each return meant the kernel
/// zeroing fresh pages for the next branch (`docs/performance.md`, serate).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

fn main() -> std::process::ExitCode {
    // SAFETY: sets a plain integer option; mimalloc reads it when it next
    // considers purging, and any value is valid.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    cli::main()
}
