"""Making an assignment over the web, for ``POST /api/assignments`` and an LMS's
deep link alike (:mod:`app.web.assignments`, :mod:`app.web.lti`): the app's
stores, budget and tree library handed to :mod:`app.assignments.making`, and
the page that makes one."""
from __future__ import annotations

from flask import current_app, render_template

from app.assignments.making import TreeRefused, make_assignment
from app.games.random_tree import RandomSpec
from app.practice import MODES
from app.search.tree import Tree

from .addresses import client_address
from .errors import ApiError

MAX_NODES = 400
"""As practice's: a tree solved by hand (``PRACTICE_MAX_NODES`` overrides)."""


def max_nodes() -> int:
    return current_app.config.get("PRACTICE_MAX_NODES", MAX_NODES)


class LibraryTrees:
    """The app's tree library as :class:`app.assignments.making.Trees`."""

    def __init__(self, library):
        self.library = library

    def get(self, tree_id: str) -> Tree:
        try:
            return self.library.fetch(tree_id)   # a random one: heavy work
        except ApiError as exc:
            raise TreeRefused(exc.message, missing=exc.status == 404) from None

    def copy(self, tree_id: str) -> tuple[str | None, str] | None:
        if self.library.is_builtin(tree_id) or RandomSpec.is_id(tree_id):
            return None
        stored = self.library.store.get(tree_id)
        return stored.format, stored.text


def new_assignment(data) -> dict:
    """Check and store the assignment in ``data`` (the request's JSON body)."""
    return make_assignment(data, current_app.extensions["assignments"],
                           current_app.extensions["assignment_budget"],
                           LibraryTrees(current_app.extensions["trees"]), max_nodes(),
                           client_address())


def maker_page(**extra) -> str:
    """The page that makes an assignment, offering the trees small enough to solve
    by hand (``deep_link``: an LMS's launch id, to answer it)."""
    trees = [t for t in current_app.extensions["trees"].entries() if t["nodes"] <= max_nodes()]
    return render_template("assignment_new.html", trees=trees, modes=MODES, **extra)
