use sudolab::grid::parse_puzzle;
use sudolab::human::oracle::{OracleOptions, oracle};
use sudolab::human::solver::{Solved, solve};
fn main() {
    for s in std::env::args().skip(1) {
        let p = parse_puzzle(&s).unwrap();
        let Solved::Unique(sol) = solve(&p) else {
            panic!()
        };
        let r = oracle(&p, &sol, &OracleOptions::default(), 0);
        println!(
            "{:.3} N/scan {:.2} H/scan {:.2} Ntot {:.1} Htot {:.1} scans {:.1} O {:.2}",
            r.score,
            r.naked_per_scan,
            r.hidden_per_scan,
            r.naked_total,
            r.hidden_total,
            r.scans,
            r.visits.mean
        );
    }
}
