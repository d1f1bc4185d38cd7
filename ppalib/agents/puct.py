"""Agents of a saved feature policy (Soemers, Piette & Browne 2019): PUCT with priors, and the greedy apprentice."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from ..kernels.learning import LEARN_NONE
from ..kernels.selection import SELECT_PUCT
from ..kernels.settings import PLAYOUT_FEATURES, PLAYOUT_PRIOR_FIRST, PLAYOUT_UNIFORM, search_settings
from .base import AgentConfig, _check_bool, _check_number


def _check_policy_hash(value, required: bool) -> str:
    if not isinstance(value, str) or (value and (len(value) != 16 or any(c not in "0123456789abcdef" for c in value))):
        raise ValueError(f"policy must be a policy's 16-hex-digit content hash (LinearPolicy.content_hash), "
                         f"got {value!r}")
    if required and not value:
        raise ValueError("policy is required: the content hash of a saved LinearPolicy")
    return value


@dataclass(frozen=True)
class PUCT(AgentConfig):
    """PUCT selection with priors computed once per entry and stored with it (Soemers, Piette & Browne 2019, eq. 4),
    ``c`` = the paper's C.  ``policy``: the content hash of a saved ``ppalib.features.LinearPolicy`` whose softmax
    gives the priors (``""``: uniform priors, or the per-move-code logits given to ``search``).
    ``prior_first_playout_move``: the playout's first move is drawn from the new entry's priors, the rest uniformly
    (the paper's section V-A, and that move's position gets an entry); ``biased_playouts``: every playout move is
    drawn from the policy (the paper's hand-made Yavalath player, section V-D; needs ``policy``)."""
    c: float = math.sqrt(2.0)
    prior_first_playout_move: bool = True
    policy: str = ""
    biased_playouts: bool = False
    kind: ClassVar[str] = "puct"
    _LEGACY_FIELDS: ClassVar[dict] = {}

    def validate(self):
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "prior_first_playout_move",
                           _check_bool("prior_first_playout_move", self.prior_first_playout_move))
        _check_policy_hash(self.policy, False)
        object.__setattr__(self, "biased_playouts", _check_bool("biased_playouts", self.biased_playouts))
        if self.biased_playouts and not self.policy:
            raise ValueError("biased_playouts=True needs a policy (the playouts are drawn from its features)")

    def search_settings(self):
        if self.biased_playouts:
            playout = PLAYOUT_FEATURES
        else:
            playout = PLAYOUT_PRIOR_FIRST if self.prior_first_playout_move else PLAYOUT_UNIFORM
        return search_settings(SELECT_PUCT, playout, LEARN_NONE, c=self.c)

    def as_dict(self):
        params = super().as_dict()
        for name in ("policy", "biased_playouts"):  # only when set
            if not params[name]:
                del params[name]
        return params

    @property
    def label(self):
        if not self.policy:
            return f"PUCT({self.c:.3g})"
        return f"Biased MCTS({self.policy[:6]}{', full playouts' if self.biased_playouts else ''})"


@dataclass(frozen=True)
class Greedy(AgentConfig):
    """No search: the legal move of largest apprentice probability p(s, a), i.e. largest theta . phi(s, a)
    (Soemers, Piette & Browne 2019, Fig. 6).  Ties (e.g. an empty feature set) are broken uniformly at random, with
    the game's generator.  ``playouts`` is unused (give 1)."""
    policy: str = ""
    kind: ClassVar[str] = "greedy"
    _LEGACY_FIELDS: ClassVar[dict] = {}

    def validate(self):
        _check_policy_hash(self.policy, True)

    def search_settings(self):
        return search_settings(SELECT_PUCT, PLAYOUT_UNIFORM, LEARN_NONE, c=0.0)

    @property
    def label(self):
        return f"Greedy({self.policy[:6]})"
