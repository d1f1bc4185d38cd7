"""Pictures of a session with matplotlib, no widget: the board and its pieces, a search's root moves drawn on it,
and the playout weights PPA/PPAF (and MAST/MASTF) learned in that search.  The same pictures serve the widget (as
PNG) and the static fallback (papermill, a terminal): ``session_figure`` is what the explorer shows.

Boards come from each game's board graph (``board_graph``: cell centres, square or hex): squares for square
boards, points on lines for Go, Gomoku and Fanorona (its diagonals through the strong points), hexagons for Hex
and Yavalath; Domineering's dominoes fill the cells they cover.  Pieces come from ``cell_owner``: player 0 black,
player 1 white.  Games without a board (Cashing Checks) are refused by the session.

Every annotation of a move, cell or code carries a matplotlib ``gid`` (``move:<id>``, ``cell:<index>``,
``code:<code>``), so tests (and readers of an SVG) can find what was drawn.
"""
from __future__ import annotations

import io
import math
import os

import numpy as np

from ..games import Game
from .session import SearchDetails, Session, move_codes, move_weights, playout_probabilities, policy_sharpness

PIECE_COLOURS = ("#1a1a1a", "#f4f4f4")
TEXT_ON_PIECE = ("white", "black")
BOARD_COLOUR = "#e9cf9b"
SQUARE_COLOURS = ("#f0d9b5", "#d8b27a")
VISITS_CMAP = "Blues"
LEGAL_COLOUR = "#7bc47b"
WEIGHTS_CMAP = "RdBu_r"
# Games drawn otherwise than by their graph's kind: stones on points, or cells covered by dominoes.
POINT_GAMES = ("go", "gomoku", "fanorona")
FILL_GAMES = ("domineering",)


def board_style(game: Game) -> str:
    """``"points"`` (stones on the lines' crossings), ``"fill"`` (pieces cover cells), ``"hexes"`` or
    ``"squares"``."""
    module = game.module.__name__.rsplit(".", 1)[1]
    if module in POINT_GAMES:
        return "points"
    if module in FILL_GAMES:
        return "fill"
    return "hexes" if game.module.board_graph(game.spec).kind == "hex" else "squares"


def _cell_polygon(kind: str, x: float, y: float) -> list[tuple[float, float]]:
    """A cell's outline: a unit square, or a pointy-top hexagon whose neighbours are one unit away."""
    if kind == "hex":
        r = 1 / math.sqrt(3)
        return [(x + r * math.cos(math.radians(30 + 60 * k)), y + r * math.sin(math.radians(30 + 60 * k)))
                for k in range(6)]
    return [(x - .5, y - .5), (x + .5, y - .5), (x + .5, y + .5), (x - .5, y + .5)]


def _font_size(graph) -> float:
    span = max(np.ptp(graph.coords[:, 0]), np.ptp(graph.coords[:, 1])) + 1
    return float(np.clip(80 / span, 6, 11))


def draw_board(game: Game, state: np.ndarray, ax, *, shade: np.ndarray | None = None, cmap=VISITS_CMAP,
               vmin: float = 0.0, vmax: float = 1.0, pieces: str = "full", last_move: int | None = None,
               last_state: np.ndarray | None = None, selected: int | None = None, legal=(),
               coordinates: bool = True, targets: bool = True):
    """Draw ``state`` of ``game`` on the Axes ``ax``: the board, each cell shaded by ``shade[cell]`` (NaN: none) in
    ``cmap`` from ``vmin`` to ``vmax``, the pieces (``pieces``: ``"full"``, ``"small"`` to keep the shading
    readable, or ``"none"``), the last move (``last_move`` as played from ``last_state``: a red ring on its cell,
    an arrow from where it came), a ``selected`` cell (a gold ring) and the ``legal`` cells a click would play on
    (green dots).  ``coordinates``: the column letters and row numbers on the edges, as the move texts name cells
    (``cell_names``).  ``targets``: one invisible polygon per cell on top, gid ``target-<cell>``, that the widget's
    SVG makes clickable.  Pieces have the gid ``piece-<cell>-<owner>``.  Returns ``ax``."""
    from matplotlib import colormaps
    from matplotlib.patches import Circle, FancyArrowPatch, Polygon

    graph = game.module.board_graph(game.spec)
    style = board_style(game)
    coords = graph.coords
    kind = "hex" if graph.kind == "hex" else "square"
    colour_map = colormaps[cmap] if isinstance(cmap, str) else cmap
    if style == "points":
        ax.add_patch(Polygon([(coords[:, 0].min() - .5, coords[:, 1].min() - .5),
                              (coords[:, 0].max() + .5, coords[:, 1].min() - .5),
                              (coords[:, 0].max() + .5, coords[:, 1].max() + .5),
                              (coords[:, 0].min() - .5, coords[:, 1].max() + .5)], facecolor=BOARD_COLOUR,
                             edgecolor="none", zorder=0))
        for cell in range(graph.cells):
            for neighbour in _line_neighbours(game, graph, cell):
                ax.plot(*zip(coords[cell], coords[neighbour]), color="0.25", linewidth=0.8, zorder=1)
    for cell in range(graph.cells):
        x, y = coords[cell]
        if style == "points":
            face = "none"
        elif kind == "hex":
            face = BOARD_COLOUR
        else:
            face = SQUARE_COLOURS[int(round(x + y)) % 2]
        value = np.nan if shade is None else shade[cell]
        if not np.isnan(value):
            face = colour_map(float(np.clip((value - vmin) / (vmax - vmin), 0, 1)) if vmax > vmin else 0.5)
        ax.add_patch(Polygon(_cell_polygon(kind, x, y), closed=True, facecolor=face,
                             edgecolor="0.45" if style != "points" else "none", linewidth=0.6,
                             alpha=0.85 if style == "points" and face != "none" else 1.0, zorder=0.5))
    if game.module.__name__.endswith(".hex"):
        _hex_sides(game, graph, ax)
    owners = [int(game.module.cell_owner(game.spec, state, cell)) for cell in range(graph.cells)]
    radius = {"full": 0.4, "small": 0.16, "none": 0.0}[pieces]
    for cell, owner in enumerate(owners):
        if owner < 0 or radius == 0:
            continue
        x, y = coords[cell]
        if style == "fill" and pieces == "full":
            ax.add_patch(Polygon(_cell_polygon(kind, x, y), closed=True, facecolor=PIECE_COLOURS[owner],
                                 edgecolor="0.45", linewidth=0.6, zorder=2, gid=f"piece-{cell}-{owner}"))
        else:
            centre = (x, y + 0.3) if pieces == "small" else (x, y)
            ax.add_patch(Circle(centre, radius, facecolor=PIECE_COLOURS[owner], edgecolor="black", linewidth=0.8,
                                zorder=3, gid=f"piece-{cell}-{owner}"))
    if last_move is not None and last_state is not None:
        source = int(game.module.move_from(game.spec, last_state, last_move))
        target = int(game.module.move_to(game.spec, last_state, last_move))
        if target >= 0:
            ax.add_patch(Circle(coords[target], 0.46, facecolor="none", edgecolor="#d62728", linewidth=1.8,
                                zorder=5))
            if source >= 0:
                ax.add_patch(FancyArrowPatch(coords[source], coords[target], arrowstyle="-|>", mutation_scale=10,
                                             color="#d62728", linewidth=1.2, zorder=5, shrinkA=4, shrinkB=10))
    if selected is not None:
        ax.add_patch(Circle(coords[selected], 0.47, facecolor="none", edgecolor="#e6a700", linewidth=2.5, zorder=6))
    for cell in legal:
        ax.add_patch(Circle(coords[cell], 0.13, facecolor=LEGAL_COLOUR, edgecolor="#1e6b1e", linewidth=0.8,
                            zorder=6))
    labels = edge_labels(game) if coordinates else []
    for x, y, text in labels:
        ax.text(x, y, text, ha="center", va="center", fontsize=_font_size(graph) * 0.85, color="0.3", zorder=1,
                gid="coordinate")
    if targets:
        for cell in range(graph.cells):
            ax.add_patch(Polygon(_cell_polygon(kind, *coords[cell]), closed=True, facecolor="white", alpha=0.0,
                                 edgecolor="none", zorder=20, gid=f"target-{cell}"))
    # the limits hold every cell with its outline, Hex's side lines and the coordinates, so nothing is cut
    reach = 0.6 if kind == "square" else 0.95  # a cell's half width; Hex's side lines lie 0.8 out
    xs = np.concatenate([coords[:, 0] - reach, coords[:, 0] + reach, [x - 0.35 for x, _, _ in labels]])
    ys = np.concatenate([coords[:, 1] - reach, coords[:, 1] + reach, [y - 0.35 for _, y, _ in labels]])
    ax.set_xlim(xs.min(), xs.max())
    ax.set_ylim(ys.min(), ys.max())
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


def cell_names(game: Game) -> list[str]:
    """Each cell's name as the game's move texts write it: column letter and row number (square boards and Hex's
    rhombus: column a on the left, row 1 at the bottom, Othello's at the top), or Yavalath's names (row letter, then the cell's
    place in its row)."""
    graph = game.module.board_graph(game.spec)
    if hasattr(game.module, "CELL_NAMES"):
        return list(game.module.CELL_NAMES)
    return [f"{chr(ord('a') + column)}{_rank(game, row)}" for row, column in _rows_columns(graph)]


def _rank(game: Game, row: int) -> int:
    """The number a row bears in move texts: from 1 at the bottom, or from the top in Othello's coordinates."""
    return game.size - row if game.module.__name__.endswith(".othello") else row + 1


def _rows_columns(graph) -> list[tuple[int, int]]:
    """(row, column) of each cell of a square board or a Hex rhombus (``graph.hex_rhombus_graph``: x = c + r/2)."""
    x, y = graph.coords[:, 0], graph.coords[:, 1]
    if graph.kind == "square":
        rows, columns = np.rint(y - y.min()), np.rint(x - x.min())
    else:
        rows = np.rint((y - y.min()) / (math.sqrt(3) / 2))
        columns = np.rint(x - x.min() - rows / 2)
    return [(int(r), int(c)) for r, c in zip(rows, columns)]


def edge_labels(game: Game) -> list[tuple[float, float, str]]:
    """The coordinates written round the board, (x, y, text): column letters under the bottom row and row numbers
    left of the first column (square boards, Hex beyond its side lines); Yavalath's row letters at both ends of
    each row."""
    graph = game.module.board_graph(game.spec)
    coords = graph.coords
    labels = []
    if hasattr(game.module, "CELL_NAMES"):  # a hexagon: rows are named, cells counted along them
        rows: dict[float, list[int]] = {}
        for cell, name in enumerate(game.module.CELL_NAMES):
            rows.setdefault(round(float(coords[cell, 1]), 6), []).append(cell)
        for cells in rows.values():
            left = min(cells, key=lambda c: coords[c, 0])
            right = max(cells, key=lambda c: coords[c, 0])
            letter = game.module.CELL_NAMES[left][0]
            labels += [(coords[left, 0] - 0.85, coords[left, 1], letter),
                       (coords[right, 0] + 0.85, coords[right, 1], letter)]
        return labels
    places = _rows_columns(graph)
    away = 1.15 if graph.kind == "hex" else 0.8  # Hex: beyond the side lines (0.75 from the cells)
    for cell, (row, column) in enumerate(places):
        x, y = coords[cell]
        if row == 0:
            labels.append((x, y - away, chr(ord("a") + column)))
        if column == 0:
            labels.append((x - away, y, str(_rank(game, row))))
    return labels


def _line_neighbours(game: Game, graph, cell: int) -> list[int]:
    """The points ``cell`` is joined to by a line drawn once (to higher-numbered points): the graph's orthogonal
    neighbours, and on Fanorona's board the diagonals through its strong points."""
    found = [int(n) for n in graph.orthos[cell] if n > cell]
    module = game.module
    if module.__name__.endswith(".fanorona"):
        found += [n for n in (module.neighbour(cell, d) for d in (1, 3, 5, 7)) if n > cell]
    return found


def _hex_sides(game: Game, graph, ax) -> None:
    """Hex's four sides in their owner's colour: player 0 joins the bottom and top rows, player 1 the left and right
    columns (``ppalib.games.hex``)."""
    n = game.size
    coords = graph.coords
    for cells, offset, owner in (([c for c in range(n)], (0, -0.75), 0),
                                 ([(n - 1) * n + c for c in range(n)], (0, 0.75), 0),
                                 ([r * n for r in range(n)], (-0.8, 0), 1),
                                 ([r * n + n - 1 for r in range(n)], (0.8, 0), 1)):
        points = coords[cells] + np.array(offset)
        ax.plot(points[:, 0], points[:, 1], color=PIECE_COLOURS[owner], linewidth=4, solid_capstyle="round",
                zorder=0.4, path_effects=_outline())


def _outline():
    from matplotlib import patheffects
    return [patheffects.Stroke(linewidth=5.5, foreground="0.3"), patheffects.Normal()]


def _player_name(player: int) -> str:
    return ("black", "white")[player]


# ---- a search ---------------------------------------------------------------------------------------------------
def draw_search(details: SearchDetails, ax, *, min_visits: float = 1.0, **board):
    """The root of a search drawn on its position: each root move with at least ``min_visits`` playouts shaded by
    its share of the root's visits (placements: the cell; moves with a from and a to: an arrow whose width and
    colour grow with the share) and labelled with its visits and value (mean result for the player to move, 0..1);
    the move chosen is outlined in red.  Moves that are not on a cell (pass, swap, Fanorona's stop) are listed under
    the board.  Moves sharing a from and a to (Fanorona's approach and withdrawal) stack their labels on the
    arrow.  ``board``: more options of ``draw_board`` (the last move, a selected cell, legal cells).  Returns
    ``ax``; each move's label has the gid ``move:<id>``."""
    from matplotlib import colormaps, patheffects
    from matplotlib.patches import Circle, FancyArrowPatch

    game, state, result = details.game, details.state, details.result
    graph = game.module.board_graph(game.spec)
    coords = graph.coords
    total = result.visits.sum()
    share = result.visits / total if total > 0 else np.zeros_like(result.visits)
    values = result.values if result.values.size else np.full(result.moves.size, np.nan)
    shown = np.flatnonzero(result.visits >= min_visits)
    sources = {i: int(game.module.move_from(game.spec, state, result.moves[i])) for i in shown}
    targets = {i: int(game.module.move_to(game.spec, state, result.moves[i])) for i in shown}
    top = share[shown].max() if shown.size else 1.0
    shade = np.full(graph.cells, np.nan)
    for i in shown:
        if sources[i] < 0 <= targets[i]:
            shade[targets[i]] = max(share[i], 0 if np.isnan(shade[targets[i]]) else shade[targets[i]])
    draw_board(game, state, ax, shade=shade, vmin=0, vmax=top, **board)
    size = _font_size(graph)
    points = board_style(game) == "points"
    sharing: dict[tuple[int, int], list[int]] = {}
    for i in shown:
        if sources[i] >= 0 <= targets[i]:
            sharing.setdefault((sources[i], targets[i]), []).append(i)
    cmap = colormaps[VISITS_CMAP]
    off_board = []
    for i in shown:
        move = int(result.moves[i])
        label = f"{result.visits[i]:.0f}\n{_value_text(values[i])}"
        chosen = move == result.move
        if targets[i] < 0:
            off_board.append((i, move))
            continue
        if sources[i] < 0:
            x, y = coords[targets[i]]
            dark = share[i] / top > 0.55
            # on points (Go, Gomoku) the lines cross the label: a halo of the cell's colour keeps it readable
            halo = [patheffects.withStroke(linewidth=2.5, foreground=cmap(0.1 + 0.9 * share[i] / top) if
                                           top > 0 else "white")] if points else None
            ax.text(x, y, label, ha="center", va="center", fontsize=size * 0.8, linespacing=0.95, zorder=7,
                    color="white" if dark else "black", gid=f"move:{move}",
                    fontweight="bold" if chosen else "normal", path_effects=halo)
            if chosen:
                ax.add_patch(Circle((x, y), 0.47, facecolor="none", edgecolor="#d62728", linewidth=2, zorder=6))
        else:
            start, end = coords[sources[i]], coords[targets[i]]
            strength = share[i] / top
            ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=8 + 8 * strength,
                                         linewidth=0.8 + 3.5 * strength, color=cmap(0.35 + 0.65 * strength),
                                         zorder=6, shrinkA=3, shrinkB=6, alpha=0.9))
            if chosen:
                ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-", linewidth=1.0, color="#d62728",
                                             zorder=6.5, shrinkA=3, shrinkB=6))
            # the label sits on the arrow, nearer its head, so arrows ending on one cell keep apart labels; moves
            # with the same from and to stack theirs, each line led by what tells them apart (a, w)
            group = sharing[(sources[i], targets[i])]
            x, y = start + 0.62 * (end - start)
            if len(group) > 1:
                suffix = details.texts[i][len(os.path.commonprefix([details.texts[j] for j in group])):]
                label = f"{suffix or '·'} {result.visits[i]:.0f} {_value_text(values[i])}"
                y += 0.22 * (len(group) - 1) / 2 - 0.22 * group.index(i)
            ax.text(x, y, label, ha="center", va="center", fontsize=size * 0.8, linespacing=0.9, zorder=8,
                    gid=f"move:{move}", fontweight="bold" if chosen else "normal",
                    bbox=dict(boxstyle="round,pad=0.12", facecolor="white", edgecolor="none", alpha=0.75))
    y = coords[:, 1].min() - 0.85
    for k, (i, move) in enumerate(off_board):
        ax.text(coords[:, 0].mean(), y - 0.45 * k, f"{details.texts[i]}: {result.visits[i]:.0f} visits, value "
                f"{_value_text(values[i])}", ha="center", va="top", fontsize=size * 0.8, gid=f"move:{move}",
                color="#d62728" if move == result.move else "black")
    chosen_text = details.texts[list(result.moves).index(result.move)] if result.move in result.moves else "?"
    what = {"played": "played", "analysis": "analysis", "stored": "stored game's search"}[details.origin]
    ax.set_title(f"{details.agent.label}, {result.iterations:,} iterations ({what}); {_player_name(details.player)}"
                 f" to move, best {chosen_text}\ncell: visits / value for {_player_name(details.player)}; "
                 f"colour: share of visits", fontsize=8)
    return ax


def _value_text(value: float) -> str:
    return "–" if np.isnan(value) else f"{value:.2f}".lstrip("0") if value < 1 else "1.0"


# ---- learned playout weights --------------------------------------------------------------------------------------
def cell_weights(details: SearchDetails) -> np.ndarray | None:
    """The learned weight of placing a piece on each cell for the player to move, or None when the game's move
    codes are not cells.

    PPA and MAST without context code a placement as ``offset + cell`` with one offset per player (Go, Atarigo,
    Nogo, Hex, Gomoku, Othello, Connect Four's landing cell, Domineering's anchor, Yavalath, Teeko's placements;
    see each game's ``move_code``).  That is checked on the legal moves of the searched position: every move must
    be a placement (or off the board: pass, swap) and all placements must share one ``code - cell``.  Then every
    cell's weight is known, occupied cells included (what the playouts learned about them).  Otherwise (moves with
    a from and a to: Breakthrough, Knightthrough, Fanorona, Teeko's moving phase; PPAF/MASTF, whose codes add the
    move's surroundings) the weights are shown per move code (``draw_code_weights``)."""
    result = details.result
    if not result.policy.size or details.with_context:
        return None
    game, state = details.game, details.state
    cells = game.module.board_graph(game.spec).cells
    offsets = set()
    for move, code in zip(result.moves, move_codes(details)):
        if int(game.module.move_from(game.spec, state, move)) >= 0:
            return None
        target = int(game.module.move_to(game.spec, state, move))
        if target >= 0:
            offsets.add(int(code) - target)
    if len(offsets) != 1:
        return None
    offset = offsets.pop()
    if offset < 0 or offset + cells > result.policy.size:
        return None
    return result.policy[offset:offset + cells]


def draw_cell_weights(details: SearchDetails, ax, weights: np.ndarray | None = None, **board):
    """PPA/MAST weights as a heat map per cell (``cell_weights``): each cell coloured by the weight the playouts give
    a placement there by the player to move, labelled with it; pieces shrink to small discs so that occupied cells
    show their weight too.  PPA: red above 0, blue below, the scale symmetric about 0; MAST (the code's mean
    result): 0 blue to 1 red, 0.5 white.  ``board``: more options of ``draw_board``.  Gids ``cell:<index>``."""
    weights = cell_weights(details) if weights is None else weights
    if weights is None:
        raise ValueError("the game's move codes are not cells here: use draw_code_weights")
    game = details.game
    graph = game.module.board_graph(game.spec)
    mast = details.agent.kind in ("mast", "mastf")
    if mast:
        low, high = 0.0, 1.0
    else:
        high = float(np.max(np.abs(weights))) or 1.0
        low = -high
    draw_board(game, details.state, ax, shade=weights, cmap=WEIGHTS_CMAP, vmin=low, vmax=high, pieces="small",
               **board)
    size = _font_size(graph)
    middle, half = (low + high) / 2, (high - low) / 2
    for cell, weight in enumerate(weights):
        x, y = graph.coords[cell]
        text = f"{weight:.2f}".lstrip("0") if mast else (f"{weight:+.1f}" if abs(weight) >= 0.05 else "0")
        ax.text(x, y - 0.12, text, ha="center", va="center", fontsize=size * 0.7, zorder=7, gid=f"cell:{cell}",
                color="white" if abs(weight - middle) / half > 0.6 else "black")
    what = "mean result of a placement" if mast else "playout weight of a placement"
    k = f"{policy_sharpness(details.agent):g} x " if mast else ""
    ax.set_title(f"{details.agent.label}: {what} by {_player_name(details.player)}, per cell\n"
                 f"(probability in a playout ∝ exp({k}weight))", fontsize=8)
    return ax


def draw_code_weights(details: SearchDetails, ax, max_moves: int = 24):
    """The learned weights per move code: one bar per legal move of the searched position (the ``max_moves`` of
    largest weight), labelled with the move and its code (for PPAF/MASTF the code with the move's surroundings
    here; MAST's weight is the code's mean result), and the probability a playout in this position draws it
    (``playout_probabilities``: ∝ exp(k x weight) over the legal moves, the Gibbs draw).  Gids ``code:<code>``."""
    result = details.result
    if not result.policy.size:
        raise ValueError(f"{details.agent.label} learns no playout policy: no weights to draw")
    weights, codes = move_weights(details), move_codes(details)
    probabilities = playout_probabilities(details)
    order = np.argsort(-weights, kind="stable")[:max_moves][::-1]
    colours = ["#c0392b" if weights[i] > 0 else "#2f6db3" for i in order]
    ax.barh(range(order.size), weights[order], color=colours)
    ax.set_yticks(range(order.size), [f"{details.texts[i]}  (code {codes[i]})" for i in order], fontsize=7)
    ax.axvline(0, color="0.3", linewidth=0.8)
    span = max(float(np.abs(weights).max()), 1e-9)
    for row, i in enumerate(order):
        ax.text(weights[i] + (0.02 * span if weights[i] >= 0 else -0.02 * span), row, f"p={probabilities[i]:.2f}",
                va="center", ha="left" if weights[i] >= 0 else "right", fontsize=6.5, gid=f"code:{codes[i]}")
    ax.set_xlim(-1.3 * span, 1.3 * span)
    ax.set_xlabel("weight of the move's code", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    context = " with context (PPAF/MASTF)" if details.with_context else ""
    shown = f"{order.size} of {weights.size}" if order.size < weights.size else f"all {weights.size}"
    ax.set_title(f"{details.agent.label}: weights of the codes{context} of {shown} legal moves\n"
                 f"p: probability a playout here draws the move", fontsize=8)
    return ax


def draw_weights(details: SearchDetails, ax):
    """The learned playout weights of a search: per cell where the game's codes are cells (``cell_weights``), else
    per move code (``draw_code_weights``)."""
    weights = cell_weights(details)
    if weights is not None:
        return draw_cell_weights(details, ax, weights)
    return draw_code_weights(details, ax)


# ---- figures ----------------------------------------------------------------------------------------------------
#: The board picture's height in inches: at the widget's 96 px an inch about 460 px, so that the board, the status
#: line above it and the controls beside it fit a laptop's JupyterLab (1366 x 768 and up) without scrolling.
BOARD_HEIGHT = 4.8


def board_marks(session: Session) -> dict:
    """What ``draw_board`` marks on the session's position: the last move, the selected cell and, once a piece is
    selected, the cells it can move to."""
    game, state = session.game, session.history[session.ply]
    last = session.ply - 1
    legal = []
    if session.selected_from is not None:
        module = game.module
        legal = sorted({int(module.move_to(game.spec, state, m)) for m in session.legal_moves()
                        if int(module.move_from(game.spec, state, m)) == session.selected_from} - {-1})
    return {"last_move": session.moves[last] if last >= 0 else None,
            "last_state": session.history[last] if last >= 0 else None,
            "selected": session.selected_from, "legal": legal}


def draw_position(session: Session, ax, view: str = "search"):
    """The session's position at the cursor on ``ax``, as the widget shows it: ``view="search"`` draws the search
    made there (if any) on it, ``"weights"`` its learned playout weights per cell (where the codes are cells;
    else the bars of ``draw_code_weights``), ``"board"`` the position alone.  Returns ``ax``."""
    if view not in ("search", "weights", "board"):
        raise ValueError(f"view={view!r} must be 'search', 'weights' or 'board'")
    details = session.current_search
    marks = board_marks(session)
    if view == "weights" and details is not None and details.result.policy.size:
        weights = cell_weights(details)
        if weights is None:
            return draw_code_weights(details, ax)
        return draw_cell_weights(details, ax, weights, **marks)
    if view != "board" and details is not None:
        return draw_search(details, ax, **marks)
    draw_board(session.game, session.history[session.ply], ax, **marks)
    if session.ply > 0:
        ax.set_title(f"last move: {session.move_text(session.moves[session.ply - 1], session.ply - 1)}",
                     fontsize=8)
    return ax


def board_figure(session: Session, view: str = "search", height: float = BOARD_HEIGHT):
    """The widget's picture: one panel (``draw_position``), ``height`` inches tall and as wide as the board needs.
    A ``matplotlib.figure.Figure`` (no pyplot)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(height, height), layout="constrained")
    ax = figure.subplots()
    draw_position(session, ax, view)
    _fit_width(figure, [ax], height)
    return figure


def session_figure(session: Session, *, height: float = BOARD_HEIGHT, width: float | None = None):
    """What the explorer shows, static (papermill, a terminal): the position at the cursor (its last move marked)
    with the search made there drawn on it, if any, and beside it the search's learned playout weights when the
    agent learns some (PPA, PPAF, MAST, MASTF).  ``width``: None sizes the figure to the boards.  A
    ``matplotlib.figure.Figure`` (no pyplot: nothing stays open)."""
    from matplotlib.figure import Figure

    details = session.current_search
    panels = 2 if details is not None and details.result.policy.size else 1
    figure = Figure(figsize=(width or height * panels, height), layout="constrained")
    axes = figure.subplots(1, panels, squeeze=False)[0]
    draw_position(session, axes[0], "search")
    if panels == 2:
        draw_position(session, axes[1], "weights")
    figure.suptitle(session.status(), fontsize=9)
    if width is None:
        _fit_width(figure, axes, height)
    return figure


def _fit_width(figure, axes, height: float) -> None:
    """Make ``figure`` as wide as its board panels drawn ``height`` tall need (bar charts take a board's width)."""
    width = 0.0
    for ax in axes:
        if ax.get_aspect() == 1.0:
            (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
            width += (height - 0.6) * (x1 - x0) / (y1 - y0) + 0.2
        else:
            width += height
    figure.set_size_inches(float(np.clip(width, 3.5, 12)), height)


def figure_png(figure, dpi: int = 100) -> bytes:
    """``figure`` as PNG bytes."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def figure_svg(figure) -> str:
    """``figure`` as SVG text (what the widget shows: sharp at any zoom), its texts kept as text (small, and
    readable by tests) and each artist's gid as an element id (``target-<cell>``: the click targets)."""
    from matplotlib import rc_context
    buffer = io.StringIO()
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "ppalib"}):
        figure.savefig(buffer, format="svg")
    return buffer.getvalue()
