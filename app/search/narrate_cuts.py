"""The narrator's sentences of bounds and cut-offs: a bound that moves
("α = max(3, 5) = 5"), alpha-beta's cut at a MAX or MIN node (the test, the
ancestor whose bound cut, what is skipped), and Star1's cut at a chance node
with its arithmetic ("0.5 × 2 + 0.5 × 10 = 6 ≤ α = 7.5"). A part of
:class:`app.search.narrate.Narrator`, which reads its state (view maps, open
frames, best children); the page's twin is ``static/js/core/narrate.js``.
"""
from __future__ import annotations

from typing import NamedTuple

from .numbers import INF, jv, unview as _num
from .star1 import rest_after, window
from .tree import Node


class CutSentences:
    """Bounds and cut-offs (mixed into :class:`~app.search.narrate.Narrator`)."""

    def _window(self, node: Node, child: Node, alpha, beta) -> tuple:
        """The window Star1 searches outcome ``child`` of chance ``node`` with
        (:func:`app.search.star1.window`, clipped to the leaf bounds)."""
        lo, hi = self.opts.bounds
        seen = self.seen.setdefault(node.id, set())
        v = self.raw[node.id][0]
        wa, wb = window(alpha, beta, v, child.probability, rest_after(node, seen, child), lo, hi)
        return (wa if wa > lo else lo), (wb if wb < hi else hi)

    def _window_words(self, node: Node, child: Node, alpha, beta) -> dict:
        """The fields of the ``enter_window`` sentence: where outcome ``child``'s α and β come
        from ("α = (7.5 − 0.5 × 10) / 0.5 = 5"; "β = U = 10" where the leaf bound wins).
        Called before the outcome joins ``seen``, as :meth:`_window` is."""
        lo, hi = self.opts.bounds
        seen = self.seen.setdefault(node.id, set())
        v = self.raw[node.id][0]
        p, rest = child.probability, rest_after(node, seen, child)
        wa, wb = window(alpha, beta, v, p, rest, lo, hi)
        f = self.figure
        return {"alpha": _formula(f, "α", alpha, v, rest, hi, p, wa, "L", lo, wa > lo),
                "beta": _formula(f, "β", beta, v, rest, lo, p, wb, "U", hi, wb < hi),
                "p": f(p), "parent": self.name(node), "palpha": f(alpha), "pbeta": f(beta),
                "sum": f(v), "rest": f(rest), "hi": f(hi), "lo": f(lo)}

    def _bound(self, node: Node, name: str, old, new) -> dict:
        self.bound_set[(node.id, name)] = new
        changes: list = []
        self.set(changes, node.id, name, jv(new))
        text = self.says(name, self.name(node), self.figure(old), self.figure(new))
        return self.event(name, node, changes, text, old=jv(old), new=jv(new))

    def on_prune(self, node: Node, skipped) -> dict:
        alpha = _num(self.view.field(node.id, "alpha"))
        beta = _num(self.view.field(node.id, "beta"))
        v = _num(self.view.field(node.id, "value"))
        changes, count = self._mark_pruned(node, skipped)
        strict = self.opts.strict
        names = ", ".join(self.move(node, c) for c in skipped)
        # MAX is cut by an ancestor's beta, MIN by its alpha: one rule, two sides.
        side = _CUT[node.player == 0]
        cut = side.bound
        bound = beta if cut == "beta" else alpha
        sign = side.strict_sign if strict else side.sign
        test = side.strict_test if strict else side.test
        by = self._holder(cut, bound, node)
        parent = self.path[-2] if self.star and len(self.path) > 1 else None
        if parent is not None and parent.chance:
            # An outcome is cut by its window, not by a player's choice: say what it decides.
            text = self._outcome_cut(node, parent, side, v, sign, bound, names, len(skipped))
        else:
            why = (self.says(side.why, self.figure(bound), self.name(by)) + self._through(by)
                   if by is not None else f"{side.symbol} = {self.figure(bound)}")
            # (both sides' sentences have their fields in this order; the bound is beta or alpha)
            text = self.says(side.many if len(skipped) > 1 else side.one, self.name(node),
                             self.figure(v), sign, self.figure(bound), why, names)
        return self.event("prune", node, changes, text, skipped=[c.id for c in skipped],
                          cut=cut, test=test, by=by.id if by is not None else None,
                          bound=jv(bound), pruned_nodes=count)

    def _outcome_cut(self, node: Node, parent: Node, side, v, sign, bound, names, count) -> str:
        """Star1 cuts an outcome of chance node ``parent`` at the edge of its window:
        the chance node can no longer pass its own bound (or, at the leaf bound,
        the outcome can go no further)."""
        lo, hi = self.opts.bounds
        low = side.bound == "alpha"
        f = self.figure
        if bound == (lo if low else hi):
            why = self.tells(f"outcome_edge_{side.bound}", node=self.name(node))
        else:
            _, palpha, pbeta, _ = self.raw[parent.id]
            why = self.tells(f"outcome_why_{side.bound}", parent=self.name(parent),
                            bound=f(palpha if low else pbeta))
        kind = f"outcome_{'many' if count > 1 else 'one'}_{side.bound}"
        return self.tells(kind, node=self.name(node), v=f(v), sign=sign,
                         **{side.bound: f(bound)}, why=why, names=names)

    def on_chance_prune(self, node: Node, skipped, bound) -> dict:
        """Star1 cuts a chance node: the outcomes searched, with the rest at
        the best (worst) value a leaf may have, cannot reach past the bound."""
        maps = self._maps
        _, alpha, beta, _ = self.raw[node.id]
        lo, hi = self.opts.bounds
        low = bound <= alpha
        seen = self.seen.get(node.id, set())
        figure = self.figure
        terms = [f"{figure(c.probability)} × {figure(maps['value'].get(c.id))}"
                 for c in node.children if c.id in seen]
        rest = rest_after(node, seen, None)
        terms.append(f"{figure(rest)} × {figure(hi if low else lo)}")
        changes, count = self._mark_pruned(node, skipped)
        strict = self.opts.strict
        names = ", ".join(self.name(c) for c in skipped)
        side = _CHANCE_CUT[low]
        limit = alpha if low else beta
        sign = side.strict_sign if strict else side.sign
        text = self.says(side.many if len(skipped) > 1 else side.one, self.name(node), names,
                         figure(hi if low else lo), " + ".join(terms), figure(bound), sign,
                         figure(limit))
        by = self._holder(side.bound, limit, node)
        return self.event("prune", node, changes, text, None if low else "prune-high",
                          skipped=[c.id for c in skipped], cut=side.bound,
                          test=side.strict_test if strict else side.test,
                          by=by.id if by is not None else None, bound=jv(limit),
                          reach=jv(bound), pruned_nodes=count)

    def _mark_pruned(self, node: Node, skipped) -> tuple[list, int | None]:
        """The cut at ``node``, counted, and its skipped children marked pruned:
        ``(changes, nodes skipped)``, None where a game is too big to count. One
        change per skipped subtree: status `pruned` on its top holds for all below
        it (see app.search.view), so a cut costs the same whatever it skips."""
        self.cutoffs += 1
        self.cut_nodes.add(node.id)
        changes: list = []
        count = 0
        for child in skipped:
            self.pruned.append(child.id)
            size = self.tree.size_of(child)  # None: a game too big to count
            count = None if count is None or size is None else count + size
            self.set(changes, child.id, "status", "pruned")
        self.pruned_nodes = None if count is None or self.pruned_nodes is None \
            else self.pruned_nodes + count
        return changes, count

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
        return self.says("through", self.move(frame, child))


class _Side(NamedTuple):
    """What a cut-off says at a node of one player (its bound, test and sentences' kinds)."""
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
        "beta", "β", "≥", ">", "v >= beta", "v > beta", "why_beta", "many_beta", "one_beta"),
    False: _Side(  # a MIN node, cut by an ancestor's alpha
        "alpha", "α", "≤", "<", "v <= alpha", "v < alpha", "why_alpha", "many_alpha", "one_alpha"),
}


def _formula(f, symbol: str, bound, v, rest, edge, p, w, clip_name: str, clip, inside: bool) -> str:
    """One end of an outcome's window as arithmetic: ``α = (7.5 − 0.5 × 10) / 0.5 = 5``
    (``(bound − v − rest × edge) / p``, zero terms left out), or ``α = L = 0``
    where the leaf bound is tighter. Numbers only: the same in every language."""
    if not inside:
        return f"{symbol} = {clip_name} = {f(clip)}"
    terms = [f(bound)]
    if v:
        terms.append(f"− {f(v)}" if v > 0 else f"+ {f(-v)}")
    if rest and edge:
        terms.append(f"− {f(rest)} × {f(edge)}" if edge > 0 else f"+ {f(rest)} × {f(-edge)}")
    top = " ".join(terms)
    return f"{symbol} = {'(' + top + ')' if len(terms) > 1 else top} / {f(p)} = {f(w)}"


class _ChanceSide(NamedTuple):
    """What a Star1 cut-off at a chance node says, by the side it fails to."""
    bound: str
    sign: str
    strict_sign: str
    test: str
    strict_test: str
    many: str
    one: str


_CHANCE_CUT = {
    True: _ChanceSide(   # fails low: even at its best it is no better than alpha
        "alpha", "≤", "<", "v + U × rest <= alpha", "v + U × rest < alpha",
        "chance_many_alpha", "chance_one_alpha"),
    False: _ChanceSide(  # fails high: even at its worst it is no worse than beta
        "beta", "≥", ">", "v + L × rest >= beta", "v + L × rest > beta",
        "chance_many_beta", "chance_one_beta"),
}
