"""The state of a run at step k, taken from the search core and nothing else.

The renderer never recomputes an algorithm: it replays the core's events into
a :class:`~app.search.View` (each node's status, value, alpha, beta) and reads
a few facts the events state outright (which node was evaluated when, which
child a cut-off skipped and why, the principal variation of ``done``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from app.i18n.context import current
from app.search import SearchOptions, View, run
from app.search.tree import Tree
from app.search.descriptors import get

MAX_NODES = 5000
"""Largest tree we draw: beyond it a picture is unreadable and slow to make."""


class RenderError(ValueError):
    """A picture that cannot be made: a bad step, a tree too big to draw."""


def parse_step(text) -> int | None:
    """``"end"`` -> ``None`` (the final state), ``"4"`` -> 4.

    >>> parse_step("end"), parse_step("0"), parse_step(7)
    (None, 0, 7)
    """
    if text is None or text == "end":
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        number = text
    else:
        try:
            number = int(str(text).strip(), 10)
        except ValueError:
            raise RenderError(f"step must be a whole number or 'end', not {text!r}") from None
    if number < 0:
        raise RenderError(f"step must be 0 or more, not {number}")
    return number


@dataclass
class Snapshot:
    """Everything a picture of one step shows."""

    tree: Tree
    options: SearchOptions
    """The run's options, with the algorithm filled in."""
    step: int
    total: int
    """Number of events of the whole run (the last one is ``done``)."""
    nodes: dict[str, dict]
    """Node id -> ``{"status", "value", "alpha", "beta"}`` from the core's view."""
    event: dict | None = None
    """The event that made this step (``None`` at step 0)."""
    order: dict[str, int] = field(default_factory=dict)
    """Node id -> 1-based position in which the search used its static value."""
    cuts: dict[str, dict] = field(default_factory=dict)
    """Id of each child a cut-off skipped -> that ``prune`` event."""
    done: dict | None = None
    """The ``done`` event, once the step reaches it."""

    @property
    def pv(self) -> list[str]:
        return list(self.done.get("pv") or ()) if self.done else []

    @property
    def bounded(self) -> bool:
        """Does the algorithm keep alpha and beta?"""
        return get(self.options.algorithm).bounds

    @property
    def finished(self) -> bool:
        return self.done is not None


def snapshot(tree: Tree, options: SearchOptions, step: int | None) -> Snapshot:
    """The state after ``step`` events (``None``: the end of the run).

    Raises :class:`~app.search.SearchError` when the options do not fit the
    tree and :class:`RenderError` for a step past the end.
    """
    check_size(tree)
    opts = options.resolved(tree)
    events = list(run(tree, opts, current()))
    return snapshot_of(tree, opts, events, step)


def snapshot_of(tree: Tree, opts: SearchOptions, events: list[dict],
                step: int | None) -> Snapshot:
    """Like :func:`snapshot`, from events already made (a flip-book reuses them)."""
    total = len(events)
    if step is None:
        step = total
    if step > total:
        raise RenderError(f"step {step} is past the end: this run has {total} steps")
    view = View.replay(tree, events, step)
    nodes = view.all()
    snap = Snapshot(tree=tree, options=opts, step=step, total=total, nodes=nodes,
                    event=events[step - 1] if step else None)
    _read_facts(snap, events[:step])
    return snap


def snapshots(tree: Tree, options: SearchOptions) -> list[Snapshot]:
    """Every step of the run, 0 to the end (for a flip-book)."""
    check_size(tree)
    opts = options.resolved(tree)
    events = list(run(tree, opts, current()))
    view = View(tree)
    result = []
    for step in range(len(events) + 1):
        if step:
            view.apply(events[step - 1].get("changes", ()))
        snap = Snapshot(tree=tree, options=opts, step=step, total=len(events),
                        nodes=view.all(),
                        event=events[step - 1] if step else None)
        if result:  # carry the facts forward instead of rereading the prefix
            prev = result[-1]
            snap.order, snap.cuts = dict(prev.order), dict(prev.cuts)
            _read_facts(snap, [events[step - 1]])
        result.append(snap)
    return result


def _read_facts(snap: Snapshot, events: Iterable[dict]) -> None:
    for event in events:
        kind = event["type"]
        if kind == "evaluate":
            snap.order[event["node"]] = len(snap.order) + 1
        elif kind == "prune":
            for child in event.get("skipped", ()):
                snap.cuts[child] = event
        elif kind == "iteration" and "value" not in event:
            # A new round of iterative deepening starts from a blank tree.
            snap.order.clear()
            snap.cuts.clear()
        elif kind == "done":
            snap.done = event


def check_size(tree: Tree) -> None:
    if len(tree.nodes) > MAX_NODES:
        raise RenderError(f"the tree has {len(tree.nodes)} nodes: pictures are made for "
                          f"trees of at most {MAX_NODES}")
