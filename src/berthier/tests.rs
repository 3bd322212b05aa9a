use super::*;

fn cells(line: &str) -> Vec<u8> {
    line.bytes()
        .take(81)
        .map(|c| if c.is_ascii_digit() { c - b'0' } else { 0 })
        .collect()
}

#[test]
fn smoke() {
    let p =
        cells(".................1.....2.3......425...6.......17....8.....7...64...6....9..8...1.");
    let r = rate_berthier(&p, &BerthierOptions::default()).unwrap();
    eprintln!("{r:?}");
}

/// Development probe: `BERTHIER_PROBE=file:kind:start:count` (kind w, b or bxb).
#[test]
#[ignore]
fn probe() {
    let spec = std::env::var("BERTHIER_PROBE").unwrap_or_default();
    let parts: Vec<&str> = spec.split(':').collect();
    let text = std::fs::read_to_string(parts[0]).unwrap();
    let kind = parts[1];
    let start: usize = parts[2].parse().unwrap();
    let count: usize = parts[3].parse().unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(start)
        .take(count)
        .collect();
    let mut opts = BerthierOptions {
        w: kind == "w",
        b: kind == "b",
        bxb: kind == "bxb",
        bxbb: kind == "bxbb",
        ..Default::default()
    };
    opts.explain = std::env::var("BERTHIER_EXPLAIN").is_ok();
    let (mut agree, mut total) = (0, 0);
    for l in lines {
        let f: Vec<&str> = l.split('\t').collect();
        let want: Option<u32> = f
            .get(if kind == "bxb" { 2 } else { 1 })
            .and_then(|s| s.trim().parse().ok());
        let t = std::time::Instant::now();
        let r = rate_berthier(&cells(f[0]), &opts).unwrap();
        let got = match kind {
            "w" => r.w,
            "b" => r.b,
            "bxb" => r.bxb,
            _ => r.bxbb,
        };
        total += 1;
        if got.value() == want {
            agree += 1;
        }
        eprintln!(
            "{} want {:?} got {:?} te {} {:.3}s",
            f[0],
            want,
            got,
            r.te_depth,
            t.elapsed().as_secs_f64()
        );
        for p in [r.w_path, r.b_path, r.bxb_path].into_iter().flatten() {
            for s in p {
                eprintln!("  {s}");
            }
        }
    }
    eprintln!("agree {agree}/{total}");
}
