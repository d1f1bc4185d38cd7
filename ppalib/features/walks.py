"""Walks: relative positions on a board graph (Soemers, Piette & Browne 2019, section II-B and Fig. 2-3).

A walk is a sequence of turns, each a fraction of a full clockwise turn taken relative to the current heading
before the next step.  It is resolved on a ``BoardGraph`` from an *anchor* cell under a rotation (added to the
first turn) and a reflection (+1, or -1 which negates every turn), exactly as Ludii's ``Walk.resolveWalk`` does
(brief section 1.2):

* the empty walk is the anchor itself;
* the first step goes to ``orthos[anchor, R((turn0 + rotation) * reflection * n)]`` (indices wrap modulo n);
* every later step continues from the heading of arrival: "straight on" is the direction back to the previous
  cell plus ``n // 2``, and the turn adds ``R(turn * reflection * n)`` to it;
* a step off the board ends the walk: the result is ``[-1]`` and the walk never re-enters the board.

``R`` is Ludii's rounding: a value whose fractional part (``x - trunc(x)``) lies within 0.02 of +-1/2 is rounded
*down* (Ludii means to use both neighbours there but only keeps the floor), anything else is rounded half up
(Java's ``Math.round``).  So a half-way turn rounds to floor in both directions: on a hex cell +1/4 becomes +1/6 but
-1/4 becomes -1/3.  Turns that are multiples of 1/n (every generated or combined feature) never meet this case.

Turns are ``fractions.Fraction`` so that resolution, normalisation and equality are exact.
"""
from __future__ import annotations

import math
import re
import weakref
from collections import deque
from fractions import Fraction

import numpy as np

from ..games.graph import OFF_BOARD, BoardGraph

HALF = Fraction(1, 2)
_HALFWAY_TOLERANCE = Fraction(1, 50)  # Ludii's 0.02


def as_turn(value) -> Fraction:
    """A turn as an exact fraction: ints, Fractions, strings such as ``"1/4"`` or ``"-0.25"``, and floats (snapped
    to the nearest fraction with a denominator of at most 144, so 1/6 written as 0.16666667 comes back as 1/6)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise TypeError(f"a turn must be a number, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return Fraction(int(value))
    if isinstance(value, str):
        text = value.strip()
        if "/" in text:
            match = re.fullmatch(r"([+-]?\d+)\s*/\s*(\d+)", text)
            if not match:
                raise ValueError(f"turn {value!r} is not a fraction: write e.g. '1/4' or '-1/6'")
            if int(match.group(2)) == 0:
                raise ValueError(f"turn {value!r} divides by zero")
            return Fraction(int(match.group(1)), int(match.group(2)))
        try:
            return Fraction(text).limit_denominator(144)
        except ValueError:
            raise ValueError(f"turn {value!r} is not a number: write e.g. 0, 1/4 or -0.25") from None
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            raise ValueError(f"turn {value!r} is not a finite number")
        return Fraction(float(value)).limit_denominator(144)
    raise TypeError(f"a turn must be a number, got {value!r}")


def reduce_turn(turn: Fraction) -> Fraction:
    """The same direction change brought into (-1/2, 1/2] (a turn and that turn +- 1 resolve identically)."""
    t = turn - math.floor(turn)  # [0, 1)
    return t - 1 if t > HALF else t


class Walk(tuple):
    """A walk: a tuple of ``Fraction`` turns.  ``Walk()`` is the anchor itself; ``Walk([0, "1/4"])`` is one step
    ahead then a quarter turn clockwise and one more step (a diagonal neighbour on a square board)."""
    __slots__ = ()

    def __new__(cls, turns=()):
        if isinstance(turns, str):
            return cls.parse(turns)
        if turns is None:
            raise ValueError("a walk is a sequence of turns or text such as '{0,1/4}', got None")
        return super().__new__(cls, (as_turn(t) for t in turns))

    @classmethod
    def parse(cls, text: str) -> "Walk":
        """``"{0,1/4}"`` (Ludii's notation; braces optional) -> ``Walk``."""
        if not isinstance(text, str):
            raise ValueError(f"a walk is text such as '{{0,1/4}}', got {text!r}")
        body = text.strip()
        if body.startswith("{"):
            if not body.endswith("}"):
                raise ValueError(f"walk {text!r} has no closing brace")
            body = body[1:-1]
        body = body.strip()
        if not body:
            return super().__new__(cls, ())
        if "{" in body or "}" in body:
            raise ValueError(f"walk {text!r} has a stray brace")
        try:
            return super().__new__(cls, (as_turn(part) for part in body.split(",")))
        except ValueError as error:
            raise ValueError(f"walk {text!r}: {error}") from None

    def __str__(self) -> str:
        return "{" + ",".join(str(t) for t in self) + "}"

    def __repr__(self) -> str:
        return f"Walk({str(self)!r})"

    def reflected(self, reflection: int) -> "Walk":
        """Every turn multiplied by ``reflection`` (+1 or -1): Ludii's ``applyReflection``."""
        return self if reflection == 1 else Walk(-t for t in self)

    def rotated(self, rotation) -> "Walk":
        """``rotation`` added to the first turn (the rest of the walk is relative): Ludii's ``applyRotation``."""
        if not self:
            return self
        return Walk((self[0] + as_turn(rotation),) + tuple(self[1:]))


def round_index(x: Fraction) -> int:
    """Ludii's rounding of a fractional neighbour index (see the module docstring)."""
    whole = int(x)  # truncates towards zero, like Java's (int) cast
    frac = x - whole
    if abs(HALF - frac) < _HALFWAY_TOLERANCE or abs(HALF + frac) < _HALFWAY_TOLERANCE:
        return math.floor(x)
    return math.floor(x + HALF)


def rotations(graph: BoardGraph) -> tuple[Fraction, ...]:
    """The rotations the board admits: ``k / n`` for the n neighbour slots of its cells (Ludii's
    ``rotationsForNumOrthos``; every cell of a ppalib graph has the same n)."""
    n = graph.directions
    return tuple(Fraction(k, n) for k in range(n))


def _from_direction(orthos: np.ndarray, cell: int, prev: int) -> int:
    """Index of ``prev`` among ``cell``'s neighbours (the first one, as Ludii), or -1 if it is not one."""
    row = orthos[cell]
    for k in range(row.shape[0]):
        if row[k] == prev:
            return k
    return -1


def resolve_walk(graph: BoardGraph, anchor: int, walk, rotation=0, reflection: int = 1) -> list[int]:
    """The cells ``walk`` reaches from ``anchor`` under ``rotation`` (a fraction of a turn) and ``reflection``
    (+1 / -1): always a one-element list here (``[-1]`` when the walk leaves the board), as Ludii returns a list
    because it could fan out on cells with an odd number of sides (it never does: the code keeps one branch)."""
    walk = walk if isinstance(walk, Walk) else Walk(walk)
    if reflection not in (1, -1):
        raise ValueError(f"reflection must be 1 or -1, got {reflection!r}")
    if not walk:
        return [int(anchor)]
    orthos = graph.orthos
    n = orthos.shape[1]
    index = round_index((walk[0] + as_turn(rotation)) * reflection * n)
    prev, cur = int(anchor), int(orthos[anchor, index % n])
    for turn in walk[1:]:
        if cur == OFF_BOARD:
            return [OFF_BOARD]
        n_cur = orthos.shape[1]
        straight = _from_direction(orthos, cur, prev) + n_cur // 2
        index = round_index(straight + turn * reflection * n_cur)
        prev, cur = cur, int(orthos[cur, index % n_cur])
    return [cur]


_CACHES: dict[int, dict] = {}


def _graph_cache(graph: BoardGraph) -> dict:
    """A per-graph memo (graphs hold numpy arrays, so they are not hashable: keyed by identity, dropped with the
    graph)."""
    key = id(graph)
    cache = _CACHES.get(key)
    if cache is None:
        cache = _CACHES[key] = {}
        weakref.finalize(graph, _CACHES.pop, key, None)
    return cache


def _resolve_all(graph: BoardGraph, walk: Walk, rotation: Fraction, reflection: int) -> np.ndarray:
    orthos = graph.orthos
    cells, n = orthos.shape
    anchors = np.arange(cells, dtype=np.int64)
    if not walk:
        return anchors
    index = round_index((walk[0] + rotation) * reflection * n) % n
    prev = anchors
    cur = orthos[:, index].copy()
    for turn in walk[1:]:
        on = cur >= 0
        safe = np.where(on, cur, 0)
        back = orthos[safe] == prev[:, None]
        from_dir = np.where(back.any(axis=1), back.argmax(axis=1), -1)
        # R(straight + y) = straight + R(y) for an integer straight (both branches of R are integer-shift
        # invariant), so the turn's rounding is computed once for every anchor.
        index = (from_dir + n // 2 + round_index(turn * reflection * n)) % n
        nxt = orthos[safe, index]
        prev = cur
        cur = np.where(on, nxt, OFF_BOARD)
    return cur


def resolve_walk_all(graph: BoardGraph, walk: Walk, rotation=0, reflection: int = 1) -> np.ndarray:
    """``resolve_walk`` for every anchor at once: int64[cells] (read-only, cached), -1 where the walk leaves
    the board.  Used to instantiate features quickly; tests check it against ``resolve_walk``."""
    walk = walk if isinstance(walk, Walk) else Walk(walk)
    key = (walk, as_turn(rotation), int(reflection))
    cache = _graph_cache(graph)
    out = cache.get(key)
    if out is None:
        out = np.ascontiguousarray(_resolve_all(graph, *key), dtype=np.int64)
        out.setflags(write=False)
        cache[key] = out
    return out


def shortest_path(graph: BoardGraph, start: int, goal: int):
    """``(cells, walk)``: a shortest path of orthogonal steps from ``start`` to ``goal`` and the walk that follows it
    (no rotation, no reflection), or None if ``goal`` cannot be reached.  Breadth-first with the turns tried in the
    order 0, 1/n, ..., (n-1)/n at every cell, as Ludii's ``GraphSearch.shortestPathTo``, so ties are broken the
    same way (straight on first, then clockwise)."""
    start, goal = int(start), int(goal)
    if start == goal:
        return [start], Walk()
    orthos = graph.orthos
    n = orthos.shape[1]
    seen = {start}
    fringe = deque([([start], [])])
    while fringe:
        cells, turns = fringe.popleft()
        cur = cells[-1]
        straight = 0 if len(cells) == 1 else _from_direction(orthos, cur, cells[-2]) + n // 2
        for k in range(n):
            nxt = int(orthos[cur, (straight + k) % n])
            if nxt == goal:
                return cells + [nxt], Walk(turns + [Fraction(k, n)])
            if nxt >= 0 and nxt not in seen:
                seen.add(nxt)
                fringe.append((cells + [nxt], turns + [Fraction(k, n)]))
    return None


def heading_on_arrival(graph: BoardGraph, cells: list[int]) -> int:
    """"Straight on" at the end of a path (index among the last cell's neighbours): the direction back to the
    previous cell plus n // 2, as a walk continuing the path would compute it."""
    n = graph.orthos.shape[1]
    return _from_direction(graph.orthos, cells[-1], cells[-2]) + n // 2
