"""Feature instances: a feature placed on a board graph at one anchor, rotation and reflection, with its walks
resolved to cells (Ludii's ``instantiateFeature``, brief section 1.4).

An instance fixes the move's ``to_cell`` / ``from_cell`` (-1: the feature says nothing about that end) and keeps
the *tests* its elements need on the board: pairs ``(cell, test_kind)`` on the mover-relative owner array
``owner_rel`` (0 empty, 1 friend, 2 enemy).  ``test_kind = 2 * v + negated`` means "``owner_rel[cell] == v``"
(negated: "``!= v``"): ``EMPTY = 0, NOT_EMPTY = 1, FRIEND = 2, NOT_FRIEND = 3, ENEMY = 4, NOT_ENEMY = 5``.

What can be decided when the feature is placed is decided then: an element whose walk leaves the board holds or
fails right away (``off`` and every negated kind but ``!off`` hold there); ``!off`` on the board always holds and
``off`` on the board always fails; an action walk that leaves the board drops the instance.  Elements landing on
the same cell are intersected (a contradiction drops the instance, a tautology leaves no test), so each cell is
tested at most once.  Equal instances (same feature, action cells and tests) are kept once: the first in the
order anchor, reflection (+1 first), rotation.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..games.graph import OFF_BOARD, BoardGraph
from .feature import Feature
from .walks import resolve_walk_all, rotations

EMPTY, NOT_EMPTY, FRIEND, NOT_FRIEND, ENEMY, NOT_ENEMY = range(6)
TEST_NAMES = ("empty", "!empty", "friend", "!friend", "enemy", "!enemy")
_ANY = 0b111  # owner_rel values 0, 1, 2 all allowed


@dataclass(frozen=True, slots=True)
class Instance:
    """``feature`` (index in its feature set) placed at ``anchor`` with ``rotation`` (a Fraction of a turn) and
    ``reflection`` (+1 / -1): the move cells it needs and the tests ``((cell, test_kind), ...)``, sorted by cell."""
    feature: int
    anchor: int
    rotation: Fraction
    reflection: int
    to_cell: int
    from_cell: int
    tests: tuple[tuple[int, int], ...]

    def matches(self, owner_rel, from_cell: int, to_cell: int) -> bool:
        """The plain-Python reference: does this instance fire for the move (from_cell, to_cell)?"""
        if self.to_cell != OFF_BOARD and self.to_cell != to_cell:
            return False
        if self.from_cell != OFF_BOARD and self.from_cell != from_cell:
            return False
        return all((int(owner_rel[c]) == (k >> 1)) != bool(k & 1) for c, k in self.tests)


def element_masks(element, mover):
    """(allowed owner_rel values on the board as a bit mask, holds off the board) for one element."""
    kind = element.kind
    if kind == "off":
        on, off = 0, True
    else:
        off = False
        if kind == "empty":
            on = 0b001
        elif kind == "friend":
            on = 0b010
        elif kind == "enemy":
            on = 0b100
        elif kind == "item":
            on = 0b110  # one piece type a player: any piece (see feature.py)
        else:  # player
            if mover is None:
                raise ValueError(f"{element} tests for a given player: the feature set needs mover=0 or 1")
            on = 0b010 if element.value == mover else 0b100
    if element.negated:
        on, off = _ANY & ~on, not off
    return on, off


def _tests_from_masks(masks: dict[int, int]):
    tests = []
    for cell in sorted(masks):
        m = masks[cell]
        if m == 0:
            return None
        if m == _ANY:
            continue
        if m in (0b001, 0b010, 0b100):
            tests.append((cell, 2 * (m.bit_length() - 1)))
        else:
            missing = _ANY & ~m
            tests.append((cell, 2 * (missing.bit_length() - 1) + 1))
    return tuple(tests)


def instantiate(feature: Feature, feature_index: int, graph: BoardGraph, mover: int | None = None) -> list[Instance]:
    """Every instance of ``feature`` on ``graph``: every cell as anchor, every rotation k/n, both reflections
    (one if the feature forbids reflection), deduplicated.  ``mover`` is needed only for ``player`` elements."""
    element_info = [(e.walk, *element_masks(e, mover)) for e in feature.elements]
    walks = feature.walks
    any_step = any(len(w) > 0 for w in walks)
    mirror_matters = any(t not in (0, Fraction(1, 2), Fraction(-1, 2)) for w in walks for t in w)
    reflections = (1, -1) if feature.allows_reflection and mirror_matters else (1,)
    rots = rotations(graph) if any_step else (Fraction(0),)
    cells = graph.cells
    seen = set()
    placements = []  # (anchor, reflection, rotation, to, from, tests) before sorting by anchor
    for reflection in reflections:
        for rot in rots:
            to_cells = (resolve_walk_all(graph, feature.to_walk, rot, reflection)
                        if feature.to_walk is not None else None)
            from_cells = (resolve_walk_all(graph, feature.from_walk, rot, reflection)
                          if feature.from_walk is not None else None)
            resolved = [(resolve_walk_all(graph, walk, rot, reflection), on, off) for walk, on, off in element_info]
            for anchor in range(cells):
                to_cell = OFF_BOARD if to_cells is None else int(to_cells[anchor])
                from_cell = OFF_BOARD if from_cells is None else int(from_cells[anchor])
                if (to_cells is not None and to_cell < 0) or (from_cells is not None and from_cell < 0):
                    continue
                masks: dict[int, int] = {}
                ok = True
                for sites, on, off in resolved:
                    site = int(sites[anchor])
                    if site < 0:
                        if not off:
                            ok = False
                            break
                    else:
                        masks[site] = masks.get(site, _ANY) & on
                if not ok:
                    continue
                tests = _tests_from_masks(masks)
                if tests is None:
                    continue
                placements.append((anchor, -reflection, rot, to_cell, from_cell, tests))
    placements.sort(key=lambda p: (p[0], p[1], p[2]))  # the order anchor, reflection (+1 first), rotation
    out = []
    for anchor, neg_reflection, rot, to_cell, from_cell, tests in placements:
        key = (to_cell, from_cell, tests)
        if key in seen:
            continue
        seen.add(key)
        out.append(Instance(feature_index, anchor, rot, -neg_reflection, to_cell, from_cell, tests))
    return out
