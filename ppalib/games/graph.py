"""Board graphs: the cells of a board, where they are drawn, and each cell's neighbours in clockwise order.

Spatial features (Soemers, Piette & Browne 2019, section II-B) walk on this graph.  As in Ludii's feature code,
walks step only along *orthogonal* connections (on a square board a diagonal neighbour is the two-step walk
"forward, then a quarter turn"), and every cell has the same number of neighbour slots (4 on square boards, 6 on
hexagonal ones): a slot whose neighbour would lie off the board holds ``OFF_BOARD`` (-1).

``orthos[cell, k]`` is the neighbour in direction k, directions sorted clockwise starting at North, or at the first
direction clockwise from North when no neighbour lies exactly North (Ludii sorts by ``pi/2 - atan2(dy, dx)``).
Only the cyclic order matters to features, since every rotation of the board is allowed.

``coords[cell]`` is (x, y) with y pointing up, in units of one neighbour step: used to sort the directions and to
draw boards and features.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

OFF_BOARD = -1


@dataclass(frozen=True)
class BoardGraph:
    """A board as a graph.  ``orthos``: int64[cells, directions]; ``coords``: float64[cells, 2] (x, y)."""
    orthos: np.ndarray
    coords: np.ndarray
    kind: str  # "square" or "hex": how to draw a cell

    @property
    def cells(self) -> int:
        return int(self.orthos.shape[0])

    @property
    def directions(self) -> int:
        """Neighbour slots per cell = rotations the board admits (4 or 6); both reflections are admitted too."""
        return int(self.orthos.shape[1])


def _clockwise_from_north(vectors: list[tuple[float, float]]) -> list[int]:
    """Indices of direction vectors (dx, dy) sorted as Ludii's Radials.sort: clockwise, starting at North."""
    def score(i):
        dx, dy = vectors[i]
        angle = math.pi / 2 - math.atan2(dy, dx) + 1e-4
        return angle % (2 * math.pi)
    return sorted(range(len(vectors)), key=score)


def lattice_graph(positions: list[tuple[int, int]], steps: list[tuple[int, int]], to_xy, kind: str) -> BoardGraph:
    """The graph of the lattice cells ``positions`` (integer coordinates, in cell order) with neighbour ``steps``;
    ``to_xy`` maps integer coordinates to drawing coordinates (which also decide the clockwise order)."""
    index = {p: i for i, p in enumerate(positions)}
    vectors = [to_xy(*s) for s in steps]
    origin = to_xy(0, 0)
    vectors = [(x - origin[0], y - origin[1]) for x, y in vectors]
    order = [steps[i] for i in _clockwise_from_north(vectors)]
    orthos = np.full((len(positions), len(steps)), OFF_BOARD, dtype=np.int64)
    for cell, (a, b) in enumerate(positions):
        for k, (da, db) in enumerate(order):
            orthos[cell, k] = index.get((a + da, b + db), OFF_BOARD)
    coords = np.array([to_xy(a, b) for a, b in positions], dtype=np.float64)
    orthos.setflags(write=False)
    coords.setflags(write=False)
    return BoardGraph(orthos, coords, kind)


def square_graph(rows: int, cols: int) -> BoardGraph:
    """Cells ``r * cols + c`` of a rows x cols board, row 0 at the bottom (the first player's side)."""
    positions = [(r, c) for r in range(rows) for c in range(cols)]
    return lattice_graph(positions, [(1, 0), (0, 1), (-1, 0), (0, -1)], lambda r, c: (float(c), float(r)), "square")


def _hex_xy(r: int, c: int) -> tuple[float, float]:
    """Axial coordinates (row r, column c) of a hex grid drawn with pointy-top cells."""
    return c + 0.5 * r, r * math.sqrt(3) / 2


HEX_STEPS = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)]


def hex_rhombus_graph(n: int) -> BoardGraph:
    """The n x n Hex rhombus: cells ``r * n + c``, six neighbours (r, c±1), (r±1, c), (r+1, c-1), (r-1, c+1)."""
    positions = [(r, c) for r in range(n) for c in range(n)]
    return lattice_graph(positions, HEX_STEPS, _hex_xy, "hex")


def hex_hexagon_positions(side: int) -> list[tuple[int, int]]:
    """Axial (r, c) of the cells of a hexagon with ``side`` cells a side, row by row from the bottom: 3s(s-1)+1."""
    m = side - 1
    return [(r, c) for r in range(-m, m + 1) for c in range(-m, m + 1) if abs(r + c) <= m]


def hex_hexagon_graph(side: int) -> BoardGraph:
    """The hexagonal board of ``side`` (Yavalath: 5, 61 cells), cells numbered as ``hex_hexagon_positions``."""
    return lattice_graph(hex_hexagon_positions(side), HEX_STEPS, _hex_xy, "hex")
