"""[mcts] Connect Four's bitboard playout plays exactly what RESULT and
TERMINAL-TEST play from the same random numbers."""
from __future__ import annotations

import random

from app.games.rules import Connect4Rules


def reference(rules, state, rand, steps):
    """The playout on the rules' own methods (as GameTree played it before)."""
    moves = []
    while True:
        acts = rules.actions(state)
        a = acts[int(rand() * len(acts))]
        moves.append(a)
        state = rules.result(state, a)
        if rules.terminal_test(state):
            return rules.utility(state, "MAX"), moves, None
        if steps is not None and len(moves) == steps:
            return None, moves, state


def test_bitboard_playout_matches_the_rules():
    start = Connect4Rules()
    positions = [start.initial]
    gen = random.Random(5)
    for _ in range(40):   # positions from random openings, not finished
        s = start.initial
        for _ in range(gen.randrange(0, 30)):
            nxt = start.result(s, gen.choice(start.actions(s)))
            if start.terminal_test(nxt):
                break
            s = nxt
        positions.append(s)
    wins = {1000: 0, -1000: 0, 0: 0}
    for k, s in enumerate(positions):
        for steps in (None, 3):
            for seed in range(6):
                fast = start.playout(s, random.Random(seed * 100 + k).random, steps)
                slow = reference(start, s, random.Random(seed * 100 + k).random, steps)
                assert fast == slow, (k, seed, steps)
                if fast[0] is not None:
                    wins[fast[0]] += 1
    assert wins[1000] and wins[-1000]   # both sides win some: the win test is exercised


def test_a_playouts_ids_without_its_positions_are_the_replayed_ones():
    """Issue 30 point 4: a playout's ids are made from the moves' names alone
    where the rules name them so (``move_names``: the marks alternate): the
    same ids as naming each move on the position RESULT made; rules without
    (Nim) replay it, and give the positions too."""
    from app.games.ids import resolve
    for game in ("game:connect4", "game:tictactoe", "game:tictactoe:xo.x.o...", "game:nim:9"):
        tree = resolve(game)
        rules, node = tree.rules, tree.root
        for seed in range(12):
            rand = random.Random(seed).random
            start = node if seed % 3 == 0 else tree.child_of(node, tree.actions_of(node)[seed % 2])
            _, path, _ = tree.playout(start, rand, None)
            state, moves = path
            want, prefix, positions = [], "" if start.parent is None else start.id + "-", []
            for a in moves:
                prefix += rules.move_name(state, a)
                want.append(prefix)
                prefix += "-"
                state = rules.result(state, a)
                positions.append(state)
            states: list = []
            assert tree.playout_ids(start, path) == tree.playout_ids(start, path, states) == want
            assert states == ([] if hasattr(rules, "move_names") else positions)
