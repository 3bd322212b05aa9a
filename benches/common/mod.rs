//! What the benchmarks measure with: wall-clock time (criterion's default)
//! or, with `SUDOLAB_BENCH_CLOCK=cpu`, the CPU time of the whole process
//! (all threads, from `clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`).
//!
//! CPU time is the figure to trust on a shared machine: other processes
//! stretch wall-clock time but not the CPU the benchmark itself uses. For a
//! single-threaded function the two agree on an idle machine; for a
//! multi-threaded one (relaxation on the rayon pool) CPU time is the summed
//! cost of all threads, i.e. the single-core cost.

use criterion::Criterion;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use std::time::{Duration, Instant};

/// Wall-clock or process CPU time, chosen once from `SUDOLAB_BENCH_CLOCK`.
pub struct Clock {
    cpu: bool,
}

impl Clock {
    pub fn from_env() -> Clock {
        let cpu = std::env::var("SUDOLAB_BENCH_CLOCK").is_ok_and(|v| v == "cpu");
        eprintln!(
            "measuring {}",
            if cpu {
                "process CPU time (SUDOLAB_BENCH_CLOCK=cpu)"
            } else {
                "wall-clock time"
            }
        );
        Clock { cpu }
    }

    fn now(&self) -> Duration {
        if self.cpu {
            process_cpu_time()
        } else {
            // Only differences are used, so any fixed origin will do.
            static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
            ORIGIN.get_or_init(Instant::now).elapsed()
        }
    }
}

fn process_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant
    // every Linux supports.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

static WALL: WallTime = WallTime;

impl Measurement for Clock {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        self.now()
    }
    fn end(&self, start: Duration) -> Duration {
        self.now().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        WALL.formatter()
    }
}

/// Criterion measuring with [`Clock::from_env`].
pub fn criterion() -> Criterion<Clock> {
    Criterion::default().with_measurement(Clock::from_env())
}

/// The shared data folder: one definition for the library's tests, the
/// integration tests, the benches and the examples.
#[allow(dead_code)] // not every bench reads the shared data
#[path = "../../src/data.rs"]
mod data;
#[allow(unused_imports)] // not every bench reads the shared data
pub(crate) use data::data_dir;
