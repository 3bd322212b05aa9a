//! The Sudoku graph and its random relaxations (Pelánek, "Difficulty Rating of
//! Sudoku Puzzles: An Overview and Evaluation", §3.2; `docs/methods.md` §2).
//!
//! The Sudoku graph has one vertex per cell and an edge between any two cells
//! that share a row, column or box: 81 vertices and 810 edges (degree 20) for
//! 9×9. A puzzle is a precoloured instance of N-colouring this graph. A
//! *relaxation with k* removes k distinct edges chosen uniformly at random;
//! what remains is "each cell exactly one colour" plus "the two ends of every
//! remaining edge differ", with the givens precoloured. The original solution
//! stays a solution of every relaxation.
//!
//! [`RelaxedInstance`] is the one description of such an instance that every
//! engine (SAT in [`crate::sat`], Dancing Links in [`crate::dlx`], the bitset
//! search in [`crate::bitset`]) consumes, as its own neighbour arrays (the
//! engines' hot loops read those). As graphs, the Sudoku graph is a petgraph
//! [`UnGraph`] ([`sudoku_graph`]) and a relaxation is that graph minus the
//! removed edges ([`RelaxedInstance::relaxed_graph`]); petgraph's algorithms
//! check them and its [`Dot`] writer draws them ([`RelaxedInstance::to_dot`]).

use crate::grid::{Geometry, Puzzle};
use crate::seed::SeededRng;
/// Per-sample seeds of a relaxation (defined with the other seed
/// derivations in [`crate::seed`]).
pub(crate) use crate::seed::derive_seed;
use petgraph::dot::{Config, Dot};
use petgraph::graph::{EdgeReference, NodeIndex, UnGraph};
use rand::SeedableRng;
use rand::seq::SliceRandom;

/// The Sudoku graph of order `n` as a petgraph graph; node weights are cell
/// indices (node `i` is cell `i`).
pub(crate) fn sudoku_graph(n: usize) -> UnGraph<usize, ()> {
    let g = Geometry::of(n);
    let mut graph = UnGraph::with_capacity(g.cells, g.cells * g.peers[0].len() / 2);
    for cell in 0..g.cells {
        graph.add_node(cell);
    }
    graph.extend_with_edges(g.edges().into_iter().map(|(a, b)| (a as u32, b as u32)));
    graph
}

impl RelaxedInstance {
    /// A uniformly random ordering of all edges of the order-`n` graph, from a
    /// seed. Taking its first `k` entries samples `k` distinct edges; prefixes of
    /// one ordering give nested relaxations.
    pub fn shuffled_edges(n: usize, seed: u64) -> Vec<(usize, usize)> {
        let mut edges = Geometry::of(n).edges();
        let mut rng = SeededRng::seed_from_u64(seed);
        edges.shuffle(&mut rng);
        edges
    }
}

/// A set of removed edges that does not fit the Sudoku graph.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EdgeError {
    /// The two cells share no unit, are the same cell, or are out of range.
    #[error("[{0}, {1}] is not an edge of the Sudoku graph")]
    NotAnEdge(usize, usize),
    /// The same edge appears twice.
    #[error("edge [{0}, {1}] removed twice")]
    RemovedTwice(usize, usize),
    /// More edges asked for than the graph has.
    #[error("k = {k} exceeds the {edges} edges of the Sudoku graph")]
    TooMany {
        /// Edges asked for.
        k: usize,
        /// Edges of the graph.
        edges: usize,
    },
}

impl RelaxedInstance {
    /// `k` distinct edges chosen uniformly at random (sorted), from a seed.
    ///
    /// # Errors
    /// When `k` exceeds the number of edges.
    pub fn sample_edges(n: usize, k: usize, seed: u64) -> Result<Vec<(usize, usize)>, EdgeError> {
        let edges = Geometry::of(n).edges().len();
        if k > edges {
            return Err(EdgeError::TooMany { k, edges });
        }
        let mut edges = RelaxedInstance::shuffled_edges(n, seed);
        edges.truncate(k);
        edges.sort_unstable();
        Ok(edges)
    }
}

/// A puzzle with some edges of its Sudoku graph removed.
#[derive(Debug, Clone)]
pub struct RelaxedInstance {
    puzzle: Puzzle,
    /// Removed edges as sorted pairs `(a, b)`, `a < b`, ascending, distinct.
    removed: Vec<(usize, usize)>,
    /// For each cell, its neighbours in the relaxed graph.
    neighbours: Vec<Vec<usize>>,
    /// For each unit, the indices into `removed` of its removed edges
    /// (both ends in the unit), ascending.
    removed_in: Vec<Vec<usize>>,
}

impl RelaxedInstance {
    /// Builds the relaxed instance; `removed` may list each edge in either
    /// orientation, in any order.
    ///
    /// # Errors
    /// When a pair is not an edge of the Sudoku graph (cells sharing no unit,
    /// a cell paired with itself, an index out of range) or is listed twice.
    pub fn new(puzzle: &Puzzle, removed: &[(usize, usize)]) -> Result<RelaxedInstance, EdgeError> {
        let g = puzzle.geometry();
        let mut edges: Vec<(usize, usize)> =
            removed.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        for &(a, b) in &edges {
            if b >= g.cells || g.peers[a].binary_search(&b).is_err() {
                return Err(EdgeError::NotAnEdge(a, b));
            }
        }
        edges.sort_unstable();
        if let Some(w) = edges.windows(2).find(|w| w[0] == w[1]) {
            return Err(EdgeError::RemovedTwice(w[0].0, w[0].1));
        }
        let mut neighbours = g.peers.clone();
        for &(a, b) in &edges {
            neighbours[a].retain(|&x| x != b);
            neighbours[b].retain(|&x| x != a);
        }
        let mut removed_in = vec![Vec::new(); g.units.len()];
        for (i, &(a, b)) in edges.iter().enumerate() {
            for (ua, ub) in g.cell_units[a].iter().zip(&g.cell_units[b]) {
                if ua == ub {
                    removed_in[*ua].push(i);
                }
            }
        }
        Ok(RelaxedInstance {
            puzzle: puzzle.clone(),
            removed: edges,
            neighbours,
            removed_in,
        })
    }

    /// The unrelaxed instance (no edge removed).
    pub fn unrelaxed(puzzle: &Puzzle) -> RelaxedInstance {
        // An empty removal list is always valid.
        RelaxedInstance::new(puzzle, &[]).unwrap_or_else(|_| unreachable!())
    }

    /// The puzzle whose graph is relaxed (givens keep their colours).
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }
    /// Geometry of the puzzle's order.
    pub fn geometry(&self) -> &'static Geometry {
        self.puzzle.geometry()
    }
    /// Removed edges, sorted `(a, b)` with `a < b`.
    pub fn removed(&self) -> &[(usize, usize)] {
        &self.removed
    }
    /// Neighbours of `cell` in the relaxed graph (ascending).
    pub fn neighbours(&self, cell: usize) -> &[usize] {
        &self.neighbours[cell]
    }
    /// Whether unit `u` (index into `Geometry::units`) kept all its edges.
    pub(crate) fn is_intact(&self, unit: usize) -> bool {
        self.removed_in[unit].is_empty()
    }
    /// The removed edges with both ends in `unit`, as indices into
    /// [`RelaxedInstance::removed`], ascending.
    pub(crate) fn removed_in(&self, unit: usize) -> &[usize] {
        &self.removed_in[unit]
    }
    /// Whether the edge between `a` and `b` is still present.
    pub(crate) fn has_edge(&self, a: usize, b: usize) -> bool {
        self.neighbours[a].binary_search(&b).is_ok()
    }
    /// Remaining edges `(a, b)`, `a < b`, ascending.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for a in 0..self.neighbours.len() {
            for &b in &self.neighbours[a] {
                if a < b {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// The relaxed graph: the Sudoku graph (`sudoku_graph`) minus the
    /// removed edges; node `i` is cell `i`.
    pub fn relaxed_graph(&self) -> UnGraph<usize, ()> {
        let mut graph = sudoku_graph(self.geometry().n);
        graph.retain_edges(|g, e| {
            g.edge_endpoints(e)
                .is_some_and(|(a, b)| self.has_edge(a.index(), b.index()))
        });
        graph
    }

    /// The Sudoku graph with every edge marked for drawing: node `i` is cell
    /// `i` (weight: the given, 0 when empty); edge weight `true` for a
    /// remaining edge, `false` for a removed one.
    pub fn graph(&self) -> UnGraph<u8, bool> {
        let graph = sudoku_graph(self.geometry().n);
        graph.map(
            |_, &cell| self.puzzle.get(cell),
            |e, _| {
                graph
                    .edge_endpoints(e)
                    .is_some_and(|(a, b)| self.has_edge(a.index(), b.index()))
            },
        )
    }

    /// The relaxed instance in Graphviz DOT, written by petgraph's [`Dot`]:
    /// one node per cell at its grid position (label: row, column and
    /// given), remaining edges grey, removed edges dashed red.
    /// `neato -n -Tsvg` draws it on the grid.
    pub fn to_dot(&self) -> String {
        let side = self.geometry().side;
        let graph = self.graph();
        let node_attributes = |_: &UnGraph<u8, bool>, (node, &given): (NodeIndex, &u8)| {
            let cell = node.index();
            let (r, c) = (cell / side, cell % side);
            let label = if given == 0 {
                format!("r{}c{}", r + 1, c + 1)
            } else {
                format!(
                    "r{}c{}={}",
                    r + 1,
                    c + 1,
                    crate::grid::digit_to_char(given, side)
                )
            };
            format!(
                "label=\"{label}\", pos=\"{},{}!\"{}",
                c * 60,
                (side - 1 - r) * 60,
                if given == 0 { "" } else { ", style=filled" }
            )
        };
        let edge_attributes = |_: &UnGraph<u8, bool>, e: EdgeReference<'_, bool>| {
            if *e.weight() {
                "color=gray80".to_string()
            } else {
                "color=red, style=dashed, penwidth=2".to_string()
            }
        };
        let dot = Dot::with_attr_getters(
            &graph,
            &[
                Config::GraphContentOnly,
                Config::NodeNoLabel,
                Config::EdgeNoLabel,
            ],
            &edge_attributes,
            &node_attributes,
        );
        format!("graph relaxed {{\n    node [shape=box, fontsize=10];\n{dot}}}\n")
    }

    /// Colours each cell may take before any search: a given keeps its value;
    /// an empty cell keeps its candidates (every colour, or a pencilmark
    /// grid's marks: `docs/methods.md` §0.1, §2.2) less the values of the
    /// givens still adjacent to it. Bit `d` set for colour `d`.
    pub fn allowed(&self) -> Vec<u32> {
        let g = self.geometry();
        let p = &self.puzzle;
        let marks = p.pencilmarks();
        (0..g.cells)
            .map(|cell| {
                let v = p.get(cell);
                if v != 0 {
                    1 << v
                } else {
                    let listed = marks.map_or(g.all_digits(), |m| m[cell]);
                    self.neighbours[cell]
                        .iter()
                        .fold(listed, |acc, &nb| acc & !(1u32 << p.get(nb)))
                        & g.all_digits()
                }
            })
            .collect()
    }

    /// Whether `value` is among the candidates of `cell` (every value for a
    /// puzzle of givens; the marks of a pencilmark grid).
    pub(crate) fn is_candidate(&self, cell: usize, value: u8) -> bool {
        self.puzzle
            .pencilmarks()
            .is_none_or(|m| m[cell] >> value & 1 == 1)
    }

    /// Whether `cells` (one value per cell) is a proper colouring of the
    /// relaxed graph that keeps the givens and, for a pencilmark grid, gives
    /// every cell one of its candidates.
    pub fn is_solution(&self, cells: &[u8]) -> bool {
        let side = self.geometry().side;
        cells.len() == self.neighbours.len()
            && cells.iter().all(|&v| v >= 1 && v as usize <= side)
            && self
                .puzzle
                .cells()
                .iter()
                .zip(cells)
                .all(|(&p, &v)| p == 0 || p == v)
            && cells
                .iter()
                .enumerate()
                .all(|(cell, &v)| self.is_candidate(cell, v))
            && (0..cells.len()).all(|a| self.neighbours[a].iter().all(|&b| cells[a] != cells[b]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_has_810_edges_degree_20() {
        let g = sudoku_graph(3);
        assert_eq!(g.node_count(), 81);
        assert_eq!(g.edge_count(), 810);
        for v in g.node_indices() {
            assert_eq!(g.neighbors(v).count(), 20);
        }
        assert_eq!(sudoku_graph(2).edge_count(), 16 * 7 / 2);
    }

    #[test]
    fn graph_is_connected_and_regular() {
        use petgraph::algo::connected_components;
        let g = sudoku_graph(3);
        assert_eq!(connected_components(&g), 1);
        assert!(g.node_indices().all(|v| g.edges(v).count() == 20));
        assert!(g.node_indices().all(|v| g[v] == v.index()));
    }

    #[test]
    fn relaxed_graph_is_the_sudoku_graph_minus_the_removed_edges() {
        use petgraph::algo::connected_components;
        use petgraph::visit::EdgeRef;
        let p = Puzzle::empty(3);
        for k in [0, 1, 45, 200] {
            let removed = RelaxedInstance::sample_edges(3, k, 11).unwrap();
            let r = RelaxedInstance::new(&p, &removed).unwrap();
            let g = r.relaxed_graph();
            assert_eq!(g.node_count(), 81);
            assert_eq!(g.edge_count(), 810 - k);
            for v in g.node_indices() {
                assert_eq!(g.edges(v).count(), r.neighbours(v.index()).len());
            }
            for &(a, b) in &removed {
                assert!(g.find_edge((a as u32).into(), (b as u32).into()).is_none());
            }
            let mut edges: Vec<(usize, usize)> = g
                .edge_references()
                .map(|e| {
                    let (a, b) = (e.source().index(), e.target().index());
                    (a.min(b), a.max(b))
                })
                .collect();
            edges.sort_unstable();
            assert_eq!(edges, r.edges());
            // Removing up to 200 of 810 edges never cuts a cell off here.
            assert_eq!(connected_components(&g), 1);
            let drawn = r.graph();
            assert_eq!(drawn.edge_count(), 810);
            assert_eq!(drawn.edge_weights().filter(|&&kept| !kept).count(), k);
        }
    }

    #[test]
    fn dot_draws_every_cell_and_edge() {
        let p = crate::grid::parse_puzzle(&format!("5{}", ".".repeat(80))).unwrap();
        let r = RelaxedInstance::new(&p, &[(0, 1), (0, 9)]).unwrap();
        let dot = r.to_dot();
        assert!(dot.starts_with("graph relaxed {\n    node [shape=box, fontsize=10];\n"));
        assert!(dot.ends_with("]\n}\n"));
        assert!(dot.contains("    0 [ label=\"r1c1=5\", pos=\"0,480!\", style=filled]\n"));
        assert!(dot.contains("    80 [ label=\"r9c9\", pos=\"480,0!\"]\n"));
        assert!(dot.contains("    0 -- 1 [ color=red, style=dashed, penwidth=2]\n"));
        assert!(dot.contains("    0 -- 2 [ color=gray80]\n"));
        assert_eq!(dot.lines().filter(|l| l.contains(" -- ")).count(), 810);
        assert_eq!(dot.lines().filter(|l| l.contains("dashed")).count(), 2);
        assert_eq!(dot.lines().filter(|l| l.contains("pos=")).count(), 81);
    }

    #[test]
    fn sampling_is_seeded_distinct_and_nested() {
        let a = RelaxedInstance::sample_edges(3, 45, 7).unwrap();
        assert_eq!(a, RelaxedInstance::sample_edges(3, 45, 7).unwrap());
        assert_ne!(a, RelaxedInstance::sample_edges(3, 45, 8).unwrap());
        let mut d = a.clone();
        d.dedup();
        assert_eq!(d.len(), 45);
        assert!(RelaxedInstance::sample_edges(3, 811, 1).is_err());
        let all = RelaxedInstance::shuffled_edges(3, 3);
        let mut s = all.clone();
        s.sort_unstable();
        assert_eq!(s, Geometry::of(3).edges());
    }

    #[test]
    fn relaxed_instance_bookkeeping() {
        let p = Puzzle::empty(3);
        // cells 0 and 1 share row 1 and box 1.
        let r = RelaxedInstance::new(&p, &[(1, 0)]).unwrap();
        assert!(!r.has_edge(0, 1));
        assert!(!r.is_intact(0)); // row 1
        assert!(!r.is_intact(18)); // box 1
        assert!(r.is_intact(9)); // column 1
        assert_eq!(r.neighbours(0).len(), 19);
        assert_eq!(r.edges().len(), 809);
        assert!(RelaxedInstance::new(&p, &[(0, 80)]).is_err());
        assert!(RelaxedInstance::new(&p, &[(0, 1), (1, 0)]).is_err());
        assert!(RelaxedInstance::new(&p, &[(0, 0)]).is_err());
    }
}
