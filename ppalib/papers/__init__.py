"""One module per reproduced paper: its presets, its experiment grid, and its tables and figures."""
from __future__ import annotations


def resolve_settings(presets: dict, defaults: dict, preset: str, overrides: dict) -> dict:
    """The ``preset``'s parameters over ``defaults``, with ``overrides`` applied (``None`` values ignored).

    Raises ValueError naming an unknown preset or an unknown parameter; each paper module validates values.
    """
    if preset not in presets:
        raise ValueError(f"preset={preset!r} is unknown; known presets: {', '.join(presets)}")
    result = {**defaults, **presets[preset]}
    unknown = set(overrides) - set(result)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}; allowed: {sorted(result)}")
    result.update({k: v for k, v in overrides.items() if v is not None})
    return result
