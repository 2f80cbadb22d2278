r"""A snapshot as LaTeX: a ``standalone`` document drawing the tree with ``forest``.

It compiles on its own (``pdflatex tree.tex``) and drops into slides with
``\includestandalone`` or by copying the ``forest`` environment (the styles
are in the preamble). The tree is bracket notation, one node a line, so a
lecturer can edit it by hand. Every text from the tree file goes through
:func:`tex`: braces, backslashes, ``$``, ``%`` and friends come out as text.

>>> print(tex(r'<b> {x} \ 50% $5'))
\textless{}b\textgreater{} \{x\} \textbackslash{} 50\% \$5
"""
from __future__ import annotations

import math

from . import style as S
from .state import Snapshot

_TEX = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
    "#": r"\#", "^": r"\textasciicircum{}", "_": r"\_", "%": r"\%",
    "~": r"\textasciitilde{}", "<": r"\textless{}", ">": r"\textgreater{}",
    "|": r"\textbar{}", '"': r"\textquotedbl{}",
    "[": "{[}", "]": "{]}",  # never read as a forest bracket or an option list
}


def tex(text: str) -> str:
    """Plain text for LaTeX: every special character made literal."""
    out = []
    for ch in str(text):
        if ch in _TEX:
            out.append(_TEX[ch])
        elif ch in "\r\n\t":
            out.append(" ")
        elif ch < " ":
            continue
        else:
            out.append(ch)
    return "".join(out)


def comment(text: str) -> str:
    """Text for after ``%``: one line, whatever it holds."""
    return " ".join(str(text).split())


def tex_number(v) -> str:
    """``$-2$``, ``$+\\infty$``, ``$(1, 2, 6)$``: numbers set as mathematics."""
    text = S.fmt_value(v)
    return "$" + text.replace(S.MINUS, "-").replace("∞", r"\infty") + "$"


PREAMBLE = r"""\documentclass[border=8pt]{standalone}
\usepackage[T1]{fontenc}
\usepackage{forest}
\usetikzlibrary{shapes.geometric}
\tikzset{
  max/.style={draw, regular polygon, regular polygon sides=3, minimum size=11mm,
    inner sep=0pt},
  min/.style={draw, regular polygon, regular polygon sides=3, shape border rotate=180,
    minimum size=11mm, inner sep=0pt},
  chance/.style={draw, circle, minimum size=8mm, inner sep=1pt},
  player/.style={draw, rounded corners, minimum size=7mm, inner sep=2pt},
  leaf/.style={draw, rectangle, minimum size=6.5mm, inner sep=2pt},
  unvisited/.style={fill=white},
  visited/.style={fill=blue!10},
  active/.style={fill=yellow!45, draw=orange!70!black, line width=1.6pt},
  evaluated/.style={fill=green!12, draw=green!45!black},
  pruned/.style={fill=gray!8, draw=gray, dashed, text=gray},
  beyond/.style={draw=gray!40, dotted, text=gray!50},
  pv/.style={draw=red!70!black, line width=1.4pt},
  name/.style={font=\footnotesize, text=black!70},
  bounds/.style={font=\scriptsize, text=blue!70!black, align=left},
  order/.style={font=\tiny\bfseries, text=white, fill=black!80, circle, inner sep=1pt},
  cut/.style={dashed, gray},
  cutmark/.style={midway, sloped, font=\bfseries, text=black!60, inner sep=0pt},
  pvedge/.style={draw=red!70!black, line width=1.6pt},
}
"""


def to_tikz(snap: Snapshot, title: str | None = None, subtitle: str | None = None,
            numbers: bool = True) -> str:
    """The LaTeX source of ``snap``."""
    tree = snap.tree
    title = tree.title if title is None else title
    limit = snap.options.depth if snap.options.depth is not None else math.inf
    pv = set(snap.pv)
    cut_at = {e["node"]: e for e in snap.cuts.values()}
    lines = [f"% {comment(title)}" if title else "% Game tree",
             *([f"% {comment(subtitle)}"] if subtitle else []),
             "% Made by the adversarial-search teaching app; compile with pdflatex.",
             PREAMBLE, r"\begin{document}", r"\begin{forest}",
             "  for tree={l sep=10mm, s sep=4mm, edge={thick}, parent anchor=south, "
             "child anchor=north}"]

    def node_line(node) -> str:
        st = snap.nodes[node.id]
        role = tree.role(node)
        value = node.value if node.is_leaf else st["value"]
        if st["status"] == "pruned" and not node.is_leaf:
            value = None
        opts = [role, "beyond" if node.depth > limit else st["status"]]
        if node.id in pv:
            opts.append("pv")
        labels = []
        name = tex(node.label)
        labels.append(f"label={{[name]{'below' if node.is_leaf else 'left'}:{{{name}}}}}")
        bounds = []
        if snap.bounded and node.children and (st["alpha"] is not None or st["beta"] is not None):
            bounds.append(rf"$\alpha$ = {tex_number(st['alpha'])}\\"
                          rf"$\beta$ = {tex_number(st['beta'])}")
        if node.id in cut_at:
            bounds.append(tex(S.cut_text(cut_at[node.id]))
                          .replace("α", r"$\alpha$").replace("β", r"$\beta$")
                          .replace("≤", r"$\le$").replace("≥", r"$\ge$")
                          .replace(S.MINUS, "$-$").replace("∞", r"$\infty$"))
        if bounds:
            labels.append("label={[bounds]right:{" + r"\\".join(bounds) + "}}")
        number = snap.order.get(node.id)
        if numbers and number is not None:
            labels.append(f"label={{[order]north east:{{{number}}}}}")
        edge = []
        parent = tree.parent_of(node.id)
        if parent is not None:
            if parent.id in pv and node.id in pv:
                edge.append("edge={pvedge}")
            elif st["status"] == "pruned" or node.depth > limit:
                edge.append("edge={cut}")
            edge_labels = []
            if node.id in snap.cuts:
                edge_labels.append(r"node[cutmark]{$\|$}")
            if parent.chance and node.probability is not None:
                edge_labels.append(r"node[midway, auto, font=\scriptsize]{"
                                   + tex_number(node.probability) + "}")
            if edge_labels:
                edge.append("edge label={" + " ".join(edge_labels) + "}")
        content = tex_number(value) if value is not None else ""
        return f"[{{{content}}}, {', '.join(opts + labels + edge)}"

    # Preorder with an explicit stack of (node, closing brackets to write after it).
    stack = [(tree.root, 1)]
    while stack:
        node, depth_marker = stack.pop()
        indent = "  " * (node.depth + 1)
        line = indent + node_line(node)
        if node.is_leaf:
            lines.append(line + "]" * depth_marker)
            continue
        lines.append(line)
        kids = list(node.children)
        for i, child in enumerate(reversed(kids)):
            # The last child closes its own bracket and every still-open ancestor's.
            stack.append((child, depth_marker + 1 if i == 0 else 1))
    lines += [r"\end{forest}", r"\end{document}", ""]
    return "\n".join(lines)
