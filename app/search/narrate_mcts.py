"""Narrate Monte Carlo tree search: raw events (:mod:`app.search.mcts`) to
the events every consumer sees, as :mod:`app.search.narrate` does for the
other algorithms (its helpers name nodes, moves and numbers the same way).

One event per step: ``select`` (one per level selection goes down, with
every child's UCB1 numbers in ``children``), ``expand``, ``simulate`` (the
playout's ``playout`` ids and ``result``), ``backpropagate`` (the ``path``
up to the root); each with ``iteration``. The view fields ``visits`` and
``mean`` (for MAX) change only at back-propagation. Statuses: the nodes of
the search tree are ``visited``, the node the step is at ``active`` (the
root between iterations), a leaf or depth-limit node a playout stopped at in
the tree ``evaluated``; the nodes outside the search tree stay
``unvisited`` (the page does not draw them).
"""
from __future__ import annotations

from typing import Callable, Iterator

from . import mcts as M
from .narrate import Narrator
from .numbers import jv
from .options import SearchOptions
from .states import move_words
from .tree import Tree

PLAYOUT_WORDS = 10
"""A game's playout gives at most this many of its moves in words (``moves``):
a lecture reads the first few; a 40-move Connect Four playout is summed up."""
WORDS_UP_TO = 1_000
"""Runs of at most this many iterations say a game's moves in words (the UCB1
rows, the playouts): a lecture steps through a few hundred; a longer run is for
its chart, and the words (each position drawn as a label, then read) would
double its narration."""


def r3(x: float):
    """A mean or UCB1 number as the events carry it: 3 decimals, a whole
    number as an int (as :func:`~app.search.numbers.jv` writes it; always finite here)."""
    v = round(x, 3)
    i = int(v)
    return i if i == v else v


class MctsNarrator(Narrator):
    def __init__(self, tree: Tree, opts: SearchOptions,
                 words: Callable[..., str] | None = None) -> None:
        super().__init__(tree, opts, words)
        self.c = M.DEFAULT_EXPLORATION if opts.exploration is None else opts.exploration
        self.lo, self.hi = M.value_range(tree)
        self.k = 0            # the iteration under way (1-based)
        self.root_stat = None
        self._lazy = getattr(tree, "playout", None) is not None

    def lines(self, kind: str, node) -> dict:
        out = self._lines.get(kind)
        if out is None:
            from .pseudocode import line_of
            out = self._lines[kind] = {"aima": line_of(self.desc.id, "aima", kind, None)}
        return out

    def two(self, x: float) -> str:
        """A number in a sentence: 2 decimals, as a lecturer reads it."""
        return self.figure(jv(round(x, 2)))

    def _move_active(self, changes: list, frm, to) -> None:
        self.set(changes, frm.id, "status", "visited")
        self.set(changes, to.id, "status", "active")

    # -- the stream -----------------------------------------------------
    def narrate(self, raw: Iterator[tuple]) -> Iterator[dict]:
        for ev in raw:
            kind = ev[0]
            if kind == M.SELECT:
                yield self.on_select(ev[1], ev[2])
            elif kind == M.EXPAND:
                yield self.on_expand(ev[1], ev[2])
            elif kind == M.SIMULATE:
                yield self.on_simulate(*ev[1:])
            else:
                yield self.on_backup(ev[1], ev[2])
        yield self.done()

    def _tick(self, stat: M.Stat) -> None:
        """The first event of an iteration starts the next one."""
        if self._ended:
            self.k += 1
            self._ended = False
            if self.root_stat is None:
                while stat.parent is not None:
                    stat = stat.parent
                self.root_stat = stat

    _ended = True

    def on_select(self, parent: M.Stat, child: M.Stat) -> dict:
        self._tick(parent)
        rows = M.ucb_rows(parent, self.c, self.lo, self.hi)
        mine = next(r for r in rows if r["id"] == child.node.id)
        changes: list = []
        self._move_active(changes, parent.node, child.node)
        node, cnode = parent.node, child.node
        worst, best = (self.lo, self.hi) if parent.ismax else (self.hi, self.lo)
        text = self.said("Iteration {k}: {player} at {node} selects {child}, the highest UCB1: "
                         "{exploit} + {c} × √(ln {parent_visits} / {visits}) = {ucb} (n = "
                         "{visits}; its mean {mean} for MAX is {exploit} on {player}'s scale "
                         "from {worst} to {best}).",
                         self.k, self.who(node), self.name(node), self.move(node, cnode),
                         self.two(mine["exploit"]), self.two(self.c), parent.visits,
                         mine["visits"], self.two(mine["ucb"]), self.two(mine["mean"]),
                         self.figure(jv(worst)), self.figure(jv(best)))
        shown = [{"id": r["id"], "visits": r["visits"], "mean": r3(r["mean"]),
                  "exploit": r3(r["exploit"]), "explore": r3(r["explore"]), "ucb": r3(r["ucb"])}
                 for r in rows]
        if self._game and self.opts.iterations <= WORDS_UP_TO:   # the panel's rows, in words
            for row, ch in zip(shown, parent.children):
                row["move"] = self.move(node, ch.node)
        return self.event("select", cnode, changes, text, parent=node.id, iteration=self.k,
                          parent_visits=parent.visits, exploration=r3(self.c),
                          range=[jv(self.lo), jv(self.hi)], children=shown)

    def on_expand(self, parent: M.Stat, child: M.Stat) -> dict:
        self._tick(parent)
        changes: list = []
        self._move_active(changes, parent.node, child.node)
        node, cnode = parent.node, child.node
        text = self.said("Iteration {k}: {node} has an untried move, so the search tree grows "
                         "by {child}.", self.k, self.name(node), self.move(node, cnode))
        return self.event("expand", cnode, changes, text, parent=node.id, iteration=self.k)

    def on_simulate(self, start: M.Stat, result, path, cutoff: bool) -> dict:
        self._tick(start)   # (the first event when the root itself ends every playout)
        node = start.node
        words = self._game and path and self.opts.iterations <= WORDS_UP_TO
        states = [] if words else None   # (a game's positions, for its moves in words)
        ids = M.path_ids(self.tree, node, path, states)
        changes: list = []
        self.set(changes, node.id, "status", "active")
        res = self.figure(jv(result))
        count = len(ids)
        if not ids:
            text = (self.said("{node} is on the depth limit: its eval {result} is the result, "
                              "with no playout.", self.name(node), res) if cutoff else
                    self.said("{node} is a leaf worth {result}: that is the result, with no "
                              "playout.", self.name(node), res))
        elif self._lazy:   # a game's playout gives its moves, not nodes
            if cutoff:
                text = (self.said("Playout from {node}: one random move, stopped by the depth "
                                  "limit: its eval {result} is the result.", self.name(node), res)
                        if count == 1 else
                        self.said("Playout from {node}: {count} random moves, stopped by the "
                                  "depth limit: its eval {result} is the result.",
                                  self.name(node), count, res))
            else:
                text = (self.said("Playout from {node}: one random move to the end of the game, "
                                  "worth {result} for MAX.", self.name(node), res)
                        if count == 1 else
                        self.said("Playout from {node}: {count} random moves to the end of the "
                                  "game, worth {result} for MAX.", self.name(node), count, res))
        else:
            end = self.name(path[-1])
            if cutoff:
                text = (self.said("Playout from {node}: one random move to {end}, where the depth "
                                  "limit stops it: its eval {result} is the result.",
                                  self.name(node), end, res)
                        if count == 1 else
                        self.said("Playout from {node}: {count} random moves to {end}, where the "
                                  "depth limit stops it: its eval {result} is the result.",
                                  self.name(node), count, end, res))
            else:
                text = (self.said("Playout from {node}: one random move to leaf {end}, worth "
                                  "{result} for MAX.", self.name(node), end, res)
                        if count == 1 else
                        self.said("Playout from {node}: {count} random moves to leaf {end}, "
                                  "worth {result} for MAX.", self.name(node), count, end, res))
        extra = {"moves": self._playout_words(start, path, states)} if words and ids else {}
        return self.event("simulate", node, changes, text, iteration=self.k, result=jv(result),
                          playout=ids, cutoff=cutoff, **extra)

    def _playout_words(self, start: M.Stat, path, states: list | None = None) -> list[str]:
        return playout_words(self.tree, self._game, self.tell, start.node, path, self.move,
                             states)

    def on_backup(self, start: M.Stat, result) -> dict:
        changes: list = []
        path = []
        s = start
        while s is not None:
            nid = s.node.id
            path.append(nid)
            self.set(changes, nid, "visits", s.visits)
            self.set(changes, nid, "mean", r3(s.total / s.visits))
            root = s
            s = s.parent
        last = self.k >= self.opts.iterations
        self.set(changes, start.node.id, "status",
                 "evaluated" if start.static is not None else "visited")
        if not last:
            self.set(changes, root.node.id, "status", "active")
        else:
            self.set(changes, root.node.id, "status", "visited")
        self._ended = True
        res = self.figure(jv(result))
        if start is root:
            text = self.said("Back-propagate {result} at the root {root}: now N = {visits}, "
                             "mean {mean} for MAX.", res, self.name(root.node),
                             root.visits, self.two(root.total / root.visits))
        else:
            text = self.said("Back-propagate {result} from {node} up to the root: {count} nodes "
                             "get one more visit; at {root} now N = {visits}, mean {mean} "
                             "for MAX.", res, self.name(start.node), len(path),
                             self.name(root.node), root.visits,
                             self.two(root.total / root.visits))
        return self.event("backpropagate", start.node, changes, text, iteration=self.k,
                          result=jv(result), path=path)

    # -- the summary ------------------------------------------------------
    def done(self) -> dict:
        root = self.root_stat
        visits: dict[str, int] = {}
        means: dict[str, object] = {}
        best = None
        if root is not None:
            stack = [root]
            while stack:   # preorder, children in their order
                s = stack.pop()
                visits[s.node.id] = s.visits
                means[s.node.id] = r3(s.total / s.visits) if s.visits else None
                stack.extend(reversed(s.children))
            for ch in root.children:   # ties to the first
                if best is None or ch.visits > best.visits:
                    best = ch
        pv = []
        s = root
        while s is not None:
            pv.append(s.node.id)
            s = max(s.children, key=lambda c: c.visits, default=None) if s.children else None
            # (max keeps the first of equals)
        n = self.opts.iterations
        value = r3(root.total / root.visits) if root is not None and root.visits else None
        rphrase = self.root_phrase(self.tree.root)
        if best is not None:
            text = self.tell("Done after {n} iterations: the most visited move from {root} is "
                             "{move}, with {visits} of {n} visits (mean {mean} for MAX).", n=n,
                             root=rphrase, move=self.move(root.node, best.node),
                             visits=best.visits, mean=self.two(best.total / best.visits))
        else:
            text = self.tell("Done after {n} iterations: {root} has mean {mean} for MAX.", n=n,
                             root=rphrase, mean=self.figure(value))
        self.step += 1
        stats = {"iterations": n, "nodes": len(visits), "exploration": r3(self.c),
                 "events": self.step}
        return {"type": "done", "step": self.step, "value": value,
                "best_move": best.node.id if best is not None else None,
                "visits": visits, "means": means, "evaluated": [], "pruned": [], "pv": pv,
                "stats": stats, "lines": self.lines("done", None), "text": text, "changes": []}


def playout_words(tree: Tree, game: str, tell, start, path, move,
                  states: list | None = None) -> list[str]:
    """The first :data:`PLAYOUT_WORDS` moves of a game's playout from node ``start``
    in words ("X in the centre"), as the sentences name moves; a move that cannot
    be read keeps its name. ``move(a, b)``: how the sentences name the move from
    node ``a`` to ``b`` (a tree file's game; a lazy game's moves come of its rules,
    from the positions it passed, ``states``, when :func:`~app.search.mcts.path_ids`
    gave them). The narrator and the compact records (:mod:`app.search.compact_mcts`)
    both say them."""
    out: list[str] = []
    if getattr(tree, "playout", None) is not None:   # the moves of the rules, from the start's position
        state, moves = path
        rules = tree.rules
        before = rules.display(state)
        for j, a in enumerate(moves[:PLAYOUT_WORDS]):
            name = rules.move_name(state, a)
            state = states[j] if states else rules.result(state, a)
            after = rules.display(state)
            out.append(move_words(game, before, after, tell) or name)
            before = after
        return out
    nodes = [start, *path[:PLAYOUT_WORDS]]
    return [move(a, b) for a, b in zip(nodes, nodes[1:])]


def narrate(tree: Tree, opts: SearchOptions, words=None) -> Iterator[dict]:
    """The narrated events of ``opts`` (resolved, algorithm ``mcts``) on ``tree``."""
    return MctsNarrator(tree, opts, words).narrate(M.mcts(tree, opts))
