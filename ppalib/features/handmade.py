"""Hand-made features: Yavalath's immediate win and loss detectors (Soemers, Piette & Browne 2019, section V-D and
Fig. 9).

The paper: "players win by making a line of four of their pieces, but lose by making a line of three of their pieces
beforehand ... Fig. 9 depicts three features that activate for moves that result in instant wins or losses.  We
manually constructed a feature set with only these three features, and manually assigned large weights; +3000 for
the win-detecting feature, and -1000 for each of the loss-detecting features.  A Biased MCTS player using this
feature set throughout complete play-outs achieves a win percentage of 93% against UCT, despite a 30x reduction in
the MCTS iteration count."

Fig. 9 ("Immediate win and loss features for the White player in Yavalath") draws three small hex patterns, each a
placement (the action, ``to``) and friendly pieces on one line of the hex grid through it:

* ``YAVALATH_WIN`` ``f{0}, f{0,0}, f{1/2}`` -- two friendly pieces in a row on one side of the move and one on the
  other (X X _ X): the move fills the gap of a line of four, an instant win;
* ``YAVALATH_LOSS_END`` ``f{0}, f{0,0}`` -- two friendly pieces in a row and the move at the end of them (X X _):
  the move makes a line of three, an instant loss unless it also makes four;
* ``YAVALATH_LOSS_MIDDLE`` ``f{0}, f{1/2}`` -- a friendly piece on each side of the move on one line (X _ X): the
  move fills the gap of a line of three, again an instant loss unless it makes four.

Walks (brief section 1.2): ``{0}`` is the neighbour in the anchor's direction 0, ``{0,0}`` two steps straight on,
``{1/2}`` the opposite neighbour.  Every rotation (6 on the hex grid) and reflection is allowed, so each feature
covers all three axes in both directions (the win feature also covers X _ X X); a walk that leaves the board makes
the element fail, so the features fire near the edges exactly where the line fits on the board.

Why the win is a gap and the weights are +3000 / -1000
-----------------------------------------------------
In Yavalath a line of three loses at once, so no position ever holds three friendly pieces in a row: a four can only
be made by filling a gap (X X _ X or X _ X X), never by extending a three (X X X _ cannot occur).  A winning move
therefore always matches both loss patterns too (X X _ on one side, X _ X across), and its logit is
3000 - 1000 - 1000 = +1000: positive, above every other move, while a move making exactly three gets -1000 or
-2000.  This is what the paper's weights say: +3000 > 2 x 1000, "four wins even if the same move also makes a
three" (``ppalib.games.yavalath`` and Ludii test the line of four first).  A first version of this module read
Fig. 9's win pattern as "X X X _", a pattern no legal position can show: the agent then never saw a win and scored
every winning move -2000, and lost every game against UCT; the notebook records it.

Other choices: no move feature (``-{}`` on the destination changes nothing for Yavalath's placements; the swap move
matches no feature), and no guard cells (a move making five or more, X X _ X X, matches the win feature as well: a
win by the rules too).  Every immediate win and every immediate loss of a legal position is detected
(``tests/test_handmade_features.py`` checks it against the rules on positions of random games).  The features know
nothing of the opponent's threats (Fig. 10's learned "block" feature does).
"""
from __future__ import annotations

from .artefact import LinearPolicy
from .feature import Feature

#: The move fills the gap of X X _ X, making a line of four: instant win (Fig. 9, weight +3000).
YAVALATH_WIN = "rel:to=<{}>:pat=<els=[f{0}, f{1/2}, f{0,0}]>"
#: The move extends two friendly pieces in a row to three (X X _): instant loss unless it also wins (-1000).
YAVALATH_LOSS_END = "rel:to=<{}>:pat=<els=[f{0}, f{0,0}]>"
#: The move fills the gap between two friendly pieces on a line (X _ X): instant loss unless it also wins (-1000).
YAVALATH_LOSS_MIDDLE = "rel:to=<{}>:pat=<els=[f{0}, f{1/2}]>"

#: The paper's three features (Fig. 9) and weights (section V-D), in this order.
YAVALATH_FEATURES = (YAVALATH_WIN, YAVALATH_LOSS_END, YAVALATH_LOSS_MIDDLE)
YAVALATH_WEIGHTS = (3000.0, -1000.0, -1000.0)

_NOTE = ("hand-made Yavalath features of Soemers, Piette & Browne 2019, Fig. 9 / section V-D: win +3000, "
         "two losses -1000 each (ppalib.features.handmade)")


def yavalath_handmade_policy(game) -> LinearPolicy:
    """The paper's hand-made Yavalath policy (three features of Fig. 9, weights +3000, -1000, -1000) for ``game``
    (a ``ppalib.games.Game`` of Yavalath; its options, e.g. the swap, go into the policy).  Save it (``.save(folder)``)
    and refer to it by ``content_hash`` in ``make_agent("puct", ..., policy=..., biased_playouts=True)``."""
    if game.name != "yavalath":
        raise ValueError(f"the hand-made features are Yavalath's; got the game {game.name!r}")
    # Written in canonical text (what a FeatureSet reads back), so the hash does not depend on how we spelled them.
    texts = tuple(Feature.from_text(t).to_text() for t in YAVALATH_FEATURES)
    return LinearPolicy(game.name, game.size, texts, YAVALATH_WEIGHTS, game.options, _NOTE)


__all__ = ["YAVALATH_WIN", "YAVALATH_LOSS_END", "YAVALATH_LOSS_MIDDLE", "YAVALATH_FEATURES", "YAVALATH_WEIGHTS",
           "yavalath_handmade_policy"]
