"""Grading a submission with practice's own key, and what the student may see of it.

The verdict is always practice's (:mod:`app.practice`: :func:`check` for
values, cuts and full; :func:`check_order`; :func:`guide`), so an
assignment grades exactly as the practice page does. What is *shown*
depends on the assignment's feedback setting (:func:`shown`): the answer
key (expected entries, the visualizer's link, which runs the search) only
once it is allowed.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.practice import answer_key, check, check_order, guide, practice_options
from app.practice.guided import questions
from app.search.tree import Tree
from app.treefile.errors import N_

from .errors import AssignmentError
from .exercises import options_of
from .spec import ExerciseSpec

PAYLOAD = {"values": "answers", "cuts": "answers", "full": "answers", "order": "ordering"}


@dataclass(frozen=True)
class Graded:
    right: int
    total: int
    result: dict
    """Practice's answer, whole (kept for the dashboard; filtered by :func:`shown`)."""

    @property
    def fraction(self) -> float:
        return self.right / self.total if self.total else 1.0

    @property
    def misconception(self) -> str | None:
        """The id of the misconception that explains the answer (contract §8), if any."""
        found = self.result.get("misconception")
        return found.get("id") if isinstance(found, dict) else None


def grade(tree: Tree, tree_id: str, exercise: ExerciseSpec, body: dict,
          reveal: bool = False) -> Graded:
    """Grade ``body`` (``{"answers": ...}``, ``{"ordering": ...}`` or, guided,
    ``{"index", "answer"}``) on ``tree``. Raises :class:`AssignmentError` (400)
    for answers practice cannot read."""
    options = options_of(exercise)
    try:
        if exercise.mode == "guided":
            index, answer = body.get("index", 0), body.get("answer")
            if isinstance(index, bool) or not isinstance(index, int):
                raise ValueError("index must be a whole number")
            if answer is not None and not isinstance(answer, (str, int, float, bool, list)):
                raise ValueError("answer must be a number, text or yes/no")
            key = answer_key(tree, practice_options(tree, "guided", options))
            result = guide(key, index, answer, reveal)
            result.setdefault("misconception", None)   # (contract §8: none for these modes yet)
            right = 1 if result.get("result", {}).get("correct") else 0
            return Graded(right, 1, result)
        field = PAYLOAD[exercise.mode]
        given = body.get(field) or {}
        if exercise.mode == "order":
            result = check_order(tree, given, options, tree_id, reveal)
            result.setdefault("misconception", None)
            return Graded(*_order_score(result), result)
        result = check(tree, given, exercise.mode, options, tree_id, reveal)
        return Graded(result["score"]["right"], result["score"]["total"], result)
    except AssignmentError:
        raise
    except (ValueError, TypeError, AttributeError) as exc:   # PracticeError, SearchError...
        raise AssignmentError(N_("These answers cannot be graded: {reason}"),
                              reason=str(exc)) from exc


def guided_total(tree: Tree, exercise: ExerciseSpec) -> int:
    """How many questions a guided exercise asks (its score's denominator)."""
    key = answer_key(tree, practice_options(tree, "guided", options_of(exercise)))
    return len(questions(key))


def _order_score(result: dict) -> tuple[int, int]:
    """Move ordering: full marks at best-first's evaluations, none at worst-first's."""
    mine, best, worst = (result[k]["evaluated"] for k in ("mine", "best", "worst"))
    if result["solved"]:
        return 1, 1
    span = worst - best
    return max(0, worst - mine), span


KEY_FIELDS = ("expected", "sentence", "link")


def shown(graded: Graded, mode: str, feedback: str, key_allowed: bool) -> dict:
    """What the student sees of a graded submission.

    - the key allowed (attempts used up, or past the due date): practice's whole answer;
    - ``step``: practice's feedback (the first mistake explained) without the
      visualizer's links, which would run the search for them;
    - ``submit``: the score and which entries are right, nothing of the key;
    - ``due``: that it was received, no score until the due date.
    """
    r = graded.result
    score = {"right": graded.right, "total": graded.total}
    if key_allowed:
        return {**r, "score": score}
    if feedback == "due":
        return {"received": True}
    if mode == "guided":
        out = {k: v for k, v in r.items() if k not in ("link",)}
        return out
    if feedback == "step":
        out = {k: v for k, v in r.items() if k not in ("link", "best", "worst")}
        for k in ("first_mistake", "misconception"):
            if isinstance(out.get(k), dict):
                out[k] = {f: v for f, v in out[k].items() if f != "link"}
        out["score"] = score
        return out
    entries = [{k: v for k, v in e.items() if k not in KEY_FIELDS and k != "given"}
               for e in r.get("entries", ())]
    # "submit": right or not per entry; an entry the student did not write stays unnamed
    # (a "missing" cut would name a pruned branch: that is the key).
    entries = [e for e in entries if e.get("status") in ("right", "wrong", "extra", "unreadable")]
    out = {"mode": mode, "score": score, "solved": graded.right == graded.total,
           "entries": entries}
    if "misconception" in r:   # which entries are right is shown: so is the rule behind them
        found = r["misconception"]
        out["misconception"] = ({k: v for k, v in found.items() if k != "link"}
                                if isinstance(found, dict) else None)
    return out
