"""Which misconception explains a student's answer (contract §8's matching rule).

Every applicable misconception's sheet is made on the exercise's own tree and
options; one explains the answer when its sheet differs from the key's, lies
within one slip of the answer, and nearer to it than the key. The fewest
slips win; a tie goes to the earlier in :data:`~.library.LIBRARY`. The named
one is then said at the first node, in the key's search order, where its
sheet departs from the key's.
"""
from __future__ import annotations

from app.search import raw_events
from app.search.numbers import fmt

from ..words import tell
from .answers import Sheet, cut_slips, from_given, from_raw, slips, value_slips
from .library import BY_ID, applicable


def key_sheet(tree, opts) -> Sheet:
    """The key's sheet (``opts`` resolved, as practice makes the key)."""
    return from_raw(raw_events(tree, opts))


def sheets(tree, opts, mode: str, key: Sheet | None = None) -> list[tuple[str, Sheet]]:
    """``[(id, sheet)]`` of the misconceptions whose answer differs from the key here."""
    key = key or key_sheet(tree, opts)
    out = []
    for m in applicable(tree, opts, mode):
        sheet = m.sheet(tree, opts, key)
        if slips(sheet, key, mode, most=0):
            out.append((m.id, sheet))
    return out


def diagnose(tree, opts, mode: str, answers: dict, tree_id: str | None = None,
             link=None) -> dict | None:
    """The misconception that explains ``answers`` (practice's answer object), or None.

    ``{"id", "slips", "node", "step", "text"}`` (and ``link``: ``link(step)``,
    the visualizer at the key's step there, when given)."""
    if not applicable(tree, opts, mode):   # (max^n, Star1: no wrong rule of theirs yet)
        return None
    given = from_given(tree, answers)
    key = key_sheet(tree, opts)
    to_key = slips(key, given, mode)
    if to_key == 0:
        return None
    best = None
    for mid, sheet in sheets(tree, opts, mode, key):
        n = slips(sheet, given, mode, most=1)
        if n <= 1 and n < to_key and (best is None or n < best[1]):
            best = (mid, n, sheet)
            if n == 0:
                break
    if best is None:
        return None
    mid, n, sheet = best
    node, at = departure(tree, key, sheet, mode)
    ctx = Context(tree, key, sheet, node, mode, opts.strict)
    text = BY_ID[mid].say(ctx) or ctx.compare()
    out = {"id": mid, "slips": n, "node": node, "text": text}
    return out


def departure(tree, key: Sheet, mine: Sheet, mode: str) -> tuple[str, int]:
    """``(node, index)``: where ``mine`` first parts from ``key`` as the key's search
    decides its entries (a value at the node's exit; a cut at the node that cuts)."""
    found: list[tuple[int, int, str]] = []   # (when, kind order, node)
    end = len(key.ret_at) + 2
    if mode in ("cuts", "full"):
        for child in cut_slips(key.pruned, mine.pruned):
            parent = key.pruned.get(child) or mine.pruned[child]
            if child in key.pruned:
                when = key.cut_at.get(parent, end)
            else:   # the key searched it: it decided so as it went past the child before
                when = _before(key, parent, child, end)
            found.append((when, 0, parent))
    if mode in ("values", "full"):
        for nid in value_slips(key.values, mine.values):
            when = key.exit_at.get(nid)
            if when is None:    # the key never searched it: decided where the key cut above
                when = _cut_above(tree, key, nid, end)
            found.append((when, 1, nid))
    if not found:
        return tree.root.id, end
    when, _, node = min(found)
    return node, when


def _before(key: Sheet, parent: str, child: str, end: int) -> int:
    """When the key, at ``parent``, went on past the child before ``child`` (not cutting)."""
    kids = [c for c, _ in key.returned.get(parent, ())]
    if child in kids:
        i = kids.index(child)
        return key.ret_at[kids[i - 1]] if i else key.ret_at[child]
    return key.exit_at.get(parent, end)


def _cut_above(tree, key: Sheet, nid: str, end: int) -> int:
    node = tree.node(nid)
    while node is not None:
        parent = key.pruned.get(node.id)
        if parent is not None:
            return key.cut_at.get(parent, end)
        node = tree.parent_of(node.id)
    return end


class Context:
    """What a misconception's sentence needs: the tree, both sheets, the node."""

    def __init__(self, tree, key: Sheet, mine: Sheet, node: str, mode: str,
                 strict: bool = False):
        self.tree, self.key, self.mine, self.node, self.mode = tree, key, mine, node, mode
        self.strict = strict

    def label(self, nid: str) -> str:
        return self.tree.node(nid).label

    def names(self, ids) -> str:
        return ", ".join(self.label(i) for i in ids)

    def returned(self, child: str):
        parent = self.tree.parent_of(child)
        for c, v in self.key.returned.get(parent.id if parent else "", ()):
            if c == child:
                return v
        return None

    def _cut(self, sheet: Sheet) -> dict | None:
        """The cut-off at the node in ``sheet``: v then, the bound it hit, what it skipped."""
        nid = self.node
        if nid not in sheet.cut_at:
            return None
        node = self.tree.node(nid)
        cause = sheet.cause[nid]
        seen = []
        for c, v in sheet.returned.get(nid, ()):
            seen.append(v)
            if c == cause:
                break
        v = max(seen) if node.player == 0 else min(seen)
        skipped = [c for c, p in sheet.pruned.items() if p == nid and c != cause]
        return {"v": v, "skipped": skipped, "max": node.player == 0}

    def key_cut(self) -> dict | None:
        cut = self._cut(self.key)
        if cut is not None:
            cut.update(self._bound(cut))
        return cut

    def my_cut(self) -> dict | None:
        return self._cut(self.mine)

    def _bound(self, cut: dict) -> dict:
        """The bound the key's cut hit and who holds it: the nearest ancestor of the
        other player whose best value so far, as the search came down, is it."""
        node = self.tree.node(self.node)
        want_max = not cut["max"]
        best, by = None, None
        child = node
        parent = self.tree.parent_of(node.id)
        while parent is not None:
            if (parent.player == 0) == want_max:
                so_far = [v for c, v in self.key.returned.get(parent.id, ()) if c != child.id
                          and self.key.ret_at.get(c, 0) < self.key.ret_at.get(child.id, 1 << 60)]
                if so_far:
                    v = max(so_far) if want_max else min(so_far)
                    if best is None or (v > best if want_max else v < best):
                        best, by = v, parent.id
            child, parent = parent, self.tree.parent_of(parent.id)
        return {"bound": best, "by": by}

    def sign(self, cut: dict) -> str:
        """The exercise's prune test, as the narration writes it."""
        if cut["max"]:
            return ">" if self.strict else "≥"
        return "<" if self.strict else "≤"

    def symbol(self, cut: dict) -> str:
        return "β" if cut["max"] else "α"

    def compare(self) -> str:
        """The general sentence: what the key and this rule write at the node."""
        nid = self.node
        node = self.label(nid)
        parts_key, parts_mine = [], []
        if self.mode in ("values", "full"):
            parts_key.append(fmt(self.key.values.get(nid)))
            parts_mine.append(fmt(self.mine.values.get(nid)))
        if self.mode in ("cuts", "full"):
            kp = [c for c, p in self.key.pruned.items() if p == nid]
            mp = [c for c, p in self.mine.pruned.items() if p == nid]
            nothing = tell("nothing")
            if self.mode == "full":
                return tell("At {node}, the search returns {value} and prunes {cuts}; this "
                            "rule gives {mine} and prunes {my_cuts}.", node=node,
                            value=parts_key[0], cuts=self.names(kp) or nothing,
                            mine=parts_mine[0], my_cuts=self.names(mp) or nothing)
            return tell("At {node}, the search prunes {cuts}; this rule prunes {my_cuts}.",
                        node=node, cuts=self.names(kp) or nothing,
                        my_cuts=self.names(mp) or nothing)
        return tell("At {node}, the search returns {value}; this rule gives {mine}.",
                    node=node, value=parts_key[0], mine=parts_mine[0])
