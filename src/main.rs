//! The `sudolab` command line: a thin layer over the library (`sudolab::cli`).

fn main() -> std::process::ExitCode {
    sudolab::cli::main()
}
