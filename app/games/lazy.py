"""A game searched from its rules: a tree that grows as the search reaches it.

:class:`GameTree` gives the algorithms and the narrator the same node
interface as a tree file's :class:`~app.search.tree.Tree` (``root``,
``children``, ``value``, ``eval``, ``player``, ``depth``, ``id``,
``label``), but a node's children are made from ACTIONS and RESULT only
when the search asks for them, and nothing keeps them afterwards: a node
holds its parent, not its children, so the part of the tree the search
has finished is freed as it goes and a run of the whole of tic-tac-toe
(549,946 nodes) holds one path of it at a time.

Ids are the path of move names from the root (``X5-O1-X9``; the root is
``start``), so any node can be found again from its id by replaying its
moves: that is how the page, the pictures and ``View`` reach a node that
the search has long left.

>>> from app.games.rules import TicTacToeRules
>>> tree = GameTree(TicTacToeRules(), title="tic-tac-toe")
>>> [c.id for c in tree.root.children][:3], tree.node("X5-O1").label
(['X1', 'X2', 'X3'], 'O··/·X·/···')
>>> tree.parent_of("X5-O1").id, [n.id for n in tree.path_to("X5-O1")]
('X5', ['start', 'X5', 'X5-O1'])
"""
from __future__ import annotations

import random
from typing import Iterator

from app.search.descriptors import BY_ID
from app.search.options import SearchError

ROOT_ID = "start"
LEN_CAP = 10 ** 10
"""``len(tree.nodes)`` of a game counts this far at most (see :class:`_Nodes`)."""


class _OverCap(Exception):
    """A count that passed its cap (``count`` is how far it got: a lower bound)."""

    def __init__(self, count: int):
        self.count = count


def _same(state):
    return state


class GameNode:
    """One position reached by the search (the node interface of
    :class:`app.search.tree.Node`, children made on demand)."""

    __slots__ = ("id", "depth", "player", "state", "parent", "value", "_tree", "label",
                 "__weakref__")
    chance = False
    probability = None
    line = None

    def __init__(self, tree: "GameTree", node_id: str, depth: int, state, parent, value,
                 player: int, label: str | None = None):
        self._tree = tree
        self.id = node_id
        self.depth = depth
        self.state = state
        self.parent = parent
        self.value = value
        """MAX's payoff at a terminal position; ``None`` at an inner one."""
        self.player = player
        if label is not None:
            self.label = label

    @property
    def children(self) -> tuple["GameNode", ...]:
        """The positions one move away, made now (a leaf has none)."""
        if self.value is not None:
            return ()
        return self._tree._expand(self)

    @property
    def is_leaf(self) -> bool:
        return self.value is not None

    @property
    def eval(self):
        """EVAL(s) for MAX, where the game has an evaluation."""
        evaluate = self._tree._evaluate
        return None if evaluate is None else evaluate(self.state)

    def __getattr__(self, name: str):
        """``label``, the position as text, made on first use (a slot read
        after that: the narrator reads it several times an event)."""
        if name != "label":
            raise AttributeError(name)
        label = self.label = self._tree.rules.display(self.state)
        return label

    def __repr__(self) -> str:
        return f"GameNode({self.id!r})"


class _Nodes:
    """``tree.nodes`` of a game, as budgets and whole-tree consumers see it:
    its length is the number of nodes of the whole game (counted on
    positions, not walked), or for a game too big to count, of the tree
    down to the depth its page opens with; iterating walks that tree in
    preorder, making the nodes as it goes (nothing is held)."""

    def __init__(self, tree: "GameTree"):
        self._tree = tree

    def __len__(self) -> int:
        # Counted up to LEN_CAP only: a game past it (Nim from 40 tokens has
        # more nodes than an index-sized integer holds, and counting them
        # takes seconds) says LEN_CAP + 1, "more than any budget"; the web
        # layer refuses such ids first (:meth:`GameTree.count`).
        tree = self._tree
        limit = None if getattr(tree.rules, "countable", True) else tree.depth
        count, exact = tree.count(LEN_CAP, limit)
        return count if exact else LEN_CAP + 1

    def __iter__(self) -> Iterator[GameNode]:
        tree = self._tree
        for node in tree.subtree(tree.root):
            yield node

    def __reversed__(self) -> Iterator[GameNode]:
        return reversed(list(self))


class GameTree:
    """The tree of ``rules`` (see :mod:`app.games.rules`) from its initial
    state, looking to the search core like a tree file's tree."""

    multiplayer = False
    has_chance = False
    has_vectors = False
    scalar_leaf = None
    lazy = True

    def __init__(self, rules, *, title: str, source: str = "", description: str = "",
                 algorithm: str | None = None, depth: int | None = None,
                 max_depth: int | None = None, game_id: str = ""):
        self.rules = rules
        self.players = tuple(rules.players)
        self.title = title
        self.source = source
        self.description = description
        self.algorithm = algorithm
        self.depth = depth
        """The depth limit the page opens with (a suggestion)."""
        self.max_depth = max_depth
        """Deepest limit a search may use; ``None``: it may search to the end."""
        self.game_id = game_id
        self._evaluate = getattr(rules, "evaluate", None)
        self._max_name = self.players[0]
        self._memo: dict | None = {} if getattr(rules, "countable", True) else None
        self.root = self._make(ROOT_ID, 0, rules.initial, None)
        self.nodes = _Nodes(self)
        self._counts: dict = {}

    # -- making nodes -----------------------------------------------------
    def _player(self, state) -> int:
        return 0 if self.rules.to_move(state) == self._max_name else 1

    def _make(self, node_id: str, depth: int, state, parent) -> GameNode:
        rules = self.rules
        value = rules.utility(state, self._max_name) if rules.terminal_test(state) else None
        return GameNode(self, node_id, depth, state, parent, value, self._player(state))

    def _moves(self, state) -> list[tuple]:
        """``(move name, next state, its value if terminal else None, its
        player, its label or None)`` for each move, in ACTIONS order; kept
        per position, labels included, for games with few positions
        (tic-tac-toe has 5,478)."""
        memo = self._memo
        if memo is not None:
            out = memo.get(state)
            if out is not None:
                return out
        rules, max_name = self.rules, self._max_name
        out = []
        for a in rules.actions(state):
            s = rules.result(state, a)
            value = rules.utility(s, max_name) if rules.terminal_test(s) else None
            out.append((rules.move_name(state, a), s, value,
                        0 if rules.to_move(s) == max_name else 1,
                        rules.display(s) if memo is not None else None))
        if memo is not None:
            memo[state] = out
        return out

    def _expand(self, node: GameNode) -> tuple[GameNode, ...]:
        prefix = "" if node.parent is None else node.id + "-"
        depth = node.depth + 1
        return tuple([GameNode(self, prefix + name, depth, s, node, value, player, label)
                      for name, s, value, player, label in self._moves(node.state)])

    # -- look-ups by id (replaying the moves) ------------------------------
    def node(self, node_id: str) -> GameNode:
        if node_id == ROOT_ID:
            return self.root
        node = self.root
        for k in range(len(node_id.split("-"))):
            want = "-".join(node_id.split("-")[:k + 1])
            node = next((c for c in node.children if c.id == want), None)
            if node is None:
                raise KeyError(node_id)
        return node

    def __contains__(self, node_id: object) -> bool:
        if not isinstance(node_id, str):
            return False
        try:
            self.node(node_id)
        except KeyError:
            return False
        return True

    def parent_of(self, node_id: str) -> GameNode | None:
        if node_id == ROOT_ID:
            return None
        return self.node(node_id).parent

    def path_to(self, node_id: str) -> list[GameNode]:
        return self.path_of(self.node(node_id))

    def path_of(self, node: GameNode) -> list[GameNode]:
        """The nodes from the root down to ``node`` (by its parents)."""
        path = [node]
        while path[-1].parent is not None:
            path.append(path[-1].parent)
        return path[::-1]

    def subtree(self, node: GameNode) -> Iterator[GameNode]:
        stack = [node]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(n.children))

    # -- shape ------------------------------------------------------------
    @property
    def height(self) -> int:
        return self.rules.height(self.root.state)

    def role(self, node: GameNode) -> str:
        if node.is_leaf:
            return "leaf"
        return "max" if node.player == 0 else "min"

    def player_name(self, node: GameNode) -> str:
        return self.players[node.player]

    def default_algorithm(self) -> str:
        return self.algorithm or "alphabeta"

    def check_options(self, opts) -> None:
        """Refuse what this game cannot do (called by ``SearchOptions.check``)."""
        desc = BY_ID[opts.algorithm]
        limits = ([opts.depth] if opts.depth is not None else []) if desc.evals != "every" \
            else list(range(1, (opts.depth or self.height) + 1))
        if not desc.games:
            # (the game is not named: its title is English, the sentence may not be)
            raise SearchError("this is a two-player game: use minimax or alphabeta, not "
                              "{algorithm}", algorithm=opts.algorithm)
        if limits and self._evaluate is None:
            raise SearchError("this game has no evaluation function: search it to the end (no "
                              "depth limit)")
        # (one whose cost its iterations set, not the tree's size, plays out the game cheaply)
        if self.max_depth is not None and "iterations" not in desc.options:
            deepest = opts.depth if opts.depth is not None else None
            if deepest is None or deepest > self.max_depth:
                raise SearchError("this game is too big to search to the end: give a depth "
                                  "limit from 1 to {most}", most=self.max_depth)

    # -- [mcts] playouts on the rules, no nodes made (app.search.mcts) ------
    def value_range(self) -> tuple:
        """The smallest and largest utility for MAX (and so of a playout)."""
        return self.rules.value_range

    def playout(self, node: GameNode, random, limit: int | None):
        """Random moves from ``node`` (uniform over ACTIONS, as a node's
        children) to the end or the depth limit: (result for MAX, the moves
        played, stopped by the limit?)."""
        rules, max_name = self.rules, self._max_name
        state, depth = node.state, node.depth
        fast = getattr(rules, "playout", None)   # the rules' own (Connect Four: bitboards)
        if fast is not None:
            value, moves, stopped = fast(state, random, None if limit is None else limit - depth)
            if stopped is not None:
                return self._evaluate(stopped), (node.state, moves), True
            return value, (node.state, moves), False
        moves = []
        while True:
            acts = rules.actions(state)
            a = acts[int(random() * len(acts))]
            moves.append(a)
            state = rules.result(state, a)
            depth += 1
            if rules.terminal_test(state):
                return rules.utility(state, max_name), (node.state, moves), False
            if depth == limit:
                return self._evaluate(state), (node.state, moves), True

    def actions_of(self, node: GameNode) -> list:
        """ACTIONS at ``node``, in its children's order (none at a finished game)."""
        return [] if node.value is not None else self.rules.actions(node.state)

    def child_of(self, node: GameNode, action) -> GameNode:
        """The one child ``action`` leads to (the same node as in ``node.children``),
        made alone: a search that adds one child at a time does not make them all."""
        rules, max_name = self.rules, self._max_name
        s = rules.result(node.state, action)
        value = rules.utility(s, max_name) if rules.terminal_test(s) else None
        prefix = "" if node.parent is None else node.id + "-"
        return GameNode(self, prefix + rules.move_name(node.state, action), node.depth + 1, s,
                        node, value, 0 if rules.to_move(s) == max_name else 1)

    def playout_ids(self, start, path, states: list | None = None) -> list[str]:
        """The ids of the positions a playout passed (``path`` as :meth:`playout` gives it).
        Rules that name moves without making the positions (``move_names``) make
        none; others replay the playout, each position appended to ``states`` if
        given (the moves in words need them: one replay, not two)."""
        if not path:
            return []
        state, moves = path
        rules = self.rules
        out, prefix = [], "" if start.parent is None else start.id + "-"
        fast = getattr(rules, "move_names", None)
        if fast is not None:   # (the names alone: no position made)
            for name in fast(state, moves):
                prefix += name
                out.append(prefix)
                prefix += "-"
            return out
        for a in moves:
            prefix += rules.move_name(state, a)
            out.append(prefix)
            prefix += "-"
            state = rules.result(state, a)
            if states is not None:
                states.append(state)
        return out

    def summary(self) -> dict:
        return {"title": self.title, "source": self.source, "players": list(self.players),
                "nodes": None, "leaves": None, "height": self.height,
                "algorithm": self.default_algorithm(), "chance": False, "game": True}

    # -- the part of the tree a page draws ----------------------------------
    def to_dict(self, opened=(), budget: int = 100) -> dict:
        """The top of the game tree as a tree-file dict (contract §1) for a
        page to draw: whole levels from the root while they fit in
        ``budget`` nodes, plus the children of every node in ``opened``
        (ids; their ancestors opened too). A node whose children are left
        out carries ``"collapsed": true`` and ``"size"``, the nodes of its
        subtree (``null`` when the game is too big to count)."""
        wanted = set()
        longest = self.height   # no path is longer than the game (a made-up one of 20,000
        for node_id in opened:  # moves kept 20,000 prefixes of it: 741 MB from a 63 KB address)
            parts = str(node_id).split("-")
            wanted.update("-".join(parts[:k]) for k in range(1, min(len(parts), longest) + 1))
        wanted.add(ROOT_ID)
        level, drawn = [self.root], 1
        expand: set[str] = set()
        while level:  # whole levels while they fit
            kids = [c for n in level for c in n.children]
            if drawn + len(kids) > budget:
                break
            expand.update(n.id for n in level)
            drawn += len(kids)
            level = kids

        def out(node: GameNode) -> dict:
            d: dict = {"id": node.id, "label": node.label, "player": self.players[node.player]}
            if node.value is not None:
                d["value"] = node.value
                return d
            if node.id in expand or node.id in wanted:
                d["children"] = [out(c) for c in node.children]
            else:
                d["collapsed"] = True
                d["size"] = self.size_of(node)
            return d
        return {"title": self.title, "source": self.source, "description": self.description,
                "algorithm": self.default_algorithm(), "players": list(self.players),
                "depth": self.depth, "game": self.game_id, "root": out(self.root)}

    # -- counts (memoised on positions, so whole games count in a blink) ---
    def size_of(self, node: GameNode, limit: int | None = None) -> int | None:
        """Nodes in the subtree under ``node`` (itself included), down to the
        depth limit ``limit``; ``None`` where the game is too big to count."""
        return self._count(node.state, None if limit is None else limit - node.depth, "nodes")

    def count(self, cap: int, limit: int | None = None) -> tuple[int | None, bool]:
        """``(nodes, True)``: the nodes of the whole game (down to the depth
        limit ``limit``), counted on positions; ``(n, False)`` with ``n >
        cap`` as soon as the count passes ``cap`` (it stops there, so a
        game far too big costs no more than a small one: Nim from 40 tokens
        in about a millisecond); ``(None, True)`` for a game too big to
        count to the end (Connect Four without a limit).

        >>> from app.games.rules import NimRules
        >>> GameTree(NimRules((7,)), title="n").count(100)
        (24, True)
        >>> n, exact = GameTree(NimRules((40,)), title="n").count(10 ** 9)
        >>> exact, n > 10 ** 9
        (False, True)
        """
        try:
            return self._count(self.root.state, limit, "nodes", cap), True
        except _OverCap as over:
            return over.count, False

    def static_count(self, limit: int | None) -> int | None:
        """Static values plain minimax uses with depth limit ``limit``."""
        return self._count(self.root.state, limit, "static")

    def _count(self, state, remaining, what: str, cap: int | None = None):
        if remaining is None and not getattr(self.rules, "countable", True):
            return None  # to the end of a game too big to count
        memo = self._counts.setdefault(what, {})
        rules = self.rules
        key_of = getattr(rules, "key", _same)
        known = memo.get((key_of(state), remaining))
        if known is not None:   # (a cut-off asks this for each subtree it skips)
            return known
        # Post-order with an explicit stack over (state, remaining depth).
        stack = [(state, remaining, False)]
        while stack:
            s, r, done = stack.pop()
            key = (key_of(s), r)
            if key in memo and not done:
                continue
            if rules.terminal_test(s) or r == 0:
                memo[key] = 1
                continue
            kids = [(rules.result(s, a), None if r is None else r - 1) for a in rules.actions(s)]
            if not done:
                stack.append((s, r, True))
                stack.extend((k, kr, False) for k, kr in kids)
                continue
            total = sum(memo[(key_of(k), kr)] for k, kr in kids)
            memo[key] = total = total + (1 if what == "nodes" else 0)
            if cap is not None and total > cap:   # (the memo stays exact)
                raise _OverCap(total)
        return memo[(key_of(state), remaining)]

    # -- move ordering ----------------------------------------------------
    def order_for(self, order: str, seed: int | None, depth_limit: int | None):
        """The children of a node in search order (see :mod:`app.search.ordering`):
        ``best``/``worst`` by the position's true (depth-limited) minimax value,
        memoised on positions; ``random`` seeded by the run's seed and the node's id."""
        if order == "given":
            return None
        if order == "random":
            base = 0 if seed is None else seed

            def shuffled(node: GameNode) -> tuple[GameNode, ...]:
                kids = list(node.children)
                random.Random(f"{base}/{node.id}").shuffle(kids)
                return tuple(kids)
            return shuffled
        if not getattr(self.rules, "countable", True):
            raise SearchError("this game is too big to know each move's true value: use the "
                              "given or random order")
        worst = order == "worst"
        value = self._solver(depth_limit)

        def ordered(node: GameNode) -> tuple[GameNode, ...]:
            sign = -1 if node.player == 0 else 1
            if worst:
                sign = -sign
            return tuple(sorted(node.children, key=lambda c: sign * value(c)))
        return ordered

    def _solver(self, depth_limit: int | None):
        """The true minimax value of a node, to the depth limit."""
        rules, memo = self.rules, self._counts.setdefault(("value", depth_limit), {})
        key_of = getattr(rules, "key", lambda s: s)
        max_name = self._max_name

        def solve(state, depth):
            key = (key_of(state), depth)
            if key in memo:
                return memo[key]
            if rules.terminal_test(state):
                v = rules.utility(state, max_name)
            elif depth_limit is not None and depth >= depth_limit:
                v = self._evaluate(state)
            else:
                vals = [solve(rules.result(state, a), depth + 1) for a in rules.actions(state)]
                v = max(vals) if rules.to_move(state) == max_name else min(vals)
            memo[key] = v
            return v
        return lambda node: solve(node.state, node.depth)
