"""UCT (Cazenave 2015, Alg. 7), and UCB1 as Ludii's UCT baseline (Soemers et al. 2019)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..kernels.learning import LEARN_NONE
from ..kernels.selection import SELECT_UCB1, SELECT_UCB1_LUDII
from ..kernels.settings import PLAYOUT_UNIFORM, search_settings
from .base import AgentConfig, _check_bool, _check_number


@dataclass(frozen=True)
class UCT(AgentConfig):
    """UCT with uniform playouts, as written in Cazenave 2015, Algorithm 7 (unvisited moves first, in list order).
    ``ludii_selection``: UCB1 as Ludii's UCT baseline of Soemers et al. 2019 instead (values in [-1, 1], an
    unvisited move valued at its entry's mean, random tie-break; ``ppalib.kernels.selection.ucb1_ludii``)."""
    c: float = 0.4
    ludii_selection: bool = False
    kind: ClassVar[str] = "uct"

    def validate(self):
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "ludii_selection", _check_bool("ludii_selection", self.ludii_selection))

    def search_settings(self):
        rule = SELECT_UCB1_LUDII if self.ludii_selection else SELECT_UCB1
        return search_settings(rule, PLAYOUT_UNIFORM, LEARN_NONE, c=self.c)

    def as_dict(self):
        params = super().as_dict()
        if not params["ludii_selection"]:  # only when set: the committed UCT conditions keep their ids
            del params["ludii_selection"]
        return params

    @property
    def label(self):
        return "UCT(Ludii)" if self.ludii_selection else "UCT"
