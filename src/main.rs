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

fn main() -> std::process::ExitCode {
    cli::main()
}
