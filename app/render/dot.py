"""A snapshot of a run as Graphviz DOT, laid out here and drawn by ``neato -n2``.

Every tree node becomes one Graphviz node whose ``id`` is the tree node's id
and whose ``class`` names its role and status (``max evaluated pv``), so the
SVG can be read and styled like the page. The labels beside a node (its name,
alpha and beta, its evaluation number) are small text nodes of their own,
placed by :mod:`app.render.layout` so they never overlap. All text goes
through :func:`html` or :func:`quote`: a label like ``<script>`` is drawn as
text, never read as markup.

>>> quote('say "hi" \\\\ bye')
'"say \\\\"hi\\\\" \\\\\\\\ bye"'
>>> html("<b> & {x}")
'&lt;b&gt; &amp; {x}'
>>> html("\\\\N")
'\\\\\\\\N'
"""
from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field

from app.search.states import kind_of

from . import boards
from . import style as S
from .layout import tidy_layout
from .legend import legend_rows
from .state import Snapshot


def quote(text: str) -> str:
    """A DOT double-quoted string whose text Graphviz reads back unchanged."""
    text = str(text).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + text.replace("\r", "").replace("\n", "\\n") + '"'


def html(text: str) -> str:
    """Text for inside a Graphviz HTML-like label (``<...>``)."""
    # Graphviz expands \N, \G, ... even in HTML-like labels; "\\" is a backslash.
    out = str(text).replace("\\", "\\\\").replace("&", "&amp;")
    out = out.replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")
    # Graphviz reads "]" and "\n" as they are, but control characters break it.
    return "".join(ch if ch >= " " or ch == "\n" else " " for ch in out).replace("\n", "<BR/>")


@dataclass
class Look:
    """What a picture shows besides the state itself."""

    blank: bool = False
    """A worksheet question: no search results, room to write alpha and beta."""
    numbers: bool = False
    """Number the nodes in the order the search evaluated them."""
    legend: bool = True
    title: str | None = None
    """Top line; ``None`` takes the tree's title, ``""`` shows none."""
    subtitle: str | None = None
    caption: str | None = None
    """A line under the tree (a flip-book page says what the step did)."""
    header: list[str] = field(default_factory=list)
    """Paragraphs under the title (a worksheet's name field and instructions),
    wrapped to the width of the tree."""


class _Dot:
    """Collects DOT statements; helper text nodes get ids no tree node has."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.helpers = 0

    def node(self, name: str, **attrs) -> None:
        self.lines.append(f"{name} [{_attrs(attrs)}];")

    def edge(self, a: str, b: str, **attrs) -> None:
        self.lines.append(f"{a} -> {b} [{_attrs(attrs)}];")

    def text(self, x: float, y: float, label: str, cls: str, **attrs) -> str:
        """A borderless text node centred at (x, y); ``label`` is HTML-like markup."""
        self.helpers += 1
        name = f"h{self.helpers}"
        attrs.setdefault("fontsize", S.SMALL_SIZE)
        self.node(name, id=f"_{cls}:{self.helpers}", **{"class": cls}, shape="plaintext",
                  margin=0, width=0, height=0, pos=_pos(x, y), label=Markup(label), **attrs)
        return name

    def point(self, x: float, y: float) -> str:
        self.helpers += 1
        name = f"h{self.helpers}"
        self.node(name, id=f"_pt:{self.helpers}", shape="point", width=0.01, height=0.01,
                  style="invis", pos=_pos(x, y), label="")
        return name


def _pos(x: float, y: float) -> str:
    # Graphviz's y grows upward; the layout's grows downward.
    return f"{x:.1f},{-y:.1f}!"


class Markup(str):
    """An HTML-like label, already escaped: written as ``<...>``, not quoted."""


def _attrs(attrs: dict) -> str:
    out = []
    for key, value in attrs.items():
        if isinstance(value, Markup):
            out.append(f"{key}=<{value}>")
        elif isinstance(value, float):
            out.append(f"{key}={value:.2f}")
        else:
            out.append(f"{key}={quote(value) if isinstance(value, str) else value}")
    return ", ".join(out)


Positions = dict[str, tuple[float, float]]


def to_dot(snap: Snapshot, look: Look | None = None, positions: Positions | None = None) -> str:
    """The DOT text of ``snap`` (draw it with ``neato -n2``).

    ``positions`` (from :func:`layout`) pins the nodes: the pages of a
    worksheet share the final state's layout, so nothing moves between them.
    """
    return _Picture(snap, look or Look()).build(positions)


def layout(snap: Snapshot, look: Look | None = None) -> Positions:
    """Where :func:`to_dot` puts each node of ``snap``."""
    picture = _Picture(snap, look or Look())
    return tidy_layout(picture.tree, picture.extent, S.SIBLING_GAP, S.LEVEL_GAP)


class _Picture:
    def __init__(self, snap: Snapshot, look: Look) -> None:
        self.snap, self.look, self.tree = snap, look, snap.tree
        self.out = _Dot()
        limit = snap.options.depth
        self.limit = limit if limit is not None else math.inf
        self.show_bounds = snap.bounded
        self.pv = set() if look.blank else set(snap.pv)
        self.names = {n.id: f"n{i}" for i, n in enumerate(self.tree.nodes)}
        # The node where each cut-off happened -> its prune event.
        self.cut_at = {} if look.blank else {e["node"]: e for e in snap.cuts.values()}
        root = self.tree.root
        self.game = kind_of(root.label, [c.label for c in root.children])
        self.sizes = {n.id: self._size(n) for n in self.tree.nodes}

    # -- what each node shows ---------------------------------------------
    def state(self, node) -> dict:
        if self.look.blank:
            return {"status": "unvisited", "value": None, "alpha": None, "beta": None}
        return self.snap.nodes[node.id]

    def shape(self, node) -> str:
        role = self.tree.role(node)
        if role == "leaf":
            return "box"
        return {"max": "triangle", "min": "invtriangle", "chance": "circle"}.get(role, "box")

    def value_text(self, node) -> str:
        if node.is_leaf:  # a leaf's value is given: students need it on the blank sheet too
            return S.fmt_value(node.value)
        value = S.fmt_value(self.state(node)["value"])
        # A node whose search was cut knows only a bound, written as textbooks
        # do (and as the page does): "≤ 2" at MIN, "≥ 5" at MAX.
        role = self.tree.role(node)
        if value and node.id in self.cut_at and role in ("max", "min"):
            value = ("≥" if role == "max" else "≤") + value
        elif value and node.id in self.cut_at and role == "chance":   # Star1: by the side it failed
            value = ("≤" if self.cut_at[node.id].get("cut") == "alpha" else "≥") + value
        return value

    def picture(self, node) -> tuple[str, tuple[float, float]] | None:
        """A game position's picture (a board, piles) in place of its name."""
        size = boards.size(self.game, node.label)
        return (boards.table(self.game, node.label), size) if size else None

    def name_text(self, node) -> str:
        text = node.label
        if node.children and node.depth == self.limit and node.eval is not None:
            text += f" (eval {S.fmt_value(node.eval)})"
        return text

    def bounds_lines(self, node) -> list[str]:
        if not self.look.blank and "visits" in self.state(node):   # [mcts] its statistics
            st = self.state(node)
            return [f"N = {st['visits']}", f"x̄ = {S.fmt_value(st['mean'])}"]
        if not self.show_bounds or node.is_leaf or node.chance or node.depth >= self.limit:
            return []
        if self.look.blank:
            return ["α = ______", "β = ______"]
        st = self.state(node)
        if st["alpha"] is None and st["beta"] is None:
            return []
        return [f"α = {S.fmt_bound(st['alpha'])}", f"β = {S.fmt_bound(st['beta'])}"]

    def cut_line(self, node) -> str:
        """``β-cut: v ≥ β`` beside a node where a cut-off happened."""
        cut = self.cut_at.get(node.id)
        if not cut:
            return ""
        return S.cut_text(cut)

    def _size(self, node) -> tuple[float, float]:
        """Width and height of the node's shape, wide enough for its value."""
        # Room for the widest value the node can show (a bound mark included).
        tw = S.text_width("≤" + self.value_text(node), S.VALUE_SIZE)
        shape = self.shape(node)
        if shape == "box":
            side = S.SQUARE
            return max(side, tw + 12), side
        if shape == "circle":
            d = max(S.CIRCLE, tw + 12)
            return d, d
        w, h = S.TRIANGLE
        return max(w, tw / 0.75 + 8), h

    def extent(self, node) -> tuple[float, float]:
        w, _h = self.sizes[node.id]
        left = right = w / 2
        pic = self.picture(node)
        name_w = pic[1][0] if pic else S.text_width(self.name_text(node), S.SMALL_SIZE)
        if node.is_leaf:
            left = right = max(w / 2, name_w / 2)
        else:
            left = w / 2 + 5 + name_w
        # The blank worksheet's "α = ______" too: every page shares one layout.
        bounds = self.bounds_lines(node) + (["α = ______"] if self.show_bounds and
                                            node.children and node.depth < self.limit else [])
        bounds = bounds + [self.cut_line(node)]
        if any(bounds):
            right = w / 2 + 6 + max(S.text_width(b, S.SMALL_SIZE) for b in bounds)
        if self.look.numbers and (node.is_leaf or node.depth == self.limit):
            right = max(right, w / 2 + S.BADGE)
        return left, right

    # -- drawing ------------------------------------------------------------
    def build(self, positions: Positions | None = None) -> str:
        out = self.out
        self.pos = positions or tidy_layout(self.tree, self.extent, S.SIBLING_GAP, S.LEVEL_GAP)
        for node in self.tree.nodes:
            self.draw_node(node)
        for node in self.tree.nodes:
            for child in node.children:
                self.draw_edge(node, child)
        self.draw_footer()
        head = [
            "digraph tree {",
            f"graph [{_attrs(self.graph_attrs())}];",
            f'node [fontname="{S.FONT}", fontcolor="{S.INK}"];',
            f'edge [arrowhead=none, color="{S.INK}", penwidth=1.4];',
        ]
        return "\n".join(head + out.lines + ["}", ""])

    def graph_attrs(self) -> dict:
        attrs = {"id": "_tree", "fontname": S.FONT, "splines": "line", "outputorder": "edgesfirst",
                 "pad": 0.25, "bgcolor": "white"}
        title = self.tree.title if self.look.title is None else self.look.title
        rows = []
        if title:
            rows.append(f'<TR><TD><FONT POINT-SIZE="18"><B>{html(title)}</B></FONT></TD></TR>')
        if self.look.subtitle:
            rows.append(f'<TR><TD><FONT POINT-SIZE="12" COLOR="#4b5563">'
                        f'{html(self.look.subtitle)}</FONT></TD></TR>')
        left, right, _y = self.bottom()
        width = max(70, int((right - left) / 6.2))
        for line in (ln for par in self.look.header for ln in _wrap(par, width)):
            rows.append(f'<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="12">{html(line) or " "}'
                        '</FONT></TD></TR>')
        if rows:
            attrs["label"] = Markup('<TABLE BORDER="0" CELLSPACING="2" CELLPADDING="1">'
                                    + "".join(rows) + "<TR><TD> </TD></TR></TABLE>")
            attrs["labelloc"] = "t"
        return attrs

    def node_classes(self, node, status: str) -> str:
        classes = [self.tree.role(node), status]
        if node.depth > self.limit:
            classes.append("beyond")
        if node.id in self.pv:
            classes.append("pv")
        if not self.look.blank and node.id in self.snap.cuts:
            classes.append("cut")
        return " ".join(classes)

    def draw_node(self, node) -> None:
        out = self.out
        st = self.state(node)
        status = st["status"]
        looks = S.STATUS_STYLE.get(status, S.STATUS_STYLE["unvisited"])
        fill, line, pen, dashed, ink = S.BEYOND_STYLE if node.depth > self.limit else looks
        role = self.tree.role(node)
        if node.depth <= self.limit and status in ("unvisited", "visited", "evaluated"):
            line = S.ROLE_COLOR.get(role, line)        # the page's outline by role
            if status == "visited":
                fill = S.ROLE_TINT.get(role, fill)
        if status == "active":
            fill = S.ROLE_TINT.get(role, fill)
        if node.id in self.pv and status != "active":
            line, pen = S.PV_COLOR, 2.8
        w, h = self.sizes[node.id]
        x, y = self.pos[node.id]
        shape = self.shape(node)
        value = self.value_text(node)
        if status == "pruned" and not node.is_leaf:
            value = ""
        styles = ["filled"] + (["dashed"] if dashed else [])
        out.node(self.names[node.id], id=node.id, **{"class": self.node_classes(node, status)},
                 shape=shape, fixedsize="true", width=w / 72, height=h / 72, pos=_pos(x, y),
                 style=",".join(styles), fillcolor=fill, color=line, penwidth=pen,
                 fontcolor=ink, fontsize=S.VALUE_SIZE, label=_value_label(shape, value),
                 tooltip=self.tooltip(node, st))
        name_ink = ink if ink != S.INK else "#374151"
        pic = self.picture(node)
        if pic:
            (pw, ph) = pic[1]
            if node.is_leaf:
                out.text(x, y + h / 2 + 5 + ph / 2, pic[0], "board")
            else:
                out.text(x - w / 2 - 5 - pw / 2, y, pic[0], "board")
        else:
            name = html(self.name_text(node))
            if node.is_leaf:
                out.text(x, y + h / 2 + 8, name, "name", fontcolor=name_ink)
            else:
                tw = S.text_width(self.name_text(node), S.SMALL_SIZE)
                out.text(x - w / 2 - 4 - tw / 2, y, name, "name", fontcolor=name_ink)
        bounds = self.bounds_lines(node)
        cut = self.cut_line(node)
        if bounds or cut:
            bw = max(S.text_width(b, S.SMALL_SIZE) for b in bounds + [cut])
            colour = S.BOUND_COLOR if status != "pruned" else S.GREY
            text = "".join(f'{html(b)}<BR ALIGN="LEFT"/>' for b in bounds)
            if cut:
                text += f'<FONT COLOR="{S.CUT_COLOR}">{html(cut)}</FONT><BR ALIGN="LEFT"/>'
            out.text(x + w / 2 + 5 + bw / 2, y - 2 + (6 if cut else 0), text,
                     "bounds", fontcolor=colour)
        number = None if self.look.blank else self.snap.order.get(node.id)
        if self.look.numbers and number is not None:
            out.node(f"b{self.names[node.id]}", id=f"_order:{node.id}", **{"class": "order"},
                     shape="circle", fixedsize="true", width=S.BADGE / 72, height=S.BADGE / 72,
                     pos=_pos(x + w / 2 + 2, y - h / 2 - 2), style="filled", fillcolor=S.INK,
                     color=S.INK, fontcolor="white", fontsize=8 if number < 100 else 6,
                     label=Markup(str(number)))

    def tooltip(self, node, st: dict) -> str:
        # No text from the file here: Graphviz expands \N, \G... in tooltips twice over.
        parts = [S.ROLE_NAMES[self.tree.role(node)], st["status"]]
        if st["value"] is not None:
            parts.append(f"value {S.fmt_value(st['value'])}")
        return ", ".join(parts)

    def draw_edge(self, parent, child) -> None:
        out = self.out
        pruned = self.state(child)["status"] == "pruned"
        beyond = child.depth > self.limit
        on_pv = parent.id in self.pv and child.id in self.pv
        cut = None if self.look.blank else self.snap.cuts.get(child.id)
        classes = ["edge-pruned" if pruned else "edge-live"]
        attrs = {}
        if on_pv:
            classes.append("pv")
            attrs.update(color=S.PV_COLOR, penwidth=3.4)
        elif pruned or beyond:
            attrs.update(color=S.GREY if pruned else S.FAINT, style="dashed")
        if cut:
            classes.append("cut")
        out.edge(self.names[parent.id], self.names[child.id],
                 id=f"_edge:{parent.id}->{child.id}", **{"class": " ".join(classes)},
                 tailport="s", headport="n", **attrs)
        (px, py), (cx, cy) = self.pos[parent.id], self.pos[child.id]
        py += self.sizes[parent.id][1] / 2
        cy -= self.sizes[child.id][1] / 2
        mx, my = (px + cx) / 2, (py + cy) / 2
        if parent.chance and child.probability is not None:
            side = 1 if cx >= px else -1
            text = S.fmt_number(child.probability)
            out.text(mx + side * (6 + S.text_width(text, S.SMALL_SIZE) / 2), my - 4, html(text),
                     "probability", fontcolor="#4b5563")
        if cut:
            self.draw_cut(px, py, cx, cy)

    def draw_cut(self, px, py, cx, cy) -> None:
        """Two short strokes across the middle of the edge (the node says why)."""
        out = self.out
        length = math.hypot(cx - px, cy - py) or 1.0
        dx, dy = (cx - px) / length, (cy - py) / length
        nx, ny = -dy, dx
        mx, my = (px + cx) / 2, (py + cy) / 2
        for k in (-3.5, 3.5):
            a = out.point(mx + k * dx - 8 * nx, my + k * dy - 8 * ny)
            b = out.point(mx + k * dx + 8 * nx, my + k * dy + 8 * ny)
            out.edge(a, b, **{"class": "cut-mark"}, color=S.CUT_COLOR, penwidth=2.2)

    # -- caption and legend ------------------------------------------------
    def bottom(self) -> tuple[float, float, float]:
        xs_l = [self.pos[n.id][0] - self.extent(n)[0] for n in self.tree.nodes]
        xs_r = [self.pos[n.id][0] + self.extent(n)[1] for n in self.tree.nodes]
        y = max(self.pos[n.id][1] + self.below(n) for n in self.tree.nodes)
        return min(xs_l), max(xs_r), y + 12

    def below(self, node) -> float:
        """How far a node and what is drawn under it reach below its centre."""
        h = self.sizes[node.id][1] / 2
        if not node.is_leaf:
            pic = self.picture(node)
            return max(h, pic[1][1] / 2 if pic else 0)
        pic = self.picture(node)
        return h + (5 + pic[1][1] if pic else 8 + S.SMALL_SIZE)

    def draw_footer(self) -> None:
        left, right, y = self.bottom()
        mid = (left + right) / 2
        if self.look.caption:
            # One text node a line, 1.4 lines apart: Graphviz's own line
            # spacing is tighter than the fonts it falls back to (DejaVu Sans).
            lines = _wrap(self.look.caption, max(40, int((right - left) / 7)))
            y += 6
            for line in lines:
                y += 12.0 * 1.4
                self.out.text(mid, y, html(line), "caption", fontsize=12.0)
        if self.look.legend:
            for row in legend_rows(self.snap, blank=self.look.blank, numbers=self.look.numbers,
                                   bounds=self.show_bounds, pv=bool(self.pv)):
                y += 24
                self.out.text(mid, y, row, "legend", fontsize=10.0)


def _value_label(shape: str, value: str) -> Markup:
    """The value inside the shape; in a triangle, low in MAX's and high in MIN's,
    where the triangle is wide. (A spacer row does it: ``labelloc`` is unreliable
    under ``neato -n2``.)"""
    if shape not in ("triangle", "invtriangle"):
        return Markup(html(value) or " ")  # "<>" is a syntax error to Graphviz
    rows = ['<TR><TD FIXEDSIZE="TRUE" WIDTH="1" HEIGHT="5"></TD></TR>',
            f"<TR><TD>{html(value) or ' '}</TD></TR>"]
    if shape == "invtriangle":
        rows.reverse()
    return Markup(f'<TABLE BORDER="0" CELLPADDING="0" CELLSPACING="0">{"".join(rows)}</TABLE>')


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width) or [""]
