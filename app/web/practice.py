"""Practice pages and the checking API.

- ``GET  /practice``                 choose a tree (random or from the library) and a mode
- ``GET  /practice/random?...``      a random tree from ``branching``, ``depth``, ``values``,
  ``seed``, ``players``, ``chance``, ``evals``: redirects to its reproducible id
  (``/practice/r-b3-d3-s4217``), drawing a seed when none is given
- ``GET  /practice/<id>?mode=...``   solve tree ``<id>`` by hand (any library, uploaded or
  ``r-`` random tree); ``mode`` one of values, cuts, full, guided, order
- ``POST /api/practice/check``       grade an attempt, JSON in and out (the page and the
  tests use the same checker, :mod:`app.practice`)

Random trees are served under ids that rebuild them from their seed
(:class:`app.games.random_tree.RandomSpec`), so a link to the visualizer at
the step of a mistake (``/t/r-b3-d3-s4217?algorithm=alphabeta&step=12``)
works without storing anything.
"""
from __future__ import annotations

import secrets

from flask import (Blueprint, current_app, jsonify, redirect, render_template, request,
                   url_for)

from app.games.random_tree import DEFAULT_VALUES, RandomSpec, count_text, shape_for
from app.i18n import words
from app.practice import MODES, PracticeError, answer_key, check, check_order, guide
from app.practice import practice_options, visualizer_link
from app.practice.words import speaking
from app.search import SearchError
from app.search.descriptors import ALGORITHMS, pruning_for
from app.search.tree import Tree
from app.treefile.errors import shorten

from .errors import ApiError, api_error, said_of
from .i18n import localized, page_language
from .params import argument_error, options_from_payload, whole_number

bp = Blueprint("practice", __name__)

MAX_NODES = 400
"""Largest tree offered for practice by hand (``PRACTICE_MAX_NODES`` overrides)."""
PAYLOAD_KEYS = ("tree", "mode", "answers", "ordering", "index", "answer", "reveal")
RANDOM_KEYS = ("branching", "depth", "values", "seed", "players", "chance", "evals")
PAGE_KEYS = ("mode", "algorithm", "strict", "style", "limit")
"""Passed on from ``/practice/random`` to the page; ``limit`` is the search's depth
limit there (``depth`` being the random tree's own depth)."""


def _trees():
    return current_app.extensions["trees"]


def _max_nodes() -> int:
    return current_app.config.get("PRACTICE_MAX_NODES", MAX_NODES)


def _practice_tree(tree_id: str) -> Tree:
    tree = _trees().fetch(tree_id)   # a random one: heavy work (app.web.offload)
    if len(tree.nodes) > _max_nodes():
        raise api_error(413, "This tree has {nodes} nodes, too many to solve by hand (at most "
                             "{limit}): practise on a smaller one.", nodes=len(tree.nodes),
                        limit=_max_nodes())
    return tree


# -- pages --------------------------------------------------------------------

@bp.get("/practice")
def index(message: str | None = None):
    return render_template("practice_index.html", trees=_trees().entries(), modes=MODES,
                           max_nodes=_max_nodes(), message=message)


@bp.get("/practice/random")
def random_page():
    """Turn the form's fields into a canonical random-tree id and go there.
    The chooser's form is sent by a browser, which prefers HTML: a refusal
    goes back to the chooser with its reason over the form (same status),
    not to a page of JSON; the API's callers get the JSON error."""
    try:
        return redirect(_random_address(request.args))
    except ApiError as exc:
        if request.accept_mimetypes.best_match(["application/json", "text/html"]) != "text/html":
            raise
        return index(message=said_of(exc)), exc.status


def _random_address(args) -> str:
    unknown = [k for k in args if k not in RANDOM_KEYS + PAGE_KEYS + ("lang",)]
    if unknown:
        raise argument_error(unknown[0], "unknown argument {name}: expected {allowed}",
                             name=repr(unknown[0]), allowed=", ".join(RANDOM_KEYS + PAGE_KEYS))
    shape = {"players": _int(args.get("players") or "2", "players"),
             "chance": _flag(args.get("chance")), "evals": _flag(args.get("evals"))}
    alg = args.get("algorithm")
    if alg:   # the algorithm's record shapes its tree (Star1: chance nodes, leaf bounds)
        if alg not in ALGORITHMS:
            raise argument_error("algorithm", "unknown algorithm {name}: choose one of {names}",
                                 name=repr(alg[:40]), names=", ".join(ALGORITHMS))
        wanted = shape_for(alg)
        if wanted is None or any(args.get(k) and shape[k] != wanted[k]
                                 for k in ("players", "chance")):
            raise api_error(400, "{algorithm} is practised on its own random trees: leave "
                                 "players and chance nodes to it.", algorithm=alg)
        shape = {**wanted, "evals": shape["evals"] or wanted["evals"]}
    try:
        spec = RandomSpec(
            branching=_range(args.get("branching") or "3", "branching"),
            depth=_int(args.get("depth") or "3", "depth"),
            values=_range(args.get("values") or f"{DEFAULT_VALUES[0]}:{DEFAULT_VALUES[1]}",
                          "values"),
            seed=_int(args["seed"], "seed") if args.get("seed") else secrets.randbelow(10_000),
            **shape)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from exc
    if spec.max_nodes > _max_nodes():
        raise api_error(400, "Branching {branching} to depth {depth} can make {nodes} nodes, "
                             "too many to solve by hand (at most {limit}).",
                        branching=spec.branching_text, depth=spec.depth,
                        nodes=count_text(spec.max_nodes),
                        limit=_max_nodes())
    keep = {("depth" if k == "limit" else k): args[k] for k in PAGE_KEYS if args.get(k)}
    return url_for("practice.page", tree_id=spec.id(), **keep)


@bp.get("/practice/<tree_id>")
def page(tree_id: str):
    try:
        tree = _practice_tree(tree_id)
    except ApiError as exc:
        return render_template("missing.html", tree_id=tree_id, message=exc.message), exc.status
    mode = request.args.get("mode") or "full"
    if mode not in MODES:
        mode = "full"
    spec = RandomSpec.from_id(tree_id) if RandomSpec.is_id(tree_id) else None
    return render_template(
        "practice.html", tree_id=tree_id, title=localized(tree, "title"), source=localized(tree, "source"), mode=mode,
        modes=MODES, random=spec, has_evals=any(n.eval is not None for n in tree.nodes if n.children),
        alphabeta=pruning_for(tree) is not None, pruning=pruning_for(tree) or "",
        height=tree.height)


# -- the API -----------------------------------------------------------------

@bp.post("/api/practice/check")
def api_check():
    """Grade an attempt. The body names the tree, the mode and the options
    (``algorithm``, ``depth``, ``strict``, ``style``) and carries, by mode:
    ``answers`` (values, cuts, full), ``index`` and ``answer`` (guided),
    ``ordering`` (order: node id -> child ids); ``reveal: true`` also sends the key."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise api_error(400, "Send a JSON object: {fields}.", fields="{tree, mode, answers, ...}")
    options = options_from_payload(data, extra=PAYLOAD_KEYS)
    tree_id = data.get("tree")
    if not isinstance(tree_id, str) or not tree_id:
        raise argument_error("tree", "tree must be the id of a tree")
    mode = data.get("mode", "full")
    if not isinstance(mode, str) or mode not in MODES:   # (a list is no key of the checker's)
        raise argument_error("mode", "{field} must be one of {choices}.", field="mode",
                             choices=", ".join(MODES))
    reveal = data.get("reveal", False)
    if not isinstance(reveal, bool):
        raise argument_error("reveal", "reveal must be true or false")
    tree = _practice_tree(tree_id)
    try:
        with speaking(words(page_language())):      # feedback in the reader's language
            result = _grade(tree, tree_id, mode, options, data, reveal)
    except (PracticeError, SearchError, ValueError) as exc:  # the request does not fit the tree
        raise ApiError(400, str(exc)) from exc
    result["tree"] = tree_id
    result.setdefault("misconception", None)   # contract §8: always (guided, order: none yet)
    return jsonify(result)


def _grade(tree, tree_id: str, mode: str, options, data: dict, reveal: bool) -> dict:
    """The result of one check, in the mode asked for."""
    if mode == "guided":
        opts = practice_options(tree, mode, options)
        index = whole_number("index", data.get("index", 0))
        answer = data.get("answer")
        if answer is not None and not isinstance(answer, (str, int, float, bool, list)):
            raise argument_error("answer", "answer must be a number, text or yes/no")
        result = guide(answer_key(tree, opts), index, answer, reveal,
                       link=lambda step: visualizer_link(tree_id, opts, step))
        result["mode"] = "guided"
        result["options"] = {"algorithm": opts.algorithm, "depth": opts.depth,
                             "strict": opts.strict, "style": opts.style}
    elif mode == "order":
        result = check_order(tree, data.get("ordering") or {}, options, tree_id, reveal)
    else:
        result = check(tree, data.get("answers") or {}, mode, options, tree_id, reveal)
    return result


# -- query helpers -------------------------------------------------------------

ID_RANGES = {"branching": (1, 999), "depth": (1, 999), "seed": (0, 10**18 - 1),
             "values": (-(10**9 - 1), 10**9 - 1)}
"""What a random tree's id carries (RandomSpec's ids): the redirect must land on a tree,
and a depth of a billion was counted, node by node, before it was refused (for ever)."""


def _int(text: str, name: str) -> int:
    try:
        number = int(text.strip(), 10)
    except ValueError:
        raise argument_error(name, "{name} must be a whole number, not {value}", name=name,
                             value=repr(text[:40])) from None
    low, high = ID_RANGES.get(name, (number, number))
    if not low <= number <= high:
        raise argument_error(name, "{name} must be between {low} and {high}, not {value}",
                             name=name, low=low, high=high, value=shorten(text.strip()))
    return number


def _range(text: str, name: str) -> tuple[int, int]:
    """``"3"``, ``"2..4"``, ``"2:4"``, ``"-10:10"``, ``"2-4"`` -> (low, high)."""
    t = text.strip().replace("..", ":")
    if ":" not in t and "-" in t[1:]:
        t = t[0] + t[1:].replace("-", ":", 1)
    parts = t.split(":")
    if len(parts) > 2:
        raise argument_error(name, "{name} must be N or LOW:HIGH, not {value}", name=name,
                             value=repr(text))
    lo = _int(parts[0], name)
    return lo, (_int(parts[1], name) if len(parts) == 2 else lo)


def _flag(text: str | None) -> bool:
    return (text or "").strip().lower() in ("1", "true", "yes", "on")
