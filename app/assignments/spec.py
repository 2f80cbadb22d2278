"""What an instructor asks for (contract §7), read and checked once.

``POST /api/assignments`` sends::

    {"title": "Alpha-beta homework",
     "exercises": [{"tree": "aima-5-2", "mode": "full"},
                   {"tree": "random", "mode": "cuts", "branching": 3, "depth": 3}],
     "attempts": 3, "feedback": "submit", "due": "2026-12-01T23:59:00Z", "late": "refuse"}

Everything but ``exercises`` is optional. :func:`read_spec` turns it into an
:class:`AssignmentSpec` or raises :class:`AssignmentError` naming the field
(``exercises[1].depth``).

>>> s = read_spec({"exercises": [{"tree": "random", "mode": "cuts"}], "due": "2026-12-01T10:00Z"})
>>> s.exercises[0].branching, s.exercises[0].depth, s.feedback, s.attempts, s.due
(3, 3, 'submit', 3, 1796119200.0)
>>> read_spec({"exercises": [{"tree": "random", "mode": "cut"}]})
Traceback (most recent call last):
app.assignments.errors.AssignmentError: exercises[0].mode must be one of values, cuts, full, guided, order.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone

from app.practice import MODES
from app.search.descriptors import BY_ID, REGISTRY
from app.treefile.errors import N_

from .errors import AssignmentError

FEEDBACK = ("step", "submit", "due")
LATE = ("refuse", "mark")
IDENTITIES = ("any", "roster", "lms")
"""Who may take it: ``any`` (a name typed in the form, a roster's link, an LMS launch),
``roster`` (only the roster's personal links), ``lms`` (only launches from the LMS)."""
# What practice can check: the algorithms that search the tree once (its records).
ALGORITHMS = tuple(a.id for a in REGISTRY if a.one_search)
MAX_TITLE = 200
MAX_ATTEMPTS = 100
MAX_BRANCHING, MAX_DEPTH = 5, 5
EXERCISE_KEYS = {"tree", "mode", "algorithm", "branching", "depth", "values", "strict", "style",
                 "limit", "title"}
SPEC_KEYS = {"title", "exercises", "attempts", "feedback", "due", "late", "identities"}


@dataclass(frozen=True)
class ExerciseSpec:
    tree: str
    """A tree id (built-in or uploaded) or ``random``: a tree of each student's own."""
    mode: str = "full"
    algorithm: str | None = None
    """``expectiminimax`` makes random trees with chance nodes, ``maxn`` with three players."""
    branching: int = 3
    depth: int = 3
    values: tuple[int, int] = (-10, 10)
    strict: bool = False
    style: str = "aima"
    limit: int | None = None
    """The search's depth limit (practice's ``depth``), for trees with ``eval``s."""

    @property
    def random(self) -> bool:
        return self.tree == "random"


@dataclass(frozen=True)
class AssignmentSpec:
    exercises: tuple[ExerciseSpec, ...]
    title: str = "Assignment"
    attempts: int | None = 3
    """Submissions allowed per exercise (``None``: as many as the student likes)."""
    feedback: str = "submit"
    """``step``: practice's own feedback, the first mistake explained; ``submit``: the
    score and which entries are right; ``due``: nothing until the due date."""
    due: float | None = None
    """Seconds since the epoch (UTC), or ``None``."""
    late: str = "refuse"
    """After ``due``: ``refuse`` a submission, or ``mark`` it late."""
    identities: str = "any"
    """Who may take it (:data:`IDENTITIES`)."""

    def to_json(self) -> str:
        data = asdict(self)
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "AssignmentSpec":
        data = json.loads(text)
        data["exercises"] = tuple(ExerciseSpec(**{**e, "values": tuple(e["values"])})
                                  for e in data["exercises"])
        return cls(**data)

    def due_iso(self) -> str | None:
        if self.due is None:
            return None
        return datetime.fromtimestamp(self.due, timezone.utc).isoformat().replace("+00:00", "Z")

    def past_due(self, now: float) -> bool:
        return self.due is not None and now > self.due


def read_spec(data, max_exercises: int = 20) -> AssignmentSpec:
    if not isinstance(data, dict):
        raise AssignmentError(N_("Send a JSON object: {fields}."),
                              fields="{title, exercises, attempts, feedback, due}")
    _known(data, SPEC_KEYS, "")
    title = data.get("title") or "Assignment"
    if not isinstance(title, str) or len(title.strip()) == 0 or len(title) > MAX_TITLE:
        raise AssignmentError(N_("{field} must be text of 1 to {n} characters."), argument="title",
                              field="title", n=MAX_TITLE)
    raw = data.get("exercises")
    if not isinstance(raw, list) or not raw:
        raise AssignmentError(N_("{field} must be a list of at least one exercise."),
                              argument="exercises", field="exercises")
    if len(raw) > max_exercises:
        raise AssignmentError(N_("Too many exercises: {count}, the limit is {limit}."), 413,
                              argument="exercises", count=len(raw), limit=max_exercises)
    exercises = tuple(_exercise(e, f"exercises[{i}]") for i, e in enumerate(raw))
    attempts = data.get("attempts", 3)
    if attempts is not None:
        attempts = _whole(attempts, "attempts", 1, MAX_ATTEMPTS)
    feedback = _choice(data.get("feedback") or "submit", "feedback", FEEDBACK)
    late = _choice(data.get("late") or "refuse", "late", LATE)
    due = data.get("due")
    if due is not None:
        due = _when(due)
    if feedback == "due" and due is None:
        raise AssignmentError(N_("Feedback after the due date needs a due date."),
                              argument="due")
    identities = _choice(data.get("identities") or "any", "identities", IDENTITIES)
    return AssignmentSpec(exercises, title.strip(), attempts, feedback, due, late, identities)


def _exercise(e, where: str) -> ExerciseSpec:
    if not isinstance(e, dict):
        raise AssignmentError(N_("{field} must be an object: {fields}."), argument=where,
                              field=where, fields="{tree, mode, ...}")
    _known(e, EXERCISE_KEYS, where + ".")
    tree = e.get("tree", "random")
    if not isinstance(tree, str) or not 0 < len(tree) <= 200:
        raise AssignmentError(N_("{field} must be a tree id or \"random\"."),
                              argument=f"{where}.tree", field=f"{where}.tree")
    mode = _choice(e.get("mode") or "full", f"{where}.mode", MODES)
    algorithm = e.get("algorithm")
    if algorithm is not None:
        record = BY_ID.get(algorithm) if isinstance(algorithm, str) else None
        if record is not None and algorithm not in ALGORITHMS and record.reason("homework"):
            raise AssignmentError(record.reason("homework"), argument=f"{where}.algorithm")
        algorithm = _choice(algorithm, f"{where}.algorithm", ALGORITHMS)
    values = e.get("values", [-10, 10])
    if (not isinstance(values, list) or len(values) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 1000
                       for v in values) or values[0] > values[1]):
        raise AssignmentError(N_("{field} must be [low, high], whole numbers within ±1000."),
                              argument=f"{where}.values", field=f"{where}.values")
    strict = e.get("strict", False)
    if not isinstance(strict, bool):
        raise AssignmentError(N_("{field} must be true or false."), argument=f"{where}.strict",
                              field=f"{where}.strict")
    style = _choice(e.get("style") or "aima", f"{where}.style", ("aima", "wikipedia"))
    limit = e.get("limit")
    if limit is not None:
        limit = _whole(limit, f"{where}.limit", 1, MAX_DEPTH)
    return ExerciseSpec(tree, mode, algorithm,
                        _whole(e.get("branching", 3), f"{where}.branching", 2, MAX_BRANCHING),
                        _whole(e.get("depth", 3), f"{where}.depth", 1, MAX_DEPTH),
                        (values[0], values[1]), strict, style, limit)


def _known(data: dict, keys: set, prefix: str) -> None:
    for k in data:
        if k not in keys:
            raise AssignmentError(N_("Unknown field {field}: expected {allowed}."),
                                  argument=f"{prefix}{k}", field=f"{prefix}{k}",
                                  allowed=", ".join(sorted(keys)))


def _whole(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AssignmentError(N_("{field} must be a whole number from {low} to {high}."),
                              argument=name, field=name, low=low, high=high)
    return value


def _choice(value, name: str, choices) -> str:
    if value not in choices:
        raise AssignmentError(N_("{field} must be one of {choices}."), argument=name,
                              field=name, choices=", ".join(choices))
    return value


def _when(value) -> float:
    """ISO 8601 to seconds since the epoch; a time without a zone is UTC."""
    if isinstance(value, str) and len(value) <= 40:
        text = value.strip().replace("Z", "+00:00").replace("z", "+00:00")
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            pass
        else:
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=timezone.utc)
            return moment.timestamp()
    raise AssignmentError(N_("due must be a date and time in ISO 8601 (2026-12-01T23:59Z) "
                             "or null."), argument="due")
