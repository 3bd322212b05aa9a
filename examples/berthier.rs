//! Berthier's ratings of a file of puzzles, one line per puzzle, like the
//! peers' `rate.sh`: `cargo run --release --example berthier -- KIND FILE`
//! with KIND `w`, `b`, `bxb`, `bxbb` or `te` (the first 81 characters of a
//! line are the puzzle). Prints the value, or `-` and the status
//! (`out_of_range`, `above_max`, `budget`). Spreads the puzzles over
//! rayon's threads (`RAYON_NUM_THREADS=1` for one core).

use sudolab::{BerthierOptions, BerthierRating as Rating, rate_berthier_batch as rate_batch};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, kind, file] = &args[..] else {
        return Err("usage: berthier w|b|bxb|bxbb|te FILE".into());
    };
    let text = std::fs::read_to_string(file)?;
    let puzzles: Vec<Vec<u8>> = text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .map(|l| {
            l.bytes()
                .take(81)
                .map(|c| if c.is_ascii_digit() { c - b'0' } else { 0 })
                .collect()
        })
        .collect();
    let k = kind.as_str();
    let opts = BerthierOptions {
        w: k == "w",
        b: k == "b",
        bxb: k == "bxb",
        bxbb: k == "bxbb",
        ..Default::default()
    };
    if !["w", "b", "bxb", "bxbb", "te"].contains(&k) {
        return Err(format!("unknown kind {k}").into());
    }
    for r in rate_batch(&puzzles, &opts) {
        match r {
            Err(e) => println!("- {e}"),
            Ok(r) => {
                let rating = match k {
                    "w" => r.w,
                    "b" => r.b,
                    "bxb" => r.bxb,
                    "bxbb" => r.bxbb,
                    _ => Rating::Rated { value: r.te_depth },
                };
                match rating.value() {
                    Some(v) => println!("{v}"),
                    None => println!("- {}", rating.status()),
                }
            }
        }
    }
    Ok(())
}
