"""The narrator's shortcuts for long streams give what its general handlers
give: returns of two-player searches written out in one method
(``Narrator._ret_plain``), sentences through ``%`` templates made once per
message (``Narrator.said``), numbers' words remembered (``Narrator.figure``),
a game's node phrases remembered per position, and game nodes labelled from
the position memo."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from app.games.ids import resolve
from app.i18n import words
from app.search import SearchOptions, algorithms_for, raw_events
from app.search.descriptors import get
from app.search.narrate import Narrator
from app.search.numbers import fmt
from app.treefile import load_path

from .strategies import trees

TREES = sorted((Path(__file__).resolve().parents[2] / "trees").glob("*.yaml"))


def both_ways(tree, opts: SearchOptions, say=None) -> list[dict]:
    """The events with the shortcut for returns and without; asserted equal."""
    opts = opts.resolved(tree)
    narrator = get(opts.algorithm).narrator_class   # (its record's: PVS's adds its tests)
    fast = narrator(tree, opts, say)
    slow = narrator(tree, opts, say)
    slow.plain = False
    got = list(fast.narrate(raw_events(tree, opts)))
    want = list(slow.narrate(raw_events(tree, opts)))
    for k, (a, b) in enumerate(zip(got, want)):
        assert list(a.items()) == list(b.items()), f"event {k + 1} differs"   # key order too
    assert len(got) == len(want)
    return got


@pytest.mark.parametrize("path", TREES, ids=lambda p: p.stem)
@pytest.mark.parametrize("lang", [None, "id"])
def test_two_player_returns_the_same_either_way_on_the_library(path, lang):
    tree = load_path(path)
    say = words(lang) if lang else None
    for alg in algorithms_for(tree):
        for extra in ({}, {"strict": True}, {"order": "worst"}, {"style": "wikipedia"}):
            both_ways(tree, SearchOptions(algorithm=alg, **extra), say)


def test_the_shortcut_is_taken_for_two_players_only():
    fig = load_path(TREES[0].parent / "aima-fig-5-2.yaml")
    assert Narrator(fig, SearchOptions(algorithm="alphabeta").resolved(fig)).plain
    assert Narrator(resolve("game:nim:7"), SearchOptions(algorithm="minimax")).plain
    chance = [p for p in TREES if load_path(p).has_chance]
    multi = [p for p in TREES if load_path(p).multiplayer]
    assert chance and multi
    for p in chance + multi:
        t = load_path(p)
        assert not Narrator(t, SearchOptions(algorithm=algorithms_for(t)[0]).resolved(t)).plain


@settings(max_examples=40, deadline=None)
@given(tree=trees(max_depth=4, max_branch=4, evals=True,
                  values=st.one_of(st.integers(-20, 20),
                                   st.sampled_from([0.5, 10 ** 20, 1e20, -0.0, float("inf")]))),
       alg=st.sampled_from(["minimax", "alphabeta", "iterative"]), strict=st.booleans(),
       depth=st.sampled_from([None, 1, 2]), lang=st.sampled_from([None, "id"]))
def test_random_trees_the_same_either_way(tree, alg, strict, depth, lang):
    if depth is not None and depth >= tree.height:
        depth = None
    if alg == "iterative" and depth is None:
        depth = max(1, tree.height - 1) if tree.height > 1 else None
        if depth is None:
            alg = "alphabeta"
    both_ways(tree, SearchOptions(algorithm=alg, strict=strict, depth=depth),
              words(lang) if lang else None)


@pytest.mark.parametrize("game, depth", [("game:tictactoe:x...o....", None), ("game:nim:8", None),
                                         ("game:connect4", 2)])
def test_games_the_same_either_way(game, depth):
    tree = resolve(game)
    for lang in (None, "id"):
        events = both_ways(tree, SearchOptions(algorithm="alphabeta", depth=depth),
                           words(lang) if lang else None)
        assert any(e["type"] == "prune" for e in events)


def test_said_is_what_tell_says_in_any_order_of_fields():
    """A translation may put the fields in another order or say one twice;
    a tell that changes its fields cannot be a template and is called."""
    fig = load_path(TREES[0].parent / "aima-fig-5-2.yaml")
    opts = SearchOptions(algorithm="alphabeta").resolved(fig)
    msgid = "{player} at {node}: v = {op}({old}, {child_value}) = {new}, through {child}."
    values = ("MAX", "A", "max", "−∞", "3", "3", "B 100%")
    fields = dict(zip(["player", "node", "op", "old", "child_value", "new", "child"], values))
    reordered = {msgid: "Lewat {child}, {node} ({player}): {new} = {op}({old}, {child_value}) "
                        "= {new}, 100%."}

    def translated(m, **f):
        return reordered.get(m, m).format(**f)

    def shouting(m, **f):
        return m.format(**{k: str(v).upper() for k, v in f.items()})

    for tell in (None, translated, shouting, words("id")):
        narrator = Narrator(fig, opts, tell)
        said = narrator.said(msgid, *values)
        assert said == narrator.tell(msgid, **fields)
        assert narrator.said(msgid, *values) == said          # the template, made once, again
    assert Narrator(fig, opts, translated).said(msgid, *values).startswith("Lewat B 100%, A (MAX)")
    assert "v = MAX(−∞, 3)" in Narrator(fig, opts, shouting).said(msgid, *values)


def test_figures_are_fmt_whatever_came_before():
    """Remembered by type and value: 1 and 1.0 alike, 10**20 and 1e20 apart."""
    fig = load_path(TREES[0].parent / "aima-fig-5-2.yaml")
    narrator = Narrator(fig, SearchOptions(algorithm="alphabeta").resolved(fig))
    xs = [10 ** 20, 1e20, 1, 1.0, True, -0.0, 0, 2.5, -3, float("inf"), -float("inf"), "inf",
          (1, 2.5), [3, -1], None, 0.1 + 0.2]
    for _ in range(2):
        for x in xs + xs[::-1]:
            assert narrator.figure(x) == fmt(x), x


def test_game_nodes_are_labelled_as_their_positions_say():
    """Labels come from the position memo (tic-tac-toe) or are made on first
    use (Connect Four, not memoised): either way the rules' display."""
    for game in ("game:tictactoe:x...o....", "game:connect4"):
        tree = resolve(game)
        rules = tree.rules
        assert tree.root.label == rules.display(tree.root.state)
        for child in tree.root.children:
            assert child.label == rules.display(child.state)
            for grandchild in child.children[:3]:
                assert grandchild.label == rules.display(grandchild.state)
        with pytest.raises(AttributeError):
            tree.root.colour   # only the label is made on demand


def test_events_share_their_pseudocode_maps_and_say_the_same():
    """One map of lines per kind and role, shared by the events that show it
    (not copied per event): each event still shows its own kind's lines."""
    from app.search.pseudocode import line_of

    tree = resolve("game:tictactoe:x...o....")
    opts = SearchOptions(algorithm="alphabeta").resolved(tree)
    events = list(Narrator(tree, opts).narrate(raw_events(tree, opts)))
    updates = [e for e in events if e["type"] == "update" and e["player"] == "MAX"]
    assert len(updates) > 10 and all(e["lines"] is updates[0]["lines"] for e in updates)
    assert updates[0]["lines"]["aima"] == line_of("alphabeta", "aima", "update", "max")
    exits = {e["lines"]["aima"] for e in events if e["type"] == "exit" and e["player"] == "MIN"}
    assert exits == {line_of("alphabeta", "aima", k, "min") for k in ("exit", "return-cut")}
