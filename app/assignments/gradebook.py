"""Scores, the dashboard's figures and the gradebook exports (Canvas, Moodle, JSON).

A student's score on an exercise is their best attempt's share right (a
guided walk: the questions answered right the first time); on the
assignment, the mean over its exercises, as a percentage (0..100), an
exercise not tried counting 0.

>>> subs = [Submission(1, 0, 1, 2, 4, False, 0.0), Submission(1, 0, 2, 3, 4, False, 1.0)]
>>> exercise_scores(subs, ["full", "cuts"])
[0.75, 0.0]
>>> percent([0.75, 0.0])
37.5
>>> safe_cell("=HYPERLINK(1)"), safe_cell("Ana")
("'=HYPERLINK(1)", 'Ana')
"""
from __future__ import annotations

import csv
import io
import json
from collections import Counter, defaultdict

from app.treefile.errors import N_

from .store import Student, Submission

CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_COLUMNS = ("ID number",)


def exercise_scores(subs: list[Submission], modes: list[str]) -> list[float]:
    """One student's score (0..1) on each exercise."""
    by_exercise: dict[int, list[Submission]] = defaultdict(list)
    for s in subs:
        by_exercise[s.exercise].append(s)
    out = []
    for i, mode in enumerate(modes):
        mine = by_exercise.get(i, [])
        if not mine:
            out.append(0.0)
        elif mode == "guided":    # one row per question answered, each right 0 or 1 of total
            out.append(min(1.0, sum(s.right for s in mine) / mine[0].total) if mine[0].total else 1.0)
        else:
            out.append(max(s.right / s.total if s.total else 1.0 for s in mine))
    return out


def percent(scores: list[float]) -> float:
    return round(100 * sum(scores) / len(scores), 2) if scores else 0.0


def table(students: list[Student], subs: list[Submission], modes: list[str]) -> list[dict]:
    """Per student: name, identifiers, per-exercise scores, attempts, late, percent."""
    by_student: dict[int, list[Submission]] = defaultdict(list)
    for s in subs:
        by_student[s.student_id].append(s)
    rows = []
    for st in students:
        mine = by_student.get(st.id, [])
        scores = exercise_scores(mine, modes)
        attempts = Counter(s.exercise for s in mine)
        rows.append({"student": st.name, "key": st.key, "sis_id": st.sis_id, "login": st.login,
                     "section": st.section, "lms_id": st.lms_id, "attempted": bool(mine),
                     "origin": st.origin,      # name, roster or lms: who may get a new link
                     "exercises": [{"score": round(x, 4), "attempts": attempts.get(i, 0)}
                                   for i, x in enumerate(scores)],
                     "late": any(s.late for s in mine), "percent": percent(scores)})
    return rows


def exercise_stats(subs: list[Submission], modes: list[str], top: int = 3) -> list[dict]:
    """Per exercise: students who tried, the share whose best attempt is all right,
    and the most common mistakes of their latest attempts (``cut c2 missed``...)."""
    latest: dict[tuple[int, int], Submission] = {}
    best: dict[tuple[int, int], float] = {}
    for s in subs:
        k = (s.student_id, s.exercise)
        if k not in latest or s.attempt > latest[k].attempt:
            latest[k] = s
        f = s.right / s.total if s.total else 1.0
        best[k] = max(best.get(k, 0.0), f)
    out = []
    for i, mode in enumerate(modes):
        tried = [k for k in best if k[1] == i]
        mistakes: Counter = Counter()
        if mode != "guided":
            for k in tried:
                mistakes.update(_mistakes(latest[k].result))
        perfect = sum(1 for k in tried if best[k] >= 1.0) if mode != "guided" else None
        # each student's own tree, diagnosed when they submitted (contract §8)
        held = Counter(latest[k].misconception for k in tried if latest[k].misconception)
        out.append({"index": i, "mode": mode, "students": len(tried),
                    "misconceptions": dict(held.most_common()),
                    "share_right": (round(perfect / len(tried), 4) if tried and perfect is not None
                                    else None),
                    "wrong": [{"what": w[0], "count": n, **dict(w[1])}
                              for w, n in mistakes.most_common(top)]})
    return out


def _mistakes(result_json: str) -> set[tuple]:
    """Each mistake of an attempt once: ``(what, parts)``, ``what`` in English
    (``cut c2 missed``) and ``parts`` what the dashboard says it with in its
    own language (``mistake``: missed, extra or wrong; ``node``; for a wrong
    entry its ``kind`` and the ``given`` answer)."""
    try:
        result = json.loads(result_json)
    except ValueError:
        return set()
    found = set()
    for e in result.get("entries", ()):
        status, kind, node = e.get("status"), e.get("kind"), e.get("node")
        if status == "missing" and kind == "cut":
            found.add((f"cut {node} missed", (("mistake", "missed"), ("node", node))))
        elif status == "extra":
            found.add((f"cut {node} marked, not pruned", (("mistake", "extra"), ("node", node))))
        elif status == "wrong":
            given = e.get("given")
            given = given if isinstance(given, (str, int, float)) or given is None else str(given)
            found.add((f"{kind} of {node}: {given}",
                       (("mistake", "wrong"), ("kind", kind), ("node", node), ("given", given))))
    return found


def safe_cell(text) -> str:
    """A cell a spreadsheet will not run as a formula."""
    text = "" if text is None else str(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def left_out(rows: list[dict], fmt: str) -> list[dict]:
    """The students a ``fmt`` (``canvas``/``moodle``) file leaves out, each with why
    (a catalogue message): only rows the LMS can match go in (contract §7b)."""
    out = []
    for r in rows:
        why = _unmatchable(r, fmt)
        if why:
            out.append({"student": r["student"], "key": r["key"], "reason": why})
    return out


NO_CANVAS_ID = N_("No Canvas ID, SIS User ID or SIS Login ID: joined by typing a name. Add "
                  "them with a roster, or ask them to open the assignment from Canvas.")
NO_MOODLE_ID = N_("No ID number: joined by typing a name, or their LMS account has none. Add "
                  "them with a roster.")
FORMULA_ID = N_("Their ID begins with =, +, - or @, which a spreadsheet reads as a formula: "
                "the LMS could not match it.")


def _unmatchable(r: dict, fmt: str) -> str | None:
    ids = ([r.get("lms_id"), r.get("sis_id"), r.get("login")] if fmt == "canvas"
           else [r.get("sis_id")])
    ids = [i for i in ids if i]
    if not ids:
        return NO_CANVAS_ID if fmt == "canvas" else NO_MOODLE_ID
    # Canvas matches by ID, then SIS User ID, then SIS Login ID (app/models/gradebook_importer.rb);
    # Moodle by the one column: each id written must reach the LMS unchanged.
    if any(safe_cell(i) != i for i in ids):
        return FORMULA_ID
    return None


def _score(r: dict, past_due: bool) -> str:
    """An empty cell (no grade yet) for a student with no attempt before the due date."""
    if not r.get("attempted") and not past_due:
        return ""
    return _number(r["percent"])


def canvas_csv(title: str, rows: list[dict], past_due: bool = True) -> str:
    """Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, <title>;
    only students Canvas can match (:func:`left_out`)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([*CANVAS_COLUMNS, safe_cell(title)])
    for r in rows:
        if _unmatchable(r, "canvas") is None:
            w.writerow([safe_cell(r["student"]), r.get("lms_id") or "", r["sis_id"] or "",
                        r["login"] or "", safe_cell(r["section"]), _score(r, past_due)])
    return out.getvalue()


def moodle_csv(title: str, rows: list[dict], past_due: bool = True) -> str:
    """Moodle's grade import (mapped by ID number): ID number, <title> (0..100); only
    students with an ID number (:func:`left_out`)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([*MOODLE_COLUMNS, safe_cell(title)])
    for r in rows:
        if _unmatchable(r, "moodle") is None:
            w.writerow([r["sis_id"], _score(r, past_due)])
    return out.getvalue()


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"
