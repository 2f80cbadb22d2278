"""The raw events as the browser receives them when it narrates them itself.

``records(tree, opts, words)`` yields ``(json_text, weight)`` per record of
the *compact* stream (Socket.IO ``pull`` with ``encoding: "compact"``): what
the algorithms' raw tuples carry (:mod:`app.search.algorithms`), a few
dozen bytes each, for a page that holds the tree and narrates in the
browser (``static/js/core/narrate.js`` makes of them the very events
:func:`app.search.run` yields; tests/browser/test_narrate_parity.py holds the
two equal). ``weight`` is what a pull's view-change budget counts.

A record is a JSON array:

==========================================  ======================================
record                                      meaning
==========================================  ======================================
``[9, header]``                             first: the run's constants (algorithm,
                                            strict, depth, players, height, game,
                                            lazy, root, each step kind's
                                            pseudocode lines by role)
``[child, val, cut, v]``                    a ``RET`` of minimax, expectiminimax,
``[child, val, cut, v, b]``                 max^n; of alpha-beta (``b``: the
``[child, val, cut, v, b, skipped, n]``     bound after; at a Star1 chance node what
                                            it returns if cut, else null); with a cut-off
                                            (``skipped`` ids, ``n`` the nodes they
                                            hold or null). The node is the child's
                                            parent; ``cut``: 0 the child's exit, 1
                                            a leaf's value, 2 a depth limit's eval
``[1, val, cutoff]``                        the root itself is static (``EVAL``)
``[2, val]``                                the root's exit
``[3, depth, val, best]``                   an iteration starts (val null) or ends
``[4, id, parent, label, player]``          a node of a lazily searched game,
                                            before the first record naming it
``[5, label, words]``                       a game's position in words (null: none)
``[6, parent label, label, words]``         a game's move in words (null: none)
``[8, minimax_evaluated]``                  last: what plain minimax would evaluate
``[10, i]``, ``[11]``, ``[12, ...]``,       Monte Carlo tree search's SELECT, EXPAND,
``[13]``                                    SIMULATE, BACKUP (its record's ``records``:
                                            :mod:`app.search.compact_mcts` lists them;
                                            its header has ``mcts``, its last is
                                            ``[8, null]``)
==========================================  ======================================

Values are written exactly (infinities as ``"inf"``/``"-inf"``, a vector as
a list), so the page compares and formats the very numbers the narrator
does. No dict is made per event and nothing is narrated here: a tree file's
return costs one formatted string.

>>> from app.search.tree import Node, Tree
>>> leaf = lambda i, v: Node(id=i, label=i, player=1, depth=1, value=v)
>>> tree = Tree(root=Node(id="A", label="A", player=0, depth=0,
...                       children=(leaf("a", 3), leaf("b", 5))))
>>> [text for text, _ in records(tree, SearchOptions(algorithm="minimax"))][1:]
['["a",3,1,3]', '["b",5,1,5]', '[2,5]', '[8,2]']
"""
from __future__ import annotations

import json
from json.encoder import encode_basestring as _quote
from typing import Callable, Iterator

from . import algorithms as A
from .descriptors import get
from .options import SearchOptions
from .pseudocode import FORMULATIONS, line_of
from .states import describe, kind_of, move_words
from .tree import Tree
from .words import english

INF = float("inf")
LAST = "[8,"
"""How the stream's last record begins (a pull ends its batch there)."""
KINDS = ("enter", "evaluate", "update", "alpha", "beta", "prune", "exit", "return-cut",
         "prune-high", "return-cut-high")
ROLES = ("max", "min", "chance", "player")


def _value_text(x) -> str:
    """A raw value as exact JSON (Python's float repr round-trips in JavaScript)."""
    if x is None:
        return "null"
    if type(x) is int:
        return str(x)
    if type(x) is float:
        if x == INF:
            return '"inf"'
        if x == -INF:
            return '"-inf"'
        return repr(x)
    if isinstance(x, (tuple, list)):
        return "[" + ",".join(_value_text(i) for i in x) + "]"
    return json.dumps(x)


def header(tree: Tree, opts: SearchOptions, game: str | None) -> dict:
    """The run's constants the page's narrator needs."""
    lines = {}
    for kind in KINDS:
        for role in ROLES:
            found = {f: n for f in FORMULATIONS
                     if (n := line_of(opts.algorithm, f, kind, role)) is not None}
            if found:
                lines[f"{kind}:{role}"] = found
    lines["done:"] = {f: n for f in FORMULATIONS
                      if (n := line_of(opts.algorithm, f, "done", None)) is not None}
    lazy = bool(getattr(tree, "lazy", False))
    root = tree.root
    desc = get(opts.algorithm)
    star = desc.leaf_bounds and tree.has_chance
    return {"algorithm": opts.algorithm, "strict": bool(opts.strict), "depth": opts.depth,
            # what the page's narrator needs of the algorithm's record (app.search.descriptors)
            "keeps_bounds": desc.bounds, "vector": desc.players == "vectors",
            "leaf_bounds": list(opts.bounds) if star else None,
            "players": list(tree.players), "height": tree.height, "game": game, "lazy": lazy,
            "root": [root.id, root.label, root.player], "lines": lines}


def records(tree: Tree, options: SearchOptions | None = None,
            words: Callable[..., str] | None = None) -> Iterator[tuple[str, int]]:
    """``(json_text, weight)`` of each record of the compact stream, lazily,
    ending with the ``[8, ...]`` record. Options are checked first
    (:class:`SearchError` here)."""
    opts = (options or SearchOptions()).resolved(tree)
    own = get(opts.algorithm).records_maker   # (Monte Carlo tree search's: compact_mcts)
    return (own or _records)(tree, opts, words or english, A.raw_events(tree, opts))


def _records(tree: Tree, opts: SearchOptions, tell, raw) -> Iterator[tuple[str, int]]:
    root = tree.root
    game = kind_of(root.label, [c.label for c in root.children])
    lazy = bool(getattr(tree, "lazy", False))
    yield f"[9,{json.dumps(header(tree, opts, game), ensure_ascii=False)}]", 1
    bounds = get(opts.algorithm).bounds
    height = tree.height
    last_depth = opts.depth
    RET, EXIT, ITER = A.RET, A.EXIT, A.ITER
    texts: dict = {}      # value -> its JSON text (a run writes the same few again and again)
    cuts = ("0", "1", "2")
    quote = _quote
    size_of = tree.size_of
    meet = _Meeter(tree, game, tell, lazy) if (lazy or game) else None
    out: list = []
    for ev in raw:
        if ev[0] == RET:
            _, node, child, val, cutoff, _vo, vn, _bo, bn, skipped = ev
            if meet is not None:
                meet.ret(node, child, cutoff, skipped, out)
                if out:
                    yield from out
                    out.clear()
            v = texts.get(val)
            if v is None:
                v = _value_text(val)
                if len(texts) < 4096:
                    texts[val] = v
            w = texts.get(vn)
            if w is None:
                w = _value_text(vn)
                if len(texts) < 4096:
                    texts[vn] = w
            cut = cuts[0 if cutoff is None else 2 if cutoff else 1]
            if not bounds:
                yield f"[{quote(child.id)},{v},{cut},{w}]", 1
            elif skipped is None:
                yield f"[{quote(child.id)},{v},{cut},{w},{_value_text(bn)}]", 1
            else:
                count = 0
                for c in skipped:
                    size = size_of(c)
                    count = None if count is None or size is None else count + size
                ids = ",".join(quote(c.id) for c in skipped)
                yield (f"[{quote(child.id)},{v},{cut},{w},{_value_text(bn)},[{ids}],"
                       f"{'null' if count is None else count}]", 1 + len(skipped))
        elif ev[0] == EXIT:
            if meet is not None:
                meet.enter_down_to(ev[1], out)
                meet.path.pop()
                yield from out
                out.clear()
            yield f"[2,{_value_text(ev[2])}]", 1
        elif ev[0] == ITER:
            _, depth, value, best = ev
            if value is None:
                last_depth = depth if depth < height else None
            best_id = "null" if best is None else quote(best.id)
            yield f"[3,{depth},{_value_text(value)},{best_id}]", 1
        else:   # EVAL: the root is static
            if meet is not None:
                meet.meet(ev[1], out)
                yield from out
                out.clear()
            yield f"[1,{_value_text(ev[2])},{'true' if ev[3] else 'false'}]", 1
    yield f"{LAST}{_value_text(tree.static_count(last_depth))}]", 1


class _Meeter:
    """What a page needs about a game's nodes when they first appear: a lazy
    game's node records, a game's positions and moves in words (each said
    once a run). Follows the open frames as the narrator does."""

    def __init__(self, tree, game, tell, lazy: bool) -> None:
        self.tree, self.game, self.tell, self.lazy = tree, game, tell, lazy
        self.path: list = []
        self.named: set[str] = set()
        self.moved: set[tuple[str, str]] = set()

    def ret(self, node, child, cutoff, skipped, out: list) -> None:
        path = self.path
        if not path or (path[-1] is not node and (len(path) < 2 or path[-2] is not node)):
            self.enter_down_to(node, out)
        if cutoff is None:
            path.pop()    # the child exits
        else:
            self.meet(child, out)
        for c in skipped or ():
            self.meet(c, out)

    def enter_down_to(self, node, out: list) -> None:
        path = self.path
        if path and path[-1] is node:
            return
        for n in self.tree.path_of(node)[len(path):]:
            self.meet(n, out)
            path.append(n)

    def meet(self, n, out: list) -> None:
        parent = self.tree.parent_of(n.id) if not self.lazy else n.parent
        if self.lazy:
            out.append((f"[4,{_quote(n.id)},{'null' if parent is None else _quote(parent.id)},"
                        f"{_quote(n.label)},{n.player}]", 1))
        if self.game is None:
            return
        label = n.label
        if label not in self.named:
            self.named.add(label)
            said = describe(self.game, label, self.tell)
            out.append((f"[5,{_quote(label)},{_quote(said) if said else 'null'}]", 1))
        if parent is not None:
            key = (parent.label, label)
            if key not in self.moved:
                self.moved.add(key)
                said = move_words(self.game, parent.label, label, self.tell)
                out.append((f"[6,{_quote(key[0])},{_quote(label)},"
                            f"{_quote(said) if said is not None else 'null'}]", 1))
