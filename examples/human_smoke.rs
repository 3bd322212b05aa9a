use std::time::Instant;
use sudolab::grid::parse_puzzle;
use sudolab::human::{RateOptions, explain, rate};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = RateOptions::default();
    for s in &args {
        let p = parse_puzzle(s).unwrap();
        let t = Instant::now();
        let row = rate(&p, &opts);
        println!(
            "{:?}\n{}",
            t.elapsed(),
            serde_json::to_string(&row).unwrap()
        );
        if std::env::var("EXPLAIN").is_ok() {
            print!("{}", explain(&p));
        }
    }
}
