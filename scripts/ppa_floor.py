"""A floor under PPA's and PPAF's cost per iteration, against issue 25's target (at most 2x UCT's), per game.

Whatever its sampler, an exact engine for Cazenave's Gibbs playouts (2015, Alg. 3-4; 2016) does, each iteration,
at least

* what UCT's search tree does (UCT's iteration less its plies at the cost of a uniform random playout's ply);
* play each of its plies (``play``, timed by replaying recorded games);
* one ``exp`` for each code its adapt updates (the distinct codes legal at some ply of the winner's);

and, at each playout ply, a draw from the legal moves' weights and, for each (slot, player) whose code changes (a
move made illegal, a neighbour's pattern for PPAF), a read of the new code's weight into the sampler. The first
three make the floor without the sampler; what 2x UCT's iteration leaves after it, per ply, is all the draw and the
code changes may cost ("left a ply for the sampler"). A sum tree's cheapest cost for them is timed here alone: a
draw whose turns are always the same (a walk with a branch a level, as ``sumtree.draw`` was until dc33b43, has every
one predicted; the walks since, without branches, two levels a step and three since 74d8c48, cost the same on any
turns), and per code change one weight read and one leaf's update, without the interval totals of the adapt (which
any engine needs in some form, so leaving them out keeps the floor low). A cell whose floor without the sampler
exceeds 2x UCT's iteration is out of reach for any exact engine; one whose left time is less than the sum tree's
minimum is out of reach on a sum tree; the others are within reach, and the agent's time a ply above the floor says
how much it spends on what the floor leaves out (the codes' computation, the dirty lists, the records, the restart
of the sum trees at the root, the adapt's bookkeeping). Small overcharges remain: a draw is charged at the tree's
descent plies too, a few an iteration, each 5-8 ns.

The code changes per ply are counted in uniform random playouts (learned playouts differ in length, and a little in
which moves they play), every slot's codes compared before and after each move; codes adapted are counted per
recorded game, draws included.  Searches are interleaved (UCT, PPA, PPAF, in turn, ``--repeats`` times) from the
start position, medians of time per iteration; plies per iteration are means.  The codes timed are drawn from as
many as a game meets (its working set, in the cache), so that the floor is low.  From the repository's root, with
the package importable:

    python scripts/ppa_floor.py                       # the games of issue 25's target
    python scripts/ppa_floor.py --games hex:11 --repeats 5
    python scripts/ppa_floor.py --in-situ             # and the draw's cost inside engine 2's own searches

The draw timed alone has its turns predicted; in a search the learned weights leave some to chance.  With
``--in-situ`` the script also times the draw where it runs: it copies the imported package twice into a temporary
folder and patches engine 2's playout (``ppalib/kernels/incremental.py``, ``gibbs_playout``) so that each ply
drawn from a sum tree also takes a number in [0, 1) from a generator of its own (an LCG, not the search's rng, so
the games stay the same), and in the second copy a second draw from the same tree with it; what they produce is
written to ``scratch[0]`` at the playout's end (a buffer every user writes before reading), so the compiler keeps
the work.  ``scripts/search_time.py`` runs the same search from each copy and from the package itself in turn
(``--in-situ-rounds`` times; each copy compiles once, in its own numba cache); the digests of the three must be
the same.  The second copy's time less the first's, per ply, is the draw's own cost in the search; with the
random number the draw needs (``random_float``, timed alone) and the code changes it becomes the sum tree's
sampler in situ, against the same time left a ply.
"""
import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from numba import njit

from ppalib import make_rng
from ppalib._rng import random_float, random_index
from ppalib.agents import make_agent
from ppalib.bench import ENGINE_TARGET as TARGET, interleaved_searches, median_time
from ppalib.games import make_game
from ppalib.games._common import H_TO_MOVE, H_WINNER, ONGOING, S_MAX_MOVES
from ppalib.kernels import sumtree

CHANGES_TIMED = 8  # code changes a ply in the timing of a change's cost (8 a ply: less noise than 1 or 2)
GAMES = ("go:8", "atarigo:8", "nogo:8", "domineering:8", "hex:11", "gomoku:15", "yavalath:5", "fanorona:5")
SEARCH_TIME = Path(__file__).resolve().parent / "search_time.py"

# Engine 2's playout as the in-situ copies patch it: the loop's head (a generator of the probe's own and a sink
# before it), the draw from the mover's sum tree (the probe's number, and a second draw, after it) and the end
# (the sink written where nothing reads it before writing).
_LOOP_HEAD = "    row = pref.size // 2\n    while state[H_WINNER] == ONGOING and nseq < stop:\n"
_DRAW = "            slot = sumtree.draw(trees, 2 * mover * size, size, random_float(rng) * z)\n"
_END = "    return nseq\n"
_NUMBER = ("            shadow = shadow * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)\n"
           "            u = np.float64(shadow >> np.uint64(11)) * (1.0 / 9007199254740992.0)\n")
_PROBES = {"number": "            sink += u * z\n",
           "draw": "            sink += sumtree.draw(trees, 2 * mover * size, size, u * z)\n"}


def _game_kernels(module):
    """Recording, replaying and change-counting loops compiled against one game module's functions (a script's
    closures: compiled each run, never cached)."""
    init_state, legal_moves, play, random_move = module.init_state, module.legal_moves, module.play, module.random_move
    slot_code = getattr(module, "slot_code", None)

    @njit
    def record(spec, playouts, seed, plies_room):
        """``playouts`` uniform random games from the start: their moves end to end, and each game's offset."""
        np.random.seed(seed)
        out = np.empty(plies_room, dtype=np.int64)
        offsets = np.zeros(playouts + 1, dtype=np.int64)
        buffer = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
        k = 0
        for p in range(playouts):
            state = init_state(spec)
            while state[H_WINNER] == ONGOING:
                n = legal_moves(spec, state, buffer)
                if n == 0:
                    break
                move = buffer[np.random.randint(n)]
                out[k] = move
                k += 1
                play(spec, state, move)
            offsets[p + 1] = k
        return out[:k], offsets

    @njit
    def replay(spec, moves, offsets, rounds, with_play):
        """Replay every recorded game ``rounds`` times from a copy of the start (``with_play`` False: the copies
        and the loop alone, to net them out)."""
        root = init_state(spec)
        state = root.copy()
        check = 0
        for _ in range(rounds):
            for p in range(offsets.size - 1):
                state[:] = root
                for i in range(offsets[p], offsets[p + 1]):
                    if with_play:
                        play(spec, state, moves[i])
                    else:
                        state[i % state.size] += moves[i]
                check += state[H_WINNER]
        return check

    @njit
    def random_playouts(spec, count, rng):
        """``count`` uniform random playouts from the start as UCT's are played (``random_move``, ``play``): the
        plies played."""
        root = init_state(spec)
        state = root.copy()
        buffer = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
        plies = 0
        for _ in range(count):
            state[:] = root
            while state[H_WINNER] == ONGOING:
                move = random_move(spec, state, rng, buffer)
                if move < 0:
                    break
                play(spec, state, move)
                plies += 1
        return plies

    @njit
    def changes(spec, moves, offsets, slots, with_context, ncodes):
        """(slot, player) code changes after each move that leaves the game going, the plies played, and the
        distinct codes legal at some ply of the winner's (those Alg. 4 updates) summed over the games (a draw
        adapts none), and the mean number of distinct codes a game meets (both players': its working
        set)."""
        root = init_state(spec)
        state = root.copy()
        current = np.empty(2 * slots, dtype=np.int64)
        seen = np.full(2 * ncodes, -1, dtype=np.int64)
        distinct = np.zeros(2, dtype=np.int64)
        buffer = np.empty(spec[S_MAX_MOVES], dtype=np.int64)
        total = 0
        plies = 0
        touched = 0
        working = 0
        for p in range(offsets.size - 1):
            state[:] = root
            distinct[:] = 0
            for j in range(2 * slots):
                current[j] = slot_code(spec, state, j % slots, j // slots, with_context)
            for i in range(offsets[p], offsets[p + 1]):
                mover = state[H_TO_MOVE]
                for j in range(mover * slots, (mover + 1) * slots):
                    code = current[j]
                    if code >= 0 and seen[mover * ncodes + code] != p:
                        seen[mover * ncodes + code] = p
                        distinct[mover] += 1
                play(spec, state, moves[i])
                plies += 1
                if state[H_WINNER] != ONGOING:
                    break
                for j in range(2 * slots):
                    code = slot_code(spec, state, j % slots, j // slots, with_context)
                    if code != current[j]:
                        total += 1
                        current[j] = code
            working += distinct[0] + distinct[1]
            if state[H_WINNER] == ONGOING:  # a stuck mover's loss is written by legal_moves
                legal_moves(spec, state, buffer)
            if state[H_WINNER] == 0 or state[H_WINNER] == 1:
                touched += distinct[state[H_WINNER]]
        return total, plies, touched, working / (offsets.size - 1)

    return record, replay, random_playouts, (changes if slot_code is not None else None)


@njit
def _sampler_plies(tree, size, slots, weight, plies, per_ply, rng, work, draw):
    """``plies`` plies of the sampler's floor: ``per_ply`` code changes (a random slot's leaf set to a random
    code's weight) and, with ``draw``, one draw whose turns are always the same.  Without ``work`` the same random
    numbers only (to net them out).  The codes are drawn from ``weight.size``, the few a playout meets, so that
    every access hits the cache."""
    ncodes = weight.size
    check = 0.0
    for _ in range(plies):
        for _ in range(per_ply):
            slot = random_index(rng, slots)
            code = random_index(rng, ncodes)
            if work:
                sumtree.set_leaf(tree, 0, size, slot, weight[code])
            else:
                check += slot + code
        if draw:
            check += sumtree.draw(tree, 0, size, 0.37 * tree[1])
    return check


@njit
def _exp_updates(policy, weight, count, rng, work):
    """``count`` updates of a random code's policy and its cached weight ``exp(policy)`` (the adapt's last step,
    ``learning._ppa_apply``); without ``work`` the random numbers alone."""
    check = 0.0
    for i in range(count):
        code = random_index(rng, policy.size)
        if work:
            policy[code] -= 1e-3
            weight[code] = math.exp(policy[code])
        else:
            check += code
    return check + weight[0]


def _median_ns(function, per, rounds=5):
    """Median ns per unit of ``rounds`` calls of ``function`` (after one to warm up), each doing ``per`` units."""
    return median_time(function, rounds) / per * 1e9


def sampler_costs(slots, working, per_ply, plies=200_000):
    """(ns a ply of the draw alone, on a tree that does not change; ns a code change, without a draw), net of the
    random numbers, with ``working`` codes."""
    rng = make_rng(3)
    size = sumtree.leaves_for(slots)
    tree = np.zeros(2 * size)
    tree[size:size + slots] = np.exp(np.random.default_rng(4).normal(size=slots))
    sumtree.rebuild(tree, 0, size)
    weight = np.exp(np.sin(np.arange(working) * 1.0))

    def run(count, changes, work, draw):
        return lambda: _sampler_plies(tree, size, slots, weight, count, changes, rng, work, draw)

    draw_ns = _median_ns(run(plies, 0, True, True), plies)
    changes = _median_ns(run(plies, per_ply, True, False), plies)
    rng_only = _median_ns(run(plies, per_ply, False, False), plies)
    return draw_ns, (changes - rng_only) / per_ply


def exp_cost(working, count=2_000_000):
    """ns an adapted code's ``exp``, net of the random numbers, over ``working`` codes."""
    rng = make_rng(5)
    policy = np.sin(np.arange(working) * 1.0)
    weight = np.ones(working)
    return (_median_ns(lambda: _exp_updates(policy, weight, count, rng, True), count)
            - _median_ns(lambda: _exp_updates(policy, weight, count, rng, False), count))


@njit
def _random_floats(rng, count, work):
    """``count`` draws of ``random_float`` summed (``work``), or the loop alone."""
    total = 0.0
    for i in range(count):
        total += random_float(rng) if work else i * 1e-9
    return total


def rng_cost(count=5_000_000):
    """ns a ``random_float``, the number each Gibbs draw takes, net of its loop."""
    rng = make_rng(6)
    return (_median_ns(lambda: _random_floats(rng, count, True), count)
            - _median_ns(lambda: _random_floats(rng, count, False), count))


def patched_copies(folder):
    """{"number": path, "draw": path}: copies of the imported package whose engine-2 playout takes a number of its
    own a ply drawn from a sum tree, and in "draw" makes a second draw with it (the module's docstring)."""
    import ppalib
    source = Path(ppalib.__file__).resolve().parent
    copies = {}
    for name, probe in _PROBES.items():
        target = Path(folder) / name
        shutil.copytree(source, target / "ppalib", ignore=shutil.ignore_patterns("__pycache__"))
        path = target / "ppalib" / "kernels" / "incremental.py"
        text = path.read_text()
        for old, new in ((_LOOP_HEAD, "    shadow = np.uint64(nseq) + np.uint64(0x9E3779B97F4A7C15)\n"
                                      "    sink = 0.0\n" + _LOOP_HEAD),
                         (_DRAW, _DRAW + _NUMBER + probe),
                         (_END, "    scratch[0] = sink\n" + _END)):
            if text.count(old) != 1:
                raise SystemExit(f"engine 2's playout is not as this probe knows it: {old.strip()!r} should occur "
                                 f"once in {path}")
            text = text.replace(old, new)
        path.write_text(text)
        copies[name] = target
    return copies


def _search_time(package_parent, name, size, kind, playouts, searches):
    """(us an iteration, digest, plies an iteration) of ``scripts/search_time.py`` run on the package found in
    ``package_parent`` (None: the one imported here), from a folder without a package of its own."""
    import ppalib
    parent = Path(ppalib.__file__).resolve().parent.parent if package_parent is None else package_parent
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(parent), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    if package_parent is not None:
        check = subprocess.run([sys.executable, "-c", "import ppalib; print(ppalib.__file__)"], env=env,
                               cwd=tempfile.gettempdir(), capture_output=True, text=True, check=True).stdout
        if not check.startswith(str(package_parent)):
            raise SystemExit(f"the patched copy in {package_parent} is not the package imported ({check.strip()})")
    out = subprocess.run([sys.executable, str(SEARCH_TIME), name, str(size), kind, "2", str(playouts), str(searches)],
                         env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True, check=True).stdout
    fields = out.strip().splitlines()[-1].split()  # its last line: the figures (anything printed before is not)
    return float(fields[3]), fields[6], float(fields[10])


def draw_in_situ(cells, playouts, searches, rounds, folder):
    """Per (game:size, agent) of ``cells``: us an iteration of the package and of its two patched copies (medians
    of ``rounds`` runs in turn), plies an iteration, and the draw's ns a ply in the search (the "draw" copy's time
    less the "number" copy's).  Refuses a copy whose searches differ from the package's (digests)."""
    copies = patched_copies(folder)
    found = {}
    for name, size, kind in cells:
        times = {"package": [], "number": [], "draw": []}
        digests, plies = set(), set()
        for _ in range(rounds):
            for variant, parent in (("package", None), ("number", copies["number"]), ("draw", copies["draw"])):
                us, digest, per_iteration = _search_time(parent, name, size, kind, playouts, searches)
                times[variant].append(us)
                digests.add(digest)
                plies.add(per_iteration)
        if len(digests) != 1 or len(plies) != 1:
            raise SystemExit(f"{name}:{size} {kind}: the patched copies' searches differ from the package's "
                             f"(digests {sorted(digests)})")
        medians = {variant: statistics.median(values) for variant, values in times.items()}
        per_iteration = plies.pop()
        found[(f"{name}:{size}", kind)] = dict(
            package_us=medians["package"], number_us=medians["number"], draw_us=medians["draw"], plies=per_iteration,
            draw_ns=(medians["draw"] - medians["number"]) * 1000 / per_iteration, runs=times)
    return found


def searches(game, playouts, repeats):
    """Interleaved searches of the start position (``bench.interleaved_searches``, plain rounds: the stored floor
    runs were timed so; primed rounds, ``bench --engines``' default since 2026-11-29, take the cost of a pause off
    each search, ``scripts/cold_start.py``): per agent, (median us an iteration, mean plies an iteration)."""
    agents = {"uct": make_agent("uct", playouts),
              "ppa": make_agent("ppa", playouts, playout_engine=2),
              "ppaf": make_agent("ppaf", playouts, playout_engine=2)}
    seconds, plies = interleaved_searches(game, game.initial_state(), list(agents.values()), repeats, make_rng(1),
                                          primed=False)
    return {kind: (statistics.median(seconds[i]) / playouts * 1e6, sum(plies[i]) / (playouts * repeats))
            for i, kind in enumerate(agents)}


def measure(name, size, playouts, repeats, recorded):
    game = make_game(name, size)
    module, spec = game.rule.module, game.spec
    record, replay, random_playouts, changes = _game_kernels(module)
    moves, offsets = record(spec, recorded, 11, recorded * 4096)
    rounds = max(1, 2_000_000 // max(1, moves.size))
    per = moves.size * rounds
    play_ns = (_median_ns(lambda: replay(spec, moves, offsets, rounds, True), per)
               - _median_ns(lambda: replay(spec, moves, offsets, rounds, False), per))
    rng = make_rng(9)
    count = max(1, rounds * recorded)
    plies_random = random_playouts(spec, count, rng)
    random_ns = _median_ns(lambda: random_playouts(spec, count, rng), plies_random)
    measured = searches(game, playouts, repeats)
    uct_us, uct_plies = measured["uct"]
    # UCT's iteration less its plies' random playout moves (its descent's plies play but draw nothing, so this
    # takes a little too much away): the search tree's own part, which PPA's iteration has too.
    tree_us = max(0.0, uct_us - uct_plies * random_ns / 1000)
    rows = []
    slots = module.num_slots(spec) if changes is not None else 0
    for kind, with_context in (("ppa", False), ("ppaf", True)):
        us, plies = measured[kind]
        if changes is not None and slots > 0:
            ncodes = game.num_codes(with_context)
            total, counted, touched, working = changes(spec, moves, offsets, slots, with_context, ncodes)
            working = max(1, round(working))
            per_ply = total / counted
            adapted = touched / recorded
            draw_ns, change_ns = sampler_costs(slots, working, CHANGES_TIMED)
            exp_ns = exp_cost(working)
        else:  # no incremental slots (the learned playouts list the moves each ply): play alone
            per_ply = adapted = working = draw_ns = change_ns = exp_ns = float("nan")
        # What any exact engine does: the search tree (UCT's), each ply's play, each adapted code's exp.
        fixed_us = tree_us + plies * play_ns / 1000 + (0.0 if math.isnan(adapted) else adapted * exp_ns / 1000)
        budget_ns = (TARGET * uct_us - fixed_us) * 1000 / plies  # left a ply for the draw and the code changes
        sum_tree_ns = draw_ns + per_ply * change_ns
        if us <= TARGET * uct_us:
            verdict = "met"
        elif budget_ns <= 0:
            verdict = "out of reach"
        elif math.isnan(sum_tree_ns):
            verdict = "not excluded (no slots: no sum tree timed)"
        elif sum_tree_ns > budget_ns:
            verdict = "out of reach on a sum tree"
        else:
            verdict = "within reach"
        rows.append(dict(game=f"{name}:{size}", agent=kind, uct_us=uct_us, uct_plies=uct_plies, tree_us=tree_us,
                         agent_us=us, plies=plies, play_ns=play_ns, changes=per_ply, working=working,
                         adapted=adapted, exp_ns=exp_ns, draw_ns=draw_ns, change_ns=change_ns, fixed_us=fixed_us,
                         budget_ns=budget_ns, sum_tree_ns=sum_tree_ns, rest_ns=(us - fixed_us) * 1000 / plies,
                         verdict=verdict))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), metavar="GAME:SIZE")
    parser.add_argument("--playouts", type=int, default=3000, help="iterations of each search (default 3000)")
    parser.add_argument("--repeats", type=int, default=7, help="interleaved searches of each agent (default 7)")
    parser.add_argument("--recorded", type=int, default=200, help="random games counted and replayed (default 200)")
    parser.add_argument("--in-situ", action="store_true",
                        help="also time the draw inside engine 2's searches (patched copies; the docstring)")
    parser.add_argument("--in-situ-rounds", type=int, default=5,
                        help="runs of the package and of each copy, in turn, per cell (default 5)")
    parser.add_argument("--in-situ-searches", type=int, default=5,
                        help="searches (seeds 0..n-1, median) of each run (default 5)")
    args = parser.parse_args()
    for value, name in ((args.playouts, "--playouts"), (args.repeats, "--repeats"), (args.recorded, "--recorded"),
                        (args.in_situ_rounds, "--in-situ-rounds"), (args.in_situ_searches, "--in-situ-searches")):
        if value < 1:
            parser.error(f"{name} must be at least 1, got {value}")
    cells = []
    for text in args.games:
        name, _, size = text.partition(":")
        if not size.isdigit():
            parser.error(f"--games takes GAME:SIZE, got {text!r}")
        make_game(name, int(size))  # a bad name or size fails here, before any work
        cells.append((name, int(size)))
    rows = [r for name, size in cells for r in measure(name, size, args.playouts, args.repeats, args.recorded)]
    print("### What was measured\n")
    print("| game | agent | UCT us/it (plies/it) | UCT's tree us/it | agent us/it (x UCT) | agent plies/it | play ns/ply | "
          "code changes/ply | codes met/game | codes adapted/it | exp ns | draw ns | ns/change |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['game']} | {r['agent']} | {r['uct_us']:.2f} ({r['uct_plies']:.1f}) | {r['tree_us']:.2f} | "
              f"{r['agent_us']:.2f} ({r['agent_us'] / r['uct_us']:.2f}) | {r['plies']:.1f} | {r['play_ns']:.1f} | "
              f"{r['changes']:.2f} | {r['working']:.0f} | {r['adapted']:.0f} | {r['exp_ns']:.1f} | "
              f"{r['draw_ns']:.1f} | {r['change_ns']:.1f} |")
    print("\n### Against the target (the agent's iteration at most 2x UCT's)\n")
    print("| game | agent | floor without the sampler us/it (x UCT) | left a ply for the sampler ns | "
          "sum tree's sampler ns/ply | the agent's ns/ply above the floor | target |")
    print("|---|---|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r['game']} | {r['agent']} | {r['fixed_us']:.2f} ({r['fixed_us'] / r['uct_us']:.2f}) | "
              f"{r['budget_ns']:.1f} | {r['sum_tree_ns']:.1f} | {r['rest_ns']:.1f} | {r['verdict']} |")
    if args.in_situ:
        cells = [(r["game"].split(":")[0], int(r["game"].split(":")[1]), r["agent"]) for r in rows
                 if not math.isnan(r["changes"])]
        with tempfile.TemporaryDirectory() as folder:
            found = draw_in_situ(cells, args.playouts, args.in_situ_searches, args.in_situ_rounds, folder)
        rng_ns = rng_cost()
        print(f"\n### The draw in engine 2's own searches (--in-situ: {args.in_situ_rounds} runs in turn of "
              f"{args.in_situ_searches} searches each; a random_float {rng_ns:.1f} ns)\n")
        print("| game | agent | package us/it | + number us/it | + number and draw us/it | plies/it | draw in situ "
              "ns/ply | draw alone ns | sum tree's sampler in situ ns/ply | left a ply ns | target |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for r in rows:
            f = found.get((r["game"], r["agent"]))
            if f is None:
                continue
            sampler = rng_ns + f["draw_ns"] + r["changes"] * r["change_ns"]
            if r["verdict"] in ("met", "out of reach"):
                verdict = r["verdict"]
            else:
                verdict = "out of reach on a sum tree" if sampler > r["budget_ns"] else "within reach"
            print(f"| {r['game']} | {r['agent']} | {f['package_us']:.2f} | {f['number_us']:.2f} | {f['draw_us']:.2f} | "
                  f"{f['plies']:.1f} | {f['draw_ns']:.1f} | {r['draw_ns']:.1f} | {sampler:.1f} | "
                  f"{r['budget_ns']:.1f} | {verdict} |")
        print("\nEach run's us an iteration (package / number / number and draw):\n")
        for (game, kind), f in found.items():
            print(f"- {game} {kind}: " + " / ".join(", ".join(f"{t:.2f}" for t in f["runs"][v])
                                                     for v in ("package", "number", "draw")))


if __name__ == "__main__":
    main()
