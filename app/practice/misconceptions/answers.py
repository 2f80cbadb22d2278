"""An answer sheet as contract §8 compares them: values and cuts, read off raw events.

The key's sheet and every misconception's sheet are read the same way from
the core's compact raw events (:mod:`app.search.algorithms`): the value each
inner node returns at its exit, and the children each cut-off skips. A
student's sheet is read from what they sent (practice's own reader). The
indices of the events say *when* the search decided each entry, so the first
place two sheets part can be found in the key's search order.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from app.search.algorithms import EXIT, RET

from ..answers import Unreadable, parse_entry, same

UNREADABLE = object()
"""A written value that is not a number: it matches no search's value."""


@dataclass
class Sheet:
    """What a search (or a student) writes: values of inner nodes and the pruned children."""

    values: dict = field(default_factory=dict)
    """Inner node id -> the value it returns."""
    pruned: dict = field(default_factory=dict)
    """Child id -> its parent's id, for every child a cut-off skipped (in cut order)."""
    events: tuple = ()
    """The search's raw events (none for a student's sheet): when it decided each entry,
    read only for the sheets a sentence or a departure needs (:meth:`timing`)."""
    _timing: dict | None = field(default=None, repr=False, compare=False)

    def timing(self) -> dict:
        """``exit_at`` (node -> index of its exit), ``cut_at`` (node -> index of its
        cut-off), ``ret_at`` (child -> index at which its value came back), ``returned``
        (node -> [(child, value)] in the order they came back), ``cause`` (node -> the
        child whose value made it cut)."""
        if self._timing is None:
            t = self._timing = {"exit_at": {}, "cut_at": {}, "ret_at": {}, "returned": {},
                                "cause": {}}
            exit_at, cut_at, ret_at, returned, cause = t.values()
            for k, ev in enumerate(self.events):
                if ev[0] == RET:
                    nid, cid = ev[1].id, ev[2].id
                    ret_at[cid] = k
                    returned.setdefault(nid, []).append((cid, ev[3]))
                    if ev[4] is None:
                        exit_at[cid] = k
                    if ev[9]:
                        cut_at[nid] = k
                        cause[nid] = cid
                elif ev[0] == EXIT:
                    exit_at[ev[1].id] = k
        return self._timing

    exit_at = property(lambda self: self.timing()["exit_at"])
    cut_at = property(lambda self: self.timing()["cut_at"])
    ret_at = property(lambda self: self.timing()["ret_at"])
    returned = property(lambda self: self.timing()["returned"])
    cause = property(lambda self: self.timing()["cause"])


def from_raw(events) -> Sheet:
    """The sheet of one search's raw events (two players)."""
    events = tuple(events)
    values: dict = {}
    pruned: dict = {}
    for ev in events:
        kind = ev[0]
        if kind == RET:
            if ev[4] is None:     # the child was searched: this is its exit
                values[ev[2].id] = ev[3]
            skipped = ev[9]
            if skipped:
                nid = ev[1].id
                for c in skipped:
                    pruned[c.id] = nid
        elif kind == EXIT:
            values[ev[1].id] = ev[2]
    return Sheet(values, pruned, events)


def from_given(tree, answers: dict) -> Sheet:
    """A student's sheet from practice's answer object (leaves' values are given, not written)."""
    s = Sheet()
    table = answers.get("values") if isinstance(answers, dict) else None
    for nid, raw in (table or {}).items():
        if nid not in tree or tree.node(nid).is_leaf:
            continue
        try:
            value = parse_entry(raw)
        except Unreadable:
            value = UNREADABLE
        if value is not None:
            s.values[nid] = value
    marks = answers.get("pruned") if isinstance(answers, dict) else None
    for nid in marks or ():
        parent = tree.parent_of(nid) if isinstance(nid, str) and nid in tree else None
        if parent is not None:
            s.pruned[nid] = parent.id
    return s


def value_slips(a: dict, b: dict) -> list[str]:
    """Nodes whose values differ or are missing in one (a student's unreadable one never matches)."""
    out = [n for n, v in a.items()
           if n not in b or v is UNREADABLE or b[n] is UNREADABLE or not same(v, b[n])]
    out.extend(n for n in b if n not in a)
    return out


def cut_slips(a: dict, b: dict) -> list[str]:
    """Children marked pruned in one and not the other."""
    return [c for c in a if c not in b] + [c for c in b if c not in a]


def slips(a: Sheet, b: Sheet, mode: str, most: int | None = None) -> int:
    """Contract §8's distance between two sheets in ``mode``."""
    n = 0
    if mode in ("cuts", "full"):
        n += len(cut_slips(a.pruned, b.pruned))
    if mode in ("values", "full") and (most is None or n <= most):
        n += len(value_slips(a.values, b.values))
    return n
