"""The game-words check (issue 20): a game's runs say positions and moves in
words, never as a board's string, in English and Indonesian; Connect Four's
best move names its column. The page's narrator (static/js/core/narrate.js) takes
its words from the compact records, checked here too, so both twins follow."""
import json
import re

import pytest

from app.games.ids import resolve
from app.i18n import words
from app.search import SearchOptions, run
from app.search.compact import records

RAW = re.compile(r"[XO·.]{3}/|/[XO·.]{3}|·")
"""A board's string in a sentence: a row and its slash, or an empty cell's dot."""

RUNS = [
    ("game:connect4", "alphabeta", 4),
    ("game:connect4:4435", "minimax", 2),
    ("game:tictactoe:x...o....", "alphabeta", None),
    ("game:tictactoe:xo..x...o", "minimax", None),
    ("game:tictactoe:xx..o....", "alphabeta", None),
    ("game:tictactoe", "alphabeta", 2),
    ("game:nim:7", "minimax", None),
    ("game:nim:5-2", "alphabeta", None),
]


@pytest.mark.parametrize("lang", ["en", "id"])
@pytest.mark.parametrize("game, algorithm, depth", RUNS)
def test_no_sentence_shows_a_board_string(game, algorithm, depth, lang):
    opts = SearchOptions(algorithm=algorithm, depth=depth)
    events = list(run(resolve(game), opts, words(lang)))
    for ev in events:
        assert not RAW.search(ev["text"]), (game, lang, ev["text"])
    # What the page narrates from: every position and move said in words.
    said = [json.loads(text) for text, _ in records(resolve(game), opts, words(lang))]
    header = said[0][1]
    assert header["game"] == game.split(":")[1]
    worded = [r for r in said if r[0] in (5, 6)]
    assert worded
    for r in worded:
        assert r[-1] and not RAW.search(r[-1]), (game, lang, r)


@pytest.mark.parametrize("lang, column", [("en", "column 4"), ("id", "kolom 4")])
def test_connect_four_best_move_names_its_column(lang, column):
    done = list(run(resolve("game:connect4"), SearchOptions(depth=4), words(lang)))[-1]
    assert done["best_move"] == "X4"
    head = done["text"].split(".")[0]
    assert head.endswith(f"X {'in' if lang == 'en' else 'di'} {column}"), head


def test_moves_that_win_or_block_say_so():
    events = list(run(resolve("game:tictactoe:xx..o...."), SearchOptions(algorithm="minimax")))
    text = " ".join(e["text"] for e in events)
    assert "O in the top-right corner to block" in text     # the reply that stops X's row
    assert "X in the top-right corner to win" in text       # X's own row, where O does not
    c4 = list(run(resolve("game:connect4:445566"), SearchOptions(depth=1)))[-1]
    assert c4["best_move"] == "X3" and "X in column 3 to win" in c4["text"]   # (3 before 7: centre out)


def test_a_board_is_named_mark_by_mark():
    events = list(run(resolve("game:tictactoe:xo..x...o"), SearchOptions(algorithm="minimax")))
    first = events[0]["text"]
    # From four marks on, each mark's cells by their short names (a sentence may name two boards).
    assert "X at top-left and centre; O at top middle and bottom-right (MAX to move)" in first
    full = " ".join(e["text"] for e in events)
    assert re.search(r"X at [^;,]+, [^;,]+ and [^;,]+; O at ", full)   # three cells: "a, b and c"
    few = list(run(resolve("game:tictactoe:x...o...."), SearchOptions(algorithm="minimax")))
    assert "X in the top-left corner, O in the centre" in few[0]["text"]   # fewer: in full


def test_the_pages_narrator_says_games_in_words_too():
    """static/js/core/narrate.js, run by Node over the compact records of game runs
    (English and Indonesian): the very sentences of the core, none with a board."""
    import subprocess
    from pathlib import Path

    from app.i18n import js_messages
    from app.search.descriptors import document

    for lang in ("en", "id"):
        runs, expected = [], []
        for game, algorithm, depth in [("game:connect4", "alphabeta", 2), RUNS[4], RUNS[7]]:
            opts = SearchOptions(algorithm=algorithm, depth=depth)
            runs.append([json.loads(text) for text, _ in records(resolve(game), opts, words(lang))])
            expected.append([e["text"] for e in run(resolve(game), opts, words(lang))])
        script = Path(__file__).with_name("narrate_records.mjs")
        out = subprocess.run(["node", str(script)], input=json.dumps(
            {"catalogue": js_messages(lang), "runs": runs, "algorithms": document()}),
            capture_output=True, text=True,
            timeout=60, check=True)
        said = json.loads(out.stdout)
        assert said == expected, lang
        assert not any(RAW.search(text) for texts in said for text in texts)
        assert said[0][-1].split(".")[0].endswith(" 4")      # Connect Four: "... X in column 4" / "kolom 4"
