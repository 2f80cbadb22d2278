"""The narrated events as the browser receives them: strict JSON text, built
straight from the raw events.

``encoded(tree, opts, words)`` yields ``(text, changes)`` per event: ``text``
is exactly what the strict encoder (:func:`encode`) writes for the event
:func:`app.search.run` yields at that step (same keys, same order, same
bytes), ``changes`` the number of view changes it carries (what a pull's
budget counts). Building the text without making the event's dict first,
and with each node's constant part (id, depth, player) and each kind's
pseudocode lines encoded once, costs a fraction of narrating then encoding.

The fast path covers what big runs are made of: minimax and alpha-beta on
two-player trees without chance nodes, tree files and games alike (a game's
positions and moves named in words). It repeats the narrator's choice of
sentence for these frequent events (enter, evaluate, update, alpha/beta,
prune, exit), reading and writing the narrator's own state (view maps, open
frames, best children, bounds set); tests/search/test_wire.py holds the two
byte-identical. Every other search (chance, max^n, iterative deepening, a
``words`` that does not put its fields in as they are) and the rare events
(the root's own, ``done``) go through the
:class:`~app.search.narrate.Narrator`'s methods and the encoder.

>>> from app.search.tree import Node, Tree
>>> from app.search.options import SearchOptions
>>> leaf = lambda i, v: Node(id=i, label=i, player=1, depth=1, value=v)
>>> tree = Tree(root=Node(id="A", label="A", player=0, depth=0,
...                       children=(leaf("a", 3), leaf("b", 5))))
>>> text, changes = list(encoded(tree, SearchOptions(algorithm="minimax")))[1]
>>> text[:63], changes
('{"type":"evaluate","step":2,"node":"a","depth":1,"player":"MIN"', 2)
"""
from __future__ import annotations

import json
from json.encoder import encode_basestring as _quote
from typing import Callable, Iterator

from . import algorithms as A
from .descriptors import get
from .narrate import _CUT, INF, Narrator, _num
from .numbers import fmt, jv
from .options import SearchOptions
from .sentences import FIELDS, SENTENCES
from .tree import Node, Tree

encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False, ensure_ascii=False).encode
"""Strict, compact JSON text of one event (``NaN``/``Infinity`` refused)."""

_JT: dict = {None: "null", "inf": '"inf"', "-inf": '"-inf"'}


def _jt(x) -> str:
    """JSON text of a view value (already strict: see :func:`app.search.numbers.jv`)."""
    if type(x) is int:
        return str(x)
    out = _JT.get(x)
    return out if out is not None else encode(x)


def _esc(text: str) -> str:
    """``text`` escaped for the inside of a JSON string."""
    return _quote(text)[1:-1]


def _template(tell, msgid: str, names: tuple[str, ...]) -> str | None:
    """``msgid`` said by ``tell`` as a ``str.format`` template whose constant
    parts are JSON-escaped: filled with JSON-escaped fields, it gives the
    escaped sentence. None if ``tell`` does not put fields in verbatim."""
    said = tell(msgid, **{n: f"\x00{n}\x00" for n in names})
    pieces = said.split("\x00")
    if len(pieces) % 2 == 0 or any(p not in names for p in pieces[1::2]):
        return None
    tpl = "".join("{" + p + "}" if i % 2 else _esc(p).replace("{", "{{").replace("}", "}}")
                  for i, p in enumerate(pieces))
    sample = {n: f"<{n}\"\\>" for n in names}
    if _esc(tell(msgid, **sample)) != tpl.format(**{k: _esc(v) for k, v in sample.items()}):
        return None
    return tpl


# The sentences of the fast path: the narrator's own kinds (app.search.sentences), with their fields.
_SAYS = {kind: (SENTENCES[kind], FIELDS[kind]) for kind in (
    "phrase", "position_phrase", "leaf_position", "start_ab", "enter_ab", "start", "enter", "depth",
    "leaf", "keep_max_tie", "keep_max", "keep_min_tie", "keep_min", "update", "alpha", "beta",
    "returns", "at_least", "at_most", "through",
    *(f"{what}_{side.bound}" for side in _CUT.values() for what in ("why", "many", "one")))}


def encoded(tree: Tree, options: SearchOptions | None = None,
            words: Callable[..., str] | None = None) -> Iterator[tuple[str, int]]:
    """``(json_text, view_changes)`` of each narrated event, lazily, ending with
    ``done``. Options are checked first (:class:`SearchError` here)."""
    opts = (options or SearchOptions()).resolved(tree)
    narrator = get(opts.algorithm).narrator_class
    if narrator is not Narrator:   # (its own narrator: each of its events encoded)
        events = narrator(tree, opts, words).narrate(A.raw_events(tree, opts))
        return ((encode(ev), len(ev["changes"])) for ev in events)
    return WireNarrator(tree, opts, words).encode(A.raw_events(tree, opts))


class WireNarrator(Narrator):
    """A :class:`Narrator` that writes each event as JSON text."""

    def __init__(self, tree: Tree, opts: SearchOptions, words=None) -> None:
        super().__init__(tree, opts, words)
        says = {k: _template(self.tell, msgid, names) for k, (msgid, names) in _SAYS.items()}
        # (what the fast path writes: one search, one bound rule or none, of two players)
        self.fast = (self.desc.raw in ("algorithms:backed_up", "algorithms:alphabeta")
                     and not tree.has_chance and not self._vector and None not in says.values())
        self._says = says
        maps = self.view._maps
        self._status, self._value = maps["status"], maps["value"]
        self._alpha, self._beta = maps["alpha"], maps["beta"]
        # Of the open nodes only (dropped at their exit, so a whole game holds a path's worth):
        self._heads: dict[str, tuple] = {}   # id -> (head, quoted id, escaped name, named)
        self._bnd: dict[str, str] = {}   # id -> ',"alpha":..,"beta":..' as they now are
        self._enames: dict[str, str] = {}   # label -> escaped name (a game's positions)
        self._emoves: dict[tuple[str, str], str] = {}   # a game's moves, escaped
        self._lines_json: dict[tuple, str] = {}
        self._players = [_quote(p) for p in tree.players]
        self._who = [_esc(p) for p in tree.players]
        self._fmt: dict = {}

    # -- the stream ---------------------------------------------------
    def encode(self, raw: Iterator[tuple]) -> Iterator[tuple[str, int]]:
        if not self.fast:
            for ev in self.narrate(raw):
                yield encode(ev), len(ev["changes"])
            return
        out: list = []
        ret = self._ret
        path = self.path
        for ev in raw:
            if ev[0] == A.RET:
                node = ev[1]   # most returns enter nothing: the node is open, or its child is
                if not path or (path[-1] is not node and (len(path) < 2 or path[-2] is not node)):
                    self._enter_down_to(node, out)
                ret(out, *ev[1:])
                yield from out
                out.clear()
            else:  # the root's own events (static root, exit): the narrator's
                if ev[0] == A.EXIT:
                    self._enter_down_to(ev[1], out)
                    yield from out
                    out.clear()
                    d = self.on_exit(*ev[1:])
                else:
                    d = self.on_eval(*ev[1:])
                yield encode(d), len(d["changes"])
        yield encode(self.done()), 0

    # -- pieces -------------------------------------------------------------
    # Minimax and alpha-beta (not iterative) enter each node once, so what a
    # change replaces is known: a node starts unvisited with no value or
    # bounds; an open node is active, or visited while a child is open. The
    # view's maps are still kept (the narrator's own methods read them).
    def _h(self, node: Node) -> tuple[str, str, str, bool]:
        """The node's constant parts: event head, JSON id, escaped name (its
        label, or a game's position in words), whether it is named by a position."""
        q = _quote(node.id)
        head = f',"node":{q},"depth":{node.depth},"player":{self._players[node.player]}'
        label = node.label
        if self._game is None:
            return head, q, _esc(label), False
        name = self._enames.get(label)
        if name is None:
            name = self._enames[label] = _esc(self.name(node))
        return head, q, name, self.name(node) != label

    def _move(self, node: Node, child: Node, ch: tuple | None = None) -> str:
        """How a sentence names ``child`` seen from ``node``, escaped (a game: the move)."""
        if self._game is None:
            return ch[2] if ch is not None else _esc(child.label)
        key = (node.label, child.label)
        out = self._emoves.get(key)
        if out is None:
            out = self._emoves[key] = _esc(self.move(node, child))
        return out

    def _said(self, text: str) -> str:
        """A game's sentence may open with a position in words: capitalised."""
        return text[:1].upper() + text[1:] if self._game else text

    def _f(self, x) -> str:
        """``fmt(x)``, remembered for numbers (a run writes the same few again and again)."""
        out = self._fmt.get(x)
        if out is None:
            out = fmt(x)
            if type(x) is int or x == INF or x == -INF:
                self._fmt[x] = out
        return out

    def _lines_text(self, kind: str, node: Node) -> str:
        key = (kind, node.player)
        out = self._lines_json.get(key)
        if out is None:
            out = self._lines_json[key] = encode(self.lines(kind, node))
        return out

    def _bounds(self, nid: str) -> str:
        """The node's bounds as event keys ('' without bounds)."""
        return self._bnd.get(nid, "")

    # -- events ---------------------------------------------------------------
    def _enter_down_to(self, node: Node, out: list) -> None:
        for n in self.tree.path_of(node)[len(self.path):]:
            parent = self.path[-1] if self.path else None
            if self.bounds:
                alpha = _num(self._alpha.get(parent.id)) if parent else -INF
                beta = _num(self._beta.get(parent.id)) if parent else INF
            else:
                alpha = beta = None
            out.append(self._enter(n, parent, alpha, beta, -INF if n.player == 0 else INF))

    def _enter(self, node: Node, parent: Node | None, alpha, beta, v0) -> tuple[str, int]:
        self.entered += 1
        nid = node.id
        h = self._heads[nid] = self._h(node)
        head, q, label, named = h
        self._status[nid] = "active"
        j0 = jv(v0)
        self._value[nid] = j0
        v = _jt(j0)
        changes = f'[{q},"status","unvisited","active"],[{q},"value",null,{v}]'
        n = 2
        if parent is not None:
            self._status[parent.id] = "visited"
            pq = (self._heads.get(parent.id) or self._h(parent))[1]
            changes = f'[{pq},"status","active","visited"],{changes}'
            n = 3
        says, f = self._says, self._f
        name = (says["position_phrase"].format(position=label, player=self._who[node.player])
                if named else says["phrase"].format(player=self._who[node.player], node=label))
        if alpha is not None:
            ja, jb = jv(alpha), jv(beta)
            self._alpha[nid] = ja
            self._beta[nid] = jb
            a, b = _jt(ja), _jt(jb)
            changes = f'{changes},[{q},"alpha",null,{a}],[{q},"beta",null,{b}]'
            n += 2
            bounds = self._bnd[nid] = f',"alpha":{a},"beta":{b}'
            text = says["start_ab" if parent is None else "enter_ab"].format(
                node=name, alpha=f(alpha), beta=f(beta), v=f(v0))
        else:
            bounds = ""
            text = says["start" if parent is None else "enter"].format(node=name, v=f(v0))
        self.path.append(node)
        self.step += 1
        return (f'{{"type":"enter","step":{self.step}{head}{bounds},"v":{v},'
                f'"parent":{pq if parent is not None else "null"},'
                f'"lines":{self._lines_text("enter", node)},"text":"{self._said(text)}",'
                f'"changes":[{changes}]}}', n)

    def _ret(self, out: list, node: Node, child: Node, val, cutoff, v_old, v_new,
             b_old, b_new, skipped) -> None:
        heads = self._heads
        nh = heads.get(node.id) or self._h(node)
        ch = heads.get(child.id) or self._h(child)
        out.append(self._exit(child, ch, node, nh, val) if cutoff is None else
                   self._eval(child, ch, val, cutoff))
        out.append(self._update(node, nh, v_old, v_new, child, ch) if v_new != v_old else
                   self._keep(node, nh, v_old, child, ch, val))
        if b_new != b_old:
            out.append(self._bound_text(node, nh, b_old, b_new))
        if skipped:
            out.append(self._prune(node, nh, skipped))

    def _eval(self, node: Node, h: tuple, value, cutoff: bool) -> tuple[str, int]:
        self.entered += 1
        nid = node.id
        self.evaluated.append(nid)
        head, q, label, named = h
        self._status[nid] = "evaluated"
        j = jv(value)
        self._value[nid] = j
        v = _jt(j)
        if cutoff:
            text = self._says["depth"].format(node=label, eval="eval(n)" if named else
                                              f"eval({label})", value=self._f(value))
        elif named:
            text = self._says["leaf_position"].format(position=label, value=self._f(value))
        else:
            text = self._says["leaf"].format(node=label, value=self._f(value))
        self.step += 1
        return (f'{{"type":"evaluate","step":{self.step}{head},"v":{v},"value":{v},'
                f'"cutoff":{"true" if cutoff else "false"},'
                f'"lines":{self._lines_text("evaluate", node)},"text":"{self._said(text)}",'
                f'"changes":'
                f'[[{q},"status","unvisited","evaluated"],[{q},"value",null,{v}]]}}', 2)

    def _keep(self, node: Node, h: tuple, v, child: Node, ch: tuple, val) -> tuple[str, int]:
        head, q, label, _ = h
        key = ("keep_max" if node.player == 0 else "keep_min") + ("_tie" if val == v else "")
        f = self._f
        text = self._says[key].format(player=self._who[node.player], node=label, value=f(val),
                                      child=self._move(node, child, ch), v=f(v))
        j = _jt(jv(v))
        self.step += 1
        return (f'{{"type":"update","step":{self.step}{head}{self._bounds(node.id)},"v":{j},'
                f'"child":{ch[1]},"old":{j},"new":{j},'
                f'"lines":{self._lines_text("update", node)},"text":"{self._said(text)}",'
                f'"changes":[]}}', 0)

    def _update(self, node: Node, h: tuple, old, new, child: Node, ch: tuple) -> tuple[str, int]:
        nid = node.id
        self.best_child[nid] = child
        head, q, label, _ = h
        jn = jv(new)
        self._value[nid] = jn
        o, n = _jt(jv(old)), _jt(jn)
        f = self._f
        text = self._says["update"].format(
            player=self._who[node.player], node=label, op="max" if node.player == 0 else "min",
            old=f(old), child_value=f(self._value.get(child.id)), new=f(new),
            child=self._move(node, child, ch))
        self.step += 1
        return (f'{{"type":"update","step":{self.step}{head}{self._bounds(nid)},"v":{n},'
                f'"child":{ch[1]},"old":{o},"new":{n},'
                f'"lines":{self._lines_text("update", node)},"text":"{self._said(text)}",'
                f'"changes":[[{q},"value",{o},{n}]]}}', 1)

    def _bound_text(self, node: Node, h: tuple, old, new) -> tuple[str, int]:
        nid = node.id
        name = "alpha" if node.player == 0 else "beta"
        self.bound_set[(nid, name)] = new
        head, q, label, _ = h
        jn = jv(new)
        (self._alpha if name == "alpha" else self._beta)[nid] = jn
        o, n = _jt(jv(old)), _jt(jn)
        bounds = self._bnd[nid] = (f',"alpha":{_jt(self._alpha.get(nid))},'
                                   f'"beta":{_jt(self._beta.get(nid))}')
        text = self._says[name].format(node=label, old=self._f(old), new=self._f(new))
        self.step += 1
        return (f'{{"type":"{name}","step":{self.step}{head}{bounds},'
                f'"v":{_jt(self._value.get(nid))},"old":{o},"new":{n},'
                f'"lines":{self._lines_text(name, node)},"text":"{self._said(text)}",'
                f'"changes":[[{q},"{name}",{o},{n}]]}}', 1)

    def _exit(self, node: Node, h: tuple, parent: Node, ph: tuple, value) -> tuple[str, int]:
        self.path.pop()   # the root's exit goes through the narrator
        nid = node.id
        self._heads.pop(nid, None)
        head, q, label, _ = h
        self._status[nid] = "visited"
        self._status[parent.id] = "active"
        line_kind = "exit"
        note = ""
        if self.bounds:
            if node.player == 0:
                b = _num(self._beta.get(nid))
                cut = value > b if self.opts.strict else value >= b
            else:
                a = _num(self._alpha.get(nid))
                cut = value < a if self.opts.strict else value <= a
            if cut:
                line_kind = "return-cut"
                if nid in self.cut_nodes:
                    note = self._says["at_least" if node.player == 0 else "at_most"].format(
                        value=self._f(value))
        text = self._says["returns"].format(node=label, value=self._f(value), parent=ph[2],
                                            note=note)
        self.step += 1
        return (f'{{"type":"exit","step":{self.step}{head}{self._bnd.pop(nid, "")},'
                f'"v":{_jt(self._value.get(nid))},"value":{_jt(jv(value))},'
                f'"lines":{self._lines_text(line_kind, node)},"text":"{self._said(text)}","changes":'
                f'[[{q},"status","active","visited"],[{ph[1]},"status","visited","active"]]}}', 2)

    def _prune(self, node: Node, h: tuple, skipped) -> tuple[str, int]:
        nid = node.id
        head, q, label, _ = h
        self.cutoffs += 1
        self.cut_nodes.add(nid)
        changes, ids, names = [], [], []
        count = 0
        status, size_of = self._status, self.tree.size_of
        for child in skipped:   # one change per skipped subtree, on its top
            self.pruned.append(child.id)
            size = size_of(child)
            count = None if count is None or size is None else count + size
            status[child.id] = "pruned"
            cq = _quote(child.id)
            ids.append(cq)
            names.append(self._move(node, child))
            changes.append(f'[{cq},"status","unvisited","pruned"]')
        self.pruned_nodes = None if count is None or self.pruned_nodes is None \
            else self.pruned_nodes + count
        side = _CUT[node.player == 0]
        cut = side.bound
        bound = _num((self._beta if cut == "beta" else self._alpha).get(nid))
        strict = self.opts.strict
        says, f = self._says, self._f
        by = self._holder(cut, bound, node)
        if by is None:
            why = f"{side.symbol} = {f(bound)}"
            by_q = "null"
        else:
            _, by_q, by_label, _ = self._heads.get(by.id) or self._h(by)
            why = says[f"why_{cut}"].format(bound=f(bound), holder=by_label)
            if (through := self.best_child.get(by.id)) is not None:
                why += says["through"].format(child=self._move(by, through))
        text = says[f"{'many' if len(skipped) > 1 else 'one'}_{cut}"].format(**{
            "node": label, "v": f(_num(self._value.get(nid))), "names": ", ".join(names),
            "sign": side.strict_sign if strict else side.sign, cut: f(bound), "why": why})
        self.step += 1
        return (f'{{"type":"prune","step":{self.step}{head}{self._bounds(nid)},'
                f'"v":{_jt(self._value.get(nid))},"skipped":[{",".join(ids)}],"cut":"{cut}",'
                f'"test":"{side.strict_test if strict else side.test}","by":{by_q},'
                f'"bound":{_jt(jv(bound))},"pruned_nodes":{"null" if count is None else count},'
                f'"lines":{self._lines_text("prune", node)},"text":"{self._said(text)}",'
                f'"changes":[{",".join(changes)}]}}', len(changes))
