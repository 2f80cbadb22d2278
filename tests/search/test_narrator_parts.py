"""The Narrator is one class over its parts (narrate_plain, narrate_cuts,
narrate_summary, by kind of sentence); the state they share is named once,
``Narrator.SHARED``: a part reads or writes only that state and the
Narrator's methods, so what one part keeps is visible where it is set."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.search import SearchOptions
from app.search.narrate import Narrator
from app.treefile import load_path

SEARCH = Path(__file__).resolve().parents[2] / "app" / "search"
PARTS = ("narrate_plain", "narrate_cuts", "narrate_summary")


def attributes(text: str) -> set[str]:
    return set(re.findall(r"\bself\.(\w+)", text))


@pytest.mark.parametrize("part", PARTS)
def test_a_part_uses_only_the_named_shared_state_and_methods(part):
    used = attributes((SEARCH / f"{part}.py").read_text(encoding="utf-8"))
    methods = {name for name in used if callable(getattr(Narrator, name, None))}
    assert used - methods <= set(Narrator.SHARED), used - methods - set(Narrator.SHARED)


def test_the_shared_state_is_set_when_a_narrator_is_made():
    tree = load_path(SEARCH.parents[1] / "trees" / "aima-fig-5-2.yaml")
    narrator = Narrator(tree, SearchOptions(algorithm="alphabeta").resolved(tree))
    assert not [name for name in Narrator.SHARED if not hasattr(narrator, name)]


def test_the_pages_narrator_says_only_kinds_of_the_table():
    """narrate*.js name sentences by kind (``S.leaf``, ``S[`many_${cut}`]``): each is one
    of app/search/sentences.py's, so the page never says an undefined message."""
    from app.search.sentences import SENTENCES

    js = "".join(p.read_text(encoding="utf-8")
                 for p in sorted((SEARCH.parents[1] / "static" / "js").rglob("narrate*.js")))
    named = set(re.findall(r"\bS\.(\w+)", js))
    patterns = re.findall(r"\bS\[`([^`]+)`\]", js)
    assert named and patterns and named <= set(SENTENCES), named - set(SENTENCES)
    for pattern in patterns:
        shape = re.compile(re.sub(r"\\\$\\\{[^}]*\\\}", r"\\w*", re.escape(pattern)) + "$")
        assert any(shape.match(kind) for kind in SENTENCES), pattern
