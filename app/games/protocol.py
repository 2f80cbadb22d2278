"""Games from rules, in the vocabulary of AIMA and aima-python, turned into trees.

A game is anything with the :class:`Game` protocol's methods: the initial
state S0 (``initial``), PLAYER (``to_move``), ACTIONS, RESULT, TERMINAL-TEST
and UTILITY, and optionally a heuristic EVAL (``evaluate``). :func:`game_tree`
expands one into the plain structure of a tree file (contract §1), which
:mod:`app.treefile` loads like any file and writes as YAML.

>>> class Countdown:
...     '''Take 1 or 2 tokens; whoever takes the last one wins.'''
...     initial = (3, "MAX")               # (tokens left, player to move)
...     players = ("MAX", "MIN")
...     def to_move(self, state): return state[1]
...     def actions(self, state): return [n for n in (1, 2) if n <= state[0]]
...     def result(self, state, action):
...         if action not in self.actions(state):
...             raise ValueError(f"cannot take {action} from {state[0]}")
...         return (state[0] - action, "MIN" if state[1] == "MAX" else "MAX")
...     def terminal_test(self, state): return state[0] == 0
...     def utility(self, state, player):  # the player to move has lost
...         return -1 if state[1] == player else 1
...     def display(self, state): return str(state[0])
>>> tree = game_tree(Countdown(), title="Countdown")
>>> [c["label"] for c in tree["root"]["children"]]
['2', '1']
>>> tree["root"]["children"][1]["children"][0]
{'id': '0#3', 'label': '0', 'value': -1}
"""
from __future__ import annotations

from typing import Any, Hashable, Protocol, Sequence, runtime_checkable

State = Any
Action = Any


@runtime_checkable
class Game(Protocol):
    """A two-player game given by its rules (AIMA §5.1).

    Optional methods, used when a game has them:

    - ``evaluate(state) -> number``: the heuristic EVAL(s), for MAX; used at
      the depth limit and for the ``eval`` of inner nodes.
    - ``canonical(state) -> hashable``: a key equal for symmetric states;
      siblings with the same key are dropped (symmetry reduction).
    - ``move_name(state, action) -> str``: a short name for a move, used
      in node ids (the default id is the state's :meth:`display`).
    """

    initial: State
    """S0: the state the game starts in."""
    players: tuple[str, str]
    """The players' names; the first one maximises (MAX), the second minimises."""

    def to_move(self, state: State) -> str:
        """PLAYER(s): the name of the player who moves in ``state``."""

    def actions(self, state: State) -> Sequence[Action]:
        """ACTIONS(s): the legal moves in ``state``, in the order to search them."""

    def result(self, state: State, action: Action) -> State:
        """RESULT(s, a): the state after the move; ``ValueError`` if it is illegal."""

    def terminal_test(self, state: State) -> bool:
        """TERMINAL-TEST(s): is the game over?"""

    def utility(self, state: State, player: str) -> float:
        """UTILITY(s, p): the final payoff of a terminal state for ``player``."""

    def display(self, state: State) -> str:
        """A short one-line drawing of the state, used as the node's label."""


def game_tree(game: Game, *, max_depth: int | None = None, title: str,
              source: str = "", description: str = "", algorithm: str | None = None,
              inner_eval: bool = False, symmetry: bool = True,
              root_id: str | None = None) -> dict:
    """The game's tree from ``game.initial`` as a tree-file dict (contract §1).

    Terminal states become leaves worth ``utility(state, players[0])`` (MAX's
    payoff). With ``max_depth``, non-terminal states at that depth become
    leaves worth ``evaluate(state)`` (the horizon of an n-ply look-ahead).
    ``inner_eval`` also gives every inner node its ``eval``, so a ``--depth``
    search can stop anywhere. ``symmetry`` drops a child whose ``canonical``
    key repeats an earlier sibling's. Ids are the labels without spaces (or,
    for a game with ``move_name``, the path of move names), made unique with
    ``#2``, ``#3``... in reading order. Each node records
    ``player`` only where the file's default (``players[depth mod 2]``) would
    be wrong. Built with an explicit stack: game trees get deep.
    """
    max_name, min_name = game.players
    evaluate = getattr(game, "evaluate", None)
    canonical = getattr(game, "canonical", None) if symmetry else None
    move_name = getattr(game, "move_name", None)
    if (max_depth is not None or inner_eval) and evaluate is None:
        raise ValueError(f"{type(game).__name__} has no evaluate(): it cannot be cut off")

    ids: dict[str, int] = {}

    def unique(base: str) -> str:
        count = ids.get(base, 0) + 1
        ids[base] = count
        return base if count == 1 else f"{base}#{count}"

    root: dict = {}
    # Stack entries: (state, the node's dict, depth, id before de-duplication).
    # Ids are given as nodes are popped, so "#2" is the second in reading order.
    stack: list[tuple[State, dict, int, str]] = [
        (game.initial, root, 0, root_id or _compact(game.display(game.initial)))]
    while stack:
        state, node, depth, base = stack.pop()
        node["id"] = unique(base)
        node["label"] = game.display(state)
        if game.terminal_test(state):
            node["value"] = _number(game.utility(state, max_name))
            continue
        if max_depth is not None and depth >= max_depth:
            node["value"] = _number(evaluate(state))
            continue
        mover = game.to_move(state)
        if mover not in (max_name, min_name):
            raise ValueError(f"to_move returned {mover!r}, not one of {game.players}")
        if mover != game.players[depth % 2]:
            node["player"] = mover
        if inner_eval:
            node["eval"] = _number(evaluate(state))
        children: list[dict] = []
        seen: set[Hashable] = set()
        pending = []
        for action in game.actions(state):
            child_state = game.result(state, action)
            if canonical is not None:
                key = canonical(child_state)
                if key in seen:
                    continue
                seen.add(key)
            if move_name:
                name = move_name(state, action)
                child_base = f"{node['id']}-{name}" if depth else name
            else:
                child_base = _compact(game.display(child_state))
            child: dict = {}
            children.append(child)
            pending.append((child_state, child, depth + 1, child_base))
        if not children:
            raise ValueError(f"state {game.display(state)!r} is not terminal but has no moves")
        node["children"] = children
        stack.extend(reversed(pending))  # so the first child is expanded first
    return _document(game, root, title, source, description, algorithm)


def _document(game: Game, root: dict, title: str, source: str, description: str,
              algorithm: str | None) -> dict:
    doc: dict = {"title": title}
    if source:
        doc["source"] = source
    if description:
        doc["description"] = description
    if algorithm:
        doc["algorithm"] = algorithm
    doc["players"] = list(game.players)
    doc["root"] = root  # keys went in as a reader expects them: id, label, ..., children
    return doc


def _compact(label: str) -> str:
    """An id from a label: no whitespace."""
    return "".join(label.split()) or "s"


def _number(x):
    """Integral floats as ints, so files read ``2`` rather than ``2.0``."""
    if isinstance(x, bool):
        raise ValueError("a payoff must be a number, not a boolean")
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x
