"""Who may come in and when a key is shown (app.assignments.access), without Flask."""
from __future__ import annotations

import pytest

from app.assignments.access import key_allowed, ways_in
from app.assignments.errors import AssignmentError
from app.assignments.spec import read_spec
from app.assignments.store import Assignment, Student

DUE = 2_000_000_000.0
TYPED = Student(1, "a", "ana", "Ana", origin="name")
LISTED = Student(2, "a", "bo", "Bo", origin="roster")


def _a(**spec) -> Assignment:
    data = {"title": "HW", "exercises": [{"tree": "aima-fig-5-2", "mode": "cuts"},
                                         {"tree": "random", "mode": "cuts"}], **spec}
    return Assignment("a", "HW", read_spec(data), "h", "s", 0.0)


@pytest.mark.parametrize("identities, allowed, msg", [
    ("roster", ("any",), "on its roster"), ("lms", ("any", "roster"), "from the LMS")])
def test_a_way_in_the_setting_does_not_allow_is_refused_with_its_reason(identities, allowed, msg):
    ways_in(_a(identities=identities), identities)
    with pytest.raises(AssignmentError) as caught:
        ways_in(_a(identities=identities), *allowed)
    assert caught.value.status == 403 and msg in caught.value.msgid


def test_the_key_waits_for_the_due_date_or_the_attempts_used_up():
    a = _a(attempts=2, due="2033-05-18T03:33:20Z")
    assert not key_allowed(a, 1, DUE - 1, LISTED, 0) and key_allowed(a, 2, DUE - 1, LISTED, 0)
    assert key_allowed(a, 0, DUE + 1, TYPED, 0)
    # a shared tree is never shown early to a typed name (an alias spends attempts)
    assert not key_allowed(a, 2, DUE - 1, TYPED, 0) and key_allowed(a, 2, DUE - 1, TYPED, 1)
    due_only = _a(attempts=2, feedback="due", due="2033-05-18T03:33:20Z")
    assert not key_allowed(due_only, 2, DUE - 1, LISTED, 0)
    assert not key_allowed(_a(attempts=None), 99, DUE, LISTED, 0)   # unlimited: never used up
