"""static/js/core/move-words.js (a game's move in words, said by the page for
Monte Carlo tree search's playouts: issue 30 point 4) against the Python core's
:func:`app.search.states.move_words` and :func:`app.search.narrate_mcts.playout_words`
on random tic-tac-toe and Connect Four positions, in English and Bahasa
Indonesia with the catalogue the page receives (:func:`app.i18n.js_messages`)."""
from __future__ import annotations

import random

from app.games.ids import resolve
from app.i18n import js_messages, words
from app.search import narrate_mcts as NM
from app.search.states import move_words


def positions(game: str, rng: random.Random, count: int):
    """``count`` random positions of ``game`` (its rules' states), the game not over."""
    rules = resolve(f"game:{game}").rules
    out = []
    while len(out) < count:
        state = rules.initial
        for _ in range(rng.randrange(0, 40)):
            if rules.terminal_test(state):
                break
            state = rules.result(state, rng.choice(rules.actions(state)))
        if not rules.terminal_test(state):
            out.append(state)
    return rules, out


def cases(lang: str) -> dict:
    rng = random.Random(31)
    tell = words(lang)
    moves, playouts = [], []
    for game, kind in (("tictactoe", "tictactoe"), ("connect4", "connect4")):
        tree = resolve(f"game:{game}")
        rules, states = positions(game, rng, 300)
        for state in states:
            for a in rules.actions(state):   # every move from it, wins and blocks among them
                after = rules.result(state, a)
                parent, child = rules.display(state), rules.display(after)
                moves.append([kind, parent, child, move_words(kind, parent, child, tell)])
            played, s = [], state
            while not rules.terminal_test(s) and len(played) < NM.PLAYOUT_WORDS + 3:
                a = rng.choice(rules.actions(s))
                played.append(a)
                s = rules.result(s, a)
            said = NM.playout_words(tree, kind, tell, None, (state, played[:NM.PLAYOUT_WORDS]), None)
            playouts.append([kind, rules.display(state),
                             rules.move_names(state, played[:NM.PLAYOUT_WORDS]), said])
    return {"catalogue": js_messages(lang), "moves": moves, "playouts": playouts}


def test_move_words_js_says_moves_as_the_core_does(node_test):
    langs = {lang: cases(lang) for lang in ("en", "id")}
    said = [m[3] for m in langs["id"]["moves"]]
    # Random positions hold every kind of move: wins, blocks, plain, both games.
    assert sum(s.endswith("untuk menang") for s in said) > 20
    assert sum(s.endswith("untuk menghadang") for s in said) > 20
    assert sum(" di kolom " in s for s in said) > 500 and sum("pojok" in s for s in said) > 100
    assert all(len(p[3]) == len(p[2]) > 0 for p in langs["en"]["playouts"])
    node_test("move_words.test.mjs", {"langs": langs}, tests=4)
