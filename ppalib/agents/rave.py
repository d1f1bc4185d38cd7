"""UCT + RAVE by rate, and adaptive RAVE at the root or per node (Mehat & Vittaut 2013)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..kernels.learning import LEARN_NONE
from ..kernels.selection import SELECT_UCB1_RAVE
from ..kernels.settings import PLAYOUT_UNIFORM, search_settings
from .base import AgentConfig, _check_bool, _check_number

#: Per-node adaptive RAVE: a node decides from its own statistics once it has more than this many playouts.
NODE_PLAYOUTS = 50.0


@dataclass(frozen=True)
class RAVE(AgentConfig):
    """UCT + RAVE (Mehat & Vittaut 2013, section 2), RAVE used for a fraction ``rave_rate`` of the selections
    (section 6), or adaptive RAVE (section 7): before each descent the root decides, from its moves' observed and
    AMAF means and the ``margin``, whether the whole descent uses RAVE.  ``margin_both_sides``: the margin widens
    both the optimism and the pessimism test (True, the default) or only the optimism test (the reading of the
    paper's Figure 4 caption, "a margin for judging RAVE too optimistic").  ``rave_rate = 0`` is the paper's
    player without RAVE (untried moves scored at the maximum, random tie-break).

    ``adaptive_per_node``: the adaptive decision is taken at every node of a descent with more than
    ``node_playouts`` playouts, from that node's own moves, instead of once at the root (the root always decides;
    a node below the threshold keeps the closest deciding ancestor's choice): the paper's section 8, "it would be
    possible to observe this correlation at every node when it stores enough playouts results"."""
    c: float = 0.4
    k_rave: float = 700.0
    rave_rate: float = 1.0
    adaptive: bool = False
    margin: float = 0.0
    margin_both_sides: bool = True
    adaptive_per_node: bool = False
    node_playouts: float = NODE_PLAYOUTS
    kind: ClassVar[str] = "rave"

    def validate(self):
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "k_rave", _check_number("k_rave", self.k_rave, 0.0, True))
        object.__setattr__(self, "rave_rate", _check_number("rave_rate", self.rave_rate, 0.0, True, 1.0))
        object.__setattr__(self, "adaptive", _check_bool("adaptive", self.adaptive))
        object.__setattr__(self, "margin", _check_number("margin", self.margin, 0.0, True))
        object.__setattr__(self, "margin_both_sides", _check_bool("margin_both_sides", self.margin_both_sides))
        object.__setattr__(self, "adaptive_per_node", _check_bool("adaptive_per_node", self.adaptive_per_node))
        object.__setattr__(self, "node_playouts", _check_number("node_playouts", self.node_playouts, 0.0, True))
        if self.adaptive_per_node and not self.adaptive:
            raise ValueError("adaptive_per_node=True needs adaptive=True (it says where adaptive RAVE decides)")
        if not self.adaptive_per_node and self.node_playouts != NODE_PLAYOUTS:
            raise ValueError(f"node_playouts={self.node_playouts:g} is used only by per-node adaptive RAVE: give "
                             f"adaptive_per_node=True too, or leave node_playouts at its default {NODE_PLAYOUTS:g}")

    def search_settings(self):
        return search_settings(SELECT_UCB1_RAVE, PLAYOUT_UNIFORM, LEARN_NONE, c=self.c, k_rave=self.k_rave,
                               rave_rate=self.rave_rate, adaptive=self.adaptive, margin=self.margin,
                               margin_both_sides=self.margin_both_sides, adaptive_per_node=self.adaptive_per_node,
                               node_playouts=self.node_playouts)

    @property
    def label(self):
        if self.adaptive:
            sides = "" if self.margin_both_sides else ", optimism only"
            where = f", per node > {self.node_playouts:g}" if self.adaptive_per_node else ""
            return f"ARAVE(k={self.k_rave:g}, margin={self.margin:g}{sides}{where})"
        return f"RAVE(k={self.k_rave:g}, rate={self.rave_rate:g})"

    def as_dict(self):
        params = super().as_dict()
        if params["margin_both_sides"]:
            del params["margin_both_sides"]
        if not params["adaptive_per_node"]:  # only when set: the committed RAVE conditions keep their ids
            del params["adaptive_per_node"], params["node_playouts"]
        return params
