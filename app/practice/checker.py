"""Grading a student's worked tree against the answer key.

The student sends what they wrote on the drawn tree::

    {"values": {"B": 3, "C": "2"}, "alpha": {"A": 3}, "beta": {"C": "2"},
     "pruned": ["c2", "c3"]}

``pruned`` lists the children whose incoming branch (edge) is marked as
cut, leaf edges included. :func:`check` answers which entries are right,
the first wrong one explained in a sentence with a link to the visualizer at
the step that decides it, and a score. What is graded depends on the mode:

=========  ==========================================================
``values``  minimax values of the inner nodes (expectiminimax on a tree with
            chance nodes, max^n vectors on a multiplayer tree); no pruning
``cuts``    the pruned branches under alpha-beta; values, if written, are
            checked as hints but not scored
``full``    alpha-beta values, α and β at each node's exit, and the cuts
=========  ==========================================================
"""
from __future__ import annotations

import math
from dataclasses import replace
from urllib.parse import urlencode

from app.search import SearchError, SearchOptions
from app.search.numbers import jv
from app.search.tree import Tree

from . import explain
from .misconceptions import diagnose
from .answers import Unreadable, parse_entry, same
from .key import AnswerKey, answer_key
from .words import tell
from app.search.descriptors import BY_ID, REGISTRY, get, pruning_for

MODES = ("values", "cuts", "full", "guided", "order")
"""Every practice mode; ``guided`` and ``order`` have modules of their own."""
GRADED = {"values": ("value",), "cuts": ("cut",), "full": ("value", "alpha", "beta", "cut")}
HINTS = {"cuts": ("value", "alpha", "beta")}
_KIND_ORDER = {"cut": 0, "value": 1, "alpha": 2, "beta": 3}


class PracticeError(ValueError):
    """A request the checker cannot grade (bad mode, bad answers, unfit tree)."""


MCTS_ITERATIONS = 30
"""[mcts] Iterations of a guided Monte Carlo practice run unless asked otherwise."""


def practice_options(tree: Tree, mode: str, options: SearchOptions | None = None) -> SearchOptions:
    """The search whose events make the key for ``mode`` on ``tree``.

    Practice follows the drawn order of children (``order='given'``); the
    depth limit, tie convention (``strict``) and formulation (``style``)
    come from ``options``.
    """
    options = options or SearchOptions()
    if mode not in MODES:
        raise PracticeError(f"unknown mode {mode!r}: choose one of {', '.join(MODES)}")
    record = BY_ID.get(options.algorithm)
    if mode == "guided" and record and "ucb" in record.questions:
        # [mcts] "which child does UCB1 select next?": a short seeded run
        opts = replace(options, order="given", seed=1 if options.seed is None else options.seed)
        if "iterations" in record.options:
            opts = replace(opts, iterations=options.iterations or MCTS_ITERATIONS)
        try:
            return opts.resolved(tree)
        except SearchError as exc:
            raise PracticeError(str(exc)) from exc
    if mode == "values":
        # the shape's search without pruning: minimax, expectiminimax or max^n
        algorithm = next(a.id for a in REGISTRY if not a.bounds and a.one_search
                         and a.fits_shape(tree.multiplayer, tree.has_chance)
                         and (a.chance == "accepts") == tree.has_chance)
    elif mode == "guided" and options.algorithm and (not get(options.algorithm).bounds
                                                     or _walks(get(options.algorithm), tree)):
        algorithm = options.algorithm
    elif mode == "guided" and (tree.multiplayer or tree.has_chance):
        algorithm = tree.default_algorithm()
    else:   # alpha-beta, or Star1 on chance nodes with leaf bounds
        algorithm = pruning_for(tree)
        if algorithm is None:
            kind = "several players" if tree.multiplayer else "chance nodes"
            raise PracticeError(
                f"Alpha-beta practice needs a two-player tree without chance nodes; this "
                f"tree has {kind}: practise its values instead.")
    opts = replace(options, algorithm=algorithm, order="given", seed=None)
    try:
        return opts.resolved(tree)
    except SearchError as exc:
        if get(algorithm).bounds and (tree.multiplayer or tree.has_chance):
            kind = "several players" if tree.multiplayer else "chance nodes"
            raise PracticeError(
                f"Alpha-beta practice needs a two-player tree without chance nodes; this "
                f"tree has {kind}: practise its values instead.") from exc
        raise PracticeError(str(exc)) from exc


def _walks(record, tree) -> bool:
    """Whether guided practice walks ``record``'s own run on ``tree``: one search of a
    two-player tree without chance nodes (alpha-beta's and Star1's pruning
    otherwise follows the tree's shape: :func:`pruning_for`)."""
    return record.one_search and record.chance == "refuses" and record.players == "two" \
        and not tree.multiplayer and not tree.has_chance


def visualizer_link(tree_id: str, options: SearchOptions, step: int | None = None) -> str:
    """``/t/<id>?algorithm=...&step=k``: the visualizer at that step (contract §4)."""
    query = {"algorithm": options.algorithm}
    if options.depth is not None:
        query["depth"] = options.depth
    if options.order != "given":
        query["order"] = options.order
    if options.strict:
        query["strict"] = 1
    if options.style != "aima":
        query["style"] = options.style
    # the same run: the options of its own it reads (Monte Carlo tree search's seed,
    # iterations and C; practice runs the others unseeded)
    own = BY_ID[options.algorithm].options if options.algorithm in BY_ID else ()
    query.update({k: getattr(options, k) for k in ("seed", "iterations", "exploration")
                  if k in own and getattr(options, k) is not None})
    if step is not None:
        query["step"] = step
    return f"/t/{tree_id}?{urlencode(query)}"


def check(tree: Tree, answers: dict, mode: str, options: SearchOptions | None = None,
          tree_id: str | None = None, reveal: bool = False) -> dict:
    """Grade ``answers`` (see the module docstring); a JSON-ready result."""
    if mode not in GRADED:
        raise PracticeError(f"mode {mode!r} is not checked by check(): use values, cuts or full")
    opts = practice_options(tree, mode, options)
    key = answer_key(tree, opts)
    given = _read_answers(tree, answers)
    graded, hints = GRADED[mode], HINTS.get(mode, ())
    entries: list[dict] = []

    for nid, nk in key.inner.items():
        for kind in ("value", "alpha", "beta"):
            if kind != "value" and (not key.bounds or nk.role == "chance"):
                continue
            if kind not in graded and kind not in hints:
                continue
            raw = given[kind].pop(nid, None)
            expected = nk.value if kind == "value" else getattr(nk, kind)
            step = nk.exit_step if kind == "value" else getattr(nk, f"{kind}_step")
            entry = _grade_entry(kind, nid, raw, expected, step)
            entry["graded"] = kind in graded
            if kind in hints and entry["status"] == "missing":
                continue  # an empty hint is just not written
            entries.append(entry)
    for kind in ("value", "alpha", "beta"):  # entries at nodes that need none
        for nid, raw in given[kind].items():
            if raw not in (None, ""):
                entries.append({"kind": kind, "node": nid, "status": "ignored", "graded": False,
                                "given": _jsonable(raw), "note": _why_ignored(key, nid)})
    if "cut" in graded:
        entries.extend(_grade_cuts(key, given["pruned"]))

    order = {n.id: i for i, n in enumerate(tree.nodes)}
    entries.sort(key=lambda e: (order[e["node"]], _KIND_ORDER[e["kind"]]))
    scored = [e for e in entries if e["graded"]]
    right = sum(1 for e in scored if e["status"] == "right")
    first = _first_mistake(key, scored, tree_id)
    if reveal:
        for e in entries:
            if e["status"] in ("wrong", "missing", "extra", "unreadable"):
                e["sentence"] = _sentence(key, e)
    else:  # only right answers, and the one explained, show the key
        for e in entries:
            if e["status"] != "right" and "expected" in e and e is not first.get("entry"):
                del e["expected"]
    result = {
        "mode": mode,
        "options": {"algorithm": opts.algorithm, "depth": opts.depth, "strict": opts.strict,
                    "style": opts.style},
        "entries": entries,
        "score": {"right": right, "total": len(scored)},
        "solved": right == len(scored),
        "first_mistake": first.get("public"),
        "summary": _summary(right, len(scored), mode),
    }
    if tree_id is not None:
        result["link"] = visualizer_link(tree_id, opts)
    result["misconception"] = _misconception(key, answers, mode, tree_id)
    return result


def _misconception(key: AnswerKey, answers: dict, mode: str, tree_id: str | None) -> dict | None:
    """The misconception that explains the answer (contract §8), with the key's step
    at its node (the cut there, else the node's exit) and the visualizer's link to it."""
    found = diagnose(key.tree, key.options, mode, answers)
    if found is None:
        return None
    nk = key.inner.get(found["node"])
    found["step"] = (nk.cut_step or nk.exit_step) if nk is not None else None
    if tree_id is not None:
        found["link"] = visualizer_link(tree_id, key.options, found["step"])
    return found


def _read_answers(tree: Tree, answers: dict) -> dict:
    if not isinstance(answers, dict):
        raise PracticeError("answers must be an object with values, alpha, beta and pruned")
    unknown = set(answers) - {"values", "alpha", "beta", "pruned"}
    if unknown:
        raise PracticeError(f"unknown answer field {sorted(unknown)[0]!r}: "
                            f"expected values, alpha, beta, pruned")
    out: dict = {}
    for field, kind in (("values", "value"), ("alpha", "alpha"), ("beta", "beta")):
        table = answers.get(field) or {}
        if not isinstance(table, dict):
            raise PracticeError(f"{field} must map node ids to entries")
        for nid in table:
            if nid not in tree:
                raise PracticeError(f"{field} names node {nid!r}, which is not in the tree")
        out[kind] = dict(table)
    pruned = answers.get("pruned") or []
    if not isinstance(pruned, list) or not all(isinstance(p, str) for p in pruned):
        raise PracticeError("pruned must be a list of node ids (the child below each cut branch)")
    for nid in pruned:
        if nid not in tree:
            raise PracticeError(f"pruned names node {nid!r}, which is not in the tree")
        if tree.parent_of(nid) is None:
            raise PracticeError("the root has no branch above it to prune")
    out["pruned"] = list(dict.fromkeys(pruned))
    return out


def _grade_entry(kind: str, nid: str, raw, expected, step) -> dict:
    entry = {"kind": kind, "node": nid, "step": step, "given": _jsonable(raw),
             "expected": jv(expected)}
    try:
        value = parse_entry(raw)
    except Unreadable:
        entry["status"] = "unreadable"
        return entry
    if value is None:
        entry["status"] = "missing"
    else:
        entry["status"] = "right" if same(value, expected) else "wrong"
    return entry


def _grade_cuts(key: AnswerKey, marked: list[str]) -> list[dict]:
    entries = []
    marks = set(marked)
    for child, step in key.cuts.items():
        entries.append({"kind": "cut", "node": child, "step": step, "graded": True,
                        "given": child in marks, "expected": True,
                        "status": "right" if child in marks else "missing"})
    for child in marked:
        if child in key.cuts:
            continue
        if child in key.inside_cut or child in key.below_limit:
            entries.append({"kind": "cut", "node": child, "graded": False, "given": True,
                            "status": "ignored", "note": _why_ignored(key, child)})
            continue
        d = key.decisions.get(child)
        entries.append({"kind": "cut", "node": child, "step": d.step if d else None,
                        "graded": True, "given": True, "expected": False, "status": "extra"})
    return entries


def _why_ignored(key: AnswerKey, nid: str) -> str:
    if nid in key.inside_cut:
        return "inside a pruned subtree: the search never gets here"
    if nid in key.below_limit:
        return "below the depth limit: the search never gets here"
    return "a leaf or a node the search does not back up a value at"


def _first_mistake(key: AnswerKey, scored: list[dict], tree_id: str | None) -> dict:
    wrong = [e for e in scored if e["status"] != "right" and e.get("step") is not None]
    if not wrong:
        return {}
    # What the student wrote wrong comes before what they left out: a half-done
    # sheet is told about its mistakes, not about the boxes still empty.
    entry = min(wrong, key=lambda e: (e["status"] == "missing" and e["kind"] != "cut",
                                      e["step"], _KIND_ORDER[e["kind"]]))
    public = {"kind": entry["kind"], "node": entry["node"], "step": entry["step"],
              "sentence": _sentence(key, entry)}
    if tree_id is not None:
        public["link"] = visualizer_link(tree_id, key.options, entry["step"])
    return {"entry": entry, "public": public}


def _sentence(key: AnswerKey, entry: dict) -> str:
    kind, nid, status = entry["kind"], entry["node"], entry["status"]
    if kind == "cut":
        return explain.missed_cut(key, nid) if status == "missing" else explain.extra_cut(key, nid)
    if status == "unreadable":
        return tell("{node}: {given} is not a number; write e.g. 3, -2, 2.5, -inf or inf.",
                    node=key.tree.node(nid).label, given=repr(entry["given"]))
    given = parse_entry(entry["given"]) if entry["given"] is not None else None
    if kind == "value":
        return explain.value(key, nid, given)
    return explain.bound(key, nid, kind, given)


def _jsonable(raw, nested: bool = False):
    """The entry as sent, safe for strict JSON (Python's json reads ``NaN`` and
    ``Infinity``, which the answer must not echo back bare). An entry is a
    number, a text or a list of them (a vector): an object, or a list inside
    a list, is echoed as "…", never walked (a body 800 levels deep passed the
    recursion limit here; ``{"a": NaN}`` broke the strict encoder)."""
    if isinstance(raw, float) and not math.isfinite(raw):
        return "nan" if math.isnan(raw) else jv(raw)
    if isinstance(raw, (list, tuple)) and not nested:
        return [_jsonable(x, True) for x in raw]
    if isinstance(raw, (list, tuple, dict)):
        return "…"
    return raw


def _summary(right: int, total: int, mode: str) -> str:
    if total == 0:
        return tell("Nothing to fill in here: every node is a leaf.")
    if right == total:
        return tell("All {total} right. Well done!", total=total)
    return tell("{right} of {total} right.", right=right, total=total)


__all__ = ["check", "practice_options", "visualizer_link", "PracticeError", "MODES"]
