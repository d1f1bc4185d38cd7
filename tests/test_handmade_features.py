"""The hand-made Yavalath features of Soemers, Piette & Browne 2019 (Fig. 9, section V-D;
ppalib/features/handmade.py): each fires exactly where it should on hand-built positions (all six directions, the
gap win, the loss patterns, not for the opponent's line, not where the line leaves the board), by the Python
reference matcher and the compiled one; on positions of random games they agree with a line-counting oracle and
with the game's own rules, wins included; the policy's logits make a winning move the argmax, and the agent with
fully biased playouts beats UCT."""
import numpy as np
import pytest

from ppalib.features import FeatureSet, state_owner_relative
from ppalib.features.artefact import LinearPolicy
from ppalib.features.handmade import YAVALATH_FEATURES, YAVALATH_WEIGHTS, yavalath_handmade_policy
from ppalib.games import make_game
from ppalib.games._common import H_BOARD, H_PLY, H_TO_MOVE
from ppalib.games.graph import HEX_STEPS, hex_hexagon_positions

WIN, LOSS_END, LOSS_MIDDLE = 0, 1, 2
GAME = make_game("yavalath", 5)
POSITIONS = hex_hexagon_positions(5)
INDEX = {p: i for i, p in enumerate(POSITIONS)}
GRAPH = GAME.module.board_graph(GAME.spec)


@pytest.fixture(scope="module")
def policy():
    return yavalath_handmade_policy(GAME)


@pytest.fixture(scope="module")
def fs(policy):
    return policy.feature_set


def cell(r, c):
    return INDEX[(r, c)]


def line(start, step, k):
    """The cells start + i * step for i in 1..k (axial coordinates; KeyError off the board)."""
    return [cell(start[0] + i * step[0], start[1] + i * step[1]) for i in range(1, k + 1)]


def position(x=(), o=(), to_move=0):
    """A hand-built Yavalath position: player 0's pieces on ``x``, player 1's on ``o``."""
    state = GAME.initial_state()
    for c in x:
        state[H_BOARD + c] = 1
    for c in o:
        state[H_BOARD + c] = 2
    state[H_TO_MOVE] = to_move
    state[H_PLY] = len(x) + len(o)
    return GAME.refresh(state)


def active(fs, state, move):
    """phi(state, move) by both matchers (checked equal)."""
    rel = state_owner_relative(GAME.module, GAME.spec, state, fs.graph)
    to = GAME.module.move_to(GAME.spec, state, move)
    ref = fs.active(rel, -1, to)
    compiled = fs.active_compiled(rel, -1, to)
    assert np.array_equal(ref, compiled), (move, ref, compiled)
    return ref


def fired(fs, state, move):
    return {i for i, a in enumerate(active(fs, state, move)) if a}


def test_policy_is_the_papers(policy, tmp_path):
    assert policy.theta == YAVALATH_WEIGHTS == (3000.0, -1000.0, -1000.0)
    assert len(policy.features) == 3 and policy.game == "yavalath" and policy.size == 5
    assert policy.weights[WIN] > -2 * policy.weights[LOSS_END]  # a win outweighs both losses (four beats three)
    path = policy.save(tmp_path)
    assert LinearPolicy.from_file(path).content_hash == policy.content_hash
    assert yavalath_handmade_policy(GAME).content_hash == policy.content_hash  # deterministic
    with pytest.raises(ValueError):
        yavalath_handmade_policy(make_game("hex", 5))


def test_feature_texts_are_canonical(fs):
    assert tuple(f.to_text() for f in fs.features) == YAVALATH_FEATURES


@pytest.mark.parametrize("d", range(6))
def test_the_win_fills_the_gap_of_a_four_every_direction(fs, d):
    step = HEX_STEPS[d]
    back = (-step[0], -step[1])
    # X X _ X along direction d through the centre: pieces at +1, +2 and -1; the move at the centre
    state = position(x=(cell(*step), cell(2 * step[0], 2 * step[1]), cell(*back)))
    assert fired(fs, state, cell(0, 0)) == {WIN, LOSS_END, LOSS_MIDDLE}  # a four holds both threes
    assert GAME.winner(GAME.play(state, cell(0, 0))) == 0
    # X _ _ X X: no piece next to the move on one side -> the X X _ loss only
    state = position(x=(cell(*step), cell(2 * step[0], 2 * step[1]), cell(2 * back[0], 2 * back[1])))
    assert fired(fs, state, cell(0, 0)) == {LOSS_END}


@pytest.mark.parametrize("d", range(6))
def test_loss_patterns_every_direction(fs, d):
    step = HEX_STEPS[d]
    two = line((0, 0), step, 2)  # X X next to the centre in direction d
    state = position(x=two)
    assert fired(fs, state, cell(0, 0)) == {LOSS_END}
    assert GAME.winner(GAME.play(state, cell(0, 0))) == 1  # the mover made three and lost
    state = position(x=(cell(*step), cell(-step[0], -step[1])))  # X _ X across the centre
    assert fired(fs, state, cell(0, 0)) == {LOSS_MIDDLE}
    assert GAME.winner(GAME.play(state, cell(0, 0))) == 1
    # one piece next to the move, or two not on a line through it: nothing
    other = HEX_STEPS[(d + 1) % 6]
    state = position(x=(cell(*step), cell(*other)))
    assert fired(fs, state, cell(0, 0)) == set()
    state = position(x=(cell(*step), cell(2 * other[0], 2 * other[1])))
    assert fired(fs, state, cell(0, 0)) == set()


@pytest.mark.parametrize("d", range(6))
def test_not_for_the_opponents_line(fs, d):
    step = HEX_STEPS[d]
    back = (-step[0], -step[1])
    pieces = (cell(*step), cell(2 * step[0], 2 * step[1]), cell(*back))
    # O O _ O with X to move: filling the gap is not X's win, nor any loss for X (it blocks)
    state = position(o=pieces, x=(cell(3 * step[0], 3 * step[1]),), to_move=0)
    assert fired(fs, state, cell(0, 0)) == set()
    # the same pieces with O to move: O's win
    state = position(o=pieces, x=(cell(3 * step[0], 3 * step[1]),), to_move=1)
    assert fired(fs, state, cell(0, 0)) == {WIN, LOSS_END, LOSS_MIDDLE}
    # a broken line X X _ O: only the end-of-two loss
    state = position(x=pieces[:2], o=(pieces[2],))
    assert fired(fs, state, cell(0, 0)) == {LOSS_END}


def test_no_win_where_the_line_leaves_the_board(fs):
    r = -4
    row = [c for c, (rr, _) in enumerate(POSITIONS) if rr == r]  # the bottom edge, 5 cells
    state = position(x=(row[0], row[2], row[3]))  # X _ X X along the edge: row[1] wins
    assert fired(fs, state, row[1]) == {WIN, LOSS_END, LOSS_MIDDLE}
    state = position(x=(row[1], row[2]))  # X X at the corner's side: the corner makes three, no win
    assert fired(fs, state, row[0]) == {LOSS_END}
    state = position(x=(row[1],))  # a move at a corner next to one piece: nothing
    assert fired(fs, state, row[0]) == set()


def oracle(owner_rel, move):
    """(win, loss_end, loss_middle) by counting friendly runs from ``move`` along the six directions."""
    runs = []
    for dr, dc in HEX_STEPS:
        r, c = POSITIONS[move]
        n = 0
        while n < 3:
            r, c = r + dr, c + dc
            if (r, c) not in INDEX or owner_rel[INDEX[(r, c)]] != 1:
                break
            n += 1
        runs.append(n)
    return (any(runs[d] >= 2 and runs[(d + 3) % 6] >= 1 for d in range(6)), any(n >= 2 for n in runs),
            any(runs[d] >= 1 and runs[d + 3] >= 1 for d in range(3)))


def random_positions(count, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = GAME.initial_state()
        plies = int(rng.integers(8, 40))
        for _ in range(plies):
            legal = GAME.legal_moves(state)
            if legal.size == 0:
                break
            state = GAME.play(state, int(rng.choice(legal)))
        if not GAME.is_over(state):
            out.append(state)
    return out


def test_random_positions_agree_with_the_oracle_and_the_rules(fs):
    wins = losses = 0
    for state in random_positions(40, 2019):
        rel = state_owner_relative(GAME.module, GAME.spec, state, GRAPH)
        mover = GAME.to_move(state)
        for move in GAME.legal_moves(state):
            if GAME.module.move_to(GAME.spec, state, int(move)) < 0:
                continue  # the swap move: no cell
            got = tuple(bool(a) for a in active(fs, state, move))
            assert got == oracle(rel, int(move)), (move, got)
            result = GAME.winner(GAME.play(state, int(move)))
            assert got[WIN] == (result == mover)  # every win detected, and only wins
            if result == 1 - mover:  # every loss is detected (and not taken for a win)
                assert (got[LOSS_END] or got[LOSS_MIDDLE]) and not got[WIN]
                losses += 1
            wins += got[WIN]
            if not (got[WIN] or got[LOSS_END] or got[LOSS_MIDDLE]):
                assert result is None or result == 2
    assert wins > 0 and losses > 0  # the positions exercised every feature


def test_winning_move_is_the_argmax(fs, policy):
    # X to move: X X _ X on one line (the gap wins), X X elsewhere (its end would make three)
    x = [cell(0, -2), cell(0, -1), cell(0, 1)]  # the gap (0, 0)
    x += [cell(2, 0), cell(3, 0)]  # X X up the board: (4, 0) makes a three
    o = [cell(-2, 0), cell(-3, 0), cell(-2, 2)]
    state = position(x=x, o=o)
    legal = GAME.legal_moves(state)
    rel = state_owner_relative(GAME.module, GAME.spec, state, GRAPH)
    logits = fs.logits(policy.weights, rel, np.full(legal.size, -1), legal)
    assert set(legal[logits == logits.max()].tolist()) == {cell(0, 0)}
    assert logits.max() == 1000.0  # +3000 win, -1000 for each three inside the four
    assert logits[list(legal).index(cell(4, 0))] == -1000.0
    assert GAME.winner(GAME.play(state, cell(4, 0))) == 1 and GAME.winner(GAME.play(state, cell(0, 0))) == 0


def test_greedy_agent_takes_the_win(policy, tmp_path, monkeypatch):
    from ppalib.agents import Searcher, make_agent
    from ppalib import make_rng
    policy.save(tmp_path)
    monkeypatch.setenv("PPALIB_POLICY_PATH", str(tmp_path))
    state = position(x=[cell(1, -3), cell(1, -2), cell(1, 0)], o=[cell(-2, 0), cell(-3, 1), cell(-1, 3)])
    agent = make_agent("greedy", 1, policy=policy.content_hash)
    assert Searcher(GAME, agent).search(state, make_rng(1)).move == cell(1, -1)


def test_the_hand_made_agent_beats_uct(policy, tmp_path, monkeypatch):
    # The paper's section V-D agent (features in complete playouts) against UCT, both at 200 iterations a move:
    # 10 games, colours alternated; the paper reports 93% (with 30x fewer iterations than UCT).
    from ppalib.agents import make_agent
    from ppalib.experiments import Condition, play_game
    policy.save(tmp_path)
    monkeypatch.setenv("PPALIB_POLICY_PATH", str(tmp_path))
    condition = Condition("yavalath", 5, make_agent("puct", 200, policy=policy.content_hash, biased_playouts=True,
                                                   tree_reuse=True),
                          make_agent("uct", 200, c=2 ** 0.5, tree_reuse=True))
    score = sum(play_game(condition, i, 5)["agent_result"] for i in range(10))
    assert score >= 7, score
