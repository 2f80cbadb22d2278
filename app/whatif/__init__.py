"""What if? The tree editor's server side: check an edited tree by the
loader's rules, search it with the core, and say what the edit changed.

Pure: imports only :mod:`app.search`, :mod:`app.treefile` and the budget
(:mod:`app.budget`); no Flask.

>>> w = WhatIf()
>>> leaves = lambda *vs: [{"key": f"k{v}{i}", "value": v} for i, v in enumerate(vs)]
>>> doc = {"title": "t", "root": {"key": "A", "children": [
...     {"key": "B", "children": leaves(3, 12, 8)},
...     {"key": "C", "children": leaves(2, 4, 6)},
...     {"key": "D", "children": leaves(14, 5, 2)}]}}
>>> first = w.run(doc, {"algorithm": "alphabeta"})
>>> first["result"]["pruned"], first["result"]["best_move"], first["notation"]
(['c2', 'c3'], 'B', '((3 12 8) (2 4 6) (14 5 2))')
>>> import copy; edited = copy.deepcopy(doc)
>>> edited["root"]["children"][1]["children"][1]["value"] = 1
>>> w.run(edited, {"algorithm": "alphabeta"}, previous=doc,
...       edit={"kind": "value", "key": "k41", "old": 4, "new": 1})["change"]["sentence"]
'Changing c2 to 1 adds no cut: C is already cut by alpha = 3.'
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict

from dataclasses import replace

from app.search import ALGORITHMS, SearchError, SearchOptions, algorithms_for
from app.search.ordering import make_order
from app.search.states import N_
from app.search.words import english
from app.treefile import TreeFileError, dump_yaml, load_tree, tree_to_dict

from .budget import Budget, OverBudget, limits
from .compare import compare
from .document import Checked, DocumentError, check_document, doc_error, located
from .notation import to_notation
from .result import Outcome, search
from app.search.descriptors import REGISTRY, get

__all__ = ["WhatIf", "Budget", "OverBudget", "DocumentError", "check_document", "to_notation",
           "parse_text"]

OPTION_KEYS = ("algorithm", "depth", "strict", "order")


class WhatIf:
    """Runs what-if searches, remembering the last few (the page sends the
    tree before an edit beside the tree after it; that run is usually here)."""

    def __init__(self, budget: Budget | None = None, cache_size: int = 64):
        self.budget = budget or Budget()
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple, tuple] = OrderedDict()
        self._states: dict[str, tuple[Checked, Outcome]] = {}   # state token -> run
        # Checked documents by their exact JSON: the page asks one tree with
        # each option in turn, and checking it was 44 % of a run (issue 30).
        self._docs: OrderedDict[str, Checked] = OrderedDict()
        self._lock = threading.Lock()

    # -- the one request ------------------------------------------------------
    def run(self, doc, options: dict | None = None, previous=None, edit: dict | None = None,
            text: str | bool = "all", previous_state: str | None = None,
            words=None, lang: str | None = None) -> dict:
        """Check ``doc``, search it, and compare with the run before the edit:
        ``previous_state`` (the ``state`` an earlier answer gave, if this
        server still remembers it) or ``previous`` (that tree, run with these
        options). Raises :class:`DocumentError` (at the node it concerns) or
        :class:`OverBudget`; the page then keeps the tree it had. ``text``:
        ``"all"`` (notation and YAML), ``"notation"``, or ``False``. ``words``
        says every sentence (the run's, the change's, a note) in the reader's
        language ``lang`` (``app.i18n.words(lang)``); English without."""
        options = _options(options)
        tell = words or english
        checked, outcome, note, state = self._run(doc, options, tell, lang)
        answer = {
            "ids": checked.ids,
            "algorithms": algorithms_for(checked.tree),
            "result": outcome.to_json(),
            "note": note,
            "state": state,
        }
        if text:
            answer["notation"] = to_notation(checked.tree, set(checked.named))
        if text and text != "notation":
            answer["yaml"] = dump_yaml(checked.tree)
        before = None
        if previous_state is not None:
            with self._lock:
                before = self._states.get(previous_state)
            if before is None and previous is None:
                answer["previous_missing"] = True
        if before is None and previous is not None:
            try:
                before = self._run(previous, options, tell, lang)[:2]
            except (DocumentError, OverBudget, SearchError):
                before = None
        if before is not None:
            answer["change"] = compare(before, (checked, outcome), edit, tell)
        return answer

    def best_order(self, doc, options: dict | None = None) -> dict:
        """The children of every node in the order a search would best meet
        them (best first for the player to move: the most cut-offs), as
        ``{parent key: [child keys]}`` for the nodes whose order changes."""
        options = _options(options)
        checked, outcome, _, _ = self._run(doc, options, english, None)
        tree = checked.tree
        ordered = make_order(tree, "best", None, outcome.options["depth"])
        changes = {}
        for node in tree.nodes:
            if node.children and not node.chance:
                kids = ordered(node)
                if kids != node.children:
                    changes[checked.keys[node.id]] = [checked.keys[c.id] for c in kids]
        return {"order": changes}

    # -- helpers --------------------------------------------------------------
    def _run(self, doc, options: SearchOptions, tell, lang: str | None
             ) -> tuple[Checked, Outcome, str | None, str]:
        """(checked tree, its search, a note, the run's state token), remembered
        (per language: the sentences are said in it)."""
        try:
            key = (_canonical(doc), options, lang if tell is not english else None)
        except (TypeError, ValueError, RecursionError):
            raise doc_error("the tree must be plain JSON data") from None
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        checked = self._checked(key[0], doc)
        tree = checked.tree
        opts, note = _fitting(tree, options, tell)
        _check_depth(checked, opts)
        outcome = search(tree, opts, self.budget, tell)
        state = hashlib.sha256(repr(key).encode()).hexdigest()[:20]
        found = (checked, outcome, note, state)
        with self._lock:
            self._cache[key] = found
            self._states[state] = found[:2]
            while len(self._cache) > self.cache_size:
                _, old = self._cache.popitem(last=False)
                self._states.pop(old[3], None)
        return found

    def _checked(self, canonical: str, doc) -> Checked:
        """``check_document(doc)``, remembered for the last few documents (a
        checked tree is only read: searches and comparisons never change it)."""
        with self._lock:
            hit = self._docs.get(canonical)
            if hit is not None:
                self._docs.move_to_end(canonical)
                return hit
        checked = check_document(doc, limits(self.budget))
        with self._lock:
            self._docs[canonical] = checked
            while len(self._docs) > self.cache_size:
                self._docs.popitem(last=False)
        return checked


_canonical = json.JSONEncoder(allow_nan=False, separators=(",", ":"), check_circular=False).encode
"""The cache's key of a document: its exact JSON (the C encoder: fast)."""


def _options(raw) -> SearchOptions:
    """Search options from the page's JSON (unknown keys and bad values refused)."""
    raw = raw or {}
    if not isinstance(raw, dict):
        raise doc_error("options must be a JSON object")
    for k in raw:
        if k not in OPTION_KEYS:
            raise doc_error("unknown option {name}", name=repr(str(k)[:40]))
    algorithm, order = raw.get("algorithm") or None, raw.get("order") or "given"
    if algorithm is not None and algorithm not in ALGORITHMS:
        raise doc_error("unknown algorithm: choose one of {choices}",
                        choices=", ".join(ALGORITHMS))
    if order not in ("given", "best", "worst"):
        raise doc_error("the order is one of given, best, worst")
    depth = raw.get("depth")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)
                              or not 0 <= depth <= 10_000):
        raise doc_error("the depth limit must be a whole number from 0")
    return SearchOptions(algorithm=algorithm, depth=depth, order=order,
                         strict=raw.get("strict") is True)


def _fitting(tree, options: SearchOptions, tell=None) -> tuple[SearchOptions, str | None]:
    """The options, with the algorithm switched to the tree's default when the
    chosen one does not fit the tree's kind (chance nodes, 3+ players)."""
    fitting = algorithms_for(tree)
    # (an algorithm of every depth is kept, and refused at the node without an eval)
    fits = fitting + [a.id for a in REGISTRY if a.evals == "every"
                      and a.fits_shape(tree.multiplayer, tree.has_chance)]
    alg = options.algorithm
    if alg is None:
        return replace(options, algorithm=(fitting or [tree.default_algorithm()])[0]), None
    if alg in fits or not fitting:
        return options, None
    new = fitting[0]
    if not get(alg).whatif and get(alg).reason("whatif"):   # its record says why not
        say = tell or english
        return replace(options, algorithm=new), say(N_("{reason}: using {new}"),
                                                    reason=say(get(alg).reason("whatif")), new=new)
    return replace(options, algorithm=new), (tell or english)(
        N_("{algorithm} does not fit this tree: using {new}"), algorithm=alg, new=new)


def _check_depth(checked: Checked, opts: SearchOptions) -> None:
    """The core's check of the options, its error placed at the node it names."""
    try:
        opts.resolved(checked.tree)   # (resolved: an algorithm with leaf bounds takes the tree's)
    except SearchError as exc:
        node = _without_eval(checked.tree, opts)
        raise DocumentError(str(exc), checked.keys.get(node.id) if node else None,
                            exc) from None     # the core's sentence, said in the reader's language


def _without_eval(tree, opts: SearchOptions):
    """The node the core's depth check stops at (the same rule, in the same order)."""
    if get(opts.algorithm).evals == "every":
        limits = range(1, max(opts.depth if opts.depth is not None else tree.height, 1) + 1)
    else:
        limits = [] if opts.depth is None else [opts.depth]
    missing = {}
    for node in tree.nodes:
        if node.children and node.eval is None and node.depth not in missing:
            missing[node.depth] = node
    for limit in limits:
        if limit in missing:
            return missing[limit]
    return None


def parse_text(text: str, fmt: str | None, budget: Budget | None = None) -> dict:
    """A tree typed as text (YAML, JSON or the notation) as the file
    structure with every id written. Raises :class:`TreeFileError`."""
    tree = load_tree(text, fmt=fmt, limits=limits(budget or Budget()))
    return tree_to_dict(tree, explicit_ids=True)
