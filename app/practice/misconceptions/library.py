"""The library of misconceptions (contract §8): each one record, a wrong search and its words.

A misconception is a precise wrong way to run the search. Its answer sheet is
made by the one search core (:mod:`app.search.algorithms`) through a small
hook (``swap``, ``shallow``, ``chance``, the child order, the tie rule), or
read off the key's own run (``cutter``, ``exact``), never by a second
alpha-beta. Adding one is one :class:`Misconception` in :data:`LIBRARY`
(and, if the core cannot yet make it, one hook there).

The order of :data:`LIBRARY` is the contract's: a tie in slips names the earlier.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from app.search.algorithms import alphabeta, backed_up
from app.search.descriptors import BY_ID as RECORD_OF, get   # (BY_ID below: the misconceptions)
from app.search.numbers import fmt
from app.search.ordering import make_order
from app.search.states import N_
from app.search.tree import Tree

from ..words import tell
from .answers import Sheet, from_raw

ALPHABETA = ("cuts", "full")
VALUES = ("values",)


@dataclass(frozen=True)
class Misconception:
    id: str
    name: str
    """A few words (catalogue message): the chart's and the dashboard's label."""
    modes: tuple[str, ...]
    """Practice modes whose answers it explains."""
    sheet: Callable
    """``sheet(tree, opts, key_sheet)`` -> the wrong search's :class:`Sheet`."""
    say: Callable
    """``say(ctx)`` -> the sentence at the first node where it departs (or None: the
    general comparison is said)."""
    fits: Callable = lambda tree, opts: True
    """Whether it is a different rule on this tree and run at all."""


# -- the wrong searches ---------------------------------------------------------------

def _pruning(opts) -> bool:
    return get(opts.algorithm).bounds


def _ties(tree, opts, key):
    return from_raw(alphabeta(tree, replace(opts, strict=not opts.strict)))


def _shallow(tree, opts, key):
    return from_raw(alphabeta(tree, opts, shallow=True))


def _cutter(tree, opts, key):
    """The key's own run, with each cut-off's causing child marked too (a cut-off that
    skips nothing, at a node's last child, is no cut on paper: nothing to mark there)."""
    pruned = dict(key.pruned)
    for node, child in key.cause.items():
        pruned.setdefault(child, node)
    return Sheet(dict(key.values), pruned, key.events)   # (the key's run: its timing)


def _right_to_left(tree, opts, key):
    base = make_order(tree, opts.order, opts.seed, opts.depth)
    return from_raw(alphabeta(tree, opts, lambda n: (base(n) if base else n.children)[::-1]))


def _swapped(tree, opts, key):
    if _pruning(opts):
        return from_raw(alphabeta(tree, opts, swap=True))
    return from_raw(backed_up(tree, opts, swap=True))


def _exact(tree, opts, key):
    """The key's cuts, and at every node it searched the exact minimax value."""
    exact = from_raw(backed_up(tree, replace(opts, algorithm="minimax"))).values
    return Sheet({n: exact.get(n, v) for n, v in key.values.items()}, dict(key.pruned),
                 key.events)


def _chance(rule: str):
    def sheet(tree, opts, key):
        return from_raw(backed_up(tree, opts, chance=rule))
    return sheet


def _hooked(opts) -> bool:
    """The run is made by the generator whose hooks make these wrong searches
    (:func:`app.search.algorithms.alphabeta`): its record names it."""
    record = RECORD_OF.get(opts.algorithm)
    return record is not None and record.generator is alphabeta


def _alphabeta_fits(tree: Tree, opts) -> bool:
    return _hooked(opts) and not tree.multiplayer and not tree.has_chance


def _swap_fits(tree: Tree, opts) -> bool:
    return not tree.multiplayer and (_hooked(opts) or not _pruning(opts))


def _chance_fits(tree: Tree, opts) -> bool:
    return tree.has_chance and not tree.multiplayer and not _pruning(opts)


# -- their sentences ---------------------------------------------------------------------

def _ties_say(ctx) -> str | None:
    cut = ctx.key_cut()
    if cut is not None:   # the exercise prunes on equality, the student does not
        return tell("You prune only when v is strictly past the bound, but this exercise "
                    "prunes on equality too: at {node}, v = {v} {sign} {bound} = {value}, so "
                    "alpha-beta prunes {names} there.", node=ctx.label(ctx.node), v=fmt(cut["v"]),
                    sign=ctx.sign(cut), bound=ctx.symbol(cut), value=fmt(cut["bound"]),
                    names=ctx.names(cut["skipped"]))
    mine = ctx.my_cut()
    if mine is None:
        return None
    return tell("You prune on equality, but this exercise prunes only when v is strictly past "
                "the bound: at {node}, v = {v} only equals the bound, so alpha-beta goes on "
                "and searches {names}.", node=ctx.label(ctx.node), v=fmt(mine["v"]),
                names=ctx.names(mine["skipped"]))


def _shallow_say(ctx) -> str | None:
    cut = ctx.key_cut()
    if cut is None:
        return None
    fields = dict(node=ctx.label(ctx.node), v=fmt(cut["v"]), sign=ctx.sign(cut),
                  bound=ctx.symbol(cut), value=fmt(cut["bound"]), names=ctx.names(cut["skipped"]))
    if cut.get("by") and cut["by"] in ctx.tree:
        return tell("You pruned at {node} using only its parent's bound. Alpha-beta also "
                    "carries {bound} = {value} down from {holder}: {node}'s value {v} {sign} "
                    "{value}, so it prunes {names} there — a deep cut-off.",
                    holder=ctx.label(cut["by"]), **fields)
    return tell("You pruned at {node} using only its parent's bound. Alpha-beta also carries "
                "{bound} = {value} down from the nodes above: {node}'s value {v} {sign} "
                "{value}, so it prunes {names} there — a deep cut-off.", **fields)


def _cutter_say(ctx) -> str | None:
    cut = ctx.key_cut()
    child = ctx.key.cause.get(ctx.node)
    if cut is None or child is None:
        return None
    return tell("At a cut-off you also marked the child whose value caused it. At {node}, "
                "{child} was searched: its value {value} is what set off the cut-off, so only "
                "the children after it, {names}, are pruned.", node=ctx.label(ctx.node),
                child=ctx.label(child), value=fmt(ctx.returned(child)),
                names=ctx.names(cut["skipped"]))


def _right_to_left_say(ctx) -> str | None:
    order = [c for c, _ in ctx.key.returned.get(ctx.node, ())]
    if not order:
        return None
    return tell("You searched the children from right to left; alpha-beta takes them in the "
                "order drawn, left to right: at {node} it starts with {first}.",
                node=ctx.label(ctx.node), first=ctx.label(order[0])) + " " + ctx.compare()


def _swapped_say(ctx) -> str | None:
    node = ctx.tree.node(ctx.node)
    if node.chance or node.is_leaf:
        return None
    says = (N_("You exchanged MAX and MIN. {node} is a MAX node: it takes the largest value "
               "its children return.") if node.player == 0 else
            N_("You exchanged MAX and MIN. {node} is a MIN node: it takes the smallest value "
               "its children return."))
    return tell(says, node=ctx.label(ctx.node)) + " " + ctx.compare()


def _exact_say(ctx) -> str | None:
    if ctx.node not in ctx.key.values or ctx.node not in ctx.mine.values:
        return None
    return tell("You wrote exact minimax values where alpha-beta writes bounds. At {node} "
                "alpha-beta returns {value}, the best its search saw before a cut-off cut the "
                "rest short; the exact value {exact} is more than it knows.",
                node=ctx.label(ctx.node), value=fmt(ctx.key.values[ctx.node]),
                exact=fmt(ctx.mine.values[ctx.node]))


def _chance_say(msgid: str):
    def say(ctx) -> str | None:
        node = ctx.tree.node(ctx.node)
        if not node.chance or ctx.node not in ctx.key.values or ctx.node not in ctx.mine.values:
            return None
        probs = {c.id: c.probability for c in node.children}
        terms = " + ".join(f"{fmt(probs[c])} × {fmt(v)}" for c, v in ctx.key.returned[ctx.node])
        return tell(msgid, node=ctx.label(ctx.node), terms=terms,
                    value=fmt(ctx.key.values[ctx.node]), mine=fmt(ctx.mine.values[ctx.node]))
    return say


LIBRARY: tuple[Misconception, ...] = (
    Misconception("ties", N_("the other tie rule"), ALPHABETA, _ties, _ties_say, _alphabeta_fits),
    Misconception("shallow", N_("no deep cut-offs"), ALPHABETA, _shallow, _shallow_say,
                  _alphabeta_fits),
    Misconception("cutter", N_("the cut-off's own child marked pruned"), ALPHABETA, _cutter,
                  _cutter_say, _alphabeta_fits),
    Misconception("right-to-left", N_("children searched right to left"), ALPHABETA,
                  _right_to_left, _right_to_left_say, _alphabeta_fits),
    Misconception("levels-swapped", N_("MAX and MIN swapped"), ALPHABETA + VALUES, _swapped,
                  _swapped_say, _swap_fits),
    Misconception("exact", N_("exact values where alpha-beta has bounds"), ("full",), _exact,
                  _exact_say, _alphabeta_fits),
    Misconception("chance-uniform", N_("chance nodes averaged without probabilities"), VALUES,
                  _chance("uniform"),
                  _chance_say(N_("You averaged the chance node's children, ignoring their "
                                 "probabilities. At {node} each child counts by its "
                                 "probability: {terms} = {value}, not the plain average "
                                 "{mine}.")), _chance_fits),
    Misconception("chance-best", N_("chance nodes taken as a player's choice"), VALUES,
                  _chance("best"),
                  _chance_say(N_("You let a player choose at a chance node, but chance does "
                                 "not choose: at {node} the children count by their "
                                 "probabilities, {terms} = {value}, not the best child's "
                                 "{mine}.")), _chance_fits),
)
BY_ID = {m.id: m for m in LIBRARY}


def applicable(tree: Tree, opts, mode: str) -> list[Misconception]:
    """The misconceptions that are rules of their own for ``mode`` on this run."""
    return [m for m in LIBRARY if mode in m.modes and m.fits(tree, opts)]


def name(misconception_id: str) -> str:
    """Its few words in the reader's language."""
    return tell(BY_ID[misconception_id].name)
