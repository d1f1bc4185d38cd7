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

* ``YAVALATH_WIN`` ``rel:to=<{}>:pat=<els=[f{0}, f{0,0}, f{0,0,0}]>`` -- three friendly pieces in a row and the move
  at the end of them: the move makes a line of four (X X X _), an instant win;
* ``YAVALATH_LOSS_END`` ``rel:to=<{}>:pat=<els=[f{0}, f{0,0}]>`` -- two friendly pieces in a row and the move at the
  end of them (X X _): the move makes a line of three, an instant loss unless it also makes four;
* ``YAVALATH_LOSS_MIDDLE`` ``rel:to=<{}>:pat=<els=[f{0}, f{1/2}]>`` -- a friendly piece on each side of the move on
  one line (X _ X): the move fills the gap of a line of three, again an instant loss unless it makes four.

Walks (brief section 1.2): ``{0}`` is the neighbour in the anchor's direction 0, ``{0,0}`` two steps straight on,
``{1/2}`` the opposite neighbour.  Every rotation (6 on the hex grid) and reflection is allowed, so each feature
covers all three axes in both directions; a walk that leaves the board makes the element fail (a friend off the
board does not exist), so the features fire near the edges exactly where the line fits on the board.

Choices where the paper is ambiguous (Fig. 9 is a drawing; no code from 2019 is public)
--------------------------------------------------------------------------------------
* **The patterns are the bare lines of Fig. 9, no guards.**  The loss features do not require the cells beyond the
  line to be non-friendly (so they do not test for *exactly* three): a move that makes four also matches the
  X X _ loss pattern (its last two pieces).  This is what the weights are for: +3000 > 2 x 1000, so a move matching
  the win feature has a logit of at least +1000 whatever loss features it also matches, i.e. "four wins even if the
  same move also makes a three" -- ppalib's Yavalath rule (``ppalib.games.yavalath``) and Ludii's (``(is Line 4)``
  is tested before ``(is Line 3)``) -- holds for the policy too.  With guards the weights would not need that
  ordering; the paper's 3:1 ratio reads as the guard-free design.
* **One win feature: the end of a three, not the middle of a four.**  The paper says *three* features, one of them
  win-detecting; the end-of-three pattern is the one Fig. 9 draws (and Fig. 10's learned feature "very similar to
  the handcrafted win-detecting feature ... [that] can still often detect immediate wins, but not all of them" is
  of that kind).  So the gap wins X X _ X and X _ X X (the move completes a four in its middle) are **not**
  detected: such a move matches both loss features (X X _ on one side, X _ X across) and gets -2000, scored like a
  losing move.  We follow the paper literally (it is the normative text and its 93% / 30x are for three
  features).  ``YAVALATH_GAP_WIN`` (``f{0}, f{1/2}, f{0,0}``: X X _ X) is the fourth feature that would close the
  gap; ``yavalath_handmade_policy(game, include_gap_win=True)`` adds it at +3000 (then a gap win scores
  3000 - 2000 = +1000), as an explicitly non-paper variant.
* **No move feature.**  Ludii's move feature for Yavalath's ``(to Mover (empty))`` adds an ``-{}`` (empty
  destination) element; every Yavalath placement is on an empty cell, so it changes no activation and is left out,
  as Fig. 9 draws none.  The swap move (``move_to`` = -1) matches no feature (logit 0).
* Lines longer than four: a move making five or more (X X X _ X) matches all three features, logit +1000: still a
  win in the rules (four or more wins), still preferred to every non-winning move.

What the three features miss, for the record: the gap wins above (scored -2000), and nothing else -- every
immediate loss (exactly three) is X X _ or X _ X on some axis, both detected, and every immediate win by extending
a line of three at its end is detected.  The features know nothing of the opponent's threats (Fig. 10's learned
"block" feature does).
"""
from __future__ import annotations

from .artefact import LinearPolicy
from .feature import Feature

#: The move makes a line of four at the end of three friendly pieces (X X X _): instant win (Fig. 9, weight +3000).
YAVALATH_WIN = "rel:to=<{}>:pat=<els=[f{0}, f{0,0}, f{0,0,0}]>"
#: The move extends two friendly pieces in a row to three (X X _): instant loss unless it also wins (-1000).
YAVALATH_LOSS_END = "rel:to=<{}>:pat=<els=[f{0}, f{0,0}]>"
#: The move fills the gap between two friendly pieces on a line (X _ X): instant loss unless it also wins (-1000).
YAVALATH_LOSS_MIDDLE = "rel:to=<{}>:pat=<els=[f{0}, f{1/2}]>"
#: Not in the paper: the move completes a four in its middle (X X _ X); see the module docstring.
YAVALATH_GAP_WIN = "rel:to=<{}>:pat=<els=[f{0}, f{1/2}, f{0,0}]>"

#: The paper's three features (Fig. 9) and weights (section V-D), in this order.
YAVALATH_FEATURES = (YAVALATH_WIN, YAVALATH_LOSS_END, YAVALATH_LOSS_MIDDLE)
YAVALATH_WEIGHTS = (3000.0, -1000.0, -1000.0)

_NOTE = ("hand-made Yavalath features of Soemers, Piette & Browne 2019, Fig. 9 / section V-D: win +3000, "
         "two losses -1000 each (ppalib.features.handmade)")


def yavalath_handmade_policy(game, include_gap_win: bool = False) -> LinearPolicy:
    """The paper's hand-made Yavalath policy (three features of Fig. 9, weights +3000, -1000, -1000) for ``game``
    (a ``ppalib.games.Game`` of Yavalath; its options, e.g. the swap, go into the policy).  ``include_gap_win``
    adds the non-paper ``YAVALATH_GAP_WIN`` at +3000 (see the module docstring).  Save it (``.save(folder)``) and
    refer to it by ``content_hash`` in ``make_agent("puct", ..., policy=..., biased_playouts=True)``."""
    if game.name != "yavalath":
        raise ValueError(f"the hand-made features are Yavalath's; got the game {game.name!r}")
    features, theta, note = YAVALATH_FEATURES, YAVALATH_WEIGHTS, _NOTE
    if include_gap_win:
        features, theta = features + (YAVALATH_GAP_WIN,), theta + (3000.0,)
        note += "; plus the gap-win feature X _ X X at +3000 (not in the paper)"
    # Written in canonical text (what a FeatureSet reads back), so the hash does not depend on how we spelled them.
    texts = tuple(Feature.from_text(t).to_text() for t in features)
    return LinearPolicy(game.name, game.size, texts, theta, game.options, note)


__all__ = ["YAVALATH_WIN", "YAVALATH_LOSS_END", "YAVALATH_LOSS_MIDDLE", "YAVALATH_GAP_WIN", "YAVALATH_FEATURES",
           "YAVALATH_WEIGHTS", "yavalath_handmade_policy"]
