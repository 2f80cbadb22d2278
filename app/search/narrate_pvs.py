"""Principal variation search's sentences: the null-window test that starts
at a later child ("is C worth more than α = 3?"), what its answer says, and
the re-search when it fails high (low at MIN), with what that costs.

Everything else is alpha-beta's (:class:`~app.search.narrate.Narrator`):
this narrator adds the ``scout`` and ``research`` events of
:mod:`app.search.pvs`, gives a tested child its null window, says a cut
inside a test with the test's sign, and counts the re-searches in ``done``.
The page gets these events as JSON (the record's ``compact`` is False).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from .narrate import Narrator
from .numbers import jv, unview as _unview
from .pvs import RESEARCH, SCOUT
from .tree import Node
from .view import INITIAL


class PvsNarrator(Narrator):
    """Alpha-beta's narrator, with PVS's tests and re-searches."""

    def __init__(self, tree, opts, words=None) -> None:
        super().__init__(tree, opts, words)
        self.scouts = self.researches = 0
        self._window: dict[str, tuple] = {}   # a child about to be entered -> its window
        self._test = None   # the open test: [node, child, t, ids it touched, nodes it entered]
        # Its full windows prune as the textbook does (it reads no `strict`).
        self.opts = self._loose = replace(opts, strict=False)
        self._tight = replace(opts, strict=True)

    # -- the stream: alpha-beta's, with what an open test touches noted ---------
    def on_other(self, ev: tuple) -> Iterator[dict]:
        if ev[0] == SCOUT:
            yield self.on_scout(*ev[1:])
        elif ev[0] == RESEARCH:
            yield self.on_research(*ev[1:])
        else:
            yield from super().on_other(ev)

    def enter_down_to(self, node: Node):
        return self._kept(super().enter_down_to(node))

    def on_ret(self, node: Node, child: Node, val, *rest) -> list[dict]:
        return self._closed(node, child, val, super().on_ret(node, child, val, *rest))

    def _ret_plain(self, node: Node, child: Node, val, *rest) -> list[dict]:
        return self._closed(node, child, val, super()._ret_plain(node, child, val, *rest))

    def _closed(self, node: Node, child: Node, val, out: list[dict]) -> list[dict]:
        """``out``, noted; where it is the tested child's return, with the test's answer."""
        test = self._test
        out = list(self._kept(out))
        if test is not None and child is test[1] and node is test[0]:
            self._test = None
            out[0]["text"] += " " + self._answer(node, child, val, test[2])
        return out

    def _kept(self, events) -> Iterator[dict]:
        """``events``, noting what an open test touches (a re-search wipes it)."""
        test = self._test
        for ev in events:
            if test is not None:
                skip = test[0].id
                test[3].update(c[0] for c in ev["changes"] if c[0] != skip)
                if ev["type"] in ("enter", "evaluate"):
                    test[4] += 1
            yield ev

    # -- entering with the test's window, cutting with its sign ------------
    def on_enter(self, node: Node, alpha, beta, v0) -> dict:
        window = self._window.pop(node.id, None)
        if window is not None:
            alpha, beta = window
        return super().on_enter(node, alpha, beta, v0)

    def on_prune(self, node: Node, skipped) -> dict:
        test = self._test
        if test is None or node.depth < test[1].depth:
            return super().on_prune(node, skipped)
        # Inside a test of "more than t" MAX stops at v > t, MIN at v <= t (the mirror for "less").
        more = test[0].player == 0
        self.opts = self._tight if (node.player == 0) == more else self._loose
        try:
            return super().on_prune(node, skipped)
        finally:
            self.opts = self._loose

    # -- the test and the re-search -----------------------------------------
    def _side(self, node: Node) -> tuple[str, str]:
        return ("α", "β") if node.player == 0 else ("β", "α")

    def on_scout(self, node: Node, child: Node, t) -> dict:
        self.scouts += 1
        self._window[child.id] = (t, t)
        self._test = [node, child, t, set(), 0]
        fields = (self._names[node.player], self.name(node), self.figure(t), self.move(node, child))
        text = (self.said("{player} at {node} already has α = {t}: is {child} worth more? A "
                          "null-window test (α = β = {t}) searches {child} only to answer yes or "
                          "no, and cuts off more than a full search.", *fields)
                if node.player == 0 else
                self.said("{player} at {node} already has β = {t}: is {child} worth less? A "
                          "null-window test (α = β = {t}) searches {child} only to answer yes or "
                          "no, and cuts off more than a full search.", *fields))
        ev = self.event("scout", child, [], text, parent=node.id, threshold=jv(t),
                        test=">" if node.player == 0 else "<")
        ev["lines"] = self.lines("scout", node)
        return ev

    def _answer(self, node: Node, child: Node, x, t) -> str:
        """What a test that sends nobody back says (appended to the child's return)."""
        maps = self._maps
        fields = (self.move(node, child), self.figure(x), self.figure(t), self._names[node.player])
        if node.player == 0:
            if x <= t:
                return self.said("The test fails low: {child} is worth at most {value} ≤ α = "
                                 "{t}, no better than what {player} has: no re-search.", *fields)
            return self.said("The test fails high with {value} ≥ β = {beta}: {player} cuts off "
                             "here, no re-search needed.", fields[1], self.figure(
                                 _unview(maps["beta"].get(node.id))), fields[3])
        if x >= t:
            return self.said("The test fails high: {child} is worth at least {value} ≥ β = "
                             "{t}, no better for {player} than what it has: no re-search.",
                             *fields)
        return self.said("The test fails low with {value} ≤ α = {alpha}: {player} cuts off "
                         "here, no re-search needed.", fields[1], self.figure(
                             _unview(maps["alpha"].get(node.id))), fields[3])

    def on_research(self, node: Node, child: Node, x) -> dict:
        """The test said "yes" inside the window: its subtree is wiped and searched again."""
        self.researches += 1
        test, self._test = self._test, None
        self.path.pop()   # (the child's test is over; entering it again follows)
        changes: list = []
        status = self._maps["status"]
        wiped = [child.id, *sorted(test[3] - {child.id})] if test else [child.id]
        for nid in wiped:
            for name in ("status", "value", "alpha", "beta"):
                self.set(changes, nid, name, INITIAL[name])
            # (what the test said of them goes too: its cuts, best children, bounds set)
            self.cut_nodes.discard(nid)
            self.best_child.pop(nid, None)
            self.bound_set.pop((nid, "alpha"), None)
            self.bound_set.pop((nid, "beta"), None)
        if (old := status.get(node.id, "unvisited")) != "active":
            changes.append([node.id, "status", old, "active"])
        maps = self._maps
        alpha, beta = maps["alpha"].get(node.id), maps["beta"].get(node.id)
        t = test[2] if test else x
        fields = (self.move(node, child), self.figure(x), self.name(node), self.figure(t),
                  self._names[node.player], self.figure(_unview(alpha)),
                  self.figure(_unview(beta)), self.researches, test[4] if test else 0)
        text = (self.said("{child} returns {value} to {node}: the test fails high ({value} > α "
                          "= {t}), so {child} is worth at least {value}, more than {player} has "
                          "so far, but its exact value is not known. Search {child} again with "
                          "the full window (α = {alpha}, β = {beta}): re-search {k}, which "
                          "enters again the {n} nodes the test entered.", *fields)
                if node.player == 0 else
                self.said("{child} returns {value} to {node}: the test fails low ({value} < β "
                          "= {t}), so {child} is worth at most {value}, less than {player} has "
                          "so far, but its exact value is not known. Search {child} again with "
                          "the full window (α = {alpha}, β = {beta}): re-search {k}, which "
                          "enters again the {n} nodes the test entered.", *fields))
        ev = self.event("research", child, changes, text, parent=node.id, value=jv(x),
                        window=[alpha, beta], researches=self.researches,
                        cost=test[4] if test else 0)
        ev["lines"] = self.lines("research", node)
        return ev

    def done(self) -> dict:
        # (a child cut off in a test may be cut off again in its re-search: listed once)
        self.pruned = list(dict.fromkeys(self.pruned))
        ev = super().done()
        ev["stats"]["researches"] = self.researches
        ev["stats"]["scouts"] = self.scouts
        n, k = self.scouts, self.researches
        ev["text"] += " " + (self.tell("{n} null-window test,", n=n) if n == 1 else
                             self.tell("{n} null-window tests,", n=n)) + " " + \
            (self.tell("{k} re-search.", k=k) if k == 1 else self.tell("{k} re-searches.", k=k))
        return ev

