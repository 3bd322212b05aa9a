//! The links `rate --explain` shows under a forcing chain's step
//! (`docs/methods.md` §3.7, [`crate::se::links`]): each branch starts from
//! its assumption, every link rests on potentials shown before it, and the
//! last link of every branch is the step's conclusion (or a contradiction
//! that refutes the assumption, or a cycle's closing link back to its
//! source).

use crate::grid::parse_puzzle;
use crate::human::SeExplanation;

/// `tarx0134`, the embedded example SE rates with dynamic and nested
/// forcing chains in under a second.
const TARX0134: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

fn explained(line: &str) -> SeExplanation {
    SeExplanation::of(&parse_puzzle(line).unwrap(), 20_000_000)
}

#[test]
fn every_chain_step_lists_links_that_lead_from_its_assumptions_to_its_conclusion() {
    let ex = explained(TARX0134);
    let chain_steps: Vec<_> = ex
        .steps
        .iter()
        .filter(|s| {
            ["chain", "Nishio", "cycle"]
                .iter()
                .any(|k| s.rule.contains(k))
        })
        .collect();
    assert!(chain_steps.len() >= 5, "{} chain steps", chain_steps.len());
    // SE's first producer's chains and its Nishio chains are there too.
    for kind in [
        "forcing X- or Y-chain",
        "forcing chain",
        "Nishio",
        "dynamic",
    ] {
        assert!(
            chain_steps.iter().any(|s| s.rule.starts_with(kind)),
            "no {kind} step"
        );
    }
    for s in chain_steps {
        assert!(!s.chain.is_empty(), "step {} shows no branch", s.text);
        let conclusions: Vec<String> = s
            .eliminations
            .iter()
            .map(|e| format!("{}≠{}", e.cell, e.digit))
            .chain(
                s.placements
                    .iter()
                    .map(|p| format!("{}={}", p.cell, p.digit)),
            )
            .collect();
        for b in &s.chain {
            let mut shown = vec![b.assumption.clone()];
            let (last, links) = b.links.split_last().expect("a branch has links");
            for link in links {
                let (from, to) = link.split_once(" ⇒ ").expect("a link has ⇒");
                for p in from.split(" and ") {
                    assert!(
                        shown.iter().any(|x| x == p),
                        "{p} in {link} not shown before"
                    );
                }
                shown.push(to.split(' ').next().unwrap().to_string());
            }
            if !last.starts_with("contradiction") {
                let to = last.split_once(" ⇒ ").unwrap().1.split(' ').next().unwrap();
                // A cycle closes back on its source; every other chain ends on
                // what the step concludes.
                assert!(
                    conclusions.iter().any(|c| c == to) || to == b.assumption,
                    "branch {} of {} ends on {to}",
                    b.assumption,
                    s.text
                );
            }
        }
    }
}

/// A multiple forcing chain (8.4) of a puzzle of top1465 (tdoku-benchmarks),
/// link by link: each of r5c9's three candidates removes 6 from r2c1.
#[test]
fn a_multiple_forcing_chain_shows_each_cell_candidates_branch() {
    let ex = explained(
        "...59......7.2..5......74.1.1.8.......6.3..4....9....2.5...6.794.........8....3..",
    );
    let s = ex
        .steps
        .iter()
        .find(|s| s.text == "8.4, multiple forcing chain: r2c1≠6")
        .expect("the step");
    let assumptions: Vec<&str> = s.chain.iter().map(|b| b.assumption.as_str()).collect();
    assert_eq!(assumptions, ["r5c9=5", "r5c9=7", "r5c9=8"]);
    assert_eq!(
        s.chain[2].links,
        [
            "r5c9=8 ⇒ r2c9≠8",
            "r2c9≠8 ⇒ r2c1=8 (hidden single in row 2)",
            "r2c1=8 ⇒ r2c1≠6",
        ]
    );
    let text = ex.to_string();
    assert!(text.contains("    if r5c9=7:\n"), "{text}");
    assert!(text.contains("(2) r5c4≠7 ⇒ r9c4=7 (hidden single in column 4)"));
}
