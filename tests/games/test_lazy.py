"""Games searched from their rules, lazily: the counts of the lectures, and
the same answers as the game's tree written out as a file."""
from __future__ import annotations

import gc
import json
import weakref

import pytest

from app.games.ids import UnknownGame, resolve
from app.games.lazy import GameNode
from app.games.protocol import game_tree
from app.games.rules import NimRules
from app.games.tictactoe import TicTacToe
from app.search import SearchError, SearchOptions, View, raw_events, run
from app.search.algorithms import EVAL, EXIT, RET
from app.treefile import load_path, load_tree


def build_tree(doc):
    return load_tree(json.dumps(doc), fmt="json")


def counts(tree, **options) -> tuple[int, int]:
    """(entered, evaluated) from the raw events: every node reached once."""
    entered = evaluated = 0
    for ev in raw_events(tree, SearchOptions(**options)):
        if ev[0] == RET:
            entered += 1
            evaluated += ev[4] is not None
        elif ev[0] == EVAL:
            entered += 1
            evaluated += 1
    return entered + 1, evaluated  # + the root, which is entered, not returned


@pytest.mark.slow
def test_minimax_on_the_whole_of_tictactoe_enters_549946_nodes_and_evaluates_255168():
    assert counts(resolve("game:tictactoe"), algorithm="minimax") == (549_946, 255_168)


@pytest.mark.slow
def test_alphabeta_on_the_whole_of_tictactoe_in_reading_order():
    tree = resolve("game:tictactoe")
    done = list(run(tree, SearchOptions(algorithm="alphabeta")))[-1]
    assert done["value"] == 0 and done["best_move"] == "X1"
    assert done["stats"] == {"entered": 18_297, "evaluated": 7_330, "cutoffs": 4_237,
                             "pruned_nodes": 531_649, "minimax_evaluated": 255_168,
                             "saved": 255_168 - 7_330, "events": 52_172}
    assert done["stats"]["pruned_nodes"] + done["stats"]["entered"] == 549_946


def test_move_ordering_changes_alphabetas_work_not_its_answer():
    # One pass of raw events per ordering gives both (narrating the worst
    # ordering's 200,000 events only to read the last took 20 s); the root's
    # exit carries the value the done event reports.
    tree = resolve("game:tictactoe")
    work, values = {}, {}
    for order in ("best", "given", "worst", "random"):
        evaluated = 0
        for ev in raw_events(tree, SearchOptions(algorithm="alphabeta", order=order)):
            if ev[0] == RET:
                evaluated += ev[4] is not None
            elif ev[0] == EVAL:
                evaluated += 1
        assert ev[0] == EXIT and ev[1] is tree.root
        work[order], values[order] = evaluated, ev[2]
    assert work["best"] < work["given"] < work["worst"] < 255_168
    assert set(values.values()) == {0}


def test_h_minimax_with_lugers_e_n_at_depth_2_picks_the_centre():
    done = list(run(resolve("game:tictactoe"), SearchOptions(algorithm="minimax", depth=2)))[-1]
    assert (done["value"], done["best_move"]) == (1, "X5")       # corners -1, edges -2
    assert done["stats"]["evaluated"] == done["stats"]["minimax_evaluated"] == 72
    first = [e for e in run(resolve("game:tictactoe"), SearchOptions(algorithm="minimax", depth=2))
             if e["type"] == "evaluate"][0]
    assert first["node"] == "X1-O2" and first["value"] == 6 - 5   # E = M - O


@pytest.mark.parametrize("cells", ["x...o....", "xo..x...o", "xx.oo...."])
@pytest.mark.parametrize("options", [{"algorithm": "minimax"}, {"algorithm": "alphabeta"},
                                     {"algorithm": "alphabeta", "order": "best"},
                                     {"algorithm": "alphabeta", "depth": 2, "strict": True}])
def test_a_position_searched_lazily_equals_its_tree_written_out(cells, options):
    lazy = resolve(f"game:tictactoe:{cells}")
    board = "/".join(cells[i:i + 3] for i in (0, 3, 6)).upper()
    doc = game_tree(TicTacToe(start=board), title="t", symmetry=False, inner_eval=True,
                    root_id="start")
    written = build_tree(doc)
    ours, theirs = (list(run(t, SearchOptions(**options))) for t in (lazy, written))
    assert [(e["type"], e.get("node"), e.get("v")) for e in ours] == \
        [(e["type"], e.get("node"), e.get("v")) for e in theirs]
    for key in ("value", "best_move", "evaluated", "pruned", "pv", "stats"):
        assert ours[-1][key] == theirs[-1][key], key


def test_nim_7_equals_the_library_tree():
    library = load_path("trees/nim-7.yaml")
    for alg in ("minimax", "alphabeta"):
        ours = list(run(resolve("game:nim:7"), SearchOptions(algorithm=alg)))[-1]
        theirs = list(run(library, SearchOptions(algorithm=alg)))[-1]
        assert ours["value"] == theirs["value"] == 0
        for key in ("entered", "evaluated", "cutoffs", "minimax_evaluated"):
            assert ours["stats"][key] == theirs["stats"][key], (alg, key)
    # Several piles, and MIN to move first.
    written = build_tree(game_tree(NimRules((5, 2), "MIN"), title="n", symmetry=False))
    ours = list(run(resolve("game:nim:5-2:min"), SearchOptions(algorithm="minimax")))[-1]
    assert ours["value"] == list(run(written, SearchOptions(algorithm="minimax")))[-1]["value"]
    assert ours["stats"]["entered"] == len(written.nodes)


def test_connect4_takes_a_win_and_blocks_one():
    # X has three in the bottom row (columns 1-3): X wins at column 4 now.
    done = list(run(resolve("game:connect4:152535"), SearchOptions(algorithm="alphabeta", depth=2)))[-1]
    assert done["best_move"] == "X4" and done["value"] == 1000
    # O to move must block X's bottom row at column 4.
    done = list(run(resolve("game:connect4:11223"), SearchOptions(algorithm="alphabeta", depth=3)))[-1]
    assert done["best_move"] == "O4"


def test_connect4_alphabeta_agrees_with_minimax_with_fewer_evaluations():
    tree = resolve("game:connect4")
    ab = list(run(tree, SearchOptions(algorithm="alphabeta", depth=4)))[-1]
    mm = list(run(tree, SearchOptions(algorithm="minimax", depth=4)))[-1]
    assert ab["value"] == mm["value"] and ab["best_move"] == mm["best_move"]
    assert mm["stats"]["evaluated"] == mm["stats"]["minimax_evaluated"] == 7 ** 4
    assert ab["stats"]["evaluated"] < mm["stats"]["evaluated"] / 5


def test_games_refuse_what_they_cannot_do():
    with pytest.raises(SearchError, match="depth limit from 1 to 8"):
        run(resolve("game:connect4"), SearchOptions(algorithm="alphabeta"))
    with pytest.raises(SearchError, match="no evaluation function"):
        run(resolve("game:nim:7"), SearchOptions(algorithm="minimax", depth=2))
    with pytest.raises(SearchError, match="two-player"):
        run(resolve("game:nim:7"), SearchOptions(algorithm="maxn"))
    for bad in ("game:chess", "game:tictactoe:xxx", "game:tictactoe:xxxxooooo", "game:nim:0",
                "game:nim:a", "game:connect4:8", "game:connect4:1111111", "tictactoe"):
        with pytest.raises(UnknownGame):
            resolve(bad)


def test_a_finished_position_is_its_own_value():
    done = list(run(resolve("game:tictactoe:xxxoo...."), SearchOptions(algorithm="minimax")))[-1]
    assert done["value"] == 10 and done["best_move"] is None and done["evaluated"] == ["start"]


def test_the_search_holds_one_path_not_the_tree():
    """Nodes the search has finished are freed as it goes."""
    tree = resolve("game:tictactoe")
    live = weakref.WeakSet()
    most = 0
    for k, ev in enumerate(raw_events(tree, SearchOptions(algorithm="minimax"))):
        if k % 97 == 0:
            live.add(ev[2] if ev[0] == RET else ev[1])
            gc.collect(0)
            most = max(most, len(live))
        if k > 60_000:
            break
    assert most < 60


def test_view_shows_nodes_below_a_cut_pruned_and_finds_nodes_by_id():
    tree = resolve("game:tictactoe:xo..x...o")
    events = list(run(tree, SearchOptions(algorithm="alphabeta")))
    prune = next(e for e in events if e["type"] == "prune")
    top = prune["skipped"][0]
    view = View.replay(tree, events)
    below = tree.node(top).children[0].id
    assert view.get(top)["status"] == view.get(below)["status"] == "pruned"
    assert view.state(below)["status"] == "unvisited"
    assert isinstance(tree.node(below), GameNode) and tree.parent_of(below).id == top


def test_the_page_gets_the_top_of_the_tree_with_collapsed_subtrees_counted():
    tree = resolve("game:tictactoe")
    doc = tree.to_dict()
    first = doc["root"]["children"][0]
    assert doc["game"] == "game:tictactoe" and first["id"] == "X1"
    assert first["children"][0] == {"id": "X1-O2", "label": "XO·/···/···", "player": "MAX",
                                    "collapsed": True, "size": tree.size_of(tree.node("X1-O2"))}
    sizes = sum(1 + len(c["children"]) for c in doc["root"]["children"])
    assert 1 + sizes + sum(g["size"] - 1 for c in doc["root"]["children"] for g in c["children"]) \
        == 549_946
    opened = tree.to_dict(["X1-O2-X3"])
    x1o2 = opened["root"]["children"][0]["children"][0]
    assert [c["id"] for c in x1o2["children"]][:2] == ["X1-O2-X3", "X1-O2-X4"]
    assert "children" in x1o2["children"][0] and x1o2["children"][1]["collapsed"]
