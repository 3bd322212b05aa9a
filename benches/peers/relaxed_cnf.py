"""The CNF of a relaxed 9x9 instance, shared by the peer scripts beside this
file (pysat_relax.py, ganak_count.py): cell ALO + cell AMO over all digits,
a unit clause per given, and one binary clause per remaining edge of the
Sudoku graph and digit. Variable = cell * 9 + digit (cells 0..80, digits 1..9).
"""


def var(cell, digit):
    """DIMACS variable of `cell` (0..80) holding `digit` (1..9)."""
    return cell * 9 + digit


def sudoku_edges():
    """The 810 edges (a, b), a < b, of the 9x9 Sudoku graph."""
    edges = []
    for a in range(81):
        ra, ca = divmod(a, 9)
        for b in range(a + 1, 81):
            rb, cb = divmod(b, 9)
            if ra == rb or ca == cb or (ra // 3 == rb // 3 and ca // 3 == cb // 3):
                edges.append((a, b))
    assert len(edges) == 810
    return edges


def base_clauses(cells):
    """Cell ALO and AMO over all digits, and a unit clause per given."""
    clauses = []
    for c in range(81):
        clauses.append([var(c, d) for d in range(1, 10)])
        for d1 in range(1, 10):
            for d2 in range(d1 + 1, 10):
                clauses.append([-var(c, d1), -var(c, d2)])
    for c, v in enumerate(cells):
        if v:
            clauses.append([var(c, v)])
    return clauses


def relaxed_clauses(base, edges, removed):
    """`base` plus, for every edge not in the set `removed`, one binary
    clause per digit."""
    clauses = list(base)
    for a, b in edges:
        if (a, b) not in removed:
            for d in range(1, 10):
                clauses.append([-var(a, d), -var(b, d)])
    return clauses
