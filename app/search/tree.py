"""The game tree: small immutable values that every algorithm walks.

A :class:`Tree` is built once (by :mod:`app.treefile` from a file, or by
:mod:`app.games` from a game's rules) and never changes afterwards, so a
search, a picture and a practice sheet can share one tree safely.

>>> leaf = lambda i, v: Node(id=i, label=i, player=1, depth=1, value=v)
>>> root = Node(id="A", label="A", player=0, depth=0,
...             children=(leaf("a1", 3), leaf("a2", 5)))
>>> tree = Tree(root=root, title="tiny")
>>> [n.id for n in tree.nodes]
['A', 'a1', 'a2']
>>> tree.role(root), tree.parent_of("a2").id
('max', 'A')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union

Number = Union[int, float]
Value = Union[Number, tuple[Number, ...]]


@dataclass(frozen=True, slots=True, eq=False)
class Node:
    """One position of the game tree."""

    id: str
    """Unique in the tree; given in the file or made by the loader."""
    label: str
    """Display text (defaults to the id)."""
    player: int
    """Index into :attr:`Tree.players` of the player to move here."""
    depth: int
    """Distance from the root (root = 0)."""
    children: tuple["Node", ...] = ()
    """Successors, in the order of the file."""
    value: Value | None = None
    """Static value of a leaf: a number, or one number per player (max^n)."""
    eval: Value | None = None
    """Heuristic value of an inner node, used when a depth limit stops here."""
    chance: bool = False
    """A chance node: its value is the probability-weighted sum of its children."""
    probability: float | None = None
    """The probability of reaching this node from its chance-node parent."""
    line: int | None = None
    """Line in the source file where the node is written (for messages)."""

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def __repr__(self) -> str:  # short, since trees can be huge
        return f"Node({self.id!r})"


@dataclass(frozen=True, eq=False)
class Tree:
    """A whole game tree with its metadata."""

    root: Node
    players: tuple[str, ...] = ("MAX", "MIN")
    title: str = ""
    source: str = ""
    description: str = ""
    algorithm: str | None = None
    depth: int | None = None
    """The depth limit the tree's lecture uses: the page opens the tree with
    it preselected (a suggestion, as ``algorithm`` is; the command line and
    the API search the whole tree unless asked for a limit)."""
    bounds: tuple | None = None
    """``(L, U)``: every leaf value lies within them (the file's ``bounds``; Star1)."""
    translations: dict = field(default_factory=dict)
    """The title and description in other languages: ``{"id": {"title": ...,
    "description": ...}}`` (either may be absent)."""
    nodes: tuple[Node, ...] = field(init=False, repr=False)
    """Every node in preorder (the order a left-to-right search meets them)."""
    _by_id: dict = field(init=False, repr=False)
    _parent: dict = field(init=False, repr=False)
    _shape: dict = field(init=False, repr=False)
    _sizes: dict = field(init=False, repr=False)
    """Computed on first use: subtree sizes, and static evaluations by depth limit."""

    def __post_init__(self) -> None:
        nodes: list[Node] = []
        parent: dict[str, Node] = {}
        stack = [self.root]
        while stack:  # explicit stack: trees may be deeper than Python's recursion limit
            node = stack.pop()
            nodes.append(node)
            for child in node.children:
                parent[child.id] = node
            stack.extend(reversed(node.children))
        object.__setattr__(self, "nodes", tuple(nodes))
        object.__setattr__(self, "_by_id", {n.id: n for n in nodes})
        object.__setattr__(self, "_parent", parent)
        # Facts a search checks before it starts, found once here (the tree
        # never changes) so that starting a search costs nothing per node.
        scalar_leaf = next((n for n in nodes if not n.children
                            and not isinstance(n.value, tuple)), None)
        object.__setattr__(self, "_shape", {
            "chance": any(n.chance for n in nodes),
            "height": max(n.depth for n in nodes),
            "vectors": any(isinstance(n.value, tuple) or isinstance(n.eval, tuple) for n in nodes),
            "scalar_leaf": scalar_leaf,
        })
        object.__setattr__(self, "_sizes", {})

    # -- look-ups -------------------------------------------------------
    def node(self, node_id: str) -> Node:
        return self._by_id[node_id]

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._by_id

    def parent_of(self, node_id: str) -> Node | None:
        return self._parent.get(node_id)

    def path_to(self, node_id: str) -> list[Node]:
        """The nodes from the root down to ``node_id``, both included."""
        path = [self._by_id[node_id]]
        while path[-1].id in self._parent:
            path.append(self._parent[path[-1].id])
        return path[::-1]

    def path_of(self, node: Node) -> list[Node]:
        """The nodes from the root down to ``node``, both included."""
        return self.path_to(node.id)

    def subtree(self, node: Node) -> Iterator[Node]:
        """``node`` and all its descendants, in preorder."""
        stack = [node]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(n.children))

    def size_of(self, node: Node) -> int:
        """How many nodes the subtree under ``node`` holds, itself included
        (all sizes found in one pass on first use; a cut-off then costs one
        look-up, not a walk of what it skips)."""
        sizes = self._sizes.get("size")
        if sizes is None:
            sizes = {}
            for n in reversed(self.nodes):  # children before their parent
                size = 1
                for c in n.children:
                    size += sizes[c.id]
                sizes[n.id] = size
            self._sizes["size"] = sizes
        return sizes[node.id]

    def static_count(self, limit: int | None) -> int:
        """How many static values plain minimax uses with depth limit
        ``limit``: every leaf above the limit and every node on it."""
        key = ("static", limit)
        count = self._sizes.get(key)
        if count is None:
            count = 0
            for n in self.nodes:
                if n.children:
                    count += n.depth == limit
                elif limit is None or n.depth <= limit:
                    count += 1
            self._sizes[key] = count
        return count

    # -- shape ----------------------------------------------------------
    @property
    def multiplayer(self) -> bool:
        return len(self.players) > 2

    @property
    def has_chance(self) -> bool:
        return self._shape["chance"]

    @property
    def has_vectors(self) -> bool:
        """Some value or eval is a vector (one number per player)."""
        return self._shape["vectors"]

    @property
    def scalar_leaf(self) -> Node | None:
        """The first leaf whose value is a single number (max^n needs none)."""
        return self._shape["scalar_leaf"]

    @property
    def leaves(self) -> list[Node]:
        return [n for n in self.nodes if n.is_leaf]

    @property
    def height(self) -> int:
        return self._shape["height"]

    def role(self, node: Node) -> str:
        """``'chance'``, ``'leaf'``, or for a decision node in a two-player
        game ``'max'`` (first player) / ``'min'``; ``'player'`` for max^n."""
        if node.chance:
            return "chance"
        if node.is_leaf:
            return "leaf"
        if self.multiplayer:
            return "player"
        return "max" if node.player == 0 else "min"

    def player_name(self, node: Node) -> str:
        return "CHANCE" if node.chance else self.players[node.player]

    def default_algorithm(self) -> str:
        if self.algorithm:
            return self.algorithm
        from .descriptors import default_for   # (the records name tree-walking modules)
        return default_for(self.multiplayer, self.has_chance)

    def summary(self) -> dict:
        """What a library listing shows of the tree."""
        return {
            "title": self.title,
            "source": self.source,
            "players": list(self.players),
            "nodes": len(self.nodes),
            "leaves": sum(1 for n in self.nodes if n.is_leaf),
            "height": self.height,
            "algorithm": self.default_algorithm(),
            "depth": self.depth,
            "chance": self.has_chance,
            **({"translations": {lang: {k: v for k, v in t.items() if k == "title"}
                                 for lang, t in self.translations.items() if "title" in t}}
               if self.translations else {}),
        }
