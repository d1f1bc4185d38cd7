"""Spatial features (seed 003, Soemers et al. 2019, section II-B and IV) on hand-built positions: walk resolution
with every rotation and both reflections on square and hex boards, each element kind and its negation, the text
form, canonical forms and equivalence, atomic generation counts, combination, drawing.

Cell numbering (ppalib.games.graph): square ``r * cols + c`` with row 0 at the bottom; Hex rhombus ``r * n + c``;
directions clockwise from North: square N, E, S, W; hex NE, E, SE, SW, W, NW (axial (r, c) steps (+1, 0), (0, +1),
(-1, +1), (-1, 0), (0, -1), (+1, -1)).
"""
from fractions import Fraction as F

import numpy as np
import pytest

from ppalib.features import (EMPTY, ENEMY, FRIEND, NOT_FRIEND, DuplicateFeature, Element, Feature, FeatureSet,
                             InconsistentFeature, Walk, atomic_features, combine_instances, draw_feature,
                             instantiate, resolve_walk, resolve_walk_all, round_index, shortest_path)
from ppalib.games.graph import hex_hexagon_graph, hex_rhombus_graph, square_graph

SQ5 = square_graph(5, 5)      # centre 12 = (2,2): N 17, E 13, S 7, W 11
HEX5 = hex_rhombus_graph(5)   # centre 12 = (2,2): NE 17, E 13, SE 8, SW 7, W 11, NW 16
HEXAGON3 = hex_hexagon_graph(3)  # 19 cells, centre 9; corner 18 = axial (2, 0)


def Q(k, n):
    return F(k, n)


# ---- walk resolution -----------------------------------------------------------------------------------------
SQUARE_CASES = [
    # (anchor, walk, rotation, reflection, expected cell)
    (12, "{}", Q(3, 4), -1, 12),
    (12, "{0}", 0, 1, 17), (12, "{0}", Q(1, 4), 1, 13), (12, "{0}", Q(1, 2), 1, 7), (12, "{0}", Q(3, 4), 1, 11),
    (12, "{0}", 0, -1, 17), (12, "{0}", Q(1, 4), -1, 11), (12, "{0}", Q(1, 2), -1, 7), (12, "{0}", Q(3, 4), -1, 13),
    (12, "{0,0}", 0, 1, 22), (12, "{0,0}", Q(1, 4), 1, 14), (12, "{0,0}", Q(1, 2), -1, 2),
    # the diagonal: one step, a quarter turn clockwise (anticlockwise when reflected), one step
    (12, "{0,1/4}", 0, 1, 18), (12, "{0,1/4}", 0, -1, 16),
    (12, "{0,1/4}", Q(1, 4), 1, 8), (12, "{0,1/4}", Q(1, 4), -1, 6),
    (12, "{0,1/4}", Q(1, 2), 1, 6), (12, "{0,1/4}", Q(1, 2), -1, 8),
    (12, "{0,1/4}", Q(3, 4), 1, 16), (12, "{0,1/4}", Q(3, 4), -1, 18),
    (12, "{0,-1/4}", 0, 1, 16), (12, "{1/4,-1/4}", 0, 1, 18),  # E then N: the same NE cell another way
    (12, "{0,1/2}", 0, 1, 12),  # out and straight back
    # off the board: the walk stops and never comes back
    (0, "{0}", Q(1, 2), 1, -1), (0, "{0}", Q(3, 4), 1, -1), (0, "{0}", 0, 1, 5), (0, "{0}", Q(1, 4), 1, 1),
    (0, "{0,1/4}", 0, -1, -1), (0, "{0,1/4}", 0, 1, 6),
    (22, "{0,1/2}", 0, 1, -1), (17, "{0,0,0}", 0, 1, -1), (17, "{0,0}", 0, 1, -1),
    # Ludii's rounding: a half-way index rounds down both ways (+1/8 -> N, -1/8 -> W)
    (12, "{1/8}", 0, 1, 17), (12, "{-1/8}", 0, 1, 11), (12, "{1/8}", 0, -1, 11),
]

HEX_CASES = [
    (12, "{0}", Q(0, 6), 1, 17), (12, "{0}", Q(1, 6), 1, 13), (12, "{0}", Q(2, 6), 1, 8),
    (12, "{0}", Q(3, 6), 1, 7), (12, "{0}", Q(4, 6), 1, 11), (12, "{0}", Q(5, 6), 1, 16),
    (12, "{0}", Q(1, 6), -1, 16), (12, "{0}", Q(2, 6), -1, 11),
    (12, "{0,0}", 0, 1, 22), (12, "{0,0}", Q(1, 6), 1, 14),
    (12, "{0,1/6}", 0, 1, 18), (12, "{0,1/6}", 0, -1, 21),     # NE then E; NE then NW
    (12, "{0,1/3}", 0, 1, 13), (12, "{0,1/3}", 0, -1, 16),     # NE then SE = E: a detour to a neighbour
    (0, "{0}", 0, 1, 5), (0, "{0}", Q(1, 6), 1, 1), (0, "{0}", Q(2, 6), 1, -1), (0, "{0}", Q(3, 6), 1, -1),
    (0, "{0,0,0,0,0}", 0, 1, -1),
    # the rounding quirk of brief section 1.2: +1/4 is +1/6 (NE, NE, then E) but reflected -1/4 is -1/3 (then W,
    # not the mirror image NW)
    (2, "{0,0,1/4}", 0, 1, 13), (2, "{0,0,1/4}", 0, -1, 11),
]

HEXAGON_CASES = [
    (9, "{0}", Q(k, 6), 1, cell) for k, cell in enumerate([14, 10, 5, 4, 8, 13])
] + [
    (18, "{0}", Q(k, 6), 1, cell) for k, cell in enumerate([-1, -1, 15, 14, 17, -1])
] + [
    (9, "{0,0}", 0, 1, 18), (9, "{0,0}", Q(1, 6), 1, 11), (9, "{0,0,0}", 0, 1, -1),
    # reflected half turn: index (0 + 1/2) * -1 * 6 = -3 -> SW, to axial (-1, 0) = cell 4; there "straight on" is
    # SW again and the reflected 1/6 turn goes anticlockwise, to SE: axial (-2, 1) = cell 1
    (9, "{0,1/6}", Q(1, 2), -1, 1),
]


@pytest.mark.parametrize("graph,cases", [(SQ5, SQUARE_CASES), (HEX5, HEX_CASES), (HEXAGON3, HEXAGON_CASES)],
                         ids=["square5", "hex_rhombus5", "hexagon3"])
def test_walks_resolve_to_hand_checked_cells(graph, cases):
    for anchor, walk, rotation, reflection, expected in cases:
        got = resolve_walk(graph, anchor, Walk.parse(walk), rotation, reflection)
        assert got == [expected], (anchor, walk, rotation, reflection)


@pytest.mark.parametrize("graph", [SQ5, HEX5, HEXAGON3, square_graph(5, 9)], ids=["sq5", "hex5", "hexagon3", "5x9"])
def test_vectorised_resolution_equals_the_scalar_one(graph):
    n = graph.directions
    walks = [Walk(w) for w in ([], [0], [0, 0], [0, F(1, n)], [F(1, n), F(-1, n), 0], [0, F(1, 2)],
                               [0, 0, 0, 0], [F(1, 8), F(1, 4)])]
    for walk in walks:
        for k in range(n):
            for reflection in (1, -1):
                every = resolve_walk_all(graph, walk, F(k, n), reflection)
                for anchor in range(graph.cells):
                    assert every[anchor] == resolve_walk(graph, anchor, walk, F(k, n), reflection)[0]


def test_rounding_matches_ludii():
    assert [round_index(F(x)) for x in ("0.5", "-0.5", "1.5", "-1.5", "0.49", "0.51", "0.53", "2.4", "-2.6")] == \
        [0, -1, 1, -2, 0, 0, 1, 2, -3]


def test_shortest_path_prefers_straight_then_clockwise():
    cells, walk = shortest_path(SQ5, 0, 24)
    assert cells == [0, 5, 10, 15, 20, 21, 22, 23, 24] and walk == Walk([0, 0, 0, 0, F(1, 4), 0, 0, 0])
    assert resolve_walk(SQ5, 0, walk) == [24]
    cells, walk = shortest_path(HEX5, 12, 3)  # (2,2) -> (0,3): SE then SW
    assert resolve_walk(HEX5, 12, walk) == [3] and len(walk) == 2


# ---- elements on hand-built positions --------------------------------------------------------------------------
def _owner(cells, friends=(), enemies=()):
    owner = np.zeros(cells, dtype=np.int8)
    owner[list(friends)] = 1
    owner[list(enemies)] = 2
    return owner


def _active(text, graph, owner, to_cell, from_cell=-1, mover=None):
    fs = FeatureSet([Feature.from_text(text)], graph, mover=mover)
    python = bool(fs.active(owner, from_cell, to_cell)[0])
    assert python == bool(fs.active_compiled(owner, from_cell, to_cell)[0])
    return python


ELEMENTS = ["-{0}", "!-{0}", "f{0}", "!f{0}", "e{0}", "!e{0}", "#{0}", "!#{0}"]


@pytest.mark.parametrize("case,to_cell,friends,enemies,expected", [
    # all four neighbours of the centre friendly
    ("friends", 12, [17, 13, 7, 11], [], [False, True, True, False, False, True, False, True]),
    ("enemies", 12, [], [17, 13, 7, 11], [False, True, False, True, True, False, False, True]),
    ("empty", 12, [], [], [True, False, False, True, False, True, False, True]),
    # a lone friend to the north: some neighbour is empty, some is not, some is not a friend...
    ("one friend", 12, [17], [], [True, True, True, True, False, True, False, True]),
    # the corner: S and W are off the board, so "!-", "!f", "!e" and "#" hold there whatever N and E hold
    ("corner, friends", 0, [5, 1], [], [False, True, True, True, False, True, True, True]),
    ("corner, empty", 0, [], [], [True, True, False, True, False, True, True, True]),
])
def test_each_element_kind_and_its_negation_on_a_square_board(case, to_cell, friends, enemies, expected):
    owner = _owner(SQ5.cells, friends, enemies)
    got = [_active(f"rel:to=<{{}}>:pat=<els=[-{{}}, {el}]>", SQ5, owner, to_cell) for el in ELEMENTS]
    assert got == expected, case


def test_elements_on_a_hex_board_see_six_neighbours():
    owner = _owner(HEX5.cells, friends=[16])  # the NW neighbour of 12
    assert _active("rel:to=<{}>:pat=<els=[-{}, f{0}]>", HEX5, owner, 12)
    assert not _active("rel:to=<{}>:pat=<els=[-{}, f{0,0}]>", HEX5, owner, 12)
    owner = _owner(HEX5.cells, friends=[18])  # (3,3): NE then E of 12, the {0,1/6} cell
    assert _active("rel:to=<{}>:pat=<els=[-{}, f{0,1/6}]>", HEX5, owner, 12)
    assert not _active("rel:to=<{}>:pat=<els=[-{}, f{0}]>", HEX5, owner, 12)
    # the acute corner 0 has only two neighbours on the board (NE 5, E 1): four directions are off
    assert _active("rel:to=<{}>:pat=<els=[-{}, #{0}]>", HEX5, _owner(HEX5.cells), 0)
    assert not _active("rel:to=<{}>:pat=<els=[-{}, #{0}]>", HEX5, _owner(HEX5.cells), 12)


def test_player_and_item_elements():
    owner = _owner(SQ5.cells, friends=[17])  # the mover's piece north of 12
    text = "rel:to=<{}>:pat=<els=[-{}, 1{0}]>"    # a piece of player 0 (Ludii's P1)
    assert _active(text, SQ5, owner, 12, mover=0)
    assert not _active(text, SQ5, owner, 12, mover=1)  # there it is player 1's piece
    assert _active("rel:to=<{}>:pat=<els=[-{}, 2{0}]>", SQ5, owner, 12, mover=1)
    # item: one piece type a player, so any piece
    assert _active("rel:to=<{}>:pat=<els=[-{}, I3{0}]>", SQ5, owner, 12)
    assert _active("rel:to=<{}>:pat=<els=[-{}, I{0}]>", SQ5, _owner(SQ5.cells, enemies=[17]), 12)
    assert not _active("rel:to=<{}>:pat=<els=[-{}, I{0}]>", SQ5, _owner(SQ5.cells), 12)
    assert _active("rel:to=<{}>:pat=<els=[-{}, !I{0}]>", SQ5, owner, 12)  # E is empty
    with pytest.raises(ValueError, match="mover"):
        FeatureSet([Feature.from_text(text)], SQ5)


def test_moving_features_need_the_right_origin_and_destination():
    owner = _owner(SQ5.cells, friends=[7], enemies=[18])
    diag_capture = "rel:from=<{}>:to=<{0,1/4}>:pat=<els=[f{}, e{0,1/4}]>"
    assert _active(diag_capture, SQ5, owner, to_cell=18, from_cell=12) is False  # 12 holds no friend
    owner[12] = 1
    assert _active(diag_capture, SQ5, owner, to_cell=18, from_cell=12)
    assert not _active(diag_capture, SQ5, owner, to_cell=17, from_cell=12)
    assert not _active(diag_capture, SQ5, owner, to_cell=18, from_cell=-1)
    # a feature fixing only the destination ignores the origin; one fixing only the origin ignores the destination
    assert _active("rel:to=<{}>:pat=<els=[e{}]>", SQ5, owner, to_cell=18, from_cell=12)
    assert _active("rel:to=<{}>:pat=<els=[e{}]>", SQ5, owner, to_cell=18, from_cell=-1)
    assert _active("rel:from=<{}>:pat=<els=[f{}, f{0,0,1/2}]>", SQ5, owner, to_cell=3, from_cell=12)
    # a pass (-1, -1) matches nothing
    assert not _active("rel:to=<{}>:pat=<els=[]>", SQ5, owner, to_cell=-1, from_cell=-1)


# ---- instances -------------------------------------------------------------------------------------------------
def test_instances_resolve_tests_and_drop_what_cannot_match():
    f = Feature.from_text("rel:to=<{}>:pat=<els=[-{}, f{0,1/4}]>")
    insts = instantiate(f, 0, SQ5)
    at_centre = [i for i in insts if i.anchor == 12]
    # 4 rotations x 2 reflections, but the two paths to each diagonal are the same test: 4 instances
    assert sorted(i.tests for i in at_centre) == [((6, FRIEND), (12, EMPTY)), ((8, FRIEND), (12, EMPTY)),
                                                  ((12, EMPTY), (16, FRIEND)), ((12, EMPTY), (18, FRIEND))]
    assert all(i.to_cell == 12 and i.from_cell == -1 for i in at_centre)
    # at the corner only the diagonal on the board is left (a friend off the board fails)
    assert [i.tests for i in insts if i.anchor == 0] == [((0, EMPTY), (6, FRIEND))]
    # negated: off the board the element holds, so the corner keeps an instance with the to-test only
    g = Feature.from_text("rel:to=<{}>:pat=<els=[-{}, !f{0,1/4}]>")
    corner = [i.tests for i in instantiate(g, 0, SQ5) if i.anchor == 0]
    assert ((0, EMPTY),) in corner and ((0, EMPTY), (6, NOT_FRIEND)) in corner
    # "!#" on the board is no test; "#" on the board drops the instance
    h = Feature.from_text("rel:to=<{}>:pat=<els=[#{0}]>")
    assert {i.anchor for i in instantiate(h, 0, SQ5)} == {0, 1, 2, 3, 4, 5, 9, 10, 14, 15, 19, 20, 21, 22, 23, 24}
    # two elements on one cell are intersected: "!-" and "!f" there leave "enemy" ({1/2,1/2,0}: out, back, and on
    # to the {0} cell)
    k = Feature.from_text("rel:to=<{}>:pat=<els=[!-{0}, !f{1/2,1/2,0}]>")
    at_centre = [i.tests for i in instantiate(k, 0, SQ5) if i.anchor == 12]
    assert sorted(at_centre) == [((c, ENEMY),) for c in (7, 11, 13, 17)]


# ---- text, canonical form, equivalence -------------------------------------------------------------------------
TEXTS = [
    "rel:to=<{}>:pat=<els=[-{}]>",
    "rel:to=<{}>:pat=<els=[]>",
    "rel:from=<{}>:pat=<els=[f{}, !e{0,1/4}]>",
    "rel:from=<{}>:to=<{0,1/4}>:pat=<els=[f{}, !-{0}, e{0,1/4}]>",
    "rel:to=<{}>:pat=<els=[-{}, f{0,1/6}, e{1/2,0,0}, #{1/3,-1/6}]>",
    "rel:to=<{}>:pat=<refl=false,els=[-{}, f{0,-1/4}]>",
    "rel:to=<{}>:pat=<els=[-{}, 1{0}, !2{0,0}, I4{1/4}]>",
]


@pytest.mark.parametrize("text", TEXTS)
def test_text_round_trip(text):
    f = Feature.from_text(text)
    assert Feature.from_text(f.to_text()) == f
    assert f.to_text() == Feature.from_text(f.to_text()).to_text()
    assert hash(Feature.from_text(text)) == hash(f)


def test_text_reads_ludii_variants():
    a = Feature.from_text("rel:to=<{}>:pat=<refl=true,rots=all,els=[f{0,1/6}]>")
    assert a == Feature.from_text("rel:to=<{}>:pat=<els=[f{0, 1/6}]>")
    assert a.to_text() == "rel:to=<{}>:pat=<els=[f{0,1/6}]>"
    assert Feature.from_text("rel:to=<{}>:pat=<els=[f{0,0.16666667}]>") == a  # float turns as Ludii may write them
    for bad in ["rel:last_to=<{0}>:to=<{}>:pat=<els=[]>", "abs:to=<3>:pat=<els=[]>",
                "rel:to=<{}>:pat=<rots=[0.0,0.5],els=[]>", "rel:to=<{}>:pat=<els=[x{0}]>"]:
        with pytest.raises(ValueError):
            Feature.from_text(bad)


def test_canonical_form_and_equivalence_under_rotation_and_reflection():
    base = Feature.from_text("rel:to=<{}>:pat=<els=[-{}, f{0}, e{0,1/4}]>")
    for k in range(4):
        for reflection in (1, -1):
            moved = base.transformed(F(k, 4), reflection)
            assert moved == base and moved.equivalent(base)
    # written differently: rotated by a quarter turn, then mirrored
    assert Feature.from_text("rel:to=<{}>:pat=<els=[-{}, f{1/4}, e{1/4,-1/4}]>") == base
    # turns are taken modulo a full turn
    assert Feature.from_text("rel:to=<{}>:pat=<els=[f{0,5/4}]>") == Feature.from_text(
        "rel:to=<{}>:pat=<els=[f{0,1/4}]>")
    # a different pattern is not equivalent: the enemy on the other diagonal side of the friend
    other = Feature.from_text("rel:to=<{}>:pat=<els=[-{}, f{0}, e{1/2,1/4}]>")
    assert other != base and not other.equivalent(base)
    # without reflection, mirror images differ
    right = Feature.from_text("rel:to=<{}>:pat=<refl=false,els=[-{}, f{0,1/4}]>")
    left = Feature.from_text("rel:to=<{}>:pat=<refl=false,els=[-{}, f{0,-1/4}]>")
    assert right != left and right == left.transformed(0, -1)
    # and the instances agree: equal features match the same moves
    assert {(i.to_cell, i.tests) for i in instantiate(base, 0, SQ5)} == {
        (i.to_cell, i.tests) for i in instantiate(base.transformed(F(1, 4), -1), 0, SQ5)}


def test_redundant_elements_are_dropped_and_inconsistent_patterns_refused():
    f = Feature.from_text("rel:to=<{}>:pat=<els=[-{}, e{0}, !f{0}, !#{0}, !-{0}]>")
    assert f.to_text() == "rel:to=<{}>:pat=<els=[-{}, e{0}]>"
    with pytest.raises(InconsistentFeature):
        Feature.from_text("rel:to=<{}>:pat=<els=[e{0}, -{0}]>")
    with pytest.raises(InconsistentFeature):
        Feature((Element("off", False, [0]), Element("friend", False, [0])), Walk())
    with pytest.raises(ValueError):
        Feature((), None, None)


# ---- generation ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("graph,action,expected", [
    (square_graph(8, 8), "to", 21), (square_graph(8, 8), "from_to", 48),
    (SQ5, "to", 21), (square_graph(5, 9), "from_to", 48),
    (hex_rhombus_graph(7), "to", 21), (hex_hexagon_graph(5), "to", 21), (hex_rhombus_graph(11), "from_to", 48),
])
def test_atomic_generation_counts(graph, action, expected):
    """Counts argued in ppalib/features/generation.py: placement = the move feature + 3 walks x 8 element types,
    less the ones that match exactly the moves another matches (4 on square boards: !# on every walk and #{0,1/4}
    = #{0}; 12 on hex boards, whose {0,1/3} is a detour to a neighbour); moving games add the six kinds at the
    destination and a from-anchored half."""
    features = atomic_features(graph, action)
    assert len(features) == expected
    assert len(set(features)) == len(features)
    if action == "to":
        assert features[0] == Feature.from_text("rel:to=<{}>:pat=<els=[-{}]>")
        assert all(len(f.elements) == 2 and max(len(w) for w in f.walks) <= 2 for f in features[1:])
    else:
        assert Feature.from_text("rel:from=<{}>:pat=<els=[f{}]>") in features
        assert Feature.from_text("rel:to=<{}>:pat=<els=[e{}]>") in features
    # every atomic feature is at least as restrictive as a move feature: one more element, never fewer
    bases = features[:1] if action == "to" else features[:2]
    for f in features[len(bases):]:
        assert any(set(b.elements) <= set(f.elements) and b.to_walk == f.to_walk and b.from_walk == f.from_walk
                   for b in bases)


def test_atomic_generation_options():
    g = square_graph(8, 8)
    longer = atomic_features(g, "to", max_straight_steps=4)
    # + {0,0,0} x 7 (!# holds everywhere) and {0,0,0,0} x 6: on 8x8, four steps leave the board one way and stay
    # on it another from every cell, so both #{0,0,0,0} and !#{0,0,0,0} always hold
    assert len(longer) == 21 + 7 + 6
    assert Feature.from_text("rel:to=<{}>:pat=<els=[-{}, #{0,0,0}]>") in longer
    assert Feature.from_text("rel:to=<{}>:pat=<els=[-{}, #{0,0,0,0}]>") not in longer
    assert len(atomic_features(g, "to", include_move_features=False)) == 20


# ---- combination -------------------------------------------------------------------------------------------------
def test_combining_two_instances_with_the_same_anchor():
    feats = [Feature.from_text("rel:to=<{}>:pat=<els=[-{}, f{0}]>"),
             Feature.from_text("rel:to=<{}>:pat=<els=[-{}, e{0,0}]>")]
    fs = FeatureSet(feats, SQ5)
    owner = _owner(SQ5.cells, friends=[13], enemies=[2])  # E friend; S,S enemy of centre 12
    active = [fs.instances[i] for i in fs.active_instances(owner, -1, 12)]
    a = next(i for i in active if i.feature == 0)
    b = next(i for i in active if i.feature == 1)
    combined = combine_instances(a, b, fs, SQ5)
    # the friend to the E and the enemy two steps to the S: a quarter turn apart
    assert combined == Feature.from_text("rel:to=<{}>:pat=<els=[-{}, f{0}, e{1/4,0}]>")
    assert FeatureSet([combined], SQ5).active(owner, -1, 12)[0]
    # the enemy two steps N instead is the mirror image (reflection is allowed); two steps W is another pattern
    assert FeatureSet([combined], SQ5).active(_owner(SQ5.cells, friends=[13], enemies=[22]), -1, 12)[0]
    owner2 = _owner(SQ5.cells, friends=[13], enemies=[10])
    assert not FeatureSet([combined], SQ5).active(owner2, -1, 12)[0]


def test_combining_instances_with_different_anchors():
    # a from-anchored and a to-anchored atomic feature make a from->to feature (Ludii's combineFeatures)
    feats = [Feature.from_text("rel:from=<{}>:pat=<els=[f{}, !f{0}]>"),
             Feature.from_text("rel:to=<{}>:pat=<els=[e{}]>")]
    fs = FeatureSet(feats, SQ5)
    owner = _owner(SQ5.cells, friends=[7], enemies=[13])  # a friend at 7 (below 12), an enemy at 13 (right of 12)
    move = (7, 13)  # a diagonal capture 7 -> 13
    active = [fs.instances[i] for i in fs.active_instances(owner, *move)]
    a = next(i for i in active if i.feature == 0)
    b = next(i for i in active if i.feature == 1)
    combined = combine_instances(a, b, fs, SQ5)
    # from the origin (the anchor of a), the destination is the diagonal reached by the shortest path N, E
    assert combined.action == "from_to" and combined.from_walk == Walk() and len(combined.to_walk) == 2
    assert Element("friend", False, ()) in combined.elements
    assert Element("enemy", False, combined.to_walk) in combined.elements
    assert any(e.kind == "friend" and e.negated for e in combined.elements)
    only = FeatureSet([combined], SQ5)
    assert only.active(owner, *move)[0]
    assert not only.active(owner, 7, 11)[0]  # the other diagonal holds no enemy


@pytest.mark.parametrize("graph,action", [(square_graph(6, 7), "from_to"), (hex_rhombus_graph(7), "to"),
                                          (hex_hexagon_graph(4), "from_to")], ids=["sq6x7", "hex7", "hexagon4"])
def test_a_combined_feature_fires_wherever_both_instances_fire(graph, action):
    rng = np.random.default_rng(7)
    fs = FeatureSet(atomic_features(graph, action), graph)
    checked = 0
    for _ in range(25):
        owner = rng.integers(0, 3, graph.cells).astype(np.int8)
        # a legal-looking move: onto an empty cell (placement), or from a friend (moving)
        to_cell = int(rng.choice(np.flatnonzero(owner == 0))) if action == "to" else int(rng.integers(graph.cells))
        from_cell = int(rng.choice(np.flatnonzero(owner == 1))) if action == "from_to" else -1
        active = fs.active_instances(owner, from_cell, to_cell)
        for _ in range(6):
            if len(active) < 2:
                break
            i, j = rng.choice(active, 2, replace=False)
            combined = combine_instances(fs.instances[i], fs.instances[j], fs, graph)
            assert FeatureSet([combined], graph).active(owner, from_cell, to_cell)[0], (fs.instances[i],
                                                                                       fs.instances[j], combined)
            checked += 1
    assert checked > 50


def test_duplicates_are_refused():
    g = square_graph(8, 8)
    fs = FeatureSet(atomic_features(g, "to"), g)
    rotated = fs[3].transformed(F(1, 4), -1)
    assert fs.contains_equivalent(rotated)
    with pytest.raises(DuplicateFeature):
        fs.with_feature(rotated)
    with pytest.raises(DuplicateFeature):
        FeatureSet([fs[1], fs[1]], g)
    new = Feature.from_text("rel:to=<{}>:pat=<els=[-{}, f{0}, f{1/2}]>")
    grown = fs.with_feature(new)
    assert len(grown) == len(fs) + 1 and grown.index(new) == len(fs) and not fs.contains_equivalent(new)
    assert grown.instances[:len(fs.instances)] == fs.instances
    assert FeatureSet.from_text(grown.to_text(), g).features == grown.features
    sub = grown.subset([len(fs), 0])
    assert sub.features == (new, fs[0]) and {i.feature for i in sub.instances} == {0, 1}


# ---- drawing ------------------------------------------------------------------------------------------------------
def test_features_draw_without_error(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3)
    draw_feature(Feature.from_text("rel:to=<{}>:pat=<els=[-{}, f{0}, f{0,0}, !e{1/6,0}, #{1/2}]>"),
                 hex_hexagon_graph(5), axes[0])
    draw_feature(Feature.from_text("rel:from=<{}>:to=<{0,1/4}>:pat=<els=[f{}, e{0,1/4}, !-{0}]>"),
                 square_graph(8, 8), axes[1])
    draw_feature(Feature.from_text("rel:to=<{}>:pat=<els=[-{}, 1{0}, I{0,0}, !2{1/4}]>"), SQ5, axes[2])
    assert draw_feature(Feature.from_text("rel:from=<{}>:pat=<els=[f{}]>"), HEX5) is not None
    path = tmp_path / "features.png"
    fig.savefig(path)
    plt.close("all")
    assert path.stat().st_size > 1000


@pytest.mark.parametrize("kind", ["square", "hex"])
def test_combined_features_are_canonical_under_every_rotation_reflection_and_text_round_trip(kind):
    # Found by self-play at Gomoku: a feature made by combining instances kept redundant elements when its
    # rotation was chosen, so its text read back gave another canonical form and an equivalent feature was added
    # twice.  Every equivalent writing must give one canonical feature.
    import random
    from ppalib.features import FeatureSet, atomic_features, combine_instances, rotations
    from ppalib.games.graph import hex_rhombus_graph, square_graph
    graph = square_graph(7, 7) if kind == "square" else hex_rhombus_graph(7)
    feature_set = FeatureSet(atomic_features(graph, action="to"), graph)
    instances = feature_set.instances
    by_anchor = {}
    for inst in instances:
        by_anchor.setdefault(inst.to_cell, []).append(inst)
    rng = random.Random(0)
    made = []
    for _ in range(300):
        group = by_anchor[rng.choice(sorted(by_anchor))]
        a, b = rng.choice(group), rng.choice(group)
        try:
            made.append(combine_instances(a, b, feature_set.features, graph))
        except ValueError:
            continue
    for _ in range(100):  # combine again: three or four elements, some redundant
        a, b = rng.choice(made), rng.choice(made)
        ia = instantiate(a, 0, graph)
        ib = instantiate(b, 1, graph)
        pairs = [(x, y) for x in ia for y in ib if x.to_cell == y.to_cell]
        if pairs:
            x, y = rng.choice(pairs)
            try:
                made.append(combine_instances(x, y, [a, b], graph))
            except ValueError:
                continue
    assert len(made) > 200
    for feature in made:
        assert Feature.from_text(feature.to_text()) == feature
        for rotation in rotations(graph):
            for reflection in (1, -1):
                assert feature.transformed(rotation, reflection) == feature
