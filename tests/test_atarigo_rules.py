"""Atarigo's rule options (games/go.py): ``suicide`` (0 illegal, the default; 1 legal and losing) and ``codes``
(0 a PPA/MAST code per colour, the default; 1 one code per move for both colours), on hand-built positions.

Cells are ``row * n + col`` (a1 = 0, b1 = 1, ..., a2 = n); Black (player 0) moves first.
"""
import numpy as np
import pytest

from ppalib._rng import make_rng
from ppalib.agents import make_agent
from ppalib.experiments import Condition, play_game
from ppalib.games import go, make_game
from ppalib.games._common import S_MAX_PLIES, S_VARIANT


def _play(game, cells):
    state = game.initial_state()
    for cell in cells:
        state = game.play(state, cell)
    return state


# Black: c3, e5; White: b1, a2.  a1 (0) is a one-stone suicide for Black: no liberty, no capture.
SINGLE = [12, 1, 24, 5]
# Black a1, c1 and e5, e4; White a2, b2, c2, d1.  b1 (1) joins a1-b1-c1 with no liberty and captures nothing.
MULTI = [0, 5, 2, 6, 24, 7, 19, 3]


def test_go_rule_option_forbids_suicide():
    game = make_game("atarigo", 5, suicide=0)
    for moves, suicide in ((SINGLE, 0), (MULTI, 1)):
        state = _play(game, moves)
        legal = set(game.legal_moves(state).tolist())
        assert suicide not in legal and len(legal) == 25 - len(moves) - 1


@pytest.mark.parametrize("moves,suicide", [(SINGLE, 0), (MULTI, 1)])
def test_suicide_option_makes_every_empty_point_legal_and_a_suicide_loses(moves, suicide):
    game = make_game("atarigo", 5, suicide=1)
    state = _play(game, moves)
    assert game.legal_moves(state).tolist() == [c for c in range(25) if c not in moves]
    assert game.to_move(state) == 0
    after = game.play(state, suicide)
    assert game.winner(after) == 1 and game.legal_moves(after).size == 0
    assert game.module.hash_from_scratch(game.spec, after) == game.hash(after)


@pytest.mark.parametrize("suicide", [0, 1])
def test_a_move_without_liberty_that_captures_wins_under_both_rules(suicide):
    """Black c1, b2; White a2, then b1 (in atari, last liberty a1): Black a1 has no liberty of its own but
    captures b1, and capture comes first: Black wins."""
    game = make_game("atarigo", 5, suicide=suicide)
    state = _play(game, [2, 5, 6, 1])
    assert 0 in set(game.legal_moves(state).tolist())
    assert game.winner(game.play(state, 0)) == 0


def test_a_player_stuck_by_default_must_play_a_losing_suicide_under_the_option():
    """Random 3x3 games under the default rules, until some end with the side to move having no legal move (it
    loses).  The same moves are legal under the option (it only adds suicides), and there the side to move has
    only suicides, each of which loses: the same result."""
    plain, free = make_game("atarigo", 3, suicide=0), make_game("atarigo", 3, suicide=1)
    rng = np.random.default_rng(3)
    stuck = 0
    for _ in range(400):
        state, other = plain.initial_state(), free.initial_state()
        while plain.legal_moves(state).size:
            legal = plain.legal_moves(state)
            assert set(legal.tolist()) <= set(free.legal_moves(other).tolist())
            move = int(legal[rng.integers(legal.size)])
            state, other = plain.play(state, move), free.play(other, move)
            assert plain.hash(state) == free.hash(other)
        if free.winner(other) is not None:  # a capture ended both games
            assert free.winner(other) == plain.winner(state)
        else:  # the default game ended with the side to move stuck
            stuck += 1
            loser = plain.to_move(state)
            assert plain.winner(state) == 1 - loser
            for move in free.legal_moves(other):
                assert free.winner(free.play(other, int(move))) == 1 - loser
    assert stuck > 0


def test_random_move_under_the_option_is_uniform_over_the_empty_points():
    from scipy.stats import chisquare
    game = make_game("atarigo", 5, suicide=1)
    state = _play(game, SINGLE)
    out, rng = np.empty(game.max_moves, dtype=np.int64), make_rng(5)
    draws = [int(game.module.random_move(game.spec, state, rng, out)) for _ in range(20_000)]
    legal = game.legal_moves(state).tolist()
    assert set(draws) == set(legal)
    assert chisquare([draws.count(m) for m in legal]).pvalue > 1e-3


def test_shared_codes_give_both_colours_one_code_per_move():
    per_colour, shared = make_game("atarigo", 5), make_game("atarigo", 5, codes=1)
    black, white = per_colour.initial_state(), _play(per_colour, [12])
    assert per_colour.move_code(black, 3) == 3 and per_colour.move_code(white, 3) == 26 + 3
    assert shared.move_code(black, 3) == shared.move_code(_play(shared, [12]), 3) == 3
    # feature codes keep the pattern, relative to the mover
    assert shared.move_code(_play(shared, [12]), 7, with_context=True) == 256 * 7 + 4 ** 3 * 2


def test_options_are_checked_and_only_atarigo_has_them():
    with pytest.raises(ValueError, match="suicide=2 must be 0"):
        make_game("atarigo", 5, suicide=2)
    with pytest.raises(ValueError, match="go has no option"):
        make_game("go", 5, suicide=1)
    with pytest.raises(ValueError, match="only for Atarigo"):
        go.make_spec(5, go.VARIANT_NOGO, suicide=1)
    assert make_game("atarigo", 5, suicide=0).spec[S_VARIANT] == go.VARIANT_ATARI
    assert make_game("atarigo", 5).spec[S_VARIANT] == go.VARIANT_ATARI | go.VARIANT_ATARI_SUICIDE  # the default
    assert make_game("atarigo", 5, suicide=1, codes=1).spec[S_VARIANT] == (
        go.VARIANT_ATARI | go.VARIANT_ATARI_SUICIDE | go.VARIANT_SHARED_CODES)


def test_condition_ids_change_only_when_an_option_is_given():
    ppa, uct = make_agent("ppa", 1000), make_agent("uct", 1000)
    assert Condition("atarigo", 5, ppa, uct).id == "20c53409a909da66"   # the committed ppa2015 cell's id
    with_option = Condition("atarigo", 5, ppa, uct, game_options=(("suicide", 1),))
    assert with_option.id != Condition("atarigo", 5, ppa, uct).id


#: Games of the Go family played by the code before the options existed (commit 0715b3f): the options must
#: leave the other games' random draws untouched.  (Atarigo's default became suicide=1, so its games changed, and
#: with suicide=0 its conditions have other ids, hence other games: its committed cells were rerun.)  (game, size, agent kind, condition id, games 0 and 1,
#: 64 playouts against UCT(64), seed 7.)
PINNED = [
    ('go', 5, 'ppa', 'a50c4e1db7ee4ee8',
     ('2 3 19 17 7 18 12 15 6 16 14 5 8 4 0 11 13 10 23 21 9 3 4 1 22 24 23 22 0 24 1 3 0 1 2 4 6 0 7 9 8 14 12 13 2 6 7 8 25 12 2 7 25 25',
      '6 5 11 14 16 21 2 8 18 3 17 0 4 12 10 19 1 22 0 7 23 15 20 9 21 13 24 25 4 3 7 8 9 12 13 3 8 14 19 25 25')),
    ('nogo', 5, 'ppaf', '4b94e58a97f7acb6',
     ('8 10 0 1 2 24 21 12 4 18 14 6 16 13 15 22 11 7 17 19 3 23',
      '4 1 21 9 20 8 23 15 18 24 14 5 12 2 16 17 6 0 7 10 11 13')),
    ('misere_nogo', 5, 'mast', '0d7d006d6879cc67',
     ('18 4 9 8 14 11 6 22 20 1 2 15 21 19 16 7 13 23 12 24 5',
      '1 11 18 3 8 4 10 16 7 19 17 6 9 14 13 21 15 24 22 12 0 5'))
]


@pytest.mark.parametrize("game,size,kind,condition_id,moves", PINNED)
def test_default_rules_play_the_games_they_played_before_the_options(game, size, kind, condition_id, moves):
    condition = Condition(game, size, make_agent(kind, 64), make_agent("uct", 64))
    assert condition.id == condition_id
    assert tuple(play_game(condition, i, 7)["moves"] for i in range(2)) == moves


@pytest.mark.parametrize("size", [3, 5, 8])
@pytest.mark.parametrize("options", [{"suicide": 1}, {"codes": 1}, {"suicide": 1, "codes": 1}])
def test_random_games_with_options_end_and_keep_hash_and_codes_consistent(size, options):
    game = make_game("atarigo", size, **options)
    rng = np.random.default_rng(size)
    for _ in range(30):
        state = game.initial_state()
        while (legal := game.legal_moves(state)).size:
            assert all(0 <= game.move_code(state, int(m), f) < game.num_codes(f) for m in legal for f in (0, 1))
            state = game.play(state, int(legal[rng.integers(legal.size)]))
            assert game.module.hash_from_scratch(game.spec, state) == game.hash(state)
        assert game.winner(state) in (0, 1) and game.ply(state) <= game.spec[S_MAX_PLIES]
