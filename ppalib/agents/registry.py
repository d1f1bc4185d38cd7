"""The registry of agent kinds, and building a validated agent from a kind and parameters or from a stored
``as_dict()``."""
from __future__ import annotations

import typing
from dataclasses import fields

from .base import AgentConfig
from .grave import GRAVE
from .learned import MAST, MASTF, PPA, PPAF
from .puct import PUCT, Greedy
from .rave import RAVE
from .uct import UCT

#: The registry: agent kind -> its config class.
AGENTS: dict[str, type[AgentConfig]] = {cls.kind: cls for cls in (UCT, PPA, PPAF, MAST, MASTF, RAVE, PUCT,
                                                                   Greedy, GRAVE)}
AGENT_KINDS = tuple(AGENTS)


def parameters_of(kind: str) -> dict[str, type]:
    """The parameters of ``kind`` (besides ``playouts``) and their declared types, for the CLI and notebooks."""
    hints = typing.get_type_hints(_agent_class(kind))
    return {f.name: hints[f.name] for f in fields(_agent_class(kind)) if f.name != "playouts"}


def _agent_class(kind) -> type[AgentConfig]:
    if not isinstance(kind, str) or kind not in AGENTS:
        raise ValueError(f"agent kind={kind!r} is unknown; known kinds: {', '.join(AGENTS)}")
    return AGENTS[kind]


def make_agent(kind: str, playouts: int, **params) -> AgentConfig:
    """A validated agent of ``kind``; a parameter the kind does not have is an error naming it."""
    cls = _agent_class(kind)
    allowed = set(parameters_of(kind))
    unknown = set(params) - allowed
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)} for agent kind {kind!r}; "
                         f"its parameters: {sorted(allowed)}")
    return cls(playouts=playouts, **params)


def agent_from_params(params: dict) -> AgentConfig:
    """The agent a stored ``as_dict()`` describes (the inverse of ``as_dict``, legacy fields included)."""
    params = dict(params)
    kind = params.pop("kind")
    cls = _agent_class(kind)
    for name, value in cls._LEGACY_FIELDS.items():
        if params.get(name, value) != value:
            raise ValueError(f"{name}={params[name]} is not a parameter of {kind}")
        params.pop(name, None)
    playouts = params.pop("playouts")
    return make_agent(kind, playouts, **params)
