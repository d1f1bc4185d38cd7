"""Learned policies as artefacts: a feature set and its weights for one game, saved under a content hash.

A ``LinearPolicy`` is what expert iteration (Soemers, Piette & Browne 2019, section III) learns: the features (in
Ludii's text form, in index order) and theta, for one game at one size with its options (the board graph the
features are instantiated on depends on them).  Its ``content_hash`` (16 hex digits of the SHA-256 of its JSON) is
its name: an agent refers to a policy by hash (``make_agent("puct", 800, policy=<hash>)``), so an evaluation
condition's id says which policy it used, and a worker loads it from the folders ``policy_folders`` lists.

Files are ``<folder>/<hash>.json``; a run keeps its policies beside its results (``data/results/<paper>/policies``
for the committed run, ``output/<preset>/results/<paper>/policies`` for the others; ``policy_folders``).  Weights are written with ``repr`` precision, so a loaded policy
has bit-identical weights and the same hash.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from ..paths import OUTPUT, ROOT
from .feature import Feature
from .featureset import FeatureSet

POLICIES = ROOT / "data" / "policies"
_LOADED: dict[str, "LinearPolicy"] = {}


@dataclass(frozen=True, eq=False)
class LinearPolicy:
    """Features and weights of the apprentice p(s, a) = softmax(theta . phi(s, a)) for ``game`` at ``size``."""
    game: str
    size: int
    features: tuple[str, ...]
    theta: tuple[float, ...]
    game_options: tuple = ()
    note: str = ""  # how it was made (e.g. "correlation-based, 200 self-play games"); part of the hash

    def __post_init__(self):
        object.__setattr__(self, "features", tuple(str(f).strip() for f in self.features))
        object.__setattr__(self, "theta", tuple(float(t) for t in self.theta))
        object.__setattr__(self, "game_options", tuple(sorted((str(k), int(v)) for k, v in dict(self.game_options)
                                                              .items())))
        if len(self.features) != len(self.theta):
            raise ValueError(f"{len(self.features)} features but {len(self.theta)} weights")
        bad = next((i for i, t in enumerate(self.theta) if not np.isfinite(t)), None)
        if bad is not None:
            raise ValueError(f"theta[{bad}]={self.theta[bad]} is not finite (every weight must be)")

    @classmethod
    def from_set(cls, game, feature_set: FeatureSet, theta, note: str = "") -> "LinearPolicy":
        """The policy of a ``ppalib.games.Game`` (its name, size and options) and a feature set with weights."""
        return cls(game.name, game.size, tuple(f.to_text() for f in feature_set.features),
                   tuple(np.asarray(theta, dtype=np.float64).tolist()), game.options, note)

    def as_dict(self) -> dict:
        return {"game": self.game, "size": self.size, "game_options": dict(self.game_options),
                "features": list(self.features), "theta": [repr(t) for t in self.theta], "note": self.note}

    @cached_property
    def content_hash(self) -> str:
        text = json.dumps(self.as_dict(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def weights(self) -> np.ndarray:
        return np.array(self.theta, dtype=np.float64)

    def make_game(self):
        from ..games import make_game
        return make_game(self.game, self.size, **dict(self.game_options))

    @cached_property
    def feature_set(self) -> FeatureSet:
        """The features instantiated on the game's board (one per process; its compiled matcher has state)."""
        game = self.make_game()
        return FeatureSet.from_text("\n".join(self.features), game.module.board_graph(game.spec))

    def save(self, folder: Path | str = POLICIES) -> Path:
        """Write ``<folder>/<hash>.json`` (atomically; an existing file is left as it is) and return its path."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.content_hash}.json"
        if not path.exists():
            tmp = path.with_suffix(".json.tmp")
            tmp.write_text(json.dumps(self.as_dict(), sort_keys=True, indent=1) + "\n")
            tmp.replace(path)
        _LOADED[self.content_hash] = self
        return path

    @classmethod
    def from_file(cls, path: Path | str) -> "LinearPolicy":
        """The policy saved at ``path``; a damaged file (not JSON, a field missing or of the wrong type, a feature
        that does not read, a weight that is not a finite number, content that does not hash to the file's name)
        is refused with a ValueError naming the file and the hash it should have."""
        path = Path(path)
        where = f"policy file {path} (policy {path.stem})"
        try:
            data = json.loads(path.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise ValueError(f"{where} is not valid JSON (truncated or damaged?): {error}") from None
        if not isinstance(data, dict):
            raise ValueError(f"{where} holds {type(data).__name__}, not a policy's JSON object")
        missing = [key for key in ("game", "size", "features", "theta") if key not in data]
        if missing:
            raise ValueError(f"{where} has no {', '.join(missing)} (damaged?)")
        for key, kind in (("features", list), ("theta", list), ("game_options", dict), ("game", str),
                          ("note", str)):
            if key in data and not isinstance(data[key], kind):
                raise ValueError(f"{where}: {key} must be a JSON {kind.__name__}, got {data[key]!r:.80}")
        if isinstance(data["size"], bool) or not isinstance(data["size"], int):
            raise ValueError(f"{where}: size must be an integer, got {data['size']!r}")
        try:
            theta = []
            for i, text in enumerate(data["theta"]):
                if isinstance(text, bool) or not isinstance(text, (str, int, float)):
                    raise ValueError(f"theta[{i}]={text!r} is not a number")
                try:
                    theta.append(float(text))
                except ValueError:
                    raise ValueError(f"theta[{i}]={text!r} is not a number") from None
            policy = cls(data["game"], data["size"], tuple(data["features"]), tuple(theta),
                         tuple(data.get("game_options", {}).items()), data.get("note", ""))
            for i, text in enumerate(data["features"]):
                try:
                    Feature.from_text(text)
                except ValueError as error:
                    raise ValueError(f"features[{i}]: {error}") from None
            policy.make_game()  # the game, size and options exist
        except (ValueError, TypeError) as error:
            raise ValueError(f"{where}: {error}") from None
        if policy.content_hash != path.stem:
            raise ValueError(f"{where}: its content hashes to {policy.content_hash}, not {path.stem} (edited?)")
        return policy


#: Extra folders to search, separated by os.pathsep (a run sets it, so that the worker processes it starts look
#: in its folder too).
POLICY_PATH_VARIABLE = "PPALIB_POLICY_PATH"


def policy_folders() -> list[Path]:
    """Where ``load_policy`` looks: the folders in ``$PPALIB_POLICY_PATH``, ``data/policies``, every
    ``data/results/<paper>/policies`` and every ``output/<preset>/results/<paper>/policies``."""
    extra = [Path(p) for p in os.environ.get(POLICY_PATH_VARIABLE, "").split(os.pathsep) if p]
    return [*extra, POLICIES, *sorted((ROOT / "data" / "results").glob("*/policies")),
            *sorted(OUTPUT.glob("*/results/*/policies"))]


def load_policy(content_hash: str, folders=None) -> LinearPolicy:
    """The policy saved (or made in this process) under ``content_hash``; an error naming the folders searched."""
    if content_hash in _LOADED:
        return _LOADED[content_hash]
    folders = policy_folders() if folders is None else [Path(f) for f in folders]
    for folder in folders:
        path = folder / f"{content_hash}.json"
        if path.exists():
            policy = LinearPolicy.from_file(path)
            _LOADED[content_hash] = policy
            return policy
    raise FileNotFoundError(f"policy {content_hash!r} is in none of {[str(f) for f in folders]}; save it with "
                            f"LinearPolicy.save (agents refer to policies by content hash)")


__all__ = ["LinearPolicy", "load_policy", "policy_folders", "POLICIES", "POLICY_PATH_VARIABLE"]
