"""Who may do what with an assignment: the ways in its ``identities`` setting
allows, and when a student may see an exercise's key."""
from __future__ import annotations

from .errors import AssignmentError
from .store import Assignment, Student


def ways_in(a: Assignment, *allowed: str) -> None:
    """The assignment's ``identities`` setting allows this way in, or 403."""
    if a.spec.identities in allowed:
        return
    if a.spec.identities == "roster":
        raise AssignmentError("This assignment is for the students on its roster: open the "
                              "personal link your instructor sent you.", 403)
    raise AssignmentError("This assignment is taken from the LMS: open it from your course "
                          "page.", 403)


def key_allowed(a: Assignment, used: int, now: float, st: Student | None = None,
                index: int | None = None) -> bool:
    """May the student see this exercise's key? After the due date; or, with
    feedback per step or at submission, once their attempts are used up. A tree
    every student shares is never shown early to a typed name: anyone may type
    another name (an alias) and spend its attempts to learn the key."""
    if a.spec.past_due(now):
        return True
    if a.spec.feedback == "due":
        return False
    if st is not None and index is not None and not a.spec.exercises[index].random \
            and not st.known:
        return False
    return a.spec.attempts is not None and used >= a.spec.attempts
