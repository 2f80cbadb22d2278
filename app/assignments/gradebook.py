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
                     "section": st.section,
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
                    "wrong": [{"what": w, "count": n} for w, n in mistakes.most_common(top)]})
    return out


def _mistakes(result_json: str) -> set[str]:
    try:
        result = json.loads(result_json)
    except ValueError:
        return set()
    found = set()
    for e in result.get("entries", ()):
        status, kind, node = e.get("status"), e.get("kind"), e.get("node")
        if status == "missing" and kind == "cut":
            found.add(f"cut {node} missed")
        elif status == "extra":
            found.add(f"cut {node} marked, not pruned")
        elif status == "wrong":
            found.add(f"{kind} of {node}: {e.get('given')}")
    return found


def safe_cell(text) -> str:
    """A cell a spreadsheet will not run as a formula."""
    text = "" if text is None else str(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def canvas_csv(title: str, rows: list[dict]) -> str:
    """Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, <title>."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([*CANVAS_COLUMNS, safe_cell(title)])
    for r in rows:
        w.writerow([safe_cell(r["student"]), "", safe_cell(r["sis_id"]), safe_cell(r["login"]),
                    safe_cell(r["section"]), _number(r["percent"])])
    return out.getvalue()


def moodle_csv(title: str, rows: list[dict]) -> str:
    """Moodle's grade import (mapped by ID number): ID number, <title> (0..100)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow([*MOODLE_COLUMNS, safe_cell(title)])
    for r in rows:
        w.writerow([safe_cell(r["sis_id"] or r["student"]), _number(r["percent"])])
    return out.getvalue()


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"
