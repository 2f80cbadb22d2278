"""Open search runs of the Socket.IO connections, drawn lazily in batches.

A run wraps the core's event generator; a ``pull`` takes the next few events
from it, so a run costs memory in proportion to what was viewed, never to its
length. Runs belong to one connection (its ``sid``); a connection has a few
open at most, the oldest closed first; all close when it disconnects.

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
from collections import OrderedDict
from collections.abc import Callable, Iterator


class Run:
    """One search being watched: an event iterator and how far it has got."""

    def __init__(self, run_id: str, tree_id: str, events: Iterator[dict], info: dict | None = None):
        self.id = run_id
        self.tree_id = tree_id
        self.info = info or {}
        self.position = 0
        """Number of events handed out so far (= the step of the last one)."""
        self.done = False
        self.closed = False
        self._events = events
        self._first: list[dict] = []
        self._lock = threading.Lock()  # handlers may run in several threads

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
                changes = len(event.get("changes", ()))
                if budget is not None and batch and weight + changes > budget:
                    self._first.insert(0, event)     # it opens the next batch
                    break
                batch.append(event)
                weight += changes
                if event.get("type") == "done":
                    self.done = True
                    break
            self.position += len(batch)
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

    def __init__(self, max_runs: int = 4):
        self.max_runs = max_runs
        self._by_sid: dict[str, OrderedDict[str, Run]] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

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
        evicted = []
        with self._lock:
            runs = self._by_sid.get(sid)
            if runs is None:  # disconnected while the run was being made
                evicted.append(run)
            else:
                runs[run.id] = run
                while len(runs) > self.max_runs:
                    evicted.append(runs.popitem(last=False)[1])
        for old in evicted:
            old.close()
        if run.closed:
            raise LookupError(f"connection {sid} is closed")
        return run

    def get(self, sid: str, run_id: str) -> Run | None:
        with self._lock:
            return self._by_sid.get(sid, {}).get(run_id)

    def close(self, sid: str, run_id: str) -> bool:
        """Close one run; False if ``sid`` has no such run open."""
        with self._lock:
            run = self._by_sid.get(sid, {}).pop(run_id, None)
        if run is None:
            return False
        run.close()
        return True

    def close_all(self, sid: str) -> int:
        """Close every run of a connection (on disconnect); how many there were."""
        with self._lock:
            runs = self._by_sid.pop(sid, {})
        for run in runs.values():
            run.close()
        return len(runs)

    def count(self, sid: str | None = None) -> int:
        """Open runs of one connection, or of all."""
        with self._lock:
            if sid is not None:
                return len(self._by_sid.get(sid, {}))
            return sum(len(runs) for runs in self._by_sid.values())
