//! Property tests of the puzzle parser: formatting then parsing gives the
//! same puzzle back, in both layouts and every order; garbage never panics.

use crate::grid::{Puzzle, parse_puzzle, read_puzzles};
use proptest::prelude::*;

fn puzzle_strategy() -> impl Strategy<Value = Puzzle> {
    (2usize..=5).prop_flat_map(|n| {
        let side = n * n;
        prop::collection::vec(0u8..=side as u8, side * side)
            .prop_map(move |cells| Puzzle::from_cells(n, cells).unwrap())
    })
}

proptest! {
    #[test]
    fn line_round_trip(p in puzzle_strategy(), label in "[a-zA-Z0-9 .,]{0,20}") {
        let line = format!("{}\t{}", p.to_line(), label);
        let q = parse_puzzle(&line).unwrap();
        prop_assert_eq!(q.cells(), p.cells());
        let trimmed = label.trim();
        prop_assert_eq!(q.label.as_deref(), if trimmed.is_empty() { None } else { Some(trimmed) });
    }

    #[test]
    fn block_round_trip(p in puzzle_strategy()) {
        let r = read_puzzles(&p.to_block());
        prop_assert_eq!(r.len(), 1);
        let q = &r[0].as_ref().unwrap().1;
        prop_assert_eq!(q.cells(), p.cells());
    }

    #[test]
    fn garbage_never_panics(s in "\\PC{0,700}") {
        let _ = parse_puzzle(&s);
        for (_, p) in read_puzzles(&s).into_iter().flatten() {
            // Whatever parsed is a well-formed grid the checks accept.
            let _ = p.check();
            prop_assert!(p.cells().len() == p.side() * p.side());
        }
    }

    #[test]
    fn digit_garbage_never_panics(s in "[0-9.|+\\- \n\t]{0,400}") {
        for r in read_puzzles(&s) {
            if let Err(e) = r {
                prop_assert!(e.line >= 1);
            }
        }
    }
}

// A fuzzing net over every other reader: DIMACS, solver models, the JSON
// Lines reader of resume and merge, score model files and grid blocks. Each
// input is a valid one mutated (bytes replaced, cut, lines duplicated), so
// the readers are pushed past their first check; nothing may panic, and an
// error is always a value. 64 cases each keeps CI within seconds.

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// `text` with up to four bytes replaced (from `bytes`), then cut at `cut`
/// per mille of its length (1000: not cut).
fn mutate(text: &str, edits: &[(usize, u8)], cut: usize) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, b) in edits {
        if !bytes.is_empty() {
            let at = at % bytes.len();
            bytes[at] = b;
        }
    }
    bytes.truncate(bytes.len() * cut.min(1000) / 1000);
    String::from_utf8_lossy(&bytes).into_owned()
}

fn edits() -> impl Strategy<Value = (Vec<(usize, u8)>, usize)> {
    (
        prop::collection::vec(
            (
                any::<usize>(),
                prop::sample::select(b" -0123456789\nxpcnfv{}\":,[]".to_vec()),
            ),
            0..4,
        ),
        prop_oneof![Just(1000usize), 0..1000usize],
    )
}

fn easy() -> Puzzle {
    parse_puzzle(EASY).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mutated_dimacs_never_panics((edits, cut) in edits()) {
        let cnf = crate::cnf::encode(&easy(), crate::cnf::Encoding::Min).unwrap();
        let text = String::from_utf8(cnf.to_dimacs_bytes()).unwrap();
        let text = mutate(&text, &edits, cut);
        if let Ok(read) = crate::cnf::Cnf::read_dimacs(&text, 9) {
            prop_assert!(read.num_clauses() <= cnf.num_clauses() + 4);
        }
    }

    #[test]
    fn mutated_solver_models_never_panic((edits, cut) in edits(), style in 0..3usize) {
        let solution = crate::grid::parse_puzzle(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        )
        .unwrap();
        let lits: Vec<String> = solution
            .cells()
            .iter()
            .enumerate()
            .map(|(cell, &d)| (cell * 9 + d as usize).to_string())
            .collect();
        let text = match style {
            0 => format!("s SATISFIABLE\nv {} 0\n", lits.join(" ")),
            1 => format!("SAT\n{} 0\n", lits.join(" ")),
            _ => lits.join("\n"),
        };
        if let Ok(model) = crate::grid::Solution::parse_model(&mutate(&text, &edits, cut)) {
            let _ = crate::grid::Solution::decode_model(&easy(), &model);
        }
    }

    #[test]
    fn mutated_results_files_never_panic((edits, cut) in edits(), twice in any::<bool>()) {
        use crate::batch::results::{DoneRows, ResultsFile, RowSpec};
        let dir = tempfile::tempdir().unwrap();
        let rows = format!(
            "{{\"line\":1,\"puzzle\":\"{EASY}\",\"k\":45,\"samples\":5,\"seed\":1}}\n\
             {{\"line\":2,\"puzzle\":\"{EASY}\",\"k\":45,\"samples\":5,\"seed\":1}}\n"
        );
        let mut text = mutate(&rows, &edits, cut);
        if twice {
            text = text.repeat(2);
        }
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, &text).unwrap();
        if let Ok(file) = ResultsFile::read(&path) {
            let spec = RowSpec { key: &["k"], params: vec![("/seed".into(), 1.into())] };
            let _ = DoneRows::read(&file, &spec);
            prop_assert!(file.torn_bytes() <= text.len());
        }
    }

    #[test]
    fn mutated_score_models_never_panic((edits, cut) in edits()) {
        let text = mutate(include_str!("../score/model.json"), &edits, cut);
        if let Ok(model) = crate::score::ScoreModel::from_json(&text) {
            let opts = crate::score::ScoreOptions { model, ..Default::default() };
            let _ = crate::score::score(&easy(), &opts);
        }
    }

    #[test]
    fn mutated_grid_blocks_never_panic((edits, cut) in edits()) {
        let block = easy().to_block();
        for (_, p) in read_puzzles(&mutate(&block, &edits, cut)).into_iter().flatten() {
            prop_assert_eq!(p.cells().len(), p.side() * p.side());
        }
    }
}
