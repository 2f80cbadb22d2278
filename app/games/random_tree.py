"""Random game trees on demand, the same tree for the same seed everywhere.

A lecturer hands a class "tree 4217" and every student, on any machine and
any Python version, draws the same tree: the generator is
``random.Random(seed)`` with an integer seed, used only through integer
operations (``randrange``, ``sample``), whose results Python keeps stable
across versions -- no ``hash()``, no floats from ``random()``.

Ids read like the textbook's: inner nodes are letters in breadth-first order
(``A`` the root, then ``B``, ``C``, ... ``Z``, ``AA``, ``AB``, ...), and each
leaf is its parent's letter in lower case with a number (``b1``, ``b2``).

>>> t = random_tree(branching=2, depth=2, values=(0, 9), seed=7)
>>> [n.id for n in t.nodes]
['A', 'B', 'b1', 'b2', 'C', 'c1', 'c2']
>>> random_tree(branching=2, depth=2, values=(0, 9), seed=7).leaves[0].value == t.leaves[0].value
True
>>> RandomSpec.from_id("r-b2..4-d3-v-10..10-s4217").branching
(2, 4)
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from random import Random

from app.search.descriptors import get
from app.search.tree import Node, Tree
from app.search.words import Said

MAX_NODES = 100_000
"""Largest tree (counting every node a branching range could make) we build."""
MAX_PLAYERS = 6
DEFAULT_VALUES = (-10, 10)


def count_text(n: int) -> str:
    """A count as said in a refusal: its digits, or, past 15 of them, its order of
    magnitude (``999`` branching to depth ``999`` has 2,997 digits of nodes).

    >>> count_text(111_111), count_text(10 ** 40 + 7)
    ('111111', '1.0 × 10^40')
    """
    digits = str(n)
    if len(digits) <= 15:
        return digits
    return f"{digits[0]}.{digits[1]} × 10^{len(digits) - 1}"


class BadRandomSpec(Said, ValueError):
    """Parameters (or an id) that make no random tree; its sentence is a
    catalogue message, said in the reader's language by the pages above."""


@dataclass(frozen=True)
class RandomSpec:
    """Everything that decides a random tree; its :meth:`id` names it in URLs.

    The id reproduces the tree from the seed, so a random tree needs no
    storage: ``r-b3-d3-s4217`` is the same tree tomorrow.
    """

    branching: int | tuple[int, int] = 3
    depth: int = 3
    values: tuple[int, int] = DEFAULT_VALUES
    seed: int = 0
    players: int = 2
    chance: bool = False
    evals: bool = False
    """Give inner nodes an ``eval`` (a noisy estimate of their true value)."""
    bounds: bool = False
    """Give the tree the leaf values' range as its ``bounds`` (Star1's [L, U])."""

    def __post_init__(self) -> None:
        b = self.branching
        if isinstance(b, (tuple, list)):
            lo, hi = (int(x) for x in b)
            object.__setattr__(self, "branching", lo if lo == hi else (lo, hi))
        lo, hi = self.branching_range
        if not 1 <= lo <= hi:
            shown = f"{lo}..{hi}" if lo != hi else str(lo)
            raise BadRandomSpec("branching must be at least 1 (or a range low..high with "
                                "1 <= low <= high), not {shown}", shown=shown)
        if not isinstance(self.depth, int) or self.depth < 1:
            raise BadRandomSpec("depth must be a whole number >= 1, not {depth}",
                                depth=repr(self.depth))
        vlo, vhi = (int(x) for x in self.values)
        object.__setattr__(self, "values", (vlo, vhi))
        if vlo > vhi:
            raise BadRandomSpec("value range {low}..{high} is empty: write low..high",
                                low=vlo, high=vhi)
        if not isinstance(self.seed, int) or self.seed < 0:
            raise BadRandomSpec("seed must be a whole number >= 0, not {seed}", seed=repr(self.seed))
        if not 2 <= self.players <= MAX_PLAYERS:
            raise BadRandomSpec("players must be between 2 and {most}, not {players}",
                                most=MAX_PLAYERS, players=repr(self.players))
        if self.chance and self.players != 2:
            raise BadRandomSpec("chance nodes are for two-player trees (expectiminimax); "
                                "use players=2")
        if self.max_nodes > MAX_NODES:
            raise BadRandomSpec("branching {branching} to depth {depth} can make {nodes} nodes; "
                                "the limit is {limit}", branching=self.branching_text,
                                depth=self.depth, nodes=count_text(self.max_nodes), limit=MAX_NODES)

    @property
    def branching_range(self) -> tuple[int, int]:
        b = self.branching
        return b if isinstance(b, tuple) else (b, b)

    @property
    def branching_text(self) -> str:
        lo, hi = self.branching_range
        return str(lo) if lo == hi else f"{lo}..{hi}"

    @property
    def max_nodes(self) -> int:
        hi = self.branching_range[1]
        return sum(hi ** d for d in range(self.depth + 1))

    # -- the id ---------------------------------------------------------
    def id(self) -> str:
        """The canonical id: ``r-b<b>-d<d>[-v<lo>..<hi>][-p<n>][-c][-e][-l]-s<seed>``."""
        parts = ["r", f"b{self.branching_text}", f"d{self.depth}"]
        if self.values != DEFAULT_VALUES:
            parts.append(f"v{self.values[0]}..{self.values[1]}")
        if self.players != 2:
            parts.append(f"p{self.players}")
        if self.chance:
            parts.append("c")
        if self.evals:
            parts.append("e")
        if self.bounds:
            parts.append("l")
        parts.append(f"s{self.seed}")
        return "-".join(parts)

    _ID = re.compile(
        r"r-b(?P<blo>\d{1,3})(?:\.\.(?P<bhi>\d{1,3}))?-d(?P<d>\d{1,3})"
        r"(?:-v(?P<vlo>-?\d{1,9})\.\.(?P<vhi>-?\d{1,9}))?(?:-p(?P<p>\d))?"
        r"(?P<c>-c)?(?P<e>-e)?(?P<l>-l)?-s(?P<s>\d{1,18})")

    @classmethod
    def is_id(cls, text: str) -> bool:
        return cls._ID.fullmatch(text) is not None

    @classmethod
    def from_id(cls, text: str) -> "RandomSpec":
        """Parse an id made by :meth:`id`; ``ValueError`` if it is not one."""
        m = cls._ID.fullmatch(text)
        if m is None:
            raise BadRandomSpec("{id} is not a random-tree id like r-b3-d3-s4217",
                                id=repr(text[:60]))
        lo = int(m["blo"])
        hi = int(m["bhi"]) if m["bhi"] else lo
        values = (int(m["vlo"]), int(m["vhi"])) if m["vlo"] else DEFAULT_VALUES
        return cls(branching=(lo, hi), depth=int(m["d"]), values=values, seed=int(m["s"]),
                   players=int(m["p"] or 2), chance=bool(m["c"]), evals=bool(m["e"]),
                   bounds=bool(m["l"]))

    def tree(self) -> Tree:
        return _build(self)


def shape_for(algorithm: str | None) -> dict | None:
    """:class:`RandomSpec`'s shape fields for ``algorithm``'s random trees, as its
    record's ``random_shape`` says (Star1: chance nodes and leaf bounds); none
    given: a plain MAX/MIN tree; None when its record draws no random trees.

    >>> shape_for("star1")
    {'players': 2, 'chance': True, 'evals': False, 'bounds': True}
    """
    shape = get(algorithm).random_shape if algorithm else ()
    if shape is None:
        return None
    return {"players": 3 if "players" in shape else 2, "chance": "chance" in shape,
            "evals": "evals" in shape, "bounds": "bounds" in shape}


def random_tree(branching: int | tuple[int, int] = 3, depth: int = 3,
                values: tuple[int, int] = DEFAULT_VALUES, seed: int | None = None,
                players: int = 2, chance: bool = False, evals: bool = False,
                bounds: bool = False) -> Tree:
    """A random game tree; the same arguments give the same tree everywhere.

    ``branching`` is a number of children or a range ``(low, high)`` drawn
    per node; every leaf sits at ``depth``; leaf values are whole numbers in
    ``values`` (both ends included), one per player when ``players`` > 2.
    With ``chance`` the layers alternate MAX, chance, MIN, chance, ... and
    each chance node's children carry probabilities in tenths. With
    ``evals`` every inner node gets an ``eval``: its true value plus a little
    noise, so depth-limited search can be practised. With ``bounds`` the tree
    keeps the leaf range as its ``bounds`` (Star1's). ``seed=None`` draws a
    fresh seed, which the tree's title records.
    """
    if seed is None:
        seed = secrets.randbelow(10_000)
    return RandomSpec(branching=branching, depth=depth, values=values, seed=seed,
                      players=players, chance=chance, evals=evals, bounds=bounds).tree()


def letters(n: int) -> str:
    """The n-th (0-based) spreadsheet-style column name: A..Z, AA, AB, ...

    >>> [letters(i) for i in (0, 25, 26, 27, 701, 702)]
    ['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']
    """
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("A") + r) + out
    return out


class _Draft:
    """A node while the tree grows (Node itself is immutable)."""

    __slots__ = ("id", "depth", "player", "chance", "probability", "value", "eval", "children")

    def __init__(self, id: str, depth: int, player: int, chance: bool = False):
        self.id, self.depth, self.player, self.chance = id, depth, player, chance
        self.probability = self.value = self.eval = None
        self.children: list[_Draft] = []


def _build(spec: RandomSpec) -> Tree:
    rng = Random(spec.seed)
    lo, hi = spec.branching_range
    vlo, vhi = spec.values
    root = _Draft("A", 0, 0, chance=False)
    inner_count = 1
    layer = [root]
    # Breadth first, so letters run level by level as in the textbook figures,
    # and the draws happen in one fixed order: a node's child count, then its
    # children's probabilities, then (at the last level) the leaf values.
    for depth in range(1, spec.depth + 1):
        next_layer: list[_Draft] = []
        for parent in layer:
            k = rng.randrange(lo, hi + 1)
            probs = _probabilities(rng, k) if parent.chance else [None] * k
            for i in range(k):
                if depth == spec.depth:  # a leaf: who would move there does not matter
                    child = _Draft(f"{parent.id.lower()}{i + 1}", depth, depth % spec.players)
                    child.value = (rng.randrange(vlo, vhi + 1) if spec.players == 2 else
                                   tuple(rng.randrange(vlo, vhi + 1) for _ in range(spec.players)))
                else:
                    child = _Draft(letters(inner_count), depth, *_role(spec, depth))
                    inner_count += 1
                child.probability = probs[i]
                parent.children.append(child)
                next_layer.append(child)
        layer = next_layer
    tree = _freeze(spec, root)
    if spec.evals:
        tree = _freeze(spec, _with_evals(spec, rng, tree, root))
    return tree


def _role(spec: RandomSpec, depth: int) -> tuple[int, bool]:
    """(player index, is chance) of the nodes at ``depth``."""
    if not spec.chance:
        return depth % spec.players, False
    if depth % 2:  # MAX, chance, MIN, chance, MAX, ...; a chance node's player is
        return depth % 2, True  # unused: the file default, so YAML need not name it
    return (depth // 2) % 2, False


def _probabilities(rng: Random, k: int) -> list[float]:
    """k positive probabilities summing to 1, in tenths (hundredths past 10
    children) so students can multiply them by hand."""
    whole = 10 if k <= 10 else 100
    if k > whole:
        raise ValueError(f"a chance node with {k} children is too many to draw")
    cuts = sorted(rng.sample(range(1, whole), k - 1))
    bounds = [0, *cuts, whole]
    return [(b - a) / whole for a, b in zip(bounds, bounds[1:])]


def _with_evals(spec: RandomSpec, rng: Random, tree: Tree, root: _Draft) -> _Draft:
    """Give each inner node its true value plus noise of up to a tenth of the range."""
    from app.search.ordering import true_values  # the core's own backed-up values

    truth = true_values(tree, None)
    noise = max(1, (spec.values[1] - spec.values[0]) // 10)
    stack = [root]
    while stack:  # preorder, a fixed order of draws
        draft = stack.pop()
        if draft.children:
            true = truth[draft.id]
            if isinstance(true, tuple):
                draft.eval = tuple(int(round(x)) + rng.randrange(-noise, noise + 1) for x in true)
            else:
                draft.eval = int(round(true)) + rng.randrange(-noise, noise + 1)
            stack.extend(reversed(draft.children))
    return root


def _freeze(spec: RandomSpec, root: _Draft) -> Tree:
    """Turn the drafts into immutable Nodes, children first (no recursion)."""
    built: dict[int, Node] = {}
    order: list[_Draft] = []
    stack = [root]
    while stack:
        d = stack.pop()
        order.append(d)
        stack.extend(d.children)
    for d in reversed(order):  # every child comes after its parent in `order`
        built[id(d)] = Node(id=d.id, label=d.id, player=d.player, depth=d.depth,
                            children=tuple(built[id(c)] for c in d.children),
                            value=d.value, eval=d.eval, chance=d.chance,
                            probability=d.probability)
    players = ("MAX", "MIN") if spec.players == 2 else tuple(f"P{i + 1}" for i in range(spec.players))
    return Tree(root=built[id(root)], players=players, title=_title(spec),
                source=f"random tree {spec.id()}", description=_description(spec),
                algorithm=None, bounds=spec.values if spec.bounds else None)


def _title(spec: RandomSpec) -> str:
    lo, hi = spec.values
    extra = f", {spec.players} players" if spec.players > 2 else ""
    extra += ", chance" if spec.chance else ""
    return (f"Random tree {spec.seed} (branching {spec.branching_text}, depth {spec.depth}, "
            f"values {lo}..{hi}{extra})")


def _description(spec: RandomSpec) -> str:
    cmd = [f"python -m app random --branching {spec.branching_text}", f"--depth {spec.depth}",
           f"--seed {spec.seed}"]
    if spec.values != DEFAULT_VALUES:
        cmd.append(f"--values {spec.values[0]}:{spec.values[1]}")
    if spec.players != 2:
        cmd.append(f"--players {spec.players}")
    if spec.chance:
        cmd.append("--chance")
    if spec.evals:
        cmd.append("--evals")
    if spec.bounds:
        cmd.append("--bounds")
    return ("Made by the random-tree generator; the same seed gives the same tree. "
            f"Regenerate it with `{' '.join(cmd)}`.")


__all__ = ["random_tree", "RandomSpec", "letters", "shape_for", "MAX_NODES"]
