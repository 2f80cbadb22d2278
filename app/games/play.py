"""Playing against the search: positions as game ids, the user's move, and
the computer's answer found by the core's own search.

A position is the game id that names it (contract §1, with this module's
extensions): ``game:tictactoe:x...o....``, ``game:nim:4-2-1:min`` (MIN to
move), ``game:connect4:4435`` (the columns played so far). The computer's
move is the root's best child in the search's raw events, so the move the
play page makes is exactly the one the visualizer shows for that position.

>>> p = position("game:tictactoe")
>>> p["to_move"], len(p["moves"]), p["moves"][4]["position"]
('MAX', 9, 'game:tictactoe:....x....')
>>> answer("game:tictactoe:x...o....", "alphabeta", None, "given")["move"]
'X2'
"""
from __future__ import annotations

from app.search import SearchOptions, descriptors, raw_events
from app.search.algorithms import EVAL, EXIT, RET
from app.search.descriptors import BY_ID

import time

from .ids import GameTooBig, N_, UnknownGame, resolve

KINDS = ("tictactoe", "nim", "connect4")
PLAY_MINIMAX_C4 = 5
"""Deepest plain minimax the play page runs on Connect Four (7^5 = 16,807 leaves)."""


def kind_of(game_id: str) -> str:
    return game_id.split(":")[1]


def child_id(game_id: str, tree, child) -> str:
    """The game id of the position ``child`` (one move from the root)."""
    kind = kind_of(game_id)
    if kind == "tictactoe":
        return "game:tictactoe:" + child.state.lower()
    if kind == "nim":
        heaps = "-".join(map(str, child.state.heaps))
        return f"game:nim:{heaps}" + (":min" if child.state.to_move == "MIN" else "")
    played = game_id.split(":")[2] if game_id.count(":") >= 2 else ""
    return f"game:connect4:{played}{child.id[1:]}"


def position(game_id: str) -> dict:
    """The position ``game_id`` names: its board, who moves, the legal moves
    (each with the position it leads to), and the result if the game is over.
    Raises :class:`~app.games.ids.UnknownGame`."""
    tree = resolve(game_id)
    root = tree.root
    kind = kind_of(game_id)
    out = {"id": game_id, "game": kind, "label": root.label,
           "to_move": tree.players[root.player], "over": root.is_leaf}
    if kind == "tictactoe":
        out["cells"] = root.state
    elif kind == "connect4":
        out["cells"] = root.state[0]
    else:
        out["piles"] = list(root.state.heaps)
    if root.is_leaf:
        out["value"] = root.value
        out["moves"] = []
        out["result"] = _result(kind, root.value, out["to_move"])
        return out
    out["moves"] = [{"name": c.id, "label": c.label, "position": child_id(game_id, tree, c)}
                    for c in root.children]
    return out


def answer(game_id: str, algorithm: str, depth: int | None, order: str,
           seed: int | None = None, max_nodes: int | None = None,
           seconds: float | None = None) -> dict:
    """The computer's move in ``game_id``: the best move of the search the
    options describe, the value it backs up, and its work.

    Bounded by ``max_nodes`` (nodes entered) and ``seconds`` (of this
    thread's CPU): plain minimax enters every node, so a game bigger than
    ``max_nodes`` is refused before it starts (:class:`GameTooBig` with its
    size); a pruning search is cut off when it passes either bound.

    >>> answer("game:nim:16", "minimax", None, "given", max_nodes=100_000)
    Traceback (most recent call last):
    ...
    app.games.ids.GameTooBig: game:nim:16 has 521,441 nodes: too big to search here (at most 100,000). Start from a smaller position.
    >>> answer("game:nim:20", "alphabeta", None, "given", max_nodes=1_000)
    Traceback (most recent call last):
    ...
    app.games.ids.GameTooBig: The search entered 1,000 nodes without finishing (at most 1,000 here): search a smaller position, or with a depth limit where the game has one.
    """
    tree = resolve(game_id)
    desc = BY_ID.get(algorithm) if isinstance(algorithm, str) else None
    if max_nodes is not None and desc is not None and not (desc.bounds or "iterations" in desc.options):
        # Its size named exactly when within a thousand times the budget.
        nodes, exact = tree.count(1000 * max_nodes, depth)
        if nodes is not None and (not exact or nodes > max_nodes):
            raise GameTooBig(N_("{id} has {nodes:,} nodes: too big to search here (at most "
                                "{limit:,}). Start from a smaller position.") if exact else
                             N_("{id} has more than {limit:,} nodes: too big to search here (at "
                                "most {limit:,}). Start from a smaller position."),
                             nodes, max_nodes, exact, id=game_id)
    if tree.root.is_leaf:
        raise UnknownGame("the game is over: there is no move to make")
    # (one that prunes nothing, minimax, searches Connect Four only so deep)
    if kind_of(game_id) == "connect4" and desc is not None and not desc.bounds \
            and (depth or 99) > PLAY_MINIMAX_C4:
        raise UnknownGame("plain minimax on Connect Four plays to depth {most} at most here: use "
                          "alpha-beta for deeper searches", most=PLAY_MINIMAX_C4)
    opts = SearchOptions(algorithm=algorithm, depth=depth, order=order, seed=seed).resolved(tree)
    root = tree.root
    best = value = None
    entered = evaluated = 0
    most = max_nodes if max_nodes is not None else float("inf")
    clock = time.thread_time   # CPU of this thread: waiting for the GIL does not count
    deadline = None if seconds is None else clock() + seconds
    for ev in raw_events(tree, opts):
        kind = ev[0]
        if kind == RET:
            entered += 1
            if entered >= most or (deadline is not None and not entered & 1023
                                   and clock() > deadline):
                raise _cut_off(entered, max_nodes, seconds, entered >= most)
            evaluated += ev[4] is not None
            if ev[1] is root and (best is None or ev[6] != ev[5]):
                best = ev[2]  # the first child, then each that improves v (ties: the first)
        elif kind in (EXIT, EVAL):
            value = ev[2]
    return {"move": best.id, "label": best.label, "position": child_id(game_id, tree, best),
            "value": value, "entered": entered + 1, "evaluated": evaluated,
            "options": {"algorithm": opts.algorithm, "depth": opts.depth, "order": opts.order}}


def _cut_off(entered: int, most: int | None, seconds: float | None, by_nodes: bool):
    if by_nodes:
        return GameTooBig(N_("The search entered {nodes:,} nodes without finishing (at most "
                             "{limit:,} here): search a smaller position, or with a depth limit "
                             "where the game has one."), entered, most)
    return GameTooBig(N_("The search ran {seconds:g} seconds without finishing ({nodes:,} nodes "
                         "entered): search a smaller position, or with a depth limit where the "
                         "game has one."), entered, most or 0, seconds=seconds)


def _result(kind: str, value, to_move: str) -> str:
    if kind == "nim":  # the player to move cannot move: they lose
        return "MIN wins" if to_move == "MAX" else "MAX wins"
    if value == 0:
        return "draw"
    return "MAX wins" if value > 0 else "MIN wins"
