"""One record per algorithm: everything the layers above need to know of it.

The command line, the API, the pages (``GET /api/algorithms``, the JSON of
:func:`document`), practice, classes, exports and the editor read these
records instead of spelling out lists of algorithm ids; a new algorithm is
a new :class:`Algorithm` in :data:`REGISTRY`, its generator and (when its
steps are not those of :mod:`app.search.narrate`) its narrator.
tests/search/test_descriptors.py fails when another file spells a list of
algorithm ids out.

>>> ALGORITHMS[:2]
('minimax', 'alphabeta')
>>> get("iterative").listing, get("star1").bounds, get("maxn").players
('alphabeta', True, 'vectors')
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Callable

from .states import N_


@dataclass(frozen=True)
class Algorithm:
    """How the tool knows one algorithm."""

    id: str
    """The name used everywhere: command line, API, tree files, addresses."""
    name: str
    """Its name in a menu, a catalogue message id (``tell(name)`` says it)."""
    short: str
    """Its name inside a sentence or a list ("alpha-beta"), a message id too."""
    raw: str
    """``module:function`` in this package: ``function(tree, opts)`` yields the raw events."""
    narrator: str = "narrate:Narrator"
    """``module:Class`` in this package: ``Class(tree, opts, words).narrate(raw)``."""
    players: str = "two"
    """``two``: two players, one number per leaf; ``vectors``: any number of
    players, one number per player at every leaf (max^n)."""
    chance: str = "refuses"
    """Chance nodes: ``refuses``, ``accepts`` (offered only on a tree with
    them: on one without, it is another algorithm under a new name)."""
    bounds: bool = False
    """It keeps alpha and beta at the nodes and prunes."""
    leaf_bounds: bool = False
    """It needs the leaf values' range [L, U] (the tree's ``bounds``, or ``--bounds``)."""
    evals: str = "depth"
    """Where an ``eval`` is needed: ``depth`` (where a depth limit stops),
    ``every`` (every inner node below the root: it searches to every depth)."""
    options: tuple[str, ...] = ("depth", "order", "seed")
    """The run options it reads (others are accepted and ignored); the pages offer
    an input, and keep a value in an address, only for these (``iterations`` and
    ``exploration``: Monte Carlo tree search's; a ``seed`` without ``order`` is its own)."""
    listing: str = ""
    """Its pseudocode listing (:mod:`app.search.pseudocode`; default: its id)."""
    formulations: tuple[str, ...] = ("aima",)
    """The listings' formulations it has."""
    events: tuple[str, ...] = ("enter", "evaluate", "update", "exit", "done")
    """The event types its runs are made of."""
    one_search: bool = True
    """One search of the tree (practice and class questions need one)."""
    games: bool = True
    """It runs on games from their rules (``game:`` ids)."""
    repeats: bool = False
    """It searches again from the root (the page resets the view each round)."""
    prunes_nothing: str = ""
    """What the page says where a prune test would be, for one that never prunes (a message id)."""
    compact: bool = True
    """The page gets its runs as compact records and narrates them itself
    (``static/js/core/narrate.js``); False: as the server's narrated JSON events."""
    records: str = ""
    """``module:function`` in this package making its compact records of its raw
    events, ``function(tree, opts, words, raw)`` (:mod:`app.search.compact`);
    "": compact's own, for the raw events of :mod:`app.search.algorithms`."""
    whatif: bool = True
    """Offered in the editor's what-if (searched again after every edit)."""
    worksheet: bool = True
    """Worksheets and their answer sheets are made of its runs (values worked by hand)."""
    panel: str = ""
    """The visualizer's panel that shows its run beside the narration (a
    ``data-panel`` section of the page); "": the stack and the counts."""
    reasons: tuple[tuple[str, str], ...] = ()
    """Why a layer refuses it: ``(layer, message id)`` pairs, layer one of
    ``whatif``, ``worksheet``, ``questions`` (a class's), ``homework``, ``play`` (the play page's computer); read by :meth:`reason`."""
    questions: tuple[str, ...] | None = None
    """The question kinds a class asks of its runs (:mod:`app.classes.questions`;
    the projector's menu lists these, the server refuses others with its ``questions`` reason);
    with ``ucb``, guided practice asks it too (which child UCB1 selects next).
    None: by what it keeps (``value``, ``move``, ``next``; with ``bounds`` also
    ``pruned`` and ``bounds``); () for none (not ``one_search``)."""
    controls: tuple[str, ...] | None = None
    """The transport controls beyond stepping (``next-cut``: go to the next
    cut-off). None: ``next-cut`` where its events include ``prune``."""
    random_shape: tuple[str, ...] | None = ()
    """The shape of its random trees (homework, practice): ``chance`` (MAX,
    chance, MIN, chance layers), ``bounds`` (the leaf range as the tree's
    bounds), ``players`` (three players, a value each), ``evals`` (an eval at
    every inner node); () a plain MAX/MIN tree; None: no random trees for it."""

    def __post_init__(self) -> None:
        if not self.listing:
            object.__setattr__(self, "listing", self.id)
        if self.questions is None:
            asked = ("value", "pruned", "bounds", "move", "next") if self.bounds \
                else ("value", "move", "next")
            object.__setattr__(self, "questions", asked if self.one_search else ())
        if self.controls is None:
            object.__setattr__(self, "controls", ("next-cut",) if "prune" in self.events else ())

    @property
    def unasked(self) -> str:
        """Why a question kind not in ``questions`` is refused (a message id)."""
        return self.reason("questions")

    def reason(self, layer: str) -> str:
        """The catalogue message saying why ``layer`` refuses it ("" where none is given)."""
        return dict(self.reasons).get(layer, "")

    @property
    def generator(self) -> Callable:
        return _load(self.raw)

    @property
    def narrator_class(self) -> type:
        return _load(self.narrator)

    @property
    def records_maker(self) -> Callable | None:
        """Its own maker of compact records (``records``), or None."""
        return _load(self.records) if self.records else None

    def fits_shape(self, multiplayer: bool, chance: bool) -> bool:
        """Whether a tree of this shape is one it takes (before its leaves and evals)."""
        if multiplayer and self.players != "vectors":
            return False
        return not (chance and self.chance == "refuses")

    def describe(self, tell: Callable[..., str] | None = None) -> dict:
        """The record as JSON (the pages' copy), names said by ``tell``."""
        say = tell or (lambda msgid, **_: msgid)
        return {"id": self.id, "name": say(self.name), "short": say(self.short), "raw": self.raw,
                "players": self.players, "chance": self.chance, "bounds": self.bounds,
                "leaf_bounds": self.leaf_bounds, "evals": self.evals,
                "options": list(self.options), "listing": self.listing,
                "formulations": list(self.formulations), "events": list(self.events),
                "one_search": self.one_search, "games": self.games, "repeats": self.repeats,
                "prunes_nothing": say(self.prunes_nothing) if self.prunes_nothing else "",
                "compact": self.compact, "whatif": self.whatif, "worksheet": self.worksheet,
                "panel": self.panel,
                "reasons": {layer: say(msgid) for layer, msgid in self.reasons},
                "questions": list(self.questions), "unasked": say(self.unasked) if self.unasked else "",
                "controls": list(self.controls),
                "random_shape": None if self.random_shape is None else list(self.random_shape)}


def _load(path: str):
    module, name = path.split(":")
    return getattr(import_module(f"{__package__}.{module}"), name)


_PRUNING = ("enter", "evaluate", "update", "alpha", "beta", "prune", "exit", "done")
_BOUNDED = ("depth", "order", "seed", "strict", "style")

REGISTRY: tuple[Algorithm, ...] = (
    Algorithm("minimax", N_("Minimax"), N_("minimax"), "algorithms:backed_up",
              formulations=("aima", "wikipedia"),
              prunes_nothing=N_("Minimax prunes nothing: every child is searched."),
              reasons=(("questions", N_("Minimax keeps no α and β and cuts nothing off: ask for a value, the "
                             "root's move or the next node (run the class with alpha-beta for α, β "
                             "and cut-offs).")),)),
    Algorithm("alphabeta", N_("Alpha-beta"), N_("alpha-beta"), "algorithms:alphabeta",
              bounds=True, options=_BOUNDED, formulations=("aima", "wikipedia"),
              events=_PRUNING,
              reasons=(("questions", N_("Alpha-beta does not select by UCB1: run the class with Monte Carlo "
                             "tree search for that question.")),)),
    Algorithm("expectiminimax", N_("Expectiminimax"), N_("expectiminimax"),
              "algorithms:backed_up", chance="accepts", games=False,
              prunes_nothing=N_("Expectiminimax prunes nothing here: every outcome is searched."),
              reasons=(("questions", N_("Expectiminimax keeps no α and β and cuts nothing off: ask for a value, "
                             "the root's move or the next node (run the class with Star1 for α, β "
                             "and cut-offs).")),),
              random_shape=("chance",)),
    Algorithm("maxn", N_("maxⁿ"), N_("maxⁿ"), "algorithms:backed_up", players="vectors",
              games=False, prunes_nothing=N_("maxⁿ prunes nothing here: every child is searched."),
              reasons=(("questions", N_("maxⁿ keeps no α and β and cuts nothing off: ask for a value, the "
                             "root's move or the next node.")),),
              random_shape=("players",)),
    Algorithm("iterative", N_("Iterative deepening (α-β)"), N_("iterative deepening"),
              "algorithms:iterative", bounds=True, evals="every", options=_BOUNDED,
              listing="alphabeta", formulations=("aima", "wikipedia"),
              events=("iteration",) + _PRUNING, one_search=False, repeats=True,
              reasons=(("questions", N_("Iterative deepening searches several times: class questions need one "
                                        "search (run the class with alpha-beta).")),
                       ("homework", N_("homework is checked on one search: iterative deepening "
                                       "searches several times (set alpha-beta)"))),
              random_shape=("evals",)),
    Algorithm("star1", N_("Star1 (α-β with chance nodes)"), N_("Star1"), "star1:star1",
              chance="accepts", bounds=True, leaf_bounds=True,
              options=("depth", "order", "seed", "strict", "bounds"), events=_PRUNING,
              games=False,
              reasons=(("questions", N_("Star1 does not select by UCB1: run the class with Monte Carlo tree "
                             "search for that question.")),),
              random_shape=("chance", "bounds")),
    Algorithm("mcts", N_("Monte Carlo tree search"), N_("Monte Carlo tree search"), "mcts:mcts",
              narrator="narrate_mcts:MctsNarrator",
              options=("depth", "seed", "iterations", "exploration"),
              events=("select", "expand", "simulate", "backpropagate", "done"),
              records="compact_mcts:records", whatif=False, worksheet=False, panel="mcts",
              questions=("ucb",),
              reasons=(("questions", N_("Monte Carlo tree search returns no values, keeps no α and β and "
                                        "visits nodes by sampling: ask which child UCB1 selects.")),
                       ("worksheet", N_("a worksheet asks for the values a search works out by "
                                        "hand: Monte Carlo tree search plays at random, so it has "
                                        "none (export a picture of its steps instead)")),
                       ("whatif", N_("Monte Carlo tree search plays at random: the editor's "
                                     "what-if compares searches that work every value out")),
                       ("play", N_("the computer plays the move a search backs up a value "
                                   "for: Monte Carlo tree search backs up none (watch its "
                                   "playouts in the visualizer)")))),
    Algorithm("pvs", N_("Principal variation search"), N_("principal variation search"),
              "pvs:pvs", narrator="narrate_pvs:PvsNarrator", bounds=True,
              options=("depth", "order", "seed"), listing="pvs",
              events=("scout", "research") + _PRUNING, compact=False, worksheet=False,
              reasons=(("questions", N_("Principal variation search does not select by UCB1: run "
                                        "the class with Monte Carlo tree search for that question.")),
                       ("worksheet", N_("principal variation search searches some subtrees "
                                        "twice (a null-window test, then the full window): a "
                                        "worksheet asks for one value per node; make it with "
                                        "alpha-beta, or export a picture of its steps")),)),
)
"""Every algorithm, in the order menus list them."""

BY_ID: dict[str, Algorithm] = {a.id: a for a in REGISTRY}
ALGORITHMS: tuple[str, ...] = tuple(BY_ID)
"""The ids, in :data:`REGISTRY`'s order."""


def get(algorithm_id: str) -> Algorithm:
    """The record of ``algorithm_id`` (KeyError for an unknown id)."""
    return BY_ID[algorithm_id]


def default_for(multiplayer: bool, chance: bool) -> str:
    """The algorithm a tree of this shape opens with: of those made for it (not
    needing leaf bounds, one search), the first that prunes, else the first.

    >>> default_for(False, False), default_for(True, False), default_for(False, True)
    ('alphabeta', 'maxn', 'expectiminimax')
    """
    if multiplayer:   # (players decide first: a 3-player tree with chance nodes is max^n's)
        fit = [a for a in REGISTRY if a.players == "vectors"]
    else:
        fit = [a for a in REGISTRY if a.players == "two" and (a.chance == "accepts") == chance
               and not a.leaf_bounds and a.one_search]
    return next((a for a in fit if a.bounds), fit[0]).id


def pruning_for(tree) -> str | None:
    """The one-search algorithm that prunes on a tree of this shape (practice's
    cut-offs): alpha-beta, Star1 on chance nodes with leaf bounds, else None.

    >>> from app.search.tree import Node, Tree
    >>> pruning_for(Tree(root=Node(id="A", label="A", player=0, depth=0)))
    'alphabeta'
    """
    if tree.multiplayer:
        return None
    chance = tree.has_chance
    for a in REGISTRY:
        if a.bounds and a.one_search and a.players == "two" \
                and (a.chance == "accepts") == chance \
                and (not a.leaf_bounds or getattr(tree, "bounds", None) is not None):
            return a.id
    return None


def with_bounds() -> tuple[str, ...]:
    """The ids of the algorithms that keep alpha and beta."""
    return tuple(a.id for a in REGISTRY if a.bounds)


def document(tell: Callable[..., str] | None = None) -> dict:
    """The JSON document the pages read (``GET /api/algorithms``): the records,
    and the narration's sentences (:data:`app.search.sentences.SENTENCES`, kind ->
    message id: the page's narrate.js says them through its catalogue)."""
    from .sentences import SENTENCES

    return {"algorithms": [a.describe(tell) for a in REGISTRY], "sentences": dict(SENTENCES)}


__all__ = ["Algorithm", "REGISTRY", "ALGORITHMS", "BY_ID", "get", "default_for", "pruning_for",
           "with_bounds", "document"]
