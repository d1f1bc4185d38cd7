"""GRAVE in the tree with uniform playouts (Cazenave, IJCAI 2015), and GRAVE's default parameters."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..kernels.learning import LEARN_NONE
from ..kernels.selection import SELECT_GRAVE
from ..kernels.settings import PLAYOUT_UNIFORM, search_settings
from .base import AgentConfig, _check_number

#: GRAVE's parameters in Cazenave's reference code: the AMAF statistics of the closest node with more than 50
#: playouts, beta = pa / (pa + p + 1e-5 pa p).
GRAVE_REF = 50.0
GRAVE_BIAS = 1e-5


@dataclass(frozen=True)
class GRAVE(AgentConfig):
    """GRAVE (Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015) with uniform playouts: the tree
    scores a node's moves with the AMAF statistics of the closest node of the descent, itself included, with
    more than ``ref`` playouts (the root when none has), ``(1 - beta) mean + beta amaf`` with
    ``beta = pa / (pa + p + bias pa p)`` and no exploration term (``ppalib.kernels.selection.grave_score``)."""
    ref: float = GRAVE_REF
    bias: float = GRAVE_BIAS
    kind: ClassVar[str] = "grave"
    _LEGACY_FIELDS: ClassVar[dict] = {}

    def validate(self):
        object.__setattr__(self, "ref", _check_number("ref", self.ref, 0.0, True))
        object.__setattr__(self, "bias", _check_number("bias", self.bias, 0.0, True))

    def search_settings(self):
        return search_settings(SELECT_GRAVE, PLAYOUT_UNIFORM, LEARN_NONE, c=0.0, grave_ref=self.ref,
                               grave_bias=self.bias)

    @property
    def label(self):
        if self.ref == GRAVE_REF and self.bias == GRAVE_BIAS:
            return "GRAVE"
        return f"GRAVE(ref={self.ref:g}, bias={self.bias:g})"
