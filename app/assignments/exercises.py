"""Each student's exercises: a tree of one's own, the same on every request.

A random exercise's tree is drawn from a seed made of the assignment's
secret and the student's identity (HMAC-SHA-256, so neither the seed nor
another student's tree can be worked out from one's own), and named by
practice's reproducible random-tree id (``r-b3-d3-s<seed>``), which
``GET /api/trees/<id>`` opens. A fixed exercise (a lecture or uploaded tree)
is the same for everyone.

>>> spec = AssignmentSpec((ExerciseSpec("random", "cuts"), ExerciseSpec("aima-5-2", "full")))
>>> a = exercises_for(spec, "s3cret", student_key("  Ana  Lee "))
>>> a == exercises_for(spec, "s3cret", "ana lee"), a[1]["tree"]
(True, 'aima-5-2')
>>> a[0]["tree"] != exercises_for(spec, "s3cret", "ben")[0]["tree"]
True
"""
from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata

from app.games.random_tree import RandomSpec, shape_for
from app.search import SearchOptions
from app.treefile.errors import N_

from .errors import AssignmentError
from .spec import AssignmentSpec, ExerciseSpec

MAX_IDENTITY = 100
SEED_BITS = 48


def student_key(text) -> str:
    """A student's identity as typed, normalised: case, spacing and Unicode form
    do not make another student (``"Ana  Lee"`` is ``"ana lee"``)."""
    if not isinstance(text, str):
        raise AssignmentError(N_("Give your name or student number."), argument="student")
    key = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().casefold()
    if not key:
        raise AssignmentError(N_("Give your name or student number."), argument="student")
    if len(key) > MAX_IDENTITY or any(unicodedata.category(c)[0] == "C" for c in key):
        raise AssignmentError(N_("A name or student number is at most {n} characters of "
                                 "text."), argument="student", n=MAX_IDENTITY)
    return key


INTERNAL_KEY = re.compile(r"lti:.*|[a-z]{2,10}:[0-9a-f]{8,}")
"""The shape of the keys this tool makes itself (``lti:<hash>``, an LMS identity):
never typed in the name form, or a student could take a classmate's LMS identity."""


def typed_key(text) -> str:
    """:func:`student_key` of a name typed in the form, refusing an internal key's shape."""
    key = student_key(text)
    if INTERNAL_KEY.fullmatch(key):
        raise AssignmentError(N_("This name is reserved: type your own name or student "
                                 "number."), argument="student")
    return key


def seed_for(secret: str, key: str, index: int) -> int:
    mac = hmac.new(secret.encode(), f"{key}\x00{index}".encode(), hashlib.sha256).digest()
    return int.from_bytes(mac[:SEED_BITS // 8], "big")


def random_spec(exercise: ExerciseSpec, seed: int) -> RandomSpec:
    """A student's random tree, shaped as the exercise's algorithm's record says
    (``random_shape``: Star1's has chance nodes and leaf bounds; issue 26)."""
    return RandomSpec(branching=exercise.branching, depth=exercise.depth, values=exercise.values,
                      seed=seed, **shape_of(exercise.algorithm, "algorithm"))


def shape_of(algorithm: str | None, argument: str) -> dict:
    """The shape of ``algorithm``'s random trees; refused when its record draws none."""
    shape = shape_for(algorithm)
    if shape is None:
        raise AssignmentError(N_("{algorithm} has no random trees: choose a tree for it."),
                              argument=argument, algorithm=algorithm)
    return shape


def tree_id_for(exercise: ExerciseSpec, index: int, secret: str, key: str) -> str:
    if not exercise.random:
        return exercise.tree
    return random_spec(exercise, seed_for(secret, key, index)).id()


def exercises_for(spec: AssignmentSpec, secret: str, key: str) -> list[dict]:
    """The exercises of student ``key``: ``[{"index", "tree", "mode", "algorithm",
    "strict", "style", "depth"}]`` (``depth``: the search's depth limit, as practice's)."""
    return [{"index": i, "tree": tree_id_for(e, i, secret, key), "mode": e.mode,
             "algorithm": e.algorithm, "strict": e.strict, "style": e.style, "depth": e.limit}
            for i, e in enumerate(spec.exercises)]


def options_of(exercise: ExerciseSpec) -> SearchOptions:
    """The search options the answer key is made with (practice fills in the algorithm)."""
    algorithm = exercise.algorithm if exercise.mode == "guided" else None
    return SearchOptions(algorithm=algorithm, depth=exercise.limit, strict=exercise.strict,
                         style=exercise.style)
