"""Turn raw events into the events every consumer sees.

A raw event (see :mod:`app.search.algorithms`) says what the algorithm did;
the narrator adds what a reader needs: the view changes (from what to what),
the pseudocode lines, the bounds and value at the node, and a sentence in a
lecturer's words. It keeps only what it must to say "MAX already has 3
through B": the open frames, each node's best child so far, and which node
set each bound. The summary (`done`) is built from the same stream.

What to say is decided here; how to say it is a message of the catalogue,
written once in :mod:`app.search.sentences` (kind -> message id, read by the
wire's fast path and the page's narrate.js too): every sentence goes through
``self.tell(msgid, **fields)``, where ``msgid`` is the English sentence with
named fields. ``tell`` is the ``words`` callable the caller passes
(``app.i18n.words(lang)`` gives one per language); by default the English id
is filled in as it stands, so the core needs no catalogue and imports nothing
of the layers above it. The sentences of every step go through
``self.says(kind, *values)``: the kind's message, its fields' values in the
order they first appear, filled into a ``%`` template that ``tell`` gave once
(a long stream says them hundreds of thousands of times); the rarer ones
through ``self.tells(kind, **fields)``.

The sentences are split by kind: this module (entering, leaves, updates,
returns, iterations), ``narrate_plain`` (the hot path of two-player
returns), ``narrate_cuts`` (bounds and cut-offs, Star1's too) and
``narrate_summary`` (``done``).

The page narrates the same way from the raw events' compact records
(``app.search.compact``, ``static/js/core/narrate.js``, its JavaScript twin): a
change to what is said or how changes both (tests/browser/test_narrate_parity.py).
"""
from __future__ import annotations

from string import Formatter
from typing import Callable, Iterator

from . import algorithms as A
from .descriptors import get
from .narrate_cuts import _CUT, CutSentences  # noqa: F401 (wire.py reads _CUT here)
from .narrate_plain import PlainReturns
from .narrate_summary import SummarySentences
from .numbers import INF, fmt, jv, unview as _num  # noqa: F401 (INF, _num: read by wire.py)
from .options import SearchOptions
from .pseudocode import FORMULATIONS, line_of
from .sentences import SENTENCES
from .states import describe, kind_of, move_words
from .tree import Node, Tree
from .view import INITIAL, View
from .words import english, template


class Narrator(PlainReturns, CutSentences, SummarySentences):
    """Raw events to narrated events. Its sentences by kind: entering, leaves,
    updates and returns here; the hot two-player returns in
    :mod:`~app.search.narrate_plain`; bounds and cut-offs in
    :mod:`~app.search.narrate_cuts`; the summary in :mod:`~app.search.narrate_summary`."""

    SHARED = ("tree", "opts", "bounds", "star", "view", "_maps", "step", "path", "best_child",
              "bound_set", "cut_nodes", "raw", "seen", "evaluated", "pruned", "entered",
              "cutoffs", "pruned_nodes", "iterations", "root_value", "last_depth",
              "_names", "_names_cache", "_figures", "_game")
    """The run's state its parts share (set in ``__init__``): the parts
    (:mod:`~app.search.narrate_plain`, :mod:`~app.search.narrate_cuts`,
    :mod:`~app.search.narrate_summary`) read and write these and call the
    methods, nothing else (tests/search/test_narrator_parts.py)."""

    def __init__(self, tree: Tree, opts: SearchOptions,
                 words: Callable[..., str] | None = None) -> None:
        self.tell = words or english
        self.tree = tree
        self.opts = opts
        self.alg = opts.algorithm
        self.desc = get(opts.algorithm)
        self.bounds = self.desc.bounds
        self.star = self.desc.leaf_bounds and tree.has_chance
        """Star1 over chance nodes: their outcomes get windows, and they may be cut."""
        self.seen: dict[str, set] = {}   # a chance node's outcomes searched so far (Star1)
        self._win: dict | None = None     # Star1: the window's arithmetic for the next enter
        self.raw: dict[str, list] = {}    # Star1: node -> [v, alpha, beta] as the algorithm has
        # them (the view's are rounded for JSON; a window is computed from the exact ones)
        self.view = View(tree)
        self.step = 0
        self.path: list[Node] = []          # open frames, root first
        self.best_child: dict[str, Node] = {}
        self.bound_set: dict[tuple[str, str], object] = {}  # (node, 'alpha') -> value it set
        self.evaluated: list[str] = []
        self.pruned: list[str] = []
        self.entered = self.cutoffs = self.pruned_nodes = 0
        self.iterations: list[dict] = []
        self.cut_nodes: set[str] = set()
        self._lines: dict[tuple, dict] = {}
        self.root_value = None
        self.last_depth = opts.depth
        # Looked up once: the narrator runs for every event of a long stream.
        self._names = tree.players
        self._vector = tree.multiplayer or self.desc.players == "vectors"
        self.plain = not (self._vector or tree.has_chance)
        """Two players, plain numbers, no chance: returns take :meth:`_ret_plain`."""
        self._field = self.view.field
        self._maps = self.view._maps   # read directly in the hot paths below
        root = tree.root
        self._game = kind_of(root.label, [c.label for c in root.children])
        self._names_cache: dict[str, str] = {}
        self._moves_cache: dict[tuple[str, str], str | None] = {}
        self._phrases: dict[tuple, str] = {}   # a game's (position, player) -> node phrase
        self._figures: tuple[dict, dict] = ({}, {})   # ints, floats -> as fmt writes them
        self._templates: dict[str, tuple] = {}   # msgid -> see said()

    # -- helpers --------------------------------------------------------
    def role(self, node: Node) -> str:
        if node.chance:
            return "chance"
        if self._vector:
            return "player"
        return "max" if node.player == 0 else "min"

    def who(self, node: Node) -> str:
        return "CHANCE" if node.chance else self._names[node.player]

    def name(self, node: Node) -> str:
        """How a sentence names ``node``: its label, or a game position in
        words ("the empty board", "X in the centre", "piles 4-2-1")."""
        out = self._names_cache.get(node.label)  # by label: a game has few positions, many nodes
        if out is None:
            out = self._names_cache[node.label] = (describe(self._game, node.label, self.tell)
                                                   or node.label)
        return out

    def move(self, node: Node, child: Node) -> str:
        """How a sentence names ``child`` seen from ``node``: for a game, the move."""
        if self._game:
            key = (node.label, child.label)   # a game repeats its moves in many places
            words = self._moves_cache.get(key, False)
            if words is False:
                words = self._moves_cache[key] = move_words(self._game, *key, self.tell)
            if words is not None:
                return words
        return self.name(child)

    def node_phrase(self, node: Node) -> str:
        """"MAX node B", or for a game position "X in the centre (MIN to move)"."""
        if self._game:   # a game has few positions: each phrase is made once
            key = (node.label, node.player)
            out = self._phrases.get(key)
            if out is None:
                out = self._phrases[key] = self._node_phrase(node)
            return out
        return self._node_phrase(node)

    def _node_phrase(self, node: Node) -> str:
        if self._game and self.name(node) != node.label:
            return self.says("position_phrase", self.name(node), self.who(node))
        return self.says("phrase", self.who(node), node.label)

    def root_phrase(self, node: Node) -> str:
        """"the root A"; never "the root root"; a position: "the root, the empty board,"."""
        name = self.name(node)
        if name.strip().lower() == "root":
            return self.tells("the_root")
        if name != node.label:
            return self.tells("root_position", position=name)
        return self.tells("root_node", node=name)

    def figure(self, x) -> str:
        """``fmt(x)``, remembered for numbers (a run writes the same few again
        and again); ints and floats apart, as 10**20 == 1e20 is written two ways."""
        t = type(x)
        if t is int:
            cache = self._figures[0]
        elif t is float:
            cache = self._figures[1]
        else:
            return fmt(x)
        out = cache.get(x)
        if out is None:
            out = cache[x] = fmt(x)
        return out

    def says(self, kind: str, *values) -> str:
        """The sentence of ``kind`` (:data:`~app.search.sentences.SENTENCES`),
        ``self.tell(msgid, **fields)`` with the fields' values given in the
        order they first appear in the message: the hot sentences of a long
        stream, through a ``%`` template made once per kind
        (:func:`~app.search.words.template`)."""
        t = self._templates.get(kind)
        if t is None:
            t = self._templates[kind] = self._template(SENTENCES.get(kind, kind))
        tpl, order = t
        if order is None:
            return tpl % values
        if tpl is None:   # a tell that cannot be a template: called with the fields named
            return self.tell(SENTENCES.get(kind, kind), **dict(zip(order, values)))
        return tpl % tuple([values[k] for k in order])

    said = says
    """A message written in place, not a kind of the table (the sentences of MCTS's and
    PVS's own narrators: only the server says them); its id is its key."""

    def tells(self, kind: str, **fields) -> str:
        """The sentence of ``kind``, its fields named (the rarer sentences)."""
        return self.tell(SENTENCES[kind], **fields)

    def _template(self, msgid: str) -> tuple:
        """(template, order): order None when the values go in as given;
        (None, field names) when ``tell`` must be called."""
        made = template(self.tell, msgid)
        if made is None:
            return None, list(dict.fromkeys(f for _, f, _, _ in Formatter().parse(msgid)
                                            if f is not None))
        tpl, order = made
        return tpl, None if order == tuple(range(len(order))) else order

    def lines(self, kind: str, node: Node | None) -> dict:
        """The pseudocode line of each formulation for ``kind`` at ``node``'s
        role. One map per kind and role, shared by all the events that show
        it (an event is read, never changed, by whoever gets it)."""
        key = (kind, None if node is None else node.chance, None if node is None else node.player)
        out = self._lines.get(key)   # (chance and player fix the role)
        if out is None:
            role = self.role(node) if node is not None else None
            out = self._lines[key] = {f: line for f in FORMULATIONS
                                      if (line := line_of(self.alg, f, kind, role)) is not None}
        return out

    def set(self, changes: list, node_id: str, name: str, new) -> None:
        old = self._maps[name].get(node_id, INITIAL[name])
        if old != new:
            changes.append([node_id, name, old, new])

    def event(self, kind: str, node: Node | None, changes: list, text: str,
              line_kind: str | None = None, **extra) -> dict:
        """The event ``kind`` at ``node``, after ``changes``; its pseudocode
        lines are those of ``line_kind`` (default: ``kind``)."""
        maps = self._maps
        for node_id, name, _old, new in changes:   # self.view.apply(changes), inlined
            if new is None or new == INITIAL[name]:
                maps[name].pop(node_id, None)
            else:
                maps[name][node_id] = new
        step = self.step = self.step + 1
        if node is None:
            ev = {"type": kind, "step": step}
        else:
            nid = node.id
            ev = {"type": kind, "step": step, "node": nid, "depth": node.depth,
                  "player": "CHANCE" if node.chance else self._names[node.player]}
            if self.bounds and (alpha := maps["alpha"].get(nid)) is not None:
                ev["alpha"] = alpha
                ev["beta"] = maps["beta"].get(nid)
            if (value := maps["value"].get(nid)) is not None:
                ev["v"] = value
        if extra:
            ev.update(extra)
        ev["lines"] = self.lines(line_kind or kind, node)
        # A position in words may open the sentence ("the empty board returns ...").
        ev["text"] = text[:1].upper() + text[1:] if self._game else text
        ev["changes"] = changes
        return ev

    # -- the stream -----------------------------------------------------
    def narrate(self, raw: Iterator[tuple]) -> Iterator[dict]:
        path = self.path
        on_ret = self._ret_plain if self.plain else self.on_ret
        for ev in raw:
            kind = ev[0]
            if kind == A.RET:
                node = ev[1]   # most returns enter nothing: the node is open, or its child is
                if not path or (path[-1] is not node and (len(path) < 2 or path[-2] is not node)):
                    yield from self.enter_down_to(node)
                yield from on_ret(*ev[1:])
            elif kind == A.EVAL:
                yield self.on_eval(*ev[1:])
            elif kind == A.EXIT:
                yield from self.enter_down_to(ev[1])
                yield self.on_exit(*ev[1:])
            elif kind == A.ITER:
                yield self.on_iter(*ev[1:])
            else:   # a kind of its own (PVS's tests): its narrator's
                yield from self.on_other(ev)
        yield self.done()

    def on_other(self, ev: tuple) -> Iterator[dict]:
        """The events of a raw event of a kind beyond :mod:`app.search.algorithms`'s."""
        raise ValueError(f"no narration for raw events of kind {ev[0]!r}")

    def enter_down_to(self, node: Node):
        """Enter the nodes between the open frames and ``node`` (the raw
        stream implies entering: see :mod:`app.search.algorithms`)."""
        path = self.path
        if path and path[-1] is node:
            return
        maps = self._maps
        for n in self.tree.path_of(node)[len(path):]:
            if self.bounds:
                parent = path[-1] if path else None
                alpha = _num(maps["alpha"].get(parent.id)) if parent else -INF
                beta = _num(maps["beta"].get(parent.id)) if parent else INF
                if self.star:
                    if parent is not None:
                        _, alpha, beta, _ = self.raw[parent.id]
                        if parent.chance:   # (the sentence gives the window's arithmetic)
                            self._win = self._window_words(parent, n, alpha, beta)
                            alpha, beta = self._window(parent, n, alpha, beta)
                    self.raw[n.id] = [0, alpha, beta, None]
            else:
                alpha = beta = None
            if n.chance:
                v0 = 0
            elif self._vector:
                v0 = None
            else:
                v0 = -INF if n.player == 0 else INF
            yield self.on_enter(n, alpha, beta, v0)

    def on_ret(self, node: Node, child: Node, val, cutoff, v_old, v_new, b_old, b_new, skipped):
        """A child's value came back: its exit or evaluation, then what it changed."""
        out = [self.on_exit(child, val) if cutoff is None else
               self.on_eval(child, val, cutoff)]
        if v_new != v_old:
            out.append(self.on_update(node, v_old, v_new, child))
        else:  # the line v = max(v, ...) ran all the same: say why nothing changed
            out.append(self.on_keep(node, v_old, child, val))
        if self.star:
            raw = self.raw[node.id]
            if not node.chance:
                if b_new != b_old:
                    raw[1 if node.player == 0 else 2] = b_new
            else:
                raw[0] = v_new
                raw[3] = b_new   # what the node returns if this outcome decided it, else None
                self.seen.setdefault(node.id, set()).add(child.id)
                if skipped:
                    out.append(self.on_chance_prune(node, skipped, b_new))
                return out
        elif node.chance:
            return out
        if b_new != b_old:
            out.append(self._bound(node, "alpha" if node.player == 0 else "beta", b_old, b_new))
        if skipped:
            out.append(self.on_prune(node, skipped))
        return out


    def on_enter(self, node: Node, alpha, beta, v0) -> dict:
        self.entered += 1
        maps = self._maps
        status = maps["status"]
        nid = node.id
        changes: list = []
        path = self.path
        parent = path[-1] if path else None
        if parent is not None and (old := status.get(parent.id, "unvisited")) != "visited":
            changes.append([parent.id, "status", old, "visited"])
        if (old := status.get(nid, "unvisited")) != "active":
            changes.append([nid, "status", old, "active"])
        figure = self.figure
        if v0 is not None and (old := maps["value"].get(nid)) != (new := jv(v0)):
            changes.append([nid, "value", old, new])
        if alpha is not None:
            if (old := maps["alpha"].get(nid)) != (new := jv(alpha)):
                changes.append([nid, "alpha", old, new])
            if (old := maps["beta"].get(nid)) != (new := jv(beta)):
                changes.append([nid, "beta", old, new])
        path.append(node)
        if node.chance:
            text = self.says("enter_chance", self.name(node))
        elif self._vector:
            text = self.says("enter_vector", self.who(node),
                             self.name(node))
        elif alpha is not None:
            if parent is None:
                text = self.says("start_ab", self.node_phrase(node), figure(alpha),
                                 figure(beta), figure(v0))
            elif self._win is not None:   # Star1: an outcome's window, worked out
                text = self.tells("enter_window", node=self.node_phrase(node), v=figure(v0),
                                 **self._win)
                self._win = None
            else:
                text = self.says("enter_ab",
                                 self.node_phrase(node), figure(alpha), figure(beta), figure(v0))
        elif parent is None:
            text = self.says("start", self.node_phrase(node),
                             figure(v0))
        else:
            text = self.says("enter", self.node_phrase(node), figure(v0))
        return self.event("enter", node, changes, text,
                          parent=parent.id if parent is not None else None)

    def on_eval(self, node: Node, value, cutoff: bool) -> dict:
        self.entered += 1
        nid = node.id
        self.evaluated.append(nid)
        maps = self._maps
        changes: list = []
        if (old := maps["status"].get(nid, "unvisited")) != "evaluated":
            changes.append([nid, "status", old, "evaluated"])
        j = jv(value)
        if (old := maps["value"].get(nid)) != j:
            changes.append([nid, "value", old, j])
        if node is self.tree.root:
            self.root_value = value
        if cutoff:
            text = self.says("depth", self.name(node), self._eval_of(node),
                             self.figure(value))
        elif (name := self.name(node)) != node.label:
            text = self.says("leaf_position", name, self.figure(value))
        else:
            text = self.says("leaf", node.label, self.figure(value))
        # The evaluation runs in the function called for the node's own player.
        return self.event("evaluate", node, changes, text, value=j, cutoff=cutoff)

    def _eval_of(self, node: Node) -> str:
        return f"eval({node.label})" if self.name(node) == node.label else "eval(n)"

    def on_keep(self, node: Node, v, child: Node, val) -> dict:
        """A child's value came back and left v as it was: the update line ran
        all the same, and a lecturer says so ("12 does not lower v: v stays 3")."""
        c = self.move(node, child)
        figure = self.figure
        if node.chance:
            text = self.says("chance_sum",
                             self.name(node), figure(v), figure(child.probability), figure(val),
                             figure(v))
        elif self._vector:
            who = self.who(node)
            p = node.player
            text = self.says("keep_vector", who, self.name(node), figure(val),
                             c, figure(val[p]), figure(v[p]), figure(v))
        elif node.player == 0:
            text = (self.says("keep_max_tie", self._names[0],
                              self.name(node), figure(val), c, figure(v))
                    if val == v else
                    self.says("keep_max", self._names[0], self.name(node), figure(val), c,
                              figure(v)))
        else:
            text = (self.says("keep_min_tie",
                              self._names[node.player], self.name(node), figure(val), c, figure(v))
                    if val == v else
                    self.says("keep_min", self._names[node.player], self.name(node),
                              figure(val), c, figure(v)))
        j = jv(v)
        return self.event("update", node, [], text, child=child.id, old=j, new=j)

    def on_update(self, node: Node, old, new, child: Node) -> dict:
        nid = node.id
        if not node.chance:  # chance picks no move: the line of best play stops there
            self.best_child[nid] = child
        values = self._maps["value"]
        changes: list = []
        jn = jv(new)
        if (was := values.get(nid)) != jn:
            changes.append([nid, "value", was, jn])
        cv = values.get(child.id)
        figure = self.figure
        if node.chance:
            text = self.says("chance_sum",
                             self.name(node), figure(old), figure(child.probability), figure(cv),
                             figure(new))
        elif self._vector:
            p = node.player
            if old is None:
                text = self.says("first_vector",
                                 self.who(node), self.name(node), figure(new), self.name(child))
            else:
                text = self.says("better_vector", self.who(node), self.name(node),
                                 figure(new), self.name(child), figure(new[p]), figure(old[p]))
        else:
            text = self.says("update", self._names[node.player], self.name(node),
                             "max" if node.player == 0 else "min", figure(old), figure(cv),
                             figure(new), self.move(node, child))
        return self.event("update", node, changes, text, child=child.id, old=jv(old), new=jn)

    def on_exit(self, node: Node, value) -> dict:
        path = self.path
        path.pop()
        nid = node.id
        status = self._maps["status"]
        changes: list = []
        if (old := status.get(nid, "unvisited")) != "visited":   # self.set, inlined
            changes.append([nid, "status", old, "visited"])
        parent = path[-1] if path else None
        if parent is not None and (old := status.get(parent.id, "unvisited")) != "active":
            changes.append([parent.id, "status", old, "active"])
        kind_line = "exit"
        note = ""
        if self.star and node.chance:
            _, alpha, _, cut = self.raw[nid]
            if cut is not None:   # an outcome decided it: it returns a bound, shown as its value
                self.set(changes, nid, "value", jv(value))
                low = value <= alpha
                kind_line = "return-cut" if low else "return-cut-high"
                note = (self.says("at_most",
                                  self.figure(value)) if low else
                        self.says("at_least",
                                  self.figure(value)))
        elif self.bounds and not node.chance:
            if node.player == 0:
                b = _num(self._maps["beta"].get(nid))
                cut = value > b if self.opts.strict else value >= b
            else:
                a = _num(self._maps["alpha"].get(nid))
                cut = value < a if self.opts.strict else value <= a
            if cut:
                kind_line = "return-cut"
                if node.id in self.cut_nodes:
                    note = (self.says("at_least",
                                      self.figure(value))
                            if node.player == 0 else
                            self.says("at_most",
                                      self.figure(value)))
        if parent is None:
            self.root_value = value
            phrase = self.root_phrase(node)
            text = self.tells("root_worth", root=f"{phrase[:1].upper()}{phrase[1:]}",
                             value=self.figure(value))
        else:
            text = self.says("returns", self.name(node),
                             self.figure(value), self.name(parent), note)
        return self.event("exit", node, changes, text, kind_line, value=jv(value))

    def on_iter(self, depth: int, value, best) -> dict:
        changes: list = []
        if value is None:
            self.last_depth = depth if depth < self.tree.height else None
            for node_id in self.view.touched():  # a new iteration starts from a blank tree
                for name in ("status", "value", "alpha", "beta"):
                    self.set(changes, node_id, name, INITIAL[name])
            self.best_child.clear()
            self.bound_set.clear()
            text = (self.tells("iteration_bottom", depth=depth) if depth >= self.tree.height else
                    self.tells("iteration_limit", depth=depth))
            return self.event("iteration", None, changes, text, depth=depth)
        self.iterations.append({"depth": depth, "value": jv(value),
                                "best_move": best.id if best is not None else None})
        text = self.tells("iteration_done", depth=depth,
                         value=self.figure(value), move=self.move(self.tree.root, best)
                         if best is not None else self.tells("none"))
        return self.event("iteration", None, changes, text, depth=depth, value=jv(value),
                          best_move=best.id if best is not None else None)
