"""Every compiled function that calls a game, beside the game-free numba helpers they share.

Templates (written against ``ppalib.games.contract``, specialised per game module by ``ppalib._specialise``):

==============  ================================================================================================
``search``      the one MCTS loop (descend, expand, playout, back up and learn) and tree reuse
``playout``     playout policies: uniform, Gibbs on move-code weights (PPA, MAST), first move from the prior
``nrpa``        Nested Rollout Policy Adaptation (Rosin 2011) for single-player problems
``perft``       move-generator regression counts
==============  ================================================================================================

Game-free helpers (ordinary modules, compiled once):

* ``settings``: ``SearchSettings``, the parts and parameters of one search (what an agent config compiles to);
* ``tree``: the transposition table, its entries and their move statistics (``Tree``; GRAVE's AMAF rows per entry);
* ``selection``: the selection rules, UCB1 (Cazenave 2015), UCB1 + RAVE (Mehat & Vittaut 2013), PUCT, GRAVE
  (Cazenave, IJCAI 2015);
* ``learning``: the learning rules, PPA (Cazenave 2015, Alg. 4), MAST (Cazenave 2016, Alg. 5), RAVE's and GRAVE's
  AMAF updates, adaptive RAVE's test (Mehat & Vittaut 2013, section 7; at the root or at every node);

The spatial-feature matcher (Soemers et al. 2019) is compiled too, but lives in ``ppalib.features.matcher``: it reads
the owner of each cell relative to the mover, so it calls no game, and the features room below may use it.

Use them through ``ppalib.agents`` (validated configs, ``Searcher`` / ``search``, ``kernels_for(game)``).  Shapes:
``spec`` and ``state`` are the game's int64 arrays; ``rng`` a uint64[4] generator state; move statistics are
float64 with (wins, playouts) side by side per move; every index into a move list is the move's position in the
game's deterministic ``legal_moves`` order.
"""
