"""The search core: pure Python, no Flask, no YAML, no Graphviz.

>>> from app.search.tree import Node, Tree
>>> leaf = lambda i, v: Node(id=i, label=i, player=1, depth=1, value=v)
>>> tree = Tree(root=Node(id="A", label="A", player=0, depth=0,
...                       children=(leaf("a", 3), leaf("b", 5))))
>>> done = list(run(tree, SearchOptions(algorithm="minimax")))[-1]
>>> done["value"], done["best_move"], done["evaluated"]
(5, 'b', ['a', 'b'])
"""
from __future__ import annotations

from typing import Callable, Iterator

from .algorithms import raw_events as _raw
from .descriptors import get
from .narrate import Narrator
from .options import ALGORITHMS, ORDERS, STYLES, SearchError, SearchOptions, algorithms_for
from .ordering import true_values
from .pseudocode import listing, listings_for
from .tree import Node, Tree
from .view import View


def raw_events(tree: Tree, options: SearchOptions | None = None) -> Iterator[tuple]:
    """The algorithm's compact events (see :mod:`app.search.algorithms`).
    Checks the options first: a misfit raises :class:`SearchError` here."""
    opts = (options or SearchOptions()).resolved(tree)
    return _raw(tree, opts)


def run(tree: Tree, options: SearchOptions | None = None,
        words: Callable[..., str] | None = None) -> Iterator[dict]:
    """The narrated events of a search, lazily, ending with ``done``.
    Checks the options first: a misfit raises :class:`SearchError` here,
    before any event. ``words(msgid, **fields)`` says each sentence in a
    language (``app.i18n.words(lang)``); default: English."""
    opts = (options or SearchOptions()).resolved(tree)
    return get(opts.algorithm).narrator_class(tree, opts, words).narrate(_raw(tree, opts))


__all__ = ["run", "raw_events", "SearchOptions", "SearchError", "View", "Tree", "Node",
           "listing", "listings_for", "algorithms_for", "true_values",
           "ALGORITHMS", "ORDERS", "STYLES"]
