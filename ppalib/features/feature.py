"""Spatial features (Soemers, Piette & Browne 2019, section II-B): a pattern of elements at relative positions
and an action, both given as walks from an anchor.

Element kinds (the paper's list; Ludii's text labels in brackets):

============  =====  ==========================================================================================
``"empty"``   ``-``  an empty cell
``"friend"``  ``f``  a piece of the player to move (the player whose move the feature scores)
``"enemy"``   ``e``  a piece of the other player
``"off"``     ``#``  off the board (the walk left the board)
``"player"``  ``1``  a piece of player ``value`` (ppalib numbering: 0 moves first).  Written ``1`` for player 0
                     and ``2`` for player 1, as Ludii writes P1 and P2.
``"item"``    ``I``  a piece with index ``value`` in the game's definition.  Every ppalib game's ``cell_owner``
                     tells owners only (one piece type a player), so an item element matches *any* piece
                     ("occupied"), whatever its value; the value is kept for the text form.
============  =====  ==========================================================================================

Each can be negated (``!``).  Off the board, every positive kind but ``off`` fails and every negated kind but
``!off`` holds (Ludii's ``instantiateFeature``).

A ``Feature`` is frozen, hashable and *canonical*: the constructor brings it to one representative of its class
under rotation and reflection (Ludii's ``normalise``, brief section 1.9, made deterministic), so two features that
match the same (state, action) pairs on every board because one is a rotation or reflection of the other compare
equal.  The representative:

1. every turn is brought into (-1/2, 1/2] (a turn and the turn +- 1 resolve the same);
2. the first turn that is most common among the walks with a step (element walks and action walks) becomes 0 by
   rotating the whole feature (Ludii's rule; when several first turns are equally common each is tried);
3. if reflection is allowed, the mirror image is tried too (Ludii negates when no turn is positive);
4. elements are sorted, duplicates dropped, and an element implied by another on the same walk dropped (Ludii's
   ``removeRedundancies``: ``!off{0}`` next to ``e{0}`` says nothing more);

and of the candidates the one with the fewest negative turns, then the smallest in a fixed order, is kept.  Step 2
assumes turns are multiples of 1/n on a board with n directions: true of every generated and combined feature;
hand-written features with other turns (Fig. 3's 1/4 on a hex board) keep their meaning as long as all their
first turns are equal.

Text form (Ludii's): ``rel:from=<{}>:to=<{0,1/4}>:pat=<els=[f{}, !e{0,0}]>``; ``pat=<refl=false,els=[...]>`` when
reflection is not allowed.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from .walks import Walk, reduce_turn

KINDS = ("empty", "friend", "enemy", "off", "player", "item")
_LABELS = {"empty": "-", "friend": "f", "enemy": "e", "off": "#", "item": "I"}
_KIND_ORDER = {kind: i for i, kind in enumerate(KINDS)}

# What a site can hold, from the mover's point of view: off board, empty, or a piece of player 0 / 1 that is the
# mover's (friend) or not (enemy).  An element holds on a subset of these; consistency and redundancy of elements
# on the same walk are decided on these subsets.
_OFF, _EMPTY, _F0, _F1, _X0, _X1 = (1 << i for i in range(6))
_ALL = _OFF | _EMPTY | _F0 | _F1 | _X0 | _X1


def _site_set(kind: str, negated: bool, value) -> int:
    positive = {
        "empty": _EMPTY, "off": _OFF, "friend": _F0 | _F1, "enemy": _X0 | _X1, "item": _F0 | _F1 | _X0 | _X1,
        "player": (_F0 | _X0) if value == 0 else (_F1 | _X1),
    }[kind]
    return _ALL & ~positive if negated else positive


@dataclass(frozen=True)
class Element:
    """One test of a pattern: ``kind`` (see the module docstring) at the cell ``walk`` reaches, ``negated`` or
    not; ``value`` is the player (0 / 1) of ``"player"`` and the piece index of ``"item"``, else None."""
    kind: str
    negated: bool
    walk: Walk
    value: int | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"element kind {self.kind!r} is unknown; kinds: {', '.join(KINDS)}")
        if not isinstance(self.negated, bool):
            object.__setattr__(self, "negated", bool(self.negated))
        if not isinstance(self.walk, Walk):
            object.__setattr__(self, "walk", Walk(self.walk))
        if self.kind == "player":
            if self.value not in (0, 1):
                raise ValueError(f"a player element needs value 0 or 1 (the player), got {self.value!r}")
        elif self.kind == "item":
            if self.value is not None and (not isinstance(self.value, int) or self.value < 0):
                raise ValueError(f"an item element's value is a piece index >= 0 or None, got {self.value!r}")
        elif self.value is not None:
            raise ValueError(f"a {self.kind} element takes no value, got {self.value!r}")

    @property
    def site_set(self) -> int:
        return _site_set(self.kind, self.negated, self.value)

    def with_walk(self, walk) -> "Element":
        return Element(self.kind, self.negated, walk, self.value)

    def label(self) -> str:
        if self.kind == "player":
            core = str(self.value + 1)
        elif self.kind == "item":
            core = "I" + ("" if self.value is None else str(self.value))
        else:
            core = _LABELS[self.kind]
        return ("!" if self.negated else "") + core

    def __str__(self) -> str:
        return self.label() + str(self.walk)

    @classmethod
    def parse(cls, text: str) -> "Element":
        """``"!e{0,1/4}"`` -> ``Element("enemy", True, Walk([0, 1/4]))``."""
        if not isinstance(text, str):
            raise ValueError(f"a feature element is text such as '!e{{0,1/4}}', got {text!r}")
        m = re.fullmatch(r"\s*(!?)(-|f|e|#|1|2|I\d*)(\{[^}]*\})\s*", text)
        if not m:
            raise ValueError(f"cannot read the feature element {text!r} (expected e.g. '!e{{0,1/4}}')")
        negated, label, walk = m.group(1) == "!", m.group(2), Walk.parse(m.group(3))
        if label in ("1", "2"):
            return cls("player", negated, walk, int(label) - 1)
        if label.startswith("I"):
            return cls("item", negated, walk, int(label[1:]) if len(label) > 1 else None)
        kind = {v: k for k, v in _LABELS.items()}[label]
        return cls(kind, negated, walk)

    def sort_key(self):
        return (_walk_key(self.walk), _KIND_ORDER[self.kind], self.negated, -1 if self.value is None else self.value)


def _walk_key(walk):
    return (0,) if walk is None else (1, len(walk), *walk)


def _transform(walk: Walk | None, rotation: Fraction, reflection: int) -> Walk | None:
    """Reflect, then rotate (add to the first turn), then bring every turn into (-1/2, 1/2]."""
    if walk is None:
        return None
    turns = [t * reflection for t in walk]
    if turns:
        turns[0] += rotation
    return Walk(reduce_turn(t) for t in turns)


def simplify_elements(elements) -> tuple[Element, ...] | None:
    """Sorted elements without duplicates and without elements implied by another on the same walk; None when
    two elements on the same walk can never hold together (an inconsistent pattern)."""
    by_walk: dict[Walk, list[Element]] = {}
    for element in elements:
        by_walk.setdefault(element.walk, []).append(element)
    kept = []
    for walk_elements in by_walk.values():
        walk_elements = sorted(set(walk_elements), key=Element.sort_key)
        common = _ALL
        for e in walk_elements:
            common &= e.site_set
        if common == 0:
            return None
        for i, e in enumerate(walk_elements):
            s = e.site_set
            implied = any(
                (o.site_set & ~s) == 0 and (o.site_set != s or j < i)
                for j, o in enumerate(walk_elements) if j != i)
            if not implied:
                kept.append(e)
    return tuple(sorted(kept, key=Element.sort_key))


class InconsistentFeature(ValueError):
    """Two elements of the pattern can never hold on the same cell (e.g. ``e{0}`` and ``-{0}``)."""


@dataclass(frozen=True)
class Feature:
    """A spatial feature: ``elements`` (the pattern), the action's ``to_walk`` and ``from_walk`` (None = the
    feature says nothing about that end of the move; at least one is given), and whether reflections of the
    pattern also match.  Canonical on construction (see the module docstring); raises ``InconsistentFeature``
    for a pattern that can never match."""
    elements: tuple[Element, ...]
    to_walk: Walk | None
    from_walk: Walk | None = None
    allows_reflection: bool = True

    def __post_init__(self):
        elements = tuple(e if isinstance(e, Element) else Element.parse(e) for e in self.elements)
        to_walk = None if self.to_walk is None else Walk(self.to_walk)
        from_walk = None if self.from_walk is None else Walk(self.from_walk)
        if to_walk is None and from_walk is None:
            raise ValueError("a feature needs a to_walk or a from_walk (an action to score)")
        reflection = bool(self.allows_reflection)
        elements, to_walk, from_walk = _canonical(elements, to_walk, from_walk, reflection)
        object.__setattr__(self, "elements", elements)
        object.__setattr__(self, "to_walk", to_walk)
        object.__setattr__(self, "from_walk", from_walk)
        object.__setattr__(self, "allows_reflection", reflection)

    # ---- views -----------------------------------------------------------------------------------------------
    @property
    def walks(self) -> tuple[Walk, ...]:
        """Every walk of the feature: the action's, then the elements'."""
        return tuple(w for w in (self.to_walk, self.from_walk) if w is not None) + tuple(
            e.walk for e in self.elements)

    @property
    def action(self) -> str:
        """``"to"``, ``"from"`` or ``"from_to"``: which ends of a move the feature fixes."""
        if self.from_walk is None:
            return "to"
        return "from" if self.to_walk is None else "from_to"

    def complexity(self) -> tuple[int, int]:
        """(number of elements, total walk length): Ludii sorts features by this."""
        return len(self.elements), sum(len(w) for w in self.walks)

    def transformed(self, rotation=0, reflection: int = 1) -> "Feature":
        """The feature rotated / reflected (the same feature, canonical again: kept for tests and drawings)."""
        rotation = Fraction(rotation)
        return Feature(tuple(e.with_walk(_transform(e.walk, rotation, reflection)) for e in self.elements),
                       _transform(self.to_walk, rotation, reflection),
                       _transform(self.from_walk, rotation, reflection), self.allows_reflection)

    def equivalent(self, other: "Feature") -> bool:
        """True if ``other`` equals this feature up to rotation and (when allowed) reflection.  Features are
        canonical, so this is ``==``; kept as the named contract."""
        return isinstance(other, Feature) and self == other

    def with_element(self, element: Element) -> "Feature":
        return Feature(self.elements + (element,), self.to_walk, self.from_walk, self.allows_reflection)

    # ---- text ------------------------------------------------------------------------------------------------
    def to_text(self) -> str:
        parts = ["rel"]
        if self.from_walk is not None:
            parts.append(f"from=<{self.from_walk}>")
        if self.to_walk is not None:
            parts.append(f"to=<{self.to_walk}>")
        refl = "" if self.allows_reflection else "refl=false,"
        parts.append(f"pat=<{refl}els=[{', '.join(str(e) for e in self.elements)}]>")
        return ":".join(parts)

    __str__ = to_text

    @classmethod
    def from_text(cls, text: str) -> "Feature":
        """Read Ludii's text form (``rel:[from=<w>:][to=<w>:]pat=<[refl=..,][rots=all,]els=[...]>``).  Reactive
        (``last_from``/``last_to``) and absolute features, and restricted rotations, are not supported."""
        if not isinstance(text, str):
            raise ValueError(f"a feature is text such as 'rel:to=<{{}}>:pat=<els=[f{{0}}]>', got {text!r}")
        text = text.strip()
        if not text.startswith("rel:"):
            raise ValueError(f"only relative features ('rel:...') are supported, got {text!r}")
        body = text[4:]
        walks = {}
        while True:
            m = re.match(r"(last_from|last_to|from|to)=<(\{[^}]*\})>:", body)
            if not m:
                break
            if m.group(1).startswith("last_"):
                raise ValueError(f"reactive features ({m.group(1)}) are not supported: {text!r}")
            if m.group(1) in walks:
                raise ValueError(f"the {m.group(1)}= walk is given twice in {text!r}")
            try:
                walks[m.group(1)] = Walk.parse(m.group(2))
            except ValueError as error:
                raise ValueError(f"{m.group(1)}= of {text!r}: {error}") from None
            body = body[m.end():]
        m = re.fullmatch(r"pat=<(.*)>", body)
        if not m:
            raise ValueError(f"cannot find the pattern 'pat=<...>' in {text!r}")
        pat = m.group(1)
        reflection = True
        while True:
            if pat.startswith("refl=true,"):
                pat = pat[len("refl=true,"):]
            elif pat.startswith("refl=false,"):
                reflection, pat = False, pat[len("refl=false,"):]
            elif pat.startswith("rots=all,"):
                pat = pat[len("rots=all,"):]
            elif pat.startswith("rots="):
                raise ValueError(f"restricted rotations are not supported: {text!r}")
            else:
                break
        m = re.fullmatch(r"els=\[(.*)\]", pat)
        if not m:
            raise ValueError(f"cannot read the elements 'els=[...]' in {text!r}")
        try:
            elements = tuple(Element.parse(s.strip()) for s in _split_elements(m.group(1)))
        except ValueError as error:
            raise ValueError(f"{error} in {text!r}") from None
        return cls(elements, walks.get("to"), walks.get("from"), reflection)


def _split_elements(text: str) -> list[str]:
    """The comma-separated elements of ``els=[...]`` (commas inside a walk's braces do not split); every one must
    be read, so an empty or unreadable entry is an error rather than dropped."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth not in (0, 1):
            raise ValueError(f"unbalanced braces in the elements [{text}]")
        if char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    if len(parts) == 1 and not parts[0].strip():
        return []
    for part in parts:
        if not part.strip():
            raise ValueError(f"an empty element in [{text}]")
    return parts


def _encode(elements, to_walk, from_walk):
    return (_walk_key(to_walk), _walk_key(from_walk), tuple(e.sort_key() for e in elements))


def _canonical(elements, to_walk, from_walk, allows_reflection):
    # Turns are reduced and redundant elements dropped first: counted below, they would make the choice of rotation depend on how
    # the feature was written, and two equivalent features (e.g. one made by combining instances and its own
    # text read back) could get two different canonical forms, so that a duplicate goes unnoticed.
    to_walk, from_walk = _transform(to_walk, 0, 1), _transform(from_walk, 0, 1)  # every turn reduced
    simplified = simplify_elements(e.with_walk(_transform(e.walk, 0, 1)) for e in elements)
    if simplified is None:
        raise InconsistentFeature("elements " + ", ".join(str(e) for e in elements) + " can never hold together")
    elements = simplified
    walks = [to_walk, from_walk] + [e.walk for e in elements]
    reflections = (1, -1) if allows_reflection else (1,)
    best = None
    for reflection in reflections:
        firsts = Counter(reduce_turn(w[0] * reflection) for w in walks if w)
        if firsts:
            top = max(firsts.values())
            candidates = sorted(t for t, c in firsts.items() if c == top)
        else:
            candidates = [Fraction(0)]
        for first in candidates:
            rot = -first
            els = simplify_elements(e.with_walk(_transform(e.walk, rot, reflection)) for e in elements)
            if els is None:
                raise InconsistentFeature(
                    "elements " + ", ".join(str(e) for e in elements) + " can never hold together")
            tw, fw = _transform(to_walk, rot, reflection), _transform(from_walk, rot, reflection)
            negatives = sum(1 for w in [tw, fw] + [e.walk for e in els] if w for t in w if t < 0)
            key = (negatives, _encode(els, tw, fw))
            if best is None or key < best[0]:
                best = (key, (els, tw, fw))
    return best[1]
