"""Issue 26: Monte Carlo tree search names a game's moves in words in its
events (the UCB1 rows' `move`, a playout's first moves as `moves`), with the
words the sentences use, so the panel never writes "X1" or "O4 → X6"."""
from __future__ import annotations

from app.games.ids import resolve
from app.i18n import words
from app.search import SearchOptions, run
from app.search import narrate_mcts


def test_a_games_playout_and_rows_in_words():
    tree = resolve("game:tictactoe:xo.x.o...")
    events = list(run(tree, SearchOptions(algorithm="mcts", iterations=6, seed=1)))
    sim = events[1]
    assert sim["playout"] == ["X3-O5", "X3-O5-X9", "X3-O5-X9-O8"]
    assert sim["moves"] == ["O in the centre", "X in the bottom-right corner",
                            "O on the bottom edge to win"]
    select = next(e for e in events if e["type"] == "select")
    rows = {r["id"]: r["move"] for r in select["children"]}
    assert rows["X5"] == "X in the centre" and select["node"] in rows
    said = list(run(tree, SearchOptions(algorithm="mcts", iterations=6, seed=1), words("id")))
    assert said[1]["moves"][0] == "O di tengah"


def test_a_tree_files_events_are_unchanged_and_a_long_run_keeps_names(monkeypatch):
    from app.cli.common import load
    plain = list(run(load("aima-fig-5-2"), SearchOptions(algorithm="mcts", iterations=5, seed=1)))
    assert not any("moves" in e or any("move" in r for r in e.get("children", ())) for e in plain)
    monkeypatch.setattr(narrate_mcts, "WORDS_UP_TO", 5)
    tree = resolve("game:tictactoe:xo.x.o...")
    long = list(run(tree, SearchOptions(algorithm="mcts", iterations=6, seed=1)))
    assert not any("moves" in e for e in long) and long[1]["playout"]


def test_compact_records_leave_a_games_playout_words_to_the_page():
    """Issue 30 point 4: tic-tac-toe's and Connect Four's playouts come to the page as
    their moves' names only (it says them in words itself: static/js/core/move-words.js),
    the header saying so; Nim's and a tree file's still come in words."""
    import json

    from app.cli.common import load
    from app.search.compact import records

    def recs(tree, iterations=20):
        opts = SearchOptions(algorithm="mcts", iterations=iterations, seed=2)
        out = [json.loads(text) for text, _ in records(tree, opts)]
        head = out[0][1]["mcts"]   # (the page says every move itself: no [6] records)
        assert head.get("move_words", False) is not any(r[0] == 6 for r in out)
        return head, [r for r in out if r[0] == 12 and r[2]]

    for game in ("game:connect4", "game:tictactoe"):
        head, sims = recs(resolve(game))
        assert head["words"] is True and head["playout_words"] == narrate_mcts.PLAYOUT_WORDS
        assert head["move_words"] is True
        assert sims and all(len(r) == 4 for r in sims), game
    head, sims = recs(resolve("game:nim:7"))
    assert "playout_words" not in head and sims and all(len(r) == 5 for r in sims)
    head, sims = recs(load("tictactoe-two-ply"))
    assert "playout_words" not in head and sims and all(len(r) == 5 for r in sims)
    head, _ = recs(resolve("game:connect4"), narrate_mcts.WORDS_UP_TO + 1)
    assert head["words"] is False and "playout_words" not in head
