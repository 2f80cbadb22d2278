"""Pictures of a run for slides and worksheets: DOT, SVG, PNG, PDF and TikZ.

The state at each step comes from the search core only
(:mod:`app.render.state`); this package lays the tree out, styles it like the
page, and has Graphviz draw it.

>>> from app.search import SearchOptions
>>> from app.search.tree import Node, Tree
>>> leaf = lambda i, v: Node(id=i, label=i, player=1, depth=1, value=v)
>>> tree = Tree(root=Node(id="A", label="A", player=0, depth=0,
...                       children=(leaf("a", 3), leaf("b", 5))), title="tiny")
>>> svg = export(tree, SearchOptions(algorithm="minimax"), None, "svg")
>>> b'id="a"' in svg and b'class="node leaf evaluated"' in svg
True
"""
from __future__ import annotations

from app.i18n.context import tell
from app.search import SearchOptions
from app.search.tree import Tree

from .dot import Look, to_dot
from .engine import draw
from .state import RenderError, Snapshot, parse_step, snapshot
from .tikz import to_tikz
from app.search.descriptors import REGISTRY

FORMATS = ("svg", "png", "pdf", "dot", "tikz")
MEDIA_TYPES = {
    "svg": "image/svg+xml",
    "png": "image/png",
    "pdf": "application/pdf",
    "dot": "text/vnd.graphviz; charset=utf-8",
    "tikz": "application/x-tex; charset=utf-8",
}
EXTENSIONS = {"svg": "svg", "png": "png", "pdf": "pdf", "dot": "dot", "tikz": "tex"}

ALGORITHM_NAMES = {a.id: a.short.replace("ⁿ", "^n") for a in REGISTRY}   # (ASCII)


def describe(options: SearchOptions) -> str:
    """``alpha-beta, depth limit 2, strict``: the run in a few words."""
    parts = [ALGORITHM_NAMES.get(options.algorithm, str(options.algorithm))]
    if options.depth is not None:
        parts.append(tell("depth limit {depth}", depth=options.depth))
    if options.order == "random":
        parts.append(tell("random child order (seed {seed})", seed=options.seed or 0))
    elif options.order == "best":
        parts.append(tell("best child order"))
    elif options.order == "worst":
        parts.append(tell("worst child order"))
    if options.strict:
        parts.append(tell("strict pruning"))
    if options.style != "aima":
        parts.append(tell("wikipedia style"))       # the one other style
    if options.iterations is not None:   # (a run of iterations: Monte Carlo tree search)
        parts.append(tell("{n} iterations, seed {seed}", n=options.iterations,
                          seed=options.seed or 0))
    return ", ".join(parts)


def step_look(snap: Snapshot, legend: bool = True) -> Look:
    """How an exported picture of one step looks: title, step, what the step did."""
    where = tell("start") if snap.step == 0 else tell("step {step} of {total}", step=snap.step,
                                                         total=snap.total)
    return Look(numbers=True, legend=legend,
                subtitle=f"{describe(snap.options)} — {where}",
                caption=snap.event.get("text") if snap.event else None)


def export(tree: Tree, options: SearchOptions, step: int | None, fmt: str,
           legend: bool = True) -> bytes:
    """The picture of ``tree`` at ``step`` (``None``: the end) in ``fmt``.

    Raises :class:`~app.search.SearchError` when the options do not fit the
    tree, :class:`RenderError` for a bad step or format.
    """
    if fmt not in FORMATS:
        raise RenderError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    snap = snapshot(tree, options, step)
    look = step_look(snap, legend)
    if fmt == "tikz":
        return to_tikz(snap, subtitle=look.subtitle).encode("utf-8")
    dot = to_dot(snap, look)
    if fmt == "dot":
        return dot.encode("utf-8")
    return draw(dot, fmt)


def filename(stem: str, options: SearchOptions, step: int | None, fmt: str) -> str:
    """A download name like ``aima-5-2-alphabeta-step-5.svg`` (ASCII only)."""
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "-" for ch in stem)
    safe = "-".join(filter(None, safe.split("-")))[:60] or "tree"
    where = "end" if step is None else f"step-{step}"
    alg = options.algorithm or "default"
    return f"{safe}-{alg}-{where}.{EXTENSIONS[fmt]}"


__all__ = ["export", "filename", "describe", "FORMATS", "MEDIA_TYPES", "RenderError",
           "parse_step", "snapshot", "to_dot", "to_tikz", "Look"]
