"""Making and linking assignments without Flask (app.assignments.making): the
rules the web layer only serves, over a tree library seen through its port."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.assignments.errors import AssignmentError
from app.assignments.lti_store import LtiStore
from app.assignments.making import (TreeRefused, check_exercises, is_instructor,
                                    linked_assignment, make_assignment)
from app.assignments.spec import read_spec
from app.assignments.store import AssignmentStore
from app.budget import AssignmentBudget
from app.classes.codes import token_hash
from app.db import open_database, sqlite_url
from app.games.random_tree import RandomSpec
from app.treefile import load_tree

TREES = Path(__file__).resolve().parents[2] / "trees"
UPLOAD = (TREES / "aima-fig-5-2.yaml").read_text(encoding="utf-8")


class Library:
    """Built-ins and one upload, as the web's tree library serves them."""

    def __init__(self):
        self.trees = {"builtin": load_tree(UPLOAD, fmt="yaml"), "u-1": load_tree(UPLOAD, fmt="yaml"),
                      "three": load_tree((TREES / "itb-three-player.yaml").read_text(), fmt="yaml")}
        self.asked: list[str] = []

    def get(self, tree_id):
        self.asked.append(tree_id)
        if tree_id == "broken":
            raise TreeRefused("The stored tree can no longer be read", missing=False)
        if RandomSpec.is_id(tree_id):
            return RandomSpec.from_id(tree_id).tree()
        if tree_id not in self.trees:
            raise TreeRefused("There is no tree", missing=True)
        return self.trees[tree_id]

    def copy(self, tree_id):
        return ("yaml", UPLOAD) if tree_id == "u-1" else None


@pytest.fixture
def db(tmp_path):
    opened = open_database(sqlite_url(tmp_path / "results.sqlite3"))
    yield opened
    opened.dispose()


def _spec(*exercises):
    return read_spec({"title": "HW", "exercises": list(exercises)}, 20)


def test_the_uploads_are_copied_and_every_tree_is_asked_for():
    library = Library()
    copies = check_exercises(_spec({"tree": "builtin", "mode": "full"},
                                   {"tree": "u-1", "mode": "cuts"},
                                   {"tree": "random", "mode": "full"}), library, 400)
    assert copies == {"u-1": ("yaml", UPLOAD)}
    assert library.asked[:2] == ["builtin", "u-1"] and RandomSpec.is_id(library.asked[2])


@pytest.mark.parametrize("exercise, argument, msgid", [
    ({"tree": "nope", "mode": "full"}, "exercises[0].tree", "{field}: there is no tree {id}."),
    ({"tree": "broken", "mode": "full"}, "exercises[0].tree", "{field}: {reason}"),
    ({"tree": "game:nim-3", "mode": "full"}, "exercises[0].tree",
     "{field}: a game is too big to solve by hand; choose a tree."),
    ({"tree": "builtin", "mode": "full"}, "exercises[0].tree",
     "{field}: this tree has {nodes} nodes, too many to solve by hand (at most {limit})."),
    ({"tree": "random", "mode": "full", "branching": 3, "depth": 3}, "exercises[0]",
     "{field}: branching {branching} to depth {depth} can make {nodes} nodes, too many to "
     "solve by hand (at most {limit})."),
    ({"tree": "three", "mode": "cuts"}, "exercises[0].mode", "{field}: {reason}"),
])
def test_each_refusal_names_the_field_at_fault(exercise, argument, msgid):
    limit = 10 if exercise["tree"] in ("builtin", "random") else 400
    with pytest.raises(AssignmentError) as caught:
        check_exercises(_spec(exercise), Library(), limit)
    assert (caught.value.argument, caught.value.msgid, caught.value.status) == (argument, msgid, 400)
    if msgid.startswith("{field}: this tree"):
        assert caught.value.fields["nodes"] == len(Library().trees["builtin"].nodes) > 10


def test_a_made_assignment_is_stored_with_its_copies_and_its_key_proves_the_instructor(db):
    store = AssignmentStore(db)
    made = make_assignment({"title": "HW", "exercises": [{"tree": "u-1", "mode": "full"}]},
                           store, AssignmentBudget(), Library(), 400, "10.0.0.1")
    a = store.get(made["id"])
    assert a.title == "HW" and store.tree_copy(a.id, "u-1") == ("yaml", UPLOAD)
    assert made["dashboard"] == f"/a/{a.id}/dashboard#{made['instructor']}"
    assert is_instructor(a, made["instructor"], None)
    assert not is_instructor(a, made["instructor"] + "x", LtiStore(db))


def test_the_daily_limit_counts_the_creator(db):
    store, budget = AssignmentStore(db), AssignmentBudget(assignments_per_instructor=1)
    body = {"title": "HW", "exercises": [{"tree": "builtin", "mode": "full"}]}
    make_assignment(body, store, budget, Library(), 400, "10.0.0.1")
    make_assignment(body, store, budget, Library(), 400, "10.0.0.2")
    with pytest.raises(AssignmentError) as caught:
        make_assignment(body, store, budget, Library(), 400, "10.0.0.1")
    assert caught.value.status == 429


def test_linking_needs_the_instructor_link_made_or_minted_by_a_launch(db):
    store, lti = AssignmentStore(db), LtiStore(db)
    made = make_assignment({"title": "HW", "exercises": [{"tree": "builtin", "mode": "full"}]},
                           store, AssignmentBudget(), Library(), 400, "10.0.0.1")
    link = "https://tool.example" + made["dashboard"]
    assert linked_assignment({"link": link, "title": "x"}, store, lti) == {
        "id": made["id"], "title": "HW", "student": made["student"],
        "dashboard": made["dashboard"]}
    lti.mint_instructor(made["id"], token_hash("minted-key"))
    minted = f"/a/{made['id']}/dashboard#minted-key"
    assert linked_assignment({"link": minted}, store, lti)["dashboard"] == minted
    for wrong in (f"/a/{made['id']}/dashboard#wrong", f"/a/nope/dashboard#{made['instructor']}",
                  f"/a/{made['id']}/student#{made['instructor']}"):
        with pytest.raises(AssignmentError) as caught:
            linked_assignment({"link": wrong}, store, lti)
        assert (caught.value.status, caught.value.argument) == (403, "link")
    with pytest.raises(AssignmentError) as caught:    # the minted key, without the LMS's store
        linked_assignment({"link": minted}, store, None)
    assert caught.value.status == 403
    for bad in ({"link": link, "extra": 1}, {"link": 5}, {"link": link + "x" * 400}):
        with pytest.raises(AssignmentError) as caught:
            linked_assignment(bad, store, lti)
        assert (caught.value.status, caught.value.msgid) == (400, "Send a JSON object: {fields}.")


def test_an_lms_instructor_link_that_expired_is_said_so_when_linking(db):
    """The instructor pastes the dashboard link the LMS gave them last week into another
    course's deep-link page: it was "not the instructor's link of an assignment"; it is
    theirs, expired, and the refusal says so (and where to get a fresh one)."""
    store, lti = AssignmentStore(db), LtiStore(db)
    made = make_assignment({"title": "HW", "exercises": [{"tree": "builtin", "mode": "full"}]},
                           store, AssignmentBudget(), Library(), 400, "10.0.0.1")
    lti.mint_instructor(made["id"], token_hash("last-weeks-key"), seconds=-3600)
    with pytest.raises(AssignmentError) as caught:
        linked_assignment({"link": f"/a/{made['id']}/dashboard#last-weeks-key"}, store, lti)
    assert (caught.value.status, caught.value.argument) == (403, "link")
    assert "expired" in caught.value.msgid
