"""Turn raw events into the events every consumer sees.

A raw event (see :mod:`app.search.algorithms`) says what the algorithm did;
the narrator adds what a reader needs: the view changes (from what to what),
the pseudocode lines, the bounds and value at the node, and a sentence in a
lecturer's words. It keeps only what it must to say "MAX already has 3
through B": the open frames, each node's best child so far, and which node
set each bound. The summary (`done`) is built from the same stream.

What to say is decided here; how to say it is a message of the catalogue:
every sentence goes through ``self.tell(msgid, **fields)``, where ``msgid``
is the English sentence with named fields. ``tell`` is the ``words``
callable the caller passes (``app.i18n.words(lang)`` gives one per
language); by default the English id is filled in as it stands, so the core
needs no catalogue and imports nothing of the layers above it.
"""
from __future__ import annotations

from typing import Callable, Iterator, NamedTuple

from . import algorithms as A
from .numbers import fmt, jv
from .options import SearchOptions
from .pseudocode import FORMULATIONS, line_of
from .states import N_, describe, kind_of, move_words
from .tree import Node, Tree
from .view import INITIAL, View
from .words import english


class Narrator:
    def __init__(self, tree: Tree, opts: SearchOptions,
                 words: Callable[..., str] | None = None) -> None:
        self.tell = words or english
        self.tree = tree
        self.opts = opts
        self.alg = opts.algorithm
        self.bounds = opts.algorithm in ("alphabeta", "iterative")
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
        self._vector = tree.multiplayer or opts.algorithm == "maxn"
        self._field = self.view.field
        self._maps = self.view._maps   # read directly in the hot paths below
        root = tree.root
        self._game = kind_of(root.label, [c.label for c in root.children])
        self._names_cache: dict[str, str] = {}
        self._moves_cache: dict[tuple[str, str], str | None] = {}

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
            out = self._names_cache[node.label] = describe(self._game, node.label, self.tell) or node.label
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
        if self._game and self.name(node) != node.label:
            return self.tell("{position} ({player} to move)", position=self.name(node),
                             player=self.who(node))
        return self.tell("{player} node {node}", player=self.who(node), node=node.label)

    def root_phrase(self, node: Node) -> str:
        """"the root A"; never "the root root"; a position: "the root, the empty board,"."""
        name = self.name(node)
        if name.strip().lower() == "root":
            return self.tell("the root")
        if name != node.label:
            return self.tell("the root ({position})", position=name)
        return self.tell("the root {node}", node=name)

    def lines(self, kind: str, node: Node | None) -> dict:
        key = (kind, None if node is None else (node.chance, node.player))   # (fixes the role)
        out = self._lines.get(key)
        if out is None:
            role = self.role(node) if node is not None else None
            out = self._lines[key] = {f: line for f in FORMULATIONS
                                      if (line := line_of(self.alg, f, kind, role)) is not None}
        return dict(out)

    def set(self, changes: list, node_id: str, name: str, new) -> None:
        old = self._maps[name].get(node_id, INITIAL[name])
        if old != new:
            changes.append([node_id, name, old, new])

    def event(self, kind: str, node: Node | None, changes: list, text: str, **extra) -> dict:
        self.view.apply(changes)
        self.step += 1
        ev = {"type": kind, "step": self.step}
        if node is not None:
            maps = self._maps
            nid = ev["node"] = node.id
            ev["depth"] = node.depth
            ev["player"] = "CHANCE" if node.chance else self._names[node.player]
            if self.bounds and (alpha := maps["alpha"].get(nid)) is not None:
                ev["alpha"] = alpha
                ev["beta"] = maps["beta"].get(nid)
            if (value := maps["value"].get(nid)) is not None:
                ev["v"] = value
        ev.update(extra)
        ev["lines"] = self.lines(kind, node)
        # A position in words may open the sentence ("the empty board returns ...").
        ev["text"] = text[:1].upper() + text[1:] if self._game else text
        ev["changes"] = changes
        return ev

    # -- the stream -----------------------------------------------------
    def narrate(self, raw: Iterator[tuple]) -> Iterator[dict]:
        path = self.path
        for ev in raw:
            kind = ev[0]
            if kind == A.RET:
                node = ev[1]   # most returns enter nothing: the node is open, or its child is
                if not path or (path[-1] is not node and (len(path) < 2 or path[-2] is not node)):
                    yield from self.enter_down_to(node)
                yield from self.on_ret(*ev[1:])
            elif kind == A.EVAL:
                yield self.on_eval(*ev[1:])
            elif kind == A.EXIT:
                yield from self.enter_down_to(ev[1])
                yield self.on_exit(*ev[1:])
            else:
                yield self.on_iter(*ev[1:])
        yield self.done()

    def enter_down_to(self, node: Node):
        """Enter the nodes between the open frames and ``node`` (the raw
        stream implies entering: see :mod:`app.search.algorithms`)."""
        if self.path and self.path[-1] is node:
            return
        for n in self.tree.path_of(node)[len(self.path):]:
            if self.bounds:
                parent = self.path[-1] if self.path else None
                alpha = _num(self.view.field(parent.id, "alpha")) if parent else -INF
                beta = _num(self.view.field(parent.id, "beta")) if parent else INF
            else:
                alpha = beta = None
            if n.chance:
                v0 = 0
            elif self.alg == "maxn":
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
        if b_new != b_old:
            out.append(self._bound(node, "alpha" if node.player == 0 else "beta", b_old, b_new))
        if skipped:
            out.append(self.on_prune(node, skipped))
        return out

    def on_enter(self, node: Node, alpha, beta, v0) -> dict:
        self.entered += 1
        changes: list = []
        parent = self.path[-1] if self.path else None
        if parent is not None:
            self.set(changes, parent.id, "status", "visited")
        self.set(changes, node.id, "status", "active")
        if v0 is not None:
            self.set(changes, node.id, "value", jv(v0))
        if alpha is not None:
            self.set(changes, node.id, "alpha", jv(alpha))
            self.set(changes, node.id, "beta", jv(beta))
        self.path.append(node)
        name = self.node_phrase(node)
        if node.chance:
            text = self.tell("Chance node {node}: v starts at 0 and becomes the "
                             "probability-weighted sum of its children.", node=self.name(node))
        elif self.alg == "maxn":
            text = self.tell("{player} moves at {node}: it keeps the child whose "
                             "vector is best in {player}'s own component.",
                             player=self.who(node), node=self.name(node))
        elif alpha is not None:
            if parent is None:
                text = self.tell("Start at the root, {node} with α = {alpha}, β = {beta}; "
                                 "v starts at {v}.", node=name, alpha=fmt(alpha), beta=fmt(beta),
                                 v=fmt(v0))
            else:
                text = self.tell("Enter {node} with α = {alpha}, β = {beta}; v starts at {v}.",
                                 node=name, alpha=fmt(alpha), beta=fmt(beta), v=fmt(v0))
        elif parent is None:
            text = self.tell("Start at the root, {node}; v starts at {v}.", node=name, v=fmt(v0))
        else:
            text = self.tell("Enter {node}; v starts at {v}.", node=name, v=fmt(v0))
        return self.event("enter", node, changes, text,
                          parent=parent.id if parent is not None else None)

    def on_eval(self, node: Node, value, cutoff: bool) -> dict:
        self.entered += 1
        self.evaluated.append(node.id)
        changes: list = []
        self.set(changes, node.id, "status", "evaluated")
        self.set(changes, node.id, "value", jv(value))
        if node is self.tree.root:
            self.root_value = value
        if cutoff:
            text = self.tell("Depth limit reached at {node}: not expanded; its evaluation "
                             "{eval} = {value} is used.", node=self.name(node),
                             eval=self._eval_of(node), value=fmt(value))
        elif self.name(node) != node.label:
            text = self.tell("Leaf {position}: value {value}.", position=self.name(node),
                             value=fmt(value))
        else:
            text = self.tell("Leaf {node} has value {value}.", node=node.label, value=fmt(value))
        # The evaluation runs in the function called for the node's own player.
        return self.event("evaluate", node, changes, text, value=jv(value), cutoff=cutoff)

    def _eval_of(self, node: Node) -> str:
        return f"eval({node.label})" if self.name(node) == node.label else "eval(n)"

    def on_keep(self, node: Node, v, child: Node, val) -> dict:
        """A child's value came back and left v as it was: the update line ran
        all the same, and a lecturer says so ("12 does not lower v: v stays 3")."""
        role = self.role(node)
        c = self.move(node, child)
        if role == "chance":
            text = self.tell("Chance node {node}: v = {old} + {p} × {child_value} = {new}.",
                             node=self.name(node), old=fmt(v), p=fmt(child.probability),
                             child_value=fmt(val), new=fmt(v))
        elif role == "player":
            who = self.who(node)
            p = node.player
            text = self.tell("{player} at {node}: {value} from {child} is no better for {player} "
                             "({mine} ≤ {best}): v stays {v}.", player=who, node=self.name(node),
                             value=fmt(val), child=c, mine=fmt(val[p]), best=fmt(v[p]), v=fmt(v))
        else:
            fields = dict(player=self.who(node), node=self.name(node), value=fmt(val), child=c,
                          v=fmt(v))
            if role == "max":
                text = (self.tell("{player} at {node}: {value} from {child} does not raise v: "
                                  "v stays {v} (a tie keeps the child found first).", **fields)
                        if val == v else
                        self.tell("{player} at {node}: {value} from {child} does not raise v: "
                                  "v stays {v}.", **fields))
            else:
                text = (self.tell("{player} at {node}: {value} from {child} does not lower v: "
                                  "v stays {v} (a tie keeps the child found first).", **fields)
                        if val == v else
                        self.tell("{player} at {node}: {value} from {child} does not lower v: "
                                  "v stays {v}.", **fields))
        return self.event("update", node, [], text, child=child.id, old=jv(v), new=jv(v))

    def on_update(self, node: Node, old, new, child: Node) -> dict:
        if not node.chance:  # chance picks no move: the line of best play stops there
            self.best_child[node.id] = child
        changes: list = []
        self.set(changes, node.id, "value", jv(new))
        role = self.role(node)
        cv = self._maps["value"].get(child.id)
        if role == "chance":
            text = self.tell("Chance node {node}: v = {old} + {p} × {child_value} = {new}.",
                             node=self.name(node), old=fmt(old), p=fmt(child.probability),
                             child_value=fmt(cv), new=fmt(new))
        elif role == "player":
            p = node.player
            if old is None:
                text = self.tell("{player} at {node}: first result {value} (from {child}).",
                                 player=self.who(node), node=self.name(node), value=fmt(new),
                                 child=self.name(child))
            else:
                text = self.tell("{player} at {node}: {value} from {child} is better for {player} "
                                 "({mine} > {best}): keep it.", player=self.who(node),
                                 node=self.name(node), value=fmt(new), child=self.name(child),
                                 mine=fmt(new[p]), best=fmt(old[p]))
        else:
            text = self.tell("{player} at {node}: v = {op}({old}, {child_value}) = {new}, "
                             "through {child}.", player=self.who(node), node=self.name(node),
                             op="max" if role == "max" else "min", old=fmt(old),
                             child_value=fmt(cv), new=fmt(new), child=self.move(node, child))
        return self.event("update", node, changes, text, child=child.id,
                          old=jv(old), new=jv(new))

    def _bound(self, node: Node, name: str, old, new) -> dict:
        self.bound_set[(node.id, name)] = new
        changes: list = []
        self.set(changes, node.id, name, jv(new))
        text = self.tell(_BOUND_SAYS[name], node=self.name(node), old=fmt(old), new=fmt(new))
        return self.event(name, node, changes, text, old=jv(old), new=jv(new))

    def on_prune(self, node: Node, skipped) -> dict:
        alpha = _num(self.view.field(node.id, "alpha"))
        beta = _num(self.view.field(node.id, "beta"))
        v = _num(self.view.field(node.id, "value"))
        self.cutoffs += 1
        self.cut_nodes.add(node.id)
        changes: list = []
        count = 0
        for child in skipped:
            # One change per skipped subtree: status `pruned` on its top holds
            # for all below it (see app.search.view), so a cut costs the same
            # whatever the size of what it skips.
            self.pruned.append(child.id)
            size = self.tree.size_of(child)  # None: a game too big to count
            count = None if count is None or size is None else count + size
            self.set(changes, child.id, "status", "pruned")
        self.pruned_nodes = None if count is None or self.pruned_nodes is None \
            else self.pruned_nodes + count
        strict = self.opts.strict
        names = ", ".join(self.move(node, c) for c in skipped)
        # MAX is cut by an ancestor's beta, MIN by its alpha: one rule, two sides.
        side = _CUT[node.player == 0]
        cut = side.bound
        bound = beta if cut == "beta" else alpha
        sign = side.strict_sign if strict else side.sign
        test = side.strict_test if strict else side.test
        by = self._holder(cut, bound, node)
        why = (self.tell(side.why, bound=fmt(bound), holder=self.name(by)) + self._through(by)
               if by is not None else f"{side.symbol} = {fmt(bound)}")
        fields = {"node": self.name(node), "v": fmt(v), "names": names, "sign": sign,
                  cut: fmt(bound), "why": why}
        text = self.tell(side.many if len(skipped) > 1 else side.one, **fields)
        return self.event("prune", node, changes, text, skipped=[c.id for c in skipped],
                          cut=cut, test=test, by=by.id if by is not None else None,
                          bound=jv(bound), pruned_nodes=count)

    def _holder(self, name: str, value, node: Node) -> Node | None:
        """The nearest open frame above ``node`` that set bound ``name`` to ``value``."""
        for frame in reversed(self.path[:-1]):
            if self.bound_set.get((frame.id, name)) == value:
                return frame
        return None

    def _through(self, frame: Node) -> str:
        child = self.best_child.get(frame.id)
        if child is None:
            return ""
        return self.tell(" (through {child})", child=self.move(frame, child))

    def on_exit(self, node: Node, value) -> dict:
        self.path.pop()
        changes: list = []
        self.set(changes, node.id, "status", "visited")
        parent = self.path[-1] if self.path else None
        if parent is not None:
            self.set(changes, parent.id, "status", "active")
        kind_line = "exit"
        note = ""
        if self.bounds and not node.chance:
            a = self.view.field(node.id, "alpha")
            b = self.view.field(node.id, "beta")
            cut = (value >= _num(b)) if node.player == 0 else (value <= _num(a))
            if self.opts.strict:
                cut = (value > _num(b)) if node.player == 0 else (value < _num(a))
            if cut:
                kind_line = "return-cut"
                if node.id in self.cut_nodes:
                    note = (self.tell(" (a bound: its true value is at least {value})", value=fmt(value))
                            if node.player == 0 else
                            self.tell(" (a bound: its true value is at most {value})", value=fmt(value)))
        if parent is None:
            self.root_value = value
            phrase = self.root_phrase(node)
            text = self.tell("{root} is worth {value}.", root=f"{phrase[:1].upper()}{phrase[1:]}",
                             value=fmt(value))
        else:
            text = self.tell("{node} returns {value} to {parent}{note}.", node=self.name(node),
                             value=fmt(value), parent=self.name(parent), note=note)
        ev = self.event("exit", node, changes, text, value=jv(value))
        ev["lines"] = self.lines(kind_line, node)
        return ev

    def on_iter(self, depth: int, value, best) -> dict:
        changes: list = []
        if value is None:
            self.last_depth = depth if depth < self.tree.height else None
            for node_id in self.view.touched():  # a new iteration starts from a blank tree
                for name in ("status", "value", "alpha", "beta"):
                    self.set(changes, node_id, name, INITIAL[name])
            self.best_child.clear()
            self.bound_set.clear()
            text = (self.tell("Iteration {depth}: search again from the root, to the bottom of "
                              "the tree.", depth=depth) if depth >= self.tree.height else
                    self.tell("Iteration {depth}: search again from the root, with the depth "
                              "limit {depth}.", depth=depth))
            return self.event("iteration", None, changes, text, depth=depth)
        self.iterations.append({"depth": depth, "value": jv(value),
                                "best_move": best.id if best is not None else None})
        text = self.tell("Iteration {depth} done: value {value}, best move {move}.", depth=depth,
                         value=fmt(value), move=self.move(self.tree.root, best)
                         if best is not None else self.tell("(none)"))
        return self.event("iteration", None, changes, text, depth=depth, value=jv(value),
                          best_move=best.id if best is not None else None)

    # -- the summary ------------------------------------------------------
    def principal_variation(self) -> list[str]:
        pv = [self.tree.root]
        while pv[-1].id in self.best_child:
            pv.append(self.best_child[pv[-1].id])
        return [n.id for n in pv]

    def done(self) -> dict:
        root = self.tree.root
        best = self.best_child.get(root.id)
        if root.chance:
            best = None
        limit = self.last_depth
        minimax_evaluated = self.tree.static_count(limit)
        evaluated = len(self.evaluated)
        stats = {"entered": self.entered, "evaluated": evaluated, "cutoffs": self.cutoffs,
                 "pruned_nodes": self.pruned_nodes, "minimax_evaluated": minimax_evaluated,
                 "saved": minimax_evaluated - evaluated, "events": self.step + 1}
        value = self.root_value
        head = (self.tell("Done: {root} is worth {value} and the best move is {move}.",
                          root=self.root_phrase(root), value=fmt(value), move=self.move(root, best))
                if best is not None else
                self.tell("Done: {root} is worth {value}.", root=self.root_phrase(root),
                          value=fmt(value)))
        text = head + " " + self._counts(evaluated, minimax_evaluated, stats["saved"])
        extra = {"value": jv(value), "best_move": best.id if best is not None else None,
                 "evaluated": list(self.evaluated), "pruned": list(self.pruned),
                 "pv": self.principal_variation(), "stats": stats}
        if self.iterations:
            extra["iterations"] = self.iterations
        self.step += 1
        lines = self.lines("done", None)
        return {"type": "done", "step": self.step, **extra, "lines": lines,
                "text": text, "changes": []}


    def _counts(self, evaluated: int, plain: int, saved: int) -> str:
        """The counts that end the summary: "7 static evaluations, 1 cut-off; ..."."""
        one, cuts = evaluated == 1, self.cutoffs == 1
        fields = dict(n=evaluated, cutoffs=self.cutoffs, plain=plain, saved=saved)
        if not self.bounds:
            return (self.tell("{n} static evaluation.", **fields) if one else
                    self.tell("{n} static evaluations.", **fields))
        if one and cuts:
            return self.tell("{n} static evaluation, {cutoffs} cut-off; plain minimax would "
                             "make {plain} ({saved} saved).", **fields)
        if one:
            return self.tell("{n} static evaluation, {cutoffs} cut-offs; plain minimax would "
                             "make {plain} ({saved} saved).", **fields)
        if cuts:
            return self.tell("{n} static evaluations, {cutoffs} cut-off; plain minimax would "
                             "make {plain} ({saved} saved).", **fields)
        return self.tell("{n} static evaluations, {cutoffs} cut-offs; plain minimax would "
                         "make {plain} ({saved} saved).", **fields)


INF = float("inf")


_BOUND_SAYS = {
    "alpha": N_("MAX at {node}: α = max({old}, {new}) = {new}: MAX is sure of at least {new} "
                "on this path."),
    "beta": N_("MIN at {node}: β = min({old}, {new}) = {new}: MIN can hold MAX to at most "
               "{new} on this path."),
}
"""What a bound's change says, by the bound."""


class _Side(NamedTuple):
    """What a cut-off says at a node of one player (its bound, test and sentences)."""
    bound: str
    symbol: str
    sign: str
    strict_sign: str
    test: str
    strict_test: str
    why: str
    many: str
    one: str


_CUT = {
    True: _Side(  # a MAX node, cut by an ancestor's beta
        "beta", "β", "≥", ">", "v >= beta", "v > beta",
        N_("MIN already holds MAX to {bound} at {holder}"),
        N_("MAX at {node}: v = {v} {sign} β = {beta}. {why}, so MIN will never let play reach "
           "{node}: its other children {names} cannot matter and are pruned (β cut-off)."),
        N_("MAX at {node}: v = {v} {sign} β = {beta}. {why}, so MIN will never let play reach "
           "{node}: its last child {names} cannot matter and is pruned (β cut-off).")),
    False: _Side(  # a MIN node, cut by an ancestor's alpha
        "alpha", "α", "≤", "<", "v <= alpha", "v < alpha",
        N_("MAX already has {bound} at {holder}"),
        N_("MIN at {node}: v = {v} {sign} α = {alpha}. {why}, so MAX will never choose {node}: "
           "its other children {names} cannot matter and are pruned (α cut-off)."),
        N_("MIN at {node}: v = {v} {sign} α = {alpha}. {why}, so MAX will never choose {node}: "
           "its last child {names} cannot matter and is pruned (α cut-off).")),
}


def _num(x):
    """A view value back to a number ('inf' strings included)."""
    if x == "inf":
        return float("inf")
    if x == "-inf":
        return float("-inf")
    return x
