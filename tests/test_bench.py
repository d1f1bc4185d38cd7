"""A smoke run of the benchmark so it cannot rot (tiny budgets; no timing is asserted)."""
import json

from ppalib.__main__ import main


def test_bench_smoke_prints_one_json_object_per_metric(capsys):
    assert main(["bench", "--games", "breakthrough", "--size", "6", "--playouts", "50",
                 "--repeats", "1", "--json", "--compile"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    metrics = {(r["game"], r["metric"]) for r in rows}
    for game in ("breakthrough",):
        for metric in ("random_playouts_per_s", "uct_iterations_per_s", "ppa_iterations_per_s", "ppa_cost_vs_uct"):
            assert (game, metric) in metrics
    for metric in ("ratio_uct_vs_openspiel", "ratio_uct_vs_openspiel_primed"):  # OpenSpiel: a dev dependency
        assert ("breakthrough", metric) in metrics
    assert {"compile_cold_s", "first_move_warm_s"} <= {r["metric"] for r in rows}
    assert all(r["value"] > 0 for r in rows)
    # A literal argument compiles a function a second time (ppalib._noalloc): never the game's kernels, whose
    # compile takes seconds each.  Small helpers called with literal constants on purpose may appear.
    recompiled = next(r["recompiled"] for r in rows if r["metric"] == "compile_cold_s")
    kernels = {f"ppalib_kernels__breakthrough.{name}" for name in (
        "search.run_iterations", "incremental.gibbs_playout", "incremental.start", "incremental.restart",
        "incremental.close_all", "playout.uniform", "playout.uniform_coded")}
    kernels |= {"ppalib.kernels.learning.exp_in_place", "ppalib.kernels.learning.ppa_adapt_incremental",
                "ppalib.features.matcher.move_logits", "ppalib.games.breakthrough.play_random_playout"}
    assert not kernels & set(recompiled), recompiled


def test_bench_rejects_bad_input(capsys):
    assert main(["bench", "--games", "chess"]) == 2
    assert main(["bench", "--games", "go", "--repeats", "0"]) == 2


def test_bench_profile_splits_a_playout_move_into_its_parts(capsys):
    assert main(["bench", "--games", "nogo", "--size", "5", "--playouts", "50", "--repeats", "1", "--json",
                 "--no-openspiel", "--profile"]) == 0
    rows = {r["metric"]: r["value"] for r in map(json.loads, capsys.readouterr().out.splitlines())}
    for metric in ("plies_per_random_playout", "ns_play", "ns_uniform_draw", "ns_list_moves", "ns_gibbs_draw",
                   "gibbs_vs_uniform_step"):
        assert metric in rows
    assert 10 < rows["plies_per_random_playout"] <= 26  # Nogo 5x5: at most one stone per point
    assert rows["ns_play"] > 0 and rows["gibbs_vs_uniform_step"] > 0


def test_interleaved_searches_prime_each_timed_search_with_a_one_iteration_search_of_its_own_agent(monkeypatch):
    """With ``primed`` (the default) each timed search follows an untimed one-iteration search of the same agent,
    so a fixed cost after a pause falls on each agent's primer, not on whichever agent follows the longest search."""
    import dataclasses
    import types

    import ppalib.bench as bench
    from ppalib._rng import make_rng
    from ppalib.agents import make_agent
    from ppalib.games import make_game

    events = []
    real_search, real_clock = bench.search, bench.time.perf_counter

    def recording_search(game, root, agent, rng, **options):
        events.append(agent)
        return real_search(game, root, agent, rng, **options)

    def recording_clock():
        events.append("clock")
        return real_clock()

    monkeypatch.setattr(bench, "search", recording_search)
    monkeypatch.setattr(bench, "time", types.SimpleNamespace(perf_counter=recording_clock))  # bench's clock only
    game = make_game("breakthrough", 5)
    uct, ppa = make_agent("uct", 20), make_agent("ppa", 30, playout_engine=2)
    primer = {a: dataclasses.replace(a, playouts=1) for a in (uct, ppa)}
    for primed in (True, False):
        events.clear()
        seconds, plies = bench.interleaved_searches(game, game.initial_state(), [uct, ppa], 2, make_rng(0), primed)
        timed = [[primer[a]] * primed + ["clock", a, "clock"] for a in (uct, ppa)]
        assert events == [uct, ppa] + 2 * (timed[0] + timed[1])  # warm-ups, then each repeat: primer outside the clock
        assert [len(s) for s in seconds] == [2, 2] and all(p > 0 for row in plies for p in row)


def test_bench_no_prime_reaches_the_engines_rounds(monkeypatch, capsys):
    import ppalib.bench as bench
    seen = []

    def fake_engines(name, size, playouts, repeats, primed=True):
        seen.append(primed)
        return []

    monkeypatch.setattr(bench, "measure_engines", fake_engines)
    for flags, expected in (([], True), (["--no-prime"], False)):
        assert main(["bench", "--games", "breakthrough", "--size", "5", "--playouts", "20", "--repeats", "1",
                     "--json", "--no-openspiel", "--engines", *flags]) == 0
        assert seen.pop() is expected
