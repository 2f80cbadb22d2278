"""The visual language of every picture: shapes, colours, sizes, number text.

It follows the page and the textbook: MAX an upward triangle, MIN a downward
one, chance a circle, a leaf a square with its value. Status is never shown
by colour alone: pruned nodes are also dashed and greyed, the active node has
a thick outline, cut edges are dashed and crossed by a mark, the principal
variation is drawn thick.

>>> fmt_value(3.0), fmt_value(-2), fmt_value(10 / 3), fmt_value((1, 2, 6))
('3', '−2', '3.33', '(1, 2, 6)')
>>> fmt_bound("-inf"), fmt_bound(float("inf")), fmt_bound(None)
('−∞', '+∞', '')
"""
from __future__ import annotations

import math

FONT = "Helvetica"
"""Mapped by fontconfig for PNG/PDF, and to ``Helvetica,sans-Serif`` in SVG."""

# Sizes in points (1/72 inch).
LEVEL_GAP = 84.0        # vertical distance between depths
SIBLING_GAP = 14.0      # horizontal space kept between neighbouring subtrees
TRIANGLE = (50.0, 42.0)  # width, height of a MAX/MIN node
CIRCLE = 40.0           # diameter of a chance node
SQUARE = 34.0           # side of a leaf
VALUE_SIZE = 14.0       # font size of values
SMALL_SIZE = 10.0       # names, bounds, probabilities
BADGE = 15.0            # diameter of an evaluation-order badge

# The page's colours (static/css/visualizer.css), so a picture for slides
# looks like the screen it was taken from: the Okabe-Ito palette.
INK = "#1b1b1b"
GREY = "#8f8f8f"
FAINT = "#d1d5db"
PV_COLOR = "#009E73"      # the best line (--pv)
CUT_COLOR = "#4d4d4d"
BOUND_COLOR = "#0072B2"
ACTIVE = "#E69F00"        # the active node's ring (--active)

ROLE_COLOR = {"max": "#0072B2", "min": "#D55E00", "chance": "#CC79A7", "leaf": "#2a2a2a"}
"""A node's outline by role, as on the page (MAX blue, MIN vermillion)."""
ROLE_TINT = {"max": "#dcebf6", "min": "#f8e3d4", "chance": "#f5e4ee"}
"""The fill of a visited inner node, by role (the page's tints)."""

STATUS_STYLE = {
    # status: (fill, outline, pen width, dashed, text colour)
    "unvisited": ("#ffffff", INK, 1.2, False, INK),
    "visited": ("#dcebf6", INK, 1.4, False, INK),
    "active": ("#fde9b8", ACTIVE, 3.4, False, INK),
    "evaluated": ("#fbf3b5", INK, 1.8, False, INK),
    "pruned": ("#f3f3f3", GREY, 1.2, True, GREY),
}
"""How each status of the core looks (the statuses are the page's too); the
outline of an unvisited, visited or evaluated node is its role's colour."""

BEYOND_STYLE = ("#ffffff", FAINT, 1.0, True, FAINT)
"""A node below the depth limit: the search never looks at it."""

ROLE_NAMES = {"max": "MAX", "min": "MIN", "chance": "chance", "leaf": "leaf", "player": "player"}

MINUS = "\u2212"


def fmt_number(v) -> str:
    """A number as a lecturer writes it: no ``.0``, at most two decimals."""
    if isinstance(v, str):  # the core spells infinite bounds as strings
        v = float(v)
    if isinstance(v, bool):
        v = int(v)
    if isinstance(v, float):
        if math.isinf(v):
            return f"{MINUS}∞" if v < 0 else "+∞"
        if v.is_integer():
            v = int(v)
        else:
            text = f"{round(v, 2):.2f}".rstrip("0").rstrip(".")
            return text.replace("-", MINUS)
    return str(v).replace("-", MINUS)


def fmt_value(v) -> str:
    """A node value: a number, or one number per player (max^n)."""
    if v is None:
        return ""
    if isinstance(v, (list, tuple)):
        return "(" + ", ".join(fmt_number(x) for x in v) + ")"
    return fmt_number(v)


def fmt_bound(v) -> str:
    return "" if v is None else fmt_number(v)


def text_width(text: str, size: float) -> float:
    """A fair estimate of the width of ``text`` in Helvetica at ``size`` points."""
    narrow = sum(1 for ch in text if ch in "il.,:;|!'()[] ")
    return size * (0.56 * (len(text) - narrow) + 0.28 * narrow)


def cut_text(event: dict) -> str:
    """What a ``prune`` event tested, with its numbers: ``α-cut: v = 2 ≤ α = 3``.

    >>> cut_text({"cut": "beta", "test": "v >= beta", "v": 5, "alpha": 3, "beta": "inf"})
    'β-cut: v = 5 ≥ β = +∞'
    """
    bound = "alpha" if event.get("cut") == "alpha" else "beta"
    greek = "α" if bound == "alpha" else "β"
    test = str(event.get("test", ""))
    op = next((sym for txt, sym in (("<=", "≤"), (">=", "≥"), ("<", "<"), (">", ">"))
               if txt in test), None)
    limit = event.get("bound", event.get(bound))
    if op is None or event.get("v") is None or limit is None:
        return f"{greek}-cut"
    if event.get("reach") is not None:   # a chance node cut by Star1: the most (least) it can reach
        return f"{greek}-cut: {fmt_number(event['reach'])} {op} {greek} = {fmt_number(limit)}"
    return f"{greek}-cut: v = {fmt_number(event['v'])} {op} {greek} = {fmt_number(limit)}"
