"""The legend under a picture: only what the picture actually shows.

Graphviz's HTML-like tables cannot draw a triangle, so the shapes are the
matching Unicode signs; the colours are swatches of the very fills used.
"""
from __future__ import annotations

from app.i18n.context import tell

from . import style as S
from .state import Snapshot

_SHAPES = (("max", "▲"), ("min", "▼"), ("player", "▬"), ("chance", "●"), ("leaf", "■"))
PER_ROW = 4


def N_(message: str) -> str:
    """Mark a message for the catalogue (said later through ``tell``)."""
    return message


STATUS_WORDS = {"active": N_("active"), "visited": N_("visited"), "evaluated": N_("evaluated"),
                "pruned": N_("pruned")}


# (said outside the f-strings below, where the message extractor can see them)
def _CUT(): return tell("cut-off: not searched")  # noqa: E704
def _BOUND(): return tell("bound: the search was cut")  # noqa: E704
def _PV(): return tell("best line (principal variation)")  # noqa: E704
def _ORDER(): return tell("evaluation order")  # noqa: E704
def _BOUNDS(): return tell("bounds at the node")  # noqa: E704


def _role_word(role: str) -> str:
    if role == "player":
        return tell("player to move")
    if role == "chance":
        return tell("chance")
    if role == "leaf":
        return tell("leaf")
    return S.ROLE_NAMES[role]          # MAX, MIN: the same in every language


def legend_rows(snap: Snapshot, *, blank: bool, numbers: bool, bounds: bool, pv: bool
                ) -> list[str]:
    """Rows of the legend (HTML-like tables): the shapes, then what colours and marks mean."""
    tree = snap.tree
    roles = {tree.role(n) for n in tree.nodes}
    shapes = [f'<TD>{glyph}</TD><TD ALIGN="LEFT">{_role_word(role)}</TD>'
              for role, glyph in _SHAPES if role in roles]
    seen = set() if blank else {s["status"] for s in snap.nodes.values()}
    items = []
    for status in ("active", "visited", "evaluated", "pruned"):
        if status in seen:
            fill, line = S.STATUS_STYLE[status][:2]
            items.append(f'<TD BGCOLOR="{fill}" COLOR="{line}" BORDER="1"> </TD>'
                         f'<TD ALIGN="LEFT">{tell(STATUS_WORDS[status])}</TD>')
    if snap.cuts and not blank:
        items.append(f'<TD><FONT COLOR="{S.CUT_COLOR}">╌╫╌</FONT></TD>'
                     f'<TD ALIGN="LEFT">{_CUT()}</TD>')
    if snap.cuts and not blank:
        items.append(f'<TD><B>≤2</B></TD><TD ALIGN="LEFT">{_BOUND()}</TD>')
    if pv:
        items.append(f'<TD><FONT COLOR="{S.PV_COLOR}"><B>━━</B></FONT></TD>'
                     f'<TD ALIGN="LEFT">{_PV()}</TD>')
    if numbers and snap.order and not blank:
        items.append(f'<TD BGCOLOR="{S.INK}"><FONT COLOR="white">1</FONT></TD>'
                     f'<TD ALIGN="LEFT">{_ORDER()}</TD>')
    if bounds:
        items.append(f'<TD><FONT COLOR="{S.BOUND_COLOR}">α β</FONT></TD>'
                     f'<TD ALIGN="LEFT">{_BOUNDS()}</TD>')
    rows = [shapes] + [items[i:i + PER_ROW] for i in range(0, len(items), PER_ROW)]
    return [f'<TABLE BORDER="0" CELLSPACING="3" CELLPADDING="1"><TR>{"".join(cells)}'
            f'</TR></TABLE>' for cells in rows if cells]
