"""The sentences a lecturer says aloud (issue: teach the details)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.search import SearchOptions, run
from app.treefile import load_path
from app.treefile.library import library_paths

from .trees import AIMA_5_2, nested


def events_of(tree, **kw):
    return list(run(tree, SearchOptions(**kw)))


def test_a_child_that_leaves_v_unchanged_still_gets_its_step():
    events = events_of(nested(AIMA_5_2), algorithm="alphabeta")
    after_b2 = events[[e.get("node") for e in events].index("b2") + 1]
    assert after_b2["type"] == "update" and after_b2["node"] == "B"
    assert after_b2["child"] == "b2" and after_b2["old"] == after_b2["new"] == 3
    assert after_b2["changes"] == []
    assert "12 from b2 does not lower v: v stays 3" in after_b2["text"]
    # The root's step for C (a bound of 2) does not raise MAX's 3 either.
    root_keeps = [e for e in events if e["type"] == "update" and e["node"] == "A"
                  and e["old"] == e["new"]]
    assert [e["child"] for e in root_keeps] == ["C", "D"]
    assert all("does not raise v: v stays 3" in e["text"] for e in root_keeps)


def test_every_returned_value_has_an_update_step_in_every_algorithm():
    for algorithm in ("minimax", "alphabeta"):
        events = events_of(nested(AIMA_5_2), algorithm=algorithm)
        returned = [e for e in events if e["type"] in ("evaluate", "exit") and e["node"] != "A"]
        updates = [e for e in events if e["type"] == "update"]
        assert [e["node"] for e in returned] == [u["child"] for u in updates], algorithm


TREES = Path(__file__).resolve().parents[2] / "trees"


def load(tree_id):
    return load_path(TREES / f"{tree_id}.yaml")


def _library():
    return [(p.stem, load_path(p)) for p in library_paths(TREES)]


def test_no_sentence_says_the_root_root_and_minus_is_one_sign():
    for tree_id, tree in _library():
        for ev in events_of(tree):
            text = ev["text"]
            assert "root root" not in text.lower(), (tree_id, text)
            # Numbers are written with the typographic minus, as −∞ is.
            assert not re.search(r"(^|[\s(=,])-\d", text), (tree_id, text)
            assert "-∞" not in text, (tree_id, text)


@pytest.mark.parametrize("tree_id, root_words, child_words", [
    ("tictactoe-two-ply", "the empty board", "X in the top-left corner"),
    ("latombe-tictactoe-alphabeta", "the empty board", "X in the centre"),
    ("nim-7", "one pile of 7", "piles 6-1"),
])
def test_game_positions_are_named_in_words(tree_id, root_words, child_words):
    events = events_of(load(tree_id))
    text = " ".join(e["text"] for e in events)
    assert root_words in events[0]["text"] and child_words in events[1]["text"]
    assert "···" not in text and "X··/" not in text.replace("the board ", "")
    assert events[-1]["text"].startswith(f"Done: the root ({root_words}) is worth")


def test_a_move_is_named_from_its_parent():
    events = events_of(load("latombe-tictactoe-alphabeta"))
    assert "through O on the top edge" in events[3]["text"]
    nim = events_of(load("nim-7"))
    assert any("through 3 split into 2 and 1" in e["text"] for e in nim)
