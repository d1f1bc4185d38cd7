"""Command-line values typed by the dataclass field they set: ``--agent rave:adaptive=yes,margin=0.1``.

The agent configurations are frozen dataclasses; a ``key=value`` from the command line is parsed by the declared
type of the field ``key`` of the kind's configuration class (found with ``dataclasses.fields``), so every field
is reachable from the command line and stays so when the configurations change.  Booleans take ``true``,
``false``, ``1``, ``0``, ``yes``, ``no`` (any case); integers take whole numbers only (``1e3`` is refused rather
than rounded); floats take anything Python's ``float`` reads.
"""
from __future__ import annotations

import dataclasses
import types
import typing

TRUE = ("true", "1", "yes")
FALSE = ("false", "0", "no")
#: Fields set by their own command-line options, not by ``key=value``.
SET_ELSEWHERE = {"kind": "the kind comes before the colon", "playouts": "use --playouts / --opponent-playouts"}


def parse_bool(name: str, text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in TRUE:
        return True
    if lowered in FALSE:
        return False
    raise ValueError(f"{name}={text!r} is not a boolean: use one of {', '.join(TRUE + FALSE)}")


def parse_int(name: str, text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(f"{name}={text!r} is not an integer") from None


def parse_float(name: str, text: str) -> float:
    try:
        return float(text.strip())
    except ValueError:
        raise ValueError(f"{name}={text!r} is not a number") from None


_PARSERS = {bool: parse_bool, int: parse_int, float: parse_float, str: lambda name, text: text}


def parse_typed(name: str, text: str, declared) -> object:
    """``text`` as a value of the type ``declared`` (bool, int, float, str, or an optional of one of them)."""
    origin = typing.get_origin(declared)
    if origin in (typing.Union, types.UnionType):
        members = [m for m in typing.get_args(declared) if m is not type(None)]
        if type(None) in typing.get_args(declared) and text.strip().lower() in ("none", "null"):
            return None
        if len(members) == 1:
            return parse_typed(name, text, members[0])
        declared = next((m for m in (bool, int, float, str) if m in members), None)
    if typing.get_origin(declared) is typing.Literal:
        choices = typing.get_args(declared)
        if text in map(str, choices):
            return next(c for c in choices if str(c) == text)
        raise ValueError(f"{name}={text!r} is not one of {', '.join(map(str, choices))}")
    parser = _PARSERS.get(declared)
    if parser is None:
        raise ValueError(f"{name} cannot be set from the command line (its type is {declared!r})")
    return parser(name, text)


def field_types(cls) -> dict[str, object]:
    """Field name -> declared type of the dataclass ``cls`` (string annotations resolved)."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - an unresolvable annotation: fall back to the names of plain types
        hints = {}
    plain = {"bool": bool, "int": int, "float": float, "str": str}
    return {f.name: hints.get(f.name, plain.get(f.type, f.type) if isinstance(f.type, str) else f.type)
            for f in dataclasses.fields(cls)}


def parse_key_values(text: str, what: str) -> dict[str, str]:
    """``key=value,key=value`` -> {key: value}; a missing ``=``, an empty key or a key given twice is an error."""
    pairs: dict[str, str] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{what} parameter {item.strip()!r} must be key=value")
        if key in pairs:
            raise ValueError(f"{what} parameter {key} is given twice")
        pairs[key] = value
    return pairs


def parse_agent(text: str, playouts: int, option: str = "--agent"):
    """``kind`` or ``kind:key=value,...`` (e.g. ``ppa:alpha=0.32``, ``rave:adaptive=true,margin=0.1``) -> config.

    The configuration class is the one ``make_agent(kind, playouts)`` builds; each value is parsed by the
    declared type of its field."""
    kind, _, rest = text.partition(":")
    try:
        return _agent(kind.strip(), rest, playouts)
    except (ValueError, TypeError) as error:  # say which option it was: --agent or --opponent
        raise type(error)(f"{option} {text!r}: {error}") from None


def _agent(kind: str, rest: str, playouts: int):
    from .agents import _agent_class, check_playouts, make_agent
    cls = _agent_class(kind)  # validates the kind first (a kind may have required parameters: no default instance)
    check_playouts(playouts)
    types_by_name = field_types(cls)
    settable = [name for name in types_by_name if name not in SET_ELSEWHERE]
    params = {}
    for key, value in parse_key_values(rest, kind).items():
        if key in SET_ELSEWHERE:
            raise ValueError(f"{key} cannot be given as key=value ({SET_ELSEWHERE[key]})")
        if key not in types_by_name:
            raise ValueError(f"unknown parameter {key!r} of {kind}; parameters: {', '.join(settable)}")
        params[key] = parse_typed(key, value, types_by_name[key])
    return make_agent(kind, playouts, **params)


def parse_game_options(items: list[str]) -> dict[str, int]:
    """``--game-option turns=10`` (repeatable) -> {"turns": 10}; the game validates names and values."""
    options: dict[str, int] = {}
    for item in items:
        for key, value in parse_key_values(item, "--game-option").items():
            if key in options:
                raise ValueError(f"--game-option {key} is given twice")
            options[key] = parse_int(key, value)
    return options
