//! Berthier's ratings against the published ones and the solution.
//!
//! The fast tests read a seeded, stratified sample of the training lists in
//! `../shared/data/berthier-ratings/` (or `$SUDOLAB_DATA`) and skip with a
//! note when they are absent (they fail when `CI` is set). The full-size
//! checks run with `SUDOLAB_FULL=1 cargo test --release --lib berthier -- --ignored`
//! (`full_w_training_half` rates all 24,693 17-clue puzzles, `full_bxb_sample`
//! a stratified held-out sample of eleven's list; `SUDOLAB_FULL_N` sets its size per value).

use super::cands::Var;
use super::path::{Chain, Step};
use super::*;
use crate::seed::SeededRng;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use std::collections::BTreeMap;

fn cells(line: &str) -> Vec<u8> {
    line.bytes()
        .take(81)
        .map(|c| if c.is_ascii_digit() { c - b'0' } else { 0 })
        .collect()
}

/// A file of the shared data folder, or `None` after a note (a failure under `CI`).
fn shared(rel: &str) -> Option<String> {
    let path = crate::data::data_dir().join(rel);
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "{} is missing and CI is set: {e}",
                path.display()
            );
            let note = format!("note: skipping, {} is missing ({e})\n", path.display());
            let _ = std::io::Write::write_all(&mut std::io::stderr(), note.as_bytes());
            None
        }
    }
}

/// (puzzle, published value) rows of a TSV whose value sits in column `col`.
fn rows(text: &str, col: usize) -> Vec<(String, u32)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((f[0].to_string(), f.get(col)?.trim().parse().ok()?))
        })
        .collect()
}

/// `per` puzzles of each value, after skipping the first `skip` of each
/// value in a seeded shuffle (so two calls with different `skip` are disjoint).
fn stratified(all: &[(String, u32)], seed: u64, skip: usize, per: usize) -> Vec<(String, u32)> {
    let mut shuffled = all.to_vec();
    shuffled.shuffle(&mut SeededRng::seed_from_u64(seed));
    let mut by_value: BTreeMap<u32, Vec<(String, u32)>> = BTreeMap::new();
    for r in shuffled {
        by_value.entry(r.1).or_default().push(r);
    }
    by_value
        .into_values()
        .flat_map(|v| v.into_iter().skip(skip).take(per))
        .collect()
}

/// Rates with `theory` along the simplest-first path and checks every step
/// against the solution: a single gives a value of the solution, a chain
/// deletes a candidate outside it. Every candidate is tried as a target
/// here (the ratings try only those outside the solution, which would
/// hide a wrong chain), so a chain search that proved too much would show.
/// Returns the outcome.
fn checked_resolve(puzzle: &str, theory: &Theory) -> theory::Outcome {
    let (mut b, sol) = setup(&cells(puzzle)).unwrap();
    let mut path = Path::default();
    let mut work = Work::new(Budget::default());
    let out = resolve(&mut b, theory, None, Some(&mut path), &mut work).unwrap();
    for s in &path.steps {
        match s {
            Step::Single { value, .. } => assert!(sol.contains(*value), "{puzzle}: {s}"),
            Step::Chain(c) => {
                assert!(!sol.contains(c.target), "{puzzle}: wrong elimination {s}");
                check_chain(c);
            }
            Step::Trial { cand, .. } => assert!(!sol.contains(*cand), "{puzzle}: {s}"),
        }
    }
    out
}

/// The structure of a chain: L1 linked to Z, each Lk linked to R(k−1) (whip)
/// or to Z or an earlier R (braid), every Rk and Lk a candidate of Vk.
fn check_chain(c: &Chain) {
    let mut rights = vec![c.target];
    for (k, l) in c.links.iter().enumerate() {
        assert!(l.var.mask().contains(l.left), "{c}");
        let ok = match c.kind {
            path::ChainKind::Whip => cands::linked(l.left, *rights.last().unwrap()),
            path::ChainKind::Braid => rights.iter().any(|&r| cands::linked(l.left, r)),
        };
        assert!(ok, "{c}: link {k}");
        match l.right {
            Some(r) => {
                assert!(l.var.mask().contains(r) && r != l.left, "{c}");
                rights.push(r);
            }
            None => assert_eq!(k + 1, c.len(), "{c}"),
        }
    }
}

#[test]
fn links_and_variables() {
    let c = Cand::new(4, 2 * 9 + 3); // n5r3c4
    assert_eq!(c.to_string(), "n5r3c4");
    let names: Vec<String> = c.vars().iter().map(|v| v.to_string()).collect();
    assert_eq!(names, ["r3c4", "r3n5", "c4n5", "b2n5"]);
    // 8 other digits in the cell, 8 + 8 + 4 cells of the same digit
    assert_eq!(Cands::links_of(c).len(), 28);
    assert!(!Cands::links_of(c).contains(c));
    assert!(cands::linked(c, Cand::new(0, 2 * 9 + 3)));
    assert!(cands::linked(c, Cand::new(4, 5)));
    assert!(!cands::linked(c, Cand::new(3, 5)));
    assert_eq!(Var::all().filter(|v| v.mask().len() == 9).count(), 324);
}

#[test]
fn w_stratified_sample_equals_published_and_every_step_is_right() {
    let Some(text) = shared("berthier-ratings/royle17_w_train.tsv") else {
        return;
    };
    let sample = stratified(&rows(&text, 1), 62, 0, 4);
    assert!(sample.len() >= 30, "{}", sample.len());
    for (p, want) in &sample {
        let out = checked_resolve(p, &Theory::whips(12));
        assert_eq!(out.end, End::Solved, "{p}");
        assert_eq!(out.level as u32, *want, "{p}: W");
        let b = checked_resolve(p, &Theory::braids(12));
        assert_eq!(b.end, End::Solved, "{p}");
        assert!(b.level <= out.level, "{p}: B {} > W {}", b.level, out.level);
    }
}

#[test]
fn whip_path_in_berthier_notation() {
    // a W 2 puzzle of the 17-clue list
    let p = ".................1....23..........2...14....536.....7....8.......415.....7....36.";
    let opts = BerthierOptions {
        b: false,
        bxb: false,
        explain: true,
        ..Default::default()
    };
    let r = rate_berthier(&cells(p), &opts).unwrap();
    assert_eq!(r.w, Rating::Rated { value: 2 });
    assert_eq!(r.te_depth, 1);
    let path = r.w_path.unwrap();
    let whip = path.iter().find(|l| l.starts_with("whip[2]: ")).unwrap();
    // `whip[2]: V1{L1 R1} - V2{L2 .} ==> rXcY ≠ d`
    assert!(
        whip.contains(" - ") && whip.contains(" .} ==> r") && whip.contains(" ≠ "),
        "{whip}"
    );
    assert!(
        path.iter()
            .any(|l| l.starts_with("hidden-single-in-a-") || l.starts_with("naked-single"))
    );
}

#[test]
fn bxb_small_sample_equals_published() {
    let Some(text) = shared("berthier-ratings/eleven_bxb_train.tsv") else {
        return;
    };
    let all: Vec<(String, u32)> = rows(&text, 2).into_iter().filter(|r| r.1 <= 3).collect();
    let opts = BerthierOptions {
        w: false,
        b: false,
        ..Default::default()
    };
    for (p, want) in stratified(&all, 62, 0, 2) {
        let r = rate_berthier(&cells(&p), &opts).unwrap();
        assert_eq!(r.te_depth, 2, "{p}");
        assert_eq!(r.bxb, Rating::Rated { value: want }, "{p}");
        assert_eq!(r.w, Rating::NotRun);
    }
}

/// The copies' cache changes nothing: with and without it, every
/// hypothesis gets the same verdict, so the main paths are equal. (A
/// hypothesis's verdict is never checked against the solution, since the
/// copies are false worlds: this is the check that keeps them honest.)
#[test]
fn bxb_copy_cache_changes_nothing() {
    // published BxB 5; a cache that lost candidates once rated it 3
    let p = "..3.......5.7..1..7....2..6..9....5..1....3..8...7...2....4..9.6..2....4....68...";
    let (b, sol) = setup(&cells(p)).unwrap();
    let known_false = Cands::FULL.minus(&sol);
    let mut runs = Vec::new();
    for use_cache in [true, false] {
        let mut path = Path::default();
        let r = bxb_rating_with(
            &b,
            &known_false,
            1,
            14,
            Budget::default(),
            Some(&mut path),
            use_cache,
        );
        runs.push((r, path));
    }
    assert_eq!(runs[0].0, Rating::Rated { value: 5 });
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn ratings_out_of_range_say_so() {
    // a T&E(2) puzzle (eleven's list, BxB 2): no W, no B
    let te2 = "....5.7..4....9..3...1...6.2....4..8..7....1.8...6.5...3...8....84.....29...2....";
    let opts = BerthierOptions {
        bxb: false,
        ..Default::default()
    };
    let r = rate_berthier(&cells(te2), &opts).unwrap();
    assert_eq!(r.w, Rating::OutOfRange { te_depth: 2 });
    assert_eq!(r.b, Rating::OutOfRange { te_depth: 2 });
    // a W 1 puzzle: BxB and BxBB do not apply
    let te1 = ".................1.....2.3...2...4....3.5......41....6.5.6......7.....2..8.91....";
    let opts = BerthierOptions {
        bxbb: true,
        ..Default::default()
    };
    let r = rate_berthier(&cells(te1), &opts).unwrap();
    assert_eq!(r.w, Rating::Rated { value: 1 });
    assert_eq!(r.b, Rating::Rated { value: 1 });
    assert_eq!(r.bxb, Rating::OutOfRange { te_depth: 1 });
    assert_eq!(r.bxbb, Rating::OutOfRange { te_depth: 1 });
    let json = serde_json::to_string(&r.bxb).unwrap();
    assert_eq!(json, r#"{"status":"out_of_range","te_depth":1}"#);
}

#[test]
fn budget_exceeded_reports_the_level() {
    let p = "..............1..2..3..4.5...........1.26....7.....43....5.3....2......68.....1..";
    let opts = BerthierOptions {
        b: false,
        bxb: false,
        budget: Budget { nodes: 1_000 },
        ..Default::default()
    };
    let r = rate_berthier(&cells(p), &opts).unwrap();
    assert!(
        matches!(r.w, Rating::BudgetExceeded { level } if level >= 1),
        "{:?}",
        r.w
    );
    assert_eq!(
        rate_berthier(
            &cells(p),
            &BerthierOptions {
                budget: Budget::UNLIMITED,
                b: false,
                bxb: false,
                ..Default::default()
            }
        )
        .unwrap()
        .w,
        Rating::Rated { value: 6 }
    );
}

#[test]
fn invalid_puzzles_are_errors() {
    let mut two =
        cells(".................1.....2.3......425...6.......17....8.....7...64...6....9..8...1.");
    two[80] = 0;
    two[79] = 0;
    two[78] = 0;
    two[77] = 0;
    assert!(matches!(
        rate_berthier(&two, &BerthierOptions::default()),
        Err(BerthierError::NotUnique)
    ));
    assert_eq!(
        rate_berthier(&[0; 16], &BerthierOptions::default()).unwrap_err(),
        BerthierError::NotNineByNine(16)
    );
}

/// Full W check: every puzzle of the training half, every step checked.
#[test]
#[ignore]
fn full_w_training_half() {
    if std::env::var_os("SUDOLAB_FULL").is_none() {
        return;
    }
    let Some(text) = shared("berthier-ratings/royle17_w_train.tsv") else {
        return;
    };
    let all = rows(&text, 1);
    let wrong: Vec<String> = all
        .par_iter()
        .filter_map(|(p, want)| {
            let out = checked_resolve(p, &Theory::whips(12));
            (out.end != End::Solved || out.level as u32 != *want)
                .then(|| format!("{p} published {want} got {:?}", out))
        })
        .collect();
    eprintln!("W: {} of {} differ", wrong.len(), all.len());
    for w in wrong.iter().take(20) {
        eprintln!("  {w}");
    }
    assert!(wrong.len() * 100 <= all.len(), "{} differ", wrong.len());
}

/// Full BxB check on a held-out stratified sample of eleven's list.
#[test]
#[ignore]
fn full_bxb_sample() {
    if std::env::var_os("SUDOLAB_FULL").is_none() {
        return;
    }
    let Some(text) = shared("berthier-ratings/eleven_bxb_train.tsv") else {
        return;
    };
    let per: usize = std::env::var("SUDOLAB_FULL_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let sample = stratified(&rows(&text, 2), 62, 2, per);
    let opts = BerthierOptions {
        w: false,
        b: false,
        ..Default::default()
    };
    let got: Vec<(String, u32, Rating)> = sample
        .par_iter()
        .map(|(p, want)| {
            (
                p.clone(),
                *want,
                rate_berthier(&cells(p), &opts).unwrap().bxb,
            )
        })
        .collect();
    let agree = got.iter().filter(|g| g.2.value() == Some(g.1)).count();
    eprintln!("BxB: {agree} of {} equal", got.len());
    for g in got.iter().filter(|g| g.2.value() != Some(g.1)) {
        eprintln!("  {} published {} got {:?}", g.0, g.1, g.2);
    }
    assert!(agree * 100 >= got.len() * 97);
}

/// Development probe: `BERTHIER_PROBE=file:kind:start:count` (kind w, b, bxb or bxbb).
#[test]
#[ignore]
fn probe() {
    let Ok(spec) = std::env::var("BERTHIER_PROBE") else {
        return;
    };
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
    let opts = BerthierOptions {
        w: kind == "w",
        b: kind == "b",
        bxb: kind == "bxb",
        bxbb: kind == "bxbb",
        explain: std::env::var_os("BERTHIER_EXPLAIN").is_some(),
        ..Default::default()
    };
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

/// T&E(3) puzzles (mith's list): BxBB is 2, as for every known one; W, B
/// and BxB say they do not apply.
#[test]
fn bxbb_of_te3_puzzles_is_two() {
    let Some(text) = shared("se-ratings-top/te3_sample100.txt") else {
        return;
    };
    let opts = BerthierOptions {
        bxbb: true,
        ..Default::default()
    };
    for line in text.lines().filter(|l| l.len() >= 81).take(2) {
        let r = rate_berthier(&cells(line), &opts).unwrap();
        assert_eq!(r.te_depth, 3, "{line}");
        assert_eq!(r.bxbb, Rating::Rated { value: 2 }, "{line}");
        assert_eq!(r.w, Rating::OutOfRange { te_depth: 3 });
        assert_eq!(r.bxb, Rating::OutOfRange { te_depth: 3 });
    }
}

/// T&E(B_p, 1) with every candidate tried as a hypothesis (the ratings try
/// only those outside the solution): every deletion it makes is outside the
/// solution, every single is in it, and it solves the puzzle at p = BxB.
#[test]
fn bxb_unfiltered_eliminations_are_right() {
    // BxB 2 and BxB 3 puzzles of eleven's list
    for (p, bxb) in [
        (
            "....5.7..4....9..3...1...6.2....4..8..7....1.8...6.5...3...8....84.....29...2....",
            2,
        ),
        (
            "...4.....4...891...9..31........5..6.8.3..4..6.7....5..1.9..8....2......9...2...7",
            3,
        ),
    ] {
        let (mut b, sol) = setup(&cells(p)).unwrap();
        let mut path = Path::default();
        let mut work = Work::new(Budget::default());
        let out = trial_and_error(
            &mut b,
            &Theory::braids(bxb),
            1,
            None,
            Some(&mut path),
            &mut work,
        )
        .unwrap();
        assert_eq!(out.end, End::Solved, "{p}");
        for s in &path.steps {
            match s {
                Step::Single { value, .. } => assert!(sol.contains(*value), "{p}: {s}"),
                Step::Chain(c) => assert!(!sol.contains(c.target), "{p}: {s}"),
                Step::Trial { cand, .. } => assert!(!sol.contains(*cand), "{p}: {s}"),
            }
        }
        assert!(path.steps.iter().any(|s| matches!(s, Step::Trial { .. })));
    }
}
