"""Spatial features for general games (Soemers, Piette & Browne 2019, "Biasing MCTS with Features for General
Games", section II-B and IV), as Ludii's public feature code defines them.

* ``Walk``: relative positions (turns as fractions of a clockwise turn); ``resolve_walk`` places one on a
  ``ppalib.games.graph.BoardGraph``.
* ``Element`` and ``Feature``: a pattern plus an action; frozen, canonical under rotation and reflection, with
  Ludii's text form (``Feature.to_text`` / ``Feature.from_text``).
* ``instantiate`` / ``Instance``: a feature placed at an anchor, rotation and reflection, reduced to cell tests.
* ``FeatureSet``: instances of a feature list on a board, a Python reference matcher (``active``) and the flat
  arrays (``compiled``) of the numba matcher ``ppalib.features.matcher`` (``logits``).
* ``atomic_features`` (the initial set), ``combine_instances`` (new features from two co-active instances).
* ``draw_feature``: a small board diagram in the style of the paper's Fig. 9 and 10.
* ``ppalib.features.handmade``: the paper's hand-made Yavalath features (Fig. 9) as a ``LinearPolicy``.
"""
from .drawing import draw_feature
from .feature import KINDS, Element, Feature, InconsistentFeature, simplify_elements
from .featureset import (CompiledFeatures, DuplicateFeature, FeatureSet, owner_relative,
                         state_move_cells, state_owner_relative)
from .generation import atomic_features, candidate_walks, combine_instances, move_features
from .instances import (EMPTY, ENEMY, FRIEND, NOT_EMPTY, NOT_ENEMY, NOT_FRIEND, TEST_NAMES, Instance,
                        instantiate)
from .walks import Walk, resolve_walk, resolve_walk_all, rotations, round_index, shortest_path

__all__ = [
    "Walk", "resolve_walk", "resolve_walk_all", "rotations", "round_index", "shortest_path",
    "KINDS", "Element", "Feature", "InconsistentFeature", "simplify_elements",
    "Instance", "instantiate", "EMPTY", "NOT_EMPTY", "FRIEND", "NOT_FRIEND", "ENEMY", "NOT_ENEMY", "TEST_NAMES",
    "FeatureSet", "CompiledFeatures", "DuplicateFeature", "owner_relative", "state_owner_relative",
    "state_move_cells",
    "atomic_features", "candidate_walks", "combine_instances", "move_features",
    "draw_feature",
]
