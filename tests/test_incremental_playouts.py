"""The incremental Gibbs engine (``playout_engine`` 2, ``ppalib.kernels.incremental``) against the literal one.

Three checks, on every game that keeps an incremental legal set, with and without move context (PPA and PPAF):

* after every sampled ply the mover's sum-tree leaves equal ``weight[code]`` of exactly the listed legal moves
  (bit for bit: the incremental refreshes lose nothing);
* the draw from the tree follows the literal law ``weight[code] / z`` (chi-square per position, Bonferroni over
  the positions; the same test rejects a uniform law, so it can fail);
* the adapt step by intervals (``learning.ppa_adapt_incremental``) equals Cazenave 2015's Alg. 4 as transcribed
  in ``tests/reference_mcts.py`` (replaying the playout's moves and listing each ply's moves), to within
  ``ADAPT_TOLERANCE``, on 100 seeded playouts per game and code kind (3,000 playouts), from varied positions,
  each after 0-4 plies played as a search's descent plays its tree's moves (``incremental.tree_ply``); and the
  weights it leaves are libm's ``exp(policy)`` to within one unit in the last place (``learning.exp_in_place``).
"""
import inspect
import math

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from ppalib._rng import make_rng
from ppalib.agents import kernels_for, make_agent, search
from ppalib.games import GAMES, contract, make_game
from ppalib.games._common import H_WINNER, ONGOING, S_MAX_PLIES
from ppalib.kernels import sumtree
from reference_mcts import ReferenceMCTS

# (name, size, options): the games with an incremental legal set, small boards, the swap rules included; Domineering
# also at 8x8 (its bitboard engine's whole 64-bit word) and 9x9 (past the bitboard: the cell-by-cell path)
INCREMENTAL_GAMES = [("go", 5, {}), ("go", 7, {}), ("atarigo", 6, {}), ("atarigo", 5, {"suicide": 0}),
                     ("nogo", 6, {}), ("misere_nogo", 5, {}), ("hex", 5, {}), ("hex", 4, {"swap": 1}),
                     ("gomoku", 7, {}), ("yavalath", 5, {}), ("yavalath", 5, {"swap": 1}), ("domineering", 6, {}),
                     ("misere_domineering", 5, {}), ("domineering", 8, {}), ("domineering", 9, {})]
GAME_IDS = [f"{name}{size}{''.join(f'-{k}{v}' for k, v in options.items())}" for name, size, options in
            INCREMENTAL_GAMES]
# Alg. 4 by intervals sums each code's 1 / z_t in another order than the literal walk, and z_t itself in sum-tree
# order: the policies agree to rounding, far below this (measured: at most 1.4e-15 on Go 5x5, 4.4e-16 elsewhere).
ADAPT_TOLERANCE = 1e-12


def _libm_exp(values):
    """libm's exp (``math.exp``, engine 1's) of each value: numpy's vectorised exp may differ from it by one unit."""
    return np.frompyfunc(math.exp, 1, 1)(values).astype(np.float64)


def _game(name, size, options):
    return make_game(name, size, **options)


def _random_position(game, rng, plies):
    """The start position after up to ``plies`` uniformly random moves (fewer if the game would end)."""
    state = game.initial_state()
    for _ in range(plies):
        moves = game.legal_moves(state)
        if len(moves) == 0:
            break
        following = game.play(state, moves[int(rng.integers(len(moves)))])
        if following[H_WINNER] != ONGOING:
            break
        state = following
    return state


def _random_moves(game, state, rng, plies):
    """Up to ``plies`` uniformly random moves from ``state`` (fewer if the game would end), as int64[]."""
    moves = []
    for _ in range(plies):
        legal = game.legal_moves(state)
        if len(legal) == 0:
            break
        move = int(legal[int(rng.integers(len(legal)))])
        following = game.play(state, move)
        if following[H_WINNER] != ONGOING:
            break
        moves.append(move)
        state = following
    return np.array(moves, dtype=np.int64)


def _listed_leaves(game, state, weight, with_context, slots):
    out = np.empty(game.max_moves, dtype=np.int64)
    n = game.module.legal_moves(game.spec, state.copy(), out)
    leaves = np.zeros(slots)
    for move in out[:n]:
        if move < slots:  # Go's pass is no slot
            leaves[move] = weight[game.module.move_code(game.spec, state, move, with_context)]
    return leaves


@pytest.mark.parametrize("name,size,options", INCREMENTAL_GAMES, ids=GAME_IDS)
@pytest.mark.parametrize("with_context", [False, True], ids=["ppa", "ppaf"])
def test_sum_tree_leaves_equal_the_listed_moves_weights_after_incremental_plies(name, size, options, with_context):
    game = _game(name, size, options)
    kernel = kernels_for(game).incremental
    slots = kernel.num_slots(game.spec)
    weight = np.exp(np.random.default_rng(1).normal(0.0, 1.0, game.num_codes(with_context)))
    rng = make_rng(11)
    checked = 0
    for plies in range(0, 4 * slots, max(1, slots // 8)):
        for _ in range(3):
            counts = np.zeros(slots, dtype=np.int64)
            state, leaves = kernel.tree_after(game.spec, game.initial_state(), rng, weight, with_context, plies, 0,
                                              counts)
            if state[H_WINNER] != ONGOING:
                continue
            np.testing.assert_array_equal(leaves, _listed_leaves(game, state, weight, with_context, slots))
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name,size,options", INCREMENTAL_GAMES, ids=GAME_IDS)
def test_sum_tree_draw_follows_the_literal_gibbs_law_chi_square(name, size, options):
    game = _game(name, size, options)
    kernel = kernels_for(game).incremental
    slots = kernel.num_slots(game.spec)
    weight = np.exp(np.random.default_rng(2).normal(0.0, 1.0, game.num_codes(True)))
    rng = make_rng(12)
    p_values, p_uniform = [], []
    for attempt in range(200):  # 12 positions, of every stage of the game that the seeded playouts reach
        if len(p_values) == 12:
            break
        plies = (attempt * max(1, slots // 6)) % (2 * slots)
        with_context = attempt % 2 == 1
        counts = np.zeros(slots, dtype=np.int64)
        draws = 300 * slots
        state, leaves = kernel.tree_after(game.spec, game.initial_state(), rng, weight, with_context, plies, draws,
                                          counts)
        if state[H_WINNER] != ONGOING:
            continue
        literal = _listed_leaves(game, state, weight, with_context, slots)
        legal = literal > 0
        if legal.sum() < 2:
            continue
        assert counts[~legal].sum() == 0  # never an illegal slot
        expected = draws * literal[legal] / literal[legal].sum()
        p_values.append(chisquare(counts[legal], expected).pvalue)
        p_uniform.append(chisquare(counts[legal], np.full(legal.sum(), draws / legal.sum())).pvalue)
    assert len(p_values) == 12
    assert min(p_values) > 0.001 / len(p_values)  # Bonferroni: a 0.1% family-wise false alarm rate
    assert min(p_uniform) < 0.001 / len(p_uniform)  # the same test tells a wrong law apart


@pytest.mark.parametrize("name,size,options", INCREMENTAL_GAMES, ids=GAME_IDS)
@pytest.mark.parametrize("with_context", [False, True], ids=["ppa", "ppaf"])
def test_adapt_by_intervals_equals_literal_algorithm_4_on_seeded_playouts(name, size, options, with_context):
    game = _game(name, size, options)
    kernel = kernels_for(game).incremental
    numpy_rng = np.random.default_rng(3)
    rng = make_rng(13)
    reference = ReferenceMCTS(game, make_rng(0), 1, 0.4, "ppa", alpha=0.7, with_context=with_context)
    moves = np.empty(game.spec[S_MAX_PLIES] + 1, dtype=np.int64)
    worst = 0.0
    wins = 0
    for playout in range(100):
        root = _random_position(game, numpy_rng, int(numpy_rng.integers(0, 6)))
        # the plies of a search tree's descent before the playout (0-4: counted by intervals from the root)
        prefix = _random_moves(game, root, numpy_rng, int(numpy_rng.integers(0, 5)))
        policy = numpy_rng.normal(0.0, 0.5, game.num_codes(with_context))
        weight = _libm_exp(policy)
        reference.policy = policy.copy()
        plies, winner = kernel.playout_then_adapt(game.spec, root, rng, policy, weight, 0.7, with_context, prefix,
                                                  moves)
        assert np.array_equal(moves[:len(prefix)], prefix)
        reference.adapt_ppa(int(winner), root.copy(), [int(m) for m in moves[:plies]])
        worst = max(worst, float(np.max(np.abs(policy - reference.policy))))
        # the adapted codes' weights (learning.exp_in_place) are libm's exp(policy) to within one unit in the last
        # place
        np.testing.assert_allclose(weight, _libm_exp(policy), rtol=2.0 ** -52, atol=0.0)
        wins += winner in (0, 1)
    assert worst <= ADAPT_TOLERANCE
    assert wins > 0  # some playouts had a winner, whose plies were adapted


def _answers_slot_mask(game, with_context):
    """Whether ``game`` offers the masked playout's ``slot_mask`` for its spec and codes (``incremental.masked_ok``)."""
    module = game.module
    return getattr(module, "slot_mask", None) is not None and bool(module.slot_mask_ok(game.spec, with_context))


@pytest.mark.parametrize("name,size,options", INCREMENTAL_GAMES, ids=GAME_IDS)
@pytest.mark.parametrize("with_context", [False, True], ids=["ppa", "ppaf"])
def test_slot_mask_is_the_legal_slots_and_only_loses_them_on_random_games_where_a_game_answers_it(name, size,
                                                                                                   options,
                                                                                                   with_context):
    """``slot_mask`` has bit ``slot`` exactly where ``slot_code`` finds the slot legal, for both players, after every
    move of 40 random games, and ``slot_mask_after`` gives it from the mask before the move; a slot legal at some
    ply was legal with the same code at every earlier ply (what the masked playout assumes:
    ``contract.slot_mask_ok``)."""
    game = _game(name, size, options)
    if not _answers_slot_mask(game, with_context):
        pytest.skip(f"{name} {size} plays engine 2 with refreshed slots only")
    module = game.module
    for hook in ("slot_mask_ok", "slot_mask", "slot_mask_after"):
        assert (list(inspect.signature(getattr(module, hook).py_func).parameters)
                == list(inspect.signature(getattr(contract, hook)).parameters))
    slots = kernels_for(game).incremental.num_slots(game.spec)
    assert slots <= 64
    rng = np.random.default_rng(9)
    checked = 0
    for _ in range(40):
        state = game.initial_state()
        first_codes = None
        before = None
        while state[H_WINNER] == ONGOING:
            codes = np.array([[module.slot_code(game.spec, state, slot, player, with_context)
                               for slot in range(slots)] for player in range(2)])
            for player in range(2):
                mask = int(module.slot_mask(game.spec, state, player))
                assert mask == sum(1 << slot for slot in range(slots) if codes[player, slot] >= 0)
                if before is not None:
                    assert int(module.slot_mask_after(game.spec, state, move, player, before[player])) == mask
            before = [module.slot_mask(game.spec, state, player) for player in range(2)]
            if first_codes is None:
                first_codes = codes
            legal = codes >= 0
            np.testing.assert_array_equal(codes[legal], first_codes[legal])  # legal now: legal since, same code
            checked += 1
            moves = game.legal_moves(state)
            if len(moves) == 0:
                break
            move = int(moves[int(rng.integers(len(moves)))])
            state = game.play(state, move)
    assert checked >= 200


@pytest.mark.parametrize("name,size,options", INCREMENTAL_GAMES, ids=GAME_IDS)
@pytest.mark.parametrize("with_context", [False, True], ids=["ppa", "ppaf"])
def test_masked_playout_plays_and_adapts_as_the_refreshed_one_bit_for_bit_where_a_game_answers_slot_mask(name, size,
                                                                                                         options,
                                                                                                         with_context):
    """PPA's masked playout (``incremental.masked_playout``: the trees' leaves set to 0 where the game's legal mask
    lost a slot, the intervals read from the masks by ``close_masked``) draws the same moves as ``gibbs_playout``
    from the same generator and leaves the same policy and weights, bit for bit, on 200 seeded playouts from varied
    positions after 0-4 plies of a search's descent."""
    game = _game(name, size, options)
    if not _answers_slot_mask(game, with_context):
        pytest.skip(f"{name} {size} plays engine 2 with refreshed slots only")
    kernel = kernels_for(game).incremental
    numpy_rng = np.random.default_rng(4)
    moves = np.empty(game.spec[S_MAX_PLIES] + 1, dtype=np.int64)
    masked_moves = np.empty_like(moves)
    played = adapted = 0
    for playout in range(200):
        root = _random_position(game, numpy_rng, int(numpy_rng.integers(0, 6)))
        prefix = _random_moves(game, root, numpy_rng, int(numpy_rng.integers(0, 5)))
        policy = numpy_rng.normal(0.0, 0.5, game.num_codes(with_context))
        weight = _libm_exp(policy)
        masked_policy, masked_weight, original = policy.copy(), weight.copy(), policy.copy()
        plies, winner = kernel.playout_then_adapt(game.spec, root, make_rng(100 + playout), policy, weight, 0.7,
                                                  with_context, prefix, moves, False)
        masked = kernel.playout_then_adapt(game.spec, root, make_rng(100 + playout), masked_policy, masked_weight,
                                           0.7, with_context, prefix, masked_moves, True)
        assert masked == (plies, winner)
        np.testing.assert_array_equal(masked_moves[:plies], moves[:plies])
        assert np.array_equal(masked_policy, policy) and np.array_equal(masked_weight, weight)
        adapted += not np.array_equal(policy, original)
        played += plies - len(prefix)
    assert played >= 1000  # the playouts' own plies, drawn with masks
    assert adapted >= 100  # and adapts that changed the policy (a winner's)


# For the pruning test below: a module-level constant, as ``incremental.HAS_SLOT_MASK`` is in a game's kernels.
_NEVER = False


@njit
def _untypable(value):
    return value.no_such_attribute


@njit
def _guarded_by_a_false_constant(value):
    result = 0
    if _NEVER and value > 0:
        result = _untypable(value)
    return result + 1


def test_numba_prunes_a_branch_guarded_by_a_false_module_constant_so_its_calls_are_never_compiled():
    """The mechanism that keeps the masked playout out of the kernels of games without masks: numba drops a branch
    whose test starts with a module-level ``False`` imported by name, before typing, so what it calls is never
    compiled (here a call that could not even be typed)."""
    assert _guarded_by_a_false_constant(1) == 1


def test_every_call_of_the_masked_playout_in_the_kernels_is_guarded_by_the_compile_time_constant():
    """``masked_playout`` and ``close_masked`` are called only inside ``if HAS_SLOT_MASK and ...``, so a game without
    ``slot_mask`` never compiles them (only Domineering's searches run them)."""
    import ast
    from ppalib._specialise import KERNELS_DIR
    calls = 0
    for path in sorted(KERNELS_DIR.glob("*.py")):
        tree = ast.parse(path.read_text())
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and
                    getattr(node.func, "attr", getattr(node.func, "id", None)) in ("masked_playout", "close_masked")):
                continue
            calls += 1
            guard = node
            while guard is not None and not (isinstance(guard, ast.If) and isinstance(guard.test, ast.BoolOp) and
                                             isinstance(guard.test.op, ast.And) and
                                             getattr(guard.test.values[0], "id", None) == "HAS_SLOT_MASK"):
                guard = parents.get(guard)
            assert guard is not None, f"{path.name}:{node.lineno} calls {ast.unparse(node.func)} unguarded"
    assert calls >= 4  # search's two calls and the test kernel's two


def test_playout_engine_is_an_option_of_learned_playouts_left_out_of_ids_at_1():
    assert "playout_engine" not in make_agent("ppa", 100).as_dict()
    assert make_agent("ppa", 100, playout_engine=1) == make_agent("ppa", 100)
    params = make_agent("ppaf", 100, playout_engine=2).as_dict()
    assert params["playout_engine"] == 2
    assert "engine 2" in make_agent("mast", 100, playout_engine=2).label
    for bad in (0, 3, 1.5, True, "2"):
        with pytest.raises(ValueError, match="playout_engine"):
            make_agent("ppa", 100, playout_engine=bad)
    with pytest.raises(ValueError, match="playout_engine"):
        make_agent("uct", 100, playout_engine=2)


@pytest.mark.parametrize("kind,options", [("ppa", {}), ("ppaf", {}), ("mast", {}), ("ppa", {"grave": True}),
                                          ("mastf", {"k": 800.0})])
def test_engine_2_searches_are_deterministic_and_legal(kind, options):
    game = make_game("go", 5)
    root = game.initial_state()
    agent = make_agent(kind, 200, playout_engine=2, **options)
    first = search(game, root, agent, make_rng(5), return_details=True)
    second = search(game, root, agent, make_rng(5), return_details=True)
    assert first.move == second.move and np.array_equal(first.visits, second.visits)
    np.testing.assert_array_equal(first.policy, second.policy)
    assert first.move in game.legal_moves(root)
    assert math.isfinite(first.policy.sum())


def test_engine_2_plays_as_engine_1_where_the_game_keeps_no_incremental_set():
    game = make_game("breakthrough", 5)
    assert kernels_for(game).incremental.num_slots(game.spec) == 0
    root = game.initial_state()
    one = search(game, root, make_agent("ppa", 200), make_rng(6), return_details=True)
    two = search(game, root, make_agent("ppa", 200, playout_engine=2), make_rng(6), return_details=True)
    assert one.move == two.move
    np.testing.assert_array_equal(one.visits, two.visits)
    np.testing.assert_array_equal(one.policy, two.policy)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_defines_all_four_incremental_hooks_with_the_contracts_parameters_or_none(name):
    module = GAMES[name].module
    present = [hook for hook in contract.INCREMENTAL if hasattr(module, hook)]
    assert present in ([], list(contract.INCREMENTAL)), f"{module.__name__} defines only {present}"
    for hook in present:
        ours = getattr(module, hook)
        ours = getattr(ours, "py_func", ours)
        assert list(inspect.signature(ours).parameters) == list(inspect.signature(getattr(contract, hook)).parameters)
    assert (name in {game for game, _, _ in INCREMENTAL_GAMES}) == bool(present)  # every one is checked above


def test_bench_engines_reports_ppa_and_ppaf_cost_vs_uct_with_each_engine(capsys):
    import json

    from ppalib.__main__ import main
    assert main(["bench", "--games", "hex:4", "--playouts", "30", "--repeats", "1", "--json", "--engines",
                 "--no-openspiel"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    costs = {r["agent"]: r["value"] for r in rows if r["metric"] == "cost_vs_uct"}
    assert set(costs) == {"ppa_engine1", "ppa_engine2", "ppaf_engine1", "ppaf_engine2"}
    assert all(value > 0 for value in costs.values())


def test_bench_engines_markdown_table_has_a_line_per_game_with_each_agents_cost():
    from ppalib.bench import engines_table
    rows = [{"game": "hex", "size": 4, "agent": "uct", "metric": "uct_iterations_per_s", "value": 1000.0}]
    rows += [{"game": "hex", "size": 4, "agent": agent, "metric": "cost_vs_uct", "value": value}
             for agent, value in (("ppa_engine1", 3.0), ("ppa_engine2", 1.5), ("ppaf_engine1", 4.0),
                                  ("ppaf_engine2", 2.5))]
    table = engines_table(rows).splitlines()
    assert len(table) == 3
    assert table[2].split(" | ")[3:] == ["3.00", "1.50", "4.00", "2.50", "yes, no |"]


def test_bench_engines_ply_table_puts_each_agents_plies_and_cost_per_ply_on_the_games_line():
    from ppalib.bench import engines_ply_table
    rows = [{"game": "hex", "size": 4, "agent": "uct", "metric": "plies_per_iteration", "value": 10.0}]
    for agent, plies, per_ply in (("ppa_engine2", 20.0, 1.25), ("ppaf_engine2", 5.0, 3.5)):
        rows += [{"game": "hex", "size": 4, "agent": agent, "metric": "plies_per_iteration", "value": plies},
                 {"game": "hex", "size": 4, "agent": agent, "metric": "cost_per_ply_vs_uct", "value": per_ply}]
    rows.append({"game": "go", "size": 5, "agent": "uct", "metric": "plies_per_iteration", "value": 9.0})
    table = engines_ply_table(rows).splitlines()
    assert len(table) == 3  # go lacks the agents' rows: no line
    assert table[2].split(" | ")[2:] == ["10.0", "20.0", "5.0", "1.25", "3.50 |"]


def test_bench_engines_reports_plies_and_cost_per_ply(capsys):
    import json

    from ppalib.__main__ import main
    assert main(["bench", "--games", "hex:4", "--playouts", "30", "--repeats", "1", "--json", "--engines",
                 "--no-openspiel"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    plies = {r["agent"]: r["value"] for r in rows if r["metric"] == "plies_per_iteration"}
    per_ply = {r["agent"]: r["value"] for r in rows if r["metric"] == "cost_per_ply_vs_uct"}
    cost = {r["agent"]: r["value"] for r in rows if r["metric"] == "cost_vs_uct"}
    assert set(plies) == {"uct", "ppa_engine1", "ppa_engine2", "ppaf_engine1", "ppaf_engine2"}
    longest = make_game("hex", 4).spec[S_MAX_PLIES]
    assert all(1.0 <= value <= longest for value in plies.values())
    assert set(per_ply) == set(cost)
    for agent in per_ply:  # one repeat: the per-ply ratio is the iteration ratio times UCT's plies over the agent's
        assert per_ply[agent] == pytest.approx(cost[agent] * plies["uct"] / plies[agent], rel=5e-3), agent


# (Atarigo shares Nogo's branch; its random games end by a capture before a position without a legal point)
@pytest.mark.parametrize("name,size,options", [("go", 5, {}), ("nogo", 5, {}), ("misere_nogo", 5, {})],
                         ids=["go5", "nogo5", "misere_nogo5"])
def test_moves_without_slots_is_legal_moves_wherever_no_slot_is_legal(name, size, options):
    game = _game(name, size, options)
    module = game.module
    assert hasattr(module, "moves_without_slots")
    rng = np.random.default_rng(11)
    slots = module.num_slots(game.spec)
    checked = 0
    for _ in range(300):  # random games to their end; every position without a legal slot for its mover
        state = game.initial_state()
        while True:
            mover = game.to_move(state)
            if all(module.slot_code(game.spec, state, slot, mover, False) < 0 for slot in range(slots)):
                listed, fast = state.copy(), state.copy()
                out_listed = np.empty(game.max_moves, dtype=np.int64)
                out_fast = np.empty(game.max_moves, dtype=np.int64)
                n = module.legal_moves(game.spec, listed, out_listed)
                assert module.moves_without_slots(game.spec, fast, out_fast) == n
                assert np.array_equal(out_fast[:n], out_listed[:n])
                assert np.array_equal(fast, listed)  # the same effect: the game ended, with the same winner
                checked += 1
            moves = game.legal_moves(state)
            if len(moves) == 0:
                break
            state = game.play(state, moves[int(rng.integers(len(moves)))])
    assert checked >= 50


@pytest.mark.parametrize("name,size,options", [("go", 5, {}), ("hex", 5, {}), ("domineering", 6, {})],
                         ids=["go5", "hex5", "domineering6"])
@pytest.mark.parametrize("with_context", [False, True], ids=["ppa", "ppaf"])
def test_restart_from_saved_root_codes_equals_start_after_the_weights_change(name, size, options, with_context):
    # a search fills the trees at its root once (start), then every iteration restarts from the saved codes with the
    # weights the last adapt left, after a playout moved the trees elsewhere: the same trees, codes, intervals and sums
    game = _game(name, size, options)
    kernel = kernels_for(game).incremental
    rng = np.random.default_rng(5)
    root = _random_position(game, rng, 3)
    slots = kernel.num_slots(game.spec)
    size_ = sumtree.leaves_for(slots)
    rows = 2 * (game.spec[S_MAX_PLIES] + 2)

    def buffers():
        return (np.zeros(4 * size_), np.empty(2 * slots, dtype=np.int64), np.empty(2 * slots, dtype=np.int64),
                np.full(rows, 7.0))

    weight = np.exp(rng.normal(0.0, 1.0, game.num_codes(with_context)))
    trees, codes, opened, pref = buffers()
    kernel.start(game.spec, root.copy(), with_context, weight, slots, size_, trees, codes, opened, pref, 0)
    saved = codes.copy()
    trees[:] = rng.random(trees.size) * (trees != 0.0)  # as a playout leaves them: leaves and sums elsewhere
    codes[:] = -1
    opened[:] = 5
    weight *= np.exp(rng.normal(0.0, 0.3, weight.size))  # the adapt changed the weights
    kernel.restart(saved, weight, slots, size_, trees, codes, opened, pref)
    fresh_trees, fresh_codes, fresh_opened, fresh_pref = buffers()
    kernel.start(game.spec, root.copy(), with_context, weight, slots, size_, fresh_trees, fresh_codes, fresh_opened,
                 fresh_pref, 0)
    assert np.array_equal(trees, fresh_trees)  # bit for bit
    assert np.array_equal(codes, fresh_codes) and np.array_equal(opened, fresh_opened)
    row = pref.size // 2
    assert pref[0] == fresh_pref[0] == 0.0 and pref[row] == fresh_pref[row] == 0.0


@pytest.mark.parametrize("name,size,options", [("go", 5, {}), ("go", 7, {}), ("atarigo", 6, {}),
                                               ("atarigo", 5, {"suicide": 0}), ("nogo", 6, {}),
                                               ("misere_nogo", 5, {}), ("hex", 5, {}), ("hex", 4, {"swap": 0}),
                                               ("domineering", 8, {}), ("domineering", 5, {}),
                                               ("misere_domineering", 6, {})],
                         ids=["go5", "go7", "atarigo6", "atarigo5-suicide0", "nogo6", "misere_nogo5", "hex5",
                              "hex4-swap0", "domineering8", "domineering5", "misere_domineering6"])
def test_slot_code_pair_is_slot_code_of_each_player_at_every_slot_of_random_games(name, size, options):
    """The optional ``slot_code_pair`` (Go's family, Hex, Domineering) against ``slot_code`` asked for each player:
    every slot of every position of 150 random games, PPA and PPAF codes (eyes, ko points, strings in atari on the
    way; Domineering's legality from its free-anchor bitboards against the board's two cells; its context bits are
    tested against the cell-by-cell reads in ``test_context_codes.py``)."""
    game = _game(name, size, options)
    module = game.module
    assert (list(inspect.signature(module.slot_code_pair.py_func).parameters)
            == list(inspect.signature(contract.slot_code_pair).parameters))
    rng = np.random.default_rng(5)
    slots = module.num_slots(game.spec)
    checked = 0
    for _ in range(150):
        state = game.initial_state()
        while True:
            for slot in range(slots):
                for with_context in (False, True):
                    pair = module.slot_code_pair(game.spec, state, slot, with_context)
                    assert pair == (module.slot_code(game.spec, state, slot, 0, with_context),
                                    module.slot_code(game.spec, state, slot, 1, with_context))
                    checked += pair[0] >= 0 or pair[1] >= 0
            moves = game.legal_moves(state)
            if len(moves) == 0:
                break
            state = game.play(state, moves[int(rng.integers(len(moves)))])
    assert checked >= 1000


@pytest.mark.parametrize("name", sorted(GAMES))
def test_play_inlined_is_play_on_random_games_where_a_game_defines_it(name):
    """The optional ``play_inlined`` (engine 2's loop inlines it) leaves every position as ``play`` does: the whole
    state array after each move of 30 random games, with the contract's parameters."""
    module = GAMES[name].module
    if getattr(module, "play_inlined", None) is None:
        pytest.skip(f"{name} plays engine 2's moves with play")
    assert (list(inspect.signature(module.play_inlined.py_func).parameters)
            == list(inspect.signature(contract.play_inlined).parameters))
    sizes = [size for game_name, size, options in INCREMENTAL_GAMES if game_name == name and not options]
    assert sizes, f"{name} defines play_inlined: give it a size in INCREMENTAL_GAMES"
    game = make_game(name, sizes[0])
    rng = np.random.default_rng(8)
    moved = 0
    for _ in range(30):
        state = game.initial_state()
        while state[H_WINNER] == ONGOING:
            moves = game.legal_moves(state)
            if len(moves) == 0:
                break
            move = moves[int(rng.integers(len(moves)))]
            played, inlined = state.copy(), state.copy()
            module.play(game.spec, played, move)
            module.play_inlined(game.spec, inlined, move)
            np.testing.assert_array_equal(inlined, played)
            state = played
            moved += 1
    assert moved >= 100
