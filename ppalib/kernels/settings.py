"""What one search is made of: a selection rule, a playout policy and a learning rule, with their parameters.

``SearchSettings`` is the compiled search's view of an agent (``ppalib.agents`` builds it from an agent's config);
game-free, so that every game's specialised kernels share the one type.
"""
from collections import namedtuple

from ppalib.kernels.learning import LEARN_MAST, LEARN_NONE, LEARN_PPA
from ppalib.kernels.selection import SELECT_GRAVE, SELECT_PUCT, SELECT_UCB1, SELECT_UCB1_LUDII, SELECT_UCB1_RAVE

PLAYOUT_UNIFORM = 0
PLAYOUT_GIBBS = 1        # weights per move code, learned by PPA or MAST
PLAYOUT_PRIOR_FIRST = 2  # first move from the new entry's priors, then uniform
PLAYOUT_FEATURES = 3     # every move from the features' softmax policy (needs features)

SearchSettings = namedtuple("SearchSettings", [
    "selection",          # SELECT_UCB1 | SELECT_UCB1_RAVE | SELECT_PUCT | SELECT_UCB1_LUDII | SELECT_GRAVE
    "playout",            # PLAYOUT_UNIFORM | PLAYOUT_GIBBS | PLAYOUT_PRIOR_FIRST | PLAYOUT_FEATURES
    "learning",           # LEARN_NONE | LEARN_PPA | LEARN_MAST
    "c",                  # UCB1's constant, or PUCT's C
    "alpha",              # PPA's learning rate
    "k",                  # Gibbs factor: weights exp(k policy) (PPA: 1)
    "with_context",       # move codes with context (PPAF, MASTF)
    "k_rave",             # RAVE's equivalence parameter
    "rave_rate",          # probability that a selection uses RAVE (when not adaptive)
    "adaptive",           # adaptive RAVE: decide at the root before each descent
    "margin",             # adaptive RAVE's margin
    "margin_both_sides",  # the margin applies to the pessimism test too
    "adaptive_per_node",  # adaptive RAVE decided at every node with more than ``node_playouts`` playouts
    "node_playouts",      # per-node adaptive RAVE: a node decides for itself above this many playouts
    "grave_ref",          # GRAVE: the AMAF statistics of the closest node with more than this many playouts
    "grave_bias",         # GRAVE's bias in beta = pa / (pa + p + bias pa p)
    "playout_engine",     # Gibbs playouts: PLAYOUT_ENGINE_LISTS (each ply's list) | PLAYOUT_ENGINE_INCREMENTAL
])

# How Gibbs playouts (PPA, PPAF, MAST) find their moves.  1: every ply lists the legal moves, their codes and
# weights and draws by a linear scan; PPA's adapt walks those lists again (Cazenave 2015, Alg. 3-4 as written;
# every committed game was played so).  2: the legal moves' weights are kept per player in a sum tree over move
# slots, updated only where a move changed something (``ppalib.kernels.incremental``); the same distribution, drawn
# in O(log n), but other summation orders, so not the same games move for move.
PLAYOUT_ENGINE_LISTS = 1
PLAYOUT_ENGINE_INCREMENTAL = 2


def search_settings(selection=SELECT_UCB1, playout=PLAYOUT_UNIFORM, learning=LEARN_NONE, c=0.4, alpha=1.0, k=1.0,
                    with_context=False, k_rave=0.0, rave_rate=0.0, adaptive=False, margin=0.0,
                    margin_both_sides=True, adaptive_per_node=False, node_playouts=0.0, grave_ref=0.0,
                    grave_bias=0.0, playout_engine=PLAYOUT_ENGINE_LISTS) -> SearchSettings:
    """Settings with every field typed as the compiled search expects (ints, floats, bools)."""
    return SearchSettings(int(selection), int(playout), int(learning), float(c), float(alpha), float(k),
                          bool(with_context), float(k_rave), float(rave_rate), bool(adaptive), float(margin),
                          bool(margin_both_sides), bool(adaptive_per_node), float(node_playouts), float(grave_ref),
                          float(grave_bias), int(playout_engine))


__all__ = ["SearchSettings", "search_settings", "PLAYOUT_UNIFORM", "PLAYOUT_GIBBS", "PLAYOUT_PRIOR_FIRST", "PLAYOUT_FEATURES",
           "SELECT_UCB1", "SELECT_UCB1_RAVE", "SELECT_PUCT", "SELECT_UCB1_LUDII", "SELECT_GRAVE", "LEARN_NONE",
           "LEARN_PPA", "LEARN_MAST", "PLAYOUT_ENGINE_LISTS", "PLAYOUT_ENGINE_INCREMENTAL"]
