"""Agents with learned playouts: PPA (Cazenave 2015), PPAF, MAST and MASTF (Cazenave 2016), and the options they
share (GRAVE in the tree, a policy kept between moves)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..kernels.learning import LEARN_MAST, LEARN_PPA
from ..kernels.selection import SELECT_GRAVE, SELECT_UCB1
from ..kernels.settings import PLAYOUT_ENGINE_INCREMENTAL, PLAYOUT_ENGINE_LISTS, PLAYOUT_GIBBS, search_settings
from .base import AgentConfig, _check_bool, _check_number
from .grave import GRAVE_BIAS, GRAVE_REF


class _LearnedPlayouts:
    """The options every agent with learned playouts (PPA, PPAF, MAST, MASTF) shares: ``grave`` (GRAVE selects in
    the tree, ``grave_ref``, ``grave_bias``), ``keep_policy`` (the policy is kept between the moves of a game) and
    ``playout_engine`` (1: each ply lists its moves, as every committed game was played; 2: the incremental sum-tree
    draw of ``ppalib.kernels.incremental``, the same distribution but not the same games move for move).
    Fields are declared by each dataclass; these are the checks, settings and labels they share."""

    def _validate_options(self):
        object.__setattr__(self, "grave", _check_bool("grave", self.grave))
        object.__setattr__(self, "grave_ref", _check_number("grave_ref", self.grave_ref, 0.0, True))
        object.__setattr__(self, "grave_bias", _check_number("grave_bias", self.grave_bias, 0.0, True))
        object.__setattr__(self, "keep_policy", _check_bool("keep_policy", self.keep_policy))
        if isinstance(self.playout_engine, bool) or self.playout_engine not in (PLAYOUT_ENGINE_LISTS,
                                                                                PLAYOUT_ENGINE_INCREMENTAL):
            raise ValueError(f"playout_engine={self.playout_engine!r} must be {PLAYOUT_ENGINE_LISTS} (each ply's "
                             f"move list) or {PLAYOUT_ENGINE_INCREMENTAL} (the incremental sum-tree draw)")
        object.__setattr__(self, "playout_engine", int(self.playout_engine))
        if not self.grave:
            for name, default in (("grave_ref", GRAVE_REF), ("grave_bias", GRAVE_BIAS)):
                if getattr(self, name) != default:
                    raise ValueError(f"{name}={getattr(self, name):g} is a parameter of GRAVE, which this agent does "
                                     f"not use: give grave=True too, or leave {name} at its default {default:g}")

    def _selection(self) -> dict:
        if self.grave:
            return dict(selection=SELECT_GRAVE, grave_ref=self.grave_ref, grave_bias=self.grave_bias)
        return dict(selection=SELECT_UCB1)

    def _options_as_dict(self, params: dict) -> dict:
        """``params`` without the options left at their defaults (the committed agents' ids do not have them)."""
        if not params["grave"]:
            for name in ("grave", "grave_ref", "grave_bias"):
                del params[name]
        if not params["keep_policy"]:
            del params["keep_policy"]
        if params["playout_engine"] == PLAYOUT_ENGINE_LISTS:
            del params["playout_engine"]
        return params

    def _options_label(self, label: str) -> str:
        if self.grave:
            default = self.grave_ref == GRAVE_REF and self.grave_bias == GRAVE_BIAS
            label += "+GRAVE" if default else f"+GRAVE(ref={self.grave_ref:g}, bias={self.grave_bias:g})"
        if self.keep_policy:
            label += ", policy kept"
        if self.playout_engine != PLAYOUT_ENGINE_LISTS:
            label += f", engine {self.playout_engine}"
        return label


@dataclass(frozen=True)
class PPA(_LearnedPlayouts, AgentConfig):
    """Playout Policy Adaptation (Cazenave 2015, Alg. 3-4): Gibbs playouts on exp(policy[code]), the policy learned
    from the winner's moves after every iteration with rate ``alpha``."""
    c: float = 0.4
    alpha: float = 1.0
    grave: bool = False
    grave_ref: float = GRAVE_REF
    grave_bias: float = GRAVE_BIAS
    keep_policy: bool = False
    playout_engine: int = PLAYOUT_ENGINE_LISTS
    kind: ClassVar[str] = "ppa"
    _LEGACY_FIELDS: ClassVar[dict] = {"k": 1.0}

    def validate(self):
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "alpha", _check_number("alpha", self.alpha, 0.0, True))
        self._validate_options()

    def search_settings(self):
        return search_settings(playout=PLAYOUT_GIBBS, learning=LEARN_PPA, c=self.c, alpha=self.alpha, k=1.0,
                               with_context=self.with_context, playout_engine=self.playout_engine,
                               **self._selection())

    def as_dict(self):
        return self._options_as_dict(super().as_dict())

    @property
    def label(self):
        return self._options_label(f"{self.kind.upper()}({self.alpha:g})")


@dataclass(frozen=True)
class PPAF(PPA):
    """PPA on move codes with context (Cazenave 2016, section 3)."""
    kind: ClassVar[str] = "ppaf"

    @property
    def with_context(self):
        return True


@dataclass(frozen=True)
class MAST(_LearnedPlayouts, AgentConfig):
    """Move-Average Sampling Technique (Cazenave 2016, Alg. 5): Gibbs playouts on exp(k * mean result of the code)."""
    c: float = 0.4
    k: float = 1.0
    grave: bool = False
    grave_ref: float = GRAVE_REF
    grave_bias: float = GRAVE_BIAS
    keep_policy: bool = False
    playout_engine: int = PLAYOUT_ENGINE_LISTS
    kind: ClassVar[str] = "mast"
    _LEGACY_FIELDS: ClassVar[dict] = {"alpha": 1.0}

    def validate(self):
        object.__setattr__(self, "c", _check_number("c", self.c, 0.0, True))
        object.__setattr__(self, "k", _check_number("k", self.k, 0.0, True))
        self._validate_options()

    def search_settings(self):
        return search_settings(playout=PLAYOUT_GIBBS, learning=LEARN_MAST, c=self.c, k=self.k,
                               with_context=self.with_context, playout_engine=self.playout_engine,
                               **self._selection())

    def as_dict(self):
        return self._options_as_dict(super().as_dict())

    @property
    def label(self):
        return self._options_label(f"{self.kind.upper()}({self.k:g})")


@dataclass(frozen=True)
class MASTF(MAST):
    """MAST on move codes with context (Cazenave 2016)."""
    kind: ClassVar[str] = "mastf"

    @property
    def with_context(self):
        return True
