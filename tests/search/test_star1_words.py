"""Issue 26: Star1's sentences say where an outcome's window comes from
("α = (7.5 − 0.5 × 10) / 0.5 = 5") and never speak of a player choosing a
chance outcome: an outcome is cut at its window's edge, which the sentence
says in terms of the chance node (or of the leaf bound), in both languages."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.i18n import words
from app.search import SearchOptions, run
from app.treefile import load_path, load_tree

REPO = Path(__file__).resolve().parents[2]

# A MIN root over chance nodes of MAX outcomes: a β-side window cut (c1) and a
# cut at the leaf bound (b1 reaches U = 10), the sides star1-prunes.yaml lacks.
SIDES = """
title: Star1 on both sides
bounds: [0, 10]
root:
  id: A
  player: MIN
  children:
    - id: B
      type: chance
      children:
        - {id: b1, probability: 0.5, player: MAX, children: [10, 3]}
        - {id: b2, probability: 0.5, player: MAX, children: [1, 2]}
    - id: C
      type: chance
      children:
        - {id: c1, probability: 0.8, player: MAX, children: [8, 9]}
        - {id: c2, probability: 0.2, player: MAX, children: [0, 0]}
"""


def texts(tree, lang=None):
    return {e["step"]: e for e in run(tree, SearchOptions(algorithm="star1"),
                                      words(lang) if lang else None)}


def test_an_outcomes_window_is_worked_out_and_no_player_chooses_an_outcome():
    ev = texts(load_path(REPO / "trees" / "star1-prunes.yaml"))
    c1 = next(e for e in ev.values() if e["type"] == "enter" and e["node"] == "c1")
    assert c1["text"].startswith("Enter MIN node c1 with α = (7.5 − 0.5 × 10) / 0.5 = 5, "
                                 "β = U = 10: the window in which this outcome (p = 0.5) "
                                 "decides C, from C's α = 7.5 and β = +∞")
    cut = next(e for e in ev.values() if e["type"] == "prune" and e["node"] == "c1")
    assert cut["text"] == ("MIN at c1: v = 2 ≤ α = 5, the low end of its window: chance node C "
                           "can no longer get above its own α = 7.5, whatever its other "
                           "outcomes score, so its last child c1.2 cannot matter and is pruned "
                           "(α cut-off).")
    assert not any("will never choose" in e["text"] for e in ev.values())


def test_the_high_side_and_the_leaf_bound():
    ev = texts(load_tree(SIDES))
    said = [e["text"] for e in ev.values() if e["type"] in ("enter", "prune")]
    assert ("MAX at b1: v = 10 ≥ β = 10, the most any leaf scores: b1 can go no higher, so its "
            "last child b1.2 cannot matter and is pruned (β cut-off).") in said
    # (the unseen 0.2 at L = 0 adds nothing: the term is left out)
    assert any(s.startswith("Enter MAX node c1 with α = L = 0, β = 6 / 0.8 = 7.5: ") for s in said)
    assert any(s.startswith("MAX at c1: v = 8 ≥ β = 7.5, the high end of its window: chance node "
                            "C can no longer get below its own β = 6") for s in said)
    assert not any("let play reach" in s for s in said)


@pytest.mark.parametrize("lang", ["id"])
def test_in_indonesian(lang):
    ev = texts(load_path(REPO / "trees" / "star1-prunes.yaml"), lang)
    c1 = next(e for e in ev.values() if e["type"] == "enter" and e["node"] == "c1")
    assert c1["text"].startswith("Masuk ke simpul MIN c1 dengan α = (7.5 − 0.5 × 10) / 0.5 = 5, "
                                 "β = U = 10: jendela")
    cut = next(e for e in ev.values() if e["type"] == "prune" and e["node"] == "c1")
    assert "MAX" not in cut["text"].split(":", 1)[1] and "c1.2" in cut["text"]
