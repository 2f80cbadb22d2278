"""Budgets in one place: what a request, a run, a render and a client may cost.

Every limit of the server is one field of :class:`Budget`, with its default
here; a limit is changed in one line (here, or per deployment with the app's
``BUDGET`` config, a mapping of field -> value). The routes, the Socket.IO
handlers and the renderers ask the budget *before* the work starts, so an
over-budget request costs a comparison, not gigabytes. Pure: no Flask (only the
tree file's catalogue phrases); the web layer turns :class:`OverBudget` into a JSON
answer in the reader's language.

How to ask (every ``check_*`` returns ``None`` or raises :class:`OverBudget`)::

    budget = Budget(picture_nodes=800)        # or Budget.from_mapping(app.config["BUDGET"])
    budget.check_picture(len(tree.nodes))     # export.svg/png/pdf/dot/tikz
    budget.check_worksheet(len(tree.nodes), steps=True)
    budget.check_flipbook(len(tree.nodes), steps=412)
    budget.check_trace(len(tree.nodes), algorithm="minimax")
    budget.check_run(len(tree.nodes))         # a Socket.IO ``start`` (run_cost: its memory)
    budget.check_count(N_("students"), n, budget.classes.class_students)  # any plain cap

    gate = Gate(budget.renders.renders_at_once, budget.renders.render_queue_seconds, N_("renders"))
    with gate.slot():                          # OverBudget(503, retry_after=...) when busy
        ...heavy work...

:class:`OverBudget` carries ``status`` (413: the request itself is too big;
429: this client asks too often; 503: the server is busy now, try again) and
``retry_after`` (seconds, for 429/503). Its ``fields`` go into the JSON error
beside ``message``.

>>> b = Budget()
>>> b.check_picture(10) is None
True
>>> b.check_flipbook(4681, steps=None)
Traceback (most recent call last):
app.budget.OverBudget: A flip-book is made for trees of at most 100 nodes; this one has 4,681. Ask for the worksheet without steps, or use a smaller tree.
>>> Budget.from_mapping({"picture_nodes": 5}).renders.picture_nodes
5
>>> Budget.from_mapping({"pictur_nodes": 5})
Traceback (most recent call last):
ValueError: unknown budget field 'pictur_nodes'
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from typing import Iterator, Mapping

from app.treefile.errors import N_, Phrase   # a catalogue phrase inside a sentence (``what``)
from app.search.descriptors import BY_ID

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
MINUTE, DAY = 60, 86_400


class OverBudget(Exception):
    """A request over its budget: ``status`` 413, 429 or 503 and a message.

    One made by :func:`refusal` keeps its catalogue message (``msgid``,
    English with named ``msg_fields``) so that the web layer says it in the
    reader's language (``app.i18n.message_in``); ``fields`` stay the JSON's.
    """

    msgid: str | None = None
    msg_fields: dict = {}

    def __init__(self, message: str, status: int = 413, retry_after: int | None = None,
                 **fields):
        super().__init__(message)
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.fields = fields


def refusal(msgid: str, status: int = 413, retry_after: int | None = None, *,
            say: dict | None = None, **fields) -> OverBudget:
    """:class:`OverBudget` whose sentence is the catalogue message ``msgid``
    (English, ``{named}`` fields from ``say``); ``fields`` go into the JSON.

    >>> exc = refusal("Too many {what}: {count:,}.", 429, say={"what": "runs", "count": 1200})
    >>> exc.message, exc.msgid, exc.status
    ('Too many runs: 1,200.', 'Too many {what}: {count:,}.', 429)
    """
    say = say or {}
    exc = OverBudget(msgid.format(**say), status, retry_after, **fields)
    exc.msgid, exc.msg_fields = msgid, say
    return exc


# -- one record per concern, each owned by its feature -------------------------
# A record is a small frozen dataclass of plain limits (and the checks of its
# concern); :class:`Budget` holds one of each and is still the one place the
# routes, socket handlers and renderers ask: a limit is read off its record
# (``budget.renders.picture_nodes``), never flat, so a reader names its concern.

@dataclass(frozen=True)
class Requests:
    """One HTTP request and an uploaded tree file (app.web.api, app.treefile)."""

    upload_bytes: int = 2 * MiB
    """Bytes of one request body (an upload)."""
    json_depth: int = 32
    """Nesting of a JSON request body (practice answers, class commands)."""
    tree_nodes: int = 200_000
    """Nodes of an uploaded tree file."""


@dataclass(frozen=True)
class Renders:
    """Pictures and worksheets, rendered in a worker process (app.render, app.web.export)."""

    picture_nodes: int = 2_000
    """Nodes of a tree drawn as a picture or a worksheet."""
    flipbook_pages: int = 80
    """Pages of a worksheet flip-book (one per step, plus question and key): Graphviz
    and the PDF join take about 0.1-0.3 s a page."""
    flipbook_nodes: int = 100
    """Nodes of a tree drawn as a flip-book (every page draws every node)."""
    render_seconds: int = 30
    """Wall-clock seconds of one render, Graphviz and PDF included."""
    render_memory: int = 1 * GiB
    """Private data memory (heap) of the render worker process, Graphviz included."""
    render_output: int = 32 * MiB
    """Bytes of one rendered answer."""
    renders_at_once: int = 2
    """Heavy renders running at once, server-wide (one per core)."""
    render_queue_seconds: float = 10.0
    """How long a render waits for a free slot before 503 + Retry-After."""

    def check_picture(self, nodes: int) -> None:
        if nodes > self.picture_nodes:
            raise refusal("Pictures are made for trees of at most {limit:,} nodes; this one has "
                          "{nodes:,}. Set a smaller tree, or step through it in the visualizer.",
                          413, say={"limit": self.picture_nodes, "nodes": nodes},
                          limit=self.picture_nodes)

    def check_worksheet(self, nodes: int, steps: bool = False) -> None:
        self.check_picture(nodes)
        if steps:
            self.check_flipbook(nodes, None)

    def check_flipbook(self, nodes: int, steps: int | None) -> None:
        """A flip-book of ``nodes`` nodes and (once known) ``steps`` steps.
        Every step of a run enters or evaluates at most a few nodes, so the
        node count alone refuses the big ones before a single step is made."""
        if nodes > self.flipbook_nodes:
            raise refusal("A flip-book is made for trees of at most {limit:,} nodes; this one has "
                          "{nodes:,}. Ask for the worksheet without steps, or use a smaller "
                          "tree.", 413, say={"limit": self.flipbook_nodes, "nodes": nodes},
                          limit=self.flipbook_nodes)
        if steps is not None and steps + 2 > self.flipbook_pages:
            raise refusal("The run has {steps:,} steps: a flip-book is made for runs of at most "
                          "{limit:,}. Ask for the worksheet without steps.", 413,
                          say={"steps": steps, "limit": self.flipbook_pages - 2},
                          limit=self.flipbook_pages - 2)


@dataclass(frozen=True)
class Traces:
    """Whole traces, ``GET .../trace`` (app.web.api)."""

    trace_events: int = 200_000
    """Events of one ``GET .../trace`` answer."""
    trace_bytes: int = 64 * MiB
    """Bytes of one trace answer."""
    traces_at_once: int = 1
    """Whole traces computed at once, server-wide: others wait their turn (so
    that runs being stepped through and pages never queue behind them)."""
    trace_queue_seconds: float = 5.0
    """How long a trace waits for its turn before 503 + Retry-After (a few
    seconds: a request that would wait longer is refused, not kept waiting)."""
    traces_waiting: int = 4
    """Traces waiting for their turn at most; one more is refused at once (503)."""

    def check_trace(self, nodes: int, algorithm: str | None, depth: int | None = None,
                    iterations: int | None = None) -> None:
        """A whole trace: algorithms that prune nothing make at least two
        events per node (enter, then exit or evaluate), known before running;
        one that runs iterations (Monte Carlo tree search) at least three per iteration."""
        desc = BY_ID.get(algorithm) if isinstance(algorithm, str) else None
        if desc is None:
            return
        if "iterations" in desc.options:
            if iterations is not None and 3 * iterations > self.trace_events:
                raise refusal(
                    "This run would have more than {limit:,} events: too many for one answer. "
                    "Set a depth limit (depth=N), or step through it in the visualizer, which "
                    "loads it in pieces.", 413, say={"limit": self.trace_events},
                    limit=self.trace_events)
            return
        if not desc.bounds and depth is None and 2 * nodes > self.trace_events:
            raise refusal(
                "This run would have more than {limit:,} events: too many for one answer. Set a "
                "depth limit (depth=N), or step through it in the visualizer, which loads it in "
                "pieces.", 413, say={"limit": self.trace_events}, limit=self.trace_events)


@dataclass(frozen=True)
class Runs:
    """Runs streamed over Socket.IO (app.web.sockets, app.web.runs)."""

    runs_per_client: int = 4
    """Open runs of one Socket.IO connection (the oldest closed first)."""
    runs_open: int = 400
    """Open runs of all connections (the least recently pulled closed first)."""
    run_nodes: int = 1_500_000
    """Nodes of the distinct trees held by open runs, server-wide."""
    run_memory: int = 512 * MiB
    """Estimated memory of the open runs, server-wide: the distinct trees they
    hold and each run's own state (:func:`run_cost`), checked when a run opens
    and after every pull (the least recently pulled run is closed first)."""
    pull_events: int = 1_000
    """Events of one ``pull``."""
    pull_changes: int = 20_000
    """View changes of one ``pull`` (an event heavier than that comes alone)."""
    socket_message_bytes: int = 64 * KiB
    """Bytes of one Socket.IO message from a client."""

    def check_run(self, nodes: int, lazy: bool = False) -> None:
        """A Socket.IO run on a tree of ``nodes`` nodes (beside the others):
        refused when the tree, or the run's memory at its largest, is over
        the server-wide cap on its own."""
        if nodes > self.run_nodes:
            raise refusal("The tree has {nodes:,} nodes; runs are made for trees of at most "
                          "{limit:,}.", 413, say={"nodes": nodes, "limit": self.run_nodes},
                          limit=self.run_nodes)
        cost = run_cost(nodes, lazy)
        if cost.tree + cost.base + cost.state > self.run_memory:
            raise refusal("A run on this tree of {nodes:,} nodes could take {need:,.0f} MiB; "
                          "runs may hold {limit:,.0f} MiB in all.", 413,
                          say={"nodes": nodes, "need": (cost.tree + cost.state) / MiB,
                               "limit": self.run_memory / MiB}, limit=self.run_memory)


@dataclass(frozen=True)
class Store:
    """The store of uploads and the parsed-tree cache (app.web.store, app.web.library).

    Eviction policy (app/web/store.py): an upload pinned by a holder (a live
    class, an assignment) is never evicted; an uploader past its own share
    (``store_client_trees`` / ``store_client_bytes``) makes room from its own
    uploads first; a full store makes room from the uploader holding the most
    bytes, least recently opened first; an upload not opened for
    ``store_unused_days`` (and not pinned) is deleted."""

    store_trees: int = 1_000
    """Uploads kept; past it the least recently opened is evicted (see above)."""
    store_bytes: int = 64 * MiB
    """Bytes of upload text kept; likewise."""
    store_client_trees: int = 500
    """Uploads one client address keeps (half the store: a hall behind one NAT address
    shares it); past it its own least recently opened go."""
    store_client_bytes: int = 16 * MiB
    """Bytes of upload text one client address keeps; likewise."""
    store_unused_days: float = 180
    """An upload not opened for this long is deleted."""
    uploads_per_client: str = "30 per minute;300 per day"
    """Upload rate of one client address (Flask-Limiter's notation)."""
    tree_cache_nodes: int = 400_000
    """Nodes of parsed trees kept in memory for reuse."""
    tree_json_bytes: int = 32 * MiB
    """Bytes of trees' JSON kept ready to send (``GET /api/trees/<id>``: a 111,111-node
    tree is 3 MB, made in half a second; a lecture's phones all ask for it). 0: none kept."""


@dataclass(frozen=True)
class Connections:
    """Connections of one server process (app.web.serving, deploy/gunicorn.conf.py)."""

    idle_seconds: int = 60
    """A connection silent (or trickling) this long is closed."""
    connections: int = 4_000
    """Open connections (file descriptors) of one server process: far above
    one address's share (a thread each under ``run.py``, a greenlet under gevent)."""
    connections_per_address: int = 600
    """Open connections from one client address: generous, since a whole lecture
    hall often comes through one NAT address (300 phones, a WebSocket each and
    a page load or two), yet far below the process's cap, so one client cannot
    shut the others out."""
    sessions: int = 4_000
    """Engine.IO sessions (Socket.IO connections, polling or WebSocket) open at
    once in one server process: each holds queues and a ping task (about 28 kB)
    until it closes or its ping times out; a handshake past it is refused
    (503 + Retry-After) before a session is made (app.web.sessions)."""
    sessions_per_address: int = 600
    """Engine.IO sessions open at once from one client address (as generous as
    its connections: a lecture hall behind one NAT address); one more
    handshake is refused (429 + Retry-After). Counted by the address a trusted
    proxy names (``CLASS_CLIENT_HEADER``) behind one."""


@dataclass(frozen=True)
class Work:
    """CPU-heavy work (tree builds, run set-ups, pulls, traces, play answers)
    admitted to the worker threads (app.web.offload)."""

    work_threads: int = 2
    """Heavy jobs running at once (one per core: more starve the loop of the GIL)."""
    work_queue: int = 32
    """Heavy jobs waiting for a thread; one more is refused at once (503 + Retry-After)."""
    work_wait_seconds: float = 10.0
    """How long a heavy job waits for a thread before 503 + Retry-After."""
    work_per_client: int = 6
    """Heavy jobs of one Socket.IO connection running or waiting at once; one
    more is refused (429)."""
    work_per_address: int = 16
    """Heavy jobs of one client address running or waiting at once, HTTP and
    Socket.IO counted together (more than a connection's: a lecture hall behind
    one NAT address shares it; half the queue, so one address, however many
    sockets it opens, leaves the rest to the others); one more is refused
    (429; a socket's 503 + Retry-After, which the page waits out), and a
    started stream's pull waits for its address's turn."""


@dataclass(frozen=True)
class Games:
    """Searches of games from their rules and play answers (app.games, app.web.play)."""

    game_size: int = 1_000_000_000
    """Nodes of a game tree (to the end, or its depth limit): a ``game:`` id
    past it is refused on every endpoint with 413 (Nim from 21 tokens: 699
    million; from 40: more than an index-sized integer)."""
    game_nodes: int = 2_000_000
    """Nodes one search of a game (a play answer) may enter: minimax, which
    enters them all, is refused up front past it; a pruning search is cut off
    there with a clear refusal."""
    game_steps: int = 5_000_000
    """Events of one run on a lazily expanded game."""
    search_seconds: float = 10.0
    """Seconds of CPU one play answer may take before it is cut off."""
    mcts_iterations: int = 100_000
    """Iterations of one Monte Carlo tree search (its search tree holds a node each)."""

    def check_iterations(self, iterations: int | None) -> None:
        """A Monte Carlo tree search holds a node per iteration."""
        if iterations is not None and iterations > self.mcts_iterations:
            raise refusal("A Monte Carlo tree search may run at most {limit:,} iterations here, "
                          "not {iterations:,}.", 413,
                          say={"limit": self.mcts_iterations, "iterations": iterations},
                          limit=self.mcts_iterations)


@dataclass(frozen=True)
class Classes:
    """Live classes (app.classes, app.web.classes)."""

    class_students: int = 500
    """Students connected to one live class."""
    answer_bytes: int = 4 * KiB
    """Bytes of one student's answer in a live class."""
    classes_per_client: str = "20 per minute;200 per day"
    """Classes one client address may create (Flask-Limiter's notation)."""
    refusals_logged: float = 60.0
    """Refused driving messages (a forged token) of one connection: the first
    is logged, the rest counted and logged once per this many seconds."""


@dataclass(frozen=True)
class Editor:
    """The tree editor's what-if runs (app.whatif, app.web.editor)."""

    editor_nodes: int = 2_000
    """Nodes of a tree built in the editor."""
    editor_steps: int = 100_000
    """Events of one what-if search, re-run by the editor after every edit."""
    editor_bytes: int = 512 * KiB
    """Bytes of one edited tree sent by the editor (a request holds it and the one before)."""
    editor_runs_at_once: int = 4
    """What-if searches running at once, server-wide (a newcomer waits, then 503)."""
    editor_runs_per_second: float = 30.0
    """What-if runs one editor page may ask over Socket.IO a second (twice that in a burst; then 429)."""


RECORDS = {"requests": Requests, "renders": Renders, "traces": Traces, "runs": Runs,
           "store": Store, "serving": Connections, "work": Work, "games": Games,
           "classes": Classes, "editor": Editor}
"""The concerns of :class:`Budget`: its attribute name -> its record."""
_RECORD_OF = {f.name: name for name, cls in RECORDS.items() for f in fields(cls)}


class Budget:
    """Every cost limit of the server (defaults for a 2-core, few-GiB machine),
    one record per concern (:data:`RECORDS`), read in one place.

    A limit reads off its record, ``budget.games.game_nodes`` (a flat read
    is an AttributeError); ``Budget(game_nodes=5)`` and
    ``Budget(games=Games(game_nodes=5))`` make the same budget (the
    deployment's ``BUDGET`` mapping may stay flat).

    >>> Budget(game_nodes=5).games == Games(game_nodes=5), Budget().renders.picture_nodes
    (True, 2000)
    """

    __slots__ = tuple(RECORDS)

    def __init__(self, **given):
        flat: dict[str, dict] = {}
        for key, value in given.items():
            if key in RECORDS:
                continue
            if key not in _RECORD_OF:
                raise TypeError(f"unknown budget field {key!r}")
            flat.setdefault(_RECORD_OF[key], {})[key] = value
        for name, cls in RECORDS.items():
            record = given.get(name) or cls()
            if not isinstance(record, cls):
                raise TypeError(f"{name} must be a {cls.__name__}")
            object.__setattr__(self, name, replace(record, **flat.get(name, {})))

    def __setattr__(self, name, value):
        raise AttributeError("a Budget is frozen: make another (Budget.from_mapping)")

    def __eq__(self, other) -> bool:
        return isinstance(other, Budget) and all(
            getattr(self, n) == getattr(other, n) for n in RECORDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in RECORDS))

    def __repr__(self) -> str:
        return "Budget(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in RECORDS) + ")"

    @classmethod
    def from_mapping(cls, overrides: Mapping | None) -> "Budget":
        """The defaults with ``overrides``: field -> value (flat), or a
        concern -> {field: value}; unknown fields refused."""
        flat: dict = {}
        for name, value in dict(overrides or {}).items():
            if name in RECORDS and isinstance(value, Mapping):
                for key in value:
                    if _RECORD_OF.get(key) != name:
                        raise ValueError(f"unknown budget field {name}.{key}")
                flat.update(value)
            elif name in _RECORD_OF:
                flat[name] = value
            else:
                raise ValueError(f"unknown budget field {name!r}")
        return cls(**flat)

    # -- checks (each concern's own, asked here) -----------------------------
    def check_count(self, what: str, count: int, limit: int, hint: str = "") -> None:
        """A plain cap: ``count`` of ``what`` at most ``limit``."""
        if count > limit:
            say = {"what": Phrase(what), "count": count, "limit": limit}
            if hint:
                raise refusal("Too many {what}: {count:,}, the limit is {limit:,}. {hint}", 413,
                              say={**say, "hint": Phrase(hint)}, limit=limit)
            raise refusal("Too many {what}: {count:,}, the limit is {limit:,}.", 413, say=say,
                          limit=limit)

    def check_picture(self, nodes: int) -> None:
        self.renders.check_picture(nodes)

    def check_worksheet(self, nodes: int, steps: bool = False) -> None:
        self.renders.check_worksheet(nodes, steps)

    def check_flipbook(self, nodes: int, steps: int | None) -> None:
        self.renders.check_flipbook(nodes, steps)

    def check_trace(self, nodes: int, algorithm: str | None, depth: int | None = None,
                    iterations: int | None = None) -> None:
        self.games.check_iterations(iterations)
        self.traces.check_trace(nodes, algorithm, depth, iterations)

    def check_iterations(self, iterations: int | None) -> None:
        self.games.check_iterations(iterations)

    def check_run(self, nodes: int, lazy: bool = False) -> None:
        self.runs.check_run(nodes, lazy)


@dataclass(frozen=True)
class RunCost:
    """Estimated bytes of a Socket.IO run (see :func:`run_cost`)."""

    tree: int
    """The tree it pins (shared by every run on it; 0 for a game's lazy tree)."""
    base: int
    """The run's fixed part: its generators, narrator and caches."""
    per_event: int
    """Its own state's growth per event drawn."""
    state: int
    """Its own state at most (every node of the tree touched)."""


def run_cost(nodes: int, lazy: bool = False) -> RunCost:
    """The memory a run on a tree of ``nodes`` nodes holds, known before it
    starts and, with the events drawn, while it runs. Rates measured with
    tracemalloc on random trees of 11,111 and 87,381 nodes (the state grew
    34-58 B per event, 125 B per node at the end of minimax; the tree took
    241 B per node traced, about twice that in the process's memory) and on
    the whole of tic-tac-toe (a lazy game makes a new id string per node
    entered: 125 B per event, 316 B per node), rounded up.

    >>> c = run_cost(87_381)
    >>> c.tree // MiB, c.state // MiB, c.per_event
    (33, 13, 64)
    >>> run_cost(549_946, lazy=True).tree
    0
    """
    if lazy:
        return RunCost(tree=0, base=64 * KiB, per_event=160, state=400 * nodes)
    return RunCost(tree=400 * nodes, base=64 * KiB, per_event=64, state=160 * nodes)


class Gate:
    """At most ``limit`` holders at once; a newcomer waits up to ``wait``
    seconds, then gets :class:`OverBudget` 503 with a ``Retry-After`` (at
    once when the holders and waiters ahead of it, at the average hold,
    would keep it waiting longer).

    ``what`` (plural, as in "other renders") is a catalogue message: mark it ``N_()``.

    >>> gate = Gate(1, wait=0.01, what="renders")
    >>> with gate.slot():
    ...     gate.busy
    1
    >>> with gate.slot(), gate.slot():
    ...     pass
    Traceback (most recent call last):
    app.budget.OverBudget: The server is busy with other renders (1 at a time): try again in a few seconds.
    """

    def __init__(self, limit: int, wait: float = 0.0, what: str = "requests",
                 retry_after: int = 5, queue: int | None = None):
        self.limit = limit
        self.queue = queue
        """Newcomers waiting at most (None: no cap); one more is refused at once."""
        self.wait = wait
        self.what = what
        self.retry_after = retry_after
        self.busy = 0
        self.waiting = 0
        self.hold_seconds = 0.0
        """A moving average of how long a holder keeps its slot."""
        self._cond = threading.Condition()

    @contextmanager
    def slot(self) -> Iterator[None]:
        deadline = time.monotonic() + self.wait
        busy = refusal("The server is busy with other {what} ({limit} at a time): "
                       "try again in a few seconds.", 503, self.retry_after,
                       say={"what": Phrase(self.what), "limit": self.limit})
        with self._cond:
            # One that could not get a slot within ``wait`` (those ahead of it
            # times the average hold) is refused at once, not after the wait.
            if self.busy >= self.limit and (
                    (self.queue is not None and self.waiting >= self.queue)
                    or (self.waiting + 1) * self.hold_seconds / self.limit > self.wait):
                raise busy
            self.waiting += 1
            try:
                while self.busy >= self.limit:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise busy
                    self._cond.wait(left)
            finally:
                self.waiting -= 1
            self.busy += 1
        started = time.monotonic()
        try:
            yield
        finally:
            with self._cond:
                self.hold_seconds += 0.2 * (time.monotonic() - started - self.hold_seconds)
                self.busy -= 1
                self._cond.notify()


DEFAULT = Budget()
"""The defaults, for code without an app (the command line, tests)."""


@dataclass(frozen=True)
class AssignmentBudget:
    """What homework may cost (issue 22): its own record, set by the app's
    ``ASSIGNMENT_BUDGET`` config (field -> value).

    >>> AssignmentBudget.from_mapping({"students_per_assignment": 40}).students_per_assignment
    40
    """

    assignments_per_instructor: int = 50
    """Assignments made from one client address in a day (an instructor has no account)."""
    exercises_per_assignment: int = 20
    students_per_assignment: int = 1_000
    submissions_per_minute: int = 20
    """Submissions (a guided walk: answers) of one student in a minute."""
    roster_bytes: int = 256 * KiB
    guesses_per_minute: str = "20/minute"
    """Wrong assignment ids, personal links or instructor tokens from one client."""

    @classmethod
    def from_mapping(cls, overrides: Mapping | None) -> "AssignmentBudget":
        overrides = dict(overrides or {})
        known = {f.name for f in fields(cls)}
        for name in overrides:
            if name not in known:
                raise ValueError(f"unknown assignment budget field {name!r}")
        return replace(cls(), **overrides)

__all__ = ["Budget", "AssignmentBudget", *[c.__name__ for c in RECORDS.values()], "Gate", "OverBudget", "RunCost", "run_cost", "DEFAULT", "KiB", "MiB", "GiB"]
