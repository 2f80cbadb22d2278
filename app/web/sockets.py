"""The Socket.IO channel (namespace ``/``): a run streamed in batches on demand.

Client to server, each with an acknowledgement (docs/architecture.md):

- ``start {tree, algorithm, depth, order, seed, strict, style, lang}`` ->
  ``{ok: true, run, tree, options, max_count}``
- ``pull {run, count, encoding}`` (1 <= count <= ``max_count``) ->
  ``{ok: true, events, done, position}``: the next events of the run (fewer
  than ``count`` when they carry many view changes; ``done`` says the end);
  with ``encoding: "json"``, ``events_json`` instead: the same events as one
  JSON text, written by :mod:`app.search.wire` without making them as dicts;
  with ``encoding: "compact"``, ``records_json``: the raw events' records
  (:mod:`app.search.compact`, ``count`` of them at most) that the page
  narrates itself (``static/js/core/narrate.js``). A run's first pull fixes its encoding
- ``close {run}`` -> ``{ok: true}``

Any mistake (a payload that is not one object, an unknown key, a wrong type,
an unknown tree or run, options that do not fit the tree) is answered
``{ok: false, error: {message, ...}}``; no exception escapes a handler.
Runs are kept per connection and closed when it goes.
"""
from __future__ import annotations

import functools
import logging

import json

from flask import current_app, request
from flask_socketio import Namespace

from app.budget import OverBudget, run_cost
from app.i18n import words
from app.search import SearchError
from app.search.compact import records
from app.search.wire import encoded

from .errors import ApiError, budget_message, said
from .i18n import error_message
from . import memory
from .offload import offload, offload_stream
from .params import (_shown, argument_error, check_keys, options_dict, options_from_payload,
                     whole_number)
from .runs import Run, RunTable
from app.search.descriptors import get as descriptor

log = logging.getLogger(__name__)


def _error(message: str, **fields) -> dict:
    return {"ok": False, "error": {"message": message, **fields}}


def _acked(handler):
    """Check that the event carries one JSON object, and turn every failure
    into an error acknowledgement."""

    @functools.wraps(handler)
    def wrapper(self, *args):
        if len(args) != 1 or not isinstance(args[0], dict):
            return _error(said("{name} takes one JSON object", name=handler.__name__[3:]))
        try:
            return handler(self, args[0])
        except ApiError as exc:
            return {"ok": False, "error": exc.to_dict()}
        except SearchError as exc:      # in the reader's language
            return _error(error_message(exc))
        except OverBudget as exc:
            extra = {"retry_after": exc.retry_after} if exc.retry_after is not None else {}
            return _error(budget_message(exc), status=exc.status, **extra, **exc.fields)
        except Exception:  # a bug: log it, keep the connection
            log.exception("error in Socket.IO handler %s", handler.__name__)
            return _error(said("Internal server error: the problem has been logged."))

    return wrapper


def client_sent(namespace: Namespace, event, args: tuple) -> bool:
    """Whether an event named ``connect`` or ``disconnect`` is a client's own
    message: python-socketio hands one to the handler of the real event (a
    fresh rate-limit bucket, runs closed on a live connection). The real ones
    come while the connection is pending (connecting or going), never while
    the manager has it connected; ``args[0]`` is the connection's ``sid``."""
    return event in ("connect", "disconnect") and bool(args) and \
        namespace.server.manager.is_connected(args[0], namespace.namespace)


SWEEP_SECONDS = 30
"""Parsed trees unused this long are forgotten (when a server has clients)."""
SWEEP_TICK = 10
"""How often the sweeper looks."""


def _take_json(run: Run, count: int, budget: int) -> str:
    return "[" + ",".join([text for text, _ in run.take(count, budget)]) + "]"


def _take_objects(run: Run, count: int, budget: int) -> list[dict]:
    return [json.loads(text) for text, _ in run.take(count, budget)]


class StreamNamespace(Namespace):
    """Handlers of the stream, with the open runs of every connection."""

    def __init__(self, namespace: str = "/", max_runs: int = 4, max_count: int = 1000,
                 max_changes: int = 20_000, max_total: int | None = None,
                 max_nodes: int | None = None, max_bytes: int | None = None):
        super().__init__(namespace)
        self._closed_since_sweep = False
        self.runs = RunTable(max_runs, max_total, max_nodes, on_evict=self._evicted,
                             on_closed=self._released, max_bytes=max_bytes)
        self.max_count = max_count
        self.max_changes = max_changes
        """View changes one pull carries at most (beyond its first event): an
        event of iterative deepening on a big tree may change every node, and
        an acknowledgement of a thousand of them would be hundreds of MB."""

    def trigger_event(self, event, *args):
        # python-socketio drops events without a handler, leaving the
        # client's acknowledgement waiting for ever: answer instead.
        if not hasattr(self, f"on_{event or ''}") or client_sent(self, event, args):
            return _error(said("unknown event {event}: expected {events}", event=repr(event),
                               events="start, pull, close"))
        return super().trigger_event(event, *args)

    def _evicted(self, sid: str, run_id: str) -> None:
        """Tell a client that the server closed its run to make room."""
        self.emit("closed", {"run": run_id, "reason": "The server closed this run to make room "
                             "for others (it was the least recently used): start it again "
                             "to go on."}, room=sid)

    def _released(self, nodes: int) -> None:
        if nodes >= 10_000:   # a big tree's run: give its memory back to the system
            offload(memory.release)
            self._closed_since_sweep = True   # and again once the others have closed

    def on_connect(self, auth=None):
        self.runs.connect(request.sid)
        self._start_sweeper()

    def _start_sweeper(self) -> None:
        """Once a server has clients: every ``SWEEP_TICK`` seconds, forget parsed
        trees unused for ``SWEEP_SECONDS`` and give the memory of those and of
        closed runs back to the system; once no run is open, after a full
        garbage collection (app.web.memory says why). "No run is open" also
        waits for Engine.IO to drop the connections that closed: it keeps a
        closed one (its queues, threads and last answers) until its service
        task passes, up to a ping timeout later, and a collection before that
        leaves them pinning the arenas of the load for good."""
        if getattr(self, "_sweeping", False):
            return
        self._sweeping = True
        trees = current_app.extensions["trees"]
        tick = current_app.config.get("STREAM_SWEEP_TICK", SWEEP_TICK)   # tests: shorter

        def sweep():
            while True:
                self.socketio.sleep(tick)
                freed = trees.sweep(SWEEP_SECONDS)
                if freed >= 10_000 or self._closed_since_sweep:
                    quiet = self.runs.count() == 0 and not self._closing_connections()
                    self._closed_since_sweep = not quiet   # collect once it is
                    offload(memory.release, 0, collect=quiet)

        self.socketio.start_background_task(sweep)

    def _closing_connections(self) -> bool:
        return any(s.closed for s in list(self.server.eio.sockets.values()))

    def on_disconnect(self, reason=None):
        closed = self.runs.close_all(request.sid)
        log.debug("connection %s gone (%s): closed %d runs", request.sid, reason, closed)

    @_acked
    def on_start(self, data: dict) -> dict:
        tree_id = data.get("tree")
        if not isinstance(tree_id, str):
            raise argument_error("tree", "tree must be the id of a tree (a string)")
        options = options_from_payload(data, extra=("tree", "lang"))
        say = words(data.get("lang") if isinstance(data.get("lang"), str) else None)
        tree = current_app.extensions["trees"].fetch(tree_id)   # may build a big tree
        nodes, lazy = len(tree.nodes), bool(getattr(tree, "lazy", False))
        current_app.extensions["budget"].check_run(nodes, lazy)
        cost = run_cost(nodes, lazy)
        options = options.resolved(tree)
        current_app.extensions["budget"].check_iterations(options.iterations)
        # (one whose record has no compact records: the page pulls its events as JSON)
        compact = (lambda: records(tree, options, say)) if descriptor(options.algorithm).compact \
            else None

        def build(run_id: str) -> Run:
            # Events as the JSON text the page receives, never made as dicts.
            run = Run(run_id, tree_id, encoded(tree, options, say), nodes=nodes,
                      tree_bytes=cost.tree, event_bytes=cost.per_event, state_bytes=cost.state,
                      base_bytes=cost.base, compact=compact)
            run.prime()  # SearchError surfaces here, before the run is kept
            return run

        def make(run_id: str) -> Run:   # a big tree's run takes a while to set up
            return offload(build, run_id)

        try:
            run = self.runs.open(request.sid, make)
        except LookupError:
            return _error(said("this connection is closing"))
        return {"ok": True, "run": run.id, "tree": tree_id,
                "options": options_dict(options), "max_count": self.max_count}

    @_acked
    def on_pull(self, data: dict) -> dict:
        check_keys(data, ("run", "count", "encoding"))
        encoding = data.get("encoding", "objects")
        if encoding not in ("objects", "json", "compact"):
            raise argument_error("encoding", "encoding must be 'objects', 'json' or 'compact'")
        run = self._run(data)
        count = whole_number("count", data.get("count", 100))
        if not 1 <= count <= self.max_count:
            raise argument_error("count", "count must be between 1 and {most}",
                                 most=self.max_count)
        try:
            run.choose(encoding == "compact")
        except ValueError:
            raise argument_error("encoding", "a run streams one encoding: its first pull "
                                 "chose it") from None
        try:
            if encoding == "compact":
                # The raw events' records (app.search.compact): the page narrates them.
                text = offload_stream(_take_json, run, count, self.max_changes)
                self.runs.pulled(run)
                return {"ok": True, "records_json": text, "done": run.done,
                        "position": run.position}
            if encoding == "json":
                # The batch as one JSON text: the client parses it in one call, and
                # the Socket.IO layer no longer walks a thousand dicts looking for
                # binary parts (a third of a pull's server time).
                text = offload_stream(_take_json, run, count, self.max_changes)
                self.runs.pulled(run)   # it grew: the least recently pulled make room
                return {"ok": True, "events_json": text, "done": run.done,
                        "position": run.position}
            events = offload_stream(_take_objects, run, count, self.max_changes)
        except RuntimeError:  # closed by another thread (disconnect) meanwhile
            raise argument_error("run", "run {run} was closed", run=repr(run.id)) from None
        self.runs.pulled(run)
        return {"ok": True, "events": events, "done": run.done, "position": run.position}

    @_acked
    def on_close(self, data: dict) -> dict:
        check_keys(data, ("run",))
        run = self._run(data)
        self.runs.close(request.sid, run.id)
        return {"ok": True}

    def _run(self, data: dict) -> Run:
        run_id = data.get("run")
        if not isinstance(run_id, str):
            raise argument_error("run", "run must be the id a start acknowledged (a string)")
        run = self.runs.get(request.sid, run_id)
        if run is None:
            raise argument_error("run", "no open run {run} on this connection (closed, or "
                                 "never started)", run=_shown(run_id))
        return run
