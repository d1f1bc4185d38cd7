"""The initial ("atomic") features and the combination of two feature instances (Soemers et al. 2019, section IV).

Atomic features (section IV-A).  The paper derives *move features* from the game's move rules ("(to Mover
(empty))" gives "play at the anchor, which must be empty") and then generates every feature that adds exactly one
element, with walks of at most two steps, to a move feature; new features must stay at least as restrictive as a
move feature.  ppalib has no move ludemes, so the move features are given by what the moves require:

* placement games (``action="to"``): "to an empty cell", ``rel:to=<{}>:pat=<els=[-{}]>``;
* moving games (``action="from_to"``): "to a cell", ``rel:to=<{}>:pat=<els=[]>``, and "from a friend",
  ``rel:from=<{}>:pat=<els=[f{}]>`` (Ludii's 2020 code also starts moving games from a to-anchored and a
  from-anchored base; a combination of one of each gives a feature fixing both ends of the move).

``to_element`` / ``from_element`` change those requirements (element kinds as in ``Element``; None for none).

Walks: every walk of at most ``max_walk_steps`` steps whose turns are multiples of 1/n, the half turn only as the
first step (a half turn later walks straight back; Ludii's generator has the same rule), plus the straight walks
{0,...,0} of up to ``max_straight_steps`` steps.  The paper says "at most two steps"; Ludii's 2020 code
(``AtomicFeatureGenerator(game, 2, 4)``) adds straight walks of up to 4 steps: ``max_straight_steps=4``.
Element kinds: empty, friend, enemy, off and their negations (Ludii's ``usefulElementTypes`` for two-player games
with one piece type a player).

A candidate is dropped when its pattern is inconsistent, when it has no instance on the board (``#{}`` at a move's
own cell), or when its instances are exactly those of a feature already kept: it then matches the same moves in
the same states, so it is the same feature on this board (a deterministic form of the pruning pass Ludii's code
runs on random games, brief section 1.7).  Features equal under rotation / reflection are kept once (features are
canonical).

Counts with the defaults, for boards at least 3 cells across (``tests/test_features_spatial.py`` checks them):

* square (walks {0}, {0,0}, {0,1/4}): placement 1 + 3 x 8 - 4 = 21.  The four dropped: ``!#{0}``, ``!#{0,0}``
  and ``!#{0,1/4}`` (every cell has some on-board neighbour, straight pair and diagonal, and a feature holds if
  *some* rotation holds) and ``#{0,1/4}`` (some diagonal walk leaves the board exactly when ``#{0}`` holds: the cell
  is on the edge).
* hex (walks {0}, {0,0}, {0,1/6}, {0,1/3}): placement 1 + 4 x 8 - 12 = 21.  {0,1/3} is a detour to an adjacent
  cell (NE then SE is E), so its eight features are the {0} ones; plus ``!#`` on the other three walks and
  ``#{0,1/6}``.
* moving games add, on the to side, the six kinds at the destination itself (``#{}`` can never hold there and
  ``!#{}`` always does), and on the from side nothing at the origin (a friend's cell): 27 + 21 = 48 on both boards.
* ``max_straight_steps=4`` on 8 x 8: + {0,0,0} x 7 kinds (``!#`` always holds) + {0,0,0,0} x 6 (from every cell
  four steps leave the board one way and stay on it another, so ``#`` and ``!#`` both always hold) = 34 placement.

Combination (section IV-B, Ludii's ``combineFeatures``, brief section 1.8): see ``combine_instances``.
"""
from __future__ import annotations

from fractions import Fraction

from ..games.graph import BoardGraph
from .feature import Element, Feature, InconsistentFeature
from .instances import Instance, instantiate
from .walks import Walk, heading_on_arrival, reduce_turn, shortest_path

ATOMIC_KINDS = ("empty", "friend", "enemy", "off")


def candidate_walks(graph: BoardGraph, max_walk_steps: int = 2, max_straight_steps: int | None = None) -> list[Walk]:
    """The walks atomic features place their element on, before normalisation (see the module docstring)."""
    n = graph.directions
    turns = [Fraction(k, n) for k in range(n)]
    later = [reduce_turn(t) for t in turns if reduce_turn(t) != Fraction(1, 2)]
    walks = [Walk()]
    frontier = [Walk()]
    for step in range(max_walk_steps):
        options = turns if step == 0 else later
        frontier = [Walk(w + (t,)) for w in frontier for t in options]
        walks.extend(frontier)
    straight = max_walk_steps if max_straight_steps is None else max_straight_steps
    for length in range(max_walk_steps + 1, straight + 1):
        walks.append(Walk([0] * length))
    return walks


def _instance_signature(feature: Feature, graph: BoardGraph) -> frozenset:
    return frozenset((i.to_cell, i.from_cell, i.tests) for i in instantiate(feature, 0, graph, mover=0))


def move_features(action: str, to_element: str | None = "default", from_element: str | None = "default"):
    """The features describing what every move requires (the paper's move features)."""
    if action not in ("to", "from_to"):
        raise ValueError(f"action must be 'to' (placement games) or 'from_to' (moving games), got {action!r}")
    if to_element == "default":
        to_element = "empty" if action == "to" else None
    if from_element == "default":
        from_element = "friend"
    bases = [Feature(() if to_element is None else (Element(to_element, False, ()),), Walk())]
    if action == "from_to":
        bases.append(Feature(() if from_element is None else (Element(from_element, False, ()),), None, Walk()))
    return bases


def atomic_features(graph: BoardGraph, action: str = "to", max_walk_steps: int = 2,
                    max_straight_steps: int | None = None, include_move_features: bool = True,
                    to_element: str | None = "default", from_element: str | None = "default") -> list[Feature]:
    """The initial feature list for a game on ``graph``: the move features (first, unless
    ``include_move_features=False``), then every atomic feature, sorted as Ludii sorts (fewest elements, then
    shortest walks) with ties in text order.  See the module docstring for the choices."""
    bases = move_features(action, to_element, from_element)
    walks = candidate_walks(graph, max_walk_steps, max_straight_steps)
    kept: list[Feature] = []
    signatures: set = set()
    for base in bases:
        sig = _instance_signature(base, graph)
        signatures.add(sig)
        if include_move_features:
            kept.append(base)
    seen = set(bases)
    for base in bases:
        for walk in walks:
            for kind in ATOMIC_KINDS:
                for negated in (False, True):
                    try:
                        feature = base.with_element(Element(kind, negated, walk))
                    except InconsistentFeature:
                        continue
                    if feature in seen:
                        continue
                    seen.add(feature)
                    sig = _instance_signature(feature, graph)
                    if not sig or sig in signatures:
                        continue
                    signatures.add(sig)
                    kept.append(feature)
    head = kept[:len(bases)] if include_move_features else []
    tail = sorted(kept[len(head):], key=lambda f: (f.action, f.complexity(), f.to_text()))
    return head + tail


def _prepend(walk: Walk | None, anchors_walk: Walk, correction: Fraction) -> Walk | None:
    """``anchors_walk`` followed by ``walk``, whose first turn is corrected to be relative to the heading on
    arrival (Ludii's ``prependWalkWithCorrection``)."""
    if walk is None:
        return None
    if not walk:
        return anchors_walk
    return Walk(anchors_walk + (walk[0] - correction,) + tuple(walk[1:]))


def combine_instances(a: Instance, b: Instance, features, graph: BoardGraph) -> Feature:
    """The feature made of instance ``a``'s and instance ``b``'s patterns, as they lie on the board relative to
    each other (Ludii's ``combineFeatures``; brief section 1.8).  It is active wherever both instances fire for the
    same move.

    Pattern A is reflected as ``a``; pattern B reflected as ``b`` and rotated by ``b.refl * b.rot - a.refl *
    a.rot``.  If the anchors differ, every walk of B is prefixed with the shortest walk from a's anchor to b's
    (breadth-first, rotated by ``-a.rot * a.refl``), B's first turns corrected for the heading on arrival.  The
    action walks come from A when A has them, else from B (so a to-anchored and a from-anchored feature combine
    into one fixing both ends).  The result is canonical (normalised, redundant elements dropped).  If b's anchor
    cannot be reached from a's, A's feature is returned (Ludii's fallback).  ``features``: the feature list (or
    ``FeatureSet``) the instances index."""
    fa, fb = features[a.feature], features[b.feature]
    sa, ra = a.reflection, Fraction(a.rotation)
    sb, rb = b.reflection, Fraction(b.rotation)
    rotate_b = sb * rb - sa * ra

    def b_walk(walk: Walk | None) -> Walk | None:
        if walk is None:
            return None
        return walk.reflected(sb).rotated(rotate_b)

    b_elements = [e.with_walk(b_walk(e.walk)) for e in fb.elements]
    b_to, b_from = b_walk(fb.to_walk), b_walk(fb.from_walk)
    if a.anchor != b.anchor:
        path = shortest_path(graph, a.anchor, b.anchor)
        if path is None:
            return fa
        cells, walk = path
        anchors_walk = walk.rotated(-ra * sa)
        correction = Fraction(heading_on_arrival(graph, cells), graph.directions) - ra * sa
        b_elements = [e.with_walk(_prepend(e.walk, anchors_walk, correction)) for e in b_elements]
        b_to, b_from = _prepend(b_to, anchors_walk, correction), _prepend(b_from, anchors_walk, correction)
    elements = tuple(e.with_walk(e.walk.reflected(sa)) for e in fa.elements) + tuple(b_elements)
    to_walk = fa.to_walk.reflected(sa) if fa.to_walk is not None else b_to
    from_walk = fa.from_walk.reflected(sa) if fa.from_walk is not None else b_from
    return Feature(elements, to_walk, from_walk, fa.allows_reflection and fb.allows_reflection)
