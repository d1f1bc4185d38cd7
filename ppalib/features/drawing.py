"""Feature diagrams in the style of the paper's Fig. 9 and 10: a patch of board around the anchor, the move's
cells and each element's symbol.

The feature is drawn at rotation 0, reflection +1, on the infinite lattice of the board's kind (square or hex),
so cells its walks reach off the board are drawn too (an ``off`` element is a hatched cell there).  Symbols:

* destination (``to``): a green square in the cell, with an arrow from the origin (``from``, a blue ring) when the
  feature fixes both ends;
* friend: a white disc; enemy: a black disc (drawn for the player to move, as the paper draws White's features);
  empty: a dashed circle; off board: a hatched grey cell marked ``#``; player n: a disc marked ``P1`` / ``P2``
  (ppalib player 0 / 1); item: a square marked ``I``;
* a negated element is crossed out in red.
"""
from __future__ import annotations

import math

import numpy as np

from ..games.graph import BoardGraph
from .feature import Feature
from .walks import round_index


def _direction_vectors(graph: BoardGraph) -> np.ndarray:
    n = graph.directions
    vectors = np.zeros((n, 2))
    for k in range(n):
        cells = np.flatnonzero(graph.orthos[:, k] >= 0)
        if cells.size == 0:
            raise ValueError(f"no cell of the graph has a neighbour in direction {k}: cannot draw")
        c = cells[0]
        vectors[k] = graph.coords[graph.orthos[c, k]] - graph.coords[c]
    return vectors


def virtual_position(graph: BoardGraph, walk, vectors=None) -> np.ndarray:
    """Where ``walk`` ends on the board's infinite lattice, from the origin at rotation 0, reflection +1 (on a
    lattice the heading on arrival is the direction of the last step, so the turns add up)."""
    vectors = _direction_vectors(graph) if vectors is None else vectors
    n = graph.directions
    pos = np.zeros(2)
    heading = 0
    for k, turn in enumerate(walk):
        heading = (round_index(turn * n) if k == 0 else heading + round_index(turn * n)) % n
        pos = pos + vectors[heading]
    return pos


def _cell_polygon(kind: str, center):
    x, y = center
    if kind == "hex":
        r = 1 / math.sqrt(3)
        return [(x + r * math.cos(math.radians(30 + 60 * k)), y + r * math.sin(math.radians(30 + 60 * k)))
                for k in range(6)]
    return [(x - .5, y - .5), (x + .5, y - .5), (x + .5, y + .5), (x - .5, y + .5)]


def feature_radius(feature: Feature, graph: BoardGraph) -> float:
    """The radius of the patch ``draw_feature`` draws around ``feature`` (lattice units): pass the largest of a
    figure's to each panel, so that all are drawn at one scale."""
    vectors = _direction_vectors(graph)
    walks = [w for w in (feature.to_walk, feature.from_walk) if w is not None] + [e.walk for e in feature.elements]
    points = np.array([virtual_position(graph, walk, vectors) for walk in walks] + [np.zeros(2)])
    return max(1.0, float(np.max(np.hypot(points[:, 0], points[:, 1])))) + 1.01


#: The symbols' key, for a figure's caption line (``draw_feature``'s conventions).
SYMBOL_KEY = ("green square: the move's cell · blue ring: its origin · white disc: friend · black disc: enemy · "
              "dashed circle: empty · hatched #: off the board · red cross: not")


def draw_feature(feature: Feature, graph: BoardGraph, ax=None, title: bool = True, radius: float | None = None):
    """Draw ``feature`` on a patch of ``graph``'s lattice; returns the matplotlib Axes.  ``radius``: the patch's
    (default ``feature_radius``, the feature's own; a figure of several gives each the largest)."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, FancyArrowPatch, Polygon, Rectangle

    if ax is None:
        _, ax = plt.subplots(figsize=(3, 3))
    vectors = _direction_vectors(graph)
    sites = {}

    def site(walk):
        p = virtual_position(graph, walk, vectors)
        key = (round(p[0], 6), round(p[1], 6))
        sites.setdefault(key, [])
        return key

    to_site = site(feature.to_walk) if feature.to_walk is not None else None
    from_site = site(feature.from_walk) if feature.from_walk is not None else None
    for element in feature.elements:
        sites[site(element.walk)].append(element)
    anchor = site(())

    if radius is None:
        radius = feature_radius(feature, graph)
    span = int(math.ceil(radius)) + 2
    off_sites = {key for key, els in sites.items() if any(e.kind == "off" and not e.negated for e in els)}
    for a in range(-2 * span, 2 * span + 1):
        for b in range(-2 * span, 2 * span + 1):
            center = a * vectors[0] + b * vectors[1]
            if np.hypot(*center) > radius:
                continue
            key = (round(center[0], 6), round(center[1], 6))
            hatched = key in off_sites
            ax.add_patch(Polygon(_cell_polygon(graph.kind, center), closed=True, facecolor="0.85" if hatched else
                                 "#f3e3c3", edgecolor="0.35", linewidth=0.8, hatch="///" if hatched else None))

    if to_site is not None:
        ax.add_patch(Rectangle((to_site[0] - .16, to_site[1] - .16), .32, .32, facecolor="#2e9e44", zorder=3))
    if from_site is not None:
        ax.add_patch(Circle(from_site, .43, facecolor="none", edgecolor="#2050c0", linewidth=2.5, zorder=6))
        if to_site is not None and to_site != from_site:
            ax.add_patch(FancyArrowPatch(from_site, to_site, arrowstyle="-|>", mutation_scale=12, color="#2050c0",
                                         linewidth=1.5, zorder=4, shrinkA=8, shrinkB=6))
    for key, elements in sites.items():
        for k, element in enumerate(elements):
            dx = 0.0 if len(elements) == 1 else 0.22 * (k - (len(elements) - 1) / 2)
            x, y = key[0] + dx, key[1]
            size = 0.3 if len(elements) == 1 else 0.17
            kind = element.kind
            if kind == "friend":
                ax.add_patch(Circle((x, y), size, facecolor="white", edgecolor="black", linewidth=1.2, zorder=5))
            elif kind == "enemy":
                ax.add_patch(Circle((x, y), size, facecolor="black", edgecolor="black", zorder=5))
            elif kind == "empty":
                ax.add_patch(Circle((x, y), size, facecolor="none", edgecolor="0.3", linestyle="--", zorder=5))
            elif kind == "off":
                ax.text(x, y, "#", ha="center", va="center", fontsize=11, fontweight="bold", zorder=5)
            elif kind == "player":
                ax.add_patch(Circle((x, y), size, facecolor="#ddd", edgecolor="black", zorder=5))
                ax.text(x, y, f"P{element.value + 1}", ha="center", va="center", fontsize=7, zorder=6)
            else:  # item
                ax.add_patch(Rectangle((x - size, y - size), 2 * size, 2 * size, facecolor="#ddd",
                                       edgecolor="black", zorder=5))
                ax.text(x, y, "I", ha="center", va="center", fontsize=7, zorder=6)
            if element.negated:
                r = size * 1.1
                ax.plot([x - r, x + r], [y - r, y + r], color="red", linewidth=2, zorder=7)
                ax.plot([x - r, x + r], [y + r, y - r], color="red", linewidth=2, zorder=7)
    ax.set_xlim(-radius, radius)
    ax.set_ylim(-radius, radius)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(feature.to_text(), fontsize=6, wrap=True)
    return ax
