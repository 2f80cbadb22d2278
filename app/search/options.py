"""What a run is asked to do, and the checks that it fits the tree."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .descriptors import ALGORITHMS, BY_ID
from .tree import Tree
from .words import Said

DEFAULT_ITERATIONS = 1000
"""Iterations of an algorithm that runs them (Monte Carlo tree search) when none are asked for."""
ORDERS = ("given", "best", "worst", "random")
STYLES = ("aima", "wikipedia")


class SearchError(Said, ValueError):
    """The options do not fit the tree (raised before the first event).

    Its sentence is a catalogue message: ``msgid`` (English with ``{named}``
    fields) and ``fields``, so that the web app and the command line say it
    in the reader's language (``app.i18n.error_message``); the core itself
    knows no catalogue.

    >>> err = SearchError("depth must be a whole number >= 0, not {depth}", depth="-1")
    >>> str(err), err.msgid
    ('depth must be a whole number >= 0, not -1', 'depth must be a whole number >= 0, not {depth}')
    """


def algorithms_for(tree: Tree, whatif: bool = True) -> list[str]:
    """The algorithms that fit ``tree`` without a depth limit, its default first.

    Iterative deepening stops at every depth, so it needs an ``eval`` on every
    inner node below the root. With ``whatif`` (the editor's), only those whose
    record offers the what-if; without (the visualizer's menu), all.
    """
    fits = []
    for alg in ALGORITHMS:
        if BY_ID[alg].chance == "accepts" and not tree.has_chance:
            continue  # it would be minimax (alpha-beta) under another name
        if whatif and not BY_ID[alg].whatif:
            continue
        try:
            # A game too big to search to the end is checked at its page's depth.
            depth = tree.depth if getattr(tree, "lazy", False) else None
            SearchOptions(algorithm=alg, depth=depth).resolved(tree)   # (bounds: the tree's)
        except SearchError:
            continue
        fits.append(alg)
    default = tree.default_algorithm()
    return sorted(fits, key=lambda a: a != default)


@dataclass(frozen=True)
class SearchOptions:
    """How to search a tree.

    >>> SearchOptions(algorithm="alphabeta", depth=2).depth
    2
    """

    algorithm: str | None = None
    """One of :data:`ALGORITHMS`; ``None`` takes the tree's default."""
    depth: int | None = None
    """Nodes at this depth (root = 0) are not expanded; their ``eval`` is used.
    For ``iterative`` it is the deepest iteration (default: the tree's height)."""
    order: str = "given"
    """Child order: the file's, best-first or worst-first by true value, or shuffled."""
    seed: int | None = None
    """Seed of ``order='random'`` (``None`` means 0)."""
    strict: bool = False
    """Prune only on strict inequality (v > beta, v < alpha)."""
    style: str = "aima"
    """Formulation the events follow where they differ: ``aima`` (return when
    v >= beta, alpha updated after the test) or ``wikipedia`` (alpha := max(alpha, v)
    first, then break when beta <= alpha)."""
    reorder: bool = True
    """Iterative deepening: search each iteration's children best-first by the
    previous iteration's values."""
    bounds: tuple | None = None
    """``(L, U)``: every leaf value lies within them (Star1 prunes at chance
    nodes with them). ``None`` takes the tree's own ``bounds``."""
    iterations: int | None = None
    """Monte Carlo tree search: how many iterations (select, expand, simulate,
    back-propagate); ``None``: :data:`DEFAULT_ITERATIONS`."""
    exploration: float | None = None
    """Monte Carlo tree search: the constant C of UCB1; ``None``: √2."""

    def resolved(self, tree: Tree) -> "SearchOptions":
        """These options with the algorithm filled in, checked against ``tree``."""
        opts = self if self.algorithm else replace(self, algorithm=tree.default_algorithm())
        desc = BY_ID.get(opts.algorithm)
        if desc is not None and desc.leaf_bounds and opts.bounds is None \
                and getattr(tree, "bounds", None) is not None:
            opts = replace(opts, bounds=tuple(tree.bounds))
        if desc is not None and "iterations" in desc.options and opts.iterations is None:
            opts = replace(opts, iterations=DEFAULT_ITERATIONS)
        opts.check(tree)
        return opts

    def _check_iterations(self, desc) -> None:
        """Iterations and C only for an algorithm that reads them (Monte Carlo
        tree search), and sound."""
        it, c = self.iterations, self.exploration
        if "iterations" not in desc.options:
            if it is not None or c is not None:
                raise SearchError("iterations and exploration are options of mcts, not of "
                                  "{algorithm}", algorithm=self.algorithm)
            return
        if it is not None and (type(it) is not int or it < 1):
            raise SearchError("iterations must be a whole number >= 1, not {iterations}",
                              iterations=repr(it))
        if c is not None and (isinstance(c, bool) or not isinstance(c, (int, float))
                              or not 0 <= c < float("inf")):
            raise SearchError("exploration must be a number >= 0, not {exploration}",
                              exploration=repr(c))
        if self.order != "given":
            raise SearchError("mcts tries the children in the given order: no --order "
                              "{order}", order=self.order)

    def check(self, tree: Tree) -> None:
        alg = self.algorithm
        desc = BY_ID.get(alg) if isinstance(alg, str) else None
        if desc is None:
            raise SearchError("unknown algorithm {name}: choose one of {choices}",
                              name=repr(alg), choices=", ".join(ALGORITHMS))
        if self.order not in ORDERS:
            raise SearchError("unknown order {name}: choose one of {choices}",
                              name=repr(self.order), choices=", ".join(ORDERS))
        if self.style not in STYLES:
            raise SearchError("unknown style {name}: choose aima or wikipedia",
                              name=repr(self.style))
        if self.depth is not None and (not isinstance(self.depth, int) or self.depth < 0):
            raise SearchError("depth must be a whole number >= 0, not {depth}",
                              depth=repr(self.depth))
        if self.seed is not None and not isinstance(self.seed, int):
            raise SearchError("seed must be a whole number, not {seed}", seed=repr(self.seed))
        self._check_iterations(desc)
        game_check = getattr(tree, "check_options", None)
        if game_check is not None:  # a game searched from its rules knows its own limits
            game_check(self)
            return
        if tree.multiplayer and desc.players != "vectors":
            raise SearchError("this tree has {count} players: use maxn, not {algorithm}",
                              count=len(tree.players), algorithm=alg)
        if desc.players == "vectors":
            leaf = tree.scalar_leaf
            if leaf is not None:
                raise SearchError("maxn needs one value per player at every leaf; leaf {leaf} "
                                  "has one number", leaf=leaf.id)
        if tree.has_chance and desc.chance == "refuses":
            raise SearchError("this tree has chance nodes: use expectiminimax, not {algorithm}",
                              algorithm=alg)
        if desc.leaf_bounds:
            self._check_bounds(tree)
        if desc.evals == "every":
            deepest = self.depth if self.depth is not None else tree.height
            limits = range(1, max(deepest, 1) + 1)
        else:
            limits = [] if self.depth is None else [self.depth]
        if not limits:
            return
        # One pass over the nodes however many limits there are (iterative
        # with depth=10000 on a 200,000-node tree took half a minute).
        missing: dict[int, object] = {}
        for node in tree.nodes:
            if node.children and node.eval is None and node.depth not in missing:
                missing[node.depth] = node
        for limit in limits:
            node = missing.get(limit)
            if node is None:
                continue
            if desc.evals == "every":   # it searches to every depth: no other depth will do
                raise SearchError("{algorithm} stops at every depth, and {node} (depth "
                                  "{limit}) has no eval: give every inner node an eval, or "
                                  "choose another algorithm", algorithm=alg, node=node.id,
                                  limit=limit)
            raise SearchError("depth limit {limit} stops at {node}, which has no eval: give "
                              "it an eval or choose another depth", limit=limit, node=node.id)

    def _check_bounds(self, tree: Tree) -> None:
        """The leaf bounds of an algorithm that needs them: given, in order, and
        holding every value the search can use (leaves, and evals at the depth limit)."""
        bounds = self.bounds
        if bounds is None:
            raise SearchError("{algorithm} needs the range of the leaf values: give the tree "
                              "bounds: [L, U], or choose them (--bounds L U)",
                              algorithm=self.algorithm)
        ok = (isinstance(bounds, (tuple, list)) and len(bounds) == 2
              and all(type(x) in (int, float) and math.isfinite(x) for x in bounds))
        if not ok or not bounds[0] < bounds[1]:
            raise SearchError("bounds must be two numbers L < U, not {bounds}",
                              bounds=repr(bounds)[:60])
        lo, hi = bounds
        for node in tree.nodes:
            if node.children:
                if self.depth is None or node.depth != self.depth or node.eval is None:
                    continue
                value = node.eval
            else:
                value = node.value
            if type(value) is tuple:
                value = value[0]
            if not lo <= value <= hi:
                raise SearchError("the value {value} of {node} lies outside the bounds "
                                  "[{low}, {high}]", value=repr(value), node=node.id,
                                  low=repr(lo), high=repr(hi))
