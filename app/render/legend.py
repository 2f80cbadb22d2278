"""The legend under a picture: only what the picture actually shows.

Graphviz's HTML-like tables cannot draw a triangle, so the shapes are the
matching Unicode signs; the colours are swatches of the very fills used.
"""
from __future__ import annotations

from . import style as S
from .state import Snapshot

_SHAPES = (("max", "▲"), ("min", "▼"), ("player", "▬"), ("chance", "●"), ("leaf", "■"))
PER_ROW = 4


def legend_rows(snap: Snapshot, *, blank: bool, numbers: bool, bounds: bool, pv: bool
                ) -> list[str]:
    """Rows of the legend (HTML-like tables): the shapes, then what colours and marks mean."""
    tree = snap.tree
    roles = {tree.role(n) for n in tree.nodes}
    shapes = [f'<TD>{glyph}</TD><TD ALIGN="LEFT">'
              f'{"player to move" if role == "player" else S.ROLE_NAMES[role]}</TD>'
              for role, glyph in _SHAPES if role in roles]
    seen = set() if blank else {s["status"] for s in snap.nodes.values()}
    items = []
    for status in ("active", "visited", "evaluated", "pruned"):
        if status in seen:
            fill, line = S.STATUS_STYLE[status][:2]
            items.append(f'<TD BGCOLOR="{fill}" COLOR="{line}" BORDER="1"> </TD>'
                         f'<TD ALIGN="LEFT">{status}</TD>')
    if snap.cuts and not blank:
        items.append(f'<TD><FONT COLOR="{S.CUT_COLOR}">╌╫╌</FONT></TD>'
                     '<TD ALIGN="LEFT">cut-off: not searched</TD>')
    if snap.cuts and not blank:
        items.append('<TD><B>≤2</B></TD><TD ALIGN="LEFT">bound: the search was cut</TD>')
    if pv:
        items.append(f'<TD><FONT COLOR="{S.PV_COLOR}"><B>━━</B></FONT></TD>'
                     '<TD ALIGN="LEFT">best line (principal variation)</TD>')
    if numbers and snap.order and not blank:
        items.append(f'<TD BGCOLOR="{S.INK}"><FONT COLOR="white">1</FONT></TD>'
                     '<TD ALIGN="LEFT">evaluation order</TD>')
    if bounds:
        items.append(f'<TD><FONT COLOR="{S.BOUND_COLOR}">α β</FONT></TD>'
                     '<TD ALIGN="LEFT">bounds at the node</TD>')
    rows = [shapes] + [items[i:i + PER_ROW] for i in range(0, len(items), PER_ROW)]
    return [f'<TABLE BORDER="0" CELLSPACING="3" CELLPADDING="1"><TR>{"".join(cells)}'
            f'</TR></TABLE>' for cells in rows if cells]
