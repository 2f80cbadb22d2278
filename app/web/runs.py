"""Open search runs of the Socket.IO connections, drawn lazily in batches.

A run wraps the core's event generator; a ``pull`` takes the next few events
from it, so a run costs memory in proportion to what was viewed, never to its
length. Runs belong to one connection (its ``sid``); a connection has a few
open at most, the oldest closed first; all close when it disconnects.

Server-wide, the table keeps at most ``max_total`` runs, the distinct
trees they hold at most ``max_nodes`` nodes, and the memory of it all at
most ``max_bytes``, estimated per run (:attr:`Run.memory`): the tree it
pins, counted once however many runs share it, and its own state, which
grows with the events drawn (app.budget.run_cost gives the rates). The
estimate is checked when a run opens and after every pull, so runs that
grow cannot pass it together. Past any cap, the run least recently pulled
is closed first and ``on_evict(sid, run_id)`` tells its client.

>>> table = RunTable(max_runs=1)
>>> table.connect("sid1")
>>> first = table.open("sid1", lambda run_id: Run(run_id, "t", iter([{"type": "enter"}, {"type": "done"}])))
>>> first.take(5), first.done
([{'type': 'enter'}, {'type': 'done'}], True)
>>> second = table.open("sid1", lambda run_id: Run(run_id, "t", iter([])))
>>> table.get("sid1", first.id) is None, first.closed   # the oldest made room
(True, True)
"""
from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator

from app.search.compact import LAST as COMPACT_LAST


def _weight(event) -> int:
    """View changes an event carries: a dict's ``changes``, or the count that
    comes with an event already encoded (``(json_text, changes)``, see
    :mod:`app.search.wire`)."""
    return len(event.get("changes", ())) if type(event) is dict else event[1]


def _is_done(event) -> bool:
    if type(event) is dict:
        return event.get("type") == "done"
    # An encoded event, or the last record of the compact stream.
    return event[0].startswith(('{"type":"done"', COMPACT_LAST))


class Run:
    """One search being watched: an event iterator and how far it has got."""

    def __init__(self, run_id: str, tree_id: str, events: Iterator[dict], info: dict | None = None,
                 nodes: int = 0, tree_bytes: int = 0, event_bytes: int = 0,
                 state_bytes: int = 0, base_bytes: int = 0,
                 compact: Callable[[], Iterator] | None = None):
        self.id = run_id
        self.tree_id = tree_id
        self.info = info or {}
        self.nodes = nodes
        """Nodes of the run's tree (what it pins in memory)."""
        self.tree_bytes = tree_bytes
        """Estimated memory of the tree (shared by the runs on it)."""
        self.event_bytes = event_bytes
        self.state_bytes = state_bytes
        self.base_bytes = base_bytes
        self.used = time.monotonic()
        """When it was last started or pulled (the least recent goes first)."""
        self.position = 0
        """Number of events handed out so far (= the step of the last one)."""
        self.done = False
        self.closed = False
        self._events = events
        self._first: list[dict] = []
        self._lock = threading.Lock()  # handlers may run in several threads
        self._compact = compact
        self.encoding: str | None = None
        """``"compact"`` once the run streams the compact records (its first
        pull asked for them), ``"events"`` once it streams events."""

    def choose(self, compact: bool) -> None:
        """Fix what the run streams at its first pull: events (narrated on
        the server), or the compact records (``app.search.compact``) made by
        ``compact()`` in their place. A later pull must ask for the same:
        ``ValueError`` otherwise."""
        want = "compact" if compact else "events"
        with self._lock:
            if self.encoding is None and compact and self.position == 0 and not self.closed:
                if self._compact is None:
                    raise ValueError("this run cannot stream compact records")
                close = getattr(self._events, "close", None)
                if close is not None:
                    close()
                self._events = self._compact()
                self._first = []
                self.done = False
            if self.encoding is None:
                self.encoding = want
            elif self.encoding != want:
                raise ValueError(f"this run streams {self.encoding}")

    @property
    def memory(self) -> int:
        """Estimated memory of the run's own state (the narrator's view of the
        nodes it touched, the summary's lists): ``event_bytes`` per event
        drawn, at most ``state_bytes`` (every node of the tree touched)."""
        return self.base_bytes + min(self.event_bytes * self.position, self.state_bytes)

    def prime(self) -> None:
        """Draw the first event now, so that options that do not fit the tree
        fail at ``start`` rather than at the first ``pull``."""
        with self._lock:
            self._first = list(itertools.islice(self._events, 1))
            if not self._first:
                self.done = True

    def take(self, count: int, budget: int | None = None) -> list[dict]:
        """The next ``count`` events at most; fewer (maybe none) at the end,
        or where the next event would take the batch past ``budget`` view
        changes. An event may carry a change per node of the tree (iterative
        deepening, a cut-off high up): such an event comes alone."""
        with self._lock:
            if self.closed:
                raise RuntimeError(f"run {self.id} is closed")
            batch: list[dict] = []
            weight = 0
            while len(batch) < count:
                if self._first:
                    event = self._first.pop(0)
                elif self.done:
                    break
                else:
                    event = next(self._events, None)
                    if event is None:
                        self.done = True
                        break
                changes = _weight(event)
                if budget is not None and batch and weight + changes > budget:
                    self._first.insert(0, event)     # it opens the next batch
                    break
                batch.append(event)
                weight += changes
                if _is_done(event):
                    self.done = True
                    break
            self.position += len(batch)
            self.used = time.monotonic()
            return batch

    def close(self) -> None:
        """Stop the generator (its ``finally`` blocks run) and forget it."""
        with self._lock:
            if not self.closed:
                self.closed = True
                close = getattr(self._events, "close", None)
                if close is not None:
                    close()
                self._first = []


class RunTable:
    """The open runs of every connection, by ``sid`` and run id."""

    def __init__(self, max_runs: int = 4, max_total: int | None = None,
                 max_nodes: int | None = None,
                 on_evict: Callable[[str, str], None] | None = None,
                 on_closed: Callable[[int], None] | None = None,
                 max_bytes: int | None = None):
        self.max_runs = max_runs
        self.max_total = max_total
        self.max_nodes = max_nodes
        self.max_bytes = max_bytes
        self.on_evict = on_evict
        self.on_closed = on_closed
        """Called with the nodes the closed runs held (to give memory back)."""
        self._by_sid: dict[str, OrderedDict[str, Run]] = {}
        self._trees: dict[str, list[int]] = {}   # tree id -> [nodes, open runs on it, bytes]
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def nodes(self) -> int:
        """Nodes of the distinct trees the open runs hold."""
        with self._lock:
            return sum(entry[0] for entry in self._trees.values())

    def memory(self) -> int:
        """Estimated bytes of the open runs and the distinct trees they hold."""
        with self._lock:
            return self._memory()

    def _memory(self) -> int:
        return sum(entry[2] for entry in self._trees.values()) + \
            sum(run.memory for runs in self._by_sid.values() for run in runs.values())

    def _hold(self, run: Run) -> None:
        entry = self._trees.setdefault(run.tree_id, [run.nodes, 0, run.tree_bytes])
        entry[1] += 1

    def _release(self, run: Run) -> None:
        entry = self._trees.get(run.tree_id)
        if entry is not None:
            entry[1] -= 1
            if entry[1] <= 0:
                del self._trees[run.tree_id]

    def _over(self) -> bool:
        total = sum(len(runs) for runs in self._by_sid.values())
        nodes = sum(entry[0] for entry in self._trees.values())
        return (self.max_total is not None and total > self.max_total) or \
            (self.max_nodes is not None and nodes > self.max_nodes) or \
            (self.max_bytes is not None and self._memory() > self.max_bytes)

    def _least_recent(self, keep: Run | None) -> tuple[str, Run] | None:
        found = None
        for sid, runs in self._by_sid.items():
            for run in runs.values():
                if run is not keep and (found is None or run.used < found[1].used):
                    found = (sid, run)
        return found

    def _make_room(self, keep: Run | None, evicted: list, told: list) -> None:
        """Close the least recently pulled runs but ``keep`` while over a cap."""
        while self._over():
            victim = self._least_recent(keep)
            if victim is None:
                break
            vsid, old = victim
            del self._by_sid[vsid][old.id]
            self._release(old)
            evicted.append(old)
            told.append((vsid, old.id))

    def _finish(self, evicted: list, told: list) -> None:
        self._closed(evicted)
        if self.on_evict is not None:
            for vsid, run_id in told:
                self.on_evict(vsid, run_id)

    def _closed(self, runs: list[Run]) -> None:
        for run in runs:
            run.close()
        if runs and self.on_closed is not None:
            self.on_closed(sum(r.nodes for r in runs))

    def connect(self, sid: str) -> None:
        """Start keeping runs for a new connection."""
        with self._lock:
            self._by_sid.setdefault(sid, OrderedDict())

    def open(self, sid: str, make: Callable[[str], Run]) -> Run:
        """Make a run with a fresh id (``make(run_id)``) and keep it for ``sid``,
        closing that connection's oldest runs beyond :attr:`max_runs`.

        Raises ``LookupError`` if ``sid`` is not connected (any more)."""
        with self._lock:
            run_id = f"r{next(self._ids)}"
        run = make(run_id)  # may raise: then nothing is kept
        evicted, told = [], []
        with self._lock:
            runs = self._by_sid.get(sid)
            if runs is None:  # disconnected while the run was being made
                evicted.append(run)
            else:
                runs[run.id] = run
                self._hold(run)
                while len(runs) > self.max_runs:
                    old = runs.popitem(last=False)[1]
                    self._release(old)
                    evicted.append(old)
                # Server-wide: the least recently pulled run of anyone goes first.
                self._make_room(run, evicted, told)
        self._finish(evicted, told)
        if run.closed:
            raise LookupError(f"connection {sid} is closed")
        return run

    def pulled(self, run: Run) -> bool:
        """After a pull made ``run`` grow: close the least recently pulled
        runs while the memory estimate is over the cap, ``run`` itself last
        (it alone may outgrow the cap); whether ``run`` is still open."""
        evicted, told = [], []
        with self._lock:
            if self.max_bytes is not None and self._memory() > self.max_bytes:
                self._make_room(run, evicted, told)
                self._make_room(None, evicted, told)
        self._finish(evicted, told)
        return not run.closed

    def get(self, sid: str, run_id: str) -> Run | None:
        with self._lock:
            return self._by_sid.get(sid, {}).get(run_id)

    def close(self, sid: str, run_id: str) -> bool:
        """Close one run; False if ``sid`` has no such run open."""
        with self._lock:
            run = self._by_sid.get(sid, {}).pop(run_id, None)
            if run is not None:
                self._release(run)
        if run is None:
            return False
        self._closed([run])
        return True

    def close_all(self, sid: str) -> int:
        """Close every run of a connection (on disconnect); how many there were."""
        with self._lock:
            runs = self._by_sid.pop(sid, {})
            for run in runs.values():
                self._release(run)
        self._closed(list(runs.values()))
        return len(runs)

    def count(self, sid: str | None = None) -> int:
        """Open runs of one connection, or of all."""
        with self._lock:
            if sid is not None:
                return len(self._by_sid.get(sid, {}))
            return sum(len(runs) for runs in self._by_sid.values())
