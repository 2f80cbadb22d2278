"""Making an assignment, and linking one into another course: the rules, without Flask.

The web layer (``POST /api/assignments`` and an LMS's deep link) hands in the
request's body, the stores, the budget, who is asking, and the tree library
seen through :class:`Trees`.
"""
from __future__ import annotations

import re
import secrets
from typing import Protocol

from app.budget import DAY, AssignmentBudget
from app.classes.codes import check_token, new_token, token_hash
from app.games.random_tree import count_text
from app.practice import PracticeError, practice_options
from app.search import SearchError
from app.search.descriptors import get as get_algorithm
from app.search.tree import Tree

from .errors import AssignmentError
from .exercises import options_of, random_spec
from .lti_store import LtiStore
from .spec import AssignmentSpec, read_spec
from .store import Assignment, AssignmentStore

INSTRUCTOR_LINK = re.compile(r"/a/([A-Za-z0-9_-]{1,32})/dashboard#([A-Za-z0-9_-]{1,100})$")


class TreeRefused(Exception):
    """The tree library's refusal of an id: ``missing`` (there is none) or another
    ``reason`` (a sentence said already in the reader's language)."""

    def __init__(self, reason: str, missing: bool):
        super().__init__(reason)
        self.reason = reason
        self.missing = missing


class Trees(Protocol):
    """The trees exercises name, as the web's tree library serves them."""

    def get(self, tree_id: str) -> Tree:
        """The tree, or :class:`TreeRefused`."""

    def copy(self, tree_id: str) -> tuple[str | None, str] | None:
        """An upload's ``(format, text)``, kept with the assignment (the upload store
        may evict it); None for a built-in or random tree."""


def make_assignment(data, store: AssignmentStore, budget: AssignmentBudget, trees: Trees,
                    max_nodes: int, creator: str) -> dict:
    """Check and store an assignment (``POST /api/assignments``'s body, or an LMS
    instructor's deep link); ``{"id", "student", "instructor", "dashboard"}``.
    ``creator`` (the client's address) counts towards its daily limit."""
    spec = read_spec(data, budget.exercises_per_assignment)
    copies = check_exercises(spec, trees, max_nodes)
    assignment_id = secrets.token_urlsafe(9)
    token, hashed = new_token()
    store.create(assignment_id, spec, hashed, secrets.token_hex(32), creator, copies,
                 budget.assignments_per_instructor, DAY)
    return {"id": assignment_id, "student": f"/a/{assignment_id}", "instructor": token,
            "dashboard": f"/a/{assignment_id}/dashboard#{token}"}


def check_exercises(spec: AssignmentSpec, trees: Trees,
                    max_nodes: int) -> dict[str, tuple[str | None, str]]:
    """Each exercise's tree exists, is small enough to solve by hand and suits its
    mode; the copies of the uploaded ones."""
    copies = {}
    for i, e in enumerate(spec.exercises):
        where = f"exercises[{i}]"
        if e.random:
            rs = random_spec(e, 0)
            if rs.max_nodes > max_nodes:
                raise AssignmentError("{field}: branching {branching} to depth {depth} can make "
                                      "{nodes} nodes, too many to solve by hand (at most {limit}).",
                                      argument=where, field=where, branching=e.branching,
                                      depth=e.depth, nodes=count_text(rs.max_nodes), limit=max_nodes)
            tree = _tree(trees, rs.id(), where)
        else:
            if e.tree.startswith("game:"):
                raise AssignmentError("{field}: a game is too big to solve by hand; choose a "
                                      "tree.", argument=f"{where}.tree", field=f"{where}.tree")
            tree = _tree(trees, e.tree, f"{where}.tree")
            if len(tree.nodes) > max_nodes:
                raise AssignmentError("{field}: this tree has {nodes} nodes, too many to solve by "
                                      "hand (at most {limit}).", argument=f"{where}.tree",
                                      field=f"{where}.tree", nodes=len(tree.nodes),
                                      limit=max_nodes)
            copy = trees.copy(e.tree)
            if copy is not None:
                copies[e.tree] = copy
        try:
            graded = practice_options(tree, e.mode, options_of(e)).algorithm
        except (PracticeError, SearchError) as exc:
            raise AssignmentError("{field}: {reason}", argument=f"{where}.mode",
                                  field=f"{where}.mode", reason=str(exc)) from None
        _same_pruning(e, graded, where)
    return copies


def _same_pruning(e, graded: str, where: str) -> None:
    """An exercise naming a pruning algorithm (Star1) is graded by it, never
    quietly by another (alpha-beta on a tree without chance nodes; issue 26)."""
    if e.algorithm and graded != e.algorithm and get_algorithm(e.algorithm).bounds \
            and get_algorithm(graded).bounds:
        raise AssignmentError("{field}: this tree would be graded by {graded}, not {algorithm}: "
                              "choose a tree of its shape (for Star1: chance nodes and leaf "
                              "bounds), or \"random\".", argument=f"{where}.tree",
                              field=f"{where}.tree", graded=graded, algorithm=e.algorithm)


def _tree(trees: Trees, tree_id: str, field: str) -> Tree:
    try:
        return trees.get(tree_id)
    except TreeRefused as exc:
        if exc.missing:
            raise AssignmentError("{field}: there is no tree {id}.", argument=field, field=field,
                                  id=repr(tree_id)) from None
        raise AssignmentError("{field}: {reason}", argument=field, field=field,
                              reason=exc.reason) from None


def is_instructor(a: Assignment, token: str, lti: LtiStore | None) -> bool:
    """Is ``token`` the assignment's instructor key: the one it was made with, or one
    an instructor's LMS launch minted (still fresh; ``lti`` None: no LMS)?"""
    return check_token(a.token_hash, token) or (
        lti is not None and 0 < len(token) <= 100
        and lti.instructor_ok(a.id, token_hash(token)))


def linked_assignment(body: dict, store: AssignmentStore, lti: LtiStore | None) -> dict:
    """An assignment its instructor links into another course, proven by its instructor
    link (``/a/<id>/dashboard#<key>``, as made or as minted by an LMS launch)."""
    link = body.get("link")
    if set(body) - {"link", "title"} or not isinstance(link, str) or len(link) > 400:
        raise AssignmentError("Send a JSON object: {fields}.", argument="link",
                              fields="{link: the assignment's instructor link}")
    found = INSTRUCTOR_LINK.search(link)
    a = store.get(found.group(1)) if found else None
    if a is None or not is_instructor(a, found.group(2), lti):
        if a is not None and lti is not None and lti.instructor_expired(
                a.id, token_hash(found.group(2))):
            raise AssignmentError("This instructor link from the LMS has expired: open the "
                                  "assignment from your course page again.", 403,
                                  argument="link")
        raise AssignmentError("This is not the instructor's link of an assignment.", 403,
                              argument="link")
    return {"id": a.id, "title": a.title, "student": f"/a/{a.id}",
            "dashboard": f"/a/{a.id}/dashboard#{found.group(2)}"}
