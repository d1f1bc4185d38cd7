"""The config every agent kind extends (``AgentConfig``) and the checks of its parameters, which name the bad
parameter before any work starts."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import ClassVar

import numpy as np

from ..kernels.settings import SearchSettings

MAX_PLAYOUTS = 10_000_000


def _check_number(name: str, value, low: float, allow_equal_low: bool, high: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if math.isnan(value) or math.isinf(value) or value < low or (value == low and not allow_equal_low) \
            or value > high:
        bound = f">= {low}" if allow_equal_low else f"> {low}"
        if high < math.inf:
            bound += f" and <= {high}"
        raise ValueError(f"{name}={value} is out of range: allowed finite values {bound}")
    return value


def check_playouts(playouts) -> int:
    """``playouts`` (iterations a move) as an int in 1..MAX_PLAYOUTS, or an error naming it."""
    if isinstance(playouts, bool) or not isinstance(playouts, (int, np.integer)):
        raise TypeError(f"playouts must be an integer, got {playouts!r}")
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise ValueError(f"playouts={playouts} is out of range: allowed 1..{MAX_PLAYOUTS}")
    return int(playouts)


def _check_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


@dataclass(frozen=True)
class AgentConfig:
    """What every agent has; subclasses add their kind's parameters.  Immutable and validated on creation;
    build one with ``make_agent``.  Equal agents compare equal and have equal ``as_dict()``."""
    playouts: int
    seconds_per_move: float | None = None
    tree_reuse: bool = False
    kind: ClassVar[str] = ""
    # Parameters every agent of the first three papers carried (and so hashed into the committed condition ids)
    # at these values even when unused; ``as_dict`` writes them so that those ids never change.
    _LEGACY_FIELDS: ClassVar[dict] = {"alpha": 1.0, "k": 1.0}

    def __post_init__(self):
        object.__setattr__(self, "playouts", check_playouts(self.playouts))
        if self.seconds_per_move is not None:
            object.__setattr__(self, "seconds_per_move",
                               _check_number("seconds_per_move", self.seconds_per_move, 0.0, False, 86_400.0))
        object.__setattr__(self, "tree_reuse", _check_bool("tree_reuse", self.tree_reuse))
        self.validate()

    def validate(self) -> None:
        """Check and normalise the kind's own parameters (subclasses)."""

    def search_settings(self) -> SearchSettings:
        raise NotImplementedError  # every registered kind defines it

    @property
    def with_context(self) -> bool:
        """Whether PPA/MAST learn on move codes with context (PPAF, MASTF)."""
        return False

    @property
    def label(self) -> str:
        return self.kind.upper()

    def as_dict(self) -> dict:
        """Every parameter, with the kind: what identifies the agent in a condition id.  New common parameters
        appear only when set, so the agents of the committed results keep their ids."""
        params = {"kind": self.kind, **self._LEGACY_FIELDS, **asdict(self)}
        if params["seconds_per_move"] is None:
            del params["seconds_per_move"]
        if not params["tree_reuse"]:
            del params["tree_reuse"]
        return params
