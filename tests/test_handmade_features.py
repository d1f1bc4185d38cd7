"""The hand-made Yavalath features of Soemers, Piette & Browne 2019 (Fig. 9, section V-D;
ppalib/features/handmade.py): each fires exactly where it should on hand-built positions (all six directions, both
ends of a three, the loss patterns, not for the opponent's line, not where the line leaves the board), by the
Python reference matcher and the compiled one; on positions of random games they agree with a line-counting
oracle and with the game's own rules; the policy's logits make a winning move the argmax."""
import numpy as np
import pytest

from ppalib.features import FeatureSet, state_owner_relative
from ppalib.features.artefact import LinearPolicy
from ppalib.features.handmade import (YAVALATH_FEATURES, YAVALATH_GAP_WIN, YAVALATH_WEIGHTS,
                                      yavalath_handmade_policy)
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
    gap = yavalath_handmade_policy(GAME, include_gap_win=True)
    assert len(gap.features) == 4 and gap.content_hash != policy.content_hash
    with pytest.raises(ValueError):
        yavalath_handmade_policy(make_game("hex", 5))


def test_feature_texts_are_canonical(fs):
    assert tuple(f.to_text() for f in fs.features) == YAVALATH_FEATURES


@pytest.mark.parametrize("d", range(6))
def test_win_at_both_ends_of_a_three_every_direction(fs, d):
    step = HEX_STEPS[d]
    a, b, c = line((-2 * step[0], -2 * step[1]), step, 3)  # three through the centre: centre - step .. + step
    end1 = cell(-2 * step[0], -2 * step[1])
    end2 = cell(2 * step[0], 2 * step[1])
    state = position(x=(a, b, c))
    for end in (end1, end2):
        got = fired(fs, state, end)
        assert got == {WIN, LOSS_END}, (d, end, got)  # X X X _ also holds the X X _ of the loss feature
        assert GAME.winner(GAME.play(state, end)) == 0
    # the other cells around the line: next to one piece only -> nothing; beyond the ends -> nothing
    beyond = cell(3 * step[0], 3 * step[1])
    assert fired(fs, state, beyond) == set()


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
    three = line((0, 0), step, 3)
    # O O O with X to move: placing at its end is not X's win, nor any loss for X (they block)
    state = position(o=three, x=(cell(-step[0], -step[1]),), to_move=0)
    assert fired(fs, state, cell(0, 0)) == set()
    # the same three of O's with O to move: O's win
    state = position(o=three, x=(cell(-step[0], -step[1]),), to_move=1)
    assert fired(fs, state, cell(0, 0)) == {WIN, LOSS_END}
    # a broken line X X O: no three behind the move
    state = position(x=three[:2], o=(three[2],))
    assert fired(fs, state, cell(0, 0)) == {LOSS_END}
    state = position(x=(three[0], three[2]), o=(three[1],))
    assert fired(fs, state, cell(0, 0)) == set()


def test_no_win_where_the_line_leaves_the_board(fs):
    # X X X on the bottom edge's first three cells; its end cell beyond them is off the board
    r = -4
    row = [c for c, (rr, _) in enumerate(POSITIONS) if rr == r]
    state = position(x=row[1:4])
    assert fired(fs, state, row[0]) == {WIN, LOSS_END}
    assert fired(fs, state, row[4]) == {WIN, LOSS_END}
    state = position(x=row[0:3])  # against the corner: only one end on the board
    assert fired(fs, state, row[3]) == {WIN, LOSS_END}
    # a move at a corner with its only friend-free directions off the board: nothing
    state = position(x=(row[1],))
    assert fired(fs, state, row[0]) == set()


def test_gap_win_is_not_detected_by_the_papers_three(fs):
    """X X _ X: the move makes four in its middle (a win); the paper's three features see two losses."""
    cells = [cell(0, c) for c in range(-2, 2)]  # a, b, gap, d
    state = position(x=(cells[0], cells[1], cells[3]))
    assert fired(fs, state, cells[2]) == {LOSS_END, LOSS_MIDDLE}
    assert GAME.winner(GAME.play(state, cells[2])) == 0
    gap = yavalath_handmade_policy(GAME, include_gap_win=True).feature_set
    assert fired(gap, state, cells[2]) == {LOSS_END, LOSS_MIDDLE, 3}
    assert gap.features[3].to_text() == YAVALATH_GAP_WIN


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
    return (any(n >= 3 for n in runs), any(n >= 2 for n in runs),
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
    wins = losses = gap_wins = 0
    for state in random_positions(12, 2019):
        rel = state_owner_relative(GAME.module, GAME.spec, state, GRAPH)
        mover = GAME.to_move(state)
        for move in GAME.legal_moves(state):
            got = tuple(bool(a) for a in active(fs, state, move))
            assert got == oracle(rel, int(move)), (move, got)
            result = GAME.winner(GAME.play(state, int(move)))
            if got[WIN]:  # the win feature is never wrong
                assert result == mover
                wins += 1
            if result == 1 - mover:  # every loss is detected (and not taken for a win)
                assert (got[LOSS_END] or got[LOSS_MIDDLE]) and not got[WIN]
                losses += 1
            if result == mover and not got[WIN]:  # the documented blind spot: a four completed in its middle
                assert got[LOSS_END] and got[LOSS_MIDDLE]
                gap_wins += 1
            if not (got[WIN] or got[LOSS_END] or got[LOSS_MIDDLE]):
                assert result is None or result == 2
    assert losses > 0  # the positions exercised the loss features


def test_winning_move_is_the_argmax(fs, policy):
    # X to move: X X X at one place (win at either end), X X elsewhere (a loss), O's threats irrelevant
    x = line((0, -3), (0, 1), 3)  # (0,-2) (0,-1) (0,0): ends (0,-3) and (0,1)
    x += [cell(2, 0), cell(3, 0)]  # X X up the board: (4, 0) would make a three, (1, 0) a four with (0, 0)
    o = [cell(-2, 0), cell(-3, 0), cell(-2, 2)]
    state = position(x=x, o=o)
    legal = GAME.legal_moves(state)
    rel = state_owner_relative(GAME.module, GAME.spec, state, GRAPH)
    logits = fs.logits(policy.weights, rel, np.full(legal.size, -1), legal)
    best = set(legal[logits == logits.max()].tolist())
    assert best == {cell(0, -3), cell(0, 1)}
    assert logits.max() == 2000.0  # +3000 win, -1000 for the X X _ inside X X X _
    assert logits[list(legal).index(cell(4, 0))] == -1000.0
    assert logits[list(legal).index(cell(1, 0))] == -2000.0  # the gap win (0,0) _ (2,0) (3,0), unseen as a win
    assert GAME.winner(GAME.play(state, cell(4, 0))) == 1 and GAME.winner(GAME.play(state, cell(1, 0))) == 0
    for move in best:
        assert GAME.winner(GAME.play(state, move)) == 0


def test_greedy_agent_takes_the_win(policy, tmp_path):
    from ppalib.agents import Searcher, make_agent
    from ppalib import make_rng
    policy.save(tmp_path)
    x = line((1, -3), (0, 1), 3)
    state = position(x=x, o=[cell(-2, 0), cell(-3, 1), cell(-1, 3)])
    agent = make_agent("greedy", 1, policy=policy.content_hash)
    move = Searcher(GAME, agent).search(state, make_rng(1)).move
    assert move in (cell(1, -3), cell(1, 1))
